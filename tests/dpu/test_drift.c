/* tests/dpu/test_drift.c: the DPU's loops cannot drift apart on the forms they run inline
 * (issue 11 pt 6). Every DPU_FAST_* kind the loops run inline (all but DMA, which every loop
 * hands to the generic executor) appears below, with a register and an immediate second
 * operand where the form has both; each word runs one instruction at a time from random
 * registers, flags, WRAM bytes and atomic bits through four paths of the real entry points:
 * the reference loop (exec.c, as the debugger and --max-insns run it), the reference loop
 * with the record's inline kind cleared (exec.c's generic switch on the operation, the
 * semantics every other form of the same operation runs), the cycle model's burst (fast.c)
 * and the functional records (func_rec.c, -o timing=none). All four must leave the same
 * registers, flags, next pc, WRAM bytes and atomic bits. The first and third read one text
 * (fastops.inc) and the functional handlers cond.h's DPU_SEM_* as that text does; the second
 * is an independent statement of each operation (the generic executor), so an edit to one
 * copy of an operation's semantics that is not made to the other fails here. */
#include "../testlib.h"
#include "dpu_harness.h"
#include "../../isa/dpu/func.h"
#include "../../isa/dpu/func_rec.h"

/* One of each inline kind; .Lt and .Lc are branch targets inside IRAM. Memory forms use r1
 * as the base (the test points it into the window below). */
static const char drift_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    ".Lt:\n"
    "	add r3, r1, r2\n	add r3, r1, 0x7fff\n	sub r3, r1, r2\n	sub r3, r1, 5, false\n"
    "	and r3, r1, r2\n	and r3, r1, 0xff00\n	or r3, r1, r2\n	or r3, r1, 0x1234\n"
    "	xor r3, r1, r2\n	xor r3, r1, -1\n	lsl r3, r1, r2\n	lsl r3, r1, 7\n"
    "	lsr r3, r1, r2\n	lsr r3, r1, 31\n	asr r3, r1, r2\n	asr r3, r1, 3\n"
    "	addc r3, r1, r2\n	addc r3, r1, 1\n	subc r3, r1, r2\n	subc r3, r1, 2, false\n"
    "	lsl_add r3, r2, r1, 0\n	lsl_add r4, r2, r1, 5\n	lsl_add r5, r2, r1, 31\n"
    "	lw r3, r1, 8\n	lbu r3, r1, 3\n	lbs r3, r1, 5\n	lhu r3, r1, 6\n	lhs r3, r1, 10\n"
    "	ld d4, r1, 16\n	sw r1, 4, r2\n	sw r1, 12, 0x5678\n	sb r1, 1, r2\n	sb r1, 7, -3\n"
    "	sh r1, 2, r2\n	sh r1, 14, 0x4321\n	sd r1, 24, d2\n"
    "	jeq r1, r2, .Lt\n	jeq r1, 7, .Lt\n	jneq r1, r2, .Lt\n	jneq r1, 0, .Lt\n"
    "	jltu r1, r2, .Lt\n	jltu r1, 100, .Lt\n	jgeu r1, r2, .Lt\n	jgeu r1, 100, .Lt\n"
    "	jleu r1, r2, .Lt\n	jleu r1, 3, .Lt\n	jgtu r1, r2, .Lt\n	jgtu r1, 3, .Lt\n"
    "	jlts r1, r2, .Lt\n	jlts r1, -4, .Lt\n	jges r1, r2, .Lt\n	jges r1, -4, .Lt\n"
    "	jles r1, r2, .Lt\n	jles r1, 9, .Lt\n	jgts r1, r2, .Lt\n	jgts r1, 9, .Lt\n"
    "	sub zero, r1, r2, mi, .Lt\n	sub zero, r1, r2, ov, .Lt\n	sub zero, r1, 5, xz, .Lt\n"
    "	add r3, r1, r2, z, .Lt\n	add r3, r1, -1, z, .Lt\n	add r3, r1, r2, nz, .Lt\n"
    "	add r3, r1, 1, nz, .Lt\n	add r3, r1, r2, ov, .Lt\n	add r3, r1, r2, c, .Lt\n"
    "	add r3, r1, r2, nc, .Lt\n	add r3, r1, r2, mi, .Lt\n"
    "	sub r3, r1, r2, z, .Lt\n	sub r3, r1, 8, z, .Lt\n	sub r3, r1, r2, nz, .Lt\n"
    "	sub r3, r1, 8, nz, .Lt\n	sub r3, r1, r2, ltu, .Lt\n	sub r3, r1, r2, ges, .Lt\n"
    "	sub r3, r1, r2, pl, .Lt\n	sub r3, r1, r2, nov, .Lt\n"
    "	call r23, .Lc\n	call r23, r1, 3\n	jump r1\n	jump .Lc\n"
    "	acquire r1, 5, z, .Lt\n	acquire r1, 5, nz, .Lt\n	release r1, 5, nz, .Lt\n"
    "	acquire r1, 3, true, .Lt\n	release r1, 0, nz, .Lc\n	acquire r2, 7, z, .Lc\n"
    "	and r3, r1, r2, z, .Lt\n	or r3, r1, r2, nz, .Lt\n	xor r3, r1, 0xf0, mi, .Lt\n"
    "	and.s d4, r1, r2\n	or.u d4, r1, r2\n	xor zero, r1, r2, z, .Lt\n	or.s d4, r1, 0x80, pl, .Lt\n"
    "	mul_step d4, r1, d2, 0, z, .Lt\n	mul_step d4, r1, d2, 5, z, .Lt\n	mul_step d2, r1, d4, 31, nz, .Lt\n"
    "	mul_step d2, r1, d2, 3, z, .Lt\n	mul_step d4, r4, d4, 31, z, .Lt\n	mul_step d2, r3, d2, 0, z, .Lt\n"
    "	div_step d4, r1, d2, 0\n	div_step d4, r1, d2, 7, true, .Lt\n	div_step d2, r1, d4, 3, smi, .Lt\n"
    "	clz r3, r1\n	clz r3, r1, z, .Lt\n	clo r3, r1\n	clo r3, r1, nz, .Lt\n	clz zero, r1, max, .Lt\n"
    "	movd d4, d2\n	movd d2, d4, true, .Lt\n"
    ".Lc:\n"
    "	stop\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "pad:\n"
    "	.zero 8\n";

