/* core/sim.h: the machine object and the shared event-driven run loop.
 * A sim_machine holds all state of one simulation: the event queue, simulated time, the
 * units (cores, DPUs, tiles) with their hardware threads, the address spaces, statistics,
 * the stop reason and the debugger state. Nothing is global, so several machines can live
 * in one process. The ISA plugs in through isa_ops (isa/isa.h): the core calls its
 * unit_run() from the unit's event; unit_run executes the unit's ready threads back to back
 * for cycles before the horizon (the next other event or the run limit) and returns the
 * cycle it wants to run next, or SIM_NEVER to sleep until something wakes it. */
#ifndef XPUSIM_SIM_H
#define XPUSIM_SIM_H
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include "event.h"
#include "mem.h"
#include "opts.h"

#define SIM_NEVER EV_NEVER
#define SIM_MAX_STALLS 12
#define SIM_FF_QUANTUM 4096
/* Machines of at most this many units step their cycle-coupled units on the run loop's ring
 * (core/run.c): a scan of the ring per burst is cheaper than a pop and a push of the queue
 * for a few units, not for thousands. */
#define SIM_RING_MAX 8
/* The options the core itself reads, valid for every ISA (core/opts.h): jobs, and watchdog,
 * the cycles without any retired instruction after which a run stops as a livelock (a model
 * or program that spins without progress, which the deadlock check cannot see). */
extern const opt_desc sim_core_options[];

struct isa_ops;
struct sim_progress;
struct ld_image;
struct dbg_state;
struct sim_task_list;

typedef enum sim_stop_kind {
    SIM_STOP_NONE = 0,
    SIM_STOP_HALT,      /* every unit finished: the clean end of a run */
    SIM_STOP_BREAK,     /* breakpoint */
    SIM_STOP_WATCH,     /* watchpoint */
    SIM_STOP_STEP,      /* step / until completed */
    SIM_STOP_FAULT,     /* memory or architectural fault */
    SIM_STOP_ILLEGAL,   /* illegal instruction */
    SIM_STOP_LIMIT,     /* --max-cycles or instruction limit */
    SIM_STOP_DEADLOCK,  /* threads wait but no event can wake them */
    SIM_STOP_USER,      /* interrupted by the user (Ctrl-C) */
    SIM_STOP_ERROR,     /* host-side error (output file, etc.) */
    SIM_STOP_MARKER     /* a fast-forward's marker reached (sim_marker, m->ff_insns) */
} sim_stop_kind;

typedef struct sim_stop {
    sim_stop_kind kind;
    int unit, thread;   /* -1 when not tied to one */
    uint64_t pc;
    uint64_t cycle;
    char msg[256];
} sim_stop;

/* Thread scheduling state (see core/sched.h). */
enum { SIM_T_READY = 0, SIM_T_SLEEP, SIM_T_HALTED, SIM_T_DISABLED };

typedef struct sim_thread {
    uint64_t ready_at;      /* earliest cycle this thread may issue */
    uint8_t state;          /* SIM_T_* */
    uint8_t started;
    uint64_t instructions;  /* retired; the ISA counts here (unit/machine totals are sums) */
    uint64_t issue_cycles;  /* cycles in which this thread issued */
    uint64_t halted_at;     /* valid when state == SIM_T_HALTED */
    uint64_t stalls[SIM_MAX_STALLS]; /* cycles lost, by ISA-defined cause */
} sim_thread;

typedef struct sim_counter {
    const char *name;
    uint64_t value;
} sim_counter;

typedef struct sim_machine sim_machine;

/* Groups > units > threads (issue 11 pt 1): a group is a named part of the machine (an IPU,
 * a CERT column) holding units, with its own thread count and clock for the units added in
 * it (sim_add_units_in), and optionally a parent group. Units outside every group belong to
 * the machine itself (group -1): the single-group default of a flat machine, whose
 * reports, names and listings are what they were before groups. A unit's path is its
 * groups' names and its own joined by dots ("ipu0.tile5"); sim_unit_path writes it. */
