/* core/runctl.h: one run-control session, shared by `xpusim run`, the readline debugger and
 * the GDB stub (issue 11 pt 4). It owns what running means between two stops: continue,
 * step N issues of a thread, until an address or a cycle, an interrupt (Ctrl-C, GDB's ^C),
 * runs cut into slices with a poll between them (the GDB socket, a window), the fast-forward
 * to a marker and the switch to the cycle model, watchpoints narrowed to a thread or a
 * condition (checked at the stop, resumed when they do not match), resuming the thread last
 * reported past the breakpoint it was shown at, draining the ISA's output once the program is
 * over, and the stop report (kind, unit, thread, pc, cycle, message) with the list of
 * waiting threads that each frontend prints in its own way. Frontends keep only their
 * command syntax and their printing. */
#ifndef XPUSIM_RUNCTL_H
#define XPUSIM_RUNCTL_H
#include <stdio.h>
#include "sim.h"

typedef struct runctl {
    sim_machine *m;
    uint64_t limit;      /* the last cycle any run may reach (--max-cycles), SIM_NEVER if none */
    /* an interactive frontend's view of a stop: its cycle is the stopped unit's issue cycle
     * (units run in bursts ahead of m->now) and an interrupt says "interrupted (Ctrl-C)";
     * `run` (0) reports the machine's own stop record as it is */
    int interactive;
    /* runs cut into slices of `slice` cycles (0: none), poll() called between them:
     * 1 interrupt the run (a stop SIM_STOP_USER), -1 abandon it (the client went away:
     * rc->abandoned set, the stop left as the slice's limit), 0 go on */
    uint64_t slice;
    int (*poll)(void *ctx);
    void *poll_ctx;
    int abandoned;
    /* fast-forward (docs/user-guide.md "Fast-forward"): armed until the marker is reached;
     * ff_stop: the switch ends the run with SIM_STOP_MARKER (the debuggers: the user looks
     * at the machine where the cycle model starts) instead of running on (`run`) */
    int ff_armed, ff_break, ff_stop;
    int ff_missed;       /* the run ended before the marker (runctl_ff_finish) */
    char ff_marker[96];
    /* the thread the last stop was reported for, and its PC then (-1: none): it resumes past
     * a breakpoint at that PC */
    int seen_unit, seen_thread;
    uint64_t seen_pc;
    int ran;             /* a run happened: m->stop describes its end */
    int over;            /* the program can go no further (halt, fault, illegal, deadlock, error) */
    int finished;        /* isa->finish has run (it drains output: once) */
    uint64_t watch_resumes; /* watchpoint hits a thread or condition filter passed over */
} runctl;

/* A stop as every frontend reports it. */
typedef struct runctl_stop {
    sim_stop_kind kind;
    int unit, thread;    /* -1 when not tied to one */
    uint64_t pc, cycle;
    const char *msg;
    int over;
} runctl_stop;

void runctl_init(runctl *rc, sim_machine *m, uint64_t limit);

/* Run until a stop or cycle `until` (inclusive; a slice end is not a stop). Returns the
 * stop's kind. */
sim_stop_kind runctl_run(runctl *rc, uint64_t until);
sim_stop_kind runctl_continue(runctl *rc);
/* Step n issues of (unit, thread): an issue is one instruction, or one bundle where an ISA
 * issues several together (the IPU's { main ; aux }). Other threads run as scheduled. */
sim_stop_kind runctl_step(runctl *rc, int unit, int thread, uint64_t n);
/* Run until a thread of `unit` (-1: any) reaches code address pc. */
sim_stop_kind runctl_until_pc(runctl *rc, int unit, uint64_t pc);
/* Run until cycle `cycle`: reaching it is a SIM_STOP_STEP of (unit, thread), "reached cycle N". */
sim_stop_kind runctl_until_cycle(runctl *rc, uint64_t cycle, int unit, int thread);
/* Stop the running machine: async-signal-safe (a lock-free compare-and-swap of the stop's
 * kind; the message is filled in when the run returns). */
void runctl_interrupt(sim_machine *m);

/* Fast-forward markers. Before the run: a code address any thread reaches (a temporary
 * breakpoint, which the ISAs' fast paths check through the breakpoint filter), N
 * instructions retired in all, or the ISA's magic marker instruction. 0 ok, -1 no memory. */
int runctl_ff_at_pc(runctl *rc, uint64_t pc, const char *label);
void runctl_ff_at_insns(runctl *rc, uint64_t n, const char *label);
void runctl_ff_at_magic(runctl *rc, const char *label);
/* After the run: a marker never reached is recorded as a wholly functional run (m->ff) and
 * rc->ff_missed set. 0 nothing to do, 1 missed, -1 out of memory. */
int runctl_ff_finish(runctl *rc);

/* The stop of the last run, and the thread a frontend reports it for (the stopped thread,
 * else the frontend's choice): recorded so the next run resumes it past its breakpoint. */
void runctl_stop_get(const runctl *rc, runctl_stop *st);
void runctl_seen(runctl *rc, int unit, int thread);
/* isa->finish once (drains program output, final reports). */
void runctl_finish(runctl *rc);
/* The cycle the user sees: the furthest a unit has issued, the end cycle after a halt. */
uint64_t runctl_now(const sim_machine *m);
int runctl_thread_live(const sim_machine *m, int unit, int thread);
/* Each thread that has not halted, with what it waits for (isa_ops.thread_state), one line
 * "PREFIX UNIT thread T: STATE" each, at most max of them then a count of the rest. Returns
 * the number of threads listed. */
int runctl_waiting(const sim_machine *m, FILE *f, const char *prefix, int max);

#endif
