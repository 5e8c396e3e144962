/* isa/nyuzi/memo.c: memoized periods of the Nyuzi cycle model (-o nyuzi_memo=on|check), after
 * FastSim (Schnarr and Larus, ASPLOS 1998). A loop's schedule is often exactly periodic: the
 * whole timing state, taken relative to the current cycle, comes back after some issues. At
 * an executed issue (the anchor) the memo takes that state as a key and records every
 * executed issue after it (thread, pc, instruction word, memory address, next pc, cycle);
 * when the anchor issues again with the same relative state, the record is a period. From
 * then on, at the anchor with that state, the period is replayed: each recorded instruction
 * runs functionally (nyz_exec, no pipeline), checked before it runs (pc, word, address) and
 * after (next pc, memory kind); the statistics get the period's increments and the timing
 * state is the key moved in time. At the first difference the instructions replayed in the
 * period are undone (a log of what each wrote) and the cycle model goes on from the
 * period's start, which is exact because the timing state was not touched. What the key
 * must hold is every field the cycle model reads in a period; which it does not read is
 * argued field by field in memo_walk. Periods with cache misses, fills in flight, traps,
 * interrupts, device, synchronized, control-register or cache-control instructions, the
 * MMU, several cores, or loads that another thread's store not yet visible could change
 * are not recorded (the cycle model runs them). `check` runs the cycle model throughout
 * and, where a period would be replayed, compares each issue with the record and the state
 * and statistics at its end, and with what the replay would do (check_dry: where it stops,
 * what it leaves); a difference stops the run (docs/isa/nyuzi.md "Memoized periods"). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "memo.h"
#include "exec_ops.h"
#include "../../core/debug.h"
#include "memo_priv.h"

static void counts_get(memo_counts *k, nyz_machine *nm, sim_unit *u, nyz_core *c)
{
    nyz_cache *cc[3];
    nyz_memo_caches(nm, c, cc);
    for (int i = 0; i < c->nthreads; i++) {
        k->insns[i] = u->threads[i].instructions;
        k->issues[i] = u->threads[i].issue_cycles;
        for (int s = 0; s <= NYZ_ST_ISSUE; s++)
            k->stalls[i][s] = u->threads[i].stalls[s];
    }
    memcpy(k->events, c->events, sizeof k->events);
    for (int i = 0; i < 3; i++) {
        k->hits[i] = cc[i]->hits;
        k->misses[i] = cc[i]->misses;
    }
    k->serial = nm->undo_serial;
}

static void counts_sub(memo_counts *d, const memo_counts *a, const memo_counts *b, int nt)
{
    memset(d, 0, sizeof *d);
    for (int i = 0; i < nt; i++) {
        d->insns[i] = a->insns[i] - b->insns[i];
        d->issues[i] = a->issues[i] - b->issues[i];
        for (int s = 0; s <= NYZ_ST_ISSUE; s++)
            d->stalls[i][s] = a->stalls[i][s] - b->stalls[i][s];
    }
    for (int e = 0; e < NYZ_NPERF; e++)
        d->events[e] = a->events[e] - b->events[e];
    for (int i = 0; i < 3; i++) {
        d->hits[i] = a->hits[i] - b->hits[i];
        d->misses[i] = a->misses[i] - b->misses[i];
    }
    d->serial = a->serial - b->serial;
}

nyz_memo *nyz_memo_new(int mode)
{
    nyz_memo *mo = calloc(1, sizeof *mo);
    if (!mo)
        return NULL;
    mo->mode = mode;
    mo->backoff = 1;
    mo->steps = malloc(MAX_STEPS * sizeof *mo->steps);
    mo->log = malloc(2 * MAX_STEPS * sizeof *mo->log); /* the last two periods' */
    mo->umap = malloc(MAX_STEPS * sizeof *mo->umap);
    mo->k0 = malloc(NYZ_MEMO_KEY_CAP * sizeof *mo->k0);
    mo->key = malloc(NYZ_MEMO_KEY_CAP * sizeof *mo->key);
    mo->tmp = malloc(NYZ_MEMO_KEY_CAP * sizeof *mo->tmp);
    mo->usave = malloc(64 * sizeof *mo->usave);
    mo->pev = malloc(MAX_PEV * sizeof *mo->pev);
    if (!mo->steps || !mo->log || !mo->umap || !mo->k0 || !mo->key || !mo->tmp || !mo->usave ||
        !mo->pev) {
        nyz_memo_free(mo);
        return NULL;
    }
    return mo;
}

