/* core/task.h: tasks (issue 11 pt 5), work that starts and ends at run time on a thread
 * slot: a CERT job on a job-table slot, an IPU vertex run on a worker context. An ISA binds
 * a task to (unit, thread) with sim_task_begin and releases it with sim_task_end; the task's
 * counts are the deltas of that thread's own counters (instructions, issue cycles, stalls by
 * cause) between the two calls, so nothing is paid per instruction: the ISA counts as it
 * always did, and a task costs two copies of a thread's counters. The counts of one thread's
 * tasks add up to the thread's totals over the windows they cover. Each unit keeps its own
 * list (a unit's bursts may run on a host thread of their own, -o jobs=N: no lock), the first
 * SIM_TASKS_KEEP ended tasks of a unit one by one (fewer on machines of many units) and the
 * rest summed, so a long run's memory and statistics stay bounded. After a fast-forward
 * (m->ff) the reports show the timed part's, as for the threads: a task that ended before
 * the switch is left out, one that spans it counts from the switch. The statistics (text and
 * JSON "tasks"), the debugger's `info tasks` and the trace (a marker line at each begin and
 * end) read them here. */
#ifndef XPUSIM_TASK_H
#define XPUSIM_TASK_H
#include <stdio.h>
#include "sim.h"

#define SIM_TASK_NAME 40
/* ended tasks kept one by one per unit; later ones are summed into the unit's "more". A
 * machine of many units keeps SIM_TASKS_BUDGET in all (at least SIM_TASKS_MIN per unit), so
 * 1,472 tiles keep 44 each and the lists stay under ~20 MB */
#define SIM_TASKS_KEEP   1024
#define SIM_TASKS_BUDGET 65536
#define SIM_TASKS_MIN    16
/* the ISA's per-thread counters a task counts too (sim_unit_thread_counters: CERT's
 * tokens, uC-DMA bytes, AXI accesses), the first ones up to this many */
#define SIM_TASK_COUNTERS 8

enum { SIM_TASK_NONE = 0, SIM_TASK_RUNNING, SIM_TASK_DONE };

typedef struct sim_task {
    char name[SIM_TASK_NAME]; /* the ISA's name; "": the symbol at id (an entry address) */
    uint64_t id;              /* the ISA's number (a CERT job_id, an IPU worker entry) */
    uint64_t seq;             /* the task's number in its unit, in begin order from 0 */
    int unit, thread;
    uint8_t state;       /* SIM_TASK_RUNNING or _DONE (_NONE: a free slot) */
    uint64_t begin, end; /* cycles: bound over [begin, end); end valid when DONE */
    uint64_t cycles;     /* end - begin (a sum of tasks: the sum of theirs) */
    /* DONE: the counts over the task; RUNNING: the thread's counters at begin (a report
     * takes the difference, sim_task_view) */
    uint64_t instructions, issue_cycles;
    uint64_t stalls[SIM_MAX_STALLS];
    uint64_t counters[SIM_TASK_COUNTERS]; /* the unit's thread counters, as the counts above */
} sim_task;

/* One unit's tasks (sim_unit.tasks), made at its first task. */
typedef struct sim_task_list {
    sim_task *bound; /* per thread: the task bound to it (state RUNNING) or a free slot */
    int nthreads;
    int ncounters;  /* the unit's thread counters a task counts (SIM_TASK_COUNTERS at most) */
    sim_task *done; /* ended tasks, in end order, at most keep */
    size_t ndone, cap, keep;
    uint64_t begun; /* tasks begun on the unit */
    /* the ended tasks past keep, summed: id counts them, begin is the first one's,
     * end the last one's (state DONE once there is one) */
    sim_task more;
} sim_task_list;

/* Bind a task to thread of unit from cycle (a task still bound there ends at cycle first).
 * name is copied (truncated; NULL or "": named by the symbol at id when shown). 0 ok, -1
 * bad unit or thread, or out of memory (the task is then not recorded; the run goes on). */
int sim_task_begin(sim_machine *m, int unit, int thread, const char *name, uint64_t id, uint64_t cycle);
/* End the task bound to thread of unit at cycle (no-op when none is). */
void sim_task_end(sim_machine *m, int unit, int thread, uint64_t cycle);
/* The task bound to thread of unit, or NULL. */
const sim_task *sim_task_bound(const sim_machine *m, int unit, int thread);
/* A task's counts as of now: an ended task as it is; a running one with the deltas of its
 * thread's counters so far and end = the thread's last cycle (the end of the run so far).
 * After a fast-forward: the timed part's, cycles counted from the switch (a task that spans
 * it begins at 0). */
sim_task sim_task_view(const sim_machine *m, const sim_task *t);
/* The task's name for a listing: its own, or the symbol at id, or "0xID". Returns buf. */
const char *sim_task_name(const sim_machine *m, const sim_task *t, char *buf, size_t n);
/* 1 if the task ended before a fast-forward's switch: the timed reports leave it out. */
int sim_task_functional(const sim_machine *m, const sim_task *t);
/* The ended tasks a unit keeps one by one on a machine of nunits units. */
size_t sim_tasks_keep(int nunits);
/* 1 if any task was ever begun on the machine. */
int sim_tasks_any(const sim_machine *m);

/* Reports. Text: one line per task (at most max per unit: 0 = all, then "N more" and
 * their sums), units in order. JSON: the "tasks" member, an array of every kept task then
 * one summary object per unit that summed some (docs/stats-schema.md). Both write nothing
 * when no task was ever begun. */
void sim_tasks_write_text(const sim_machine *m, FILE *f, int max);
void sim_tasks_write_json(const sim_machine *m, FILE *f);
/* The debugger's `info tasks`: the bound task of each thread, then the ended ones (the last
 * max per unit); unit -1 for every unit. Returns the lines written (0: no task at all). */
int sim_tasks_write_list(const sim_machine *m, FILE *f, int unit, int max);

/* Free a unit's list (the machine's end and a restart do it for every unit: m->tasks_free). */
void sim_task_list_free(sim_unit *u);

#endif
