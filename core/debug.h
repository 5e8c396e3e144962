/* core/debug.h: breakpoints, stepping, instruction history and tracing, for every ISA.
 * All of it sits behind one flag, m->slow: when it is zero the executors pay nothing. When
 * any feature is on, an ISA calls dbg_before_insn() before executing an instruction (it may
 * veto: the instruction is not executed and the unit must return so it re-runs on resume)
 * and dbg_after_insn() after it (history ring, trace line, step counting, watchpoint hits).
 * Breakpoints are keyed by (unit or any, address in the code space), and may be narrowed to
 * one hardware thread and to a condition on one of the thread's registers.
 * An ISA with a fast path may keep it while only breakpoints and watchpoints are set (issue
 * 9: a breakpoint that is never hit should cost nothing): dbg_hooks() says whether the
 * per-instruction hooks are needed at all; if not, the ISA calls dbg_before_insn() only at
 * the pcs dbg_bp_maybe() flags (a superset of the breakpoint, until and resume addresses)
 * and reports watchpoint hits its memory accesses recorded with dbg_watch_report(). */
#ifndef XPUSIM_DEBUG_H
#define XPUSIM_DEBUG_H
#include <stdio.h>
#include "sim.h"

#define DBG_MAX_BREAK 64
#define DBG_HISTORY 4096
/* slots in the breakpoint filter (dbg_bp_maybe): a power of two, more than any DPU pc (the
 * filter is exact there) */
#define DBG_BPMAP_SLOTS 4096

/* A breakpoint condition: register reg (an index into isa_ops.regs, at most 64 bits) of the
 * thread that reaches the address, compared unsigned with value. */
enum { DBG_COND_NONE, DBG_COND_EQ, DBG_COND_NE, DBG_COND_LT, DBG_COND_LE, DBG_COND_GT, DBG_COND_GE };
typedef struct dbg_cond {
    int op;             /* DBG_COND_*; NONE: always */
    int reg;
    uint64_t value;
    char text[48];      /* as the user wrote it, for listings */
} dbg_cond;

typedef struct dbg_break {
    int id;
    uint64_t addr;
    int unit;           /* -1 = any unit */
    int group;          /* -1 = any; else only units of this group or its descendants */
    int thread;         /* -1 = any thread */
    dbg_cond cond;
    int temporary;
    uint64_t hits;
    char label[64];     /* the symbol or text it was set from */
} dbg_break;

/* "Execute the instruction at pc once without checking breakpoints": set for a thread that
 * stopped on a breakpoint (or that the user resumes at one), so continuing moves past it.
 * One mark per thread, so several threads stopped in one cycle all resume. */
#define DBG_MAX_SKIP 64
typedef struct dbg_skip {
    int unit, thread;
    uint64_t pc;
    uint64_t retired;   /* the thread's retired count when marked: a later one makes it stale */
} dbg_skip;

/* One instruction of the history; unit -1 marks a gap: pc instructions ran unrecorded
 * (dbg_hist_gap). */
typedef struct dbg_hist {
    uint64_t cycle, pc;
    int16_t unit, thread;
} dbg_hist;

/* One entry of the trace's disassembly cache (dbg_after_insn): the end of the trace line
 * ("PC  TEXT\n") of the instruction whose bytes (the first nbytes of them) were read at pc
 * of space. */
typedef struct dbg_dis {
    const mem_space *space;
    int thread;         /* the thread whose view it is (isa_ops.disasm_thread), else -1 */
    const uint8_t *src; /* where the bytes are in the space's memory (fixed for a machine) */
    uint64_t pc;
    uint8_t nbytes, len;
    uint8_t bytes[16];
    char text[110];
} dbg_dis;
#define DBG_DIS_ENTRIES 4096

/* A watchpoint's filter (dbg_watch_add): the watch (its space and id there) stops a run only
 * when the thread the hit belongs to is (unit, thread) (-1: any) and cond holds for it.
 * hits: the watch's hit count (mem_watch.hits) when last looked at, to tell which watch an
 * access hit. */
#define DBG_MAX_WATCH 64
typedef struct dbg_watch {
    mem_space *space;
    int id;
    int unit, thread;
    int group;          /* -1 = any; else only accesses of units of this group (or below) */
    dbg_cond cond;
    uint64_t hits;
} dbg_watch;

