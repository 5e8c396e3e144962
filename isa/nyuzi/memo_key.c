/* isa/nyuzi/memo_key.c: the key of the memoized periods (memo.c): the Nyuzi cycle model's
 * timing state as a list of words, relative to a cycle, and back (nyz_memo_walk, one
 * function naming every field, with why each field not named is not read in a period);
 * the cache sets a period touches; copies of the caches' arrays. nyz_memo_key_sizes holds
 * the sizes of the structures it was written for: tests/nyuzi/test_memo_key.c fails when a
 * structure of nyuzi.h changes, so that a new field is not left out of the key unread. */
#include <stdlib.h>
#include <string.h>
#include "memo.h"

/* The sizes of the structures nyz_memo_walk was written for (tests/nyuzi/test_memo_key.c
 * fails when one differs: a new field must go into the key, or its comment say why a
 * period does not read it, and the size here be updated). */
const size_t nyz_memo_key_sizes[5] = {
    4648,  /* nyz_thread */
    1616,  /* nyz_core */
    640,   /* nyz_cache */
    28024, /* nyz_machine */
    136,   /* sim_thread */
};

#define M_ZERO 0x8000000000000000ull
#define M_NEVER 0x8000000000000001ull
#define M_PAST 0x8000000000000002ull

static inline void put(nyz_memo_walker *w, uint64_t v)
{
    if (w->n < NYZ_MEMO_KEY_CAP)
        w->buf[w->n] = v;
    else
        w->bad = 1;
    w->n++;
}
static inline uint64_t get(nyz_memo_walker *w)
{
    return w->n < NYZ_MEMO_KEY_CAP ? w->buf[w->n++] : 0;
}
/* A cycle: 0 and never as themselves, else relative to the base; `past`: any cycle at or
 * before the base is one value (the field is only compared with later cycles, or taken as
 * a lower bound by max, so all such cycles act alike). A restored past keeps the field if
 * it is past already, else 0. */
static inline uint64_t enc_cyc(uint64_t v, uint64_t b, int past)
{
    if (v == UINT64_MAX)
        return M_NEVER;
    if (past && v <= b)
        return M_PAST;
    if (v == 0)
        return M_ZERO;
    return v - b;
}
static inline uint64_t dec_cyc(uint64_t e, uint64_t b, uint64_t cur)
{
    if (e == M_NEVER)
        return UINT64_MAX;
    if (e == M_PAST)
        return cur <= b ? cur : 0;
    if (e == M_ZERO)
        return 0;
    return b + e;
}

/* exact field */
#define WX(w, lv)                                                                         \
    do {                                                                                  \
        if ((w)->mode == NYZ_MEMO_SAVE)                                                          \
            put(w, (uint64_t)(lv));                                                       \
        else                                                                              \
            (lv) = (__typeof__(lv))get(w);                                                \
    } while (0)
#define WP(w, lv)                                                                         \
    do {                                                                                  \
        if ((w)->mode == NYZ_MEMO_SAVE)                                                          \
            put(w, (uint64_t)(uintptr_t)(lv));                                            \
        else                                                                              \
            (lv) = (__typeof__(lv))(uintptr_t)get(w);                                     \
    } while (0)
/* cycle field (past: see enc_cyc) */
#define WC(w, lv, past)                                                                   \
    do {                                                                                  \
        if ((w)->mode == NYZ_MEMO_SAVE)                                                          \
            put(w, enc_cyc((lv), (w)->base, (past)));                                     \
        else                                                                              \
            (lv) = dec_cyc(get(w), (w)->base, (lv));                                      \
    } while (0)
/* a value the key holds for comparison only (restore skips it) */
#define WK(w, v)                                                                          \
    do {                                                                                  \
        if ((w)->mode == NYZ_MEMO_SAVE)                                                          \
            put(w, (uint64_t)(v));                                                        \
        else                                                                              \
            (void)get(w);                                                                 \
    } while (0)

