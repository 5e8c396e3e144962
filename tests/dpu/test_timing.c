/* tests/dpu/test_timing.c: the DPU timing law, derived from the rules of the reference
 * (§3.1, §3.2), not from our own output.
 * Rules: (R1) a tasklet issues at most one instruction every 11 cycles; (R2) the DPU issues
 * at most one instruction per cycle; (R3) taken branches, carry chains and load-use cost
 * nothing extra; (R4) a DMA of s bytes takes alpha + beta*s cycles on the DPU's single DMA
 * engine, transfers are served one after the other, and the issuing tasklet issues nothing
 * until its transfer is done. */
#include "../testlib.h"
#include "dpu_harness.h"

/* n tasklets each run K iterations of an N = 4 instruction loop (add, add (a carry-free
 * dependency chain, R3), xor, and a taken add-and-branch), then stop.
 * Derivation: with n <= 11 tasklets ready, R1 binds: every tasklet issues every 11 cycles,
 * so its K*N loop instructions take 11*K*N cycles. With n >= 11, R2 binds: the DPU issues
 * every cycle, the n*K*N instructions take n*K*N cycles. Per tasklet-iteration:
 * N * max(1, 11/n) cycles. The boot chain and the stop add at most a few hundred cycles,
 * under 1% of K*N*max(n, 11) for K = 6000. */
static const char loop_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	move r0, 6000\n"
    ".Lloop:\n"
    "	add r1, r1, 1\n"
    "	add r2, r2, r1\n"
    "	xor r3, r3, r2\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	stop\n";

static void test_revolver_law(void **state)
{
    (void)state;
    for (int n = 1; n <= 24; n++) {
        char t[32];
        snprintf(t, sizeof t, "tasklets=%d", n);
        const char *opts[] = {t, NULL};
        dh_run r;
        assert_int_equal(dh_build(&r, loop_src, 0, NULL, opts), 0);
        assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
        double K = 6000, N = 4;
        double expect = K * N * (n > 11 ? n : 11);
        double got = (double)sim_end_cycle(&r.m);
        double per_iter = got / (n * K);
        double law = N * (n >= 11 ? 1.0 : 11.0 / n);
        if (got < expect || got > expect * 1.01)
            print_message("n=%d: %.0f cycles, law %.0f (%.3f vs %.3f cycles per iteration)\n", n, got, expect,
                          per_iter, law);
        assert_true(got >= expect && got <= expect * 1.01);
        /* every tasklet retired exactly its K*N loop instructions plus its few others */
        assert_int_equal(sim_total_instructions(&r.m) / n >= K * N, 1);
        if (n == 1) {
            /* alone, a tasklet waits exactly 10 cycles between two issues (R1): all of it is
             * revolver stall */
            const sim_thread *th = &r.m.units[0].threads[0];
            assert_int_equal(th->stalls[DPU_STALL_REVOLVER], 10 * (th->instructions - 1));
            assert_int_equal(th->issue_cycles, th->instructions);
        }
        dh_free(&r);
    }
}

/* One tasklet: "ldma r0, r1, k" of s = 8*(k+1) bytes against the same program with a nop.
 * Derivation: the instruction after the nop issues 11 cycles after it (R1); the one after
 * the ldma issues when the transfer is done, alpha + beta*s cycles after it (R4, always
 * more than 11 here). So the run is longer by exactly alpha + beta*s - 11 cycles. The same
 * for sdma with the write constants, and again with non-default -o constants. */
static uint64_t one_dma(const char *insn, int bytes, const char *const *opts)
{
    char src[512];
    snprintf(src, sizeof src,
             "	.section .text.__bootstrap,\"ax\",@progbits\n"
             "__bootstrap:\n"
             "	move r0, 64\n"
             "	move r1, 0x08000100\n"
             "	%s r0, r1, %d\n"
             "	move r2, 1\n"
             "	stop\n",
             insn, bytes / 8 - 1);
    if (!strcmp(insn, "nop"))
        snprintf(src, sizeof src,
                 "	.section .text.__bootstrap,\"ax\",@progbits\n"
                 "__bootstrap:\n	move r0, 64\n	move r1, 0x08000100\n	nop\n	move r2, 1\n	stop\n");
    dh_run r;
    assert_int_equal(dh_build(&r, src, 0, NULL, opts), 0);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    uint64_t c = sim_end_cycle(&r.m);
    dh_free(&r);
    return c;
}