void nyz_memo_free(nyz_memo *mo)
{
    if (!mo)
        return;
    if (mo->mode == NYZ_MEMO_CHECK) /* what was compared (tests/nyuzi/test_memo.t.sh) */
        fprintf(stderr, "nyuzi_memo=check: %llu periods recorded, %llu checked against the cycle model\n",
                (unsigned long long)mo->st.recorded, (unsigned long long)mo->st.checked);
    for (int i = 0; i < 3; i++) {
        free(mo->sgen[i]);
        free(mo->start[i].tag);
        free(mo->start[i].mru);
        free(mo->start[i].plru);
        free(mo->start[i].dirty);
        free(mo->start[i].ready);
    }
    free(mo->steps);
    free(mo->log);
    free(mo->umap);
    free(mo->k0);
    free(mo->key);
    free(mo->tmp);
    free(mo->usave);
    free(mo->pev);
    free(mo->pd);
    free(mo);
}

static void give_up(nyz_memo *mo)
{
    mo->h.state = S_IDLE;
    mo->h.skip = mo->backoff;
    if (mo->backoff < BACKOFF_MAX)
        mo->backoff *= 2;
}

/* Recording: the sets and code words seen, stamped with the recording's generation (a
 * lookup, not a search of the lists: a step costs a few of them). */
static void seen_reset(nyz_memo *mo)
{
    if (++mo->gen == 0) {
        memset(mo->cgen, 0, sizeof mo->cgen);
        for (int k = 0; k < 3; k++)
            if (mo->sgen[k])
                memset(mo->sgen[k], 0, mo->nsgen[k] * sizeof *mo->sgen[k]);
        mo->gen = 1;
    }
}

static int add_set(nyz_memo *mo, int k, unsigned set)
{
    if (mo->sgen[k][set] == mo->gen)
        return 0;
    if (mo->nsets[k] == MAX_SETS)
        return -1;
    mo->sgen[k][set] = mo->gen;
    mo->sets[k][mo->nsets[k]++] = (uint16_t)set;
    return 0;
}

/* The slot of code word a in the table (its own, or the empty one where it goes). */
static unsigned code_slot(const nyz_memo *mo, uint32_t a)
{
    unsigned i = (a * 2654435761u >> 20) & (CODE_HASH - 1);
    while (mo->cgen[i] == mo->gen && (mo->chash[i] & ~3u) != a)
        i = (i + 1) & (CODE_HASH - 1);
    return i;
}

/* The words at a .. a + 4 * after, whose contents the period depends on. */
static int add_code(nyz_memo *mo, const nyz_machine *nm, uint32_t a, unsigned after)
{
    const uint32_t a0 = a;
    unsigned i0 = code_slot(mo, a0);
    if (mo->cgen[i0] == mo->gen && (mo->chash[i0] & 1) && after <= CODE_AFTER)
        return 0; /* (added with the CODE_AFTER words after it already) */
    for (unsigned k = 0; k <= after; k++, a += 4) {
        if ((a & 3) || a > nm->ram_size - 4)
            return -1;
        unsigned i = code_slot(mo, a);
        if (mo->cgen[i] == mo->gen)
            continue;
        if (mo->ncode == MAX_CODE)
            return -1;
        mo->cgen[i] = mo->gen;
        mo->chash[i] = a;
        mo->code[mo->ncode++] = a;
    }
    if (after == CODE_AFTER)
        mo->chash[code_slot(mo, a0)] |= 1;
    return 0;
}

/* The whole key at base b: the generic part (live state or k0) and the sets (live or as
 * copied at the start). n: its length, or 0 when the state is not one the memo covers. */
static size_t key_of(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, uint64_t b,
                     uint64_t *buf, int from_start)
{
    nyz_memo_walker w = {NYZ_MEMO_SAVE, 0, b, buf, 0};
    if (from_start) {
        memcpy(buf, mo->k0, mo->nk0 * sizeof *buf);
        w.n = mo->nk0;
    } else
        nyz_memo_walk(&w, nm, u, c);
    nyz_cache *cc[3];
    nyz_memo_caches(nm, c, cc);
    for (int k = 0; k < 3; k++) {
        nyz_memo_view v = from_start ? mo->start[k] : nyz_memo_live_view(cc[k]);
        nyz_memo_walk_sets(&w, &v, mo->sets[k], mo->nsets[k]);
    }
    return w.bad || w.n > NYZ_MEMO_KEY_CAP ? 0 : w.n;
}

/* The state apart from the sets at `now` against k0 (the record's, the first nk0 words of
 * its key): 0 the same, 1 different, -1 not one the memo covers. Most anchors where the
 * state has not come back differ here already: the sets need not be walked. */
static int generic_differs(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, uint64_t now)
{
    nyz_memo_walker w = {NYZ_MEMO_SAVE, 0, now, mo->tmp, 0};
    nyz_memo_walk(&w, nm, u, c);
    if (w.bad || w.n > NYZ_MEMO_KEY_CAP)
        return -1;
    return w.n != mo->nk0 || memcmp(mo->tmp, mo->k0, w.n * sizeof *mo->k0);
}

