/* isa/isa.h: the one interface through which a processor plugs into xpusim.
 * Each isa/<name>/ directory defines one const isa_ops named isa_<name>; the Makefile
 * generates the registry (build/isa_list.h) from the directories present, so adding an ISA
 * touches no shared file. The core calls create/load/unit_run; frontends call only what is
 * here (registers, disassembly, assembly, debug info, framebuffer) and know no ISA internals.
 * Decode, disassembly and assembly of an ISA come from its single instruction table. */
#ifndef XPUSIM_ISA_H
#define XPUSIM_ISA_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../core/sim.h"
#include "../loaders/loader.h"


/* One debugger view: its name, a line of help, and the handler that prints it for a unit
 * (0 ok, -1 nothing to show for that unit). Tables end with name == NULL. */
typedef struct isa_view {
    const char *name;
    const char *help;
    int (*show)(sim_machine *m, int unit, FILE *out);
} isa_view;
/* The view called name, or NULL. */
const isa_view *isa_view_find(const struct isa_ops *isa, const char *name);

enum { ISA_REG_THREAD = 0, ISA_REG_UNIT = 1 }; /* per hardware thread, or shared by the unit */
enum { ISA_REG_PC = 1, ISA_REG_RO = 2 };

typedef struct isa_reg {
    const char *name;
    unsigned bits;       /* >64: vector, read/written as bits/8 bytes little-endian lanes */
    int scope;           /* ISA_REG_THREAD or ISA_REG_UNIT */
    unsigned flags;      /* ISA_REG_PC, ISA_REG_RO */
    const char *group;   /* "general", "special", "vector", "control"... */
} isa_reg;

/* What a retired instruction does to the flow of control, for --profile's call graph
 * (isa_ops.insn_flow). */
enum { ISA_FLOW_NONE = 0, ISA_FLOW_CALL = 1, ISA_FLOW_RETURN = 2 };

typedef struct isa_framebuffer {
    const uint32_t *pixels; /* XRGB8888 */
    unsigned width, height, stride; /* stride in pixels */
} isa_framebuffer;

