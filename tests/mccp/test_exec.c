/* tests/mccp/test_exec.c: MCCP instruction semantics on the machine, RTL and doc modes.
 * Each case loads a few hand-encoded ROM words on core 0 (or another core), presets
 * registers and flags through the debugger interface, runs exactly N non-memory
 * instructions (the k-th instruction saves at cycle 1 + 4k, so running through cycle 1+4N
 * executes N of them) and checks registers, flags and RAM. Expected values come from the
 * reference's tables (conditions §1.4, ALU/flags §1.5, quirks §1.6-1.9), written here. */
#include "mccp_test.h"

static const char *const rtl0[] = {"cores=0", NULL};
static const char *const doc0[] = {"cores=0", "semantics=doc", NULL};

enum { FC = 1, FS = 2, FV = 4, FZ = 8 };

/* Conditions as the reference lists them (RTL column) and as the doc / ARM mean them. */
static int want_cond(int doc, int cond, unsigned f)
{
    int z = !!(f & FZ), s = !!(f & FS), v = !!(f & FV), c = !!(f & FC);
    switch (cond) {
    case T_EQ: return z;
    case T_NE: return !z;
    case T_GT: return !z && s == v;
    case T_LT: return s != v;
    case T_GE: return s == v;
    case T_LE: return doc ? (z || s != v) : 1;
    case T_CS: return c;
    case T_CC: return !c;
    case T_MI: return s;
    case T_PL: return !s;
    case T_AL: return 1;
    case T_NV: return 0;
    case T_VS: return v;
    case T_VC: return !v;
    case T_HI: return c && !z;
    default: return doc ? (!c || z) : (!c || !z);
    }
}

/* Run n instructions of 'words' on core 0 after 'setup'. */
typedef void (*setup_fn)(tmach *t, void *arg);
static void run_n(tmach *t, const char *const *opts, const uint32_t *w, size_t nw, int n, setup_fn setup, void *arg)
{
    tm_create(t, opts);
    tm_load(t, w, nw);
    tm_open_stack(t);
    if (setup)
        setup(t, arg);
    sim_stop_kind k = tm_run(t, 1 + 4 * (uint64_t)n);
    assert_true(k == SIM_STOP_LIMIT || k == SIM_STOP_HALT);
}


static void test_every_suffix_rtl_and_doc(void **state)
{
    (void)state;
    for (int doc = 0; doc < 2; doc++)
        for (int cond = 0; cond < 16; cond++)
            for (unsigned f = 0; f < 16; f++) {
                /* ALU: "add<cond> reg1 reg2" with reg1 = 5, reg2 = 1; result and flags only if taken */
                uint32_t w[] = {t_pair(t_alu(T_ADD, cond, 1, 2), t_mov(cond, 3, 2))};
                tmach t;
                tm_create(&t, doc ? doc0 : rtl0);
                tm_load(&t, w, 1);
                tm_set(&t, 0, "flags", f);
                tm_set(&t, 0, "reg1", 5);
                tm_set(&t, 0, "reg2", 1);
                tm_run(&t, 5); /* first instruction only */
                int taken = want_cond(doc, cond, f);
                assert_int_equal(tm_reg(&t, 0, "reg1"), taken ? 6u : 5u);
                assert_int_equal(tm_reg(&t, 0, "flags"), taken ? 0u : f); /* 5+1: no flag set */
                tm_destroy(&t);
                /* mov<cond>, evaluated with the preset flags */
                tm_create(&t, doc ? doc0 : rtl0);
                tm_load(&t, w, 1);
                tm_set(&t, 0, "flags", f);
                tm_set(&t, 0, "reg2", 77);
                tm_set(&t, 0, "half", 1); /* start at the low half: the mov */
                tm_run(&t, 5);
                assert_int_equal(tm_reg(&t, 0, "reg3"), want_cond(doc, cond, f) ? 77u : 0u);
                tm_destroy(&t);
            }
}

/* Reference §1.5 sample rows (RTL): op, a, b, [cin], result, flags Z V S C. */
typedef struct alu_row {
    int op;
    uint32_t a, b;
    unsigned cin;
    uint32_t res;
    int z, v, s, c;
} alu_row;

