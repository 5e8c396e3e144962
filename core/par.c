/* core/par.c: a loop over independent items on the machine's -o jobs=N host threads, for
 * set-up work that is the same per unit and touches only that unit (an ISA's creation of
 * thousands of DPUs, a program's copy into each): the first touch of their memory, which
 * the system pays for page by page, is what made such set-up serial time (issue 9 pt 5).
 * Items are claimed one at a time from a shared counter, so a host thread slowed by the
 * host's other work takes fewer of them. The result does not depend on N: the items are
 * independent, and of several failures the one with the lowest index is reported, because
 * once an item fails no item above it is started and every item below it was claimed
 * before it and runs to its end. */
#include <pthread.h>
#include <stdio.h>
#include "sim.h"

#define PAR_JOBS_MAX 64 /* more host threads than this gain nothing in set-up */
#define PAR_MIN_ITEMS 64 /* fewer items than this: this thread (a thread's start costs ~50 us) */

typedef struct par_loop {
    sim_par_fn fn;
    void *ctx;
    int end;
    int next;  /* the next item to claim (atomic) */
    int fail;  /* the lowest failed item so far, end if none (atomic) */
} par_loop;

typedef struct par_worker {
    par_loop *loop;
    int fail;                   /* this worker's lowest failed item, loop->end if none */
    char err[256];              /* its message */
    pthread_t tid;
    int started;
} par_worker;

static void *par_work(void *arg)
{
    par_worker *w = arg;
    par_loop *l = w->loop;
    for (;;) {
        int i = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
        if (i >= l->end || i > __atomic_load_n(&l->fail, __ATOMIC_ACQUIRE))
            return NULL;
        if (!l->fn(l->ctx, i, w->err, sizeof w->err))
            continue;
        w->fail = i; /* claims rise: this worker's first failure is its lowest */
        int seen = __atomic_load_n(&l->fail, __ATOMIC_RELAXED);
        while (i < seen && !__atomic_compare_exchange_n(&l->fail, &seen, i, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
        }
        return NULL;
    }
}

int sim_par_for(const sim_machine *m, int first, int end, sim_par_fn fn, void *ctx, char *err, size_t errlen)
{
    if (first >= end)
        return 0;
    int jobs = m->jobs > 1 && end - first >= PAR_MIN_ITEMS ? m->jobs : 1;
    if (jobs > PAR_JOBS_MAX) /* (then below the items' count too) */
        jobs = PAR_JOBS_MAX;
    if (jobs == 1) { /* this thread, in order, stopping at the first failure */
        for (int i = first; i < end; i++)
            if (fn(ctx, i, err, errlen))
                return -1;
        return 0;
    }
    par_loop l = {fn, ctx, end, first, end};
    par_worker w[PAR_JOBS_MAX];
    for (int k = 0; k < jobs; k++) {
        w[k].loop = &l;
        w[k].fail = end;
        w[k].err[0] = 0;
        /* a thread that cannot start leaves its share to the others */
        w[k].started = k && !pthread_create(&w[k].tid, NULL, par_work, &w[k]);
    }
    par_work(&w[0]);
    for (int k = 1; k < jobs; k++)
        if (w[k].started)
            pthread_join(w[k].tid, NULL);
    if (l.fail == end)
        return 0;
    for (int k = 0; k < jobs; k++)
        if (w[k].fail == l.fail && err && errlen)
            snprintf(err, errlen, "%s", w[k].err);
    return -1;
}
