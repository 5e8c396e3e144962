/* isa/dpu/func_rec.c: the functional mode's records and its threaded loop (func_rec.h).
 * Functional runs need no timing, so a record carries only what execution needs: the
 * handler's address (so the loop dispatches with one indirect jump, each handler ending in
 * its own), the three registers, the immediate or offset, and the branch target as a
 * record offset (no pc clamp on the way). The instructions compiled code runs most (ALU,
 * loads and stores, compare-and-branch, add/sub with a z/nz branch, calls) have handlers
 * here, split by register or immediate second operand; the other forms fast.c runs inline
 * run here through the same text (fastops.inc, on the cycle model's record of the same
 * pc), and everything else (DMA, stop, boot, faults) leaves the loop for the executor.
 * The handlers' results are cond.h's DPU_SEM_*, the text fastops.inc and exec.c use
 * (tests/dpu/test_drift.c runs each form through every loop; test_func.c compares whole
 * programs with the cycle model). */
#include <stdlib.h>
#include <string.h>
#include "func_rec.h"
#include "cond.h"
#include "../../core/profile.h"

struct dpu_fn_rec {
    void *h;          /* the handler's label in fn_loop */
    int32_t imm;      /* the second operand's immediate, or the access's offset */
    int32_t tgt;      /* a branch's target (its distance in bytes from this record: no
                         scaling on the way), a store's immediate
                         data, a call's return index */
    uint8_t a, b, c;  /* ra, rb, rc */
    uint8_t x;        /* lsl_add's shift */
    uint16_t pc;      /* this record's IRAM index */
    uint16_t poff;    /* pc's byte offset in a thread's batch words (--profile: FN_FEED) */
};
_Static_assert(DPU_IRAM_WORDS * 8 <= 65536, "poff: a batch word (8 bytes) per IRAM word");

/* Every DPU's own records (an IRAM that differs from the shared program) and the raw IRAM
 * they were made from; [1]: the profiled loop's. */
typedef struct fn_own {
    dpu_fn_rec *rec[2];
    uint8_t *raw[2];
} fn_own;

struct dpu_fn_state {
    dpu_fn_rec *shared[2];
    const dpu_insn *shared_src[2]; /* the predecoded program they were built from (NULL: none) */
    fn_own *own;
    int ndpus;
    uint64_t builds; /* records built so far (each build's number: the profile's key) */
};

/* The handlers, in the order of the loop's label table. GEN: leave for the executor; OPS:
 * fastops.inc on the cycle model's record. _RR / _RI: the second operand is a register /
 * the immediate. The straight forms (FN_STRAIGHT: they go on to the next record) come
 * twice: as listed, and (_F, at the table's end, in the same order) at a block's end,
 * where the profiled loop counts the block (func_rec_loop.h FN_FEED). */