enum { WIN = 256, TRIALS = 160 };

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* A register value: mostly random, often an edge (carries, signs, shift amounts). */
static uint32_t pick(uint64_t *s)
{
    static const uint32_t edge[] = {0, 1, 2, 3, 5, 7, 8, 31, 32, 33, 63, 64, 100, 0x7fffffffu, 0x80000000u,
                                    0xffffffffu, 0xfffffffeu, 0xfffffffcu, 0x8000u, 0xffffu};
    const uint32_t r = rng(s);
    if ((r & 3) == 0)
        return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
    if ((r & 3) == 1)
        return rng(s) & 0xff;
    return rng(s);
}

/* The state one instruction runs from (and what it leaves). */
typedef struct drift_state {
    uint32_t r[24];
    uint8_t zf, cf;
    uint16_t pc;
    uint8_t wram[WIN];
    uint8_t atomic[256];
} drift_state;

static void put(dpu_unit *d, const drift_state *s)
{
    memcpy(d->t[0].r, s->r, sizeof s->r);
    d->t[0].zf = s->zf;
    d->t[0].cf = s->cf;
    d->t[0].pc = s->pc;
    memcpy(d->wram_p, s->wram, WIN);
    memcpy(d->atomic, s->atomic, 256);
}

static void get(const dpu_unit *d, drift_state *s)
{
    memcpy(s->r, d->t[0].r, sizeof s->r);
    s->zf = d->t[0].zf;
    s->cf = d->t[0].cf;
    s->pc = d->t[0].pc;
    memcpy(s->wram, d->wram_p, WIN);
    memcpy(s->atomic, d->atomic, 256);
}

/* Ready tasklet 0 (the only one) to issue at cycle now. */
static void ready(sim_unit *u, dpu_unit *d, uint64_t now)
{
    d->run = 1;
    d->faulted = 0;
    d->t[0].wait = DPU_W_NONE;
    d->t[0].last_issue = d->t[0].seg_start = now - 11;
    d->t[0].seg_open = 1;
    u->threads[0].state = SIM_T_READY;
    u->threads[0].ready_at = now;
    u->rr = 0;
    u->halted = 0;
}

enum { P_REF, P_GENERIC, P_FAST, P_FUNC, P_N };
static const char *const path_name[P_N] = {"reference loop (fastops.inc)", "generic executor",
                                           "cycle model burst (fast.c)", "functional records"};