typedef struct sim_group {
    char name[32];
    int index;
    int parent;             /* index of the enclosing group, -1: the machine */
    int depth;              /* 0 at the top level */
    int threads;            /* threads per unit of the units added in it (0: none yet) */
    double clock_hz;        /* their clock (0: none yet) */
    int nunits;             /* units directly in it */
    const struct ld_image *image; /* its program's symbols (sim_set_image), NULL: the parent's */
} sim_group;

typedef struct sim_unit {
    char name[32];
    int index;
    int group;              /* index in m->groups, -1: the machine's own (no group) */
    const struct ld_image *image; /* its own program's symbols (sim_set_image), NULL: its group's */
    sim_machine *m;
    sim_thread *threads;
    int nthreads;
    int rr;                 /* round-robin cursor: next thread to consider */
    uint64_t last_issue;    /* cycle of the instruction being executed: set it before the dbg hooks */
    ev_event ev;            /* the unit's run event */
    uint8_t enabled, halted;
    uint32_t period;        /* machine ticks per cycle of this unit (core/clock.h): 1 with one clock
                             * (here, in padding: the units array's stride stays as it was) */
    uint64_t halted_at;
    uint64_t reached;       /* last cycle this unit has simulated through (it may run ahead of m->now) */
    uint64_t wd_next, wd_insns; /* independent units: next watchdog boundary, instructions at the last */
    double clock_hz;
    sim_counter *counters;  /* ISA-defined per-unit counters (DMA bytes, cache misses...) */
    int ncounters;
    /* ISA-defined per-thread counters: names (nthread_counters of them) and values,
     * thread_counters[thread * nthread_counters + k]; none when nthread_counters is 0 */
    const char *const *thread_counter_names;
    int nthread_counters;
    uint64_t *thread_counters;
    void *isa;              /* the ISA's per-unit state */
    struct sim_task_list *tasks; /* its tasks (core/task.h), NULL until the first */
    /* the unit's own memories (sim_unit_add_space), freed with the machine; found by
     * sim_unit_space and as "NAME.UNIT" / "NAME@UNITPATH"; no fixed limit */
    mem_space **spaces;
    int nspaces, spaces_cap;
    /* Coupling (issue 11): the unit's contract with the run loop, a sim_coupling (isa/isa.h
     * says what each promises; docs/architecture.md "Coupling"). sim_add_units sets it from
     * isa_ops.independent_units; the ISA changes it with sim_unit_set_coupling. The rest is
     * the run loop's bookkeeping for decoupled bursts. */
    uint8_t coupling;
    uint8_t wd_stale;       /* decoupled: the watchdog window restarts at the next burst */
    uint64_t burst_at;      /* in a batch: the cycle its burst starts */
    uint64_t burst_next;    /* in a batch: what its unit_run returned */
    /* cycle-coupled, on the run loop's ring (core/run.c): 0 not on it; 1 on it, its run
     * event kept by the loop, not the queue; 2 also due at ev.when (insertion number ev.seq) */
    uint8_t ring;
    /* 1: the ISA says when the unit halts (issue 11 pt 5): it does not halt with its last
     * thread (sched_halt), but when the ISA calls sim_unit_halt (a core whose threads another
     * core may restart, a uC between jobs). 0, the default: it halts with its last thread. */
    uint8_t halt_by_isa;
} sim_unit;