static unsigned kind_save(const nyz_insn *in)
{
    switch (in->kind) {
    case K_NOP: case K_B_REG: case K_BZ: case K_BNZ: case K_B:
        return SV_NONE;
    case K_ALU_SS: case K_ALU_SI: case K_CMP_SS: case K_CMP_VS: case K_CMP_VV: case K_CMP_SI:
    case K_CMP_VI: case K_GETLANE_R: case K_GETLANE_I: case K_LOAD:
    case K_GETCR: /* (not the performance counters: rec_step) */
        return SV_S;
    case K_ALU_VS: case K_ALU_VV: case K_ALU_VI: case K_SHUFFLE: case K_LOAD_V:
        return SV_V;
    case K_STORE: case K_STORE_V:
        return SV_MEM;
    case K_CALL: case K_CALL_REG:
        return SV_RA;
    default:
        return 0xff;
    }
}

/* The stall reports of thread sth (tid), less the gap of its step if `step`: what its
 * counters grew by since its last step (mo->sprev, then updated). -1: no room, or counters
 * that shrank. */
static int add_pev(nyz_memo *mo, int tid, const sim_thread *sth, int step, uint64_t gap,
                   unsigned gcause)
{
    const uint64_t *st = sth->stalls;
    if (step && sth->issue_cycles == mo->iprev[tid] + 1) { /* no issue between: its own gap */
        mo->iprev[tid] = sth->issue_cycles;
        if (gap)
            mo->sprev[tid][gcause] += gap;
        return 0;
    }
    mo->iprev[tid] = sth->issue_cycles;
    for (unsigned q = 0; q <= NYZ_ST_ISSUE; q++) {
        uint64_t d = st[q] - mo->sprev[tid][q] - (gap && q == gcause ? gap : 0);
        mo->sprev[tid][q] = st[q];
        if (!d)
            continue;
        if (d > UINT32_MAX || mo->npev == MAX_PEV)
            return -1;
        mo->pev[mo->npev++] = (memo_pev){(uint32_t)d, (uint8_t)q, (uint8_t)tid};
    }
    return 0;
}

/* Start recording at this issue (the anchor). */
static void rec_start(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, int tid,
                      uint32_t pc, uint64_t now, uint64_t horizon)
{
    nyz_memo_walker w = {NYZ_MEMO_SAVE, 0, now, mo->k0, 0};
    nyz_memo_walk(&w, nm, u, c);
    if (w.bad || w.n > NYZ_MEMO_KEY_CAP) {
        give_up(mo);
        return;
    }
    nyz_cache *cc[3];
    nyz_memo_caches(nm, c, cc);
    for (int k = 0; k < 3; k++) {
        if (nyz_memo_view_alloc(&mo->start[k], cc[k])) {
            give_up(mo);
            return;
        }
        nyz_memo_view_copy(&mo->start[k], cc[k]);
        mo->nsets[k] = 0;
        if (mo->nsgen[k] != cc[k]->sets) {
            free(mo->sgen[k]);
            mo->nsgen[k] = 0;
            if (!(mo->sgen[k] = calloc(cc[k]->sets, sizeof *mo->sgen[k]))) {
                give_up(mo);
                return;
            }
            mo->nsgen[k] = cc[k]->sets;
        }
    }
    mo->nk0 = w.n;
    mo->h.have = 0;
    mo->h.atid = tid;
    mo->h.apc = pc;
    mo->base = now;
    mo->horizon = horizon;
    mo->nsteps = 0;
    mo->ncode = 0;
    seen_reset(mo);
    for (int i = 0; i < c->nthreads; i++) {
        mo->tpc[i] = c->t[i].pc;
        mo->spc[i] = u->threads[i].state == SIM_T_READY ? c->t[i].pc : ~0u;
        memcpy(mo->sprev[i], u->threads[i].stalls, sizeof mo->sprev[i]);
        mo->iprev[i] = u->threads[i].issue_cycles;
        /* the FIFO's instructions (their words are in the key) and the squashed ones that
         * may follow them */
        if (u->threads[i].state == SIM_T_READY &&
            add_code(mo, nm, c->t[i].fe_pc, c->t[i].fe_n + CODE_AFTER)) {
            give_up(mo);
            return;
        }
    }
    mo->nu = 0;
    mo->npev = 0;
    mo->bp_gen = 0;
    mo->aocc = 0;
    mo->miss = 0;
    mo->serial0 = nm->undo_serial;
    counts_get(&mo->c0, nm, u, c);
    mo->insn0 = 0;
    for (int i = 0; i < c->nthreads; i++)
        mo->insn0 += u->threads[i].instructions;
    mo->h.state = S_REC;
}

