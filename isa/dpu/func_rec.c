/* isa/dpu/func_rec.c: the functional mode's records and its threaded loop (func_rec.h).
 * Functional runs need no timing, so a record carries only what execution needs: the
 * handler's address (so the loop dispatches with one indirect jump, each handler ending in
 * its own), the three registers, the immediate or offset, and the branch target as a
 * record offset (no pc clamp on the way). The instructions compiled code runs most (ALU,
 * loads and stores, compare-and-branch, add/sub with a z/nz branch, calls) have handlers
 * here, split by register or immediate second operand; the other forms fast.c runs inline
 * run here through the same text (fastops.inc, on the cycle model's record of the same
 * pc), and everything else (DMA, stop, boot, faults) leaves the loop for the executor.
 * Semantics exactly as exec.c (tests/dpu/test_func.c compares with the cycle model). */
#include <stdlib.h>
#include <string.h>
#include "func_rec.h"
#include "cond.h"

struct dpu_fn_rec {
    void *h;          /* the handler's label in fn_loop */
    int32_t imm;      /* the second operand's immediate, or the access's offset */
    int32_t tgt;      /* a branch's target (in records from this one), a store's immediate
                         data, a call's return index */
    uint8_t a, b, c;  /* ra, rb, rc */
    uint8_t x;        /* lsl_add's shift */
    uint16_t pc;      /* this record's IRAM index */
    uint16_t pad;
};

/* Every DPU's own records (an IRAM that differs from the shared program) and the raw IRAM
 * they were made from. */
typedef struct fn_own {
    dpu_fn_rec *rec;
    uint8_t *raw;
} fn_own;

struct dpu_fn_state {
    dpu_fn_rec *shared;
    const dpu_insn *shared_src; /* the predecoded program it was built from */
    fn_own *own;
    int ndpus;
};

/* The handlers, in the order of the loop's label table. GEN: leave for the executor; OPS:
 * fastops.inc on the cycle model's record. _RR / _RI: the second operand is a register /
 * the immediate. */
#define FN_HANDLERS(X)                                                                                   \
    X(GEN) X(OPS)                                                                                        \
    X(ADD_RR) X(ADD_RI) X(SUB_RR) X(SUB_RI) X(AND_RR) X(AND_RI) X(OR_RR) X(OR_RI) X(XOR_RR) X(XOR_RI)    \
    X(LSL_RR) X(LSL_RI) X(LSR_RR) X(LSR_RI) X(ASR_RR) X(ASR_RI) X(ADDC_RR) X(ADDC_RI) X(SUBC_RR)         \
    X(SUBC_RI) X(LSLADD)                                                                                 \
    X(LW) X(LBU) X(LBS) X(LHU) X(LHS) X(LD) X(SW_RR) X(SW_RI) X(SB_RR) X(SB_RI) X(SH_RR) X(SH_RI) X(SD) \
    X(JEQ_RR) X(JEQ_RI) X(JNEQ_RR) X(JNEQ_RI) X(JLTU_RR) X(JLTU_RI) X(JGEU_RR) X(JGEU_RI) X(JLEU_RR)     \
    X(JLEU_RI) X(JGTU_RR) X(JGTU_RI) X(JLTS_RR) X(JLTS_RI) X(JGES_RR) X(JGES_RI) X(JLES_RR) X(JLES_RI)   \
    X(JGTS_RR) X(JGTS_RI)                                                                                \
    X(ADDZ_RR) X(ADDZ_RI) X(ADDNZ_RR) X(ADDNZ_RI) X(SUBZ_RR) X(SUBZ_RI) X(SUBNZ_RR) X(SUBNZ_RI)         \
    X(CALL_R) X(CALL_N)
#define FN_ENUM(n) FH_##n,
enum { FN_HANDLERS(FN_ENUM) FH_COUNT };
#undef FN_ENUM

