/* isa/ipu/tile.h: the IPU tile's execution state, shared by the tile's files and nothing
 * else (ipu.h stays the instruction-set interface the assembler and disassembler use). A
 * tile is one xpusim unit with seven threads: thread 0 is the supervisor context, threads
 * 1..6 are worker contexts W0..W5. Worker context k is bound to barrel slot k (cycles
 * with cycle % 6 == k); the supervisor issues in every slot whose worker is not active
 * (docs/isa/ipu.md, "Execution model"). tile.c holds memory and loading, exec.c the
 * instruction semantics, barrel.c the issue loop and its timing, machine.c the isa_ops. */
#ifndef XPUSIM_IPU_TILE_H
#define XPUSIM_IPU_TILE_H
#include <stdint.h>
#include "ipu.h"
#include "../isa.h"

#define IPU_NSLOTS 6
#define IPU_NCTX 7          /* supervisor + 6 workers */
#define IPU_SUP 0           /* thread index of the supervisor */
#define IPU_WORKER(k) ((k) + 1)

/* The supervisor is entered like a vertex: $m10 (the link register) holds this address, and
 * a branch of the supervisor to it ends the supervisor ("returned to the host"). It lies
 * outside every generation's tile memory, so no real code lives there. */
#define IPU_HOST_RETURN 0xfffffffcu

/* Tile exception types ($SSR/$WSR.ETYPE, ipu1_consts.c TEXCPT_*) and the causes we raise
 * (CAUSEID_*). */
enum {
    IPU_TEXCPT_NONE = 0, IPU_TEXCPT_PBRK0 = 2, IPU_TEXCPT_PBRK1 = 3, IPU_TEXCPT_FP = 5, IPU_TEXCPT_CONFLICT = 6, IPU_TEXCPT_INVALID_OP = 9,
    IPU_TEXCPT_INVALID_ADDR = 8, IPU_TEXCPT_INVALID_PC = 10, IPU_TEXCPT_INVALID_INSTR = 12, IPU_TEXCPT_EXERR = 13
};
enum {
    IPU_CAUSE_PBRK0 = 2, IPU_CAUSE_PBRK1 = 3, IPU_CAUSE_CONFLICT_EA0 = 7, IPU_CAUSE_FLOATING_POINT = 22, IPU_CAUSE_ILLEGAL_INSTRUCTION = 23,
    IPU_CAUSE_INSTR_IN_REPEAT = 26, IPU_CAUSE_INVALID_ADDRESS_EA0 = 27,
    IPU_CAUSE_INVALID_CCCS_0 = 36, IPU_CAUSE_INVALID_CCCS_MISALIGNED = 40,
    IPU_CAUSE_INVALID_CSR = 41, IPU_CAUSE_INVALID_REGION_EA0 = 43, IPU_CAUSE_INVALID_WORKER_PC = 54,
    IPU_CAUSE_MISALIGNED_EA0 = 58, IPU_CAUSE_MISALIGNED_EXEBUNDLE = 67, IPU_CAUSE_MISALIGNED_WORKER_PC = 68,
    IPU_CAUSE_MISALIGNED_WORKER_VERTEX_BASE = 69, IPU_CAUSE_NON_EXECUTABLE_WORKER_PC = 73,
    IPU_CAUSE_PC_MISALIGNED = 75, IPU_CAUSE_PC_NOT_VALID = 77, IPU_CAUSE_WORKER_ACTIVE = 80
};

/* Context life: a worker is idle until run/runall, active until an exit; the supervisor is
 * active from the entry until it returns to IPU_HOST_RETURN. An excepted context stopped
 * the run with its exception and issues no more. */
enum { IPU_CS_IDLE = 0, IPU_CS_ACTIVE, IPU_CS_EXITED, IPU_CS_RETURNED, IPU_CS_EXCEPTED };

/* Stall causes (isa_ops.stall_names order). */
enum { IPU_STALL_BARREL = 0, IPU_STALL_DEP, IPU_STALL_BRANCH, IPU_STALL_SYNC, IPU_STALL_FPU, IPU_STALL_N };
/* Transcendental groups whose issue holds a worker for more than one thread cycle
 * (-o *_cycles options, exec_float.c). */
