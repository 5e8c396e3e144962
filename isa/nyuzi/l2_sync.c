/* isa/nyuzi/l2_sync.c: load_sync and store_sync decided where the RTL decides them, at the
 * L2's read stage, in the order the L2's arbiter takes the requests. On the RTL
 * (l2_cache_read_stage.sv) a load_sync sets its thread's reservation and reads the line when
 * its request reaches the read stage, and a store_sync succeeds there if its thread's
 * reservation still holds (a success, or a plain store, clears every reservation of the
 * line). The requests get there through the L2's one arbiter (l2_cache_arb_stage.sv, round
 * robin between cores), each core offering a load miss (a load_sync is one) before its code
 * line before its store queue (a store_sync is in it), each queue choosing its thread round
 * robin (l1_l2_interface.sv, rr_arbiter.sv with update_lru = 1): bus_log.c's nyz_arb_run,
 * where every synchronized request is an entry (timing.c nyz_sync_timing), hit or miss, as
 * loads, code lines and stores are. The cycle model executes the instruction at its first
 * issue (exec_ops.inc hands the request here instead of deciding), so its outcome is decided
 * later: here, once its grant is before the cycle a request issued now could reach the L2
 * (nyz_sync_settle: loads, plain stores and the thread's replay call it), or when bus_log
 * makes the grant final. A decided request writes memory, the reservation and the thread's
 * result register; its answer's cycle (the thread's replay) follows its grant and moves
 * with it until the thread replays. */
#include <string.h>
#include "exec_ops.h"
#ifdef NYZ_MEMTRACE /* -DNYZ_MEMTRACE: every grant on stderr (timing.c prints the bus) */
#include <stdio.h>
#endif

/* A synchronized request reaches the L2 NYZ_FQ_REQ cycles after it issues, as a load miss
 * does (measured: eight threads' load_sync requests reach the L2 on eight consecutive
 * cycles); the answer lets its thread replay sync_latency - SYNC_PATH cycles after the
 * cycle after its grant, so an uncontended request to a line the L2 holds replays
 * sync_latency cycles after its issue (the probe sy: 10). */
enum { SYNC_PATH = 4 };
/* Other threads see a successful store_sync this many cycles before its thread replays
 * (as timing.c's VIS_BEFORE_ACK for stores: the answer writes the L1Ds). */
enum { SYNC_VIS_BEFORE = 3 };
static unsigned sync_path(const nyz_machine *nm)
{
    return nm->tm.sync_lat < SYNC_PATH ? nm->tm.sync_lat : SYNC_PATH;
}

void nyz_sync_request(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in,
                      uint32_t va, uint32_t pa, uint32_t pc)
{
    nyz_sreq *r = &nm->sreq[t->gid];
    if (!r->on)
        nm->sa_npend++;
    r->on = 1;
    r->store = in->kind == K_STORE_SYNC;
    r->dst = in->dst;
    r->width = in->width;
    r->sext = in->sext;
    r->pa = pa;
    r->va = va;
    r->pc = pc;
    r->data = t->s[in->dst];
    r->core = (uint8_t)c->index;
    r->tid = (uint8_t)(t - c->t);
    r->made = nm->cur_cycle;
    r->wake = 0; /* (bus_log.c sets it when it reads the request: nyz_sync_wake) */
    r->again = 0;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu SREQ c%d t%d %s\n", (unsigned long long)nm->cur_cycle, r->core, r->tid, r->store ? "store_sync" : "load_sync");
#endif
    nm->sync_used = 1; /* plain stores settle the arbiter before they clear reservations */
}

/* Thread t's load_sync, decided, sent to the L2 once more by its replay at cycle now
 * (timing.c nyz_replay_timing: the RTL's replay missed, dd_load_sync_pending clear): the
 * same request, a new entry; its result written again, as the RTL's second response. */
void nyz_sync_again(nyz_machine *nm, nyz_thread *t, uint64_t now)
{
    nyz_sreq *r = &nm->sreq[t->gid];
    if (!r->on)
        nm->sa_npend++;
    r->on = 1;
    r->again = 1;
    r->made = nm->cur_cycle = now;
    r->wake = 0;
    nm->sync_used = 1;
}

