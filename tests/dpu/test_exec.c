/* tests/dpu/test_exec.c: instruction semantics. Each case is a short program (one tasklet,
 * assembled by our assembler) whose final registers or WRAM are checked against values
 * worked out by hand from the instruction definitions (reference §1.7, §1.8; the ABI pair
 * order: even register = high word). Also faults and illegal words. */
#include "../testlib.h"
#include "dpu_harness.h"

static const char *one[] = {"tasklets=1", NULL};

static dh_run *run_src(const char *body, sim_stop_kind want)
{
    static dh_run r;
    char src[8192];
    snprintf(src, sizeof src,
             "	.section .text.__bootstrap,\"ax\",@progbits\n__bootstrap:\n%s\n	stop\n"
             "	.section .dpu_host,\"aw\",@progbits\n	.p2align 3\nbuf:\n	.zero 64\n",
             body);
    assert_int_equal(dh_build(&r, src, 0, NULL, one), 0);
    sim_stop_kind k = dh_run_all(&r);
    if (k != want)
        print_message("stop %s: %s\n", sim_stop_name(k), r.m.stop.msg);
    assert_int_equal(k, want);
    return &r;
}
#define REG(r, n) dh_reg(r, 0, 0, n)

static void test_arith_carry(void **state)
{
    (void)state;
    /* 64-bit add 0x00000001_ffffffff + 0x00000002_00000001 = 0x00000004_00000000:
     * add sets carry out of the low word, addc adds it to the high words (1 + 2 + 1). */
    dh_run *r = run_src("	move r1, -1\n	move r0, 1\n	move r3, 1\n	move r2, 2\n"
                        "	add r5, r1, r3\n	addc r4, r0, r2\n"
                        /* 64-bit sub 0x1_00000000 - 0x0_00000001 = 0x0_ffffffff: borrow */
                        "	move r7, 0\n	move r6, 1\n	move r20, 1\n	move r21, 0\n	sub r9, r7, r20\n	subc r8, r6, r21\n"
                        /* rsub: r10 = 10 - 3 */
                        "	move r11, 3\n	move r12, 10\n	rsub r10, r11, r12\n"
                        /* sub rir: r13 = 100 - r11 */
                        "	sub r13, 100, r11\n	neg r14, r11\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r5"), 0);
    assert_int_equal(REG(r, "r4"), 4);
    assert_int_equal(REG(r, "r9"), 0xffffffffu);
    assert_int_equal(REG(r, "r8"), 0);
    assert_int_equal(REG(r, "r10"), 7);
    assert_int_equal(REG(r, "r13"), 97);
    assert_int_equal(REG(r, "r14"), (uint32_t)-3);
    dh_free(r);
}

static void test_logic_shift(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r0, 0xf0f0\n	move r1, 0xff00\n"
                        "	and r2, r0, r1\n	or r3, r0, r1\n	xor r4, r0, r1\n	andn r5, r0, r1\n"
                        "	nor r6, r0, r1\n	nand r7, r0, 0xff\n"
                        "	move r8, -16\n	asr r9, r8, 2\n	lsr r10, r8, 28\n	lsl r11, r8, 4\n"
                        "	move r12, 0x80000001\n	rol r13, r12, 1\n	ror r14, r12, 1\n"
                        "	lsl1 r15, r0, 4\n	lsl_add r16, r0, r1, 4\n	lsr_add r17, r0, r1, 8\n"
                        "	lsl_sub r18, r0, r1, 1\n	move r19, 5\n	lsl r20, r0, r19\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r2"), 0xf000);
    assert_int_equal(REG(r, "r3"), 0xfff0);
    assert_int_equal(REG(r, "r4"), 0x0ff0);
    assert_int_equal(REG(r, "r5"), 0x0f00);           /* ~ra & rb */
    assert_int_equal(REG(r, "r6"), ~0xfff0u);
    assert_int_equal(REG(r, "r7"), ~0xf0u);
    assert_int_equal(REG(r, "r9"), (uint32_t)-4);
    assert_int_equal(REG(r, "r10"), 0xf);
    assert_int_equal(REG(r, "r11"), (uint32_t)-256);
    assert_int_equal(REG(r, "r13"), 3);
    assert_int_equal(REG(r, "r14"), 0xc0000000u);
    assert_int_equal(REG(r, "r15"), 0xf0f0fu);          /* ones shifted in */
    assert_int_equal(REG(r, "r16"), 0xf0f0u + (0xff00u << 4)); /* lsl_add rc, rb, ra, sh = rb + (ra << sh) */
    assert_int_equal(REG(r, "r17"), 0xf0f0u + 0xffu);
    assert_int_equal(REG(r, "r18"), 0xf0f0u - 0x1fe00u);
    assert_int_equal(REG(r, "r20"), 0xf0f0u << 5);
    dh_free(r);
}