typedef struct sim_machine {
    const struct isa_ops *isa;
    void *isa_state;
    sim_opts opts;
    ev_queue q;
    uint64_t now;           /* time of the event being processed (sequential runs), in machine
                             * ticks (core/clock.h): cycles on a machine of one clock */
    double tick_hz;         /* ticks per second: the lcm of the units' clocks (sim_clock_setup) */
    uint32_t max_period;    /* the longest unit cycle in ticks */
    uint64_t limit;         /* last cycle a run may reach (max_cycles) */
    /* (set by sim_run for its loop) a burst's limit from the run's alone, limit + 1
     * (SIM_NEVER: none), when no instruction cap, fast-forward or progress report shortens
     * bursts (run_limits_for) and nothing is to be checked between bursts; else 0 (also
     * outside sim_run). None of those changes inside sim_run, so its bursts (four Nyuzi
     * cores: one a core-cycle) read one field instead of testing five (run.h run_horizon). */
    uint64_t run_lim;
    uint64_t max_instructions; /* 0 = no limit */
    int jobs;               /* host threads for independent units (-o jobs=N) */
    /* -o timing=none: the ISA runs functionally (isa_ops.functional says it can): the same
     * architectural results, no timing model. The core may clear it during a run (the end
     * of a fast-forward), between two unit_run calls; the ISA then calls on with its cycle
     * model from its architectural state (isa_ops.timing_resume). */
    uint8_t functional;
    /* Fast-forward markers (docs/user-guide.md "Fast-forward"): ff_magic set: the next
     * sim_marker call stops the run with SIM_STOP_MARKER; ff_insns non-zero: the run stops
     * with SIM_STOP_MARKER once the machine has retired that many instructions in all. */
    uint8_t ff_magic;
    uint64_t ff_insns;
    /* a fast-forward is armed (any marker; the frontend sets it, sim_ff_switch clears it):
     * units that run independently then advance in step, in bursts of SIM_FF_QUANTUM
     * cycles, so when the first reaches the marker the others are about as far */
    uint8_t ff_armed;
    /* After a fast-forward's switch to the cycle model (sim_ff_switch): the functional
     * part's counts, which the statistics report apart and subtract; NULL otherwise. */
    struct sim_ff_part *ff;
    uint64_t watchdog;      /* cycles without any retired instruction that end a run (0 = off) */
    uint64_t wd_insns;      /* instructions retired at the last watchdog check */
    ev_event wd_ev;         /* the watchdog's check, every `watchdog` cycles */
    sim_unit *units;        /* in the order added: units of one sim_add_units_in call are adjacent */
    int nunits;
    int nhalted;            /* enabled units that have halted */
    int nenabled;
    sim_group *groups;      /* sim_add_group, in the order added (a parent before its children) */
    int ngroups;
    /* the machine's shared spaces (sim_add_space), growable: no fixed limit */
    mem_space **spaces;
    int nspaces, spaces_cap;
    sim_stop stop;
    int slow;               /* non-zero: ISA must call the dbg hooks around each instruction */
    struct dbg_state *dbg;
    /* set by dbg_attach: frees dbg when the machine goes (so sim.c need not call into
     * debug.c, which calls sim.c: the core's files depend on each other one way only) */
    void (*dbg_free)(struct sim_machine *m);
    /* set at the first task (core/task.c): frees every unit's tasks at the machine's end and
     * at a restart (the threads' counters start over, so the tasks' counts would not hold) */
    void (*tasks_free)(struct sim_machine *m);
    const struct ld_image *image; /* the loaded program (symbols), may be NULL */
    FILE *out;              /* program console output (stdout by default) */
    FILE *err;              /* warnings (stderr by default) */
    double host_seconds;    /* wall time spent inside sim_run */
    /* the simulator's own build (`xpusim --version`), set by the front end and written with
     * the host's timing, so runs compared later say what produced them; NULL: not known */
    const char *build;
    void *lock;             /* guards stop when units run on several host threads */
    int in_parallel;        /* inside a parallel section: units' events are off the heap */
    /* progress reports (sim_set_progress); nothing simulated depends on them */
    void (*progress_fn)(void *ctx, const struct sim_progress *p);
    void *progress_ctx;
    double progress_every, progress_next, progress_read;
    unsigned progress_tick, progress_stride;
    int par_units_done;     /* parallel section: units run to the limit (atomic) */
    /* Coupling (issue 11): the run loop's batches of event-coupled units (core/run.c);
     * allocated at the first batch, freed with the machine */
    struct sim_batch *batch;
    /* the ring of cycle-coupled units whose run events the loop keeps off the queue during a
     * sim_run (machines of at most SIM_RING_MAX units; core/run.c) */
    struct sim_unit *ring[SIM_RING_MAX];
    int nring;
} sim_machine;

