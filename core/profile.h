/* core/profile.h: per-PC, per-hardware-thread instruction, cycle and stall counts for
 * performance tuning. Fed by dbg_after_insn (so it costs nothing unless enabled). Each retired
 * instruction adds one to its (thread, PC) (the increase of sim_thread.instructions across its
 * issue: a Nyuzi issue rolled back and replayed counts once, as in the statistics); the cycles from an instruction's issue to the same
 * thread's next issue (its latency plus every stall that followed it) are charged to it, and
 * so is the increase of each of the thread's stall counters (sim_thread.stalls[]) over that
 * interval, measured at the issues (dbg_before_insn: prof_before), plus what the instruction
 * itself counted while it executed (an ISA that counts a wait when the instruction that will
 * wait executes, as a DPU DMA): the instruction that stalled gets the stall. The cycles of all PCs add up to the
 * threads' active time and the stalls to the threads' stall counters. A thread's last
 * instruction is charged up to its halt (or the end of the run) by prof_finish; stalls a
 * thread counted before its first instruction (after the profile started) go to that first
 * instruction.
 * Call edges, where the ISA classifies its instructions (isa_ops.insn_flow, asked once per
 * new (thread, PC) entry): each hardware thread keeps a shadow call stack. When the
 * instruction after a call is not the call's own fall-through, a frame is pushed holding the
 * thread's totals (instructions, cycles, stalls) at the callee's first issue; the first issue
 * at the frame's return address pops it (after an ISA_FLOW_RETURN, also a frame below the
 * top, as a longjmp does) and adds the growth of the totals to the edge (thread, call site,
 * callee entry) as inclusive cost: everything charged from the callee's first instruction to
 * its return, calls included. Frames still open when the profile is written count up to
 * then. */
#ifndef XPUSIM_PROFILE_H
#define XPUSIM_PROFILE_H
#include <stdint.h>
#include "sim.h"

typedef struct prof_entry {
    uint64_t pc;      /* code-space address */
    int32_t thread;   /* global hardware thread: unit * threads-per-unit + thread */
    uint8_t used;     /* slot taken */
    uint8_t flow;     /* ISA_FLOW_* of the instruction at pc (isa_ops.insn_flow) */
    uint8_t ret_delta; /* a call's return address - pc */
    uint32_t succ_gen;    /* succ is the entry that followed this one last while the table's
                             generation is succ_gen: most issues skip the hash */
    struct prof_entry *succ;
    uint64_t insns, cycles;
    uint64_t stalls[SIM_MAX_STALLS]; /* by the ISA's stall_names */
} prof_entry;

/* A call edge: calls from the instruction at site to the callee entering at target, on one
 * hardware thread, with the inclusive cost of the returned calls. */
typedef struct prof_edge {
    uint64_t site, target;
    int32_t thread;
    uint64_t calls, insns, cycles;
    uint64_t stalls[SIM_MAX_STALLS];
} prof_edge;

/* An open call: where it returns, its edge, and the thread's totals at the callee's entry. */
typedef struct prof_frame {
    uint64_t ret;
    uint32_t edge;
    uint64_t insns, cycle;
    uint64_t stalls[SIM_MAX_STALLS];
} prof_frame;

typedef struct prof_thread {
    uint64_t pc, cycle, insns;
    uint64_t stalls[SIM_MAX_STALLS]; /* the thread's counters at its previous record */
    prof_entry *cur;    /* pc's entry while the table's generation is gen */
    uint32_t gen;
    uint8_t valid;
    prof_frame *stack;  /* the shadow call stack */
    uint32_t depth, cap;
} prof_thread;

typedef struct prof_state {
    prof_entry *tab;  /* open addressing keyed by (thread, pc), power-of-two size */
    uint32_t cap, n, gen; /* gen: bumped when the table grows (entries move) */
    prof_thread *th;  /* per (unit, thread) */
    int nth, tpu;     /* total threads, threads per unit */
    int nstalls;      /* the ISA's stall causes (stall_names) */
    sim_machine *m;   /* for insn_flow */
    int (*flow)(sim_machine *m, int unit, uint64_t pc, uint64_t *ret); /* NULL: no call edges */
    prof_edge *edges; /* in creation order; eidx: open addressing of index + 1 */
    uint32_t nedges, edge_cap, *eidx, eidx_cap;
} prof_state;

prof_state *prof_new(sim_machine *m);
void prof_free(prof_state *p);
/* Before an issue of (unit, thread): charge the thread's stalls since its previous record
 * (th->stalls[] now) to its previous instruction. -1 on out of memory. */
int prof_before(prof_state *p, int unit, int thread, const sim_thread *th);
/* Record an issue of (unit, thread) at pc at cycle, after its execution; th is the thread
 * (its instruction and stall counters now). -1 on out of memory. */
int prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle, const sim_thread *th);
/* Charge every thread's last instruction up to its halt or the end of the run. */
void prof_finish(prof_state *p, const sim_machine *m);
/* Entries sorted by PC, then thread, into *out (malloc'd); returns the count or -1. With
 * thread >= 0 only that thread's entries. */
int prof_sorted(const prof_state *p, int thread, prof_entry **out);
/* Call edges (of thread, or all with thread < 0) with the calls still open counted up to
 * now, sorted by site, target, thread, into *out (malloc'd); the count or -1. */
int prof_edges(const prof_state *p, int thread, prof_edge **out);

#endif