/* What the loop reads besides the slots (and what fastops.inc reads of it: c->d). */
typedef struct fn_env {
    dpu_unit *d;
    const dpu_insn *iram;   /* the cycle model's records the functional ones were made from */
    const dpu_fn_rec *base; /* the records; base[nwords] the guard at the end of IRAM */
    const dpu_fn_rec *far;  /* base[nwords + 1]: any pc past it (the tasklet's pc holds it) */
    uint32_t nwords;
    uint8_t *wram;
    uint64_t wlim;
} fn_env;

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum" /* every DPU_FAST_* has its case, as in fast.c */
/* Run up to n instructions from slot *sp; the instructions run and *sp the slot whose
 * record is next (fewer than n: that record is for the executor). With c NULL: *tabp gets
 * the label table (fn_translate's handlers), nothing runs. noclone: the labels' addresses
 * are only this function's. */
#if defined(__clang__)
__attribute__((noinline))
#else
__attribute__((noinline, noclone))
#endif
static uint64_t
fn_loop(const fn_env *c, dpu_fn_slot **sp, uint64_t n, void *const **tabp)
{
#define FN_ADDR(name) &&h_##name,
    static void *const tab[FH_COUNT] = {FN_HANDLERS(FN_ADDR)};
#undef FN_ADDR
    if (!c) {
        *tabp = tab;
        return 0;
    }
    if (!n)
        return 0;
    dpu_fn_slot *s = *sp;
    const dpu_fn_rec *ip = s->ip;
    dpu_tasklet *tk = s->tk;
    uint8_t *const wram = c->wram;
    const uint64_t wlim = c->wlim;
    uint64_t left = n;
    /* the registers are the tasklet's first field */
#define R (tk->r)
    /* the tasklet's next record is nip; the next slot's goes on (a turn: the same slot) */
#define NEXT(nip)                                                                                        \
    do {                                                                                                 \
        s->ip = (nip);                                                                                   \
        s = s->next;                                                                                     \
        ip = s->ip;                                                                                      \
        tk = s->tk;                                                                                      \
        if (!--left)                                                                                     \
            goto done;                                                                                   \
        goto *ip->h;                                                                                     \
    } while (0)
    goto *ip->h;

    /* ALU: res and cy (the carry) from a and b; 32-bit destination, flags of the result */
#define FN_ALU1(name, bval, calc)                                                                        \
    h_##name : {                                                                                         \
        const uint32_t a = R[ip->a], b = (bval);                                                         \
        uint32_t res;                                                                                    \
        int cy;                                                                                          \
        calc;                                                                                            \
        R[ip->c] = res;                                                                                  \
        tk->zf = res == 0;                                                                               \
        tk->cf = (uint8_t)cy;                                                                            \
        NEXT(ip + 1);                                                                                    \
    }
#define FN_ALU(name, calc) FN_ALU1(name##_RR, R[ip->b], calc) FN_ALU1(name##_RI, (uint32_t)ip->imm, calc)
#define FN_WIDE(e) uint64_t w_ = (e); res = (uint32_t)w_; cy = (int)(w_ >> 32)
    FN_ALU(ADD, FN_WIDE((uint64_t)a + b))
    FN_ALU(SUB, res = a - b; cy = b > a)
    FN_ALU(AND, res = a & b; cy = 0)
    FN_ALU(OR, res = a | b; cy = 0)
    FN_ALU(XOR, res = a ^ b; cy = 0)
    FN_ALU(LSL, res = a << (b & 31); cy = 0)
    FN_ALU(LSR, res = a >> (b & 31); cy = 0)
    FN_ALU(ASR, res = (uint32_t)((int32_t)a >> (b & 31)); cy = 0)
    FN_ALU(ADDC, FN_WIDE((uint64_t)a + b + tk->cf))
    FN_ALU(SUBC, res = a - b - tk->cf; cy = (uint64_t)b + tk->cf > a)
    /* lsl_add rc, rb, ra, shift: rb + (ra << shift) */
    FN_ALU1(LSLADD, R[ip->b], FN_WIDE((uint64_t)b + (uint32_t)(a << ip->x)))

    /* loads and stores: an access out of WRAM or misaligned is the executor's (it faults) */