typedef struct dbg_state {
    dbg_break brk[DBG_MAX_BREAK];
    dbg_watch watch[DBG_MAX_WATCH];
    int nwatch;
    int nbrk, next_id;
    dbg_skip skip[DBG_MAX_SKIP];
    int nskip;
    /* stepping: stop when thread (step_unit, step_thread) has retired step_left more */
    int step_unit, step_thread;
    uint64_t step_left;
    /* until ADDRESS: stop when any thread (or step_unit/thread if set) reaches until_pc */
    int until_active;
    uint64_t until_pc;
    dbg_hist *hist;     /* ring of the last DBG_HISTORY instructions */
    uint64_t nhist;
    FILE *trace;        /* instruction trace sink, NULL when off */
    FILE *trace_held;   /* the sink while dbg_trace_pause has the trace paused */
    uint64_t trace_from, trace_to;   /* trace only cycles [from, to) (dbg_trace_limit) */
    uint64_t trace_lo, trace_hi;     /* and pcs [lo, hi) */
    dbg_dis *dis;       /* the trace's disassembly cache, DBG_DIS_ENTRIES, made on first use */
    int trace_err;      /* the trace's cache could not be made: text disassembled each time */
    char dis_long[200]; /* a line end too long for the cache */
    uint64_t tr_cycle;  /* the last traced cycle, and its 10 or more characters ... */
    char tr_cyc[24];
    int tr_cyclen;      /* ... (0: none yet) */
    /* the trace's code space of unit k at [k % 64] (finding it formats and compares names;
     * a machine's spaces are made with it and never change) */
    struct dbg_cspace {
        int unit;
        mem_space *space;
        char name[64];  /* the unit as trace lines name it (sim_unit_path) */
    } cspace[64];
    struct prof_state *prof; /* per-PC profile, NULL when off (core/profile.h) */
    int history_on;
    /* an observer of every executed instruction (a frontend's timeline), NULL when none */
    void (*observe)(void *ctx, sim_machine *m, sim_unit *u, int thread, uint64_t pc);
    /* and of the events an ISA notes (traps, interrupts, syscalls): dbg_note */
    void (*note)(void *ctx, sim_machine *m, int unit, int thread, uint64_t cycle, const char *what);
    void *observe_ctx;
    /* what dbg_update_slow derived: the per-instruction hooks are needed (trace, history,
     * step, profile, observer); the breakpoint filter over the breakpoint, until and
     * resume-mark addresses (byte dbg_bp_slot(pc) non-zero; all zero when there are none;
     * bytes, not bits: a fast path tests one with a load, an and and a branch) */
    int hooks;
    int watching;       /* some space has watchpoints (callers update after adding one) */
    uint32_t bp_gen;    /* changes whenever the filter is rebuilt (never 0) */
    uint8_t bpmap[DBG_BPMAP_SLOTS];
} dbg_state;

/* Fast-path helpers (see the top of this file). */
static inline int dbg_hooks(const sim_machine *m) { return m->slow && m->dbg && m->dbg->hooks; }
static inline unsigned dbg_bp_slot(uint64_t pc) { return (unsigned)pc & (DBG_BPMAP_SLOTS - 1); }
/* The filter, NULL when no breakpoint, until or resume address is set. */
static inline const uint8_t *dbg_bp_map(const sim_machine *m)
{
    const struct dbg_state *d = m->dbg;
    return m->slow && d && (d->nbrk || d->until_active || d->nskip) ? d->bpmap : NULL;
}
/* The profile an ISA's fast path feeds (isa_ops.profile_fast; core/profile.h prof_issue,
 * notes/profile-api.md): NULL when there is none, or while the hooks are on (then
 * dbg_before_insn/dbg_after_insn feed it and the fast path must not). */
static inline struct prof_state *dbg_profile(const sim_machine *m)
{
    const struct dbg_state *d = m->dbg;
    return m->slow && d && !d->hooks ? d->prof : NULL;
}
/* 1 if dbg_before_insn must see the instruction at pc (possibly a false alarm: it then
 * returns 0 and does nothing). */
static inline int dbg_bp_maybe(const uint8_t *map, uint64_t pc) { return map[dbg_bp_slot(pc)]; }

int dbg_attach(sim_machine *m);          /* allocate m->dbg; 0 ok */
void dbg_detach(sim_machine *m);
void dbg_update_slow(sim_machine *m);    /* recompute m->slow from what is enabled */

int dbg_break_add(sim_machine *m, uint64_t addr, int unit, int temporary, const char *label);
int dbg_break_delete(sim_machine *m, int id); /* id < 0 deletes all */
/* Narrow breakpoint id to one thread (-1: any) and a condition (NULL: none). A thread that
 * reaches it otherwise passes without a stop or a hit. 0 ok, -1 no such breakpoint. */
int dbg_break_filter(sim_machine *m, int id, int thread, const dbg_cond *cond);
/* Narrow breakpoint id to the units of group g (sim_unit_in_group: g or its descendants;
 * -1: any), as unit narrows it to one (`break ADDR ipu0`). 0 ok, -1 no such breakpoint. */
int dbg_break_group(sim_machine *m, int id, int group);
/* Parse "REG OP VALUE" (OP one of == != < <= > >=; blanks optional) against the ISA's
 * registers. 0 ok, -1 with err set. */