static void test_count_ext_mul(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r0, 0x00ff0000\n	clz r1, r0\n	cao r2, r0\n	move r3, 0xfff00000\n	clo r4, r3\n"
                        "	cls r5, r3\n	move r6, 0x80\n	extsb r7, r6\n	extub r8, r3\n	move r9, 0x8000\n	extsh r10, r9\n"
                        "	move r11, 0x1234\n	move r12, 0x00ff\n	mul_ul_ul r13, r11, r12\n	mul_uh_ul r14, r11, r12\n"
                        "	move r15, 0xfe\n	mul_sl_sl r16, r15, r15\n	move r17, 0x11223344\n	move r18, 0x11aa3300\n"
                        "	cmpb4 r19, r17, r18\n	clz r20, zero\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r1"), 8);
    assert_int_equal(REG(r, "r2"), 8);
    assert_int_equal(REG(r, "r4"), 12);
    assert_int_equal(REG(r, "r5"), 12);   /* leading bits equal to the sign bit, itself included (uPIMulator Cls) */
    assert_int_equal(REG(r, "r7"), 0xffffff80u);
    assert_int_equal(REG(r, "r8"), 0);
    assert_int_equal(REG(r, "r10"), 0xffff8000u);
    assert_int_equal(REG(r, "r13"), 0x34 * 0xff);
    assert_int_equal(REG(r, "r14"), 0x12 * 0xff);
    assert_int_equal(REG(r, "r16"), 4);   /* (-2) * (-2) */
    assert_int_equal(REG(r, "r19"), 0x01000100u); /* bytes 1 (0x33) and 3 (0x11) equal */
    assert_int_equal(REG(r, "r20"), 32);
    dh_free(r);
}

static void test_mul_div_step(void **state)
{
    (void)state;
    /* 32x32 multiply by repeated mul_step, as __mulsi3 does: d2 = {multiplier, acc}; each step
     * adds ra << k to the accumulator when the multiplier's low bit is set and shifts the
     * multiplier right; it branches out when the multiplier is zero (z).
     * 1234567 * 89 = 109876463. */
    dh_run *r = run_src("	move r0, 1234567\n	move r2, 89\n	move r3, 0\n"
                        "	mul_step d2, r0, d2, 0, z, .Lm1\n	mul_step d2, r0, d2, 1, z, .Lm1\n"
                        "	mul_step d2, r0, d2, 2, z, .Lm1\n	mul_step d2, r0, d2, 3, z, .Lm1\n"
                        "	mul_step d2, r0, d2, 4, z, .Lm1\n	mul_step d2, r0, d2, 5, z, .Lm1\n"
                        "	mul_step d2, r0, d2, 6, z, .Lm1\n	mul_step d2, r0, d2, 7, z, .Lm1\n"
                        ".Lm1:\n"
                        /* restoring division 1000 / 7 by div_step: d4 = {quotient, remainder};
                         * step k subtracts ra << k when it fits and shifts a 1 into the quotient */
                        "	move r1, 7\n	move r4, 0\n	move r5, 1000\n"
                        "	div_step d4, r1, d4, 7\n	div_step d4, r1, d4, 6\n	div_step d4, r1, d4, 5\n"
                        "	div_step d4, r1, d4, 4\n	div_step d4, r1, d4, 3\n	div_step d4, r1, d4, 2\n"
                        "	div_step d4, r1, d4, 1\n	div_step d4, r1, d4, 0\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r3"), 109876463u);
    assert_int_equal(REG(r, "r4"), 142);
    assert_int_equal(REG(r, "r5"), 6);
    dh_free(r);
}