static void test_flags_table_rows(void **state)
{
    (void)state;
    static const alu_row rows[] = {
        {T_ADD, 0x7FFFFFFF, 1, 0, 0x80000000, 0, 1, 1, 0},
        {T_ADD, 0xFFFFFFFF, 1, 0, 0, 1, 0, 0, 1},
        {T_SUB, 3, 5, 0, 0xFFFFFFFE, 0, 0, 1, 1},
        {T_SUB, 0x80000000, 1, 0, 0x7FFFFFFF, 0, 1, 0, 0},
        {T_CMP, 5, 5, 0, 5, 1, 0, 0, 0},
        {T_CMP, 0x80000000, 1, 0, 0x80000000, 0, 0, 0, 0},
        {T_CMP, 0xFFFFFFFF, 1, 0, 0xFFFFFFFF, 0, 1, 1, 0},
        {T_CMP, 1, 0xFFFFFFFF, 0, 1, 0, 0, 0, 1},
        {T_CMP, 3, 5, 0, 3, 0, 1, 1, 1}, /* "cmp 3,5 gives C S V = 1 1 1" */
        {T_MUL, 0x7FFFFFFF, 3, 0, 0x7FFFFFFD, 0, 1, 0, 0},
        {T_DIV, 100, 7, 0, 14, 0, 0, 0, 0},
        {T_DIV, 0xFFFFFFFF, 2, 0, 0x7FFFFFFF, 0, 1, 0, 0},
        {T_XOR, 0x7FFFFFFF, 0x7FFFFFFF, 0, 0, 1, 1, 0, 0},
        {T_RSH, 0x80000000, 31, 0, 1, 0, 1, 0, 0},
        {T_ADDC, 10, 20, 1, 31, 0, 0, 0, 0},
        {T_SUBC, 10, 4, 1, 5, 0, 0, 0, 0},  /* C = 10 < 4+1 = 0; t = 10 < 4 = 0 */
        {T_LSH, 1, 32, 0, 0, 1, 0, 0, 0},   /* shift >= 32 gives 0; C = 0, t = carry(1+32) = 0 */
        {T_AND, 0xF0, 0x3C, 0, 0x30, 0, 0, 0, 0},
        {T_OR, 0xF0, 0x0F, 0, 0xFF, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const alu_row *r = &rows[i];
        /* op reg1 reg2 ; movf reg5 (RTL: condition le, always true) */
        uint32_t w[] = {t_pair(t_alu(r->op, T_AL, 1, 2), t_jreg(T_MOVF, 5))};
        tmach t;
        tm_create(&t, rtl0);
        tm_load(&t, w, 1);
        tm_set(&t, 0, "reg1", r->a);
        tm_set(&t, 0, "reg2", r->b);
        tm_set(&t, 0, "flags", r->cin ? FC : 0);
        tm_run(&t, 9);
        unsigned want = (unsigned)(r->z << 3 | r->v << 2 | r->s << 1 | r->c);
        if (tm_reg(&t, 0, "reg1") != r->res || tm_reg(&t, 0, "reg5") != want)
            fprintf(stderr, "row %zu: res %08x flags %x (want %08x %x)\n", i, tm_reg(&t, 0, "reg1"), tm_reg(&t, 0, "reg5"),
                    r->res, want);
        assert_int_equal(tm_reg(&t, 0, "reg1"), r->res);
        assert_int_equal(tm_reg(&t, 0, "reg5"), want);
        assert_int_equal(tm_reg(&t, 0, "flags"), want);
        tm_destroy(&t);
    }
}

/* inc/dec: op2 is reg0, and V uses it: inc FFFFFFFF with reg0=1 -> Z V S C = 1 0 0 1;
 * with reg0=0 V becomes 1. dec 0 with reg0=0 -> 0 1 1 1; with reg0=1 V = 0. Doc mode: V is
 * the signed overflow of +1/-1 (0 for both). */
static void test_inc_dec_v_uses_reg0(void **state)
{
    (void)state;
    struct { int op; uint32_t a, r0; int doc; uint32_t res; unsigned fl; } cases[] = {
        {T_INC, 0xFFFFFFFF, 1, 0, 0, FZ | FC},
        {T_INC, 0xFFFFFFFF, 0, 0, 0, FZ | FV | FC},
        {T_DEC, 0, 0, 0, 0xFFFFFFFF, FV | FS | FC},
        {T_DEC, 0, 1, 0, 0xFFFFFFFF, FS | FC},
        {T_INC, 0x7FFFFFFF, 0, 1, 0x80000000, FV | FS},
        {T_INC, 0xFFFFFFFF, 0, 1, 0, FZ | FC},
        {T_DEC, 0, 0, 1, 0xFFFFFFFF, FS | FC},
        {T_DEC, 0x80000000, 5, 1, 0x7FFFFFFF, FV},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t w[] = {t_pair(t_alu(cases[i].op, T_AL, 1, 0), T_NOP)};
        tmach t;
        tm_create(&t, cases[i].doc ? doc0 : rtl0);
        tm_load(&t, w, 1);
        tm_set(&t, 0, "reg1", cases[i].a);
        tm_set(&t, 0, "reg0", cases[i].r0);
        tm_run(&t, 5);
        assert_int_equal(tm_reg(&t, 0, "reg1"), cases[i].res);
        assert_int_equal(tm_reg(&t, 0, "flags"), cases[i].fl);
        tm_destroy(&t);
    }
}

/* cmp: RTL ignores the suffix (always writes flags, never a register); doc honours it and
 * computes V as a subtraction. */
static void test_cmp(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_alu(T_CMP, T_NV, 1, 2), T_NOP)};
    for (int doc = 0; doc < 2; doc++) {
        tmach t;
        tm_create(&t, doc ? doc0 : rtl0);
        tm_load(&t, w, 1);
        tm_set(&t, 0, "reg1", 3);
        tm_set(&t, 0, "reg2", 5);
        tm_run(&t, 5);
        assert_int_equal(tm_reg(&t, 0, "reg1"), 3);
        assert_int_equal(tm_reg(&t, 0, "flags"), doc ? 0u : (unsigned)(FC | FS | FV));
        tm_destroy(&t);
    }
    /* doc: cmp 3,5 (al) -> C S, V = 0 (no signed overflow) so jlt would be taken */
    uint32_t w2[] = {t_pair(t_alu(T_CMP, T_AL, 1, 2), T_NOP)};
    tmach t;
    tm_create(&t, doc0);
    tm_load(&t, w2, 1);
    tm_set(&t, 0, "reg1", 3);
    tm_set(&t, 0, "reg2", 5);
    tm_run(&t, 5);
    assert_int_equal(tm_reg(&t, 0, "flags"), (unsigned)(FC | FS));
    tm_destroy(&t);
}