static void test_dma_sweep(void **state)
{
    (void)state;
    const char *def[] = {"tasklets=1", NULL};
    uint64_t base = one_dma("nop", 8, def);
    for (int s = 8; s <= 2048; s = s < 64 ? s + 8 : s * 2) {
        uint64_t rd = one_dma("ldma", s, def), wr = one_dma("sdma", s, def);
        assert_int_equal(rd - base, (uint64_t)(77 + s / 2 - 11));
        assert_int_equal(wr - base, (uint64_t)(61 + s / 2 - 11));
    }
    /* the same law with other constants: alpha 100, beta 1.0 (read); alpha 20, beta 0.25 (write) */
    const char *alt[] = {"tasklets=1", "dma_read_alpha=100", "dma_read_beta=1", "dma_write_alpha=20",
                         "dma_write_beta=0.25", NULL};
    for (int s = 8; s <= 2048; s *= 4) {
        assert_int_equal(one_dma("ldma", s, alt) - base, (uint64_t)(100 + s - 11));
        assert_int_equal(one_dma("sdma", s, alt) - base, (uint64_t)(20 + s / 4 - 11));
    }
}

/* n tasklets each issue one 1024-byte ldma right after booting, then stop.
 * Derivation (R4): transfer k starts when transfer k-1 is done (the issues are only a few
 * cycles apart, far less than L = 77 + 512 = 589), so the last transfer is done n*L cycles
 * after the first one was issued; its tasklet then issues its stop (R1: it has waited more
 * than 11 cycles) and the DPU ends one cycle later. */
static void test_dma_serialised(void **state)
{
    (void)state;
    static const char src[] =
        "	.section .text.__bootstrap,\"ax\",@progbits\n"
        "__bootstrap:\n"
        "	jeq id, NR_TASKLETS-1, .Lgo\n"
        "	boot id, 1\n"
        ".Lgo:\n"
        "	lsl r0, id, 10\n"
        "	move r1, 0x08000000\n"
        "	add r1, r1, r0\n"
        "	ldma r0, r1, 127\n"
        "	stop\n";
    for (int n = 1; n <= 16; n *= 2) {
        char t[32];
        snprintf(t, sizeof t, "tasklets=%d", n);
        const char *opts[] = {t, NULL};
        dh_run r;
        assert_int_equal(dh_build(&r, src, 0, NULL, opts), 0);
        assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
        dpu_unit *d = r.m.units[0].isa;
        assert_int_equal(d->dma_nlog, (unsigned)n);
        uint64_t L = 77 + 1024 / 2;
        uint64_t first = d->dma_log[0].issue;
        for (int k = 1; k < n; k++) {
            assert_int_equal(d->dma_log[k].start, d->dma_log[k - 1].done);
            assert_int_equal(d->dma_log[k].done - d->dma_log[k].start, L);
        }
        assert_int_equal(sim_end_cycle(&r.m), first + n * L + 1);
        assert_int_equal(r.m.units[0].counters[DPU_CNT_DMA_RD].value, (uint64_t)n * 1024);
        dh_free(&r);
    }
}

/* The register-file bank option (-o bank_penalty=1, uPIMulator's rule; off by default).
 * Rule: the registers an instruction reads together with those the tasklet's previous
 * instruction wrote, split by parity, cost floor(even/2) + floor(odd/2) extra cycles.
 * 'add r0, r2, r4' after 'add r0, r2, r4': {r0, r2, r4} = 3 even -> 1 extra cycle, so each
 * of these instructions of a lone tasklet issues 11 + 1 cycles after the previous one.
 * 'add r0, r1, 5' after itself: {r0, r1} -> 0 extra: 11 cycles. Off: 11 cycles each. */
static uint64_t bank_run(const char *insn, int on)
{
    char src[4096], *p = src;
    p += sprintf(p, "	.section .text.__bootstrap,\"ax\",@progbits\n__bootstrap:\n");
    for (int i = 0; i < 100; i++)
        p += sprintf(p, "	%s\n", insn);
    sprintf(p, "	stop\n");
    const char *opts[] = {"tasklets=1", on ? "bank_penalty=1" : "bank_penalty=0", NULL};
    dh_run r;
    assert_int_equal(dh_build(&r, src, 0, NULL, opts), 0);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    uint64_t c = sim_end_cycle(&r.m);
    if (on && !strcmp(insn, "add r0, r2, r4"))
        assert_int_equal(r.m.units[0].threads[0].stalls[DPU_STALL_BANK], 100);
    dh_free(&r);
    return c;
}

static void test_bank_penalty(void **state)
{
    (void)state;
    uint64_t off = bank_run("add r0, r2, r4", 0);
    assert_int_equal(bank_run("add r0, r2, r4", 1) - off, 100);
    assert_int_equal(bank_run("add r0, r1, 5", 1), off);
    assert_int_equal(bank_run("add r0, r1, 5", 0), off);
}

XPUSIM_TESTS(dpu_timing,
             cmocka_unit_test(test_bank_penalty),
             cmocka_unit_test(test_revolver_law),
             cmocka_unit_test(test_dma_sweep),
             cmocka_unit_test(test_dma_serialised))