/* This issue in a recording: 0 go on, -1 the period cannot be recorded. */
static int rec_step(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, int tid,
                    uint32_t pc, const nyz_insn *in, const nyz_effect *ef, uint64_t now,
                    uint64_t horizon, uint64_t gap, unsigned gcause)
{
    nyz_thread *t = &c->t[tid];
    unsigned sv = kind_save(in);
    if (horizon != mo->horizon || mo->nsteps == MAX_STEPS || sv == 0xff || ef->trapped ||
        !ef->retired || (t->flags & NYZ_F_M) || nm->resched || in->fop == F_UNSET)
        return -1;
    /* control registers: each reads state the key holds or the cycle (cur_cycle, which the
     * replay sets), except the performance counters (events, counted at the period's end) */
    if (in->kind == K_GETCR ? ef->mem != 5 || (in->s1 >= 24 && in->s1 <= 27) : ef->mem > 2)
        return -1;
    uint64_t ins = 0;
    for (int i = 0; i < c->nthreads; i++)
        ins += u->threads[i].instructions;
    if (ins != mo->insn0 + mo->nsteps + 1) /* an instruction not seen here (another loop) */
        return -1;
    nyz_cache *cc[3];
    nyz_memo_caches(nm, c, cc);
    for (int k = 0; k < 3; k++)
        if (cc[k]->misses != mo->c0.misses[k])
            return -1;
    if (c->events[0] != mo->c0.events[0] || c->events[7] != mo->c0.events[7] ||
        c->events[10] != mo->c0.events[10]) /* traps, TLB misses */
        return -1;
    memo_step *s = &mo->steps[mo->nsteps];
    s->in = *in;
    s->pc = pc;
    s->raw = in->raw;
    s->npc = t->pc;
    s->rel = (uint32_t)(now - mo->base);
    s->tid = (uint8_t)tid;
    s->mem = ef->mem;
    s->save = (uint8_t)sv;
    s->dst = sv == SV_RA ? 31 : in->dst;
    s->memk = in->kind == K_LOAD || in->kind == K_STORE || in->kind == K_LOAD_V ||
              in->kind == K_STORE_V;
    s->paddr = s->memk ? ef->paddr : 0;
    s->wide = in->kind == K_LOAD_V || in->kind == K_STORE_V;
    /* The timing of a load or store depends on its line only (the L1D and L2 sets and
     * hits; a period has no misses): any address in the recorded line will do, aligned as
     * the access needs. A store that leaves a record for other threads (l2_vis.c: which
     * bytes it wrote) must be at the recorded address. */
    s->align = s->wide ? 63u : in->width ? in->width - 1u : 3u;
    s->amask = (s->mem == 2 && nm->undo_on) || (uint64_t)((ef->paddr >> 6) + 1) * 64 > nm->ram_size
                   ? 0xffffffffu : ~63u;
    if (pc != mo->tpc[tid]) /* its pc moved outside an executed issue (a trap) */
        return -1;
    mo->tpc[tid] = t->pc;
    if (now - mo->base > UINT32_MAX / 2 || gap > UINT32_MAX || (gap && gcause > NYZ_ST_ISSUE))
        return -1;
    /* the profile: this issue's gap is its own; what the thread's counters grew by since its
     * last step apart from it, the gaps of its issues that executed nothing, is its last
     * instruction's (the counters grow only at issues: pipeline.c) */
    s->gap = (uint32_t)gap;
    s->gcause = gap ? (uint8_t)gcause : 0;
    s->pre = mo->npev;
    s->npre = 0;
    if (add_pev(mo, tid, &u->threads[tid], 1, gap, gcause))
        return -1;
    s->npre = (uint8_t)(mo->npev - s->pre);
    uint32_t line = pc >> 6;
    if (add_code(mo, nm, pc, CODE_AFTER) || add_set(mo, 0, line & (c->l1i.sets - 1)) || add_set(mo, 0, (line + 1) & (c->l1i.sets - 1)))
        return -1;
    if (s->memk) {
        uint32_t dl = ef->paddr >> 6;
        if (add_set(mo, 1, dl & (c->l1d.sets - 1)) || add_set(mo, 2, dl & (nm->l2.sets - 1)))
            return -1;
        if (s->save == SV_MEM && ef->paddr + NYZ_LINE > nm->ram_size)
            return -1;
        if (ef->mem == 1) /* another thread's store it may not see: not covered */
            for (unsigned j = 0; j < nm->nundo; j++)
                if (nm->undo[j].line == (ef->paddr & ~63u) && nm->undo[j].gid != t->gid)
                    return -1;
    }
    /* a store that made a record (serial in order) */
    uint32_t made = nm->undo_serial - mo->serial0;
    if (made != mo->nu) {
        if (made != mo->nu + 1 || s->mem != 2)
            return -1;
        mo->umap[mo->nu++] = mo->nsteps;
    }
    mo->nsteps++;
    if (tid != mo->h.atid || pc != mo->h.apc)
        return 0;
    mo->aocc++;
    /* the anchor again: a period if the state is the start's, moved in time */
    int g = generic_differs(mo, nm, u, c, now);
    if (g)
        return g < 0 ? -1 : 0; /* (1: not yet, go on recording) */
    size_t n1 = key_of(mo, nm, u, c, now, mo->tmp, 0);
    size_t n0 = key_of(mo, nm, u, c, mo->base, mo->key, 1);
    if (!n1 || !n0)
        return -1;
    if (n1 != n0 || memcmp(mo->tmp, mo->key, n0 * sizeof *mo->key))
        return 0; /* not yet: go on recording */
    for (unsigned i = 0; i < mo->nsteps; i++) /* no store into the period's code */
        if (mo->steps[i].mem == 2) {
            uint32_t lo = mo->steps[i].paddr & ~63u, hi = lo + 64; /* (any word of the line) */
            for (unsigned k = 0; k < mo->ncode; k++)
                if (mo->code[k] >= lo && mo->code[k] < hi)
                    return -1;
        }
    for (unsigned k = 0; k < mo->ncode; k++)
        mo->code_word[k] = mem_ld32le(nm->ram + mo->code[k]);
    for (unsigned i = 0; i < mo->nsteps; i++) /* (an instruction fetched before a store to it) */
        if (mo->steps[i].raw != mem_ld32le(nm->ram + mo->steps[i].pc))
            return -1;
    memo_counts c1;
    counts_get(&c1, nm, u, c);
    counts_sub(&mo->delta, &c1, &mo->c0, c->nthreads);
    mo->tail = mo->npev; /* what each thread counted after its last step */
    for (int i = 0; i < c->nthreads; i++)
        if (add_pev(mo, i, &u->threads[i], 0, 0, 0))
            return -1;
    /* a store record still hidden at the end was made in this period or the one before
     * (the replay keeps the bytes of two) */
    for (unsigned j = 0; j < nm->nundo; j++)
        if (nm->undo[j].vis > now &&
            (uint32_t)(nm->undo_serial - nm->undo[j].serial) >= 2 * mo->delta.serial)
            return -1;
    mo->nkey = n0;
    mo->len = now - mo->base;
    mo->h.have = 1;
    mo->h.state = S_IDLE;
    mo->backoff = 1;
    mo->st.recorded++;
    return 0;
}