/* movf's condition is {0, register}: reg0 eq, reg1 ne, reg2 gt, reg3 lt, reg4 ge, reg5 le
 * (always, RTL), sp cs; ip never. Doc: unconditional. */
static void test_movf_conditions(void **state)
{
    (void)state;
    for (int doc = 0; doc < 2; doc++)
        for (int r = 0; r < 8; r++)
            for (unsigned f = 0; f < 16; f++) {
                uint32_t w[] = {t_pair(t_jreg(T_MOVF, r), T_NOP)};
                tmach t;
                tm_create(&t, doc ? doc0 : rtl0);
                tm_load(&t, w, 1);
                tm_set(&t, 0, "flags", f);
                static const char *const rn[] = {"reg0", "reg1", "reg2", "reg3", "reg4", "reg5", "sp", "ip"};
                if (r < 7)
                    tm_set(&t, 0, rn[r], 0xDEAD);
                tm_run(&t, 5);
                if (r == 7) {
                    assert_int_equal(tm_reg(&t, 0, "ip"), 0); /* advanced to the low half of word 0 */
                    assert_int_equal(tm_reg(&t, 0, "half"), 1);
                } else {
                    int taken = doc || want_cond(0, r, f);
                    assert_int_equal(tm_reg(&t, 0, rn[r]), taken ? f : 0xDEADu);
                }
                tm_destroy(&t);
            }
}

