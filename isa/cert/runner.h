/* isa/cert/runner.h: internal interface of the CERT job-runner model, shared by machine.c
 * (isa_ops glue, debugger, building the uCs), runner.c (job table, pages, scheduling,
 * opcode semantics), runner_io.c (array accesses, tokens, uC-DMA), hang.c (what each job
 * waits for, hang and watchdog reports, views) and timing.c (options and latencies). One cert_machine (m->isa_state) holds every piece of
 * state; a uC is a sim_unit and its job-table slots are the unit's threads. */
#ifndef XPUSIM_CERT_RUNNER_H
#define XPUSIM_CERT_RUNNER_H
#include <stdint.h>
#include <stdio.h>
#include "cert.h"
#include "array.h"
#include "../isa.h"

/* ---- timing (timing.c) ---- */
typedef struct cert_timing {
    double uc_mhz;
    uint64_t cost[CC_COUNT];        /* firmware cycles per opcode class */
    uint64_t sched_pass, poll_retry;
    uint64_t axi_write, axi_read;
    uint64_t ucdma_setup;
    double ucdma_word;
    uint64_t fetch_fixed;
    double fetch_byte;
    uint64_t dma_task_setup;
    double dma_words_per_cycle;
    uint64_t tct_latency;
    uint64_t opcode_timeout;
    /* semantics switches */
    int preempt, strict, w32d_mlir, spec, tct_by_column;
    int job_slots, ucdma_queue;
    unsigned columns, rows, mem_rows;
    unsigned array_columns;          /* width of the array model */
    int target;                      /* cert_target, or -1: the program's */
    int functional;                  /* -o timing=none: the latencies below are cert_timing_functional's */
} cert_timing;

extern const opt_desc cert_options[];
int cert_timing_read(const sim_opts *o, cert_timing *t, char *err, size_t n);
const char *cert_class_option(int cls);
uint64_t cert_fetch_cycles(const cert_timing *t, uint32_t len);
uint64_t cert_ucdma_cycles(const cert_timing *t, uint32_t nbd, uint64_t words);
uint64_t cert_sleep_cycles(const cert_timing *t, uint32_t us);
/* -o timing=none (docs/isa/cert.md "Functional mode"): every latency of t becomes that of
 * the functional model (one cycle per opcode, nothing else takes time), the semantics
 * switches stay; cert_timing_latencies copies the latencies (not the switches) of from. */
void cert_timing_functional(cert_timing *t);
void cert_timing_latencies(cert_timing *t, const cert_timing *from);
/* isa_ops.timing_resume (machine.c): a fast-forward ended, the options' latencies again. */
void cert_timing_resume(sim_machine *m);

/* ---- stall causes (isa_ops.stall_names order) ---- */
enum {
    CS_TCT = 0, CS_BARRIER, CS_REMOTE_BARRIER, CS_UCDMA, CS_POLL, CS_PAGE_FETCH, CS_AXI, CS_LOAD,
    CS_UCDMA_FULL, CS_READY, CS_COUNT
};
extern const char *const cert_stall_names[];

/* ---- per-uC counters (sim_unit counters, in this order) ---- */
enum {
    CN_PAGES = 0, CN_JOBS, CN_SWITCHES, CN_YIELDS, CN_AXI_READS, CN_AXI_WRITES, CN_POLL_RETRIES,
    CN_TOKENS, CN_UCDMA_XFERS, CN_UCDMA_BYTES, CN_PAGE_WAIT, CN_UNMODELLED, CN_DROPPED, CN_RECORDS,
    CN_LOADS, CN_COUNT
};
extern const char *const cert_counter_names[];

/* ---- per-job counters (sim_unit thread counters, per job-table slot) ---- */
enum { CJC_TOKENS = 0, CJC_UCDMA_BYTES, CJC_AXI, CJC_COUNT };
extern const char *const cert_job_counter_names[];
/* The counter k of the job in slot s of uC c. */
#define CERT_JOB_CNT(m, c, s, k) ((m)->units[(c)->index].thread_counters[(size_t)(s) * CJC_COUNT + (k)])

/* ---- jobs ---- */
enum { CJ_FREE = 0, CJ_READY, CJ_BLOCKED, CJ_DEFERRED };
/* What a blocked job waits for. */
enum {
    CW_NONE = 0, CW_TCT, CW_LB, CW_RB, CW_UCDMA, CW_UCDMA_FULL, CW_POLL, CW_LOAD, CW_SYNC
};

