/* tests/mccp/test_programs.c: the programs in programs/mccp/, end to end.
 * Each program is assembled from its source, run on 4 cores with its input file, and its
 * RAM results are compared with values computed here in C from the same inputs (so the
 * check does not depend on our simulator's output). Cycle counts of these programs are
 * validated against the HEAD RTL in docs/validation/mccp.md, not here. */
#include "mccp_test.h"

static char *slurp(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/programs/mccp/%s", test_root(), rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fprintf(stderr, "cannot open %s\n", path);
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = 0;
    fclose(f);
    return b;
}

/* Load program NAME.mccp and input words INPUT into a fresh 4-core machine; run to halt. */
static void run_program(tmach *t, const char *name, const char *input, uint32_t *in, size_t *nin)
{
    char src[256];
    snprintf(src, sizeof src, "%s.mccp", name);
    char *text = slurp(src);
    uint32_t *w;
    size_t n;
    tm_create(t, NULL);
    tm_asm(t, text, &w, &n);
    free(text);
    free(w);
    *nin = 0;
    if (input) {
        char *s = slurp(input);
        for (char *p = s, *e; *p; p = e) {
            long long v = strtoll(p, &e, 10);
            if (e == p) {
                e = p + 1;
                continue;
            }
            in[*nin] = (uint32_t)v;
            tm_ram_set(t, (uint32_t)*nin, (uint32_t)v);
            (*nin)++;
        }
        free(s);
    }
    tm_run_halt(t, 5000000);
}

static uint32_t in[70000];

static void test_vector_cube(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "vector_cube", "vector_cube.txt", in, &n);
    uint32_t cnt = in[0], src = in[1], dst = in[2];
    assert_true(cnt > 0);
    for (uint32_t i = 0; i < cnt; i++)
        assert_int_equal(tm_ram(&t, dst + i), in[src + i] * in[src + i] * in[src + i]);
    tm_destroy(&t);
}

static void test_matmul(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "matmul", "matmul.txt", in, &n);
    uint32_t A = in[0], B = in[1], C = in[2], M = in[3], K = in[4], N = in[5];
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++) {
            uint32_t acc = 0;
            for (uint32_t k = 0; k < K; k++)
                acc += in[A + i * K + k] * in[B + k * N + j];
            assert_int_equal(tm_ram(&t, C + i * N + j), acc);
        }
    tm_destroy(&t);
}

static void test_box_blur(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "box_blur", "box_blur.txt", in, &n);
    uint32_t S = in[0], D = in[1], W = in[2], H = in[3];
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t want = 0;
            if (y > 0 && y < H - 1 && x > 0 && x < W - 1) {
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        want += in[S + (y + (uint32_t)dy) * W + x + (uint32_t)dx];
                want /= 9;
            }
            assert_int_equal(tm_ram(&t, D + y * W + x), want); /* border left 0 */
        }
    tm_destroy(&t);
}

static void test_sum4(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "sum4", "sum4.txt", in, &n);
    uint32_t cnt = in[0], v = in[1], total = 0, part[4] = {0};
    for (uint32_t i = 0; i < cnt; i++) {
        part[i % 4] += in[v + i];
        total += in[v + i];
    }
    assert_int_equal(tm_ram(&t, 2), total);
    for (uint32_t c = 0; c < 4; c++) {
        assert_int_equal(tm_ram(&t, 4 + c), part[c]);
        assert_int_equal(tm_ram(&t, 8 + c), 1);
    }
    /* core 0 joins last: it halts after every other core has raised its flag */
    for (int c = 1; c < 4; c++)
        assert_true(tm_halted_at(&t, 0) > tm_halted_at(&t, c));
    tm_destroy(&t);
}