/* load/store ignore their condition in RTL mode (storenv stores); doc honours it. */
static void test_load_store_conditions(void **state)
{
    (void)state;
    for (int doc = 0; doc < 2; doc++) {
        uint32_t w[] = {t_pair(t_store(T_NV, 1, 2), t_load(T_NV, 3, 4)), t_pair(T_INT1, T_NOP)};
        tmach t;
        tm_create(&t, doc ? doc0 : rtl0);
        tm_load(&t, w, 2);
        tm_open_stack(&t);
        tm_set(&t, 0, "reg1", 0x1234);
        tm_set(&t, 0, "reg2", 10);
        tm_set(&t, 0, "reg4", 11);
        tm_ram_set(&t, 11, 0x5678);
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 10), doc ? 0u : 0x1234u);
        assert_int_equal(t.m.units[0].counters[0].value, doc ? 0u : 1u); /* loads */
        if (doc) /* no transaction: 3 instructions at 4 cycles, int saves at 1 + 4*3 */
            assert_int_equal(tm_halted_at(&t, 0), 13);
        tm_destroy(&t);
    }
}

/* coreidx writes only the low half (RTL); doc writes the whole register. ip: no effect. */
static void test_coreidx(void **state)
{
    (void)state;
    static const char *const rtl2[] = {"cores=2", NULL};
    static const char *const doc2[] = {"cores=2", "semantics=doc", NULL};
    for (int doc = 0; doc < 2; doc++) {
        uint32_t w[] = {t_pair(t_spec(T_COREIDX, T_AL, 3), t_spec(T_COREIDX, T_AL, 7))};
        tmach t;
        tm_create(&t, doc ? doc2 : rtl2);
        tm_load(&t, w, 1);
        tm_set(&t, 2, "reg3", 0xABCD0000);
        tm_run(&t, 9);
        assert_int_equal(tm_reg(&t, 2, "reg3"), doc ? 2u : 0xABCD0002u);
        assert_int_equal(tm_reg(&t, 2, "ip"), 1); /* coreidx ip did nothing: plain advance */
        tm_destroy(&t);
    }
}

/* movl/movh write one half; to ip they do nothing. */
static void test_movl_movh(void **state)
{
    (void)state;
    uint32_t w[] = {t_movl(T_AL, 2, 0xBEEF), t_movh(T_AL, 2, 0xCAFE), t_movl(T_AL, 7, 0x55), t_movh(T_EQ, 3, 1)};
    tmach t;
    run_n(&t, rtl0, w, 4, 4, NULL, NULL);
    assert_int_equal(tm_reg(&t, 0, "reg2"), 0xCAFEBEEFu);
    assert_int_equal(tm_reg(&t, 0, "ip"), 4); /* movl ip ignored */
    assert_int_equal(tm_reg(&t, 0, "reg3"), 0); /* eq with Z=0: not taken */
    tm_destroy(&t);
}

/* Jumps: own formulas in both modes, ip = reg, high half, no delay slot. */
static void test_jumps(void **state)
{
    (void)state;
    static const int ops[] = {T_JE, T_JNE, T_JGT, T_JGE, T_JLT, T_JLE, T_JMP};
    for (int j = 0; j < 7; j++)
        for (unsigned f = 0; f < 16; f++) {
            int z = !!(f & FZ), s = !!(f & FS), v = !!(f & FV);
            int want = ops[j] == T_JE ? z : ops[j] == T_JNE ? !z : ops[j] == T_JGT ? (!z && s == v) : ops[j] == T_JGE ? s == v
                     : ops[j] == T_JLT ? s != v : ops[j] == T_JLE ? (z || s != v) : 1;
            /* word0: jX reg5 | inc reg1 (skipped when taken: no delay slot); word3: inc reg2 */
            uint32_t w[] = {t_pair(t_jreg(ops[j], 5), t_alu(T_INC, T_AL, 1, 0)), 0, 0,
                            t_pair(t_alu(T_INC, T_AL, 2, 0), T_NOP)};
            tmach t;
            tm_create(&t, rtl0);
            tm_load(&t, w, 4);
            tm_set(&t, 0, "flags", f);
            tm_set(&t, 0, "reg5", 3);
            tm_run(&t, 9);
            assert_int_equal(tm_reg(&t, 0, "reg1"), want ? 0u : 1u);
            assert_int_equal(tm_reg(&t, 0, "reg2"), want ? 1u : 0u);
            tm_destroy(&t);
        }
}