enum { IPU_TR_F32EXP = 0, IPU_TR_F32LN, IPU_TR_F32SIGM, IPU_TR_F16EXP, IPU_TR_F16TANH, IPU_TR_F16SIGM, IPU_TR_N };

/* The fast path (fast.c) addresses the register files as one array r[]: $m0-$m15 at 0-15,
 * $a0-$a15 at 16-31, then two words its discarded writes go to (a write to $m15, $a15 or
 * the pair $a14:15) and two that always read 0 (a read of $m15, $a15 or $a14:15). */
enum { IPU_R_A0 = 16, IPU_R_SINK = 32, IPU_R_ZERO = 34, IPU_R_N = 36 };

typedef struct ipu_ctx {
    union {
        struct {
            uint32_t m[16];  /* MRF; $m15 reads 0 and ignores writes */
            uint32_t a[16];  /* ARF (workers); $a15 reads 0 and ignores writes */
            uint32_t sink[2], zero[2]; /* the fast path's (above); zero[] is never written */
        };
        uint32_t r[IPU_R_N];
    };
    uint32_t pc;
    uint8_t state;           /* IPU_CS_* */
    uint8_t exit_status;     /* the Boolean of the last exit* */
    uint8_t exited_once;
    uint32_t vertex_base;    /* $VERTEX_BASE (workers), set by run/runall */
    uint32_t worker_base;    /* $WORKER_BASE (workers): $WORKERk_BASE at launch */
    uint32_t etype, cause;   /* the last exception ($SSR/$WSR.ETYPE and its CAUSEID) */
    uint32_t fp_ctl, fp_sts; /* $FP_CTL (rounding, NANOO, exception enables), $FP_STS flags */
    uint32_t tas;            /* $TAS: the axpy scale */
    /* $AACC as f32 bits: [0..15] the first AMP set (TFPU_NUM_ACCUM 16), [16..31] the second
     * set of ipu2/ipu21 (the gina help text's "platforms with 2 AMP sets") */
    uint32_t aacc[32];
    /* rpt: repetitions left ($REPEAT_COUNT), the body's first bundle and the address after
     * it ($REPEAT_FIRST/$REPEAT_END); rpt_count != 0 means the context is in a body */
    uint32_t rpt_count, rpt_first, rpt_end;
    uint8_t erpt;            /* $WSR.ERPT: an exception was raised inside a repeat body */
    uint64_t next;           /* earliest cycle this context may issue */
    uint64_t last_issue;     /* cycle of its last bundle (SIM_NEVER: none yet) */
    uint64_t fpu_hold;       /* cycles of a worker's wait for its next issue held by a transcendental */
    uint64_t exited_at;
    /* supervisor timing: the cycle each MRF register's pending result is ready, and the
     * cycle a taken branch lets the next bundle issue */
    uint64_t reg_ready[16];
    uint64_t branch_ready;
    uint64_t launches;       /* run/runall starts of this context */
    /* exec_misc.c: the PRNG state $PRNG_0 (prng[0]) and $PRNG_1 (prng[1]), kept across
     * launches and seeded from -o prng_seed at first use (prng_set); ipu21's fp8 format and
     * scale ($FP_NFMT, $FP_SCL). Supervisor: a sync LOCAL waiting for the workers, and the
     * earliest cycle of the next issue after a sync, delay or send (barrel.c: "sync" stalls) */
    uint64_t prng[2];
    uint8_t prng_set;
    uint32_t fp_nfmt, fp_scl;
    uint8_t sync_local;
    uint64_t sync_ready;
} ipu_ctx;

typedef struct ipu_machine ipu_machine;
struct prof_state; /* core/profile.h */