/* What a progress report knows. Sequential runs: the cycle reached and the instructions
 * retired. Parallel runs (-o jobs=N), whose units each run to the end in turn: how many
 * units are done (cycle and instructions are 0 there). */
typedef struct sim_progress {
    uint64_t cycle, instructions;
    int parallel, units_done, units;
} sim_progress;

/* Call fn about every `every` seconds of host time while sim_run runs (in the simulating
 * thread; at least at every event, and events come at the latest at each watchdog boundary).
 * fn NULL turns reports off. Reports read counters and change nothing simulated. */
void sim_set_progress(sim_machine *m, void (*fn)(void *ctx, const sim_progress *p), void *ctx, double every);

/* Start over at cycle 0 with memory and ISA state kept (a launch after a launch): the
 * core's per-run state is reset (time, stop, host time, halts, the watchdog) and, for the
 * units sel selects (NULL: every enabled unit), their schedule, pending run event, threads
 * and counters; an unselected enabled unit counts as halted for the next run. The ISA then
 * boots the selected units' threads and schedules them. */
void sim_restart(sim_machine *m, const uint8_t *sel);

/* Build a machine for an ISA with options; 0 ok, -1 with err filled. */
int sim_create(sim_machine *m, const struct isa_ops *isa, const sim_opts *opts, char *err, size_t errlen);
void sim_destroy(sim_machine *m);

/* Set-up helpers for ISAs (create time). */
/* fn(ctx, i, err, errlen) for every i in [first, end), on up to -o jobs=N host threads
 * (core/par.c): for set-up work on independent items that touches only item i's own state
 * (no queue, no machine lists; malloc is fine). 0 if every call returned 0; else -1 with
 * err the message of the lowest i that failed (the same for every N). */
typedef int (*sim_par_fn)(void *ctx, int i, char *err, size_t errlen);
int sim_par_for(const sim_machine *m, int first, int end, sim_par_fn fn, void *ctx, char *err, size_t errlen);
/* Units in the machine itself (group -1): sim_add_units_in(m, NULL, ...). */
int sim_add_units(sim_machine *m, int nunits, int threads_per_unit, const char *name_fmt, double clock_hz);
/* A group named name (unique among its siblings, no '.', ':' or space) inside parent (NULL:
 * the top level); NULL on a bad name or no memory. The pointer is valid until the next
 * sim_add_group: keep its index (g->index) across set-up calls. */
sim_group *sim_add_group(sim_machine *m, const char *name, const sim_group *parent);
/* Append nunits units of threads_per_unit threads at clock_hz to group g (NULL: the machine),
 * named name_fmt with the unit's number within this call (name_fmt holds one %d); unit
 * indices continue from the units already added. 0 ok, -1 bad arguments or no memory. The
 * units array may move: take pointers to units (&m->units[i]) after the last call. */
int sim_add_units_in(sim_machine *m, const sim_group *g, int nunits, int threads_per_unit, const char *name_fmt,
                     double clock_hz);
/* Put units already added (first .. first+n-1, all in the machine so far) into group g: for
 * an ISA whose units are created by a shared helper before it knows its groups. 0 ok. */
int sim_group_take_units(sim_machine *m, const sim_group *g, int first, int n);
/* The group named by path ("ipu0", "chip.col1"), or NULL. */
sim_group *sim_find_group(const sim_machine *m, const char *path);
/* The unit named by path: "ipu0.tile5", or its bare name when no other unit has it, or its
 * index; -1 if none. */
int sim_find_unit(const sim_machine *m, const char *path);
/* Write group g's (sim_group_path) or unit i's path, "" for the machine; returns buf. */
const char *sim_group_path(const sim_machine *m, int g, char *buf, size_t n);
const char *sim_unit_path(const sim_machine *m, int unit, char *buf, size_t n);
/* 1 if unit i is in group g or in one of its descendants (g -1: every unit). */
int sim_unit_in_group(const sim_machine *m, int unit, int g);
/* Images per group or unit (issue 11 pt 1): the program whose symbols name addresses of a
 * unit (a tile's own ELF). sim_set_image gives img (not copied: the caller keeps it until
 * the machine goes) to the unit or group path names ("" or NULL: the machine, m->image); 0
 * ok, -1 no such unit or group. sim_unit_image: the unit's own, else its nearest group's,
 * else the machine's (NULL if none). */
