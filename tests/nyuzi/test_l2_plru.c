/* tests/nyuzi/test_l2_plru.c: the L2's pseudo-LRU replacement for 8 ways when a way is
 * used twice in a row (isa/nyuzi/cache.c touch and nyz_cache_access's fast path for the
 * set's last way). The rule, from cache_lru.sv (8 ways, flags bits 6..0, all 0 after reset):
 *   fill way:  00?0??? -> 0, 10?0??? -> 1, ?100??? -> 2, ?110??? -> 3,
 *              ???100? -> 4, ???110? -> 5, ???1?10 -> 6, ???1?11 -> 7
 *   update for the way used (its new flags from the old f):
 *     0: {1, 1, f5, 1, f2 f1 f0}      1: {0, 1, f5, 1, f2 f1 f0}
 *     2: {f6, 0, 1, 1, f2 f1 f0}      3: {f6, 0, 0, 1, f2 f1 f0}
 *     4: {f6 f5 f4, 0, 1, 1, f0}      5: {f6 f5 f4, 0, 0, 1, f0}
 *     6: {f6 f5 f4, 0, f2, 0, 1}      7: {f6 f5 f4, 0, f2, 0, 0}
 * The update for way 0 or 1 copies the old bit 5 into bit 4, so using way 0 (or 1) a
 * second time can change the flags: a hit on the way a fill just took is not a no-op.
 * (RTL trace of vstream on 2 cores x 4 threads: code line 0x0 filled into way 0 of set 0,
 * hit there by the other core's fetch, then eight whole-line stores' fills take ways
 * 4 3 6 1 5 2 7 0; the eighth evicts the code line, no write-back. With the hit taken as
 * a no-op the sixth fill evicted a dirty data line, 0x100000.) */
#include "../testlib.h"
#include "../../isa/nyuzi/nyuzi.h"

enum { LINE = 64, WAYS = 8 };

/* One set of eight 64-byte ways; line k at address k * 64. */
static void one_set(nyz_cache *c)
{
    assert_int_equal(nyz_cache_init(c, WAYS * LINE, WAYS, LINE), 0);
}

/* A (fill) then A (hit), then B and C (fills), flags from 0000000:
 *   fill A: 00?0??? -> way 0; update 0: {1,1,f5=0,1,000} = 1101000
 *   hit A:  update 0 again: {1,1,f5=1,1,000} = 1111000  (unchanged only if bit 4 was 1)
 *   fill B: 1111000 = ???100? -> way 4; update 4: {111,0,1,1,f0=0} = 1110110
 *   fill C: 1110110 = ?110??? -> way 3 (bit 5 = 1, bit 4 = 1, bit 3 = 0).
 * (Without the second update: B from 1101000 -> way 4, flags {110,0,1,1,0} = 1100110,
 * which is ?100??? -> C in way 2.) */
static void test_second_hit_moves_bit4(void **state)
{
    (void)state;
    nyz_cache c;
    one_set(&c);
    assert_int_equal(nyz_cache_access(&c, 1 * LINE, 1, 0), 0);
    assert_int_equal(c.last_way, 0);
    assert_int_equal(nyz_cache_access(&c, 1 * LINE, 1, 0), 1);
    assert_int_equal(c.plru[0], 0x78); /* 1111000 */
    assert_int_equal(nyz_cache_access(&c, 2 * LINE, 1, 0), 0);
    assert_int_equal(c.last_way, 4);
    assert_int_equal(c.plru[0], 0x76); /* 1110110 */
    assert_int_equal(nyz_cache_access(&c, 3 * LINE, 1, 0), 0);
    assert_int_equal(c.last_way, 3);
    nyz_cache_free(&c);
}

/* vstream.c2t4's set 0: the code line K filled and hit, then eight fills D1..D8:
 *   K fill 0 -> 1101000, K hit -> 1111000
 *   D1: ???100? -> 4; {111,0,1,1,0} = 1110110
 *   D2: ?110??? -> 3; {1,0,0,1,110} = 1001110
 *   D3: ???1?10 -> 6; {100,0,f2=1,0,1} = 1000101
 *   D4: 10?0??? -> 1; {0,1,f5=0,1,101} = 0101101
 *   D5: ???110? -> 5; {010,0,0,1,1} = 0100011
 *   D6: ?100??? -> 2; {0,0,1,1,011} = 0011011
 *   D7: ???1?11 -> 7; {001,0,f2=0,0,0} = 0010000
 *   D8: 00?0??? -> 0: K's way, every data line kept.
 * A third hit on way 0 right after the second changes nothing (bit 4 = bit 5 = 1): the
 * fast path may skip it. */
static void test_vstream_set0(void **state)
{
    (void)state;
    static const int want[8] = {4, 3, 6, 1, 5, 2, 7, 0};
    nyz_cache c;
    one_set(&c);
    nyz_cache_access(&c, 0, 1, 0);
    assert_int_equal(nyz_cache_access(&c, 0, 1, 0), 1);
    assert_int_equal(nyz_cache_access(&c, 0, 1, 0), 1);
    assert_int_equal(c.plru[0], 0x78);
    for (int k = 0; k < 8; k++) {
        assert_int_equal(nyz_cache_access(&c, (uint32_t)(k + 1) * LINE, 1, 1), 0);
        assert_int_equal(c.last_way, want[k]);
    }
    assert_int_equal(c.tag[0], 8u); /* D8 took the code line's way */
    for (int k = 1; k < 8; k++)
        assert_true(nyz_cache_probe(&c, (uint32_t)k * LINE));
    nyz_cache_free(&c);
}

XPUSIM_TESTS(nyuzi_l2_plru,
             cmocka_unit_test(test_second_hit_moves_bit4),
             cmocka_unit_test(test_vstream_set0))
