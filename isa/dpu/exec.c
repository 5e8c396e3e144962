/* isa/dpu/exec.c: DPU instruction semantics and the reference revolver run loop. Each
 * predecoded record (predecode.c) executes for one tasklet: ALU result, Zero/Carry flags,
 * condition (set forms write it as 0/1, branch forms jump), loads/stores on WRAM, DMA on
 * the DPU's engine (data lands when the transfer is done), atomic bits, tasklet control
 * (boot/resume/stop) and the performance counter. The forms the fast loops run inline
 * (in->fast) execute here from the same text as there (fastops.inc, whose results come
 * from cond.h's DPU_SEM_*, as do this file's own cases for the same operations), so the
 * reference loop and the fast ones cannot drift; what they hand over (DMA, faults,
 * watched accesses, every other form) is this file's alone. dpu_run issues one instruction
 * per cycle from the tasklets whose 11-cycle slot has come. Condition meanings follow
 * uPIMulator's Set*Cc rules (reference §1.7), with comparisons read from the subtraction
 * flags (docs/isa/dpu.md). */
#include <stdlib.h>
#include <string.h>
#include "dpu.h"
#include "cond.h"
#include "../../core/sched.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

void dpu_reset_regs(dpu_tasklet *t, int tid)
{
    static const uint32_t k[4] = {0, 1, 0xffffffffu, 0x80000000u};
    memset(t->r, 0, 24 * sizeof t->r[0]);
    for (int i = 0; i < 4; i++)
        t->r[24 + i] = k[i];
    for (int i = 0; i < 4; i++)
        t->r[28 + i] = (uint32_t)tid << i; /* id, id2, id4, id8 */
}


static uint32_t shl(uint32_t v, uint32_t s) { return s >= 32 ? 0 : v << s; }
static uint32_t shr(uint32_t v, uint32_t s) { return s >= 32 ? 0 : v >> s; }
static uint32_t rol32(uint32_t v, uint32_t s) { s &= 31; return s ? (v << s) | (v >> (32 - s)) : v; }
static uint32_t ror32(uint32_t v, uint32_t s) { s &= 31; return s ? (v >> s) | (v << (32 - s)) : v; }

static int32_t mul_byte(uint32_t v, int high, int sgn)
{
    uint32_t b = (v >> (high ? 8 : 0)) & 0xff;
    return sgn ? (int32_t)(int8_t)b : (int32_t)b;
}

static int fault(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint32_t code, const char *what, uint32_t addr)
{
    d->faulted = 1;
    d->fault_code = code;
    d->t[tid].wait = DPU_W_STOPPED;
    /* the tasklet's own issue cycle: the unit's last_issue is only synced at burst ends */
    sim_set_stop_at(m, SIM_STOP_FAULT, u->index, tid, d->t[tid].pc, d->t[tid].last_issue,
                    "dpu%d tasklet %d: %s (address 0x%x) at pc %u", u->index, tid, what, addr, d->t[tid].pc);
    return 1;
}

static __attribute__((noinline)) int wram_slow(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint32_t addr,
                                                unsigned n, unsigned kind)
{
    if ((uint64_t)addr + n > d->dm->wram_size)
        return fault(m, u, d, tid, 0, "WRAM access out of range", addr);
    if (addr & (n - 1))
        return fault(m, u, d, tid, 0, "misaligned WRAM access", addr);
    if (d->wram->nwatch && mem_watch_check(d->wram, addr, n, kind))
        sim_set_stop_at(m, SIM_STOP_WATCH, u->index, tid, d->t[tid].pc, d->t[tid].last_issue,
                        "watchpoint %d at wram 0x%x", d->wram->watch_hit_id, addr);
    return 0;
}

static inline int wram_check(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint32_t addr, unsigned n, unsigned kind)
{
    if ((uint64_t)addr + n <= d->dm->wram_size && !(addr & (n - 1)) && !d->wram->nwatch)
        return 0;
    return wram_slow(m, u, d, tid, addr, n, kind);
}

