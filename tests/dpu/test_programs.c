/* tests/dpu/test_programs.c: end-to-end runs of the assembly programs in programs/dpu on our
 * runtime (programs/dpu/rt): inputs placed by symbol as a host would (dpu_copy_to), results
 * read back by symbol and compared with the same computation done here in C. Also several
 * DPUs with their own MRAM and inputs, sequentially and on host threads (-o jobs), which
 * must give identical results and cycle counts. */
#include "../testlib.h"
#include "dpu_harness.h"

static uint32_t rng(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s; }

static int build_prog(dh_run *r, const char *prog, const char *const *opts)
{
    char path[512];
    snprintf(path, sizeof path, "%s/programs/dpu/%s.s", test_root(), prog);
    const char *extra[] = {path, NULL};
    return dh_build(r, "", 1, extra, opts);
}

static void test_vecadd(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint32_t ab[2 * N], c[N];
    uint32_t s = 1;
    for (int i = 0; i < 2 * N; i++) ab[i] = rng(&s);
    const char *opts[] = {"tasklets=16", NULL};
    dh_run r;
    assert_int_equal(build_prog(&r, "vecadd", opts), 0);
    uint32_t n = N;
    assert_int_equal(dh_set(&r, 0, "vecadd_n", 0, &n, 4), 0);
    assert_int_equal(dh_set(&r, 0, "__sys_used_mram_end", 0, ab, sizeof ab), 0);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    assert_int_equal(dh_get(&r, 0, "__sys_used_mram_end", 8 * N, c, sizeof c), 0);
    for (int i = 0; i < N; i++)
        if (c[i] != ab[i] + ab[N + i]) fail_msg("c[%d] = %u, want %u", i, c[i], ab[i] + ab[N + i]);
    /* DMA bytes: 2 reads and 1 write of 4 bytes per element */
    assert_int_equal(r.m.units[0].counters[DPU_CNT_DMA_RD].value, 8u * N);
    assert_int_equal(r.m.units[0].counters[DPU_CNT_DMA_WR].value, 4u * N);
    dh_free(&r);
}

static void test_reduce_histogram(void **state)
{
    (void)state;
    enum { N = 8192 };
    static uint32_t v[N];
    uint32_t s = 7, sum = 0;
    for (int i = 0; i < N; i++) sum += (v[i] = rng(&s));
    for (int t = 1; t <= 24; t += 23) {
        char tk[32];
        snprintf(tk, sizeof tk, "tasklets=%d", t);
        const char *opts[] = {tk, NULL};
        dh_run r;
        assert_int_equal(build_prog(&r, "reduce", opts), 0);
        uint32_t n = N;
        dh_set(&r, 0, "reduce_n", 0, &n, 4);
        dh_set(&r, 0, "__sys_used_mram_end", 0, v, sizeof v);
        assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
        assert_int_equal(dh_get32(&r, 0, "reduce_result", 0), sum);
        dh_free(&r);
    }
    /* histogram of 4096 bytes under a shared mutex */
    static uint8_t b[4096];
    uint32_t h[256] = {0}, got[256];
    for (int i = 0; i < 4096; i++) h[b[i] = (uint8_t)(rng(&s) >> 24)]++;
    const char *opts[] = {"tasklets=11", NULL};
    dh_run r;
    assert_int_equal(build_prog(&r, "histogram", opts), 0);
    uint32_t n = sizeof b;
    dh_set(&r, 0, "histo_n", 0, &n, 4);
    dh_set(&r, 0, "__sys_used_mram_end", 0, b, sizeof b);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    dh_get(&r, 0, "histo_bins", 0, got, sizeof got);
    assert_memory_equal(got, h, sizeof h);
    dh_free(&r);
}

/* The DMA-bound stream: 64 KB copied in 2048-byte blocks. Derivation of its time: every
 * block is one read (77 + 1024 cycles) and one write (61 + 1024) on the one engine, and with
 * several tasklets the engine never idles, so the run lasts at least 32 * (1101 + 1085)
 * cycles, plus the few instructions before the first transfer and after the last. */
static void test_stream(void **state)
{
    (void)state;
    enum { N = 65536 };
    static uint8_t src[N], dst[N];
    uint32_t s = 3;
    for (int i = 0; i < N; i++) src[i] = (uint8_t)rng(&s);
    const char *opts[] = {"tasklets=16", NULL};
    dh_run r;
    assert_int_equal(build_prog(&r, "stream", opts), 0);
    uint32_t n = N;
    dh_set(&r, 0, "stream_n", 0, &n, 4);
    dh_set(&r, 0, "__sys_used_mram_end", 0, src, N);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    dh_get(&r, 0, "__sys_used_mram_end", N, dst, N);
    assert_memory_equal(src, dst, N);
    uint64_t busy = 32ull * (77 + 1024 + 61 + 1024), end = sim_end_cycle(&r.m);
    assert_true(end >= busy && end < busy + busy / 50);
    uint64_t dma_stall = 0;
    for (int t = 0; t < 16; t++) dma_stall += r.m.units[0].threads[t].stalls[DPU_STALL_DMA];
    assert_true(dma_stall > 16 * busy / 2); /* the tasklets mostly wait for the engine */
    dh_free(&r);
}

/* Four DPUs, each with its own input in its own MRAM; the same run with -o jobs=3 must give
 * the same results and the same cycle counts. */
static void test_many_dpus(void **state)
{
    (void)state;
    enum { N = 1024, D = 4 };
    static uint32_t v[D][N];
    uint32_t sums[D] = {0}, s = 11;
    for (int d = 0; d < D; d++)
        for (int i = 0; i < (d + 1) * N / D; i++) sums[d] += (v[d][i] = rng(&s));
    uint64_t cycles[2][D];
    for (int pass = 0; pass < 2; pass++) {
        const char *opts[] = {"tasklets=8", "dpus=4", "mram=1", pass ? "jobs=3" : "jobs=1", NULL};
        dh_run r;
        assert_int_equal(build_prog(&r, "reduce", opts), 0);
        for (int d = 0; d < D; d++) {
            uint32_t n = (d + 1) * N / D;
            dh_set(&r, d, "reduce_n", 0, &n, 4);
            dh_set(&r, d, "__sys_used_mram_end", 0, v[d], sizeof v[d]);
        }
        assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
        for (int d = 0; d < D; d++) {
            assert_int_equal(dh_get32(&r, d, "reduce_result", 0), sums[d]);
            cycles[pass][d] = r.m.units[d].halted_at;
        }
        /* DPUs with more data take longer */
        assert_true(cycles[pass][3] > cycles[pass][0]);
        dh_free(&r);
    }
    assert_memory_equal(cycles[0], cycles[1], sizeof cycles[0]);
}

XPUSIM_TESTS(dpu_programs,
             cmocka_unit_test(test_vecadd),
             cmocka_unit_test(test_reduce_histogram),
             cmocka_unit_test(test_stream),
             cmocka_unit_test(test_many_dpus))