static void test_conditions(void **state)
{
    (void)state;
    /* branch forms jump when the condition holds; set forms write 0/1 */
    dh_run *r = run_src("	move r0, 5\n	move r1, -3\n	move r10, 0\n"
                        "	jltu r0, r1, .L1\n	or r10, r10, 1\n.L1:\n"      /* 5 < 0xfffffffd unsigned: taken */
                        "	jlts r0, r1, .L2\n	or r10, r10, 2\n.L2:\n"      /* 5 < -3 signed: not taken */
                        "	jeq r0, 5, .L3\n	or r10, r10, 4\n.L3:\n"
                        "	add r2, r0, r1, z, .L4\n	or r10, r10, 8\n.L4:\n"  /* 2 != 0: not taken */
                        "	sub r11, r0, r1, gtu\n	sub r12, r0, r1, gts\n	sub r13, r0, 5, z\n"
                        "	add r14, r0, r1, nz\n	move r15, 0\n	add r16, r15, 0, z\n"
                        "	add r3, r1, 10, pl, .L5\n	or r10, r10, 16\n.L5:\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r10"), 2 | 8);
    assert_int_equal(REG(r, "r11"), 0);
    assert_int_equal(REG(r, "r12"), 1);
    assert_int_equal(REG(r, "r13"), 1);
    assert_int_equal(REG(r, "r14"), 1);
    assert_int_equal(REG(r, "r16"), 1);
    dh_free(r);
}

/* Shift amounts are the low 5 bits; bit 5 is what sh32/nsh32 test (the runtime's 64-bit
 * shifts use it to pick the other word). Comparisons after subc read the borrow chain:
 * (r0:r1) = 0x1_00000000 >= (r2:r3) = 0x0_ffffffff unsigned, though r0 - r2 alone says
 * 1 >= 0 and r1 - r3 alone says 0 < 0xffffffff. */
static void test_shift_amounts_and_chains(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r0, 1\n	move r1, 0\n	move r2, 0\n	move r3, -1\n"
                        "	sub zero, r1, r3\n	subc r4, r0, r2, geu\n"       /* 64-bit >=: 1 */
                        "	sub zero, r3, r1\n	subc r5, r2, r0, geu\n"       /* reversed: 0 */
                        "	sub zero, r3, r1\n	subc zero, r2, r0, ltu, .L1\n	move r6, 1\n.L1:\n"
                        "	move r7, 0x0f\n	move r8, 40\n	lsl r9, r7, r8\n"    /* 0x0f << 8 */
                        "	lslx r10, r7, r8, sh32, .L2\n	move r11, 1\n.L2:\n"
                        "	move r12, 36\n	lsr r13, r8, r12\n",                 /* 40 >> 4 */
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r4"), 1);
    assert_int_equal(REG(r, "r5"), 0);
    assert_int_equal(REG(r, "r6"), 0);   /* borrow out of the chain: the branch was taken */
    assert_int_equal(REG(r, "r9"), 0xf00);
    assert_int_equal(REG(r, "r11"), 0);  /* sh32 held */
    assert_int_equal(REG(r, "r13"), 2);
    dh_free(r);
}

static void test_load_store_pairs(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r0, 0x11223344\n	move r1, 0x55667788\n	sd zero, buf, d0\n"
                        "	lw r2, zero, buf\n	lw r3, zero, buf+4\n	ld d4, zero, buf\n"
                        "	lbs r6, zero, buf\n	lbu r7, zero, buf+3\n	lhs r8, zero, buf+2\n"
                        "	lw !big, r9, zero, buf\n	sb zero, buf+8, -1\n	lbs r10, zero, buf+8\n"
                        "	sw_id zero, buf+16, 0x40\n	lw r11, zero, buf+16\n	move r12, buf\n	sh r12, 20, 0x1234\n"
                        "	lhu r13, r12, 20\n	lw.s d14, zero, buf+4\n	movd d16, d4\n	swapd d18, d4\n",
                        SIM_STOP_HALT);
    /* sd stores the pair as one little-endian 64-bit value {high = even, low = odd}:
     * the low word (r1) at buf, the high word (r0) at buf+4 */
    assert_int_equal(REG(r, "r2"), 0x55667788u);
    assert_int_equal(REG(r, "r3"), 0x11223344u);
    assert_int_equal(REG(r, "r4"), 0x11223344u);
    assert_int_equal(REG(r, "r5"), 0x55667788u);
    assert_int_equal(REG(r, "r6"), (uint32_t)(int8_t)0x88);
    assert_int_equal(REG(r, "r7"), 0x55);
    assert_int_equal(REG(r, "r8"), 0x5566);
    assert_int_equal(REG(r, "r9"), 0x88776655u);
    assert_int_equal(REG(r, "r10"), 0xffffffffu);
    assert_int_equal(REG(r, "r11"), 0x40);        /* id (0) | 0x40 */
    assert_int_equal(REG(r, "r13"), 0x1234);
    assert_int_equal(REG(r, "r14"), 0);           /* lw.s: sign of 0x11223344 */
    assert_int_equal(REG(r, "r15"), 0x11223344u);
    assert_int_equal(REG(r, "r16"), 0x11223344u);
    assert_int_equal(REG(r, "r17"), 0x55667788u);
    assert_int_equal(REG(r, "r18"), 0x55667788u);
    assert_int_equal(REG(r, "r19"), 0x11223344u);
    dh_free(r);
}