/* Sync and exchange between tiles (exchange.c; docs/isa/ipu.md "Sync and exchange"). */
enum { IPU_XCSR_N = 12 };  /* the supervisor's exchange CSRs 0xa0-0xab, in index order */
enum { IPU_XB_N = 5 };     /* barriers: INTERNAL, EXTERNAL0-3 (slave and master forms alike) */
typedef struct ipu_xitem { /* one 32- or 64-bit item on its way to the tiles */
    uint64_t at;           /* the cycle it arrives (in a tile's incoming queue: is written) */
    uint32_t lo, hi;
    uint8_t is64;
    uint16_t src;          /* its sender (the incoming queue) */
} ipu_xitem;
typedef struct ipu_xq {    /* a queue of items in time order: a ring of cap entries */
    ipu_xitem *v;
    uint32_t head, n, cap;
} ipu_xq;
typedef struct ipu_xtile {
    uint32_t csr[IPU_XCSR_N];  /* as written ($INCOMING_MUX: csr[0] ...) */
    int rx_src;                /* the tile whose items reach this one (-1: none): $INCOMING_MUX as
                                * of mux_ev, the event at the cycle its last put takes effect */
    int rx_prev, rx_next;      /* in rx_src's list of receivers, in tile order (-1: the end) */
    int rx_head;               /* this tile's receivers: the first (-1: none) */
    uint32_t in_ptr;           /* the incoming pointer: where the next received item lands */
    uint8_t wait;              /* the supervisor waits in a sync of other tiles: 1 + barrier */
    uint8_t recv_wait;         /* it waits in sync RECV for $INCOMING_DCOUNT to reach 0 */
    uint8_t xend;              /* the tile's coupling changed in this burst: end it after the bundle */
    uint8_t ev_kind;           /* what sync_ev reports: an arrival or a halt */
    uint32_t rerr;             /* TEXCH_RERR_* of the last receive error ($CTXT_STS.ERERR) */
    uint64_t arrived_at;       /* the cycle of its sync */
    uint64_t clash_at;         /* the cycle of the last item written (SIM_NEVER: none to check) */
    uint32_t clash_elem, clash_addr; /* its memory element and address, and its sender */
    int clash_src;
    ipu_xq out;                /* items sent, in arrival order */
    uint64_t out_at;           /* when out_ev is due (SIM_NEVER: not queued) */
    ipu_xq in;                 /* -o exchange_timing=rows: items past the mux, in write order */
    uint64_t in_at;            /* when in_ev is due (SIM_NEVER: not queued) */
    uint32_t in_delay;         /* rows: cycles from the mux to memory, 52 + 2 x the tile's row */
    uint32_t out_ptr;          /* the outgoing stream: the address after the last item sent */
    uint8_t out_sctl, out_set; /* and its send control (sendoff, sendpic go on from them) */
    uint8_t pend;              /* ipu21 controls waiting for mux_ev: 1 << IPU_XCTL_* */
    uint32_t pend_v[4];        /* their values, by IPU_XCTL_* */
    ev_event sync_ev, out_ev, mux_ev, in_ev;
} ipu_xtile;

typedef struct ipu_tile {
    ipu_machine *im;
    int index;
    ipu_ctx ctx[IPU_NCTX];
    uint32_t worker_base_csr[IPU_NSLOTS]; /* supervisor $WORKER0..5_BASE */
    uint32_t ssr_raerr;                   /* $SSR.RAERR, set by a runall over active workers */
    uint32_t fp_ictl;                     /* the supervisor's $FP_ICTL (exec_misc.c), when fp_ictl_set: */
    uint8_t fp_ictl_set;                  /* the $FP_CTL workers start with; else -o fp_ctl */
    mem_space *tmem;
    uint8_t *mem;                         /* tile memory, tmem's RAM */
    uint32_t placed_lo, placed_hi;        /* the span the tile's program's segments cover (offsets in mem) */
    struct ipu_pd_page **pd;              /* predecode cache pages (predecode.c), lazily */
    uint32_t npd;
    struct ipu_fpage **fp;                /* the fast path's bundle records (fast.c), lazily */
    uint32_t nfp;
    struct ipu_fxpage **fxp;              /* the functional loop's entries (func_fx.c), lazily */
    uint32_t nfxp;
    /* the common compute configuration space (exec_amp.c): $CWEI_m_n of the AMP units as
     * 64-bit words, index set x 32 + unit x 4 + n; $CCCSLOAD, the supervisor's load address */
    uint64_t cccs[64];
    uint32_t cccsload;
    uint8_t fcur;                         /* functional mode (func.c): the context whose turn is next */
    ipu_xtile x;                          /* sync and exchange with other tiles (exchange.c) */
} ipu_tile;