/* One thread's timing state. Not in the key: s, v (architectural: the replay checks what
 * they decide), asid, page_dir, ts, sync_line (the MMU, traps and load_sync make a period
 * unrecordable), gid (fixed), reg_ready[64..255] (never written), rb_flags/rb_pc without a
 * rollback, miss_* without a miss, rp_pa without a replay, cur_* without cur (read only
 * under them), the FIFO's slots outside its live part (kept in its order from fe_h, which
 * the pipeline only uses relative to the head, so a restore puts them at the head). */
static void memo_walk_thread(nyz_memo_walker *w, nyz_machine *nm, sim_thread *st, nyz_thread *t)
{
    WX(w, st->state);
    WX(w, st->started);
    if (st->state != SIM_T_READY) {
        /* nothing of a thread that is not ready is read unless an event is due for it
         * (due_events) */
        if (w->mode == NYZ_MEMO_SAVE && (t->fe_sync || t->rb_at || t->miss_at))
            w->bad = 1;
        return;
    }
    WC(w, st->ready_at, 1);
    WX(w, t->pc);
    WX(w, t->flags);
    WX(w, t->int_mask);
    WX(w, t->latched);
    WX(w, t->subcycle);
    if (w->mode == NYZ_MEMO_SAVE && ((t->flags & NYZ_F_M) || t->subcycle || t->halt_at))
        w->bad = 1; /* (halt_at: a suspension on its way, the end of a thread) */
    for (int r = 0; r < 64; r++)
        WC(w, t->reg_ready[r], 1);
    WC(w, t->store_done, 1);
    WX(w, t->fe_n);
    uint8_t bits = 0;
    for (unsigned k = 0; k < t->fe_n && k < 8; k++) {
        unsigned i = (t->fe_h + k) & 7;
        WC(w, t->fe_vis[i], 0);
        WP(w, t->fe_ent[i]);
        WX(w, t->fe_pa[i]);
        uint8_t b = (t->fe_int >> i) & 1;
        WX(w, b);
        bits |= (uint8_t)(b << i);
        const nyz_dcache_ent *e = t->fe_ent[i];
        WK(w, e ? e->raw : 0);
        WK(w, e ? e->pa == t->fe_pa[i] : 2);
    }
    if (w->mode == NYZ_MEMO_RESTORE)
        t->fe_int = bits;
    WX(w, t->fe_pc);
    WX(w, t->npc);
    WX(w, t->fe_sync);
    WX(w, t->fetch_full);
    WX(w, t->ghost);
    WX(w, t->ghost_wr);
    WX(w, t->ghost_pa);
    WX(w, t->ghost_full);
    WX(w, t->why);
    WX(w, t->block_why);
    WC(w, t->iwait, 1);
    WC(w, t->waste_at, 1);
    WC(w, t->miss_at, 0);
    if (t->miss_at) {
        WX(w, t->miss_pc);
        WX(w, t->miss_pa);
        WX(w, t->miss_fault);
    }
    WC(w, t->rb_at, 0);
    if (t->rb_at) {
        WX(w, t->rb_flags);
        WX(w, t->rb_pc);
    }
    WC(w, t->fl_at, 1);
    if (t->fl_at > w->base) /* (a setcr window still open) */
        WX(w, t->fl_old);
    WC(w, t->blocked, 1);
    WC(w, t->last_issue, 0);
    /* its newest store's record, by serial from the newest */
    if (w->mode == NYZ_MEMO_SAVE)
        put(w, t->undo ? (uint64_t)(uint32_t)(nm->undo_serial - t->undo) : M_ZERO);
    else {
        uint64_t e = get(w);
        t->undo = e == M_ZERO ? 0 : nm->undo_serial - (uint32_t)e;
    }
    WX(w, t->rp_kind);
    WX(w, t->sync_odd);
    if (t->rp_kind)
        WX(w, t->rp_pa);
    WP(w, t->cur);
    if (t->cur) {
        WX(w, t->cur_pc);
        WX(w, t->cur_pa);
        WX(w, t->cur_flags);
    }
}