static void test_call_atomic_threads(void **state)
{
    (void)state;
    dh_run *r = run_src("	call r23, .Lf\n	move r1, 7\n"
                        "	acquire zero, 3, z, .La\n	move r2, 99\n.La:\n"   /* free: z holds, jumps */
                        "	acquire zero, 3, nz, .Lb\n	move r3, 1\n.Lb:\n"    /* now taken: nz jumps */
                        "	release zero, 3, nz, .Lc\n	move r4, 1\n.Lc:\n"
                        "	time r5\n	jump .Lend\n"
                        ".Lf:\n	move r0, 42\n	jump r23\n"
                        ".Lend:\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r0"), 42);
    assert_int_equal(REG(r, "r1"), 7);
    assert_int_equal(REG(r, "r2"), 0);
    assert_int_equal(REG(r, "r3"), 0);
    assert_int_equal(REG(r, "r4"), 0);
    assert_int_equal(REG(r, "r23"), 1);           /* return address = index of the next instruction */
    /* time returns the cycle counter >> 4. Executed before it: call, move r0, jump r23,
     * move r1, acquire, acquire, release (7 instructions, one every 11 cycles for a lone
     * tasklet), so 'time' issues at cycle 77. */
    assert_int_equal(REG(r, "r5"), (11 * 7) >> 4);
    dh_free(r);
}

/* The bits of 'and rc, ra, imm' are also those of 'and.s/.u dc, ra, imm' (rki): a work
 * register in ra means the 32-bit and (as in the SDK-built helloworld: 'and r4, r2, -4' then
 * 'and r5, r1, 255', both results used), a constant register the 64-bit form
 * ('move.s d4, 0' is 'and.s d4, lneg, 0'). */
static void test_and_rki(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r1, 0x1ff\n	move r2, 0x77\n	and r4, r2, -4\n	and r5, r1, 255\n"
                        "	move r6, 5\n	move r7, 6\n	move.s d6, -2\n	move r8, 9\n	move r9, 9\n	move.u d8, -2\n"
                        "	move r10, 3\n	and.s d10, r1, 0x100\n",
                        SIM_STOP_HALT);
    assert_int_equal(REG(r, "r4"), 0x74);
    assert_int_equal(REG(r, "r5"), 0xff);
    assert_int_equal(REG(r, "r6"), 0xffffffffu);
    assert_int_equal(REG(r, "r7"), 0xfffffffeu);
    assert_int_equal(REG(r, "r8"), 0);
    assert_int_equal(REG(r, "r9"), 0xfffffffeu);
    assert_int_equal(REG(r, "r10"), 0);      /* and.s with a work register: the rri form */
    assert_int_equal(REG(r, "r11"), 0x100);
    dh_free(r);
}

/* clr_run clears another tasklet's RUN bit: that tasklet stops where it is; read_run reads
 * a RUN bit; the DPU ends when no bit is left. Tasklet 0 boots tasklet 1, which spins; tasklet
 * 0 reads its bit (1), clears it, reads it again (0) and stops. */
static void test_run_bits(void **state)
{
    (void)state;
    static const char src[] =
        "	.section .text.__bootstrap,\"ax\",@progbits\n__bootstrap:\n"
        "	jnz id, .Lspin\n	boot id, 1\n	move r1, 1\n"
        "	read_run r1, 0, nz, .Lwas\n	move r2, 7\n.Lwas:\n"
        "	clr_run r1, 0, nz, .Lcleared\n	move r3, 7\n.Lcleared:\n"
        "	read_run r1, 0, z, .Lgone\n	move r4, 7\n.Lgone:\n	stop\n"
        ".Lspin:\n	add r5, r5, 1\n	jump .Lspin\n";
    const char *opts[] = {"tasklets=2", NULL};
    dh_run r;
    assert_int_equal(dh_build(&r, src, 0, NULL, opts), 0);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    assert_int_equal(dh_reg(&r, 0, 0, "r2"), 0); /* tasklet 1 was running */
    assert_int_equal(dh_reg(&r, 0, 0, "r3"), 0); /* clr_run reported it running */
    assert_int_equal(dh_reg(&r, 0, 0, "r4"), 0); /* then its bit was clear */
    assert_true(dh_reg(&r, 0, 1, "r5") > 0);     /* it ran a while, then stopped */
    dh_free(&r);
}

