/* programs/dpu/host/hostlib_check.c: a UPMEM host program for libxpusim-dpu, written the way
 * SDK host code is (dpu.h, DPU_ASSERT, DPU_FOREACH), checking each answer instead of
 * printing it. tests/dpu/hostlib.t.sh builds it with
 *     cc hostlib_check.c $(pkg-config --cflags --libs xpusim-dpu)
 * and runs it on DPU programs assembled from programs/dpu:
 *     hostlib_check VECADD.elf REDUCE.elf HELLO.elf TRAP.elf
 * (vecadd and reduce with 16 tasklets, hello with 1). Expected values come from C on the
 * host (vecadd, sums) or from the program's documented behaviour (hello counts launches).
 * Prints "ok: ..." per check; exits 1 at the first failure. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <dpu.h>
#include <dpu_log.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xpusim_dpu.h>

static int failures;

static void check(int cond, const char *what)
{
    if (cond) {
        printf("ok: %s\n", what);
    } else {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static void expect(dpu_error_t got, dpu_error_t want, const char *what)
{
    char *g = dpu_error_to_string(got), *w = dpu_error_to_string(want);
    char line[400];
    snprintf(line, sizeof line, "%s: %s%s%s", what, g, got == want ? "" : ", expected ", got == want ? "" : w);
    check(got == want, line);
    free(g);
    free(w);
}

/* Allocation, profiles, load errors, iteration. */
static void test_alloc(const char *vecadd)
{
    struct dpu_set_t set, dpu, rank;
    uint32_t n = 0, r = 0, i, count = 0, last = 99;
    expect(dpu_alloc(0, NULL, &set), DPU_ERR_ALLOCATION, "dpu_alloc(0)");
    expect(dpu_alloc(2, "colour=blue", &set), DPU_ERR_INVALID_PROFILE, "unknown profile key");
    expect(dpu_alloc(2, "chip=v9", &set), DPU_ERR_INVALID_PROFILE, "bad profile value");
    DPU_ASSERT(dpu_alloc(70, "backend=simulator,mram=1", &set));
    DPU_ASSERT(dpu_get_nr_dpus(set, &n));
    DPU_ASSERT(dpu_get_nr_ranks(set, &r));
    check(n == 70 && r == 2, "70 DPUs in 2 ranks of at most 64");
    DPU_FOREACH(set, dpu, i) {
        check(i == count, "DPU_FOREACH index counts from 0") ;
        count++;
        last = i;
        if (i > 2)
            break; /* enough of the output */
    }
    count = 0;
    DPU_FOREACH(set, dpu) {
        count++;
    }
    check(count == 70 && last == 3, "DPU_FOREACH visits every DPU once");
    uint32_t per_rank[2] = {0, 0};
    DPU_RANK_FOREACH(set, rank, i) {
        DPU_ASSERT(dpu_get_nr_dpus(rank, &per_rank[i]));
    }
    check(per_rank[0] == 64 && per_rank[1] == 6, "DPU_RANK_FOREACH: 64 + 6 DPUs");
    expect(dpu_copy_to(set, "vecadd_n", 0, &n, 4), DPU_ERR_NO_PROGRAM_LOADED, "copy before load");
    expect(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_NO_PROGRAM_LOADED, "launch before load");
    expect(dpu_load(set, "/nonexistent/dpu.elf", NULL), DPU_ERR_ELF_NO_SUCH_FILE, "load of a missing file");
    expect(dpu_load(set, __FILE__, NULL), DPU_ERR_ELF_INVALID_FILE, "load of a text file");
    DPU_ASSERT(dpu_load(set, vecadd, NULL));
    DPU_FOREACH(set, dpu) {
        expect(dpu_free(dpu), DPU_ERR_INVALID_DPU_SET, "dpu_free of one DPU");
        break;
    }
    DPU_ASSERT(dpu_free(set));
}