/* The timing state apart from the caches' sets. Not in the key: the statistics (added as
 * the period's increments), c->last_way and l2.last_way (written before each read), the
 * TLBs (itlb_old, itlb_old_at too), perf_sel/perf_count (the MMU and control registers
 * make a period unrecordable),
 * the L1D's pseudo-LRU reads (lrd: recorded and read only with fills in flight, and there
 * are none), the memory bus, SDRAM and L2 fill FIFO (mem_free, fq_rst, sd_*, bus_log, bus_mem,
 * bus_n; the bus interface's write-backs waiting and the end of its last write, wb_*,
 * bi_free: read and written only on an L2 miss or a dirty flush, and a period has none;
 * the fill FIFO's placements a flush may still go before, placed, pl_n, bi_key: the same,
 * and kept only on several cores; a dirty flush in bus_log and its event, flw_n, flush_ev:
 * several cores only; the fills waiting for their restart, pf, pf_n, pf_moved (l2_fill.c:
 * a period is not recorded while one waits, and makes none);
 * bus_log's entries change a thread's `blocked` only when a code line misses; stores enter
 * it only on several cores), run_core (set by every unit_run), fq_n (fq_e
 * and fq_r are below), other cores' sq_free (several cores), cur_cycle (written
 * by every issue before it is read), the L2 arbiter's state (arb_*, and where its last
 * settle ended and the changes kept since, arb_t, arb_tok, arb_tn, arb_mv*: read and
 * written only with bus_log; arb_full: a test's), the devices, the decode cache
 * (re-decoded whenever a word changed; the words are checked), warm (the functional
 * mode), each store record's old bytes (architectural: rebuilt by the replay) and `made`
 * unless vis is unknown. */
void nyz_memo_walk(nyz_memo_walker *w, nyz_machine *nm, sim_unit *u, nyz_core *c)
{
    if (w->mode == NYZ_MEMO_SAVE && (nm->ncores != 1 || nm->sync_used || nm->sa_npend || nm->resched ||
                              nm->pf_n || !c->l1i.plru_on || !c->l1d.plru_on ||
                              !nm->l2.plru_on || nm->cosim || c->nthreads != u->nthreads ||
                              c->halt_due))
        w->bad = 1;
    WX(w, u->rr);
    WC(w, u->last_issue, 0);
    WX(w, nm->int_levels);
    WX(w, c->level_trig);
    WX(w, c->frr);
    WC(w, c->fetch_off, 1);
    WC(w, c->fetch_from, 1);
    WC(w, c->tlb_off, 1);
    WC(w, c->tlb_from, 1);
    WC(w, c->due, 1);
    for (unsigned k = 1; k <= 8; k++) { /* the writeback slots of the next 8 cycles */
        uint64_t slot = w->base + k;
        if (w->mode == NYZ_MEMO_SAVE)
            put(w, c->wb_slot[slot & 7] == slot);
        else
            c->wb_slot[slot & 7] = get(w) ? slot : 0;
    }
    nyz_cache *l1[2] = {&c->l1i, &c->l1d};
    for (int k = 0; k < 2; k++) {
        WX(w, l1[k]->nfill);
        WX(w, l1[k]->next_fill);
        if (w->mode == NYZ_MEMO_SAVE && (l1[k]->nfill || l1[k]->next_fill != UINT64_MAX))
            w->bad = 1;
    }
    WC(w, nm->sq_free[c->index], 1);
    /* The L2's fill FIFO (fq_e, fq_r: timing.c l2_stalled) holds up a request that reaches
     * the L2 at x only through an entry with x <= fq_r (a restart at x, or one of 4 live
     * entries); requests come after the key's cycle, so an entry restarted by then acts as
     * none. A later one is a fill in flight, which a period excludes. (l2_stalled also
     * reads fq_rst for every request, but only to skip its scan of the entries, which finds
     * nothing when they are all restarted: the answer is the same either way.) */
    for (unsigned i = 0; i < NYZ_FQ && i < nm->fq_n; i++)
        if (w->mode == NYZ_MEMO_SAVE && nm->fq_r[i] > w->base)
            w->bad = 1;
    /* The L2's grants (l2_slot: the cycle of each request it took, by cycle mod
     * NYZ_L2_SLOTS; l2_accept takes none in a cycle already taken): a request comes after
     * the key's cycle, so only the grants after it are read, as offsets from it. */
    for (unsigned k = 1; k < NYZ_L2_SLOTS; k++) {
        uint64_t slot = w->base + k;
        if (w->mode == NYZ_MEMO_SAVE) {
            if (nm->l2_slot[slot % NYZ_L2_SLOTS] == slot)
                put(w, k);
        } else if (nm->l2_slot[slot % NYZ_L2_SLOTS] == slot)
            nm->l2_slot[slot % NYZ_L2_SLOTS] = 0; /* (a grant of the state replaced) */
    }
    if (w->mode == NYZ_MEMO_SAVE)
        put(w, 0);
    else
        for (uint64_t k; (k = get(w)) != 0 && k < NYZ_L2_SLOTS;)
            nm->l2_slot[(w->base + k) % NYZ_L2_SLOTS] = w->base + k;
    WX(w, nm->undo_on);
    WX(w, nm->nundo);
    for (unsigned j = 0; j < nm->nundo && j < 64; j++) {
        struct nyz_undo *r = &nm->undo[j];
        WX(w, r->line);
        WX(w, r->bytes);
        WX(w, r->gid);
        WC(w, r->vis, 1);
        WC(w, r->l2vis, 1);
        if (w->mode == NYZ_MEMO_SAVE)
            put(w, (uint32_t)(nm->undo_serial - r->serial));
        else
            r->serial = nm->undo_serial - (uint32_t)get(w);
        if (r->vis == UINT64_MAX)
            WC(w, r->made, 0);
    }
    for (int i = 0; i < c->nthreads; i++)
        memo_walk_thread(w, nm, &u->threads[i], &c->t[i]);
}

