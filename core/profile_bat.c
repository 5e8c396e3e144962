/* core/profile_bat.c: the batch counters (profile.h prof_bat): a word per (thread, window
 * offset) that a loop counts its issues in with one subtraction, the words that never count
 * (the poison), the block words (a pass through a straight run counted once in its last
 * word, folded into every row of the run), the corrections a loop makes at a run's edges,
 * and folding the words into the rows. Split from profile.c, whose slow paths fold a word
 * when the map drops its row (prof_bat_fold1, profile_int.h). */
#include <stdlib.h>
#include <string.h>
#include "profile_int.h"

int64_t *prof_bat_grow(prof_thread *t, uint32_t n)
{
    if (n <= t->nbat)
        return t->bat;
    if (!t->map || n > t->nmap)
        return NULL;
    prof_state *p = t->p;
    const size_t add = (size_t)(n - t->nbat) * sizeof *t->bat;
    if (p->map_bytes + add > PROF_MAP_BUDGET)
        return NULL;
    int64_t *b = t->bat ? realloc(t->bat, (size_t)n * sizeof *b) : calloc(n, sizeof *b);
    if (!b)
        return NULL;
    if (t->bat)
        memset(b + t->nbat, 0, add);
    p->map_bytes += add;
    t->bat = b;
    t->nbat = n;
    return b;
}

int64_t *prof_bat_poison(prof_state *p, uint32_t n)
{
    if (n <= p->npoison)
        return p->poison;
    int64_t *b = realloc(p->poison, (size_t)n * sizeof *b);
    if (!b)
        return NULL;
    for (uint32_t i = p->npoison; i < n; i++)
        b[i] = PROF_BAT_OFF;
    p->poison = b;
    p->npoison = n;
    return b;
}

/* Offset off's row is one the batches take (a plain mapped one: not a call's or a return's,
 * not dropped). */
static int prof_bat_plain(const prof_thread *t, uint32_t off)
{
    return off < t->nmap && t->map[off] && t->map[off][PROF_LIM];
}

/* Offset off's word, not counting (0 or PROF_BAT_OFF), starts at the bias with nothing
 * pending (the fold visits it from now on): 0 if no memory. */
static int prof_bat_start(prof_thread *t, uint32_t off)
{
    int64_t *const b = t->bat + off;
    if (*b == 0) {
        if (t->nbtl == t->cbtl) {
            uint32_t ncap = t->cbtl ? 2 * t->cbtl : 64;
            uint32_t *nl = realloc(t->btl, ncap * sizeof *nl);
            if (!nl)
                return 0;
            t->btl = nl;
            t->cbtl = ncap;
        }
        t->btl[t->nbtl++] = off;
    }
    *b = PROF_BAT_BIAS;
    return 1;
}

int prof_bat_touch(prof_thread *t, uint32_t off, int64_t one)
{
    return prof_bat_touch_run(t, off, off, one);
}

int prof_bat_touch_run(prof_thread *t, uint32_t first, uint32_t last, int64_t one)
{
    /* a row the fast path would not take (new, a call or a return, an open call's return
     * address) is not counted: the issue goes to prof_issue (a thread that maps its flows,
     * prof_thread.fm, has calls and returns in the map: their window word PROF_LIM is 0) */
    if (last >= t->nbat)
        return 0;
    for (uint32_t q = first; q <= last; q++)
        if (!prof_bat_plain(t, q))
            return 0;
    for (uint32_t q = first; q < last; q++) /* (words inside the run: corrections only) */
        if (t->bat[q] <= 0 && !prof_bat_start(t, q))
            return 0;
    if (!prof_bat_start(t, last))
        return 0;
    t->bat[last] -= one;
    return 1;
}

int prof_bat_adjust(prof_thread *t, uint32_t off, int64_t v)
{
    if (off >= t->nbat || !prof_bat_plain(t, off) || (t->bat[off] <= 0 && !prof_bat_start(t, off)))
        return 0;
    t->bat[off] -= v;
    return 1;
}

int prof_bat_blocks_set(prof_thread *t, const uint16_t *blen, uint32_t n, uint64_t key)
{
    prof_bat_fold(t); /* (under the table the words counted with) */
    if (n > t->nblen) {
        uint16_t *nb = realloc(t->blen, (size_t)n * sizeof *nb);
        if (!nb) {
            t->bkey = 0;
            t->nblen = 0;
            return 0;
        }
        t->blen = nb;
    }
    memcpy(t->blen, blen, (size_t)n * sizeof *blen);
    t->nblen = n;
    t->bkey = key;
    return 1;
}

/* The pending count of offset off into its rows (the run's that ends there, with block
 * words: prof_bat_blocks). Pending counts may be negative (a run's pass taken back at an
 * offset inside it): the count is the low 32 bits signed, the cycles the rest. */
void prof_bat_fold1(prof_thread *t, uint32_t off)
{
    int64_t *const b = t->bat + off;
    if (*b <= 0 || *b == PROF_BAT_BIAS)
        return;
    const int64_t d = PROF_BAT_BIAS - *b;
    const int64_t n = (int32_t)(uint32_t)d, cyc = (d - n) / ((int64_t)1 << 32);
    const uint32_t len = off < t->nblen && t->blen[off] ? t->blen[off] : 1;
    for (uint32_t i = 0; i < len && i <= off; i++) {
        uint64_t *const row = t->map[off - i];
        if (!row) /* (prof_bat_blocks: no run holds a droppable row) */
            continue;
        row[PROF_INSNS] += (uint64_t)n;
        row[PROF_CYCLES] += (uint64_t)cyc;
        if (t->bder >= 0) /* each counted issue waited its cycles but one (prof_bat_derive) */
            row[PROF_STALLS + t->bder] += (uint64_t)(cyc - n);
    }
    *b = PROF_BAT_BIAS;
}

void prof_bat_fold(prof_thread *t)
{
    for (uint32_t i = 0; i < t->nbtl; i++)
        prof_bat_fold1(t, t->btl[i]);
    t->bspan = 0;
}
