/* isa/ipu/func_fx.c: the functional loop's (func.c) run of one worker's burst. Each
 * single-instruction bundle the fast records (exec.c's ipu_frec_build) specialise into one
 * of the common integer forms -- ALU with a register or immediate second source, shifts by
 * an immediate, setzi, ld32/st32 at base + delta + immediate, brnzdec, brz, brnz, br -- gets
 * a 16-byte entry of its own (ipu_fx: the word it was built from, an FX_* code, three
 * register indices into the context's r[] and the immediate or target), so that a
 * straight-line run of them costs a compare with the word in memory, one dispatch and the
 * operation: no page lookup per bundle (the entry pointer and the word pointer step along),
 * no rpt test (a context in an rpt body never enters the straight-line loop). Entries live
 * in 4 KiB pages per 1 KiB of tile memory, made on first use. Everything else -- a pair, any
 * other fast single, an rpt body -- runs from its fast record through ipu_xop, as fast.c
 * does; a bundle without a fast record ends the burst (func.c runs it through the generic
 * executor). Self-modifying code stays exact: the lookup uses an entry only while the word
 * in memory is the one it was built from; along straight-line code, runs with a debugger
 * or a profile (which may write memory between runs) compare every entry with its word,
 * and plain runs instead have every store into tile memory (ipu_fx_wrote: this loop's, the
 * records', the generic executor's data_ptr) drop the entries of the words it writes. */
#include <stdlib.h>
#include "fop.h"
#include "../../core/profile.h"

enum {
    FX_BUILD = 0, /* not built yet (or built for another word: the compare fails first) */
    FX_GEN,       /* no fast record: the generic executor */
    FX_XOP,       /* from the fast record (pairs, other singles) */
    /* R[d] = R[a] op R[b], then the same with imm for R[b] */
    FX_ADD, FX_SUB, FX_MUL, FX_AND, FX_ANDC, FX_OR, FX_XOR, FX_MIN, FX_MAX, FX_CMPEQ, FX_CMPNE, FX_CMPSLT,
    FX_CMPULT,
    FX_ADDI, FX_SUBI, FX_MULI, FX_ANDI, FX_ANDCI, FX_ORI, FX_XORI, FX_MINI, FX_MAXI, FX_CMPEQI, FX_CMPNEI,
    FX_CMPSLTI, FX_CMPULTI,
    FX_SHLI, FX_SHRI, FX_SHRSI, FX_MOVI,
    FX_LD32I, FX_ST32I, /* ea = R[a] + R[b] + imm; the data register d */
    FX_BRNZDEC,         /* a the counter read, b where it is written back (its sink for $m15) */
    FX_BRZ, FX_BRNZ, FX_BR
};
#define FX_RI (FX_ADDI - FX_ADD)
_Static_assert(FX_BUILD == 0 && sizeof(ipu_fxpage) == FP_WORDS * sizeof(ipu_fx),
               "tile.h's ipu_fx_wrote clears op to 0 in pages of FP_WORDS entries");


void ipu_func_free(ipu_tile *tl)
{
    for (uint32_t i = 0; tl->fxp && i < tl->nfxp; i++)
        free(tl->fxp[i]);
    free(tl->fxp);
    tl->fxp = NULL;
    tl->nfxp = 0;
}

/* The tile-memory offset a fast-record store writes, or FX_NO_STORE: not a store, or one that faults (ipu_xop then refuses it). */
#define FX_NO_STORE 0xffffffffu
static inline uint32_t fx_store_off(const ipu_fop *f, const uint32_t *R, uint32_t base)
{
    if (f->op != IPU_FOP_ST32 && f->op != IPU_FOP_ST64)
        return FX_NO_STORE;
    const uint32_t k = f->bimm ? f->imm : R[f->c] << f->shift;
    return R[f->a] + R[f->b] + (f->step ? 0 : k) - base;
}

/* The entry of a fast record (r valid for the words at its pc). */
static ipu_fx fx_of(const ipu_frec *r)
{
    ipu_fx e = {.w = r->w0, .op = FX_XOP};
    if (r->kind != IPU_FR_FAST) {
        e.op = FX_GEN;
        return e;
    }
    if (r->n != 1)
        return e;
    const ipu_fop *f = &r->f[0];
    e.d = f->d;
    e.a = f->a;
    e.b = f->b;
    e.imm = f->bimm ? f->imm : f->imm2;
    static const uint8_t alu[] = {
        [IPU_FOP_ADD] = FX_ADD, [IPU_FOP_SUB] = FX_SUB, [IPU_FOP_MUL] = FX_MUL, [IPU_FOP_AND] = FX_AND,
        [IPU_FOP_ANDC] = FX_ANDC, [IPU_FOP_OR] = FX_OR, [IPU_FOP_XOR] = FX_XOR, [IPU_FOP_MIN] = FX_MIN,
        [IPU_FOP_MAX] = FX_MAX, [IPU_FOP_CMPEQ] = FX_CMPEQ, [IPU_FOP_CMPNE] = FX_CMPNE,
        [IPU_FOP_CMPSLT] = FX_CMPSLT, [IPU_FOP_CMPULT] = FX_CMPULT, [IPU_FOP_MOV] = FX_OR};
    if (f->op < sizeof alu && alu[f->op]) {
        e.op = (uint8_t)(alu[f->op] + (f->bimm ? FX_RI : 0));
        if (f->op == IPU_FOP_MOV && f->bimm && f->a == IPU_R_ZERO)
            e.op = FX_MOVI;
        return e;
    }
    switch (f->op) {
    case IPU_FOP_SHL: case IPU_FOP_SHR: case IPU_FOP_SHRS:
        if (f->bimm) /* an immediate above 31 has no fast record */
            e.op = f->op == IPU_FOP_SHL ? FX_SHLI : f->op == IPU_FOP_SHR ? FX_SHRI : FX_SHRSI;
        return e;
    case IPU_FOP_LD32: case IPU_FOP_ST32:
        if (!f->step && f->bimm)
            e.op = f->op == IPU_FOP_LD32 ? FX_LD32I : FX_ST32I;
        return e;
    case IPU_FOP_BRNZDEC:
        e.op = FX_BRNZDEC;
        e.b = f->d;
        return e;
    case IPU_FOP_BRZ: e.op = FX_BRZ; return e;
    case IPU_FOP_BRNZ: e.op = FX_BRNZ; return e;
    case IPU_FOP_BR: e.op = FX_BR; return e;
    default: return e;
    }
}