/* Run the instruction at s->pc from s along path p; out: what it left. */
static void run_path(dh_run *r, dpu_fn_state *fs, int p, const drift_state *s, drift_state *out)
{
    sim_machine *m = &r->m;
    sim_unit *u = &m->units[0];
    dpu_unit *d = u->isa;
    const uint64_t now = 1000;
    dpu_insn *in = &d->iram[s->pc];
    const uint8_t fast = in->fast;
    put(d, s);
    ready(u, d, now);
    const uint64_t n0 = u->threads[0].instructions;
    m->max_instructions = p == P_REF || p == P_GENERIC ? ~0ull : 0; /* the reference loop */
    if (p == P_GENERIC)
        in->fast = DPU_FAST_NONE;
    uint64_t next;
    if (p == P_FUNC)
        next = dpu_func_run(m, u, d, now, now + 1, 1, fs);
    else
        next = dpu_run(m, u, d, now, now + 1);
    in->fast = fast;
    m->max_instructions = 0;
    assert_int_equal(next, now + 1);
    assert_false(sim_stopped(m));
    assert_int_equal(u->threads[0].instructions, n0 + 1);
    get(d, out);
}

static void test_inline_forms(void **state)
{
    (void)state;
    static const char *const opts[] = {"tasklets=1", NULL};
    static dh_run r;
    assert_int_equal(dh_build(&r, drift_src, 0, NULL, opts), 0);
    dpu_unit *d = r.m.units[0].isa;
    dpu_fn_state *fs = dpu_fn_create(1);
    assert_non_null(fs);
    dpu_fn_build_shared(fs, d->dm);
    /* the program's words up to the stop: which kinds they cover */
    uint32_t nw = 0;
    while (nw < d->dm->iram_words && d->iram[nw].op != DPU_OP_STOP)
        nw++;
    unsigned seen[DPU_FAST_DMA + 1] = {0};
    for (uint32_t k = 0; k < nw; k++) {
        assert_false(d->iram[k].illegal);
        seen[d->iram[k].fast]++;
    }
    for (int f = DPU_FAST_NONE + 1; f < DPU_FAST_DMA; f++) {
        if (!seen[f])
            print_message("inline kind %d has no word in drift_src\n", f);
        assert_true(seen[f] > 0);
    }
    assert_int_equal(seen[DPU_FAST_NONE], 0); /* every word is an inline form */
    uint64_t seed = 0x5eed;
    unsigned jumps = 0, stores = 0;
    for (uint32_t k = 0; k < nw; k++) {
        const dpu_insn *in = &d->iram[k];
        for (int trial = 0; trial < TRIALS; trial++) {
            static drift_state s, out[P_N];
            for (int i = 0; i < 24; i++)
                s.r[i] = pick(&seed);
            s.zf = rng(&seed) & 1;
            s.cf = rng(&seed) & 1;
            s.pc = (uint16_t)k;
            for (int i = 0; i < WIN; i++)
                s.wram[i] = (uint8_t)rng(&seed);
            for (int i = 0; i < 256; i++)
                s.atomic[i] = rng(&seed) & 1;
            if (in->fast >= DPU_FAST_LW && in->fast <= DPU_FAST_SD) {
                /* the base in the window, aligned to the access (the forms' offsets are) */
                s.r[1] = (rng(&seed) % (WIN - 64)) & ~7u;
                stores += in->fast >= DPU_FAST_SW;
            }
            if (in->fast == DPU_FAST_CALL && (rng(&seed) & 1))
                s.r[1] &= 0xfff; /* a jump through r1 inside IRAM's index range, sometimes */
            for (int p = 0; p < P_N; p++)
                run_path(&r, fs, p, &s, &out[p]);
            jumps += out[P_REF].pc != k + 1;
            for (int p = 1; p < P_N; p++) {
                if (!memcmp(&out[p], &out[P_REF], sizeof out[p]))
                    continue;
                print_message("word %u (kind %d, trial %d): %s differs from the %s\n", k, in->fast, trial,
                              path_name[p], path_name[P_REF]);
                for (int i = 0; i < 24; i++)
                    if (out[p].r[i] != out[P_REF].r[i])
                        print_message("  r%d %08x != %08x\n", i, out[p].r[i], out[P_REF].r[i]);
                print_message("  zf %d/%d cf %d/%d pc %u/%u\n", out[p].zf, out[P_REF].zf, out[p].cf,
                              out[P_REF].cf, out[p].pc, out[P_REF].pc);
                assert_memory_equal(&out[p], &out[P_REF], sizeof out[p]);
            }
        }
    }
    /* the trials took both ways of the branches and wrote memory (the comparisons above
     * are not all of untouched state) */
    assert_true(jumps > 1000);
    assert_true(stores > 1000);
    dpu_fn_free(fs);
    dh_free(&r);
}

XPUSIM_TESTS(dpu_drift, cmocka_unit_test(test_inline_forms));