#define FN_ADDR_OK(n) const uint32_t ad = R[ip->a] + (uint32_t)ip->imm;                                  \
    if ((uint64_t)ad + (n) > wlim || (ad & ((n) - 1)))                                                   \
        goto h_GEN
#define FN_LOAD(name, n, val)                                                                            \
    h_##name : {                                                                                         \
        FN_ADDR_OK(n);                                                                                   \
        R[ip->c] = (val);                                                                                \
        NEXT(ip + 1);                                                                                    \
    }
    FN_LOAD(LW, 4, mem_ld32le(wram + ad))
    FN_LOAD(LBU, 1, wram[ad])
    FN_LOAD(LBS, 1, (uint32_t)(int32_t)(int8_t)wram[ad])
    FN_LOAD(LHU, 2, mem_ld16le(wram + ad))
    FN_LOAD(LHS, 2, (uint32_t)(int32_t)(int16_t)mem_ld16le(wram + ad))
    h_LD : { /* the even register gets the high word */
        FN_ADDR_OK(8);
        const uint64_t v = mem_ld64le(wram + ad);
        R[ip->c] = (uint32_t)(v >> 32);
        R[ip->c + 1] = (uint32_t)v;
        NEXT(ip + 1);
    }
#define FN_STORE1(name, n, val, st)                                                                      \
    h_##name : {                                                                                         \
        FN_ADDR_OK(n);                                                                                   \
        const uint32_t v = (val);                                                                        \
        st;                                                                                              \
        NEXT(ip + 1);                                                                                    \
    }
#define FN_STORE(name, n, st) FN_STORE1(name##_RR, n, R[ip->b], st) FN_STORE1(name##_RI, n, (uint32_t)ip->tgt, st)
    FN_STORE(SW, 4, mem_st32le(wram + ad, v))
    FN_STORE(SB, 1, wram[ad] = (uint8_t)v)
    FN_STORE(SH, 2, mem_st16le(wram + ad, (uint16_t)v))
    FN_STORE1(SD, 8, 0, mem_st64le(wram + ad, (uint64_t)R[ip->b] << 32 | R[ip->b + 1]); (void)v)

    /* compare and branch (sub without destination): the flags of a - b */
#define FN_J1(name, bval, cmp)                                                                           \
    h_##name : {                                                                                         \
        const uint32_t a = R[ip->a], b = (bval);                                                         \
        tk->zf = a == b;                                                                                 \
        tk->cf = b > a;                                                                                  \
        NEXT(ip + ((cmp) ? ip->tgt : 1));                                                                \
    }
#define FN_J(name, cmp) FN_J1(name##_RR, R[ip->b], cmp) FN_J1(name##_RI, (uint32_t)ip->imm, cmp)
    FN_J(JEQ, a == b)
    FN_J(JNEQ, a != b)
    FN_J(JLTU, a < b)
    FN_J(JGEU, a >= b)
    FN_J(JLEU, a <= b)
    FN_J(JGTU, a > b)
    FN_J(JLTS, (int32_t)a < (int32_t)b)
    FN_J(JGES, (int32_t)a >= (int32_t)b)
    FN_J(JLES, (int32_t)a <= (int32_t)b)
    FN_J(JGTS, (int32_t)a > (int32_t)b)

    /* add/sub with a destination and a branch on the result being zero (z) or not (nz) */
#define FN_B1(name, bval, calc, z)                                                                       \
    h_##name : {                                                                                         \
        const uint32_t a = R[ip->a], b = (bval);                                                         \
        uint32_t res;                                                                                    \
        int cy;                                                                                          \
        calc;                                                                                            \
        R[ip->c] = res;                                                                                  \
        tk->zf = res == 0;                                                                               \
        tk->cf = (uint8_t)cy;                                                                            \
        NEXT(ip + ((res == 0) == (z) ? ip->tgt : 1));                                                    \
    }