/* vecadd on 4 DPUs: broadcast the count, push each DPU its own A and B, launch, pull C. */
static void test_vecadd(const char *vecadd)
{
    enum { NDPU = 4, N = 1024 }; /* elements per DPU, a multiple of 64 */
    struct dpu_set_t set, dpu;
    uint32_t i;
    static uint32_t a[NDPU][N], b[NDPU][N], c[NDPU][N];
    for (int d = 0; d < NDPU; d++)
        for (int k = 0; k < N; k++) {
            a[d][k] = (uint32_t)(d * 1000003 + k * 7919);
            b[d][k] = (uint32_t)(k * 31 + d);
        }
    DPU_ASSERT(dpu_alloc(NDPU, "mram=1", &set));
    DPU_ASSERT(dpu_load(set, vecadd, NULL));
    uint32_t n = N;
    DPU_ASSERT(dpu_broadcast_to(set, "vecadd_n", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH(set, dpu, i) {
        DPU_ASSERT(dpu_prepare_xfer(dpu, a[i]));
    }
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof a[0], DPU_XFER_DEFAULT));
    DPU_FOREACH(set, dpu, i) {
        DPU_ASSERT(dpu_prepare_xfer(dpu, b[i]));
    }
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof a[0], sizeof b[0],
                             DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH(set, dpu, i) {
        DPU_ASSERT(dpu_prepare_xfer(dpu, c[i]));
    }
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 2 * sizeof a[0], sizeof c[0],
                             DPU_XFER_DEFAULT));
    int bad = 0;
    for (int d = 0; d < NDPU; d++)
        for (int k = 0; k < N; k++)
            bad += c[d][k] != a[d][k] + b[d][k];
    check(!bad, "vecadd on 4 DPUs: every C = A + B (pushed and pulled per DPU)");
    /* the prepared buffers are forgotten after a push: a push now moves nothing */
    memset(c, 0, sizeof c);
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 2 * sizeof a[0], sizeof c[0],
                             DPU_XFER_DEFAULT));
    check(c[0][1] == 0, "push without prepared buffers moves nothing");
    /* one DPU's copy_from */
    DPU_FOREACH(set, dpu, i) {
        if (i == 2) {
            uint32_t got[2];
            DPU_ASSERT(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 2 * sizeof a[0] + 8, got, sizeof got));
            check(got[0] == a[2][2] + b[2][2] && got[1] == a[2][3] + b[2][3], "dpu_copy_from of DPU 2 at an offset");
        }
    }
    uint64_t cycles = 0, insns = 0;
    uint32_t launch = 0;
    DPU_ASSERT(xpusim_dpu_last_launch(set, &cycles, &insns, &launch));
    check(launch == 1 && cycles > 0 && insns > 0, "xpusim_dpu_last_launch: launch 1 has cycles and instructions");
    /* the SDK's access rules */
    uint32_t w[4] = {0};
    expect(dpu_copy_from(set, "vecadd_n", 0, w, 4), DPU_ERR_INVALID_DPU_SET, "copy_from a set of 4 DPUs");
    expect(dpu_copy_to(set, "no_such_symbol", 0, w, 4), DPU_ERR_UNKNOWN_SYMBOL, "unknown symbol");
    expect(dpu_copy_to(set, "vecadd_n", 2, w, 4), DPU_ERR_INVALID_WRAM_ACCESS, "WRAM offset not 4-aligned");
    expect(dpu_copy_to(set, "vecadd_n", 0, w, 8), DPU_ERR_INVALID_SYMBOL_ACCESS, "8 bytes into a 4-byte symbol");
    expect(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, 4, w, 8), DPU_ERR_INVALID_MRAM_ACCESS,
           "MRAM offset not 8-aligned");
    expect(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, (1u << 20) - 8, w, 16), DPU_ERR_INVALID_MRAM_ACCESS,
           "MRAM past the end of a 1 MB MRAM");
    expect(dpu_launch(set, (dpu_launch_policy_t)7), DPU_ERR_INVALID_LAUNCH_POLICY, "launch policy 7");
    DPU_ASSERT(dpu_free(set));
}