#define FN_STRAIGHT(X, f)                                                                                \
    X(ADD_RR##f) X(ADD_RI##f) X(SUB_RR##f) X(SUB_RI##f) X(AND_RR##f) X(AND_RI##f) X(OR_RR##f)            \
    X(OR_RI##f) X(XOR_RR##f) X(XOR_RI##f) X(LSL_RR##f) X(LSL_RI##f) X(LSR_RR##f) X(LSR_RI##f)            \
    X(ASR_RR##f) X(ASR_RI##f) X(ADDC_RR##f) X(ADDC_RI##f) X(SUBC_RR##f) X(SUBC_RI##f) X(LSLADD##f)       \
    X(ADD_RR_N##f) X(ADD_RI_N##f) X(SUB_RR_N##f) X(SUB_RI_N##f) X(AND_RR_N##f) X(AND_RI_N##f)            \
    X(OR_RR_N##f) X(OR_RI_N##f) X(XOR_RR_N##f) X(XOR_RI_N##f) X(LSL_RR_N##f) X(LSL_RI_N##f)              \
    X(LSR_RR_N##f) X(LSR_RI_N##f) X(ASR_RR_N##f) X(ASR_RI_N##f) X(ADDC_RR_N##f) X(ADDC_RI_N##f)          \
    X(SUBC_RR_N##f) X(SUBC_RI_N##f) X(LSLADD_N##f)                                                       \
    X(LW##f) X(LBU##f) X(LBS##f) X(LHU##f) X(LHS##f) X(LD##f) X(SW_RR##f) X(SW_RI##f) X(SB_RR##f)        \
    X(SB_RI##f) X(SH_RR##f) X(SH_RI##f) X(SD##f)
#define FN_HANDLERS(X)                                                                                   \
    X(GEN) X(OPS) FN_STRAIGHT(X, )                                                                       \
    X(JEQ_RR) X(JEQ_RI) X(JNEQ_RR) X(JNEQ_RI) X(JLTU_RR) X(JLTU_RI) X(JGEU_RR) X(JGEU_RI) X(JLEU_RR)     \
    X(JLEU_RI) X(JGTU_RR) X(JGTU_RI) X(JLTS_RR) X(JLTS_RI) X(JGES_RR) X(JGES_RI) X(JLES_RR) X(JLES_RI)   \
    X(JGTS_RR) X(JGTS_RI)                                                                                \
    X(ADDZ_RR) X(ADDZ_RI) X(ADDNZ_RR) X(ADDNZ_RI) X(SUBZ_RR) X(SUBZ_RI) X(SUBNZ_RR) X(SUBNZ_RI)         \
    X(CALL_R) X(CALL_N) X(ACQREL) X(WRAP) FN_STRAIGHT(X, _F)
#define FN_ENUM(n) FH_##n,
enum { FN_HANDLERS(FN_ENUM) FH_COUNT };
#undef FN_ENUM
/* an ALU form's twin without the flag stores (its handler FN_NOFL further in the table) */
enum { FN_NOFL = FH_ADD_RR_N - FH_ADD_RR };
_Static_assert(FH_LSLADD + FN_NOFL == FH_LSLADD_N && FH_SUBC_RI + FN_NOFL == FH_SUBC_RI_N,
               "the _N forms in the order of their flag-storing twins");
/* a straight form's twin at a block's end (FH_ADD_RR .. FH_SD: the straight forms) */
enum { FN_FEEDS = FH_ADD_RR_F - FH_ADD_RR };
_Static_assert(FH_SD + FN_FEEDS == FH_SD_F && FH_LSLADD_N + FN_FEEDS == FH_LSLADD_N_F,
               "the _F forms in the order of the straight forms");

/* What the loop reads besides the slots (and what fastops.inc reads of it: c->d). */
typedef struct fn_env {
    dpu_unit *d;
    const dpu_insn *iram;   /* the cycle model's records the functional ones were made from */
    const dpu_fn_rec *base; /* the records; base[nwords] the guard at the end of IRAM */
    const dpu_fn_rec *far;  /* base[nwords + 1]: any pc past it (the tasklet's pc holds it) */
    uint32_t nwords;
    uint8_t *wram;
    uint64_t wlim;
    /* per access size 1, 2, 4, 8 (index log2): an access at ad is in WRAM and aligned when
     * ad has no bit of wmk[log2 n] set (fn_wmk: the mask of a power-of-two WRAM, one test),
     * or else when ad rotated right by log2 n is below wok[log2 n] (fn_wok: one compare) */
    uint32_t wmk[4];
    uint64_t wok[4];
    uint64_t step;          /* cycles from a tasklet's issue to its next in the run */
    dpu_fn_slot *begin;     /* the ring's first slot (the one after its last: WRAP's record) */
    int der;                /* --profile: the ring's der (dpu_fn_ring) */
    uint64_t *bf;           /* with der: the cycle of each slot's batch's first issue */
    const uint16_t *blen;   /* --profile: per pc, the length of the block that ends there, 0
                               inside one (fn_blocks) */
    uint16_t *mid;          /* --profile: per slot, 1 + the pc where it last entered a block
                               not at its first record (fn_enter_mid), FN_MID_BACK set when
                               the records before it were taken back (0: none) */
    uint64_t *jc;           /* --profile: per slot, the cycle of its last jump into a block's
                               middle (fn_enter_mid) */
    uint64_t bkey;          /* --profile: the records' build number (prof_bat_blocks' key) */
} fn_env;

/* The bound of fn_env.wok for accesses of 1 << k bytes in a WRAM of wlim bytes. An aligned
 * ad = q << k fits when q <= (wlim - n) >> k; a misaligned ad rotates its low bits to the top,
 * giving at least 2^(32 - k), and the bound is at most 2^(32 - k) (wlim clamped to 2^32). */
static uint64_t fn_wok(uint64_t wlim, unsigned k)
{
    const uint64_t n = 1u << k, w = wlim > (1ull << 32) ? 1ull << 32 : wlim;
    return w < n ? 0 : ((w - n) >> k) + 1;
}

/* The mask of fn_env.wmk for accesses of n = 1 << k bytes: with p the largest power of two
 * not above wlim (nor 2^31), an ad with no bit of ~(p - 1) | (n - 1) set is aligned and at
 * most p - n, so the access fits; the others (past p: a WRAM that is not a power of two,
 * e.g. the chip's 62 KB) take fn_wok's compare. With p below n: every bit (always the
 * compare). */
static uint32_t fn_wmk(uint64_t wlim, unsigned k)
{
    uint64_t p = 1ull << 31;
    while (p > wlim)
        p >>= 1;
    return p < (1u << k) ? ~0u : (uint32_t)~(p - 1) | ((1u << k) - 1);
}

/* The batch of slot s (its thread's words, s->pt) from its next issue, numbered ins and at
 * cycle cyc on, when its thread's open row is a plain mapped one (a thread that maps its
 * flows, prof_thread.fm: the row's PROF_LIM is not 0) and its window maps the whole IRAM:
 * that row closes there, with der also the wait gap before that issue (the row's last
 * stall, as prof_issue_stall_th charges it). 0: no batch. */

static inline int fn_batch(const fn_env *c, dpu_fn_slot *s, uint64_t ins, uint64_t cyc, uint64_t gap)
{
    prof_thread *const pt = s->pt;
    int64_t *bat;
    const uint64_t lim = pt->fm ? pt->row[PROF_LIM] : pt->lim;
    if (!lim || pt->base != 0 || lim < c->nwords || (bat = prof_bat(pt, c->nwords)) == NULL ||
        !prof_bat_blocks(pt, c->blen, c->nwords, c->bkey))
        return 0;
    s->bat = bat;
    s->lip = NULL;
    s->row0 = pt->row;
    if (c->der >= 0) {
        prof_stall_th(pt, c->der, gap);
        c->bf[s - c->begin] = cyc;
    }
    s->row0[PROF_INSNS] += ins;
    s->row0[PROF_CYCLES] += cyc;
    return 1;
}

enum { FN_MID_BACK = 0x8000 }; /* (pcs are below DPU_IRAM_WORDS) */

/* Where a slot's pass through its block began: where it entered the block inside (its mid,
 * fn_enter_mid), unless the records before that were taken back (then the pass counts the
 * whole block, and an old mid says nothing), else the block's first record, lead. */
static uint32_t fn_pass_from(uint16_t mid, uint32_t lead)
{
    return mid && !(mid & FN_MID_BACK) ? mid - 1u : lead;
}

/* The first pc of the block pc is in. */
static uint32_t fn_lead(const fn_env *c, uint32_t pc)
{
    while (pc && !c->blen[pc - 1])
        pc--;
    return pc;
}

/* --profile: slot s's issue at pc in cycle cyc (its issues come every step cycles from its
 * first) through prof_issue: the batch, if any, ends before it (the row of its last issue,
 * lip's or row0, opens and this issue closes it). With der, the wait before this issue is
 * the revolver's: the tasklet's first issue in the run waited since its last issue before
 * the run (tk->last_issue), a later one step - 1 cycles, which a batch's words derive for
 * each of their issues (the batch's last's is this issue's). */
static inline __attribute__((always_inline)) void fn_issue(const fn_env *c, dpu_fn_slot *s, uint32_t pc, uint64_t cyc)
{
    prof_thread *const pt = s->pt;
    const uint64_t step = c->step;
    const uint64_t ins = s->ins0 + (cyc - s->first) / step;
    uint64_t gap = cyc == s->first ? s->first - s->tk->last_issue - 1 : step - 1;
    if (s->bat == pt->bat) {
        uint64_t *const last = s->lip ? pt->map[s->lip->pc] : s->row0;
        last[PROF_INSNS] -= ins;
        last[PROF_CYCLES] -= cyc;
        pt->row = last;
        s->bat = pt->p->poison;
        if (c->der >= 0) { /* (the batch's issues' waits, derived; this one's: fn_batch's or
                              the last's) */
            prof_stall_total(pt, c->der, (cyc - c->bf[s - c->begin]) / step * (step - 1));
            gap = 0;
        }
    }
    if (c->der >= 0)
        prof_issue_stall_th(pt, pc, cyc, ins, c->der, gap);
    else
        prof_issue_th(pt, pc, cyc, ins, NULL);
}

/* --profile: slot s passed the block that ends at pc e, its last issue (at e) in cycle cyc,
 * and the block's word b (in its batch words or the poison) went negative (FN_FEED): the
 * block counted there from now on (its records before where the slot entered it, c->mid,
 * taken back), or each issue of the pass through prof_issue (the batch, if any, ends before
 * the first; then, if the thread's open row is a plain one again, a new batch begins after
 * the block). */
static __attribute__((noinline)) void fn_feed_slow(const fn_env *c, dpu_fn_slot *s, int64_t *b, uint32_t e,
                                                   uint64_t cyc)
{
    prof_thread *const pt = s->pt;
    const uint64_t step = c->step;
    const int64_t one = PROF_BAT_ONE(step);
    *b += one;
    const uint32_t l = fn_lead(c, e);
    uint16_t *const mid = &c->mid[s - c->begin];
    const uint32_t from = fn_pass_from(*mid, l);
    *mid = 0;
    if (s->bat == pt->bat && prof_bat_touch_run(pt, l, e, one)) {
        for (uint32_t q = l; q < from; q++) /* (counted inside a block: see fn_enter_mid) */
            prof_bat_adjust(pt, q, -one);
        return;
    }
    for (uint32_t q = from; q <= e; q++)
        fn_issue(c, s, q, cyc - (uint64_t)(e - q) * step);
    /* (FN_FEED records e as the batch's last: its row must be the map's) */
    if (!sim_stopped(pt->p->m) && e < pt->nmap && pt->map[e] == pt->row)
        fn_batch(c, s, s->ins0 + (cyc - s->first) / step + 1, cyc + step, step - 1);
}

/* --profile: slot s goes on at pc p inside a block (not its first record), by a jump
 * through a register issued in cycle cyc, or (cyc ~0) at a run's start. When its batch
 * counts the block, the block's pass will count the records before p too: they are taken
 * back now (a block that counts has every record's word started and its row a plain one:
 * prof_bat_touch_run); otherwise the pass goes to fn_feed_slow, which starts it at p. */
static __attribute__((noinline)) void fn_enter_mid(const fn_env *c, dpu_fn_slot *s, uint32_t p, uint64_t cyc)
{
    prof_thread *const pt = s->pt;
    uint32_t e = p;
    while (!c->blen[e]) /* (the last record's blen is not 0) */
        e++;
    uint16_t back = 0;
    if (s->bat == pt->bat && pt->bat[e] > 0) {
        for (uint32_t q = fn_lead(c, p); q < p; q++)
            prof_bat_adjust(pt, q, -PROF_BAT_ONE(c->step));
        back = FN_MID_BACK;
    }
    c->mid[s - c->begin] = (uint16_t)((p + 1) | back);
    c->jc[s - c->begin] = cyc;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum" /* every DPU_FAST_* has its case, as in fast.c */
/* Run up to n instructions from slot *sp (issue cycle t0 on); the instructions run and *sp
 * the slot whose record is next (fewer than n: that record is for the executor). With c
 * NULL: *tabp gets the label table (fn_translate's handlers), nothing runs. noclone: the
 * labels' addresses are only this function's. */
#if defined(__clang__)
#define FN_ATTR __attribute__((noinline))
#else
/* (no SLP vectorising: it makes the profile's two adds to a row three instructions; no
 * cross-jumping or tail merging: they merge the handlers' identical ends into one shared
 * indirect jump, which predicts the next handler far worse than one jump per handler:
 * dpu16f 0.82 of the CPU time with them off, 23.0 -> 21.5 host instructions) */
#define FN_ATTR                                                                                          \
    __attribute__((noinline, noclone, optimize("no-tree-slp-vectorize", "no-crossjumping", "no-tree-tail-merge")))
#endif
#define FN_PROF 0
#define FN_PROTO FN_ATTR static uint64_t fn_loop_plain(const fn_env *c, dpu_fn_slot **sp, uint64_t n, uint64_t t0, \
                                                       void *const **tabp)
#include "func_rec_loop.h"
#undef FN_PROTO
#undef FN_PROF
#define FN_PROF 1
#define FN_PROTO FN_ATTR static uint64_t fn_loop_prof(const fn_env *c, dpu_fn_slot **sp, uint64_t n, uint64_t t0, \
                                                      void *const **tabp)
#include "func_rec_loop.h"
#undef FN_PROTO
#undef FN_PROF
#pragma GCC diagnostic pop

/* The record of instruction in at IRAM index k; returns its handler (FH_*). */
static int fn_translate(dpu_fn_rec *r, const dpu_insn *in, uint32_t k, uint32_t nwords, void *const *tab)
{
    /* fast form -> handler (register second operand; + 1: immediate) and what it reads */
    enum { K_GEN, K_OPS, K_ALU, K_ONE, K_MEM, K_ST, K_BR, K_CALL, K_ATOM };
    static const struct { uint8_t h, kind; } map[] = {
        [DPU_FAST_NONE] = {FH_GEN, K_GEN},       [DPU_FAST_DMA] = {FH_GEN, K_GEN},
        [DPU_FAST_ADD] = {FH_ADD_RR, K_ALU},     [DPU_FAST_SUB] = {FH_SUB_RR, K_ALU},
        [DPU_FAST_AND] = {FH_AND_RR, K_ALU},     [DPU_FAST_OR] = {FH_OR_RR, K_ALU},
        [DPU_FAST_XOR] = {FH_XOR_RR, K_ALU},     [DPU_FAST_LSL] = {FH_LSL_RR, K_ALU},
        [DPU_FAST_LSR] = {FH_LSR_RR, K_ALU},     [DPU_FAST_ASR] = {FH_ASR_RR, K_ALU},
        [DPU_FAST_ADDC] = {FH_ADDC_RR, K_ALU},   [DPU_FAST_SUBC] = {FH_SUBC_RR, K_ALU},
        [DPU_FAST_LSLADD] = {FH_LSLADD, K_ONE},
        [DPU_FAST_LW] = {FH_LW, K_MEM},          [DPU_FAST_LBU] = {FH_LBU, K_MEM},
        [DPU_FAST_LBS] = {FH_LBS, K_MEM},        [DPU_FAST_LHU] = {FH_LHU, K_MEM},
        [DPU_FAST_LHS] = {FH_LHS, K_MEM},        [DPU_FAST_LD] = {FH_LD, K_MEM},
        [DPU_FAST_SW] = {FH_SW_RR, K_ST},        [DPU_FAST_SB] = {FH_SB_RR, K_ST},
        [DPU_FAST_SH] = {FH_SH_RR, K_ST},        [DPU_FAST_SD] = {FH_SD, K_MEM},
        [DPU_FAST_JEQ] = {FH_JEQ_RR, K_BR},      [DPU_FAST_JNEQ] = {FH_JNEQ_RR, K_BR},
        [DPU_FAST_JLTU] = {FH_JLTU_RR, K_BR},    [DPU_FAST_JGEU] = {FH_JGEU_RR, K_BR},
        [DPU_FAST_JLEU] = {FH_JLEU_RR, K_BR},    [DPU_FAST_JGTU] = {FH_JGTU_RR, K_BR},
        [DPU_FAST_JLTS] = {FH_JLTS_RR, K_BR},    [DPU_FAST_JGES] = {FH_JGES_RR, K_BR},
        [DPU_FAST_JLES] = {FH_JLES_RR, K_BR},    [DPU_FAST_JGTS] = {FH_JGTS_RR, K_BR},
        [DPU_FAST_ADDZ] = {FH_ADDZ_RR, K_BR},    [DPU_FAST_ADDNZ] = {FH_ADDNZ_RR, K_BR},
        [DPU_FAST_SUBZ] = {FH_SUBZ_RR, K_BR},    [DPU_FAST_SUBNZ] = {FH_SUBNZ_RR, K_BR},
        [DPU_FAST_CALL] = {FH_CALL_R, K_CALL},   [DPU_FAST_ACQREL] = {FH_ACQREL, K_ATOM},
        /* the rest (JSUB, ADDBR, SUBBR, LOGX, MULSTEP, DIVSTEP, CLZ, CLO, MOVD):
         * fastops.inc (K_OPS, the zero entry's kind is K_GEN: set below) */
    };
    memset(r, 0, sizeof *r);
    r->pc = (uint16_t)k;
    r->poff = (uint16_t)(k * 8);
    r->a = in->ra;
    r->b = in->rb;
    r->c = in->rc;
    r->x = in->shift;
    int h = FH_OPS, kind = K_OPS;
    if (in->fast < sizeof map / sizeof map[0] && (map[in->fast].h || in->fast == DPU_FAST_NONE ||
                                                  in->fast == DPU_FAST_DMA)) {
        h = map[in->fast].h;
        kind = map[in->fast].kind;
    }
    if (in->illegal)
        h = FH_GEN, kind = K_GEN;
    switch (kind) {
    case K_ALU: /* the second operand: rb or the immediate */
        r->imm = in->imm;
        h += in->bimm;
        break;
    case K_MEM:
        r->imm = in->off;
        break;
    case K_ST: /* the data: rb or the immediate */
        r->imm = in->off;
        r->tgt = in->imm;
        h += in->bimm;
        break;
    case K_BR:
        r->imm = in->imm;
        h += in->bimm;
        if (in->pc > nwords) /* a target past IRAM: the executor's */
            h = FH_GEN;
        r->tgt = ((int32_t)in->pc - (int32_t)k) * (int32_t)sizeof *r;
        break;
    case K_ATOM: /* the bit's new value, and when it jumps by the old one: bit 0 when it was
                    0, bit 1 when it was not (none, false: never; true: always) */
        r->imm = in->imm;
        r->x = in->op == DPU_OP_ACQUIRE;
        r->c = in->cond == DPU_C_TRUE ? 3 : in->cond == DPU_C_Z || in->cond == DPU_C_ACQ_Z ? 1
             : in->cond == DPU_C_NZ || in->cond == DPU_C_ACQ_NZ ? 2 : 0;
        if (r->c && in->pc > nwords) /* a target past IRAM: the executor's */
            h = FH_GEN;
        r->tgt = ((int32_t)in->pc - (int32_t)k) * (int32_t)sizeof *r;
        break;
    case K_CALL:
        r->imm = in->off;
        r->tgt = (int32_t)(k + 1);
        if (in->dk != DPU_D_R)
            h = FH_CALL_N;
        break;
    default:
        break;
    }
    r->h = tab[h];
    return h;
}

/* Dead flags. The records come in two copies of FN_RECS(nwords) each: the first, where
 * the ring starts and every jump through a register (FN_GO) lands, which stores every
 * flag, and the second, where an ALU form with dead flags has its _N handler
 * (func_rec_loop.h: the same text without the flag stores). A branch of the first copy
 * jumps into the second (a loop runs there from its first pass back on), one of the
 * second stays there. The form's flags are dead when the instructions after it, up to the
 * next that writes both flags without reading them (an ALU form but addc/subc, a
 * compare-and-branch, an add/sub with a z/nz branch: the window's end), are only loads and
 * stores, none a branch target, and none of them writes a register the flags can be
 * rebuilt from (fn_need): a second-copy record inside a window is reached only by falling
 * through from the form (a stale record: no branch lands inside, FN_GO lands in the first
 * copy), so a tasklet stopped there has the form's flags rebuilt by fn_heal from its
 * registers when the loop returns, and the state stays exact wherever a run ends. */
#define FN_RECS(nwords) ((size_t)(nwords) + 2)
/* bytes of a DPU's records: both copies, then per pc (uint16_t) the dead-flag form whose
 * window holds it (FN_NONE: none), per pc (uint16_t) the length of the block that ends there
 * (fn_blocks), and the build's number (uint64_t, the profile's key for the blocks) */
#define FN_BYTES(nwords) (2 * FN_RECS(nwords) * sizeof(dpu_fn_rec) + 2 * FN_RECS(nwords) * sizeof(uint16_t) + 8)
enum { FN_NONE = 0xffff };
static uint16_t *fn_windows(const dpu_fn_rec *rec, uint32_t nwords)
{
    return (uint16_t *)(void *)(rec + 2 * FN_RECS(nwords));
}
static uint16_t *fn_blens(const dpu_fn_rec *rec, uint32_t nwords)
{
    return fn_windows(rec, nwords) + FN_RECS(nwords);
}
static void *fn_buildno(const dpu_fn_rec *rec, uint32_t nwords)
{
    return fn_blens(rec, nwords) + FN_RECS(nwords);
}

/* The registers (bit per register) from which fn_heal rebuilds the flags of ALU form in,
 * 0 when it cannot: every form from its result register and, unless a logic form's
 * (carry 0: the result decides both flags), from its operand registers, of which the one
 * the result overwrote (rc = ra or rb) is the result run backwards (fn_heal) */
static uint32_t fn_need(const dpu_insn *in)
{
#define FN_BIT(r) ((r) < 24 ? 1u << (r) : 0u)
    if (in->dk != DPU_D_R || in->rc >= 24)
        return 0;
    const unsigned c = in->rc, a = in->ra, b = in->bimm && in->fast != DPU_FAST_LSLADD ? 255u : in->rb;
    switch ((enum dpu_fast)in->fast) {
    case DPU_FAST_AND: case DPU_FAST_OR: case DPU_FAST_XOR: case DPU_FAST_LSL: case DPU_FAST_LSR:
    case DPU_FAST_ASR:
        return FN_BIT(c);
    case DPU_FAST_ADD: case DPU_FAST_SUB: case DPU_FAST_LSLADD: /* (lsl_add: not back to its ra) */
        if (c == a && b != c && in->fast != DPU_FAST_LSLADD)
            return FN_BIT(c) | FN_BIT(b);
        if (c == b && a != c)
            return FN_BIT(c) | FN_BIT(a);
        return c != a && c != b ? FN_BIT(c) | FN_BIT(a) | FN_BIT(b) : 0;
    case DPU_FAST_ADDC: case DPU_FAST_SUBC:
        return c != a && c != b ? FN_BIT(c) | FN_BIT(a) | FN_BIT(b) : 0;
    default:
        return 0;
    }
#undef FN_BIT
}

/* The end of the dead-flag window of the ALU form at k (handler h[k]), 0 if its flags are
 * live; tg[j]: pc j is a branch target. */
static uint32_t fn_window(const dpu_insn *iram, const uint8_t *h, const uint8_t *tg, uint32_t k, uint32_t nwords)
{
    if (h[k] < FH_ADD_RR || h[k] > FH_LSLADD)
        return 0;
    const uint32_t need = fn_need(&iram[k]);
    if (!need)
        return 0;
    for (uint32_t j = k + 1; j < nwords && !tg[j]; j++) {
        if (h[j] >= FH_LW && h[j] <= FH_SD) { /* a load or store: on, if it keeps them */
            if (iram[j].wmask & need)
                return 0;
            continue;
        }
        const int w = (h[j] >= FH_ADD_RR && h[j] <= FH_ASR_RI) || h[j] == FH_LSLADD ||
                      (h[j] >= FH_JEQ_RR && h[j] <= FH_SUBNZ_RI);
        return w ? j : 0;
    }
    return 0;
}

/* Handler h branches relative to its record (FN_BRANCH: ip->tgt). */
static int fn_rel(int h)
{
    return (h >= FH_JEQ_RR && h <= FH_SUBNZ_RI) || h == FH_ACQREL;
}

/* A straight form: it goes on to the next record (FH_ADD_RR .. FH_SD). */
static int fn_straight(int h)
{
    return h >= FH_ADD_RR && h <= FH_SD;
}

/* The blocks the profiled loop counts a pass of at a time (FN_FEED at a block's last record):
 * straight runs that only their first record is entered at. A record begins one when it is
 * a relative branch's target (tg) or follows a record that is not straight; a record that is
 * neither straight nor a relative branch (a call or a jump through a register, OPS, GEN) is
 * a block of its own, and so is the record after it: a possible return address, whose row
 * the profile drops while the call is open (core/profile.h prof_bat_blocks). A jump through a
 * register can still land inside a block: fn_enter_mid. blen[k]: the length of the block
 * whose last record is k, 0 inside one. */
static void fn_blocks(const uint8_t *h, const uint8_t *tg, uint32_t nwords, uint16_t *blen)
{
    uint32_t first = 0;
    for (uint32_t k = 0; k < nwords; k++) {
        const int after = k && !fn_straight(h[k - 1]) && !fn_rel(h[k - 1]);
        if (k && blen[k - 1])
            first = k;
        const int last = k + 1 == nwords || !fn_straight(h[k]) || after || tg[k + 1] ||
                         (!fn_straight(h[k + 1]) && !fn_rel(h[k + 1]));
        blen[k] = last ? (uint16_t)(k - first + 1) : 0;
    }
}

/* Records for the nwords instructions of iram (+ the guard at nwords and the far one), both
 * copies, the windows, and (prof: the profiled loop's, whose blocks end in _F forms) the
 * blocks, numbered no. */
static void fn_build(dpu_fn_rec *rec, const dpu_insn *iram, uint32_t nwords, int prof, uint64_t no)
{
    void *const *tab;
    if (prof)
        fn_loop_prof(NULL, NULL, 0, 0, &tab);
    else
        fn_loop_plain(NULL, NULL, 0, 0, &tab);
    uint8_t h[DPU_IRAM_WORDS], tg[DPU_IRAM_WORDS + 2];
    memset(tg, 0, sizeof tg);
    for (uint32_t k = 0; k < nwords; k++) {
        h[k] = (uint8_t)fn_translate(&rec[k], &iram[k], k, nwords, tab);
        const int64_t t = (int64_t)k + rec[k].tgt / (int32_t)sizeof *rec;
        if (fn_rel(h[k]) && t >= 0 && t < (int64_t)nwords)
            tg[t] = 1;
        if (h[k] == FH_OPS && iram[k].pc < nwords) /* (where its jump goes: fastops.inc) */
            tg[iram[k].pc] = 1;
    }
    memset(&rec[nwords], 0, 2 * sizeof *rec);
    rec[nwords].h = rec[nwords + 1].h = tab[FH_GEN];
    rec[nwords].pc = (uint16_t)nwords;
    rec[nwords + 1].pc = (uint16_t)(nwords + 1);
    const size_t n2 = FN_RECS(nwords);
    dpu_fn_rec *const st = rec + n2;
    memcpy(st, rec, n2 * sizeof *rec);
    uint16_t *const win = fn_windows(rec, nwords);
    for (size_t p = 0; p < n2; p++)
        win[p] = FN_NONE;
    for (uint32_t k = 0; k < nwords; k++) {
        if (fn_rel(h[k]))
            rec[k].tgt += (int32_t)(n2 * sizeof *rec); /* (the target's second-copy record) */
        const uint32_t e = fn_window(iram, h, tg, k, nwords);
        if (!e)
            continue;
        st[k].h = tab[h[k] + FN_NOFL];
        for (uint32_t p = k + 1; p <= e; p++)
            win[p] = (uint16_t)k;
    }
    uint16_t *const blen = fn_blens(rec, nwords);
    memset(blen, 0, FN_RECS(nwords) * sizeof *blen);
    memcpy(fn_buildno(rec, nwords), &no, sizeof no);
    if (!prof)
        return;
    fn_blocks(h, tg, nwords, blen);
    for (uint32_t k = 0; k < nwords; k++)
        if (blen[k] && fn_straight(h[k])) {
            rec[k].h = tab[h[k] + FN_FEEDS];
            st[k].h = tab[h[k] + (st[k].h == tab[h[k] + FN_NOFL] ? FN_NOFL : 0) + FN_FEEDS];
        }
}

/* Slot s's tasklet at a stale record (inside the dead-flag window of the form at w): its
 * flags are w's, rebuilt from the registers fn_need keeps (the overwritten operand run back
 * from the result; a logic form from its result alone, with an operand that leaves it as
 * it is), through the same DPU_SEM_* text; its record the first copy's. */
static void fn_heal(const dpu_fn_ring *r, dpu_fn_slot *s, const dpu_insn *iram)
{
    const dpu_fn_rec *const rec = r->recs;
    const size_t n2 = FN_RECS(r->nwords);
    if (s->ip < rec + n2 || s->ip >= rec + 2 * n2)
        return;
    const uint32_t pc = s->ip->pc;
    s->ip = rec + pc;
    const uint16_t w = fn_windows(rec, r->nwords)[pc];
    if (w == FN_NONE)
        return;
    const dpu_insn *const in = &iram[w];
    dpu_tasklet *const tk = s->tk;
    const uint32_t v = tk->r[in->rc];
    uint32_t a = tk->r[in->ra], b = in->bimm && in->fast != DPU_FAST_LSLADD ? (uint32_t)in->imm : tk->r[in->rb];
    const int ca = in->rc == in->ra, cb = !(in->bimm && in->fast != DPU_FAST_LSLADD) && in->rc == in->rb;
    uint32_t res;
    uint8_t cy;
    switch ((enum dpu_fast)in->fast) {
    case DPU_FAST_AND:
        a = v, b = ~0u;
        break;
    case DPU_FAST_OR: case DPU_FAST_XOR: case DPU_FAST_LSL: case DPU_FAST_LSR: case DPU_FAST_ASR:
        a = v, b = 0;
        break;
    case DPU_FAST_ADD:
        a = ca ? v - b : a, b = cb ? v - a : b;
        break;
    case DPU_FAST_SUB:
        a = ca ? v + b : a, b = cb ? a - v : b;
        break;
    case DPU_FAST_LSLADD:
        b = cb ? v - (a << in->shift) : b;
        break;
    default:
        break;
    }
    switch ((enum dpu_fast)in->fast) {
#define FN_HEAL_ALU(name)                                                                                \
    case DPU_FAST_##name:                                                                                \
        DPU_SEM_##name(res, cy, a, b, tk->cf);                                                           \
        break;
        DPU_SEM_ALU_OPS(FN_HEAL_ALU)
#undef FN_HEAL_ALU
    case DPU_FAST_LSLADD:
        DPU_SEM_LSLADD(res, cy, a, b, in->shift);
        break;
    default:
        return; /* (fn_window marks ALU forms only) */
    }
    tk->zf = res == 0;
    tk->cf = cy;
}

dpu_fn_state *dpu_fn_create(int ndpus)
{
    dpu_fn_state *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->own = calloc((size_t)ndpus, sizeof *fs->own);
    if (!fs->own) {
        free(fs);
        return NULL;
    }
    fs->ndpus = ndpus;
    return fs;
}

void dpu_fn_free(dpu_fn_state *fs)
{
    if (!fs)
        return;
    for (int i = 0; i < fs->ndpus; i++)
        for (int v = 0; v < 2; v++) {
            free(fs->own[i].rec[v]);
            free(fs->own[i].raw[v]);
        }
    free(fs->own);
    free(fs->shared[0]);
    free(fs->shared[1]);
    free(fs);
}

/* (Re)build shared records v from the machine's shared program. */
static void fn_shared(dpu_fn_state *fs, const dpu_machine *dm, int v)
{
    if (!fs->shared[v])
        fs->shared[v] = malloc(FN_BYTES(dm->iram_words));
    fs->shared_src[v] = fs->shared[v] ? dm->shared_iram : NULL;
    if (fs->shared[v])
        fn_build(fs->shared[v], dm->shared_iram, dm->iram_words, v, ++fs->builds);
}

void dpu_fn_build_shared(dpu_fn_state *fs, const dpu_machine *dm)
{
    if (!fs || !dm->shared_iram)
        return;
    fn_shared(fs, dm, 0);
    fs->shared_src[1] = NULL; /* the profiled loop's: again on first use */
}

const dpu_fn_rec *dpu_fn_records(dpu_fn_state *fs, dpu_unit *d, int prof)
{
    if (!fs)
        return NULL;
    const dpu_machine *dm = d->dm;
    const int v = prof != 0;
    if (!d->iram_own) {
        if (v && !fs->shared_src[1] && fs->shared_src[0] == d->iram)
            fn_shared(fs, dm, 1); /* (a profile runs on one host thread) */
        return fs->shared[v] && fs->shared_src[v] == d->iram ? fs->shared[v] : NULL;
    }
    /* this DPU's own program: its records follow the raw IRAM its predecoded copy was
     * made from (dpu_iram_sync keeps that in d->iram_seen) */
    fn_own *o = &fs->own[d->index];
    const size_t nb = 8 * (size_t)dm->iram_words;
    if (o->rec[v] && o->raw[v] && !memcmp(o->raw[v], d->iram_seen, nb))
        return o->rec[v];
    if (!o->rec[v])
        o->rec[v] = malloc(FN_BYTES(dm->iram_words));
    if (!o->raw[v])
        o->raw[v] = malloc(nb);
    if (!o->rec[v] || !o->raw[v])
        return NULL;
    fn_build(o->rec[v], d->iram, dm->iram_words, v, ++fs->builds);
    memcpy(o->raw[v], d->iram_seen, nb);
    return o->rec[v];
}

/* The record of pc (past IRAM: the far guard; the tasklet's pc keeps the value). */
static const dpu_fn_rec *fn_at(const dpu_fn_ring *r, uint32_t pc)
{
    return r->recs + (pc <= r->nwords ? pc : r->nwords + 1);
}

void dpu_fn_ring_build(dpu_fn_ring *r, dpu_unit *d, const dpu_fn_rec *recs, uint32_t run, int nt)
{
    r->recs = recs;
    r->nwords = d->dm->iram_words;
    r->run = run;
    r->nrun = 0;
    r->der = -1;
    for (int i = 0; i < nt; i++) {
        r->pos[i] = -1;
        if (!((run >> i) & 1))
            continue;
        dpu_fn_slot *s = &r->sl[r->nrun];
        r->pos[i] = (int8_t)r->nrun++;
        s->tk = &d->t[i];
        s->ip = fn_at(r, s->tk->pc);
    }
}

void dpu_fn_ring_flush(dpu_fn_ring *r)
{
    const dpu_fn_rec *far = r->recs + r->nwords + 1;
    for (int i = 0; i < r->nrun; i++)
        if (r->sl[i].ip != far)
            r->sl[i].tk->pc = r->sl[i].ip->pc;
}

void dpu_fn_ring_refresh(dpu_fn_ring *r, int k)
{
    if (r->pos[k] >= 0)
        r->sl[r->pos[k]].ip = fn_at(r, r->sl[r->pos[k]].tk->pc);
}

/* The slot after p in the ring [b, e). */
static dpu_fn_slot *fn_after(dpu_fn_slot *p, dpu_fn_slot *b, dpu_fn_slot *e)
{
    return p + 1 == e ? b : p + 1;
}

/* --profile: the batches of the tasklets that issue in a run of ring [b, e) from slot s0 at
 * cycle t (the slot d places after s0 first issuing at t + d): each closes the row open
 * before it at its first issue (func_rec_loop.h FN_FEED counts each issue in its own word);
 * a thread whose window does not map the whole IRAM, or whose open row is a call's or a
 * return's (its first issue, after a call or a return), feeds prof_issue instead. */
static void fn_prof_open(const fn_env *c, dpu_fn_slot *b, dpu_fn_slot *e, dpu_fn_slot *s0, sim_thread *th,
                         uint64_t t, prof_state *prof, int g0)
{
    const dpu_unit *const d = c->d;
    dpu_fn_slot *p = s0;
    for (int k = 0; k < (int)(e - b); k++, p = fn_after(p, b, e)) {
        const int i = (int)(p->tk - d->t);
        p->pt = prof_th(prof, g0 + i);
        p->ins0 = th[i].instructions;
        p->first = t + (uint64_t)k;
        p->bat = prof->poison;
        prof_bat_derive(p->pt, c->der);
        fn_batch(c, p, p->ins0, p->first, p->first - p->tk->last_issue - 1);
        const uint32_t pc = p->ip->pc;
        if (pc && pc < c->nwords && !c->blen[pc - 1])
            fn_enter_mid(c, p, pc, ~(uint64_t)0);
    }
}

/* --profile: slot p's issues of the block it stopped in (at record ip, not run), from its
 * first record or where the slot entered it, up to its last issue in cycle last: counted in
 * its batch words (the batch's last issue then ip's previous record's), or through
 * prof_issue from the first that cannot be. With no issue in the block since the slot
 * entered it (issued 0: none in the run; or its last issue the jump there), only what
 * fn_enter_mid took back is given back. */
static void fn_prof_tail(const fn_env *c, dpu_fn_slot *p, const dpu_fn_rec *ip, uint64_t last, int issued)
{
    const uint32_t pc = ip->pc;
    const int k = (int)(p - c->begin);
    const uint16_t mid = c->mid[k];
    c->mid[k] = 0;
    const int none = !issued || (mid && c->jc[k] == last);
    uint32_t from = fn_pass_from(mid, fn_lead(c, pc)), q = from, to = pc;
    if (none) {
        if (!(mid & FN_MID_BACK))
            return;
        to = (mid & ~FN_MID_BACK) - 1u;
    }
    if (p->bat == p->pt->bat) {
        while (q < to && prof_bat_adjust(p->pt, q, PROF_BAT_ONE(c->step)))
            q++;
        if (q > from && !none)
            p->lip = c->base + (q - 1);
    }
    for (; !none && q < pc; q++)
        fn_issue(c, p, q, last - (uint64_t)(pc - 1 - q) * c->step);
}

/* The batches end at cycle t: each slot's last row opens with the count and cycle after its
 * last issue (its next issue's, step cycles on); the counts grow by the issues. */
static void fn_prof_close(const fn_env *c, dpu_fn_slot *b, dpu_fn_slot *e, sim_thread *th, uint64_t t)
{
    const dpu_unit *const d = c->d;
    const uint64_t step = c->step;
    for (dpu_fn_slot *p = b; p < e; p++) {
        const uint64_t pn = t > p->first ? (t - p->first - 1) / step + 1 : 0; /* its issues */
        prof_thread *const pt = p->pt;
        if (p->ip->pc < c->nwords) /* (with no issue: fn_enter_mid's taking back undone) */
            fn_prof_tail(c, p, p->ip, p->first + pn * step - step, pn != 0);
        if (p->bat == pt->bat) {
            uint64_t *const last = p->lip ? pt->map[p->lip->pc] : p->row0;
            last[PROF_INSNS] -= p->ins0 + pn;
            last[PROF_CYCLES] -= p->first + pn * step;
            pt->row = last;
            if (c->der >= 0) {
                /* the batch's issues' waits (derived), but for its last's (no next issue in
                 * the run: the next issue charges it), or, with none, the wait fn_batch
                 * charged for the issue that has not come */
                const uint64_t bf = c->bf[p - c->begin], nb = (p->first + pn * step - bf) / step;
                prof_stall_total(pt, c->der, nb * (step - 1));
                prof_stall_th(pt, c->der,
                              (uint64_t)0 - (p->lip ? step - 1 : bf == p->first ? p->first - p->tk->last_issue - 1 : step - 1));
            }
        }
        prof_bat_span(pt, t > p->first ? t - p->first : 0);
        th[p->tk - d->t].instructions += pn;
    }
}

uint64_t dpu_fn_ring_run(dpu_fn_ring *r, dpu_unit *d, sim_thread *th, int *k, uint64_t n, int one, uint64_t t,
                         prof_state *prof, int g0)
{
    /* the ring [b, e) and the slot e after it, whose record wraps to b: a turn runs a ring of
     * one, a copy of the tasklet's slot */
    dpu_fn_slot turn[2];
    dpu_fn_slot *const s0r = &r->sl[r->pos[*k]];
    dpu_fn_slot *const b = one ? r->sl : turn, *const e = one ? r->sl + r->nrun : turn + 1;
    if (!one)
        turn[0] = *s0r;
    dpu_fn_slot *const s0 = one ? s0r : turn;
    void *const *tab;
    if (prof)
        fn_loop_prof(NULL, NULL, 0, 0, &tab);
    else
        fn_loop_plain(NULL, NULL, 0, 0, &tab);
    const dpu_fn_rec wrap = {.h = tab[FH_WRAP]};
    e->ip = &wrap;
    e->tk = NULL;
    uint64_t bf[DPU_NTHREADS_MAX + 1];
    uint16_t mid[DPU_NTHREADS_MAX + 1] = {0};
    uint64_t jc[DPU_NTHREADS_MAX + 1], bkey;
    memcpy(&bkey, fn_buildno(r->recs, r->nwords), sizeof bkey);
    const fn_env c = {d,  d->iram,           r->recs,          r->recs + r->nwords + 1, r->nwords, d->wram_p,
                      d->dm->wram_size,
                      {fn_wmk(d->dm->wram_size, 0), fn_wmk(d->dm->wram_size, 1), fn_wmk(d->dm->wram_size, 2),
                       fn_wmk(d->dm->wram_size, 3)},
                      {fn_wok(d->dm->wram_size, 0), fn_wok(d->dm->wram_size, 1), fn_wok(d->dm->wram_size, 2),
                       fn_wok(d->dm->wram_size, 3)},
                      (uint64_t)(e - b), b, r->der, bf, fn_blens(r->recs, r->nwords), mid, jc, bkey};
    dpu_fn_slot *s = s0;
    if (prof)
        fn_prof_open(&c, b, e, s0, th, t, prof, g0);
    const uint64_t ran = prof ? fn_loop_prof(&c, &s, n, t, NULL) : fn_loop_plain(&c, &s, n, t, NULL);
    if (s == e)
        s = b;
    if (prof)
        fn_prof_close(&c, b, e, th, t + ran);
    if (!one)
        s0r->ip = turn[0].ip;
    if (ran < n && s->ip != c.far)
        s->tk->pc = s->ip->pc; /* the executor runs it */
    for (int i = 0; i < r->nrun; i++) /* (the flags exact wherever the run ended) */
        fn_heal(r, &r->sl[i], d->iram);
    /* round robin from s0 (a turn: s0 alone): each ran ran / nrun, the first ran % nrun
     * one more, the i-th after s0 at t + i, then every nrun cycles (the batches counted the
     * instructions already) */
    const uint64_t nr = one ? (uint64_t)r->nrun : 1, q = ran / nr;
    uint64_t m = ran % nr;
    dpu_fn_slot *p = s0r;
    for (uint64_t i = 0; i < nr; i++, p = fn_after(p, r->sl, r->sl + r->nrun)) {
        const uint64_t pn = q + (m ? (m--, 1) : 0);
        if (!pn)
            continue;
        if (!prof)
            th[p->tk - d->t].instructions += pn;
        p->tk->last_issue = t + i + (pn - 1) * nr;
    }
    *k = (int)(s->tk - d->t);
    return ran;
}