#define FN_B(name, calc, z) FN_B1(name##_RR, R[ip->b], calc, z) FN_B1(name##_RI, (uint32_t)ip->imm, calc, z)
    FN_B(ADDZ, FN_WIDE((uint64_t)a + b), 1)
    FN_B(ADDNZ, FN_WIDE((uint64_t)a + b), 0)
    FN_B(SUBZ, res = a - b; cy = b > a, 1)
    FN_B(SUBNZ, res = a - b; cy = b > a, 0)

    /* call rc, ra, off: rc = the return index (none: a jump), pc = ra + off, any value: the
     * tasklet's pc holds it (a pc past IRAM runs the far guard: the executor faults) */
#define FN_GO(p)                                                                                         \
    do {                                                                                                 \
        const uint32_t p_ = (uint16_t)(p);                                                               \
        tk->pc = (uint16_t)p_;                                                                           \
        NEXT(p_ <= c->nwords ? c->base + p_ : c->far);                                                   \
    } while (0)
    h_CALL_R : {
        const uint32_t a = R[ip->a];
        R[ip->c] = (uint32_t)ip->tgt;
        FN_GO(a + (uint32_t)ip->imm);
    }
    h_CALL_N : FN_GO(R[ip->a] + (uint32_t)ip->imm);

    /* the rarer forms fast.c runs inline: the same text, on the cycle model's record */
    h_OPS : {
        const uint32_t pc = ip->pc;
        const dpu_insn *const in = &c->iram[pc];
        const uint32_t fa = R[in->ra];
        const uint32_t fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        uint32_t res, npc = pc + 1;
        int carry, take;
#define WATCHED(addr, n) 0
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA:
        case DPU_FAST_NONE:
            goto generic;
        default:
            __builtin_unreachable(); /* predecode.c stores only DPU_FAST_* values */
        }
#undef WATCHED
        FN_GO(npc);
    }

h_GEN:
generic:
    s->ip = ip;
    *sp = s;
    return n - left;
done:
    *sp = s;
    return n;
#undef R
#undef NEXT
}
#pragma GCC diagnostic pop

/* The record of instruction in at IRAM index k. */
static void fn_translate(dpu_fn_rec *r, const dpu_insn *in, uint32_t k, uint32_t nwords, void *const *tab)
{
    /* fast form -> handler (register second operand; + 1: immediate) and what it reads */
    enum { K_GEN, K_OPS, K_ALU, K_ONE, K_MEM, K_ST, K_BR, K_CALL };
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
        [DPU_FAST_CALL] = {FH_CALL_R, K_CALL},
        /* the rest (JSUB, ADDBR, SUBBR, ACQREL, LOGX, MULSTEP, DIVSTEP, CLZ, CLO, MOVD):
         * fastops.inc (K_OPS, the zero entry's kind is K_GEN: set below) */
    };
    memset(r, 0, sizeof *r);
    r->pc = (uint16_t)k;
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
        r->tgt = (int32_t)in->pc - (int32_t)k;
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
}

/* Records for the nwords instructions of iram (+ the guard at nwords and the far one). */
static void fn_build(dpu_fn_rec *rec, const dpu_insn *iram, uint32_t nwords)
{
    void *const *tab;
    fn_loop(NULL, NULL, 0, &tab);
    for (uint32_t k = 0; k < nwords; k++)
        fn_translate(&rec[k], &iram[k], k, nwords, tab);
    memset(&rec[nwords], 0, 2 * sizeof *rec);
    rec[nwords].h = rec[nwords + 1].h = tab[FH_GEN];
    rec[nwords].pc = (uint16_t)nwords;
    rec[nwords + 1].pc = (uint16_t)(nwords + 1);
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
    for (int i = 0; i < fs->ndpus; i++) {
        free(fs->own[i].rec);
        free(fs->own[i].raw);
    }
    free(fs->own);
    free(fs->shared);
    free(fs);
}

