/* tests/nyuzi/l2_rig.h: a Nyuzi machine for the memory-system tests that drive the timing
 * model directly (nyz_mem_timing, nyz_store_timing), as the pipeline does at an issue. */
#ifndef NYUZI_L2_RIG_H
#define NYUZI_L2_RIG_H
#include <string.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/nyuzi.h"

extern const isa_ops isa_nyuzi;

typedef struct rig {
    sim_machine m;
    nyz_machine *nm;
} rig;

/* A 1 MB cycle-model machine with the -o options in opts (NULL-terminated). */
static inline void rig_open(rig *r, const char *const *opts)
{
    char err[256];
    sim_opts o;
    memset(r, 0, sizeof *r);
    opt_init(&o);
    opt_parse(&o, "mem=0x100000");
    for (; opts && *opts; opts++)
        opt_parse(&o, *opts);
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    r->nm = r->m.isa_state;
    assert_int_equal(r->m.functional, 0);
}

/* Thread tid of core k issues the access `kind` (ef.mem `mem`, a word) of pa at cycle at:
 * the cycle it is suspended until (0: none), also left in its `blocked`. */
static inline uint64_t rig_access(rig *r, int k, int tid, int kind, int mem, uint32_t pa, uint64_t at)
{
    nyz_core *c = &r->nm->cores[k];
    nyz_thread *t = &c->t[tid];
    nyz_insn in;
    nyz_effect ef;
    unsigned lat = 0;
    memset(&in, 0, sizeof in);
    memset(&ef, 0, sizeof ef);
    in.kind = (uint8_t)kind;
    in.dst = 1;
    in.width = 4;
    ef.mem = (uint8_t)mem;
    ef.paddr = pa;
    r->nm->cur_cycle = at;
    if (kind == K_LOAD_SYNC || kind == K_STORE_SYNC) /* as exec_ops.inc hands it over */
        nyz_sync_request(r->nm, c, t, &in, pa, pa, 0x2000);
    t->blocked = nyz_mem_timing(r->nm, c, t, &in, &ef, at, &lat, &t->block_why);
    return t->blocked;
}
#endif
