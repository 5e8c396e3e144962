/* isa/mccp/arbiter.c: the round-robin RAM arbiter (MCCP/memory/arbiter.v) as one event.
 * The arbiter's 2-bit pointer increments at every clock edge at which it is idle and is
 * frozen during a transaction; an idle edge whose new pointer names a core with a visible
 * request is that core's grant G. The RAM answers at R = G+3 (G+4 for the very first
 * transaction after configuration, because time_spent starts at 0), only one transaction is
 * in flight for all cores, and the core's next save edge is R+5. Rather than ticking, the
 * arbiter computes the next grant from the pending requests and sleeps until then; a core
 * that requests later with an earlier grant moves the event. The access itself is applied
 * at G: transactions are serialised, so order and results are those of the RTL. */
#include "mccp.h"
#include "../../core/sched.h"

static unsigned ptr_at(const mccp_state *s, uint64_t t)
{
    return (s->arb_ref_ptr + (unsigned)((t - s->arb_ref_edge) & 3)) & 3;
}

uint64_t mccp_arb_next_grant(const mccp_state *s, int *core)
{
    uint64_t best = SIM_NEVER;
    *core = -1;
    for (int i = 0; i < MCCP_CORES; i++) {
        const mccp_core *c = &s->core[i];
        if (!c->req)
            continue;
        uint64_t lo = c->req_visible > s->arb_free ? c->req_visible : s->arb_free;
        uint64_t t = lo + (((unsigned)i - ptr_at(s, lo)) & 3);
        if (t < best) {
            best = t;
            *core = i;
        }
    }
    return best;
}

/* The event at the next grant (kept in arb_g, arb_next). The arbiter is the only event of
 * its priority, so moving it never reorders it against others: it is moved only when the
 * time changes. */
static void arb_at(sim_machine *m, mccp_state *s, uint64_t g)
{
    s->arb_g = g;
    if (s->in_cluster) /* cluster.c keeps the arbiter's place in its own order */
        return;
    if (g == SIM_NEVER)
        ev_cancel(&m->q, &s->arb_ev);
    else if (!ev_pending(&s->arb_ev) || s->arb_ev.when != g)
        sim_schedule(m, &s->arb_ev, g);
}

void mccp_arb_refresh(sim_machine *m)
{
    mccp_state *s = mccp_st(m);
    arb_at(m, s, mccp_arb_next_grant(s, &s->arb_next));
}

void mccp_arb_request(sim_machine *m, int core)
{
    mccp_state *s = mccp_st(m);
    mccp_core *c = &s->core[core];
    c->req = 1;
    /* the other requests' grants do not move: only this one can come first (grant
     * cycles of different cores differ, since the pointer names one core per cycle) */
    uint64_t lo = c->req_visible > s->arb_free ? c->req_visible : s->arb_free;
    uint64_t t = lo + (((unsigned)core - ptr_at(s, lo)) & 3);
    if (s->arb_next < 0 || t < s->arb_g) {
        s->arb_next = core;
        arb_at(m, s, t);
    }
}

void mccp_transact(sim_machine *m, int ci, uint64_t g)
{
    mccp_state *s = mccp_st(m);
    mccp_core *c = &s->core[ci];
    sim_unit *u = &m->units[ci];
    uint32_t a = c->req_addr & (MCCP_RAM_WORDS - 1);
    uint8_t *p = s->ram + (size_t)a * 4;
    if (c->req_write) {
        mem_st32le(p, c->req_data);
        u->counters[MCCP_CNT_STORES].value++;
    } else {
        uint32_t v = mem_ld32le(p);
        c->r[c->req_rd] = v; /* load ip,[x] sets ip with no adjustment */
        u->counters[MCCP_CNT_LOADS].value++;
    }
    u->counters[MCCP_CNT_GRANTS].value++;
    if (s->ram_space->nwatch && mem_watch_check(s->ram_space, a, 1, c->req_write ? MEM_W : MEM_R)) {
        mem_space *rs = s->ram_space;
        /* the access happens at the grant, not at the core's last issue */
        sim_set_stop_at(m, SIM_STOP_WATCH, ci, 0, c->mem_slot, g,
                        "watchpoint %d: %s of ram:0x%x by core %d (instruction at 0x%llx)", rs->watch_hit_id,
                        c->req_write ? "write" : "read", a, ci, (unsigned long long)c->mem_slot);
        rs->watch_hit_id = 0;
    }
}