void dpu_fn_build_shared(dpu_fn_state *fs, const dpu_machine *dm)
{
    if (!fs || !dm->shared_iram)
        return;
    if (!fs->shared)
        fs->shared = malloc(sizeof *fs->shared * ((size_t)dm->iram_words + 2));
    fs->shared_src = fs->shared ? dm->shared_iram : NULL;
    if (fs->shared)
        fn_build(fs->shared, dm->shared_iram, dm->iram_words);
}

const dpu_fn_rec *dpu_fn_records(dpu_fn_state *fs, dpu_unit *d)
{
    if (!fs)
        return NULL;
    const dpu_machine *dm = d->dm;
    if (!d->iram_own)
        return fs->shared && fs->shared_src == d->iram ? fs->shared : NULL;
    /* this DPU's own program: its records follow the raw IRAM its predecoded copy was
     * made from (dpu_iram_sync keeps that in d->iram_seen) */
    fn_own *o = &fs->own[d->index];
    const size_t nb = 8 * (size_t)dm->iram_words;
    if (o->rec && o->raw && !memcmp(o->raw, d->iram_seen, nb))
        return o->rec;
    if (!o->rec)
        o->rec = malloc(sizeof *o->rec * ((size_t)dm->iram_words + 2));
    if (!o->raw)
        o->raw = malloc(nb);
    if (!o->rec || !o->raw)
        return NULL;
    fn_build(o->rec, d->iram, dm->iram_words);
    memcpy(o->raw, d->iram_seen, nb);
    return o->rec;
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
    r->nrun = __builtin_popcount(run);
    dpu_fn_slot *prev = NULL, *first = NULL;
    for (int i = 0; i < nt; i++) {
        if (!((run >> i) & 1))
            continue;
        dpu_fn_slot *s = &r->sl[i];
        s->tk = &d->t[i];
        s->ip = fn_at(r, s->tk->pc);
        if (prev)
            prev->next = s;
        else
            first = s;
        prev = s;
    }
    if (prev)
        prev->next = first;
}

void dpu_fn_ring_flush(dpu_fn_ring *r)
{
    const dpu_fn_rec *far = r->recs + r->nwords + 1;
    for (uint32_t run = r->run; run; run &= run - 1) {
        dpu_fn_slot *s = &r->sl[__builtin_ctz(run)];
        if (s->ip != far)
            s->tk->pc = s->ip->pc;
    }
}

void dpu_fn_ring_refresh(dpu_fn_ring *r, int k)
{
    r->sl[k].ip = fn_at(r, r->sl[k].tk->pc);
}

uint64_t dpu_fn_ring_run(dpu_fn_ring *r, dpu_unit *d, sim_thread *th, int *k, uint64_t n, int one)
{
    const fn_env c = {d, d->iram, r->recs, r->recs + r->nwords + 1, r->nwords, d->wram_p, d->dm->wram_size};
    dpu_fn_slot *const s0 = &r->sl[*k], *const next = s0->next;
    dpu_fn_slot *s = s0;
    if (!one)
        s0->next = s0; /* a turn: a ring of one */
    const uint64_t ran = fn_loop(&c, &s, n, NULL);
    s0->next = next;
    const int e = (int)(s - r->sl);
    if (ran < n && s->ip != c.far)
        s->tk->pc = s->ip->pc; /* the executor runs it */
    if (!one) {
        th[*k].instructions += ran;
    } else {
        /* round robin from s0: each ran ran / nrun, the first ran % nrun one more */
        const uint64_t q = ran / (uint64_t)r->nrun;
        uint64_t m = ran % (uint64_t)r->nrun;
        dpu_fn_slot *p = s0;
        for (int i = 0; i < r->nrun; i++, p = p->next)
            th[p - r->sl].instructions += q + (m ? (m--, 1) : 0);
    }
    *k = e;
    return ran;
}