struct ipu_machine {
    int arch;                 /* IPU_ARCH_* */
    uint32_t mem_base, mem_size, interleaved_base;
    uint64_t sup_dep_cycles, sup_branch_cycles, run_cycles;
    uint32_t fp_ctl_launch;   /* $FP_CTL a worker starts with (-o fp_ctl) */
    uint8_t f32_flush, f16_flush; /* -o f32_denormals / f16_denormals = flush */
    uint32_t repeat_mask;     /* $REPEAT_COUNT.VALUE width: 0xfff ipu1, 0xffff ipu2/ipu21 */
    uint8_t predecode;        /* -o predecode=1: the per-tile decode cache (predecode.c) */
    uint8_t mem_conflicts;    /* -o mem_conflicts: 1 raise TEXCPT_CONFLICT, 0 ignore */
    uint8_t bundle_align;     /* -o bundle_align: 1 a bundle at 4 mod 8 raises, 0 it executes */
    uint8_t tr_cycles[IPU_TR_N]; /* thread cycles of each transcendental group (-o f32exp_cycles...) */
    uint32_t mem_element;     /* -o mem_element: bytes of one SRAM element (16 KiB, ipu1_consts.c) */
    uint8_t prng_alg;         /* -o prng: 0 xoroshiro128aox, 1 xoroshiro128+ (exec_misc.c) */
    uint32_t prng_seed;       /* -o prng_seed: the $PRNG_SEED value each worker starts from */
    uint64_t sync_cycles;     /* -o sync_cycles: cost of a sync that needs no other context */
    uint8_t amp_sets;         /* -o amp_sets: AMP sets of 8 units (1 ipu1, 2 ipu2/ipu21) */
    uint8_t amp_chained;      /* -o amp_sum=chained: AMP products rounded and added one by one */
    int ntiles;
    ipu_tile *tiles;
    sim_machine *m;
    uint64_t exchange_latency; /* -o exchange_latency: cycles from an item's send to its arrival */
    uint8_t exchange_clashes;  /* -o exchange_clashes: 1 raise TEXCH_RERR_CLASH_*, 0 ignore */
    uint8_t exchange_rows;     /* -o exchange_timing=rows (ipu21): the mux-to-memory stage per row */
    uint32_t mux_reset;        /* $INCOMING_MUX after reset: no tile */
    struct { int n; uint64_t last; } bar[IPU_XB_N]; /* arrivals at each sync of other tiles so far */
    uint32_t entry;           /* the supervisor's entry */
    int have_program;
    struct ipu_vertex *vertex; /* --vertex FILE: the vertex run it describes (vertex.c), or NULL */
};

static inline ipu_machine *ipu_m(const sim_machine *m) { return m->isa_state; }
static inline ipu_tile *ipu_t(const sim_unit *u) { return u->isa; }

/* tile.c */
extern const opt_desc ipu_exec_options[];
int ipu_machine_create(sim_machine *m, char *err, size_t errlen);
void ipu_machine_destroy(sim_machine *m);
int ipu_machine_load(sim_machine *m, const ld_image *img, char *err, size_t errlen);
/* isa_ops.load_unit: one tile's own program (tile.c). */
int ipu_machine_load_unit(sim_machine *m, int unit, const ld_image *img, char *err, size_t errlen);
/* Is [addr, addr + n) inside tile memory? */
static inline int ipu_in_mem(const ipu_machine *im, uint32_t addr, uint32_t n)
{
    return addr >= im->mem_base && (uint64_t)addr + n <= (uint64_t)im->mem_base + im->mem_size;
}

/* exec.c: the row -> semantics map, built once (machine create calls it). */
void ipu_exec_init(void);
/* exec.c: execute the bundle at the context's pc, issued at cycle t. Returns 0 when it
 * retired (ctx->pc moved on), -1 when it stopped the run (an exception, an instruction not
 * modelled yet: the stop reason is set). *ninsn gets the instructions retired (1 or 2),
 * *taken whether it branched, *wmask the MRF registers it wrote (supervisor timing),
 * *rmask those it read. */