int mccp_dump_next(const mccp_state *s, mccp_core *c)
{
    if (!c->dumping)
        return 0;
    if (c->dump_left == 0) {
        c->dumping = 0;
        if (s->sem == MCCP_SEM_DOC)
            c->wren_sticky = 0; /* documented mode: a load stays a load after a fault */
        return 0;
    }
    /* core.v at the response: counter--, sp++, next register, request still held */
    c->dump_left--;
    c->r[6]++;
    c->req_addr = c->r[6];
    switch (c->dump_left) {
    case 7: c->req_data = c->r[6]; break;
    case 6: c->req_data = c->r[5]; break;
    case 5: c->req_data = c->r[4]; break;
    case 4: c->req_data = c->r[3]; break;
    case 3: c->req_data = c->r[2]; break;
    case 2: c->req_data = c->r[1]; break;
    case 1: c->req_data = c->r[0]; break;
    default: /* 3'b1000 truncates to 0: ip is never saved; reg0 written again */
        c->r[7] = c->stack_exc_addr;
        c->half = 0;
        break;
    }
    c->wdata = c->req_data;
    c->req_write = 1;
    return 1;
}

int mccp_arb_grant(sim_machine *m, uint64_t g, uint64_t *wake)
{
    mccp_state *s = mccp_st(m);
    int ci = s->arb_next;
    mccp_core *c = &s->core[ci];
    sim_unit *u = &m->units[ci];
    sim_thread *th = &u->threads[0];
    mccp_transact(m, ci, g);
    uint64_t r = g + 3 + (s->arb_fresh ? 1 : 0);
    s->arb_fresh = 0;
    s->arb_ref_edge = r;
    s->arb_ref_ptr = (unsigned)ci;
    s->arb_free = r + 1;
    c->req = 0;
    if (!c->dumping || c->dump_left == 8) {
        /* an access, or the first write of a stack-fault dump (charged like one) */
        th->stalls[MCCP_STALL_ARBITER] += g - c->mem_save - 1;
        th->stalls[MCCP_STALL_MEMORY] += r - g + 2;
    } else {
        th->stalls[MCCP_STALL_EXCEPTION] += r - c->last_resp;
    }
    int woken = -1;
    if (mccp_dump_next(s, c)) {
        c->last_resp = r;
        c->req_visible = r + 1;
        c->req = 1;
    } else {
        c->waiting = 0;
        c->next_save = r + 5;
        *wake = r + 5;
        woken = ci;
    }
    mccp_arb_refresh(m);
    return woken;
}

static void arb_fire(ev_event *e, void *ctx)
{
    (void)e;
    sim_machine *m = ctx;
    mccp_state *s = mccp_st(m);
    uint64_t g = m->now, wake = 0;
    if (s->arb_next < 0 || s->arb_g != g) { /* not the grant it was scheduled for: recompute */
        mccp_arb_refresh(m);
        return;
    }
    int ci = mccp_arb_grant(m, g, &wake);
    if (ci >= 0)
        sched_wake(&m->units[ci], 0, wake);
}

int mccp_arb_init(sim_machine *m)
{
    mccp_state *s = mccp_st(m);
    s->arb_ref_edge = 0;
    s->arb_ref_ptr = s->phase & 3;
    s->arb_free = 1;
    s->arb_fresh = 1;
    s->arb_next = -1;
    s->arb_g = SIM_NEVER;
    return sim_register_event(m, &s->arb_ev, "mccp.arbiter", arb_fire, m, -1);
}