static inline uint64_t ld_mem(const uint8_t *p, unsigned n, int big)
{
    if (!big) {
        switch (n) {
        case 1: return p[0];
        case 2: return mem_ld16le(p);
        case 4: return mem_ld32le(p);
        default: return mem_ld64le(p);
        }
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
    return v;
}
static inline void st_mem(uint8_t *p, unsigned n, int big, uint64_t v)
{
    if (!big) {
        switch (n) {
        case 1: p[0] = (uint8_t)v; return;
        case 2: mem_st16le(p, (uint16_t)v); return;
        case 4: mem_st32le(p, (uint32_t)v); return;
        default: mem_st64le(p, v); return;
        }
    }
    for (unsigned i = 0; i < n; i++)
        p[big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t unit_insns(const sim_unit *u)
{
    uint64_t n = 0;
    for (int i = 0; i < u->nthreads; i++)
        n += u->threads[i].instructions;
    return n;
}

static uint64_t counter_now(const sim_unit *u, const dpu_unit *d, uint64_t now)
{
    if (d->time_mode == 2)
        return unit_insns(u) - d->time_base;
    if (d->time_mode == 3)
        return d->time_base;
    return now - d->time_base;
}

static inline uint64_t seg_stall(const dpu_tasklet *tk, const sim_thread *th)
{
    return (tk->last_issue - tk->seg_start) - (th->instructions - tk->seg_insns) - (tk->shift_sum - tk->seg_shift);
}

/* End a tasklet's running stretch (stop, halt): bank its revolver stalls. */
static inline void seg_close(dpu_tasklet *tk, const sim_thread *th)
{
    if (tk->seg_open) {
        tk->rev_acc += seg_stall(tk, th);
        tk->seg_open = 0;
    }
}

/* Start tasklet k (boot: at PC 0; resume: where it stopped). Returns its previous RUN bit. */
static uint32_t start_tasklet(sim_unit *u, dpu_unit *d, int k, int boot, uint64_t now)
{
    if (k < 0 || k >= d->ntasklets)
        return 1;
    uint32_t was = (d->run >> k) & 1;
    if (was)
        return 1;
    d->run |= 1u << k;
    dpu_tasklet *t = &d->t[k];
    if (boot) {
        t->pc = 0;
        dpu_reset_regs(t, k);
        t->zf = t->cf = 0;
    }
    t->wait = DPU_W_NONE;
    /* a new running stretch: the stopped time is no stall */
    t->last_issue = t->seg_start = now;
    t->seg_insns = u->threads[k].instructions;
    t->seg_shift = t->shift_sum;
    t->seg_open = 1;
    sim_thread *th = &u->threads[k];
    th->state = SIM_T_READY;
    th->started = 1;
    th->ready_at = now + 1;
    return 0;
}

/* Move the data of a finished transfer. A watchpoint on the bytes it writes stops the run
 * at the cycle the data lands, naming the DMA and the tasklet that issued it (the engine,
 * not an instruction, writes: the debugger and the GDB stub must still see it). */
static void dma_land(sim_machine *m, sim_unit *u, dpu_unit *d, const dpu_dma_rec *r)
{
    mem_space *dst;
    uint32_t at;
    if (r->dir == 2) {
        uint32_t first = r->wram >> 3;
        memcpy(d->iram_p + 8 * (size_t)first, d->mram_p + r->mram, r->bytes);
        dpu_iram_sync(d);
        dst = d->iram_space, at = r->wram;
    } else if (r->dir == 0) {
        memcpy(d->wram_p + r->wram, d->mram_p + r->mram, r->bytes);
        dst = d->wram, at = r->wram;
    } else {
        memcpy(d->mram_p + r->mram, d->wram_p + r->wram, r->bytes);
        dst = d->mram, at = r->mram;
    }
    if (dst && dst->nwatch && mem_watch_check(dst, at, r->bytes, MEM_W)) {
        sim_set_stop_at(m, SIM_STOP_WATCH, u->index, r->tasklet, d->t[r->tasklet].pc, r->done,
                        "watchpoint %d: DMA write of %s:0x%llx (%u bytes at 0x%x) by tasklet %d's %s issued at cycle %llu",
                        dst->watch_hit_id, dst->name, (unsigned long long)dst->watch_hit_addr, r->bytes, at, r->tasklet,
                        r->dir == 0 ? "ldma" : r->dir == 1 ? "sdma" : "ldmai", (unsigned long long)r->issue);
        dst->watch_hit_id = 0; /* reported here: the next instruction did not make this write */
    }
}

void dpu_iram_sync(dpu_unit *d)
{
    dpu_machine *dm = d->dm;
    size_t nb = 8 * (size_t)dm->iram_words;
    const uint8_t *ref = d->iram_own ? d->iram_seen : dm->shared_raw;
    if (ref && !memcmp(ref, d->iram_p, nb))
        return;
    if (!d->iram_own) {
        /* this DPU's program now differs from the shared one: give it its own copy, a
         * record for every 16-bit pc as the shared one has (fast.c fetches without a
         * clamp; past the guard the records are zero, their pages never touched) */
        dpu_insn *own = calloc(DPU_IRAM_RECS, sizeof *own);
        uint8_t *seen = malloc(nb);
        if (!own || !seen) {
            free(own);
            free(seen);
            return;
        }
        memcpy(own, dm->shared_iram, sizeof *own * ((size_t)dm->iram_words + 1));
        memcpy(seen, dm->shared_raw, nb);
        d->iram = own;
        d->iram_seen = seen;
        d->iram_own = 1;
        d->iram_full = 1;
    }
    for (uint32_t k = 0; k < dm->iram_words; k++) {
        const uint8_t *p = d->iram_p + 8 * (size_t)k;
        if (memcmp(p, d->iram_seen + 8 * (size_t)k, 8))
            dpu_predecode(mem_ld64le(p), &d->iram[k]);
    }
    memcpy(d->iram_seen, d->iram_p, nb);
}

/* Land every transfer done by cycle t (all of them with t == SIM_NEVER). */
void dpu_dma_complete(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t t)
{
    while (d->pend_n && d->pend[d->pend_head].done <= t) {
        dma_land(m, u, d, &d->pend[d->pend_head]);
        d->pend_head = d->pend_head + 1 == DPU_NTHREADS_MAX ? 0 : d->pend_head + 1;
        d->pend_n--;
    }
    d->pend_next = d->pend_n ? d->pend[d->pend_head].done : SIM_NEVER;
}

void dpu_dma_start(sim_unit *u, dpu_unit *d, int tid, int dir, uint32_t wram, uint32_t mram, uint32_t bytes,
                   uint64_t now)
{
    const dpu_machine *dm = d->dm;
    /* (every transfer is 8 to 2,048 bytes in steps of 8: the table has them) */
    const uint64_t lat = bytes - 8 < 2048 && !(bytes & 7) ? dm->dma_lat[dir == 1][(bytes >> 3) - 1]
                                                          : dpu_dma_cycles(dm, dir, bytes);
    const uint64_t start = now > d->dma_free ? now : d->dma_free;
    const uint64_t done = start + lat;
    d->dma_free = done;
    /* one transfer per tasklet at most: the issuer waits for it */
    const unsigned at = d->pend_head + d->pend_n;
    dpu_dma_rec *const r = &d->pend[at >= DPU_NTHREADS_MAX ? at - DPU_NTHREADS_MAX : at];
    *r = (dpu_dma_rec){now, start, done, wram, mram, bytes, (uint8_t)tid, (uint8_t)dir};
    d->dma_log[d->dma_nlog++ % DPU_DMA_LOG] = *r;
    if (!d->pend_n++)
        d->pend_next = done;
    if (u->ncounters >= DPU_CNT_DMA_N)
        u->counters[dir == 1 ? DPU_CNT_DMA_WR : DPU_CNT_DMA_RD].value += bytes;
    dpu_tasklet *t = &d->t[tid];
    t->wait = DPU_W_DMA;
    t->dma_until = done;
    /* the tasklet leaves the pipeline until its transfer is done; the data lands then */
    uint64_t ready = done > now + 11 ? done : now + 11;
    /* the wait beyond the revolver slot is a DMA stall; moving last_issue keeps it out of
     * the revolver stall the next issue accounts */
    u->threads[tid].stalls[DPU_STALL_DMA] += ready - (now + 11);
    t->shift_sum += ready - (now + 11);
    u->threads[tid].ready_at = ready;
}

static __attribute__((noinline)) int illegal(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint32_t pc)
{
    char what[96];
    if (pc >= d->dm->iram_words) /* a jump or fall-through past IRAM: no word to show */
        snprintf(what, sizeof what, "pc past the end of IRAM (%u instructions)", d->dm->iram_words);
    else
        snprintf(what, sizeof what, "illegal instruction %012llx", (unsigned long long)mem_ld64le(d->iram_p + 8 * pc));
    d->faulted = 1;
    d->t[tid].wait = DPU_W_STOPPED;
    sim_set_stop_at(m, SIM_STOP_ILLEGAL, u->index, tid, pc, d->t[tid].last_issue, "dpu%d tasklet %d: %s at pc %u",
                    u->index, tid, what, pc);
    return 1;
}

static inline __attribute__((always_inline)) int execute_at(sim_machine *m, sim_unit *u, dpu_unit *d, int tid,
                                                             uint64_t now, const dpu_insn *iram, uint32_t nwords)
{
    dpu_tasklet *t = &d->t[tid];
    uint32_t pc = t->pc;
    const dpu_insn *in = &iram[pc < nwords ? pc : nwords];
    if (in->fast != DPU_FAST_NONE) {
        /* the forms every loop runs inline: the one text of their semantics (fastops.inc,
         * also fast.c's and func.c's); what it cannot do (a DMA, an access that faults or
         * may touch a watched byte: nothing written yet) goes on below */
        dpu_tasklet *const tk = t;
        uint32_t *const R = t->r;
        const uint32_t fa = R[in->ra];
        const uint32_t fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        uint8_t *const wram = d->wram_p;
        const uint64_t wlim = d->dm->wram_size;
        const struct { dpu_unit *d; } cd = {d}, *const c = &cd; /* fastops.inc reads c->d */
        uint32_t res, npc = pc + 1;
        int carry, take;
#define WATCHED(addr, n) (d->wram->nwatch != 0) /* the generic path checks them */
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA:
        case DPU_FAST_NONE:
            goto generic;
        default:
            __builtin_unreachable(); /* predecode.c stores only DPU_FAST_* values */
        }
#undef WATCHED
        u->threads[tid].instructions++;
        t->pc = (uint16_t)npc;
        return 0;
    }
generic:
    if (__builtin_expect(in->illegal, 0))
        return illegal(m, u, d, tid, pc);
    uint32_t a = t->r[in->ra];
    uint32_t b = in->bimm ? (uint32_t)in->imm : t->r[in->rb];
    if (in->kind == 1) { /* imm - ra */
        uint32_t x = a;
        a = (uint32_t)in->imm;
        b = x;
    }
    uint32_t ca = a, cb = b; /* the operands the conditions compare */
    int ov = 0;
    uint32_t res = 0;
    int flags = 1, carry = 0;
    uint64_t r64 = 0;
    int wr64 = 0;
    uint32_t npc = pc + 1;
    int jump_abs = -1;

    switch (in->op) {
    case DPU_OP_ADD: case DPU_OP_ADDS:
        DPU_SEM_ADD(res, carry, a, b, 0);
        ov = DPU_SEM_ADD_OV(a, b, res);
        break;
    case DPU_OP_ADDC:
        DPU_SEM_ADDC(res, carry, a, b, t->cf);
        ov = DPU_SEM_ADD_OV(a, b, res);
        break;
    case DPU_OP_SUB: case DPU_OP_SUBS: case DPU_OP_RSUB: case DPU_OP_SUBC: case DPU_OP_RSUBC: {
        if (in->op == DPU_OP_RSUB || in->op == DPU_OP_RSUBC) {
            uint32_t x = a; a = b; b = x;
            ca = a; cb = b;
        }
        /* carry = borrow, as uPIMulator: subc subtracts it again */
        DPU_SEM_SUBC(res, carry, a, b, (in->op == DPU_OP_SUBC || in->op == DPU_OP_RSUBC) ? t->cf : 0u);
        ov = DPU_SEM_SUB_OV(a, b, res);
        break;
    }
    case DPU_OP_AND: DPU_SEM_AND(res, carry, a, b, 0); break;
    case DPU_OP_ANDN: res = ~a & b; break;
    case DPU_OP_OR: DPU_SEM_OR(res, carry, a, b, 0); break;
    case DPU_OP_ORN: res = ~a | b; break;
    case DPU_OP_NAND: res = ~(a & b); break;
    case DPU_OP_NOR: res = ~(a | b); break;
    case DPU_OP_XOR: DPU_SEM_XOR(res, carry, a, b, 0); break;
    case DPU_OP_NXOR: res = ~(a ^ b); break;
    case DPU_OP_HASH: {
        /* not documented publicly: a 32-bit mix of both operands (docs/isa/dpu.md) */
        uint32_t h = (a ^ b) * 0x9e3779b1u;
        res = h ^ (h >> 16);
        break;
    }
    /* shift amounts are the low 5 bits (uPIMulator); bit 5 only feeds the sh32/nsh32
     * conditions, which the runtime's 64-bit shifts test to pick the other word */
    case DPU_OP_LSL: DPU_SEM_LSL(res, carry, a, b, 0); break;
    case DPU_OP_LSR: DPU_SEM_LSR(res, carry, a, b, 0); break;
    case DPU_OP_ASR: DPU_SEM_ASR(res, carry, a, b, 0); break;
    case DPU_OP_ROL: res = rol32(a, b); break;
    case DPU_OP_ROR: res = ror32(a, b); break;
    case DPU_OP_LSL1: res = (a << (b & 31)) | ((1u << (b & 31)) - 1); break;
    case DPU_OP_LSR1: res = (a >> (b & 31)) | ((b & 31) ? ~(~0u >> (b & 31)) : 0); break;
    case DPU_OP_LSLX: res = (b & 31) ? a >> (32 - (b & 31)) : 0; break;
    case DPU_OP_LSRX: res = (b & 31) ? a << (32 - (b & 31)) : 0; break;
    case DPU_OP_LSL1X: res = (b & 31) ? a >> (32 - (b & 31)) : 0; break;
    case DPU_OP_LSR1X: res = (b & 31) ? a << (32 - (b & 31)) : 0; break;
    case DPU_OP_LSL_ADD: case DPU_OP_LSR_ADD: case DPU_OP_ROL_ADD: case DPU_OP_LSL_SUB: {
        /* "lsl_add rc, rb, ra, shift": rc = rb + (ra << shift); the ra field is the one shifted */
        uint32_t s = in->shift;
        uint32_t sh = a;
        a = in->rb < 24 ? t->r[in->rb] : 0;
        ca = a;
        uint32_t x = in->op == DPU_OP_LSR_ADD ? shr(sh, s) : in->op == DPU_OP_ROL_ADD ? rol32(sh, s) : shl(sh, s);
        uint64_t sum = in->op == DPU_OP_LSL_SUB ? (uint64_t)a - x : (uint64_t)a + x;
        res = (uint32_t)sum;
        carry = in->op == DPU_OP_LSL_SUB ? x > a : (int)(sum >> 32);
        cb = x;
        break;
    }
    case DPU_OP_MUL_SH_SH: res = (uint32_t)(mul_byte(a, 1, 1) * mul_byte(b, 1, 1)); break;
    case DPU_OP_MUL_SH_SL: res = (uint32_t)(mul_byte(a, 1, 1) * mul_byte(b, 0, 1)); break;
    case DPU_OP_MUL_SH_UH: res = (uint32_t)(mul_byte(a, 1, 1) * mul_byte(b, 1, 0)); break;
    case DPU_OP_MUL_SH_UL: res = (uint32_t)(mul_byte(a, 1, 1) * mul_byte(b, 0, 0)); break;
    case DPU_OP_MUL_SL_SH: res = (uint32_t)(mul_byte(a, 0, 1) * mul_byte(b, 1, 1)); break;
    case DPU_OP_MUL_SL_SL: res = (uint32_t)(mul_byte(a, 0, 1) * mul_byte(b, 0, 1)); break;
    case DPU_OP_MUL_SL_UH: res = (uint32_t)(mul_byte(a, 0, 1) * mul_byte(b, 1, 0)); break;
    case DPU_OP_MUL_SL_UL: res = (uint32_t)(mul_byte(a, 0, 1) * mul_byte(b, 0, 0)); break;
    case DPU_OP_MUL_UH_UH: res = (uint32_t)(mul_byte(a, 1, 0) * mul_byte(b, 1, 0)); break;
    case DPU_OP_MUL_UH_UL: res = (uint32_t)(mul_byte(a, 1, 0) * mul_byte(b, 0, 0)); break;
    case DPU_OP_MUL_UL_UH: res = (uint32_t)(mul_byte(a, 0, 0) * mul_byte(b, 1, 0)); break;
    case DPU_OP_MUL_UL_UL: res = (uint32_t)(mul_byte(a, 0, 0) * mul_byte(b, 0, 0)); break;
    case DPU_OP_MUL_STEP: case DPU_OP_DIV_STEP: {
        /* dc = db: cond.h's DPU_SEM_MUL_STEP / DPU_SEM_DIV_STEP */
        uint32_t hi, lo;
        if (in->op == DPU_OP_MUL_STEP)
            DPU_SEM_MUL_STEP(hi, lo, res, t->r[in->rb], t->r[in->rb + 1], shl(a, in->shift), t->r[in->rc + 1]);
        else
            DPU_SEM_DIV_STEP(hi, lo, res, t->r[in->rb], t->r[in->rb + 1], shl(a, in->shift), t->r[in->rc + 1]);
        r64 = (uint64_t)hi << 32 | lo;
        wr64 = 1;
        break;
    }
    case DPU_OP_CLZ: res = DPU_SEM_CLZ(a); break;
    case DPU_OP_CLO: res = DPU_SEM_CLO(a); break;
    case DPU_OP_CLS: { uint32_t x = (a >> 31) ? ~a : a; res = x ? (uint32_t)__builtin_clz(x) : 32; break; }
    case DPU_OP_CAO: res = (uint32_t)__builtin_popcount(a); break;
    case DPU_OP_EXTSB: res = (uint32_t)(int32_t)(int8_t)a; break;
    case DPU_OP_EXTSH: res = (uint32_t)(int32_t)(int16_t)a; break;
    case DPU_OP_EXTUB: res = a & 0xff; break;
    case DPU_OP_EXTUH: res = a & 0xffff; break;
    case DPU_OP_SATS:
        /* saturate the 64-bit value {sign of ra, ra}... read as: clamp a signed 32-bit value; the
         * instruction is undocumented publicly, so it is modelled as identity plus flags */
        res = a;
        break;
    case DPU_OP_CMPB4:
        res = 0;
        for (int k = 0; k < 4; k++)
            if (((a >> (8 * k)) & 0xff) == ((b >> (8 * k)) & 0xff))
                res |= 1u << (8 * k);
        break;
    case DPU_OP_MOVD: r64 = (uint64_t)t->r[in->rb] << 32 | t->r[in->rb + 1]; wr64 = 1; res = t->r[in->rb + 1]; break;
    case DPU_OP_SWAPD: r64 = (uint64_t)t->r[in->rb + 1] << 32 | t->r[in->rb]; wr64 = 1; res = t->r[in->rb]; break;
    case DPU_OP_CALL:
        res = pc + 1;
        jump_abs = (int)((a + (uint32_t)in->off) & 0xffff);
        flags = 0;
        break;
    case DPU_OP_LBS: case DPU_OP_LBU: case DPU_OP_LHS: case DPU_OP_LHU: case DPU_OP_LW: case DPU_OP_LD:
    case DPU_OP_LBSS: case DPU_OP_LBUS: case DPU_OP_LHSS: case DPU_OP_LHUS: case DPU_OP_LWS: case DPU_OP_LDS: {
        uint32_t addr = a + (uint32_t)in->off;
        unsigned n = in->msize;
        if (wram_check(m, u, d, tid, addr, n, MEM_R))
            return 1;
        uint64_t v = ld_mem(d->wram_p + addr, n, in->endian);
        if (n == 8) { r64 = v; wr64 = 1; }
        else if (in->op == DPU_OP_LBS || in->op == DPU_OP_LBSS) res = (uint32_t)(int32_t)(int8_t)v;
        else if (in->op == DPU_OP_LHS || in->op == DPU_OP_LHSS) res = (uint32_t)(int32_t)(int16_t)v;
        else res = (uint32_t)v;
        flags = 0;
        break;
    }
    case DPU_OP_SB: case DPU_OP_SH: case DPU_OP_SW: case DPU_OP_SD: case DPU_OP_SBS: case DPU_OP_SHS:
    case DPU_OP_SWS: case DPU_OP_SDS: case DPU_OP_SB_ID: case DPU_OP_SH_ID: case DPU_OP_SW_ID: case DPU_OP_SD_ID: {
        uint32_t addr = a + (uint32_t)in->off;
        unsigned n = in->msize;
        if (wram_check(m, u, d, tid, addr, n, MEM_W))
            return 1;
        uint64_t v;
        int id = in->op == DPU_OP_SB_ID || in->op == DPU_OP_SH_ID || in->op == DPU_OP_SW_ID || in->op == DPU_OP_SD_ID;
        if (id)
            v = (uint64_t)(int64_t)(int32_t)((uint32_t)tid | (uint32_t)in->imm);
        else if (in->bimm)
            v = (uint64_t)(int64_t)in->imm;
        else if (n == 8)
            v = (uint64_t)t->r[in->rb] << 32 | t->r[in->rb + 1];
        else
            v = t->r[in->rb];
        st_mem(d->wram_p + addr, n, in->endian, v);
        flags = 0;
        break;
    }
    case DPU_OP_LDMA: case DPU_OP_LDMAI: case DPU_OP_SDMA: case DPU_OP_LDMA_DBG: case DPU_OP_SDMA_DBG: {
        uint32_t bytes = (1 + (((uint32_t)in->imm + (a >> 24)) & 0xff)) * 8;
        uint32_t w = a & 0x00fffff8u;
        uint32_t mr = b & d->mram_mask & ~7u;
        int dir = (in->op == DPU_OP_SDMA || in->op == DPU_OP_SDMA_DBG) ? 1 : in->op == DPU_OP_LDMAI ? 2 : 0;
        if ((uint64_t)mr + bytes > d->dm->mram_size)
            return fault(m, u, d, tid, 0, "DMA beyond MRAM", mr);
        if (dir == 2) {
            uint32_t first = w >> 3; /* IRAM instruction index from the WRAM-address operand */
            if ((uint64_t)first + bytes / 8 > d->dm->iram_words)
                return fault(m, u, d, tid, 0, "ldmai beyond IRAM", w);
        } else if ((uint64_t)w + bytes > d->dm->wram_size)
            return fault(m, u, d, tid, 0, "DMA beyond WRAM", w);
        t->pc = (uint16_t)npc;
        u->threads[tid].instructions++;
        dpu_dma_start(u, d, tid, dir, w, mr, bytes, now);
        return 1;
    }
    case DPU_OP_ACQUIRE: case DPU_OP_RELEASE: {
        uint32_t bit = DPU_SEM_ATOMIC_BIT(a, in->imm);
        res = d->atomic[bit];
        d->atomic[bit] = in->op == DPU_OP_ACQUIRE;
        flags = 0;
        break;
    }
    case DPU_OP_BOOT: case DPU_OP_RESUME:
        res = start_tasklet(u, d, (int)((a + (uint32_t)in->imm) & 0xff), in->op == DPU_OP_BOOT, now);
        flags = 0;
        break;
    case DPU_OP_CLR_RUN: {
        /* a tasklet whose RUN bit is clear does not issue: it stops where it is (a later
         * resume continues it) */
        uint32_t k = (a + (uint32_t)in->imm) & 0xff;
        res = k < 32 ? (d->run >> k) & 1 : 0;
        if (res && (int)k != tid) {
            d->run &= ~(1u << k);
            d->t[k].wait = DPU_W_STOPPED;
            seg_close(&d->t[k], &u->threads[k]);
            u->threads[k].state = SIM_T_SLEEP;
            u->threads[k].ready_at = SIM_NEVER;
        } else if (res) {
            /* its own bit: it stops after this instruction */
            d->run &= ~(1u << k);
            t->pc = (uint16_t)npc;
            u->threads[tid].instructions++;
            t->wait = DPU_W_STOPPED;
            t->last_issue = now;
            seg_close(t, &u->threads[tid]);
            u->threads[tid].state = SIM_T_SLEEP;
            u->threads[tid].ready_at = SIM_NEVER;
            return 1;
        }
        flags = 0;
        break;
    }
    case DPU_OP_READ_RUN: {
        uint32_t k = (a + (uint32_t)in->imm) & 0xff;
        res = k < 32 ? (d->run >> k) & 1 : 0;
        flags = 0;
        break;
    }
    case DPU_OP_STOP: {
        cc_in c = {0, ca, cb, 0, 0, t->zf, cb & 63};
        int go = in->cond == DPU_C_NONE || cond_true(in->cond, &c);
        t->pc = (uint16_t)(go && in->cond != DPU_C_NONE ? in->pc : npc);
        u->threads[tid].instructions++;
        d->run &= ~(1u << tid);
        t->wait = DPU_W_STOPPED;
        t->last_issue = now;
        seg_close(t, &u->threads[tid]);
        u->threads[tid].state = SIM_T_SLEEP;
        u->threads[tid].ready_at = SIM_NEVER;
        return 1;
    }
    case DPU_OP_FAULT: case DPU_OP_BKP: {
        static const char *const names[] = {"", "heap full", "division by zero", "assert", "halt/trap",
                                            "printf overflow", "profiling", "profiling"};
        uint32_t code = (uint32_t)in->imm;
        char what[80];
        snprintf(what, sizeof what, "fault %u%s%s", code, code < 8 && code ? ": " : (code ? "" : " (bkp)"),
                 code < 8 ? names[code] : "");
        u->threads[tid].instructions++;
        return fault(m, u, d, tid, code ? code : 0xffffffffu, what, 0);
    }
    case DPU_OP_NOP: flags = 0; break;
    case DPU_OP_TELL:
        /* the fast-forward magic marker (docs/isa/dpu.md): with a fast-forward to it armed
         * the run stops after it (the callers check sim_stopped on a return of 1) */
        if (sim_marker(m, u->index, tid, pc)) {
            t->pc = (uint16_t)npc;
            u->threads[tid].instructions++;
            return 1;
        }
        flags = 0;
        break;
    case DPU_OP_TIME: res = (uint32_t)(counter_now(u, d, now) >> 4); flags = 0; break;
    case DPU_OP_TIME_CFG: {
        res = (uint32_t)(counter_now(u, d, now) >> 4);
        uint32_t cfg = in->rb < 24 ? t->r[in->rb] : 0;
        int mode = (int)((cfg >> 1) & 3);
        if (mode) d->time_mode = mode;
        if (cfg & 1) d->time_base = d->time_mode == 2 ? unit_insns(u) : d->time_mode == 3 ? 0 : now;
        flags = 0;
        break;
    }
    default:
        res = 0;
        break;
    }
    u->threads[tid].instructions++;
    if (__builtin_expect(in->cond == DPU_C_NONE && in->dk == DPU_D_R && jump_abs < 0, 1)) {
        /* the common case: a 32-bit result, no condition */
        t->r[in->rc] = res;
        if (flags) {
            t->zf = res == 0;
            t->cf = (uint8_t)carry;
        }
        t->pc = (uint16_t)npc;
        return 0;
    }
    int take = 0;
    if (in->cond != DPU_C_NONE) {
        cc_in c = {res, ca, cb, carry, ov, t->zf, cb & 63};
        take = cond_true(in->cond, &c);
    }
    switch (in->dk) {
    case DPU_D_R:
        t->r[in->rc] = in->setf ? (uint32_t)take : res;
        break;
    case DPU_D_DS: {
        uint32_t v = in->setf ? (uint32_t)take : res;
        t->r[in->rc + 1] = v;
        t->r[in->rc] = (uint32_t)((int32_t)v >> 31);
        break;
    }
    case DPU_D_DU:
        t->r[in->rc + 1] = in->setf ? (uint32_t)take : res;
        t->r[in->rc] = 0;
        break;
    case DPU_D_D64:
        if (wr64) {
            t->r[in->rc] = (uint32_t)(r64 >> 32);
            t->r[in->rc + 1] = (uint32_t)r64;
        } else {
            t->r[in->rc + 1] = res;
            t->r[in->rc] = 0;
        }
        break;
    default:
        break;
    }
    if (flags) {
        t->zf = res == 0;
        t->cf = (uint8_t)carry;
    }
    if (jump_abs >= 0)
        npc = (uint32_t)jump_abs;
    else if (take && !in->setf)
        npc = in->pc;
    t->pc = (uint16_t)npc;
    return 0;
}

int dpu_execute(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint64_t now)
{
    return execute_at(m, u, d, tid, now, d->iram, d->dm->iram_words);
}

void dpu_sync_stats(sim_unit *u, uint64_t last, int rr)
{
    dpu_unit *d = u->isa;
    u->rr = rr;
    for (int i = 0; i < u->nthreads; i++) {
        sim_thread *th = &u->threads[i];
        const dpu_tasklet *tk = &d->t[i];
        th->issue_cycles = th->instructions; /* one issue cycle each */
        th->stalls[DPU_STALL_REVOLVER] = tk->rev_acc + (tk->seg_open ? seg_stall(tk, th) : 0);
    }
    if (last != SIM_NEVER)
        u->last_issue = last;
}

/* Every tasklet has stopped. With the SDK runtime a tasklet that finished stops at
 * __sys_end; one stopped anywhere else (a barrier, a mutex wait, a handshake) was waiting
 * for another tasklet to resume it, and none is left: the run did not end cleanly even
 * though the DPU is idle, as on hardware where the host would read half-done results. */
static void check_parked(sim_machine *m, sim_unit *u, const dpu_unit *d)
{
    const dpu_machine *dm = d->dm;
    int first = -1, n = 0;
    if (dm->exit_pc < 0)
        return;
    for (int k = 0; k < u->nthreads; k++)
        if (u->threads[k].instructions && u->threads[k].state != SIM_T_DISABLED && d->t[k].pc != dm->exit_pc) {
            if (first < 0)
                first = k;
            n++;
        }
    if (!n)
        return;
    char hint[160] = "";
    if (dm->built_tasklets > d->ntasklets)
        snprintf(hint, sizeof hint, "; the program was built for %d tasklets (NR_TASKLETS) and runs with %d",
                 dm->built_tasklets, d->ntasklets);
    sim_set_stop(m, SIM_STOP_DEADLOCK, u->index, first, d->t[first].pc,
                 "%s: %d tasklet(s) stopped outside the exit path (__sys_end), first tasklet %d at pc %u, "
                 "and no tasklet is left to resume them%s",
                 u->name, n, first, d->t[first].pc, hint);
}

void dpu_halt_unit(sim_machine *m, sim_unit *u, uint64_t t)
{
    check_parked(m, u, u->isa);
    sim_unit_halt(m, u, t);
    for (int k = 0; k < u->nthreads; k++)
        if (u->threads[k].state != SIM_T_HALTED && u->threads[k].state != SIM_T_DISABLED) {
            u->threads[k].state = SIM_T_HALTED;
            u->threads[k].halted_at = t;
            u->threads[k].ready_at = SIM_NEVER;
        }
}

/* The reference revolver, used while the debugger or the instruction limit is on: each
 * cycle, the next tasklet in round-robin order whose 11-cycle slot has come issues (R1:
 * ready_at = issue + 11; R2: one issue per cycle) as core/sched.h's sched_pick chooses it,
 * every instruction through the generic executor, the debugger hooks around each; idle
 * stretches are skipped. dpu_run_fast (fast.c) must issue in exactly the same order with
 * the same results; tests/dpu/test_fastpath.c compares the two. The optional bank penalty
 * (off by default) also runs here. */
static uint64_t run_ref(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon)
{
    uint64_t t = now, last = SIM_NEVER;
    sim_thread *th = u->threads;
    const int n = u->nthreads;
    const dpu_insn *iram = d->iram;
    const uint32_t nwords = d->dm->iram_words;
    const int bank = d->dm->bank_penalty;
    /* --profile with the hooks off (isa_ops.profile_fast: the bank penalty or an instruction
     * limit brought this loop): fed here, at each issue, with the counters as derived above */
    prof_state *const prof = dbg_profile(m);
    if (d->faulted)
        return SIM_NEVER;
    while (t < horizon) {
        if (t >= d->pend_next) {
            dpu_dma_complete(m, u, d, t);
            iram = d->iram; /* ldmai may have given this DPU its own IRAM */
            if (sim_stopped(m)) { /* a watchpoint on the DMA's bytes */
                dpu_sync_stats(u, last, u->rr);
                return t;
            }
        }
        int tid = sched_pick(u, t);
        if (tid < 0) {
            uint64_t nx = SIM_NEVER;
            for (int k = 0; k < n; k++)
                if (th[k].state == SIM_T_READY && th[k].ready_at < nx)
                    nx = th[k].ready_at;
            if (nx == SIM_NEVER) {
                dpu_sync_stats(u, last, u->rr);
                if (!d->run)
                    dpu_halt_unit(m, u, t);
                return SIM_NEVER;
            }
            if (nx >= horizon) {
                dpu_sync_stats(u, last, u->rr);
                return nx;
            }
            t = nx;
            continue;
        }
        dpu_tasklet *tk = &d->t[tid];
        uint16_t pc = tk->pc;
        if (m->slow) {
            u->last_issue = t; /* the hooks (trace, history, stops) read the instruction's cycle */
            /* The revolver stall counters are otherwise brought up to date only when a burst
             * ends (dpu_sync_stats); the hooks (the profile's and the timeline's stalls) read
             * the issuing tasklet's per instruction: here, before this instruction's bank
             * penalty and DMA wait shift its schedule, exactly the revolver cycles it waited
             * before this issue (seg_stall with this issue at t, not yet counted in
             * instructions). A derived counter only: no cycle changes, and the sync at the
             * burst's end (or at a stop) recomputes them all. */
            if (tk->seg_open)
                th[tid].stalls[DPU_STALL_REVOLVER] = tk->rev_acc + (t - tk->seg_start) -
                                                     (th[tid].instructions + 1 - tk->seg_insns) -
                                                     (tk->shift_sum - tk->seg_shift);
        }
        if (m->slow && dbg_before_insn(m, u, tid, pc)) {
            /* stopped before issuing: the cursor goes back to tid, so that on resume it
             * issues in this very slot, as if the run had never stopped (issue 16) */
            dpu_sync_stats(u, last, tid);
            return t;
        }
        if (prof)
            prof_issue(prof, u->index * prof->tpu + tid, pc, t, th[tid].instructions, th[tid].stalls);
        tk->last_issue = t;
        th[tid].ready_at = t + 11;
        last = t;
        uint64_t extra = 0;
        if (bank) {
            /* uPIMulator's register-file rule (off by default, unconfirmed by hardware): the
             * registers this instruction reads plus those the tasklet's previous instruction
             * wrote, floor(even/2) + floor(odd/2) extra cycles that hold the pipeline */
            const dpu_insn *bi = &iram[pc < nwords ? pc : nwords];
            uint32_t set = bi->rmask | tk->prev_wmask;
            extra = (uint64_t)(__builtin_popcount(set & 0x555555u) / 2 + __builtin_popcount(set & 0xaaaaaau) / 2);
            tk->prev_wmask = bi->wmask;
            if (extra) {
                th[tid].stalls[DPU_STALL_BANK] += extra;
                th[tid].ready_at += extra;
                tk->shift_sum += extra;
            }
        }
        int r = execute_at(m, u, d, tid, t, iram, nwords);
        t += 1 + extra;
        if (m->slow)
            dbg_after_insn(m, u, tid, pc);
        if (m->max_instructions && sim_total_instructions(m) >= m->max_instructions)
            sim_set_stop_at(m, SIM_STOP_LIMIT, u->index, tid, tk->pc, tk->last_issue, "instruction limit reached");
        if (sim_stopped(m)) {
            dpu_sync_stats(u, last, u->rr);
            return t;
        }
        if (r) {
            if (d->faulted) {
                dpu_sync_stats(u, last, u->rr);
                return SIM_NEVER;
            }
            if (!d->run) {
                dpu_sync_stats(u, last, u->rr);
                dpu_halt_unit(m, u, t);
                return SIM_NEVER;
            }
        }
    }
    dpu_sync_stats(u, last, u->rr);
    return t;
}

uint64_t dpu_run(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon)
{
    dpu_iram_sync(d); /* the host or the debugger may have written IRAM */
    /* breakpoints and watchpoints alone keep the fast loop (fast.c checks them) */
    if (dbg_hooks(m) || m->max_instructions || d->dm->bank_penalty)
        return run_ref(m, u, d, now, horizon);
    return dpu_run_fast(m, u, d, now, horizon);
}
