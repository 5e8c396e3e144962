/* tests/nyuzi/test_l2_restart_use.c: two rules of the L2's fill FIFO restarts (session 38,
 * helper vs; RTL trace of vstream.c2t4, docs/validation/nyuzi.md 5b "Session 38 (vs)"):
 * - a collided miss's restart hits and is a use of its L2 way (l2_cache_read_stage.sv
 *   update_lru_en = cache_hit for loads and stores): the pseudo-LRU (cache_lru.sv, 8 ways,
 *   flags 0 after reset) sees the line's way 0 used twice, fill then hit;
 * - a write-back waiting behind a whole-line store's restart R starts its address phase no
 *   sooner than R + 3 (READ_COMPLETE at R, IDLE, WRITE_ISSUE_ADDRESS: restarts 597 and 599,
 *   AW 602), in the model's time (a transfer's start is its address phase - 3, plus its row's
 *   cycles) at R + the row's cycles.
 * The expected values are derived by hand in each test. */
#include "l2_rig.h"

enum { DATA = 0x10000 };

/* Core 0's load of DATA at 100 misses (bus time 106: fill, way 0 of its set, flags
 * 0000000 -> {1,1,f5=0,1,000} = 1101000 = 0x68); core 1's load of it at 101 is a collided
 * miss (the line's fill not in the L2's tags when it is made), restarted after the read,
 * where it hits way 0: flags {1,1,f5=1,1,000} = 1111000 = 0x78 once the grants are final.
 * Without the use the flags stay 0x68 (and the next fills of the set take ways 4 2 6 1 5 2,
 * not 4 3 6 1 5 2 7 0: tests/nyuzi/test_l2_plru.c). */
static void test_collided_restart_uses_way(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    rig_access(&r, 0, 0, K_LOAD, 1, DATA, 100);
    rig_access(&r, 1, 0, K_LOAD, 1, DATA, 101);
    nyz_bus_fix(r.nm); /* every grant final */
    nyz_cache *l2 = &r.nm->l2;
    unsigned set = (DATA >> l2->line_shift) & (l2->sets - 1);
    assert_true(nyz_cache_probe(l2, DATA));
    assert_int_equal(l2->tag[set * l2->ways], DATA >> l2->line_shift);
    assert_int_equal(l2->plru[set], 0x78);
    sim_destroy(&r.m);
}

/* A whole-line store taken at acc 100 restarts at R = 100 + store_lat + RESTART_PASS (5)
 * - STORE_RST_ACK (7) (its acknowledgement less 7), the fill FIFO empty. A write-back
 * ready at R - 1 then starts (model's time) at R, and its first burst opens bank 0's closed
 * row (2 cycles, SDRAM idle, refresh at 750 far): start R + 2. Without the rule it started
 * at R - 1 + 2 = R + 1. */
static void test_write_back_after_restart(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    uint64_t ack = nyz_store_restart(r.nm, 100, -1, 0, 0xffffffffu);
    uint64_t rs = 100 + r.nm->tm.store_lat + 5 - 7;
    assert_int_equal(ack, rs + 7);
    assert_int_equal(nyz_bus_write(r.nm, DATA, rs - 1), rs + 2);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_restart_use,
             cmocka_unit_test(test_collided_restart_uses_way),
             cmocka_unit_test(test_write_back_after_restart))
