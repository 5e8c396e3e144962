/* isa/nyuzi/memo.h: memoized periods of the Nyuzi cycle model (-o nyuzi_memo=off|on|check;
 * isa/nyuzi/memo.c says how and why). The pipeline (pipeline.c) calls nyz_memo_issue after
 * each executed issue of its plain loop; the machine (machine.c) creates and frees the
 * state. */
#ifndef XPUSIM_NYUZI_MEMO_H
#define XPUSIM_NYUZI_MEMO_H
#include "nyuzi.h"

typedef struct nyz_memo nyz_memo;

enum { NYZ_MEMO_OFF = 0, NYZ_MEMO_ON = 1, NYZ_MEMO_CHECK = 2 };

/* A memo for machine nm in mode NYZ_MEMO_ON or NYZ_MEMO_CHECK, or NULL (out of memory). */
nyz_memo *nyz_memo_new(int mode);
void nyz_memo_free(nyz_memo *mo);

/* Called by the cycle loop (plain, or with no per-instruction hook: breakpoints,
 * watchpoints and --profile alone) at the end of cycle `now`, in which thread `tid` of
 * core c issued and executed the instruction `in` at `pc` with effect ef (its timing
 * applied; by value, so that the loop keeps it in registers), after `gap` stall cycles of
 * cause `gcause` (the profile charges them to this instruction). It
 * records the issue, or replays whole recorded periods functionally from here while every
 * instruction's outcome is the recorded one (the timing state after each period is the
 * recorded one, moved in time), and returns the cycle the loop is at then (now if nothing
 * was replayed; the loop goes on with the cycle after it). A difference found by `check`
 * mode stops the run with SIM_STOP_FAULT and the reason. */
uint64_t nyz_memo_issue_slow(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c, int tid,
                             uint32_t pc, const nyz_insn *in, nyz_effect ef, uint64_t now,
                             uint64_t horizon, uint64_t gap, int gcause);
/* The memo's first member: what decides, at most issues, that there is nothing to do
 * (hooks skipped after a failure, or a record whose anchor this issue is not), which the
 * cycle loop tests inline: a call costs some 40 host instructions per issue. */
enum { NYZ_MEMO_IDLE, NYZ_MEMO_REC, NYZ_MEMO_CHECKING };
typedef struct nyz_memo_hot {
    uint64_t skip;               /* hooks to skip (after a failure) */
    int state;                   /* NYZ_MEMO_IDLE, recording, checking */
    int have;                    /* a period is recorded */
    int atid;                    /* its anchor: thread and pc */
    uint32_t apc;
} nyz_memo_hot;
static inline uint64_t nyz_memo_issue(nyz_memo *mo, nyz_machine *nm, sim_unit *u, nyz_core *c,
                                      int tid, uint32_t pc, const nyz_insn *in, nyz_effect ef,
                                      uint64_t now, uint64_t horizon, uint64_t gap, int gcause)
{
    nyz_memo_hot *h = (nyz_memo_hot *)(void *)mo;
    if (h->state == NYZ_MEMO_IDLE) {
        if (h->skip) {
            h->skip--;
            return now;
        }
        if (h->have && (tid != h->atid || pc != h->apc))
            return now;
    }
    return nyz_memo_issue_slow(mo, nm, u, c, tid, pc, in, ef, now, horizon, gap, gcause);
}

/* Between memo.c and memo_key.c. */
/* A cache's arrays, live or copied at a recording's start. */
typedef struct nyz_memo_view {
    uint32_t *tag, *mru;         /* mru: line, way per set */
    uint8_t *plru, *dirty;
    uint64_t *ready;
    unsigned sets, ways;
} nyz_memo_view;

enum { NYZ_MEMO_SAVE, NYZ_MEMO_RESTORE };
typedef struct nyz_memo_walker {
    int mode, bad;
    uint64_t base;
    uint64_t *buf;
    size_t n;
} nyz_memo_walker;

enum { NYZ_MEMO_KEY_CAP = 16384 }; /* words of a key */
/* sizeof nyz_thread, nyz_core, nyz_cache, nyz_machine, sim_thread as nyz_memo_walk knows them */
extern const size_t nyz_memo_key_sizes[5];
/* Save (NYZ_MEMO_SAVE) the timing state apart from the caches' sets into w->buf relative to
 * w->base, or restore it (NYZ_MEMO_RESTORE) from there; w->bad: a state the memo does not cover. */
void nyz_memo_walk(nyz_memo_walker *w, nyz_machine *nm, sim_unit *u, nyz_core *c);
/* ... the same for n sets of one cache (live or a copy). */
void nyz_memo_walk_sets(nyz_memo_walker *w, const nyz_memo_view *v, const uint16_t *sets, unsigned n);
nyz_memo_view nyz_memo_live_view(nyz_cache *c);
void nyz_memo_caches(nyz_machine *nm, nyz_core *c, nyz_cache *out[3]); /* L1I, L1D, L2 */
int nyz_memo_view_alloc(nyz_memo_view *v, const nyz_cache *c);
void nyz_memo_view_copy(nyz_memo_view *v, const nyz_cache *c);

#endif