typedef struct isa_ops {
    const char *name;          /* "mccp", "dpu", "nyuzi", "ipu", "cert" */
    const char *description;
    /* Identify a program: 0 = not ours, higher = more certain (ELF e_machine match = 100). */
    int (*probe)(const ld_image *img);
    const opt_desc *options; /* NULL-terminated by name == NULL */
    /* Optional: the value option name actually has in this run when the program, not the
     * command line, decided it (the DPU's tasklets from NR_TASKLETS); NULL: given or default.
     * Printed in the statistics so that every cycle count names its assumptions. */
    const char *(*option_value)(const sim_machine *m, const char *name, char *buf, size_t n);
    const char *const *stall_names; /* NULL-terminated, at most SIM_MAX_STALLS */

    /* Machine life cycle. create reads m->opts, adds units, spaces and events. */
    int (*create)(sim_machine *m, char *err, size_t errlen);
    void (*destroy)(sim_machine *m);
    /* Place a program (and start the threads the architecture starts). */
    int (*load)(sim_machine *m, const ld_image *img, char *err, size_t errlen);
    /* Optional (issue 11 pt 1): after load and before the run, place img in unit `unit`
     * only (an IPU tile's own ELF, a CERT uC's own control code), replacing what load put
     * there, and start its threads as load does for every unit; the other units keep
     * theirs. The caller keeps img until the machine goes (and gives it to the unit with
     * sim_set_image, so its symbols name the unit's addresses). 0 ok, else -1 with err
     * (the file does not fit the machine, or the unit cannot take it). NULL: every unit
     * runs the one program (`--image` then says so). */
    int (*load_unit)(sim_machine *m, int unit, const ld_image *img, char *err, size_t errlen);
    /* Run the unit's threads for cycles in [now, horizon): horizon is the next other event
     * or the run limit. Return the next cycle the unit wants to run (it may be < horizon
     * only if the unit scheduled another event before it), or SIM_NEVER to sleep until
     * sim_unit_wake. Must return as soon as sim_stopped(m) (a breakpoint, a fault): the
     * returned cycle is where it resumes. With isa->independent_units set, units of one
     * machine may run on several host threads at once: unit_run may then touch only its
     * own unit's state (and call sim_set_stop, which is thread-safe). */
    uint64_t (*unit_run)(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
    /* Make u->counters current (NULL: unit_run keeps them current itself). An ISA whose
     * counts live in its own state may leave them to this in its plain runs instead of
     * copying them after every unit_run (a cycle-coupled unit returns every cycle): the core
     * calls it (sim_counters_sync) before anything reads them, at the end of sim_run and at
     * the fast-forward switch. While m->slow (the debugger's hooks, observers such as the
     * timeline, which read them mid-run) unit_run must still keep them current itself. */
    void (*counters_sync)(sim_machine *m, sim_unit *u);
    /* Units never interact during a run (DPUs): allows parallel host threads (-o jobs=N).
     * It declares SIM_COUPLE_INDEPENDENT for every unit (sim_add_units sets it).
     *
     * The coupling contract (issue 11; core/sim.h sim_coupling, docs/architecture.md
     * "Coupling"). Each unit has one, which the ISA sets with sim_unit_set_coupling at
     * create time or while running; the default is SIM_COUPLE_CYCLE.
     * - Cycle-coupled: horizon is the next event of any unit or the limit, as above. Units
     *   that read or write state another unit uses cycle by cycle (a shared L2) need it.
     * - Event-coupled: horizon is only the run's limits (the cycle limit, the unit's own
     *   watchdog boundary, an instruction cap): the unit runs until it blocks (returns
     *   SIM_NEVER: every thread waits for a wake) or reaches the horizon. The ISA promises
     *   that nothing another unit or an event does reaches this unit except while it is
     *   blocked, through a wake (sim_unit_wake, sched_wake) or an event addressed to it, at
     *   a cycle no earlier than the one it blocked at (a barrier released by its last
     *   arrival; exchange after a sync). In return the unit may run ahead of every other
     *   unit, and its bursts come in batches: the run loop takes every event-coupled unit
     *   due before the next other event, runs their bursts (with -o jobs=N on N host
     *   threads), then the other events in time order, and so on (the BSP pattern). During
     *   a burst unit_run may touch only its own unit's state and data no other burst
     *   writes, and its sim_schedule / sim_unit_wake / sched_wake calls (events for the
     *   rest of the machine, wakes of other units) take effect when the batch ends, in the
     *   order of the batch and of the calls, whatever the number of host threads (so
     *   ev_pending does not show them meanwhile). Results are the same for every -o jobs.
     *   A unit that cannot keep the promise for a while (an IPU tile in exchange) becomes
     *   cycle-coupled for that while. A burst ends before its horizon only when the unit
     *   blocks, halts, stops (sim_set_stop, or sim_stopped) or changes its coupling: a unit's
     *   fault in a batch finishes the batch's other bursts (those cut short at the stop go
     *   on, the others run) and the earliest fault by (cycle, unit) is the stop, so that
     *   the results are the same for every -o jobs. The debugger's hooks (m->slow) change
     *   no burst; they keep the batch on one host thread, a stop there ends the batch at
     *   once, and it finds each unit at its own cycle.
     * - Independent: never interacts at all (DPUs); as event-coupled, and never woken by
     *   another unit. */
    int independent_units;
    /* A unit halts with its last thread (sched_halt) unless the ISA sets u->halt_by_isa:
     * then it halts when the ISA calls sim_unit_halt (core/sim.h; issue 11 pt 5). */
    /* After a run ends (any stop): drain output buffers, final reports. May be NULL. */
    void (*finish)(sim_machine *m);

    /* Debugger state. */
    const isa_reg *regs;
    int nregs;
    int (*reg_read)(sim_machine *m, int unit, int thread, int reg, uint8_t *buf);
    int (*reg_write)(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf);
    uint64_t (*pc_get)(sim_machine *m, int unit, int thread);
    /* One-line thread state ("waiting DMA until 1234"); may be NULL. */
    void (*thread_state)(sim_machine *m, int unit, int thread, char *buf, size_t n);
    /* The thread's architectural name for track and list labels ("supervisor", "W3",
     * "job slot 2"); may be NULL: then "thread N". */
    void (*thread_name)(sim_machine *m, int unit, int thread, char *buf, size_t n);
    /* The ISA's own debugger views (dma, cache, tlb, arbiter): a command table the debugger's
     * `info NAME` and the GDB stub's `monitor info NAME` both list and dispatch. May be NULL. */
    const struct isa_view *views;

    /* Code and disassembly. code_space names the space the PC addresses. */
    const char *code_space;
    /* Disassemble the instruction at addr from p[0..avail); return the number of address
     * units it occupies (>0), or 0 if avail is too short. Unknown encodings print as data. */
    int (*disasm)(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n);
    /* For "xpusim disasm": list a program file without building a machine. opts: the command
     * line's -o options, checked against the ISA's (isa_check_options); the ISA reads those
     * that decide decoding (the IPU's arch). May be NULL. */
    int (*disasm_image)(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen);
    /* Assemble (and link) source files into OUT. 0 ok; errors name file:line. May be NULL. */
    int (*assemble)(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts,
                    char *err, size_t errlen);
    /* The assembler's -o options (NULL-terminated by name == NULL; NULL: none). */
    const opt_desc *asm_options;

    /* Host protocol: where an ELF symbol's value lives (space name, address in it).
     * May be NULL: then the first space and the value itself. */
    int (*symbol_location)(sim_machine *m, int unit, const ld_symbol *sym, mem_space **space, uint64_t *addr);
    /* A unit's own copy of a per-unit space ("mram" of DPU 1234) without registering
     * thousands of names: sim_unit_space and the "NAME.UNIT" syntax ask this first. May be
     * NULL: then only the spaces added with sim_add_space exist. */
    mem_space *(*unit_space)(sim_machine *m, int unit, const char *name);
    /* Host protocol: `--vertex FILE` instead of PROGRAM. The ISA reads the host file (the IPU:
     * a vertex file naming a codelet, tensors and a vertex state), fills img with the program
     * it names (the caller frees img with ld_free, after destroying the machine), loads it
     * into m as load does and sets the state the file describes. 0 ok; errors name
     * file:line. May be NULL. */
    int (*host_file)(sim_machine *m, const char *path, ld_image *img, char *err, size_t errlen);
    /* Frame to show or dump; 0 ok, -1 none. May be NULL. */
    int (*framebuffer)(sim_machine *m, isa_framebuffer *fb);
    /* Period (cycles) of the window refresh event. */
    uint64_t frame_period;
    /* Optional, for --profile's call edges: what the instruction at pc (code space of unit)
     * does to the flow of control: ISA_FLOW_CALL if it links and jumps (the callee returns
     * to *ret, ret - pc < 256), ISA_FLOW_RETURN if it is an indirect jump that may return,
     * else ISA_FLOW_NONE (also for code it cannot read). Decided from the encoding alone; the
     * profile asks once per (thread, pc) it records and never without a profile, so the
     * executors and their fast paths are unchanged. NULL: no call edges. */
    int (*insn_flow)(sim_machine *m, int unit, uint64_t pc, uint64_t *ret);
    /* Non-zero: the ISA has a functional mode (-o timing=none, m->functional): every
     * instruction with its architectural effect, no timing (each thread's ready_at may still
     * advance one step per issue so that the core's loop moves on). */
    int functional;
    /* Optional: m->functional was just cleared (a fast-forward reached its marker): rebuild
     * whatever the cycle model keeps beside the architectural state (ready times from now,
     * pipelines empty; caches stay as the functional run left them where the ISA keeps them
     * warm). NULL: nothing to rebuild. */
    void (*timing_resume)(sim_machine *m);
    /* Non-zero: the ISA's fast path feeds --profile itself (core/profile.h prof_issue, the
     * contract in notes/profile-api.md), so a profile alone does not turn the per-instruction
     * hooks on (dbg_hooks() stays 0; dbg_profile() gives the profile to feed). Zero: the
     * hook path (dbg_before_insn/dbg_after_insn) feeds it, as before. */
    int profile_fast;
    /* Optional (issue 11 pt 3): disassemble as hardware thread `thread` of `unit` decodes,
     * in its context or decode mode (the IPU's supervisor and worker contexts decode the
     * same word differently), with disasm's contract otherwise. The debugger's disasm, x/i
     * and history, the trace and the GDB stub's views use it (core/debug.h dbg_disasm).
     * NULL: disasm for every thread. */
    int (*disasm_thread)(sim_machine *m, int unit, int thread, uint64_t addr, const uint8_t *p, size_t avail,
                         char *buf, size_t n);
} isa_ops;

/* Registry (isa/registry.c). */
const isa_ops *isa_find(const char *name);
const isa_ops *isa_probe(const ld_image *img);
int isa_count(void);
const isa_ops *isa_at(int i);
int isa_reg_find(const isa_ops *isa, const char *name);
/* Check that every key in opts is known to the ISA (or to the core); -1 with err if not. */
int isa_check_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen);
/* The same for `xpusim asm -o KEY=VALUE` against isa->asm_options. */
int isa_check_asm_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen);

#endif