typedef struct ipu_issue {
    int ninsn, taken, started_workers;
    unsigned busy;            /* extra thread cycles the bundle holds the worker (transcendentals) */
    uint32_t rmask, wmask;
} ipu_issue;
int ipu_exec_bundle(sim_machine *m, sim_unit *u, ipu_tile *tl, int tid, uint64_t t, ipu_issue *is);
/* The MRF registers the bundle at the context's pc reads (supervisor dependency check):
 * 0 when it does not decode (the execution raises that). */
uint32_t ipu_bundle_reads(ipu_tile *tl, int tid);
/* Raise an exception of context tid at cycle t: the stop reason, the context's status. */
void ipu_raise(sim_machine *m, sim_unit *u, ipu_tile *tl, int tid, uint64_t t, int kind, uint32_t etype,
               uint32_t cause, const char *fmt, ...) __attribute__((format(printf, 9, 10)));
const char *ipu_etype_name(uint32_t etype);

/* predecode.c: the decode of the word at pc in the context's space, from the tile's cache
 * (decoded once per word and context; an entry is used only while the word in memory is
 * still the word it was decoded from, so any store into code -- by the program, the
 * debugger or --set -- makes it decode again). Returns IPU_DEC_* as ipu_decode_word. pc
 * must be a 4-byte-aligned address in tile memory; half (0, 1) keeps the two halves of a
 * bundle apart when the cache is off (-o predecode=0). */
int ipu_pd_decode(ipu_tile *tl, uint32_t pc, int ctx, int half, const ipu_insn **out);
void ipu_pd_free(ipu_tile *tl);

/* vertex.c: the host protocol (`--vertex FILE`, isa_ops.host_file): read the vertex file,
 * load its codelet into img and m, place the tensors, the vertex state and the supervisor
 * stub. ipu_vertex_report prints the output tensors and the cycles per context (after a
 * run, and `info vertex`); ipu_vertex_free releases it (machine destroy). */
int ipu_vertex_host_file(sim_machine *m, const char *path, ld_image *img, char *err, size_t errlen);
int ipu_vertex_report(sim_machine *m, int unit, FILE *out, int write_files);
void ipu_vertex_free(ipu_machine *im);

/* exchange.c: sync across tiles and the exchange (docs/isa/ipu.md "Sync and exchange").
 * init registers each tile's events (machine create); reset puts a tile's exchange state
 * at reset (boot). ipu_xchg_sync: a sync of zone RECV, INTERNAL or EXTERNAL issued at x->t:
 * 1 when the supervisor now waits for other tiles or words, 0 when it completes as on a
 * tile alone. ipu_xchg_send: a send's items read and put on their way; -1 on a fault.
 * ipu_xchg_csr: the exchange CSRs and $TILE_ID (as ipu_misc_csr: 1 done, 0 not one, -1
 * stopped). halted: a tile halted at cycle t (a sync it never reaches stops the run).
 * wants_cycle: the coupling the tile needs now. state: the supervisor's wait in words
 * (0: none). finish: the stop's reason names the tiles still waiting. */
int ipu_xchg_init(sim_machine *m, char *err, size_t errlen);
void ipu_xchg_reset(ipu_tile *tl);
void ipu_xchg_free(ipu_machine *im);
struct ipu_xs;
int ipu_xchg_sync(struct ipu_xs *x, unsigned zone);
int ipu_xchg_send(struct ipu_xs *x, uint32_t items, uint32_t word_addr, uint32_t sctl);
/* ipu21's exchange instructions (exec_misc.c decodes them; docs/isa/ipu.md "IPU21 exchange
 * instructions"). ipu_xchg_stream: items from the outgoing stream, at $OUTGOING_BASE + 4
 * word_addr (restart 1: sendpicp) or at the stream's address + 4 word_addr with its send
 * control (restart 0: sendoff with delta word_addr, sendpic with 0; sctl < 0 keeps the
 * stream's). ipu_xchg_control: an incoming control (IPU_XCTL_*) that applies to items
 * arriving after cycle `event`; -1 on a fault (a format that is none). */