/* Undo steps [0, j) of a replay (newest first), whose log is lg. */
static void undo_steps(nyz_memo *mo, nyz_machine *nm, nyz_core *c, const memo_log *lg, unsigned j)
{
    while (j-- > 0) {
        const memo_step *s = &mo->steps[j];
        nyz_thread *t = &c->t[s->tid];
        t->pc = lg[j].pc;
        switch (s->save) {
        case SV_S: case SV_RA: t->s[s->dst] = lg[j].w[0]; break;
        case SV_V: memcpy(t->v[s->dst], lg[j].w, sizeof lg[j].w); break;
        case SV_MEM: memcpy(nm->ram + lg[j].line, lg[j].w, NYZ_LINE); break;
        default: break;
        }
    }
}

/* The instruction bodies inline (exec_ops.inc, as in pipeline.c's plain loops): what
 * nyz_exec does, without its call and effect in memory. No cosimulation stream (a period
 * is not recorded with one) and no store records (off during a chain). */
#define OP(f) case f:
#define OPS(f) case f:
#define END() goto exec_done
#define END_SYS() goto exec_done
#define END_MARKER() goto exec_done
#define TAKEN(x)                                                                          \
    do {                                                                                  \
        t->pc = (x);                                                                      \
        goto exec_done;                                                                   \
    } while (0)
#define TAKEN_SYS(x) TAKEN(x)
#define FAILED()                                                                          \
    do {                                                                                  \
        trapped = 1;                                                                      \
        goto exec_done;                                                                   \
    } while (0)
#define REPEAT()                                                                          \
    do {                                                                                  \
        t->pc = pc;                                                                       \
        trapped = 1; /* (a gather lane: not in a period) */                               \
        goto exec_done;                                                                   \
    } while (0)
#define EF_MEM(k) (efm = (k))
#define EF_PADDR(a) ((void)(a))
#define EF_FULL(x) ((void)(x))
#define NYZ_COSIM 0
#define NYZ_FUNCTIONAL 0
#define NYZ_LANES_UNROLL /* built at -O3 (isa.mk) */

/* The instructions of one period from base, the k-th of a chain (its log: ring k & 1):
 * nsteps done, else the step where an outcome differs (what the period did is undone, that
 * step too if it ran). The timing state is not touched: a chain of periods leaves it as at
 * the chain's start, when it is the key at that cycle, and chain_end sets it once. */