/* mov/ALU to ip: ip = value, then the usual advance: from a high half execution continues
 * at the low half of the target word; from a low half at the next word. */
static void test_write_ip_quirk(void **state)
{
    (void)state;
    /* word0: mov ip reg1 (high) ; word3: inc reg2 | inc reg3 ; word4: inc reg4 */
    uint32_t w[] = {t_pair(t_mov(T_AL, 7, 1), T_NOP), 0, 0, t_pair(t_alu(T_INC, T_AL, 2, 0), t_alu(T_INC, T_AL, 3, 0)),
                    t_pair(t_alu(T_INC, T_AL, 4, 0), T_NOP)};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 5);
    tm_set(&t, 0, "reg1", 3);
    tm_run(&t, 9);
    assert_int_equal(tm_reg(&t, 0, "reg2"), 0); /* high half of word 3 skipped */
    assert_int_equal(tm_reg(&t, 0, "reg3"), 1);
    tm_destroy(&t);
    /* from a low half: add ip reg1 with ip = 0 -> 3, then +1: word 4 */
    uint32_t w2[] = {t_pair(T_NOP, t_alu(T_ADD, T_AL, 7, 1)), 0, 0, t_pair(t_alu(T_INC, T_AL, 2, 0), t_alu(T_INC, T_AL, 3, 0)),
                     t_pair(t_alu(T_INC, T_AL, 4, 0), T_NOP)};
    tm_create(&t, rtl0);
    tm_load(&t, w2, 5);
    tm_set(&t, 0, "reg1", 3);
    tm_run(&t, 13);
    assert_int_equal(tm_reg(&t, 0, "reg2") + tm_reg(&t, 0, "reg3"), 0);
    assert_int_equal(tm_reg(&t, 0, "reg4"), 1);
    tm_destroy(&t);
}

/* int n: any number halts, registers reg0..sp cleared, flags and stack registers kept;
 * doc: only int 1 is documented, others stop as illegal. */
static void test_int(void **state)
{
    (void)state;
    for (int n = 0; n < 8; n++) {
        uint32_t w[] = {t_pair(t_spec(T_INT, T_AL, n), T_NOP)};
        tmach t;
        tm_create(&t, rtl0);
        tm_load(&t, w, 1);
        tm_set(&t, 0, "reg3", 9);
        tm_set(&t, 0, "sp", 9);
        tm_set(&t, 0, "flags", 5);
        tm_set(&t, 0, "my_stack_end", 77);
        tm_run_halt(&t, 100);
        assert_int_equal(tm_halted_at(&t, 0), 5);
        assert_int_equal(tm_reg(&t, 0, "reg3"), 0);
        assert_int_equal(tm_reg(&t, 0, "sp"), 0);
        assert_int_equal(tm_reg(&t, 0, "flags"), 5);
        assert_int_equal(tm_reg(&t, 0, "my_stack_end"), 77);
        /* int in a high half: ip = -1 and the low half is next (warm-restart quirk) */
        assert_int_equal(tm_reg(&t, 0, "ip"), 0xFFFFFFFFu);
        assert_int_equal(tm_reg(&t, 0, "half"), 1);
        tm_destroy(&t);
        tm_create(&t, doc0);
        tm_load(&t, w, 1);
        sim_stop_kind k = tm_run(&t, 100);
        assert_int_equal(k, n == 1 ? SIM_STOP_HALT : SIM_STOP_ILLEGAL);
        tm_destroy(&t);
    }
    /* intnv does not halt; int from a low half leaves ip = 0, high half */
    uint32_t w[] = {t_pair(t_spec(T_INT, T_NV, 1), t_spec(T_INT, T_AL, 1))};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 1);
    tm_run_halt(&t, 100);
    assert_int_equal(tm_halted_at(&t, 0), 9);
    assert_int_equal(tm_reg(&t, 0, "ip"), 0);
    assert_int_equal(tm_reg(&t, 0, "half"), 0);
    tm_destroy(&t);
}

