/* isa/dpu/func_rec.h: the functional mode's own records and threaded loop (func_rec.c),
 * between func.c (which runs them) and machine.c (which keeps them). A record holds only
 * what executing the instruction needs (operands, immediate, the handler's address, the
 * branch target as a record offset): no timing fields. The loop runs the running tasklets
 * round robin over a ring of slots (one per tasklet: its next record and its registers), or
 * one tasklet's turn (a ring of one), dispatching record to record by computed goto. */
#ifndef XPUSIM_DPU_FUNC_REC_H
#define XPUSIM_DPU_FUNC_REC_H
#include "dpu.h"

typedef struct dpu_fn_rec dpu_fn_rec;
typedef struct dpu_fn_state dpu_fn_state;

/* The machine's records (machine.c keeps them): the shared program's, built at load (one
 * host thread), and each DPU's own once its IRAM differs (built by its own run). */
dpu_fn_state *dpu_fn_create(int ndpus);
void dpu_fn_free(dpu_fn_state *fs);
/* (Re)build the records of the machine's shared predecoded program (dm->shared_iram). */
void dpu_fn_build_shared(dpu_fn_state *fs, const dpu_machine *dm);
/* The records DPU d runs (valid for its current IRAM), or NULL (none: out of memory, or not
 * built): the caller then runs the instructions another way. prof: the loop that feeds
 * --profile (its own records, made on first use: a profile runs on one host thread). */
const dpu_fn_rec *dpu_fn_records(dpu_fn_state *fs, dpu_unit *d, int prof);

/* One tasklet's place in the ring: its next record, its state; with --profile its batch
 * (func_rec_loop.h FN_FEED; 64 bytes: the loop steps by address). */
typedef struct dpu_fn_slot {
    const dpu_fn_rec *ip;
    dpu_tasklet *tk;
    int64_t *bat;             /* its thread's batch words (prof_bat); no batch: the profile's
                                 words that never count (prof_bat_poison) */
    const dpu_fn_rec *lip;    /* the batch's last issue (NULL: none yet, row0 still open) */
    struct prof_thread *pt;   /* its profile thread */
    uint64_t *row0;           /* the row open when the batch began */
    uint64_t ins0;            /* its count at the run's start */
    uint64_t first;           /* the cycle of its first issue in the run (then every step) */
} dpu_fn_slot;

/* The ring of a DPU's running tasklets, in order, one slot each (the loop steps to the next
 * slot by address: no pointer to chase; the slot after the last wraps). While built, the
 * slots hold the running tasklets' pcs (their records): dpu_fn_ring_flush writes them back
 * to the tasklets. */
typedef struct dpu_fn_ring {
    dpu_fn_slot sl[DPU_NTHREADS_MAX + 1];
    int8_t pos[DPU_NTHREADS_MAX]; /* tasklet -> its slot, -1: not running */
    const dpu_fn_rec *recs;  /* the DPU's records, recs[nwords] the guard after IRAM */
    uint32_t nwords;
    uint32_t run;            /* the RUN bits it was built for; 0: not built */
    int nrun;
    int der;                 /* --profile: the stall cause each issue's wait derives (the
                                cycle model's revolver in a steady round: step - 1 cycles
                                before the tasklet's next issue; core/profile.h
                                prof_bat_derive), -1 (the build's): none, functional */
} dpu_fn_ring;

/* Build the ring over the running tasklets run (bits below nt) from their pcs. */
void dpu_fn_ring_build(dpu_fn_ring *r, dpu_unit *d, const dpu_fn_rec *recs, uint32_t run, int nt);
/* Write every slot's pc back to its tasklet (the ring stays built). */
void dpu_fn_ring_flush(dpu_fn_ring *r);
/* Tasklet k's pc changed outside the ring (the executor ran it): its slot follows. */
void dpu_fn_ring_refresh(dpu_fn_ring *r, int k);
/* Run up to n instructions from tasklet *k at cycle t: round robin over the ring (one), or
 * tasklet *k alone (a turn). Returns the instructions run; fewer than n when the next one
 * (tasklet *k's, its pc written back) is not run here: the executor's (a DMA, a stop, an
 * access that would fault, a rare form). Every tasklet's count (th[]) includes what it ran.
 * prof (records made with prof set): each issue feeds it, thread g0 + tasklet. */
struct prof_state;
uint64_t dpu_fn_ring_run(dpu_fn_ring *r, dpu_unit *d, sim_thread *th, int *k, uint64_t n, int one, uint64_t t,
                         struct prof_state *prof, int g0);

#endif
