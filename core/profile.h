/* core/profile.h: per-PC instruction and cycle counts for performance tuning.
 * Fed by dbg_after_insn (so it costs nothing unless enabled). Each retired instruction adds
 * one to its PC; the cycles from an instruction's issue to the same thread's next issue
 * (its latency plus every stall that followed it) are charged to it, so the cycles of all
 * PCs add up to the threads' active time. A thread's last instruction is charged up to its
 * halt (or the end of the run) by prof_finish. */
#ifndef XPUSIM_PROFILE_H
#define XPUSIM_PROFILE_H
#include <stdint.h>
#include "sim.h"

typedef struct prof_entry {
    uint64_t pc;      /* code-space address */
    uint64_t insns, cycles;
    uint8_t used;     /* slot taken */
} prof_entry;

typedef struct prof_thread {
    uint64_t pc, cycle;
    uint8_t valid;
} prof_thread;

typedef struct prof_state {
    prof_entry *tab;  /* open addressing, power-of-two size */
    uint32_t cap, n;
    prof_thread *th;  /* per (unit, thread) */
    int nth, tpu;     /* total threads, threads per unit */
} prof_state;

prof_state *prof_new(const sim_machine *m);
void prof_free(prof_state *p);
/* Count one instruction of (unit, thread) at pc issued at cycle. -1 on out of memory. */
int prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle);
/* Charge every thread's last instruction up to its halt or the end of the run. */
void prof_finish(prof_state *p, const sim_machine *m);
/* Entries sorted by PC into *out (malloc'd); returns the count or -1. */
int prof_sorted(const prof_state *p, prof_entry **out);

#endif
