/* tests/nyuzi/core_rig.h: one Nyuzi core of two threads stopped at the start of a cycle, for
 * the tests that step its pipeline cycle by cycle (fetch, issue): nops at 0x1000-0x11ff, all
 * of it in the L1I, both threads ready with empty instruction FIFOs and nothing to issue.
 * Each test then sets the threads' pcs, FIFOs and pointers its derivation starts from. */
#ifndef NYUZI_CORE_RIG_H
#define NYUZI_CORE_RIG_H
#include <string.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/nyuzi.h"

extern const isa_ops isa_nyuzi;

typedef struct core_rig {
    sim_machine m;
    sim_unit *u;
    nyz_core *c;
} core_rig;

/* The core at the start of cycle `at` (its threads' last issue at - 1). */
static inline void core_rig_open(core_rig *r, uint64_t at)
{
    char err[256];
    sim_opts o;
    memset(r, 0, sizeof *r);
    opt_init(&o);
    opt_parse(&o, "mem=0x100000");
    opt_parse(&o, "threads=2");
    opt_parse(&o, "nyuzi_memo=off");
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    nyz_machine *nm = r->m.isa_state;
    r->u = &r->m.units[0];
    r->c = r->u->isa;
    for (uint32_t a = 0x1000; a < 0x1200; a += 4) /* nop (or s0, s0, s0) everywhere */
        mem_st32le(nm->ram + a, 0);
    for (uint32_t a = 0x1000; a < 0x1200; a += 64) /* the lines in the L1I: fetches hit */
        nyz_cache_access(&r->c->l1i, a, 1, 0);
    for (int i = 0; i < 2; i++) {
        nyz_thread *t = &r->c->t[i];
        sim_thread *st = &r->u->threads[i];
        st->state = SIM_T_READY;
        st->ready_at = SIM_NEVER; /* nothing to issue at `at` */
        t->fe_sync = 0;
        t->fe_h = 0;
        t->fe_n = 0;
        t->iwait = 0;
        t->waste_at = 0;
        t->last_issue = at - 1;
    }
}

/* One cycle of the core. */
static inline void core_rig_cycle(core_rig *r, uint64_t now)
{
    isa_nyuzi.unit_run(&r->m, r->u, now, now + 1);
}

/* The cycles from..last of the core, one by one. */
static inline void core_rig_run(core_rig *r, uint64_t from, uint64_t last)
{
    for (uint64_t now = from; now <= last; now++)
        core_rig_cycle(r, now);
}
#endif
