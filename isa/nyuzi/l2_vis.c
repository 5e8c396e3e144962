/* isa/nyuzi/l2_vis.c: when a store becomes visible to the other threads. An instruction's
 * semantics run when it issues, so memory holds a store from its issue on; on the RTL the
 * store waits in the thread's store-queue entry (only its own thread's loads see it, through
 * the store-queue bypass) until the L2 has taken it and the acknowledgement writes the line
 * into the L1D of the storing core (and updates it in the other cores' L1Ds that hold it):
 * l1_store_queue.sv, l1_l2_interface.sv. Each store therefore leaves a record of the bytes it
 * overwrote; the store's timing (timing.c) says from which cycle the other threads see it,
 * and until then their loads read the old bytes. Records whose cycle has passed are dropped
 * (every other core has simulated at least up to the cycle of the load being executed, so
 * none can need them later). The functional mode (-o timing=none) keeps no records, nor
 * does a run in which only the first thread was ever started (CR 21). */
#include <string.h>
#include "nyuzi.h"

/* A record whose store was never timed (its thread trapped or was interrupted before the
 * replay of a store the queue had refused) shows after this many cycles, so no store stays
 * hidden for ever. */
enum { UNDO_MAX_WAIT = 1024 };

/* Drop the records that every thread now sees (cycle now). */
static void undo_prune(nyz_machine *nm, uint64_t now)
{
    unsigned k = 0;
    for (unsigned i = 0; i < nm->nundo; i++)
        if (nm->undo[i].vis > now && !(nm->undo[i].vis == UINT64_MAX && now > nm->undo[i].made + UNDO_MAX_WAIT)) {
            if (k != i)
                nm->undo[k] = nm->undo[i];
            k++;
        }
    nm->nundo = k;
}

/* Thread t is about to write len bytes at pa (one line; bytes: which of the line's bytes):
 * keep the old line. Called before the write. */
void nyz_undo_store(nyz_machine *nm, nyz_thread *t, uint32_t pa, unsigned len, uint64_t bytes)
{
    if (nm->m->functional || !nm->undo_on) /* one thread: nobody else can look */
        return;
    uint64_t now = nm->cur_cycle;
    if (t->undo) /* its previous store was not timed: it shows now */
        nyz_undo_visible(nm, t, now);
    if (nm->nundo == sizeof nm->undo / sizeof nm->undo[0])
        undo_prune(nm, now);
    if (nm->nundo == sizeof nm->undo / sizeof nm->undo[0]) { /* full: the oldest shows now */
        nm->undo[0].vis = 0;
        undo_prune(nm, now);
    }
    struct nyz_undo *u = &nm->undo[nm->nundo];
    u->line = pa & ~(uint32_t)(NYZ_LINE - 1);
    u->bytes = bytes;
    u->gid = t->gid;
    u->vis = UINT64_MAX;
    u->l2vis = UINT64_MAX;
    u->made = now;
    u->serial = ++nm->undo_serial ? nm->undo_serial : ++nm->undo_serial; /* never 0 */
    if (len == 4) /* (the common word store: no call) */
        memcpy(u->old + (pa - u->line), nm->ram + pa, 4);
    else
        memcpy(u->old + (pa - u->line), nm->ram + pa, len); /* only the bytes it writes */
    t->undo = u->serial;
    nm->nundo++;
}

/* Thread t's newest store is seen by the others' loads from cycle vis on, by a load_sync at
 * the L2 from l2vis on. */
void nyz_undo_visible_l2(nyz_machine *nm, nyz_thread *t, uint64_t vis, uint64_t l2vis)
{
    if (!t->undo)
        return;
    for (unsigned i = nm->nundo; i-- > 0;)
        if (nm->undo[i].serial == t->undo) {
            nm->undo[i].vis = vis;
            nm->undo[i].l2vis = l2vis;
            break;
        }
    t->undo = 0;
}

/* Thread t's newest store is seen by the others from cycle vis on. */
void nyz_undo_visible(nyz_machine *nm, nyz_thread *t, uint64_t vis)
{
    nyz_undo_visible_l2(nm, t, vis, vis);
}

/* buf holds the len bytes at pa as memory has them (one line at most); put back the bytes
 * of other threads' stores that thread t does not see yet, newest first. */
void nyz_undo_read(nyz_machine *nm, const nyz_thread *t, uint32_t pa, unsigned len, uint8_t *buf)
{
    uint64_t now = nm->cur_cycle;
    undo_prune(nm, now);
    uint32_t line = pa & ~(uint32_t)(NYZ_LINE - 1), off = pa - line;
    for (unsigned i = nm->nundo; i-- > 0;) {
        const struct nyz_undo *u = &nm->undo[i];
        if (u->line != line || u->gid == t->gid)
            continue;
        for (unsigned b = 0; b < len; b++)
            if ((u->bytes >> (off + b)) & 1)
                buf[b] = u->old[off + b];
    }
}

/* As nyz_undo_read for a read at cycle `at` that may lie ahead of the cycle being executed
 * (the L2's read stage of a synchronized load, l2_sync.c): nothing is dropped, and only
 * stores the L2 holds after `at` are put back (a store_sync granted before it is there,
 * though the L1Ds get it a few cycles later). */
void nyz_undo_read_at(const nyz_machine *nm, const nyz_thread *t, uint32_t pa, unsigned len,
                      uint8_t *buf, uint64_t at)
{
    uint32_t line = pa & ~(uint32_t)(NYZ_LINE - 1), off = pa - line;
    for (unsigned i = nm->nundo; i-- > 0;) {
        const struct nyz_undo *u = &nm->undo[i];
        if (u->line != line || u->gid == t->gid || u->l2vis <= at)
            continue;
        for (unsigned b = 0; b < len; b++)
            if ((u->bytes >> (off + b)) & 1)
                buf[b] = u->old[off + b];
    }
}
