/* isa/ipu/fast.c: the tile's run loop for plain runs (no debugger, trace or profile hooks,
 * no instruction limit, no watchpoint on tile memory, the predecode cache on). It issues
 * exactly what the reference loop in barrel.c issues, at the same cycles, with less work
 * per bundle:
 *  - bursts: while the worker bound to the current cycle's slot is active and ready, it
 *    issues, and the next cycle belongs to the next slot's worker. A worker that issued in
 *    the burst is ready again at its next turn (it issues every 6 cycles and never
 *    stalls), so only the first turn of a burst tests readiness; with six workers running
 *    the burst covers every cycle until the horizon;
 *  - bundles run from records (exec.c's ipu_frec_build: an operation id and its operands
 *    as indices into the context's register array, immediates extended, branch targets
 *    computed), cached per word address and checked against the words in memory at every
 *    fetch, as the predecode cache is (so stores into code need no invalidation);
 *  - statistics are booked at the end of a burst: in a burst every cycle issues, so each
 *    worker's issues, last issue and barrel stalls follow from the burst's first and last
 *    cycle; only the instructions retired (one or two per bundle) are counted per bundle;
 *  - anything else -- the supervisor, a cycle whose slot's worker is not ready, a bundle
 *    without a record (float, CSR, exit, run, trap...), a record that would raise (fetch,
 *    pairing, rpt-body checks), an access outside tile memory or misaligned, a shift by a
 *    register above 31, an rpt count over $REPEAT_COUNT -- goes through one turn of the
 *    reference loop (ipu_barrel_step), before anything of that bundle has been done;
 *  - the machine's stop flag (set by the host: an interrupt) is read every
 *    IPU_POLL_CYCLES cycles; nothing a burst executes can stop the run.
 * tests/ipu/test_fastpath.c runs programs here and in the reference loop and compares every
 * register, memory byte, cycle and statistic. */
#include <stdlib.h>
#include <string.h>
#include "exec.h"

#define IPU_POLL_CYCLES 4096
#define FP_SHIFT 8 /* 256 words (1 KiB of code) a page of records */
#define FP_WORDS (1u << FP_SHIFT)

typedef struct ipu_fpage {
    ipu_frec e[FP_WORDS];
} ipu_fpage;

void ipu_fast_free(ipu_tile *tl)
{
    for (uint32_t i = 0; tl->fp && i < tl->nfp; i++)
        free(tl->fp[i]);
    free(tl->fp);
    tl->fp = NULL;
    tl->nfp = 0;
}

/* The record of the worker bundle at tile-memory offset off (4-byte aligned), built or
 * rebuilt when the words in memory are not the ones it was built from; NULL out of
 * memory (the bundle then goes through the reference loop). */
static __attribute__((noinline)) ipu_frec *frec_miss(ipu_tile *tl, uint32_t off)
{
    const ipu_machine *im = tl->im;
    if (!tl->fp) {
        tl->nfp = (im->mem_size / 4 + FP_WORDS - 1) / FP_WORDS;
        if (!(tl->fp = calloc(tl->nfp, sizeof *tl->fp)))
            return NULL;
    }
    const uint32_t wi = off >> 2;
    ipu_fpage *p = tl->fp[wi >> FP_SHIFT];
    if (!p && !(p = tl->fp[wi >> FP_SHIFT] = calloc(1, sizeof *p)))
        return NULL;
    ipu_frec *r = &p->e[wi & (FP_WORDS - 1)];
    ipu_frec_build(tl, im->mem_base + off, r);
    return r;
}

/* Is the record still the decode of the words in memory? */
static inline int frec_valid(const ipu_frec *r, const uint8_t *code)
{
    return r->kind != IPU_FR_NONE && r->w0 == mem_ld32le(code) && (r->n == 1 || r->w1 == mem_ld32le(code + 4));
}

/* One half of a bundle at pc (len bytes), on the context's registers R. Returns 0 done, 1
 * when it must go through the generic executor (nothing changed). */