static unsigned replay_period(nyz_memo *mo, nyz_machine *nm, nyz_core *c, uint64_t base, unsigned k)
{
    memo_log *const log = mo->log + (size_t)(k & 1) * MAX_STEPS;
    const memo_step *const steps = mo->steps;
    const unsigned n = mo->nsteps;
    unsigned j;
    for (j = 0; j < n; j++) {
        const memo_step *s = &steps[j];
        nyz_thread *t = &c->t[s->tid];
        const nyz_insn *in = &s->in;
        const uint32_t pc = s->pc;
        const uint32_t va = t->s[in->s1] + (uint32_t)in->imm;
        if (t->pc != pc || (s->memk && (((va ^ s->paddr) & s->amask) | (va & s->align)))) {
            break;
        }
        memo_log *lg = &log[j];
        lg->pc = pc;
        switch (s->save) {
        case SV_S: case SV_RA: lg->w[0] = t->s[s->dst]; break;
        case SV_V: memcpy(lg->w, t->v[s->dst], sizeof lg->w); break;
        case SV_MEM:
            lg->line = va & ~63u;
            memcpy(lg->w, nm->ram + lg->line, NYZ_LINE);
            break;
        default: break;
        }
        nm->cur_cycle = base + s->rel;
        unsigned efm = 0, trapped = 0;
        t->pc = pc + 4;
        switch ((nyz_fop_t)in->fop) {
#include "exec_ops.inc"
        case F_UNSET: /* (not in a period) */
        case NYZ_NFOPS:
            trapped = 1;
            break;
        }
    exec_done:
        if (trapped || efm != s->mem || t->pc != s->npc) {
            /* (the last step too: a loop's exit at the anchor's branch is a difference, not
             * a period done; tests/nyuzi/test_memo/exit.S) */
            undo_steps(mo, nm, c, log, j + 1);
            return j;
        }
    }
    if (j < n)
        undo_steps(mo, nm, c, log, j);
    return j;
}

#include "exec_ops_end.h"

/* After k periods replayed from b0 (k may be 0): the statistics get k times the period's
 * increments, the timing state is the key at b0 + k * len, the store records get the bytes
 * their stores overwrote. ev0, nundo0, undo_on0: as at the chain's start (the records then
 * in mo->usave). */
static void chain_end(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, uint64_t b0,
                      uint64_t k, const uint64_t *ev0, unsigned nundo0, uint8_t undo_on0)
{
    const memo_counts *d = &mo->delta;
    nm->nundo = nundo0;
    nm->undo_on = undo_on0;
    for (int e = 0; e < NYZ_NPERF; e++)
        c->events[e] = ev0[e] + k * d->events[e];
    if (!k)
        return;
    for (int i = 0; i < c->nthreads; i++) {
        sim_thread *st = &u->threads[i];
        st->instructions += k * d->insns[i];
        st->issue_cycles += k * d->issues[i];
        for (int q = 0; q <= NYZ_ST_ISSUE; q++)
            st->stalls[q] += k * d->stalls[i][q];
        mo->st.insns += k * d->insns[i];
    }
    nyz_cache *cc[3];
    nyz_memo_caches(nm, c, cc);
    for (int q = 0; q < 3; q++) {
        cc[q]->hits += k * d->hits[q];
        cc[q]->misses += k * d->misses[q];
    }
    const uint32_t s0 = nm->undo_serial;
    nm->undo_serial = s0 + (uint32_t)(k * d->serial);
    uint64_t end = b0 + k * mo->len;
    nyz_memo_walker w = {NYZ_MEMO_RESTORE, 0, end, mo->key, 0};
    nyz_memo_walk(&w, nm, u, c);
    for (int q = 0; q < 3; q++) {
        nyz_memo_view v = nyz_memo_live_view(cc[q]);
        nyz_memo_walk_sets(&w, &v, mo->sets[q], mo->nsets[q]);
    }
    for (unsigned r = 0; r < nm->nundo; r++) {
        struct nyz_undo *x = &nm->undo[r];
        uint64_t g = (uint32_t)(x->serial - s0); /* made by the chain's g-th store (from 1) */
        if (g >= 1 && g <= k * d->serial) {
            uint64_t p = (g - 1) / d->serial; /* in period p (the record keeps only 2) */
            const memo_log *lg = mo->log + (size_t)(p & 1) * MAX_STEPS;
            memcpy(x->old, lg[mo->umap[(g - 1) % d->serial]].w, NYZ_LINE);
            continue;
        }
        for (unsigned q = 0; q < nundo0; q++)
            if (mo->usave[q].serial == x->serial) {
                memcpy(x->old, mo->usave[q].old, NYZ_LINE);
                break;
            }
    }
    nm->cur_cycle = end;
    mo->st.replayed += k;
}

static void check_fail(nyz_machine *nm, nyz_core *c, int tid, uint32_t pc, const char *what)
{
    sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, tid, pc, "nyuzi_memo=check: %s", what);
}

/* check mode: what the period's steps wrote (each one's destination register or stored
 * line, as its log, ring 0, has the line) and their threads' pcs, hashed word by word
 * (FNV-1a): the cycle model and a replay run the same instructions, so the registers no
 * step writes are the same in both. */