typedef struct cert_job {
    uint8_t state;          /* CJ_* */
    uint8_t wait;           /* CW_* when blocked */
    uint8_t depth;          /* page context the job belongs to */
    uint8_t resumed;        /* the blocking opcode's condition is met: finish it when dispatched */
    uint8_t op_begun;       /* the current opcode has run at least once (op_since is valid) */
    uint16_t id;            /* job_id operand */
    uint32_t page, off;     /* pc of the next (or blocked) opcode */
    uint32_t start_off;     /* offset of its START_JOB */
    uint32_t r[CERT_NLOCAL_REG];
    uint64_t ready_at;      /* READY: earliest dispatch; CW_POLL: next attempt */
    uint64_t since;         /* cycle it blocked (or became ready): stall accounting */
    uint64_t poll_seq;      /* CW_POLL: cert_machine.change_seq at the last failed attempt */
    uint8_t phase;          /* REL_ACQ_SYNC: 1 = released, acquiring */
    uint64_t op_since;      /* cycle the current opcode first started (opcode watchdog) */
    uint8_t stall;          /* CS_* the current wait is charged to */
    /* the wait's parameters */
    uint32_t w_tile, w_actor, w_count;  /* CW_TCT */
    uint32_t w_barrier, w_need;         /* CW_LB (need = participants), CW_RB (need = party mask) */
    uint32_t w_handle;                  /* CW_UCDMA */
    uint32_t w_addr, w_mask, w_value;   /* CW_POLL: the last value read is w_count */
    uint32_t w_sync;                    /* CW_SYNC: implicit sync number */
} cert_job;

/* A page context: the in-order sequence (depth 0) or an out-of-order sub-sequence run by a
 * LOAD_PDI / LOAD_CORES / LOAD_LAST_PDI / PREEMPT job (depth > 0). */
#define CERT_MAX_DEPTH 6
typedef struct cert_ctx {
    uint32_t page;          /* page running (or waiting to start) */
    uint32_t parse;         /* parser offset: next START_JOB / EOF */
    uint8_t eof, started;
    uint64_t fetch_done;    /* the page's fetch completes */
    int ret_job;            /* the job that runs this sub-sequence (-1 for depth 0) */
    uint32_t then_page;     /* PREEMPT with preemption: restore page to run after the save page */
    uint8_t has_then;
    int fence;              /* slot of a LOAD/PREEMPT job running alone (-1): the parser waits */
    /* the next page of this sequence, fetched while this one runs (ping-pong) */
    uint8_t next_valid;
    uint32_t next_page;
    uint64_t next_fetch_done;
    /* LAUNCH_JOB of a deferred job the parser has not reached yet */
    uint16_t launch[16];
    int nlaunch;
} cert_ctx;

/* One uC-DMA chain in the queue. */
typedef struct cert_ucdma_xfer {
    uint32_t handle;
    uint32_t bd;            /* offset of the first BD in the uC's buffer */
    uint32_t nbd;
    uint64_t words;
    uint64_t start, done;
    int sync_job;           /* not used for timing; the job that enqueued it */
} cert_ucdma_xfer;

typedef struct cert_tct {
    uint32_t tile, actor;
    uint32_t received;      /* tokens arrived and not yet consumed */
    uint64_t total;         /* all tokens ever received */
    uint64_t consumed;
} cert_tct;

typedef struct cert_record {
    uint32_t id;
    uint8_t kind;           /* 0 SAVE_TIMESTAMPS (value = cycle), 1 SAVE_REGISTER (value = register) */
    uint32_t page, off;
    uint64_t value;
} cert_record;

typedef struct cert_uc {
    sim_machine *m;
    int index;
    int present, done;
    cert_ucode *code;
    mem_space *ctrl;        /* "ctrl" space over the host buffer (debugger disassembly) */
    uint32_t g[16];
    cert_job *job;
    int nslots, rr;
    int cur;                /* job in the middle of an opcode burst, -1 */
    cert_ctx ctx[CERT_MAX_DEPTH];
    int depth;
    uint64_t t;             /* the uC's own time: simulated through t */
    uint64_t idle_since;    /* waiting for a page fetch since (page_wait counter); 0 = not */
    int idle;
    /* barriers */
    uint8_t lb_arrived[CERT_MAX_LB];
    /* tokens */
    cert_tct *tct;
    int ntct, ctct;
    /* uC-DMA */
    cert_ucdma_xfer *q;
    int qhead, qn, qcap;
    uint32_t next_handle, done_handle;
    uint64_t engine_free;
    ev_event dma_ev;
    /* out-of-order loads */
    int have_pdi, have_cores;
    uint32_t last_pdi_id, last_pdi_page, last_cores_id;
    uint32_t sync_count;    /* implicit multi-uC syncs after LOAD/PREEMPT */
    cert_record *rec;
    int nrec, crec;
    sim_counter *cnt;
} cert_uc;

typedef struct cert_pending_tct {
    int uc;
    uint32_t tile, actor;
    uint64_t at;
} cert_pending_tct;