int sim_set_image(sim_machine *m, const char *path, const struct ld_image *img);
const struct ld_image *sim_unit_image(const sim_machine *m, int unit);
int sim_unit_counters(sim_unit *u, const char *const *names, int n);
/* Every unit's counters made current (isa_ops.counters_sync, when the ISA has one). sim_run
 * does it before it returns, so whatever reads them after a run (statistics, the debugger)
 * sees them current. */
void sim_counters_sync(sim_machine *m);
/* Give each of the unit's threads n counters named names[] (zeroed); -1 out of memory. */
int sim_unit_thread_counters(sim_unit *u, const char *const *names, int n);
mem_space *sim_add_space(sim_machine *m, const char *name, unsigned addr_unit, unsigned word_bytes, int big_endian);
/* A space that belongs to unit u (its local memory: a tile's, a DPU's), called name within
 * the unit (unique there) and reported as label (NULL: name); the machine frees it. NULL on a
 * duplicate name or no memory. */
mem_space *sim_unit_add_space(sim_machine *m, sim_unit *u, const char *name, const char *label, unsigned addr_unit,
                              unsigned word_bytes, int big_endian);
/* A shared space by name, or a unit's own: "NAME.UNIT" (unit by index) or "NAME@UNITPATH"
 * ("tmem@ipu0.tile5"; '@' since ':' separates a space from an address). */
mem_space *sim_space(const sim_machine *m, const char *name);
/* A unit's own space: its own (sim_unit_add_space), the ISA's (isa_ops.unit_space),
 * "NAME.UNIT" if registered, else the shared "NAME". */
mem_space *sim_unit_space(const sim_machine *m, int unit, const char *name);
int sim_register_event(sim_machine *m, ev_event *e, const char *name, ev_fn fn, void *ctx, int prio);

/* Run until a stop reason or cycle 'until' (inclusive). Returns m->stop.kind. */
sim_stop_kind sim_run(sim_machine *m, uint64_t until);

/* A unit's coupling contract (issue 11 pt 2; the full text is in isa/isa.h, the picture in
 * docs/architecture.md "Coupling"):
 *   SIM_COUPLE_CYCLE: the unit's bursts end at the next event of any unit (units that share
 *     state cycle by cycle: Nyuzi cores behind one L2);
 *   SIM_COUPLE_EVENT: the unit runs until it blocks (or the run's limits); nothing other
 *     units or events do reaches it except while it is blocked, through a wake or an event
 *     addressed to it. With -o jobs=N such units run on N host threads, in batches;
 *   SIM_COUPLE_INDEPENDENT: the unit never interacts at all (DPUs); isa_ops.independent_units
 *     declares it for every unit of a machine.
 * The debugger's hooks (m->slow) change no burst, so they change no result; decoupled units
 * then run on one host thread, and a stop finds each at its own cycle. */
typedef enum sim_coupling { SIM_COUPLE_CYCLE = 0, SIM_COUPLE_EVENT = 1, SIM_COUPLE_INDEPENDENT = 2 } sim_coupling;
/* Set u's contract at create time or while running (an IPU tile going from compute to
 * exchange). It applies from the unit's next burst: a unit that changes its own coupling in
 * unit_run should end the burst there (return the cycle it reached). */
void sim_unit_set_coupling(sim_machine *m, sim_unit *u, sim_coupling kind);

/* Used by ISAs while running. */
void sim_schedule(sim_machine *m, ev_event *e, uint64_t when);
void sim_unit_wake(sim_machine *m, sim_unit *u, uint64_t when);
void sim_unit_halt(sim_machine *m, sim_unit *u, uint64_t cycle);
void sim_unit_disable(sim_machine *m, sim_unit *u);
/* Undo sim_unit_disable before a run (an ISA's load_unit gives a unit the machine's program
 * left without code a program of its own); its threads stay as they are (the ISA starts
 * them). No-op if enabled. */