static uint64_t arch_hash(const nyz_memo *mo, const nyz_machine *nm, const nyz_core *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
#define MIX(w) (h = (h ^ (uint32_t)(w)) * 0x100000001b3ull)
    for (unsigned j = 0; j < mo->nsteps; j++) {
        const memo_step *s = &mo->steps[j];
        const nyz_thread *t = &c->t[s->tid];
        MIX(t->pc);
        switch (s->save) {
        case SV_S: case SV_RA: MIX(t->s[s->dst]); break;
        case SV_V:
            for (unsigned k = 0; k < NYZ_LANES; k++)
                MIX(t->v[s->dst][k]);
            break;
        case SV_MEM:
            for (unsigned k = 0; k < NYZ_LINE; k += 4)
                MIX(mem_ld32le(nm->ram + mo->log[j].line + k));
            break;
        default: break;
        }
    }
#undef MIX
    return h;
}

/* check mode, at a period's start: what `on` would do here, a replay of the period (the
 * step it stops at, and if none the hash of what it leaves), then undone; check_step
 * compares the cycle model's run with it, so check fails where `on` would differ from the
 * cycle model, also in the replay itself (before session 40 a difference at a period's
 * last step passed as the period done). */
static void check_dry(nyz_memo *mo, nyz_machine *nm, nyz_core *c, uint64_t now)
{
    const unsigned nundo0 = nm->nundo;
    const uint8_t undo_on0 = nm->undo_on;
    const int nwatch0 = nm->mem->nwatch;
    const uint64_t cyc0 = nm->cur_cycle;
    uint64_t ev0[NYZ_NPERF]; /* (the bodies count branches: chain_end sets them) */
    memcpy(ev0, c->events, sizeof ev0);
    nm->nundo = 0; /* (as in a chain: nyz_memo_issue_slow) */
    nm->undo_on = 0;
    nm->mem->nwatch = 0;
    mo->dry_stop = replay_period(mo, nm, c, now, 0);
    if (mo->dry_stop == mo->nsteps) {
        mo->dry_hash = arch_hash(mo, nm, c);
        undo_steps(mo, nm, c, mo->log, mo->nsteps);
    }
    nm->nundo = nundo0;
    nm->undo_on = undo_on0;
    nm->mem->nwatch = nwatch0;
    nm->cur_cycle = cyc0;
    memcpy(c->events, ev0, sizeof ev0);
}

/* Does the state here match the record's key at `now`, and is the code the recorded one? */
static int at_key(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, uint64_t now)
{
    if (generic_differs(mo, nm, u, c, now))
        return 0;
    size_t n = key_of(mo, nm, u, c, now, mo->tmp, 0);
    if (n != mo->nkey || memcmp(mo->tmp, mo->key, n * sizeof *mo->key))
        return 0;
    for (unsigned k = 0; k < mo->ncode; k++)
        if (mo->code_word[k] != mem_ld32le(nm->ram + mo->code[k]))
            return 0;
    return 1;
}

/* check mode: this issue against the record's step mo->ci */
static void check_step(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, int tid,
                       uint32_t pc, const nyz_insn *in, const nyz_effect *ef, uint64_t now,
                       uint64_t horizon)
{
    const memo_step *s = &mo->steps[mo->ci];
    if (s->tid != tid || s->rel != now - mo->base) {
        check_fail(nm, c, tid, pc, "an issue's thread or cycle differs from the record's");
        return;
    }
    if (s->pc != pc || s->raw != in->raw || s->mem != ef->mem || ef->trapped || !ef->retired ||
        (s->memk && ((s->paddr ^ ef->paddr) & s->amask)) || s->npc != c->t[tid].pc) {
        if (mo->dry_stop != mo->ci) {
            check_fail(nm, c, tid, pc, "an outcome differs from the record's where a replay would not stop");
            return;
        }
        mo->h.state = S_IDLE; /* an outcome differs: a replay stops here, and goes on as here */
        mo->st.fails++;
        return;
    }
    if (mo->dry_stop == mo->ci) {
        check_fail(nm, c, tid, pc, "a replay would stop at an issue whose outcome is the record's");
        return;
    }
    if (++mo->ci < mo->nsteps)
        return;
    size_t n = key_of(mo, nm, u, c, now, mo->tmp, 0);
    if (n != mo->nkey || memcmp(mo->tmp, mo->key, n * sizeof *mo->key)) {
        check_fail(nm, c, tid, pc, "the timing state at a period's end differs from the record's");
        return;
    }
    memo_counts c1, d;
    counts_get(&c1, nm, u, c);
    counts_sub(&d, &c1, &mo->c0, c->nthreads);
    if (memcmp(&d, &mo->delta, sizeof d)) {
        check_fail(nm, c, tid, pc, "the statistics of a period differ from the record's");
        return;
    }
    if (arch_hash(mo, nm, c) != mo->dry_hash) {
        check_fail(nm, c, tid, pc, "the registers or memory at a period's end differ from a replay's");
        return;
    }
    mo->st.checked++;
    mo->h.state = S_IDLE;
    (void)horizon;
}