/* The valid fast record at off (NULL: out of memory). */
static const ipu_frec *frec_at(ipu_tile *tl, uint32_t off)
{
    ipu_fpage *const p = tl->fp ? tl->fp[off >> (FP_SHIFT + 2)] : NULL;
    const ipu_frec *r = p ? &p->e[(off >> 2) & (FP_WORDS - 1)] : NULL;
    if (!r || !frec_valid(r, tl->mem + off))
        r = ipu_frec_miss(tl, off);
    return r;
}

/* The entry at off, built from the fast record when it is not the word's (NULL: out of
 * memory). */
static __attribute__((noinline)) ipu_fx *fx_miss(ipu_tile *tl, uint32_t off)
{
    const ipu_machine *im = tl->im;
    if (!tl->fxp) {
        tl->nfxp = (im->mem_size / 4 + FP_WORDS - 1) / FP_WORDS;
        if (!(tl->fxp = calloc(tl->nfxp, sizeof *tl->fxp)))
            return NULL;
    }
    ipu_fxpage *p = tl->fxp[off >> (FP_SHIFT + 2)];
    if (!p && !(p = tl->fxp[off >> (FP_SHIFT + 2)] = calloc(1, sizeof *p)))
        return NULL;
    ipu_fx *e = &p->e[(off >> 2) & (FP_WORDS - 1)];
    const ipu_frec *r = frec_at(tl, off);
    if (!r)
        return NULL;
    *e = fx_of(r);
    /* a direct branch to the same page of entries: the distance to the target's entry and
     * the target's entries to the page's end (the loop's taken branch, func_fx_loop.h) */
    if (e->op == FX_BRNZDEC || e->op == FX_BRZ || e->op == FX_BRNZ) {
        const uint32_t toff = e->imm - im->mem_base;
        if (!(e->imm & 3) && toff < im->mem_size && !((toff ^ off) >> (FP_SHIFT + 2)))
            e->spare = (uint32_t)(uint16_t)(int16_t)(((int32_t)toff - (int32_t)off) / 4) |
                       (FP_WORDS - ((toff >> 2) & (FP_WORDS - 1))) << 16;
    }
    return e;
}

/* GCC merges the handlers' identical dispatch tails into one, which costs a jump per
 * bundle; keep each handler's own (clang does not merge them); and its SLP vectoriser makes
 * the profile's two adds to a row (func_fx_loop.h PB_ISSUED) three instructions */
#if defined(__GNUC__) && !defined(__clang__)
#define FX_ATTR __attribute__((optimize("no-crossjumping", "no-tree-slp-vectorize")))
#else
#define FX_ATTR
#endif
/* --profile: a batch over the page of entries at tile-memory offset pg0 (FP_WORDS words)
 * when thread pt's window maps every word of it; *k then gives the address of the row
 * pointer of the word at code: k + 8 x code (func_fx_loop.h's PB_ISSUE). */
static inline int pb_open(const prof_thread *pt, uint32_t base, uint32_t pg0, uintptr_t *k, const uint8_t *mem)
{
    const uint64_t i0 = (uint64_t)base + pg0 - pt->base; /* the window's index of the page */
    if (i0 >= pt->lim || pt->lim - i0 < FP_WORDS * 4u)
        return 0;
    *k = (uintptr_t)pt->map + 8 * ((uintptr_t)base - (uintptr_t)pt->base - (uintptr_t)mem);
    return 1;
}

#define FX_PROTO FX_ATTR static uint64_t fx_burst_plain(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t)
#define prof ((prof_state *)NULL)
#define FX_CHECK 0
#define FX_PROF 0
#include "func_fx_loop.h"
#undef FX_PROTO
#define FX_PROTO FX_ATTR static uint64_t fx_burst_checked(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t)
#undef FX_CHECK
#define FX_CHECK 1
#include "func_fx_loop.h"
#undef FX_PROTO
#undef FX_PROF
#undef prof
#define FX_PROF 1
#define FX_PROTO                                                                                                     \
    FX_ATTR static uint64_t fx_burst_profiled(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t, prof_state *prof)
#include "func_fx_loop.h"
#undef FX_PROTO
#undef FX_CHECK
#undef FX_PROF

uint64_t ipu_fx_burst(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t)
{
    return fx_burst_plain(u, tl, tid, nmax, t);
}

uint64_t ipu_fx_burst_prof(sim_unit *u, ipu_tile *tl, int tid, uint64_t nmax, uint64_t t, prof_state *prof)
{
    return prof ? fx_burst_profiled(u, tl, tid, nmax, t, prof) : fx_burst_checked(u, tl, tid, nmax, t);
}
