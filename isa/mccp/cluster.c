/* isa/mccp/cluster.c: the four cores and the arbiter run from one unit event, in the order
 * the event queue would give them, without the queue. On memory-bound code every store is
 * a core going to sleep, an arbiter event and a wake-up event: three heap operations and
 * two trips through the run loop per store. Here the cores' next events (cycle and the
 * queue's insertion number, taken from the queue's own counter as ev_schedule would) and
 * the arbiter's next grant are kept in five local slots; the next one in (cycle, priority
 * (arbiter -1, cores 0), insertion) order runs, exactly as sim_run would pop it, with the
 * horizon unit_event would compute (the nearest other slot or queued event), and each
 * core's `reached` is kept as unit_event keeps it, so statistics and stops are the same
 * cycle for cycle. The loop ends before the first event that is not the MCCP's (the
 * watchdog, a frame), past the run's cycle limit, at any stop and after any `int` (the
 * warm restart wakes the cores through the queue), and puts the slots back in the queue
 * in their order. Only plain runs come here (no debugger feature but a profile, no
 * instruction limit, no progress reports, no fast-forward, not functional): those need
 * the queue between events. */
#include "mccp.h"
#include "../../core/sched.h"

/* a before b in the queue's order (cycle, priority, insertion) */
static int before(uint64_t wa, int pa, uint64_t sa, uint64_t wb, int pb, uint64_t sb)
{
    if (wa != wb)
        return wa < wb;
    if (pa != pb)
        return pa < pb;
    return sa < sb;
}

/* sim_unit_wake of unit j at `when` on the slots */
static inline __attribute__((always_inline)) void wake_slot(sim_machine *m, mccp_state *s, int j, uint64_t when)
{
    const sim_unit *u = &m->units[j];
    if (u->halted || !u->enabled)
        return;
    if (s->cl_when[j] <= when) /* (SIM_NEVER: none) */
        return;
    s->cl_when[j] = when;
    s->cl_seq[j] = m->q.next_seq++;
}

/* One unit event of core j at m->now with horizon h, as unit_event runs it (the burst as
 * mccp_core_burst computes it for a plain run, through the loop run chose once). Returns 1
 * if a warm restart began (it wakes the cores through the queue). */
static inline __attribute__((always_inline)) int core_event(sim_machine *m, mccp_state *s, int j, uint64_t h,
                                                            uint64_t lim, mccp_fast_fn run)
{
    sim_unit *u = &m->units[j];
    const mccp_core *c = &s->core[j];
    unsigned runs = s->runs_left;
    uint64_t t = c->next_save > m->now ? c->next_save : m->now;
    /* a core may run past other units' events, in bursts of at most 2^22 cycles (Ctrl-C) */
    uint64_t l = lim - t > ((uint64_t)1 << 22) ? t + ((uint64_t)1 << 22) : lim;
    uint64_t next = run(m, u, t, l < h ? h : l, NULL);
    if (next != SIM_NEVER) {
        uint64_t r = next < h ? next : h;
        if (r && r - 1 > u->reached)
            u->reached = r - 1;
        if (!u->halted && u->enabled)
            wake_slot(m, s, j, next);
    }
    return s->runs_left != runs;
}