static void test_draw(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "draw", NULL, in, &n);
    static const uint32_t step[4] = {0x010000, 0x000100, 0x000001, 0x010101};
    for (uint32_t c = 0; c < 4; c++) {
        assert_int_equal(tm_ram(&t, c), 1);
        uint32_t x0 = 16 + 252 * c;
        for (uint32_t y = 0; y < 64; y += 3)
            for (uint32_t x = x0 - 4; x < x0 + 240; x += 5) {
                uint32_t want = (y >= 4 && y < 56 && x >= x0 && x < x0 + 236) ? (x - x0) * step[c] : 0;
                if (y == 0 && x < 4)
                    continue; /* the done flags live in row 0 */
                assert_int_equal(tm_ram(&t, y * 1024 + x), want);
            }
    }
    /* the framebuffer view shows the same pixels */
    isa_framebuffer fb;
    assert_int_equal(isa_mccp.framebuffer(&t.m, &fb), 0);
    assert_int_equal(fb.width, 1024);
    assert_int_equal(fb.height, 64);
    assert_int_equal(fb.pixels[10 * 1024 + 16 + 100], 100u * 0x010000);
    tm_destroy(&t);
}

static void test_demo(void **state)
{
    (void)state;
    tmach t;
    size_t n;
    run_program(&t, "demo", "demo-input.txt", in, &n);
    uint32_t cnt = in[0], v = in[1], scale = in[3], q = cnt / 4, total = 0;
    static const uint32_t colour[4] = {0xFF4040, 0x40FF40, 0x4040FF, 0xFFFF00};
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t lo = c * q, hi = c == 3 ? cnt : (c + 1) * q, part = 0;
        for (uint32_t i = lo; i < hi; i++)
            part += in[v + i] * in[v + i];
        total += part;
        uint32_t h = part / scale > 48 ? 48 : part / scale;
        assert_int_equal(tm_ram(&t, 4 + c), part);
        assert_int_equal(tm_ram(&t, 12 + c), h);
        uint32_t x0 = 40 + 256 * c;
        for (uint32_t y = 2; y < 52; y++) /* the bar, and black above it */
            assert_int_equal(tm_ram(&t, y * 1024 + x0 + 88), y >= 52 - h ? colour[c] : 0);
    }
    assert_int_equal(tm_ram(&t, 2), total);
    assert_int_equal(tm_ram(&t, 52 * 1024 + 500), 0xFFFFFF); /* base line */
    tm_destroy(&t);
}

/* mono palette: any non-zero word is white */
static void test_framebuffer_options(void **state)
{
    (void)state;
    static const char *const o[] = {"fb_palette=mono", "fb_base=1024", "fb_width=16", "fb_height=2", NULL};
    tmach t;
    tm_create(&t, o);
    tm_ram_set(&t, 1024 + 3, 0x80000000u);
    tm_ram_set(&t, 1024 + 16 + 1, 7);
    isa_framebuffer fb;
    assert_int_equal(isa_mccp.framebuffer(&t.m, &fb), 0);
    assert_int_equal(fb.width, 16);
    assert_int_equal(fb.stride, 16);
    assert_int_equal(fb.pixels[3], 0xFFFFFF);
    assert_int_equal(fb.pixels[17], 0xFFFFFF);
    assert_int_equal(fb.pixels[0], 0);
    tm_destroy(&t);
    /* a framebuffer outside RAM is refused */
    static const char *const bad[] = {"fb_base=65000", NULL};
    sim_opts so;
    opt_init(&so);
    opt_parse(&so, bad[0]);
    char err[256];
    sim_machine m;
    assert_int_equal(sim_create(&m, &isa_mccp, &so, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not fit"));
}

XPUSIM_TESTS(mccp_programs,
             cmocka_unit_test(test_vector_cube),
             cmocka_unit_test(test_matmul),
             cmocka_unit_test(test_box_blur),
             cmocka_unit_test(test_sum4),
             cmocka_unit_test(test_draw),
             cmocka_unit_test(test_demo),
             cmocka_unit_test(test_framebuffer_options))