enum { IPU_XCTL_MUX = 0, IPU_XCTL_MUXPAIR, IPU_XCTL_PTR, IPU_XCTL_FORMAT };
int ipu_xchg_stream(struct ipu_xs *x, uint32_t items, uint32_t word_addr, int sctl, int restart);
int ipu_xchg_control(struct ipu_xs *x, unsigned kind, uint32_t v, uint64_t event);
int ipu_xchg_csr(struct ipu_xs *x, unsigned idx, int put, uint32_t *v);
void ipu_xchg_halted(sim_machine *m, ipu_tile *tl, uint64_t t);
int ipu_xchg_wants_cycle(const ipu_tile *tl);
/* The bundle of context tid issued at t (x.clash_at, when an item was written in that
 * cycle) fetches (fetch 1) or accesses addr: in the item's memory element that is
 * TEXCH_RERR_CLASH_IFETCH / _INSTR, raised (1: the run stops). */
int ipu_xchg_clash(sim_machine *m, ipu_tile *tl, int tid, uint64_t t, uint32_t addr, int fetch);
int ipu_xchg_state(const ipu_tile *tl, char *buf, size_t n);
void ipu_xchg_finish(sim_machine *m);
void ipu_xchg_view(const ipu_tile *tl, FILE *out); /* `info csr`'s exchange line (several tiles) */

/* barrel.c */
uint64_t ipu_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
/* One turn of the reference loop at cycle *t: an issue (or a jump over cycles in which
 * nothing can issue). Returns 1 when the run must return *ret (stopped, finished, or the
 * debugger's turn), 0 to go on from *t. */
int ipu_barrel_step(sim_machine *m, sim_unit *u, ipu_tile *tl, uint64_t *t, uint64_t *ret);
void ipu_sync_threads(sim_unit *u, ipu_tile *tl);

/* fast.c: the run loop for plain runs (no debugger, trace, profile, instruction limit or
 * watchpoint): the same issues, cycles and results as the reference loop in barrel.c. */
uint64_t ipu_run_fast(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
void ipu_fast_free(ipu_tile *tl);
/* func.c: the functional run loop (-o timing=none, m->functional): every bundle with its
 * architectural effect, contexts in turn in bursts, one cycle per bundle issued; and
 * isa_ops.timing_resume (the barrel's readiness rebuilt when a fast-forward ends). */
uint64_t ipu_run_func(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
void ipu_timing_resume(sim_machine *m);
/* func_fx.c: up to nmax bundles of worker tid from cycle t (0: the first needs the generic
 * executor), without and with --profile fed (prof non-NULL); and freeing its entries. */
uint64_t ipu_fx_burst(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t);
uint64_t ipu_fx_burst_prof(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t, struct prof_state *prof);
void ipu_func_free(ipu_tile *tl);
/* The functional loop's entry of a word (func_fx.c), 256 of them a page (1 KiB of code). */
typedef struct ipu_fx {
    uint32_t w;             /* the word it was built from */
    uint8_t op, d, a, b;    /* FX_* (0: build it again), register indices into ipu_ctx.r[] */
    uint32_t imm;           /* immediate or branch target */
    uint32_t spare;         /* a direct branch within the page: entry distance (int16), target's entries to the page end (<< 16); 0: none */
} ipu_fx;
typedef struct ipu_fxpage {
    ipu_fx e[256];
} ipu_fxpage;
/* A store of n bytes (at most 16, naturally aligned) at tile-memory offset off: the entries
 * built from the words it wrote are built again at their next fetch (plain functional runs
 * trust their entries between fetches). */
static inline void ipu_fx_wrote(ipu_tile *tl, uint32_t off, unsigned n)
{
    ipu_fxpage *p;
    if (tl->fxp && (p = tl->fxp[off >> 10]) != NULL) /* an aligned access stays in its page */
        for (uint32_t w = off >> 2, last = (off + n - 1) >> 2; w <= last; w++)
            p->e[w & 255].op = 0;
}
/* Start worker k at cycle t (run/runall issued then): its first bundle issues at the first
 * cycle >= t + run_cycles in slot k. */
void ipu_start_worker(ipu_tile *tl, int k, uint32_t entry, uint32_t vbase, uint64_t t);
/* Worker k ended at cycle t (exit*): its slot goes back to the supervisor. */
void ipu_end_worker(ipu_tile *tl, int k, uint64_t t);
int ipu_active_workers(const ipu_tile *tl);
const char *ipu_ctx_name(int tid);

#endif