int dbg_cond_parse(const sim_machine *m, const char *text, dbg_cond *c, char *err, size_t errlen);
/* Add a watchpoint on LEN address units at addr of space (kind MEM_R, MEM_W or both),
 * narrowed to a thread of unit (-1: any) and a condition on that thread's registers (NULL:
 * none). A hit that does not match still stops the ISA at once (the accessors do not know
 * threads); the run control then passes over it (dbg_watch_wanted). Returns the watch's id
 * in its space, -1 if full. */
int dbg_watch_add(sim_machine *m, mem_space *space, uint64_t addr, uint64_t len, unsigned kind, int unit, int thread,
                  const dbg_cond *cond);
/* Remove a watch (its filter too). 0 ok, -1 no such watch. */
int dbg_watch_remove(sim_machine *m, mem_space *space, int id);
/* Narrow a watch (its space and id) to accesses of units of group g (-1: any). 0 ok, -1 no
 * such watch. */
int dbg_watch_group(sim_machine *m, const mem_space *space, int id, int group);
/* The filter of a watch, NULL if it has none (set with mem_watch_add directly). */
const dbg_watch *dbg_watch_find(const sim_machine *m, const mem_space *space, int id);
/* After a run stopped on a watchpoint: 1 if the stop stands (a watch that hit has no filter,
 * or its filter matches the stopped thread), 0 if every watch that hit is filtered out. It
 * takes note of the hits, so ask once per stop. */
int dbg_watch_wanted(sim_machine *m);
/* A device or a DMA engine (not an instruction) wrote (or read) [addr, addr + len) of
 * space on behalf of thread of unit (-1: none) whose instruction at pc started it: if a
 * watch matches, stop the run at cycle with "watchpoint N: SOURCE write of SPACE:0xADDR
 * (LEN units) for UNIT thread T", so the stop names where the write came from. For ISAs, at
 * any time (it takes the stop's lock); costs one test when the space has no watches. 1 if
 * it stopped. */
int dbg_watch_device(sim_machine *m, mem_space *space, uint64_t addr, uint64_t len, unsigned kind, int unit,
                     int thread, uint64_t pc, uint64_t cycle, const char *source);
/* Mark (unit, thread) to execute the instruction at pc once without breakpoint checks. */
void dbg_skip_once(sim_machine *m, int unit, int thread, uint64_t pc);
void dbg_step(sim_machine *m, int unit, int thread, uint64_t n);
void dbg_until(sim_machine *m, uint64_t pc);
void dbg_clear_run_targets(sim_machine *m);
int dbg_trace_open(sim_machine *m, const char *path);
/* Trace only the instructions issued in cycles [from, to) at pcs [lo, hi) (the defaults:
 * everything). */
void dbg_trace_limit(sim_machine *m, uint64_t from, uint64_t to, uint64_t lo, uint64_t hi);
/* Pause (1) or resume (0) the trace, keeping its sink: a frontend runs the cycles outside
 * the trace window with the trace paused, so they take the ISA's fast path. */
void dbg_trace_pause(sim_machine *m, int paused);
/* Stop tracing and close the sink: 0 ok, -1 (errno set) if any trace output was lost. */
int dbg_trace_end(sim_machine *m);
int dbg_profile_on(sim_machine *m);     /* start a per-PC profile; 0 ok */
/* Call fn after every executed instruction (u->last_issue is its cycle), and note for every
 * event an ISA notes (may be NULL); fn NULL stops both. 0 ok. */
int dbg_observe(sim_machine *m, void (*fn)(void *ctx, sim_machine *m, sim_unit *u, int thread, uint64_t pc),
                void (*note)(void *ctx, sim_machine *m, int unit, int thread, uint64_t cycle, const char *what),
                void *ctx);
/* For ISAs, while m->slow: a thread's event worth seeing on a timeline (a trap, an
 * interrupt, a syscall; `what` is a static name), at cycle. */
void dbg_note(sim_machine *m, int unit, int thread, uint64_t cycle, const char *what);

/* Disassemble the instruction at addr of unit's code space as thread decodes it
 * (isa_ops.disasm_thread, else disasm; thread -1: the unit's default view). Returns its
 * size in address units; 0 with "(no code at this address)" or "(truncated instruction)"
 * in buf when it cannot. */
int dbg_disasm(sim_machine *m, int unit, int thread, uint64_t addr, char *buf, size_t n);

/* Hooks for executors; call only when m->slow. Return 1 from before = do not execute. */
int dbg_before_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc);
void dbg_after_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc);
/* For a fast path without the hooks (dbg_hooks() 0): stop on a watchpoint hit one of the
 * machine's spaces recorded (mem_watch_check) during the instruction at pc, as
 * dbg_after_insn does. */
void dbg_watch_report(sim_machine *m, sim_unit *u, int thread, uint64_t pc);
/* Note in the history that n instructions ran without being recorded (a frontend's run in
 * which the hooks were off), so `history` does not show older entries as the latest. */
void dbg_hist_gap(sim_machine *m, uint64_t n);

#endif
