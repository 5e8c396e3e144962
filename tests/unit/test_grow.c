/* tests/unit/test_grow.c: core/grow.c. From nothing the capacity is the first size, then it
 * doubles (16 -> 32 -> 64), jumping further when one step needs more; a block with room comes
 * back as it is; a size that cannot be represented (elements x bytes past SIZE_MAX, an int
 * capacity past INT_MAX) is refused with the old block and capacity untouched; near the
 * limit the capacity stops at it instead of wrapping (grow_cap, the sizes alone). */
#include <limits.h>
#include <stdint.h>
#include "../testlib.h"
#include "../../core/grow.h"

static void test_grow_sizes(void **state)
{
    (void)state;
    size_t cap = 0;
    int *v = grow_array(NULL, &cap, 1, sizeof *v, 16);
    assert_non_null(v);
    assert_int_equal(cap, 16);
    v[15] = 7;
    assert_ptr_equal(grow_array(v, &cap, 16, sizeof *v, 16), v); /* room: the same block */
    assert_int_equal(cap, 16);
    v = grow_array(v, &cap, 17, sizeof *v, 16);
    assert_non_null(v);
    assert_int_equal(cap, 32);
    assert_int_equal(v[15], 7); /* the contents move with the block */
    v = grow_array(v, &cap, 100, sizeof *v, 16);
    assert_non_null(v);
    assert_int_equal(cap, 128);
    v[127] = 1;
    /* not representable: refused, the block and its capacity as they were */
    assert_null(grow_array(v, &cap, SIZE_MAX / 2, sizeof *v, 16));
    assert_int_equal(cap, 128);
    assert_int_equal(v[15], 7);
    assert_null(grow_array(v, &cap, 200, 0, 16));
    assert_int_equal(cap, 128);
    free(v);
}

static void test_grow_int(void **state)
{
    (void)state;
    int cap = 0;
    char *b = grow_array_int(NULL, &cap, 5, 1, 4);
    assert_non_null(b);
    assert_int_equal(cap, 8);
    b[7] = 'x';
    b = grow_array_int(b, &cap, 9, 1, 4);
    assert_non_null(b);
    assert_int_equal(cap, 16);
    assert_int_equal(b[7], 'x');
    assert_null(grow_array_int(b, &cap, -1, 1, 4));
    assert_null(grow_array_int(b, &cap, 0x7fffffff, SIZE_MAX / 2, 4)); /* bytes past SIZE_MAX */
    assert_int_equal(cap, 16);
    free(b);
}

static void test_grow_cap(void **state)
{
    (void)state;
    assert_int_equal(grow_cap(0, 1, 8, 16, SIZE_MAX), 16);
    assert_int_equal(grow_cap(16, 17, 8, 16, SIZE_MAX), 32);
    assert_int_equal(grow_cap(16, 100, 8, 16, SIZE_MAX), 128);
    assert_int_equal(grow_cap(0, 1, 8, 0, SIZE_MAX), 1);
    /* an int capacity stops at INT_MAX instead of doubling past it */
    assert_int_equal(grow_cap(0x40000001, 0x40000002, 1, 4, INT_MAX), INT_MAX);
    assert_int_equal(grow_cap(0x40000001, INT_MAX, 1, 4, INT_MAX), INT_MAX);
    assert_int_equal(grow_cap(16, (size_t)INT_MAX + 1, 1, 4, INT_MAX), 0);
    /* bytes: the capacity stops where SIZE_MAX bytes end; need past that is refused */
    assert_int_equal(grow_cap(SIZE_MAX / 16 / 2 + 1, SIZE_MAX / 16 / 2 + 2, 16, 4, SIZE_MAX), SIZE_MAX / 16);
    assert_int_equal(grow_cap(16, SIZE_MAX / 16 + 1, 16, 4, SIZE_MAX), 0);
    assert_int_equal(grow_cap(16, 17, 0, 4, SIZE_MAX), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_sizes),
        cmocka_unit_test(test_grow_int),
        cmocka_unit_test(test_grow_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