void sim_unit_enable(sim_machine *m, sim_unit *u);
/* Undo a halt: another unit restarted this one's threads (Nyuzi CR 21). No-op if running. */
void sim_unit_resume(sim_machine *m, sim_unit *u);
/* Take the unit's pending run event off wherever the run loop keeps it (the queue, or its
 * ring of cycle-coupled units): 1 with its cycle and insertion number (ev_event.seq), 0 if
 * none is pending. For an ISA that runs several units from one event (isa/mccp/cluster.c)
 * and puts them back with sim_unit_wake. */
int sim_unit_event_take(sim_machine *m, sim_unit *u, uint64_t *when, uint64_t *seq);
void sim_set_stop(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The same with an explicit cycle, for stops raised by events (an arbiter grant) rather
 * than at the unit's own issue cycle. */
void sim_set_stop_at(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc, uint64_t cycle,
                     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The magic marker (issue 9 pt 3): an ISA calls this when a thread executes its marker
 * instruction (an encoding that is a no-op otherwise; docs/isa/<isa>.md names it), after
 * the instruction has retired (it counts in the part before the switch). When a
 * fast-forward to the marker is armed (m->ff_magic) it disarms it and stops the run with
 * SIM_STOP_MARKER at this thread and pc, and returns 1: the ISA then ends its burst after
 * this instruction as after any stop, and the thread goes on at the next instruction when
 * the run resumes. Otherwise it does nothing and returns 0 (one test, inlined). */
int sim_marker_hit(sim_machine *m, int unit, int thread, uint64_t pc);
static inline int sim_marker(sim_machine *m, int unit, int thread, uint64_t pc)
{
    return m->ff_magic ? sim_marker_hit(m, unit, thread, pc) : 0;
}

/* The functional part of a fast-forward, as sim_ff_switch saw it at the switch: the cycle
 * (functional cycles count issue steps), and every counter the statistics show, per unit
 * and thread in unit order (threads[u] has units[u].nthreads entries). */
typedef struct sim_ff_unit {
    uint64_t instructions;
    uint64_t *counters;          /* ncounters */
    sim_thread *threads;         /* copies of the threads' counts at the switch */
    uint64_t *thread_counters;   /* nthreads * nthread_counters */
    uint8_t halted;              /* halted in the functional part */
} sim_ff_unit;
typedef struct sim_ff_part {
    uint64_t cycle;              /* the switch, the first machine tick no unit had simulated
                                  * (core/clock.h; cycles on a machine of one clock): the
                                  * timed part counts from here (a unit's own cycles from
                                  * sim_ff_unit_cycle) */
    uint64_t instructions;       /* retired in the functional part, in all */
    char marker[96];             /* what was reached ("symbol main", "insns:1000", "magic") */
    int reached;                 /* 0: the run ended before the marker (all functional) */
    sim_ff_unit *units;          /* m->nunits */
} sim_ff_part;

/* End a fast-forward: record the functional part (m->ff), clear m->functional, call the
 * ISA's timing_resume, and clear the stop so that sim_run goes on with the cycle model.
 * reached 0 records a run that ended before its marker (no switch: m->ff then describes
 * the whole run as functional). 0 ok, -1 out of memory. */
int sim_ff_switch(sim_machine *m, const char *marker, int reached);

const char *sim_stop_name(sim_stop_kind k);
/* Exit status for a stop: 0 halt, 2 fault/illegal, 3 limit/deadlock/marker, 1 otherwise. */
int sim_stop_exit_code(sim_stop_kind k);

static inline int sim_stopped(const sim_machine *m) { return __atomic_load_n(&m->stop.kind, __ATOMIC_RELAXED) != SIM_STOP_NONE; }
uint64_t sim_total_instructions(const sim_machine *m);
uint64_t sim_end_cycle(const sim_machine *m);

static inline int sim_thread_active(const sim_thread *t) { return t->state == SIM_T_READY || t->state == SIM_T_SLEEP; }

#endif