/* reduce: data in MRAM once, then several launches with memory kept, one asynchronous. */
static void test_relaunch(const char *reduce)
{
    enum { N = 4096 };
    static uint32_t data[N];
    uint32_t want_all = 0, want_half = 0, got = 0, n;
    for (int k = 0; k < N; k++) {
        data[k] = (uint32_t)k * 2654435761u;
        want_all += data[k];
        if (k < N / 2)
            want_half += data[k];
    }
    struct dpu_set_t set;
    DPU_ASSERT(dpu_alloc(1, "mram=1", &set));
    DPU_ASSERT(dpu_load(set, reduce, NULL));
    DPU_ASSERT(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, data, sizeof data));
    n = N;
    DPU_ASSERT(dpu_copy_to(set, "reduce_n", 0, &n, 4));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_ASSERT(dpu_copy_from(set, "reduce_result", 0, &got, 4));
    check(got == want_all, "launch 1: sum of 4096 values");
    uint64_t c1, c2, i1, i2;
    DPU_ASSERT(xpusim_dpu_last_launch(set, &c1, &i1, NULL));
    /* launch 2: only the count changes; the MRAM data is what launch 1 left */
    n = N / 2;
    DPU_ASSERT(dpu_copy_to(set, "reduce_n", 0, &n, 4));
    DPU_ASSERT(dpu_launch(set, DPU_ASYNCHRONOUS));
    DPU_ASSERT(dpu_sync(set));
    DPU_ASSERT(dpu_copy_from(set, "reduce_result", 0, &got, 4));
    check(got == want_half, "launch 2 (asynchronous, memory kept): sum of the first 2048");
    DPU_ASSERT(xpusim_dpu_last_launch(set, &c2, &i2, NULL));
    check(c2 < c1 && i2 < i1 && c2 > 0, "launch 2 counts its own cycles, fewer than launch 1's");
    /* launch 3 repeats launch 2 exactly: the same cycles (each launch starts at cycle 0) */
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    uint64_t c3, i3;
    uint32_t l3;
    DPU_ASSERT(xpusim_dpu_last_launch(set, &c3, &i3, &l3));
    check(c3 == c2 && i3 == i2 && l3 == 3, "launch 3 = launch 2, cycle for cycle");
    bool done = false, fault = true;
    DPU_ASSERT(dpu_status(set, &done, &fault));
    check(done && !fault, "dpu_status: done, no fault");
    DPU_ASSERT(dpu_free(set));
    /* built for 16 tasklets, run with 12: 12 wait in the barrier for ever (a clean halt on
     * hardware would hand back half-done results): the launch does not end cleanly */
    DPU_ASSERT(dpu_alloc(1, "tasklets=12,mram=1", &set));
    DPU_ASSERT(dpu_load(set, reduce, NULL));
    DPU_ASSERT(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, data, sizeof data));
    n = N;
    DPU_ASSERT(dpu_copy_to(set, "reduce_n", 0, &n, 4));
    expect(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_TIMEOUT, "tasklets parked in a barrier");
    DPU_ASSERT(dpu_free(set));
}

/* Logs across launches; a faulting program. */
static void test_log_and_fault(const char *hello, const char *trap)
{
    struct dpu_set_t set, dpu;
    DPU_ASSERT(dpu_alloc(2, "mram=1", &set));
    DPU_ASSERT(dpu_load(set, hello, NULL));
    for (int k = 0; k < 3; k++)
        DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    uint32_t i;
    DPU_FOREACH(set, dpu, i) {
        DPU_ASSERT(dpulog_read_for_dpu(dpu.dpu, f));
        DPU_ASSERT(dpu_log_read(dpu, f));
    }
    fclose(f);
    check(text && !strcmp(text, "launch #3\nlaunch #3\nlaunch #3\nlaunch #3\n"),
          "three launches, WRAM kept: each DPU's log says launch #3 (dpulog_read_for_dpu, dpu_log_read)");
    free(text);
    expect(dpu_log_read(set, stdout), DPU_ERR_INVALID_DPU_SET, "dpu_log_read of 2 DPUs");
    /* only DPU 1 launched again: DPU 0's count stays */
    uint32_t counts[2];
    DPU_FOREACH(set, dpu, i) {
        if (i == 1)
            DPU_ASSERT(dpu_launch(dpu, DPU_SYNCHRONOUS));
    }
    DPU_FOREACH(set, dpu, i) {
        DPU_ASSERT(dpu_copy_from(dpu, "hello_count", 0, &counts[i], 4));
    }
    check(counts[0] == 3 && counts[1] == 4, "a launch of one DPU leaves the other alone");
    DPU_ASSERT(dpu_free(set));
    DPU_ASSERT(dpu_alloc(1, NULL, &set));
    DPU_ASSERT(dpu_load(set, trap, NULL));
    expect(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_DPU_FAULT, "a faulting program");
    bool done = false, fault = false;
    DPU_ASSERT(dpu_status(set, &done, &fault));
    check(fault, "dpu_status reports the fault");
    DPU_ASSERT(dpu_free(set));
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s VECADD.elf REDUCE.elf HELLO.elf TRAP.elf\n", argv[0]);
        return 2;
    }
    test_alloc(argv[1]);
    test_vecadd(argv[1]);
    test_relaunch(argv[2]);
    test_log_and_fault(argv[3], argv[4]);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
