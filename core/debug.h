/* core/debug.h: breakpoints, stepping, instruction history and tracing, for every ISA.
 * All of it sits behind one flag, m->slow: when it is zero the executors pay nothing. When
 * any feature is on, an ISA calls dbg_before_insn() before executing an instruction (it may
 * veto: the instruction is not executed and the unit must return so it re-runs on resume)
 * and dbg_after_insn() after it (history ring, trace line, step counting, watchpoint hits).
 * Breakpoints are keyed by (unit or any, address in the code space). */
#ifndef XPUSIM_DEBUG_H
#define XPUSIM_DEBUG_H
#include <stdio.h>
#include "sim.h"

#define DBG_MAX_BREAK 64
#define DBG_HISTORY 4096

typedef struct dbg_break {
    int id;
    uint64_t addr;
    int unit;           /* -1 = any unit */
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
} dbg_skip;

typedef struct dbg_hist {
    uint64_t cycle, pc;
    int16_t unit, thread;
} dbg_hist;

typedef struct dbg_state {
    dbg_break brk[DBG_MAX_BREAK];
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
    struct prof_state *prof; /* per-PC profile, NULL when off (core/profile.h) */
    int history_on;
} dbg_state;

int dbg_attach(sim_machine *m);          /* allocate m->dbg; 0 ok */
void dbg_detach(sim_machine *m);
void dbg_update_slow(sim_machine *m);    /* recompute m->slow from what is enabled */

int dbg_break_add(sim_machine *m, uint64_t addr, int unit, int temporary, const char *label);
int dbg_break_delete(sim_machine *m, int id); /* id < 0 deletes all */
/* Mark (unit, thread) to execute the instruction at pc once without breakpoint checks. */
void dbg_skip_once(sim_machine *m, int unit, int thread, uint64_t pc);
void dbg_step(sim_machine *m, int unit, int thread, uint64_t n);
void dbg_until(sim_machine *m, uint64_t pc);
void dbg_clear_run_targets(sim_machine *m);
int dbg_trace_open(sim_machine *m, const char *path);
/* Stop tracing and close the sink: 0 ok, -1 (errno set) if any trace output was lost. */
int dbg_trace_end(sim_machine *m);
int dbg_profile_on(sim_machine *m);     /* start a per-PC profile; 0 ok */

/* Hooks for executors; call only when m->slow. Return 1 from before = do not execute. */
int dbg_before_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc);
void dbg_after_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc);

#endif