static void test_faults(void **state)
{
    (void)state;
    dh_run *r = run_src("	move r0, 0x20000\n	lw r1, r0, 0\n", SIM_STOP_FAULT);
    assert_non_null(strstr(r->m.stop.msg, "out of range"));
    assert_int_equal(r->m.stop.pc, 1);
    dh_free(r);
    r = run_src("	move r0, 2\n	lw r1, r0, 0\n", SIM_STOP_FAULT);
    assert_non_null(strstr(r->m.stop.msg, "misaligned"));
    dh_free(r);
    r = run_src("	fault 2\n", SIM_STOP_FAULT);
    assert_non_null(strstr(r->m.stop.msg, "division by zero"));
    char buf[128];
    isa_dpu.thread_state(&r->m, 0, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "fault"));
    dh_free(r);
    /* an illegal word: data in the text section */
    r = run_src("	nop\n	.quad 0xffffffffffff\n", SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "illegal instruction"));
    assert_int_equal(r->m.stop.pc, 1);
    dh_free(r);
}

/* ldmai copies instruction words from MRAM into IRAM (index = WRAM-address operand / 8);
 * the new code runs (and only on the DPU that loaded it: the other keeps the shared
 * program). */
static void test_ldmai(void **state)
{
    (void)state;
    uint64_t w1, w2;
    char err[128];
    assert_true(dpu_assemble_line("move r5, 77", NULL, &w1, err, sizeof err) >= 0);
    assert_true(dpu_assemble_line("stop", NULL, &w2, err, sizeof err) >= 0);
    char src[1024];
    snprintf(src, sizeof src,
             "	.section .text.__bootstrap,\"ax\",@progbits\n__bootstrap:\n"
             "	jnz id, .Lother\n	move r0, 800\n	move r1, code\n	ldmai r0, r1, 1\n	jump 100\n"
             ".Lother:\n	move r5, 1\n	stop\n"
             "	.section .mram.code,\"aw\",@progbits\n	.p2align 3\ncode:\n	.quad 0x%llx\n	.quad 0x%llx\n",
             (unsigned long long)w1, (unsigned long long)w2);
    const char *opts[] = {"tasklets=1", "dpus=2", "mram=1", NULL};
    dh_run r;
    assert_int_equal(dh_build(&r, src, 0, NULL, opts), 0);
    /* give DPU 1 a different first instruction (a host write to its IRAM after loading):
     * it jumps straight to .Lother */
    uint64_t wj;
    assert_true(dpu_assemble_line("jump 5", NULL, &wj, err, sizeof err) >= 0);
    uint8_t b[8];
    mem_st64le(b, wj);
    mem_space *i1 = sim_space(&r.m, "iram.1");
    assert_non_null(i1);
    assert_int_equal(mem_host_write(i1, 0, b, 8), 0);
    assert_int_equal(dh_run_all(&r), SIM_STOP_HALT);
    assert_int_equal(dh_reg(&r, 0, 0, "r5"), 77);
    assert_int_equal(dh_reg(&r, 1, 0, "r5"), 1);   /* the host's IRAM write took effect */
    dh_free(&r);
}

XPUSIM_TESTS(dpu_exec,
             cmocka_unit_test(test_run_bits),
             cmocka_unit_test(test_shift_amounts_and_chains),
             cmocka_unit_test(test_and_rki),
             cmocka_unit_test(test_ldmai),
             cmocka_unit_test(test_arith_carry),
             cmocka_unit_test(test_logic_shift),
             cmocka_unit_test(test_count_ext_mul),
             cmocka_unit_test(test_mul_div_step),
             cmocka_unit_test(test_conditions),
             cmocka_unit_test(test_load_store_pairs),
             cmocka_unit_test(test_call_atomic_threads),
             cmocka_unit_test(test_faults))