uint64_t mccp_cluster_run(sim_machine *m, sim_unit *u0, uint64_t now, uint64_t horizon)
{
    mccp_state *s = mccp_st(m);
    uint64_t *const when = s->cl_when, *const seq = s->cl_seq;
    (void)now; /* = m->now, the event's cycle */
    /* take the cores' and the arbiter's events off the queue */
    for (int j = 0; j < MCCP_CORES; j++) /* (on the queue, or on the run loop's ring) */
        if (!sim_unit_event_take(m, &m->units[j], &when[j], &seq[j]))
            when[j] = SIM_NEVER;
    ev_cancel(&m->q, &s->arb_ev);
    mccp_fast_sync(m);
    s->in_cluster = 1;
    const uint64_t lim = m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1;
    const mccp_fast_fn run = mccp_fast_loop(m);
    /* the queue's first event: nothing in this loop schedules on the queue (the arbiter
     * stays off it, a warm restart ends the loop), so it stays the first */
    const ev_event *x = ev_peek(&m->q);
    const uint64_t xw = s->cl_xw = x ? x->when : SIM_NEVER;
    const int xp = s->cl_xp = x ? x->prio : 0;
    const uint64_t xs = s->cl_xs = x ? x->seq : 0;
    /* the event being run: core u0 at now with the horizon unit_event gave it */
    int ended = core_event(m, s, u0->index, horizon, lim, run);
    while (!ended && !sim_stopped(m)) {
        /* the next event among the arbiter (priority -1: first at equal cycles) and the
         * cores (priority 0, then insertion) */
        int pick = -1; /* -1 the arbiter, else a core */
        uint64_t w = s->arb_g, sq = 0;
        for (int j = 0; j < MCCP_CORES; j++) {
            uint64_t ew = when[j];
            if (ew < w || (ew == w && pick >= 0 && seq[j] < sq)) {
                pick = j;
                w = ew;
                sq = seq[j];
            }
        }
        if (w == SIM_NEVER || w > m->limit || !before(w, pick < 0 ? -1 : 0, sq, xw, xp, xs))
            break; /* sim_run takes it from here (x == NULL: xw is SIM_NEVER, w is less) */
        m->now = w;
        if (pick < 0) {
            uint64_t wake = 0;
            int ci = mccp_arb_grant(m, w, &wake);
            if (ci >= 0) {
                sim_thread *th = &m->units[ci].threads[0];
                if (th->state == SIM_T_SLEEP || th->state == SIM_T_READY) { /* sched_wake */
                    th->state = SIM_T_READY;
                    th->ready_at = wake;
                    wake_slot(m, s, ci, wake);
                }
            }
            continue;
        }
        when[pick] = SIM_NEVER;
        /* horizon_for: the next event left, at least the next cycle, within the limit */
        uint64_t h = xw < s->arb_g ? xw : s->arb_g;
        for (int j = 0; j < MCCP_CORES; j++)
            if (when[j] < h)
                h = when[j];
        if (h <= w)
            h = w + 1;
        if (lim < h)
            h = lim;
        if (!m->units[pick].halted && m->units[pick].enabled)
            ended = core_event(m, s, pick, h, lim, run);
    }
    /* back to the queue, in the order the slots hold */
    s->in_cluster = 0;
    for (;;) {
        int best = -1;
        for (int j = 0; j < MCCP_CORES; j++)
            if (when[j] != SIM_NEVER && (best < 0 || before(when[j], 0, seq[j], when[best], 0, seq[best])))
                best = j;
        if (best < 0)
            break;
        sim_unit_wake(m, &m->units[best], when[best]);
        when[best] = SIM_NEVER;
    }
    if (s->arb_g != SIM_NEVER)
        sim_schedule(m, &s->arb_ev, s->arb_g);
    return SIM_NEVER;
}

/* The grant of core ci's request inside its burst (the fast loop's load or store, called
 * right after ci's request, the core asleep), and ci's next burst at once, when the cluster
 * would run the two next with nothing between them that could tell: ci's request is the
 * arbiter's next grant g (a core without an event is asleep on a request granted after
 * ci's, done or halted); every other core's next event comes after ci's at its next save
 * edge w > g (their bursts would run first: their output, a stop they make; and a request
 * of theirs is seen after its access, so after w: not before g); and no event of the queue
 * (a frame, the watchdog, the run's end) comes first, nor the cycle limit. The arbiter's
 * grants between g and w (other cores', granted later than ci's) are events that neither
 * read nor change ci, and the grants do not depend on the order in which requests were
 * made (the arbiter recomputes them from the pending requests), so ci may run on before
 * them. Then the grant is made as arb_fire makes it,
 * the core is woken as the cluster wakes it (the insertion number its wake-up would take
 * is taken), and it goes on from w in the same burst: the burst's exit, the cluster's two
 * picks and the burst's entry are saved. Returns w, or SIM_NEVER (nothing done). */
uint64_t mccp_cluster_grant(sim_machine *m, int ci)
{
    mccp_state *s = mccp_st(m);
    const uint64_t g = s->arb_g;
    if (s->arb_next != ci || g > m->limit || s->ram_space->nwatch || sim_stopped(m))
        return SIM_NEVER; /* (a watchpoint at a grant stops the run there) */
    const uint64_t w = g + 3 + (s->arb_fresh ? 1 : 0) + 5; /* (mccp_arb_grant: R + 5) */
    for (int j = 0; j < MCCP_CORES; j++)
        if (j != ci && s->cl_when[j] <= w)
            return SIM_NEVER;
    if (w > m->limit || !before(w, 0, m->q.next_seq, s->cl_xw, s->cl_xp, s->cl_xs))
        return SIM_NEVER; /* (the grant first: g < w) */
    uint64_t wake = 0;
    if (mccp_arb_grant(m, g, &wake) != ci || wake != w)
        return SIM_NEVER; /* (not reached: the fast loop starts no stack-fault dump) */
    sim_thread *th = &m->units[ci].threads[0];
    th->state = SIM_T_READY;
    th->ready_at = wake;
    m->q.next_seq++; /* the number the core's wake-up event would have taken */
    return wake;
}