static void test_div_by_zero_warns(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_alu(T_DIV, T_AL, 1, 2), T_NOP)};
    tmach t;
    tm_create(&t, rtl0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    t.m.err = f;
    tm_load(&t, w, 1);
    tm_set(&t, 0, "reg1", 100);
    tm_run(&t, 5);
    fflush(f);
    assert_int_equal(tm_reg(&t, 0, "reg1"), 0xFFFFFFFFu);
    assert_int_equal(tm_reg(&t, 0, "flags"), FS);
    assert_non_null(strstr(buf, "division by zero"));
    assert_int_equal(t.m.units[0].counters[3].value, 1);
    tm_destroy(&t);
    fclose(f);
    free(buf);
}

/* The warning is printed once per core however many divisions by zero follow (the once
 * flag was a counter that wrapped, so every 256th division warned again); each is counted.
 * 300 divisions: 150 ROM words of two, the k-th instruction saving at 1 + 4k (no RAM),
 * so all 300 have saved by cycle 1 + 4 x 300 = 1201. */
static void test_div_by_zero_warns_once(void **state)
{
    (void)state;
    uint32_t w[150];
    for (int i = 0; i < 150; i++)
        w[i] = t_pair(t_alu(T_DIV, T_AL, 1, 2), t_alu(T_DIV, T_AL, 1, 2));
    tmach t;
    tm_create(&t, rtl0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    t.m.err = f;
    tm_load(&t, w, 150);
    tm_run(&t, 1202);
    fflush(f);
    assert_int_equal(t.m.units[0].counters[3].value, 300);
    const char *first = strstr(buf, "division by zero");
    assert_non_null(first);
    assert_null(strstr(first + 1, "division by zero"));
    tm_destroy(&t);
    fclose(f);
    free(buf);
}

static void test_shifts_logic_mul(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_alu(T_LSH, T_AL, 1, 2), t_alu(T_RSH, T_AL, 3, 4)),
                    t_pair(t_alu(T_NOT, T_AL, 5, 0), t_alu(T_MUL, T_AL, 0, 2))};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 2);
    tm_set(&t, 0, "reg1", 3);
    tm_set(&t, 0, "reg2", 33);
    tm_set(&t, 0, "reg3", 0x80000000);
    tm_set(&t, 0, "reg4", 4);
    tm_set(&t, 0, "reg5", 0x0F0F0F0F);
    tm_set(&t, 0, "reg0", 0x10000);
    tm_run(&t, 17);
    assert_int_equal(tm_reg(&t, 0, "reg1"), 0);
    assert_int_equal(tm_reg(&t, 0, "reg3"), 0x08000000);
    assert_int_equal(tm_reg(&t, 0, "reg5"), 0xF0F0F0F0u);
    assert_int_equal(tm_reg(&t, 0, "reg0"), 0x10000u * 33);
    tm_destroy(&t);
}

/* msb sets my_stack_begin and sp; mse, sb, excl their registers; all take a condition. */
static void test_stack_registers(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_spec(T_MSB, T_AL, 1), t_spec(T_MSE, T_AL, 2)), t_pair(t_spec(T_SB, T_AL, 3), t_spec(T_EXCL, T_AL, 4)),
                    t_pair(t_spec(T_MSB, T_NV, 2), t_spec(T_MSB, T_AL, 7))};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 3);
    tm_set(&t, 0, "reg1", 100);
    tm_set(&t, 0, "reg2", 200);
    tm_set(&t, 0, "reg3", 50);
    tm_set(&t, 0, "reg4", 7);
    tm_run(&t, 1 + 4 * 5);
    assert_int_equal(tm_reg(&t, 0, "my_stack_begin"), 100);
    assert_int_equal(tm_reg(&t, 0, "sp"), 100);
    assert_int_equal(tm_reg(&t, 0, "my_stack_end"), 200);
    assert_int_equal(tm_reg(&t, 0, "stack_begin"), 50);
    assert_int_equal(tm_reg(&t, 0, "stack_exc_addr"), 7);
    tm_run(&t, 1 + 4 * 6); /* msb ip: the current word address, 2 */
    assert_int_equal(tm_reg(&t, 0, "my_stack_begin"), 2);
    assert_int_equal(tm_reg(&t, 0, "sp"), 2);
    tm_destroy(&t);
}