static inline __attribute__((always_inline)) int xop(const ipu_fop *f, ipu_ctx *c, uint32_t *R, uint8_t *mem,
                                                     uint32_t base, uint32_t msize, uint32_t rmask, uint32_t pc,
                                                     uint32_t len, uint32_t *npc)
{
    const uint32_t a = R[f->a];
    const uint32_t b = f->bimm ? f->imm : R[f->b];
    uint32_t r, ea, off;
    switch (f->op) {
    case IPU_FOP_ADD: r = a + b; break;
    case IPU_FOP_SUB: r = a - b; break;
    case IPU_FOP_MUL: r = (uint32_t)((int64_t)(int32_t)a * (int32_t)b); break;
    case IPU_FOP_AND: r = a & b; break;
    case IPU_FOP_ANDC: r = a & ~b; break;
    case IPU_FOP_OR: case IPU_FOP_MOV: r = a | b; break;
    case IPU_FOP_XOR: r = a ^ b; break;
    case IPU_FOP_XNOR: r = ~(a ^ b); break;
    case IPU_FOP_MIN: r = (int32_t)a < (int32_t)b ? a : b; break;
    case IPU_FOP_MAX: r = (int32_t)a > (int32_t)b ? a : b; break;
    case IPU_FOP_SHL: if (b > 31) return 1; r = a << b; break;
    case IPU_FOP_SHR: if (b > 31) return 1; r = a >> b; break;
    case IPU_FOP_SHRS: if (b > 31) return 1; r = (uint32_t)((int32_t)a >> b); break;
    case IPU_FOP_CMPEQ: r = a == b; break;
    case IPU_FOP_CMPNE: r = a != b; break;
    case IPU_FOP_CMPSLT: r = (int32_t)a < (int32_t)b; break;
    case IPU_FOP_CMPULT: r = a < b; break;
    case IPU_FOP_ABS: r = (int32_t)a < 0 ? 0u - a : a; break;
    case IPU_FOP_CLZ: r = a ? (uint32_t)__builtin_clz(a) : 32; break;
    case IPU_FOP_CMS: {
        uint32_t v = (a ^ (uint32_t)((int32_t)a >> 31)) << 1 | 1;
        r = (uint32_t)__builtin_clz(v);
        break;
    }
    case IPU_FOP_POPC: r = (uint32_t)__builtin_popcount(a); break;
    case IPU_FOP_BITREV8:
        r = 0;
        for (int i = 0; i < 32; i++)
            if (a >> i & 1)
                r |= 1u << ((i & ~7) | (7 - (i & 7)));
        break;
    case IPU_FOP_NOT: r = ~a; break;
    case IPU_FOP_AND64: case IPU_FOP_ANDC64: case IPU_FOP_OR64: case IPU_FOP_NOT64: {
        const uint64_t x = (uint64_t)R[f->a + 1] << 32 | R[f->a], y = (uint64_t)R[f->b + 1] << 32 | R[f->b];
        const uint64_t v = f->op == IPU_FOP_AND64 ? x & y : f->op == IPU_FOP_ANDC64 ? x & ~y
                           : f->op == IPU_FOP_OR64 ? x | y : ~x;
        R[f->d] = (uint32_t)v;
        R[f->d + 1] = (uint32_t)(v >> 32);
        return 0;
    }
    case IPU_FOP_LD32: case IPU_FOP_LDZ8: case IPU_FOP_LDS8: case IPU_FOP_LDZ16: case IPU_FOP_LDS16:
    case IPU_FOP_LDB16: case IPU_FOP_LD64: case IPU_FOP_ST32: case IPU_FOP_ST64: {
        const uint32_t delta = R[f->b];
        const uint32_t k = f->bimm ? f->imm : R[f->c] << f->shift;
        ea = a + delta + (f->step ? 0 : k);
        off = ea - base;
        const uint32_t n = 1u << f->shift;
        if (off > msize - n || (ea & (n - 1)))
            return 1; /* the generic executor raises */
        uint8_t *p = mem + off;
        switch (f->op) {
        case IPU_FOP_LD32: R[f->d] = mem_ld32le(p); break;
        case IPU_FOP_LDZ8: R[f->d] = p[0]; break;
        case IPU_FOP_LDS8: R[f->d] = (uint32_t)(int32_t)(int8_t)p[0]; break;
        case IPU_FOP_LDZ16: R[f->d] = mem_ld16le(p); break;
        case IPU_FOP_LDS16: R[f->d] = (uint32_t)(int32_t)(int16_t)mem_ld16le(p); break;
        case IPU_FOP_LDB16: { uint32_t h = mem_ld16le(p); R[f->d] = h << 16 | h; break; }
        case IPU_FOP_LD64: { uint64_t v = mem_ld64le(p); R[f->d] = (uint32_t)v; R[f->d + 1] = (uint32_t)(v >> 32); break; }
        case IPU_FOP_ST32: mem_st32le(p, R[f->d]); break;
        default: mem_st64le(p, (uint64_t)R[f->d + 1] << 32 | R[f->d]); break;
        }
        if (f->step)
            R[f->e] = delta + k;
        return 0;
    }
    case IPU_FOP_BR: *npc = a + f->imm2; return 0;
    case IPU_FOP_BRZ: if (a == 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNZ: if (a != 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNEG: if ((int32_t)a < 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRPOS: if ((int32_t)a >= 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNZDEC:
        if (a != 0) {
            R[f->d] = a - 1;
            *npc = f->imm2;
        }
        return 0;
    case IPU_FOP_CALL:
        R[f->d] = pc + len;
        *npc = f->imm2;
        return 0;
    case IPU_FOP_MOVZ: /* movnz: d = b when the gate a != 0 (exec.c) */
        if (a != 0)
            R[f->d] = R[f->b];
        return 0;
    case IPU_FOP_RPT: {
        const uint32_t count = a + f->imm;
        if (count > rmask)
            return 1;
        const uint32_t first = pc + len, end = first + f->imm2;
        c->rpt_first = first;
        c->rpt_end = end;
        if (!count)
            *npc = end;
        else
            c->rpt_count = count;
        return 0;
    }
    default:
        __builtin_unreachable(); /* ipu_frec_build stores only IPU_FOP_* */
    }
    R[f->d] = r;
    return 0;
}

/* A burst from cycle *tp (< lim): returns the bundles issued, *tp the cycle after the last.
 * 0: the worker of *tp's slot is not ready, or its bundle must go the generic way. */
static __attribute__((noinline)) uint64_t burst(sim_unit *u, ipu_tile *tl, uint64_t *tp, uint64_t lim)
{
    const ipu_machine *im = tl->im;
    const uint64_t t0 = *tp;
    uint64_t t = t0;
    const uint64_t tcheck = t0 + IPU_NSLOTS; /* the first turn tests readiness */
    int k = (int)(t % IPU_NSLOTS);
    uint8_t *const mem = tl->mem;
    const uint32_t base = im->mem_base, msize = im->mem_size, rmask = im->repeat_mask;
    uint64_t ninsn[IPU_NSLOTS] = {0};
    ipu_ctx *const w0 = &tl->ctx[IPU_WORKER(0)];
    for (;;) {
        ipu_ctx *const c = w0 + k;
        if (t < tcheck && (c->state != IPU_CS_ACTIVE || c->next > t))
            break;
        const uint32_t pc = c->pc, off = pc - base;
        if ((pc & 3) || off >= msize)
            break;
        ipu_fpage *const p = tl->fp ? tl->fp[off >> (FP_SHIFT + 2)] : NULL;
        const ipu_frec *r = p ? &p->e[(off >> 2) & (FP_WORDS - 1)] : NULL;
        if (__builtin_expect(!r || !frec_valid(r, mem + off), 0))
            if (!(r = frec_miss(tl, off)))
                break;
        if (r->kind != IPU_FR_FAST)
            break;
        const uint32_t len = r->n == 2 ? 8 : 4;
        const int in_rpt = c->rpt_count != 0;
        if (in_rpt && !r->rpt_ok)
            break;
        uint32_t npc = pc + len;
        if (xop(&r->f[0], c, c->r, mem, base, msize, rmask, pc, len, &npc))
            break;
        if (r->n == 2)
            (void)xop(&r->f[1], c, c->r, mem, base, msize, rmask, pc, len, &npc); /* cannot fail (build) */
        if (in_rpt && npc == c->rpt_end && --c->rpt_count)
            npc = c->rpt_first;
        c->pc = npc;
        ninsn[k] += r->n;
        t++;
        if (++k == IPU_NSLOTS)
            k = 0;
        if (t >= lim)
            break;
    }
    if (t == t0)
        return 0;
    /* every cycle of [t0, t) issued: worker j at the cycles of its slot */
    for (int j = 0; j < IPU_NSLOTS; j++) {
        const uint64_t first = t0 + (uint64_t)((j - (int)(t0 % IPU_NSLOTS) + IPU_NSLOTS) % IPU_NSLOTS);
        if (first >= t)
            continue;
        const uint64_t n = (t - 1 - first) / IPU_NSLOTS + 1, last = first + IPU_NSLOTS * (n - 1);
        ipu_ctx *c = w0 + j;
        sim_thread *th = &u->threads[IPU_WORKER(j)];
        /* the reference books t - (previous issue + 1) barrel cycles at every issue, the
         * first of them after a transcendental's extra turns as fpu (barrel.c) */
        const uint64_t wait = last - c->last_issue - n, fpu = c->fpu_hold < wait ? c->fpu_hold : wait;
        th->stalls[IPU_STALL_FPU] += fpu;
        th->stalls[IPU_STALL_BARREL] += wait - fpu;
        c->fpu_hold = 0;
        th->issue_cycles += n;
        th->instructions += ninsn[j];
        c->last_issue = last;
        c->next = last + IPU_NSLOTS;
    }
    u->last_issue = t - 1;
    *tp = t;
    return t - t0;
}

uint64_t ipu_run_fast(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    ipu_tile *tl = ipu_t(u);
    uint64_t t = now, ret;
    uint64_t poll = t + IPU_POLL_CYCLES;
    while (t < horizon) {
        if (t >= poll) {
            if (sim_stopped(m)) {
                ipu_sync_threads(u, tl);
                return t;
            }
            poll = t + IPU_POLL_CYCLES;
        }
        if (burst(u, tl, &t, horizon < poll ? horizon : poll))
            continue;
        if (ipu_barrel_step(m, u, tl, &t, &ret))
            return ret;
    }
    ipu_sync_threads(u, tl);
    return t;
}