uint64_t nyz_memo_issue_slow(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, int tid,
                             uint32_t pc, const nyz_insn *in, nyz_effect ef, uint64_t now,
                             uint64_t horizon, uint64_t gap, int gcause)
{
    sim_machine *m = nm->m;
    if (sim_stopped(m) || m->ff_magic) {
        /* (this issue is not seen: a period being recorded or checked cannot go on) */
        if (mo->h.state == S_CHECK)
            mo->h.state = S_IDLE;
        return now;
    }
    int fresh = 0; /* a period was recorded at this issue: the state is its key */
    if (mo->h.state == S_REC) {
        if (rec_step(mo, nm, u, c, tid, pc, in, &ef, now, horizon, gap, (unsigned)gcause)) {
            give_up(mo);
            return now;
        }
        if (!mo->h.have)
            return now;
        fresh = 1;
    }
    if (mo->h.state == S_CHECK) {
        check_step(mo, nm, u, c, tid, pc, in, &ef, now, horizon);
        if (mo->h.state != S_IDLE || sim_stopped(m))
            return now;
        /* a period checked: the next one starts here */
    }
    if (mo->h.skip) {
        mo->h.skip--;
        return now;
    }
    if (!mo->h.have) {
        rec_start(mo, nm, u, c, tid, pc, now, horizon);
        return now;
    }
    if (tid != mo->h.atid || pc != mo->h.apc || now + mo->len >= horizon)
        return now;
    if (m->slow && !nyz_memo_dbg_allows(mo, nm, u))
        return now; /* the cycle model stops at the breakpoint or watchpoint, if it is hit */
    if (!fresh && !at_key(mo, nm, u, c, now)) {
        /* the key comes back at one of the anchor's issues in a period: after two periods'
         * worth without it, another period is recorded from here */
        if (++mo->miss > 2 * mo->aocc + 2)
            rec_start(mo, nm, u, c, tid, pc, now, horizon);
        return now;
    }
    mo->miss = 0;
    if (mo->mode == NYZ_MEMO_CHECK) {
        mo->h.state = S_CHECK;
        mo->base = now;
        mo->ci = 0;
        counts_get(&mo->c0, nm, u, c);
        check_dry(mo, nm, c, now);
        return now;
    }
    /* a chain of periods: the loads read memory as it is (recorded: no other thread's
     * hidden store on their lines), the stores' records are rebuilt at the end */
    uint64_t ev0[NYZ_NPERF];
    memcpy(ev0, c->events, sizeof ev0);
    const unsigned nundo0 = nm->nundo;
    const uint8_t undo_on0 = nm->undo_on;
    memcpy(mo->usave, nm->undo, nundo0 * sizeof *nm->undo);
    nm->nundo = 0;
    nm->undo_on = 0;
    /* the replayed accesses stay in lines no watchpoint covers (nyz_memo_dbg_allows): nyz_ram need
     * not look at the watches */
    const int nwatch0 = nm->mem->nwatch;
    nm->mem->nwatch = 0;
    const uint64_t b0 = now;
    uint64_t k = 0;
    int ok = 1;
    prof_state *const prof = dbg_profile(m);
    if (!prof)
        while (now + mo->len < horizon && (ok = replay_period(mo, nm, c, now, (unsigned)k) == mo->nsteps)) {
            now += mo->len;
            k++;
        }
    else { /* each period fed to the profile once it is replayed whole */
        prof_thread *pt[NYZ_MAX_THREADS];
        uint64_t ins[NYZ_MAX_THREADS];
        for (int i = 0; i < c->nthreads; i++) {
            pt[i] = prof_th(prof, u->index * prof->tpu + i);
            ins[i] = u->threads[i].instructions;
        }
        /* once a period is steady (nyz_memo_pd_build) so are the rest of the chain: their sum is
         * added at its end (nothing reads the profile in between) */
        uint64_t steady = 0;
        while (now + mo->len < horizon && (ok = replay_period(mo, nm, c, now, (unsigned)k) == mo->nsteps)) {
            if (!steady && k < 2 && nyz_memo_pd_build(mo, pt, c->nthreads)) /* (not by the second: calls) */
                steady = 1;
            else if (steady)
                steady++;
            else {
                nyz_memo_feed(mo, pt, now, ins);
                for (int i = 0; i < c->nthreads; i++)
                    ins[i] += mo->delta.insns[i];
            }
            now += mo->len;
            k++;
        }
        for (unsigned i = 0; steady && i < mo->npd; i++)
            *mo->pd[i].w += steady * mo->pd[i].d;
    }
    nm->mem->nwatch = nwatch0;
    chain_end(mo, nm, u, c, b0, k, ev0, nundo0, undo_on0);
    if (!ok) { /* a difference: the cycle model goes on from the period's start */
        mo->st.fails++;
        /* a record that fails at once twice in a row is for another phase of the program:
         * record again after the cycle model has run through the difference */
        mo->zero = k ? 0 : mo->zero + 1;
        if (mo->zero >= 2) {
            mo->h.have = 0;
            mo->zero = 0;
        }
        mo->h.skip = mo->nsteps;
    }
    return now;
}