/* An all-zero ROM runs load reg0,[reg0] (condition eq, ignored): loads, not NOPs. Decoder
 * no-op codes change nothing. */
static void test_zero_word_and_noops(void **state)
{
    (void)state;
    uint32_t w[] = {0x00000000, t_pair(0x2C00 | 0x1FF, 0x3E00), t_pair(0x0C3F, T_INT1)};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 3);
    tm_open_stack(&t);
    tm_ram_set(&t, 0, 42);
    tm_set(&t, 0, "flags", 0);
    tm_run_halt(&t, 1000);
    assert_int_equal(t.m.units[0].counters[0].value, 2); /* two loads */
    assert_int_equal(t.m.units[0].threads[0].instructions, 6);
    tm_destroy(&t);
}

/* load ip,[x] sets ip with no adjustment: from a high half the low half of word x runs. */
static void test_load_ip(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_load(T_AL, 7, 1), T_NOP), 0, t_pair(t_alu(T_INC, T_AL, 2, 0), t_alu(T_INC, T_AL, 3, 0)),
                    t_pair(T_INT1, T_NOP)};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 4);
    tm_open_stack(&t);
    tm_set(&t, 0, "reg1", 9);
    tm_ram_set(&t, 9, 2);
    tm_run_halt(&t, 1000);
    /* cannot read reg2/3 after int; count instructions: load, inc reg3, int = 3 */
    assert_int_equal(t.m.units[0].threads[0].instructions, 3);
    tm_destroy(&t);
}

/* ALU opcode 1111 has no mnemonic; the RTL's default case gives result = op1, C = 0, and
 * (opcode bit 1 set) V = C xor (op1[30:0] < op2[30:0]). */
static void test_alu_opcode_1111(void **state)
{
    (void)state;
    uint32_t w[] = {t_pair(t_alu(15, T_AL, 1, 2), T_NOP)};
    tmach t;
    tm_create(&t, rtl0);
    tm_load(&t, w, 1);
    tm_set(&t, 0, "reg1", 0x80000001u);
    tm_set(&t, 0, "reg2", 5);
    tm_set(&t, 0, "flags", FC);
    tm_run(&t, 5);
    assert_int_equal(tm_reg(&t, 0, "reg1"), 0x80000001u);
    assert_int_equal(tm_reg(&t, 0, "flags"), FS | FV); /* 1 < 5 in 31 bits: V = 0 ^ 1 */
    tm_destroy(&t);
}

XPUSIM_TESTS(mccp_exec,
             cmocka_unit_test(test_alu_opcode_1111),
             cmocka_unit_test(test_every_suffix_rtl_and_doc),
             cmocka_unit_test(test_flags_table_rows),
             cmocka_unit_test(test_inc_dec_v_uses_reg0),
             cmocka_unit_test(test_cmp),
             cmocka_unit_test(test_movf_conditions),
             cmocka_unit_test(test_load_store_conditions),
             cmocka_unit_test(test_coreidx),
             cmocka_unit_test(test_movl_movh),
             cmocka_unit_test(test_jumps),
             cmocka_unit_test(test_write_ip_quirk),
             cmocka_unit_test(test_int),
             cmocka_unit_test(test_div_by_zero_warns), cmocka_unit_test(test_div_by_zero_warns_once),
             cmocka_unit_test(test_shifts_logic_mul),
             cmocka_unit_test(test_stack_registers),
             cmocka_unit_test(test_zero_word_and_noops),
             cmocka_unit_test(test_load_ip))