/* The sets a period touches, of one cache: tags, dirty bits, fill times, pseudo-LRU flags,
 * the last touched line. */
void nyz_memo_walk_sets(nyz_memo_walker *w, const nyz_memo_view *v, const uint16_t *sets, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        unsigned s = sets[k], b = s * v->ways;
        for (unsigned i = 0; i < v->ways; i++) {
            WX(w, v->tag[b + i]);
            WX(w, v->dirty[b + i]);
            WC(w, v->ready[b + i], 1);
        }
        WX(w, v->plru[s]);
        WX(w, v->mru[2 * s]);
        WX(w, v->mru[2 * s + 1]);
    }
}

nyz_memo_view nyz_memo_live_view(nyz_cache *c)
{
    return (nyz_memo_view){c->tag, &c->mru[0].line, c->plru, c->dirty, c->ready, c->sets, c->ways};
}

void nyz_memo_caches(nyz_machine *nm, nyz_core *c, nyz_cache *out[3])
{
    out[0] = &c->l1i;
    out[1] = &c->l1d;
    out[2] = &nm->l2;
}

int nyz_memo_view_alloc(nyz_memo_view *v, const nyz_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    if (v->tag && v->sets == c->sets && v->ways == c->ways)
        return 0;
    free(v->tag);
    free(v->mru);
    free(v->plru);
    free(v->dirty);
    free(v->ready);
    v->sets = c->sets;
    v->ways = c->ways;
    v->tag = malloc(n * sizeof *v->tag);
    v->mru = malloc(2 * (size_t)c->sets * sizeof *v->mru);
    v->plru = malloc(c->sets);
    v->dirty = malloc(n);
    v->ready = malloc(n * sizeof *v->ready);
    return v->tag && v->mru && v->plru && v->dirty && v->ready ? 0 : -1;
}

void nyz_memo_view_copy(nyz_memo_view *v, const nyz_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    memcpy(v->tag, c->tag, n * sizeof *v->tag);
    memcpy(v->mru, c->mru, 2 * (size_t)c->sets * sizeof *v->mru);
    memcpy(v->plru, c->plru, c->sets);
    memcpy(v->dirty, c->dirty, n);
    memcpy(v->ready, c->ready, n * sizeof *v->ready);
}