/* The request of thread g granted at cycle `at`: decided as the L2's read stage does. */
static void decide(nyz_machine *nm, int g, uint64_t at)
{
    nyz_sreq *r = &nm->sreq[g];
    nyz_core *c = &nm->cores[r->core];
    nyz_thread *t = &c->t[r->tid];
    uint32_t line = r->pa & ~(uint32_t)(NYZ_LINE - 1);
    uint64_t wake = r->wake;
    uint8_t *p = nm->ram + r->pa;
    r->on = 0;
    nm->sa_npend--;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu GRANT c%d t%d %s ok%d\n", (unsigned long long)at, r->core, r->tid,
            r->store ? "store_sync" : "load_sync", r->store ? t->sync_line == line : 1);
#endif
    if (!r->store) {
        uint8_t buf[4];
        uint32_t v;
        memcpy(buf, p, r->width);
        if (nm->nundo) /* stores the L2 has not taken yet */
            nyz_undo_read_at(nm, t, r->pa, r->width, buf, at);
        if (r->width == 4)
            v = mem_ld32le(buf);
        else if (r->width == 2)
            v = r->sext ? (uint32_t)(int32_t)(int16_t)mem_ld16le(buf) : mem_ld16le(buf);
        else
            v = r->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
        t->sync_line = line;
        nm->sync_used = 1;
        nyz_set_s(nm, t, r->pc, r->dst, v, nm->cosim != NULL && !r->again);
        return;
    }
    uint32_t ok = t->sync_line == line;
    if (ok) {
        nyz_undo_store(nm, t, r->pa, r->width, ((1ull << r->width) - 1) << (r->pa & (NYZ_LINE - 1)));
        if (r->width == 4)
            mem_st32le(p, r->data);
        else if (r->width == 2)
            mem_st16le(p, (uint16_t)r->data);
        else
            p[0] = (uint8_t)r->data;
        nyz_invalidate_sync(nm, r->pa);
        nyz_undo_visible_l2(nm, t, wake - SYNC_VIS_BEFORE, at);
        if (nm->cosim)
            nyz_cosim_store(nm, r->pc, t->gid, r->va, r->width, r->data);
    }
    t->s[r->dst] = ok; /* the success flag is not a cosim event (as exec_ops.inc) */
}

/* The cycle the thread of synchronized request e (bus_log.c) replays if its line is there
 * for it at done: sync_latency - SYNC_PATH after its arbiter cycle (its grant + 1), plus how
 * much later than an L2 hit at its bus time the line is there. */
uint64_t nyz_sync_wake(const nyz_machine *nm, const nyz_bus_ent *e, uint64_t done)
{
    uint64_t base = e->b - e->bus + nm->tm.l2_lat;
    return e->b - NYZ_FQ_REQ + 1 + (nm->tm.sync_lat - sync_path(nm)) + (done > base ? done - base : 0);
}

/* Request e of bus_log granted at L2 cycle y (e->b - NYZ_FQ_REQ): decided if it is still the
 * thread's open one (not decided before). */
void nyz_sync_grant(nyz_machine *nm, const nyz_bus_ent *e)
{
    int g = nm->cores[e->core].t[e->tid].gid;
    const nyz_sreq *r = &nm->sreq[g];
    if (r->on && r->made == e->issue)
        decide(nm, g, e->b - NYZ_FQ_REQ + 1);
}

/* Decide, in grant order, every request whose grant (as bus_log has it now) comes before the
 * cycle a request issued at `now` (by any core) could reach the L2. */
void nyz_sync_settle(nyz_machine *nm, uint64_t now)
{
    for (unsigned k = 0; k < nm->bus_n && nm->sa_npend; k++) {
        const nyz_bus_ent *e = &nm->bus_log[k];
        if (e->kind == NYZ_RP_SYNC && e->b - NYZ_FQ_REQ < now + NYZ_FQ_REQ)
            nyz_sync_grant(nm, e);
    }
}