typedef struct cert_machine {
    cert_timing tm;
    cert_timing tm_cycle;   /* the options' latencies (tm holds the functional ones under timing=none) */
    cert_program prog;
    int have_prog;
    /* uCs' own programs (isa_ops.load_unit): each kept whole, a uC's code points into one */
    cert_program *unit_progs;
    int nunit_progs;
    int nuc, npresent;
    cert_uc *uc;
    cert_array *array;
    /* "array": the partition's AXI-MM address space as a memory space for watchpoints only
     * (cert_array_space): AXI accesses of opcodes and the uC-DMA's writes are checked
     * against its watches; its one MMIO region reads and writes nothing */
    mem_space *aspace;
    ev_event array_ev, tct_ev;
    cert_pending_tct *ptct;
    int ptct_head, ptct_n, ptct_cap;
    /* remote barriers, index = encoded id (1..64) */
    uint64_t rb_arrived[CERT_MAX_RB + 1];
    uint64_t rb_mask[CERT_MAX_RB + 1];
    /* unit_run in progress: its horizon, lowered when it schedules an earlier event */
    uint64_t *horizon;
    int running;            /* uC in unit_run, -1 */
    uint64_t change_seq;    /* bumped by every array write, completion, token, DMA end */
    int nwarn_drop;
    int opaque_array;       /* aie4: no public register map: accesses are counted, not modelled */
    /* unmodelled addresses already warned about */
    uint32_t *warned;
    int nwarned, cwarned;
    uint64_t dropped;
    int hang_printed;
    char *last_report;      /* the last hang report (tests, the debugger) */
} cert_machine;

static inline cert_machine *cert_m(const sim_machine *m) { return m->isa_state; }

static inline uint64_t cert_max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline sim_thread *cert_th(sim_machine *m, const cert_uc *c, int s) { return &m->units[c->index].threads[s]; }

/* ---- machine.c ---- */
/* Build the uCs (units, spaces, events, array) for program p, which the machine then owns
 * (p is emptied, also on failure). Tests call it with programs built in memory. */
int cert_runner_load(sim_machine *m, cert_program *p, char *err, size_t errlen);
/* isa_ops.load_unit: uC unit runs its own control code from img (machine.c). */
int cert_runner_load_unit(sim_machine *m, int unit, const ld_image *img, char *err, size_t errlen);
void cert_runner_free(sim_machine *m);

/* ---- runner.c ---- */
/* Start uC c: page 0's fetch begins at cycle 0. */
void cert_uc_start(sim_machine *m, cert_uc *c);
uint64_t cert_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
/* Decode the opcode at (page, off) of uC uc; 0 ok, else -1 with a reason in buf. */
int cert_insn_at(const cert_uc *c, uint32_t page, uint32_t off, int spec, cert_insn *in);
uint64_t cert_pc(uint32_t page, uint32_t off);

/* ---- runner_io.c ---- */
/* Schedule e at when (not before now); lowers the running uC's horizon. */
void cert_arm(sim_machine *m, ev_event *e, uint64_t when);
/* Make uC uc run at when; lowers the running uC's horizon if uc is another uC. */
void cert_wake_unit(sim_machine *m, int uc, uint64_t when);
void cert_job_block(sim_machine *m, cert_uc *c, int s, int wait, int stall, uint64_t t);
/* A blocked job may run from t; resumed: its blocking opcode completed meanwhile. */
void cert_job_wake(sim_machine *m, cert_uc *c, int s, uint64_t t, int resumed);
void cert_job_stop(sim_machine *m, cert_uc *c, int s, sim_stop_kind k, uint64_t t, const char *what);
/* 1 if addr was warned about already (else remembers it). */
int cert_warned(cert_machine *cm, uint32_t addr);
/* Synchronous AXI-MM accesses landing at t; 0 ok, -1 the run stopped. */
int cert_ax_write(sim_machine *m, cert_uc *c, int s, uint64_t t, uint32_t addr, uint32_t v);
int cert_ax_read(sim_machine *m, cert_uc *c, int s, uint64_t t, uint32_t addr, uint32_t *v);
/* Add the "array" space over columns x 32 MiB of AXI-MM addresses (col << 25 | row << 20 |
 * offset), for watchpoints (machine.c, at load). 0 ok, -1 out of memory. */
int cert_array_space(sim_machine *m, unsigned columns);
cert_tct *cert_tct_entry(cert_uc *c, uint32_t tile, uint32_t actor);
/* Queue the uC-DMA chain at desc (from page + 16) for job s: 1 queued (*handle), 0 queue
 * full, -1 stopped. */
int cert_ucdma_enqueue(sim_machine *m, cert_uc *c, int s, uint32_t desc, uint64_t t, uint32_t *handle);
void cert_array_event(ev_event *ev, void *ctx);   /* ctx: the machine */
void cert_tct_event(ev_event *ev, void *ctx);     /* ctx: the machine */
void cert_ucdma_done(ev_event *ev, void *ctx);    /* ctx: the uC */

/* ---- hang.c ---- */
/* One line about what job slot s of uC c waits for ("TCTs from TILE_2_1 MM2S_0: expected 1,
 * received 0"); empty when it is not blocked. */
void cert_wait_text(const sim_machine *m, const cert_uc *c, int s, char *buf, size_t n);
/* The per-uC hang report (one line per uC) into f; also kept in cert_machine.last_report. */
void cert_hang_report(sim_machine *m, FILE *f);
/* Nothing anywhere can make progress: no runnable job, no fetch, no event pending. */
int cert_quiet(const sim_machine *m);
/* Stop as a deadlock (or the opcode watchdog) and print the report once. */
void cert_hang_stop(sim_machine *m, int uc, int slot, const char *why);
extern const isa_view cert_views[];

/* runner.c: the uC's current page is over (all its jobs ended after its EOF). */
int cert_ctx_over(const cert_uc *c);

#endif
