/* tests/mccp/test_asm.c: the MCCP assembler's macro expansions, label handling, NOP
 * alignment and padding, kept bugs of the original, and its error messages.
 * Expected ROM images are laid out here by a small independent model of the documented
 * rules (reference §1.2 and §1.12): 16-bit slots, high half first; a 32-bit instruction and
 * a jump-label target start a word (a NOP = addnv reg0 reg0 is inserted otherwise); the
 * image is padded to whole words; jump labels are word addresses; reg5 carries labels. */
#include <unistd.h>
#include "mccp_test.h"

typedef struct lay {
    uint32_t slot[4096]; /* 16-bit values; a 32-bit instruction takes two slots */
    int is32[4096];
    int n;
} lay;

static void l16(lay *l, uint16_t h)
{
    l->is32[l->n] = 0;
    l->slot[l->n++] = h;
}
static void lalign(lay *l)
{
    if (l->n % 2)
        l16(l, T_NOP);
}
static void l32(lay *l, uint32_t w)
{
    lalign(l);
    l->is32[l->n] = 1;
    l->slot[l->n++] = w;
    l->is32[l->n] = 2;
    l->slot[l->n++] = 0;
}
/* movl/movh pair loading a 32-bit value into r with condition c */
static void lmov32(lay *l, int c, int r, uint32_t v)
{
    l32(l, t_movl(c, r, v & 0xFFFF));
    l32(l, t_movh(c, r, v >> 16));
}
/* the prologue of an empty `stack_size`: stack_begin = 65535 */
static void lempty_stack(lay *l)
{
    lmov32(l, T_AL, 5, 65535);
    l16(l, t_spec(T_SB, T_AL, 5));
}
/* the default `stack_size 1000 1000 1000 1000` prologue (77 slots) */
static void ldefault(lay *l)
{
    for (int i = 0; i < 4; i++) {
        uint32_t b = 61535u + 1000u * (uint32_t)i, e = b + 1000;
        l16(l, t_spec(T_COREIDX, T_AL, 3));
        l16(l, t_alu(T_XOR, T_AL, 4, 4));
        l32(l, t_movl(T_AL, 4, (unsigned)i));
        l16(l, t_alu(T_CMP, T_AL, 3, 4));
        lmov32(l, T_EQ, 5, b);
        l16(l, t_spec(T_MSB, T_EQ, 5));
        l16(l, t_mov(T_EQ, 6, 5));
        lmov32(l, T_EQ, 5, e);
        l16(l, t_spec(T_MSE, T_EQ, 5));
    }
    lmov32(l, T_AL, 5, 61535);
    l16(l, t_spec(T_SB, T_AL, 5));
}
static size_t lwords(lay *l, uint32_t *w)
{
    lalign(l);
    size_t n = 0;
    for (int i = 0; i < l->n; i += 2)
        w[n++] = l->is32[i] == 1 ? l->slot[i] : t_pair((uint16_t)l->slot[i], (uint16_t)l->slot[i + 1]);
    return n;
}

static void check(const char *src, lay *l)
{
    static uint32_t want[2048];
    size_t nw = lwords(l, want);
    uint32_t *w;
    size_t n;
    char err[256] = "";
    int rc = mccp_assemble_text("t.mccp", src, &w, &n, NULL, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    if (n != nw)
        fprintf(stderr, "%zu words, want %zu\n", n, nw);
    for (size_t i = 0; i < n && i < nw; i++)
        if (w[i] != want[i])
            fprintf(stderr, "word %zu: %08x want %08x\n", i, w[i], want[i]);
    assert_int_equal(n, nw);
    assert_memory_equal(w, want, n * 4);
    free(w);
}

static void expect_error(const char *src, const char *where, const char *what)
{
    uint32_t *w = NULL;
    size_t n = 0;
    char err[256] = "";
    assert_int_equal(mccp_assemble_text("t.mccp", src, &w, &n, NULL, err, sizeof err), -1);
    if (!strstr(err, where) || !strstr(err, what))
        fprintf(stderr, "error was: %s\n", err);
    assert_non_null(strstr(err, where));
    assert_non_null(strstr(err, what));
    assert_null(w);
}

static void test_push_pop_nop(void **state)
{
    (void)state;
    lay l = {0};
    lempty_stack(&l);
    l16(&l, t_store(T_AL, 1, 6)); /* push reg1: store reg1,[sp]; inc sp */
    l16(&l, t_alu(T_INC, T_AL, 6, 0));
    l16(&l, t_alu(T_DEC, T_AL, 6, 0)); /* pop reg2: dec sp; load reg2,[sp] */
    l16(&l, t_load(T_AL, 2, 6));
    l16(&l, T_NOP);
    check("stack_size\npush reg1\npop reg2\nnop\n", &l);
}

static void test_movimm_and_immediates(void **state)
{
    (void)state;
    lay l = {0};
    lempty_stack(&l);
    lmov32(&l, T_AL, 3, 70000);
    lmov32(&l, T_EQ, 4, 0x12345678);
    /* OP r N -> movl/movh reg5 N (with OP's suffix) ; OP r reg5 */
    lmov32(&l, T_AL, 5, 5);
    l16(&l, t_alu(T_ADD, T_AL, 1, 5));
    lmov32(&l, T_NE, 5, 7);
    l16(&l, t_alu(T_SUB, T_NE, 2, 5));
    /* the original's bug: mul reg5 3 squares whatever reg5 becomes (3*3) */
    lmov32(&l, T_AL, 5, 3);
    l16(&l, t_alu(T_MUL, T_AL, 5, 5));
    /* cmp with an immediate, as the programs use it */
    lmov32(&l, T_AL, 5, 0);
    l16(&l, t_alu(T_CMP, T_AL, 1, 5));
    /* values of 2^32 and above split after their first 16 binary digits: 2^32 -> 0x80000000 */
    lmov32(&l, T_AL, 1, 0x80000000u);
    check("stack_size\nmovimm reg3 70000\nmovimmeq reg4 305419896\nadd reg1 5\nsubne reg2 7\nmul reg5 3\n"
          "cmp reg1 0\nmovimm reg1 4294967296\n",
          &l);
}

static void test_labels_jumps_alignment(void **state)
{
    (void)state;
    /* jmp end ; nop ; end: int 1 -- end is slot 12 = word 6 */
    lay l = {0};
    lempty_stack(&l);
    lmov32(&l, T_AL, 5, 6);
    l16(&l, t_jreg(T_JMP, 5));
    l16(&l, T_NOP);
    assert_int_equal(l.n, 12);
    l16(&l, T_INT1);
    check("stack_size\njmp end\nnop\nend:\nint 1\n", &l);

    /* a target at an odd slot gets a NOP; labels are case-insensitive; comments vanish */
    lay m = {0};
    lempty_stack(&m);
    l16(&m, t_alu(T_INC, T_AL, 1, 0));
    l16(&m, t_alu(T_INC, T_AL, 2, 0));
    lalign(&m); /* loop: at slot 7 -> NOP, loop = slot 8 = word 4 */
    assert_int_equal(m.n, 8);
    l16(&m, t_alu(T_DEC, T_AL, 1, 0));
    lmov32(&m, T_AL, 5, 4);
    l16(&m, t_jreg(T_JNE, 5));
    check("// a comment line\nstack_size\nINC reg1   // trailing comment\ninc REG2\nLoop:\n  dec reg1\n  jne LOOP\n", &m);
}

static void test_call_ret(void **state)
{
    (void)state;
    /* call f: movl/movh reg5 RET; store reg5,[sp]; inc sp; movl/movh reg5 F; jmp reg5
     * Slots: NOP 5, movl 6-7, movh 8-9, store 10, inc 11, movl 12-13, movh 14-15, jmp 16;
     * the return label (slot 17, odd) -> NOP, int at 18 (RET = word 9); f at 19 -> NOP,
     * ret at 20 (F = word 10): dec sp; load reg5,[sp]; jmp reg5. */
    lay l = {0};
    lempty_stack(&l);
    lmov32(&l, T_AL, 5, 9);
    l16(&l, t_store(T_AL, 5, 6));
    l16(&l, t_alu(T_INC, T_AL, 6, 0));
    lmov32(&l, T_AL, 5, 10);
    l16(&l, t_jreg(T_JMP, 5));
    lalign(&l);
    assert_int_equal(l.n, 18);
    l16(&l, T_INT1);
    lalign(&l);
    l16(&l, t_alu(T_DEC, T_AL, 6, 0));
    l16(&l, t_load(T_AL, 5, 6));
    l16(&l, t_jreg(T_JMP, 5));
    check("stack_size\ncall f\nint 1\nf:\nret\n", &l);

    /* callne: every part carries ne (the store too, though the hardware ignores it) */
    lay c = {0};
    lempty_stack(&c);
    lmov32(&c, T_NE, 5, 9);
    l16(&c, t_store(T_NE, 5, 6));
    l16(&c, t_alu(T_INC, T_NE, 6, 0));
    lmov32(&c, T_NE, 5, 10);
    l16(&c, t_jreg(T_JNE, 5));
    lalign(&c);
    l16(&c, T_INT1);
    lalign(&c);
    l16(&c, t_alu(T_DEC, T_AL, 6, 0));
    l16(&c, t_load(T_AL, 5, 6));
    l16(&c, t_jreg(T_JMP, 5));
    check("stack_size\ncallne f\nint 1\nf:\nret\n", &c);
}

static void test_stack_macros_and_values(void **state)
{
    (void)state;
    lay l = {0};
    lempty_stack(&l);
    /* load_macro reg1 -2 (via $M): movl/movh reg5 2; mov reg1 bp; sub reg1 reg5; load reg1,[reg1] */
    lmov32(&l, T_AL, 5, 2);
    l16(&l, t_mov(T_AL, 1, 4));
    l16(&l, t_alu(T_SUB, T_AL, 1, 5));
    l16(&l, t_load(T_AL, 1, 1));
    /* store_macro reg2 -3: the sign is ignored: reg5 = 3 + bp; store reg2,[reg5] */
    lmov32(&l, T_AL, 5, 3);
    l16(&l, t_alu(T_ADD, T_AL, 5, 4));
    l16(&l, t_store(T_AL, 2, 5));
    /* add reg2 $N -> immediate 12 */
    lmov32(&l, T_AL, 5, 12);
    l16(&l, t_alu(T_ADD, T_AL, 2, 5));
    /* movl reg3 core_num -> 4 */
    l32(&l, t_movl(T_AL, 3, 4));
    /* mov reg1 N (value label) -> movl/movh reg1 12 */
    lmov32(&l, T_AL, 1, 12);
    /* store N reg3: value label as operand 1 -> reg5 = 12; store reg5,[reg3] */
    lmov32(&l, T_AL, 5, 12);
    l16(&l, t_store(T_AL, 5, 3));
    /* load reg2 here (jump label as operand 2): movl/movh reg5 here; load reg2,[reg5] */
    lalign(&l);
    int at = l.n;
    lmov32(&l, T_AL, 5, 0);
    l16(&l, t_load(T_AL, 2, 5));
    lalign(&l); /* here: */
    l.slot[at] = t_movl(T_AL, 5, (unsigned)l.n / 2);
    l16(&l, T_INT1);
    check("N=12\nM=-2\nstack_size\nload_macro reg1 $M\nstore_macro reg2 -3\nadd reg2 $N\nmovl reg3 core_num\n"
          "mov reg1 N\nstore N reg3\nload reg2 here\nhere:\nint 1\n",
          &l);
}

static void test_exception_addresses(void **state)
{
    (void)state;
    /* not a stack_size first: the default prologue comes first. Then per core i: coreidx sp;
     * xor bp bp; movl bp i; cmp sp bp; movleq/movheq reg5 a_i; excl reg5 (a label allowed) */
    lay l = {0};
    ldefault(&l);
    int patch = -1;
    for (int i = 0; i < 2; i++) {
        l16(&l, t_spec(T_COREIDX, T_AL, 6));
        l16(&l, t_alu(T_XOR, T_AL, 4, 4));
        l32(&l, t_movl(T_AL, 4, (unsigned)i));
        l16(&l, t_alu(T_CMP, T_AL, 6, 4));
        lalign(&l);
        if (i == 1)
            patch = l.n;
        lmov32(&l, T_EQ, 5, 100);
        l16(&l, t_spec(T_EXCL, T_AL, 5));
    }
    lalign(&l); /* h: */
    uint32_t h = (uint32_t)l.n / 2;
    l.slot[patch] = t_movl(T_EQ, 5, h);
    l.slot[patch + 2] = t_movh(T_EQ, 5, 0);
    l16(&l, T_INT1);
    check("exception_addresses 100 h\nh:\nint 1\n", &l);
}

/* Without a leading stack_size the default `stack_size 1000 1000 1000 1000` comes first. */
static void test_default_prologue(void **state)
{
    (void)state;
    lay l = {0};
    ldefault(&l);
    assert_int_equal(l.n, 77);
    l16(&l, T_INT1);
    check("int 1\n", &l);
    /* explicit sizes: stack_begin = 65535 - 30 = 65505; core ranges consecutive */
    lay s = {0};
    static const uint32_t sz[2] = {10, 20};
    uint32_t b = 65505;
    for (int i = 0; i < 2; i++) {
        l16(&s, t_spec(T_COREIDX, T_AL, 3));
        l16(&s, t_alu(T_XOR, T_AL, 4, 4));
        l32(&s, t_movl(T_AL, 4, (unsigned)i));
        l16(&s, t_alu(T_CMP, T_AL, 3, 4));
        lmov32(&s, T_EQ, 5, b);
        l16(&s, t_spec(T_MSB, T_EQ, 5));
        l16(&s, t_mov(T_EQ, 6, 5));
        lmov32(&s, T_EQ, 5, b + sz[i]);
        l16(&s, t_spec(T_MSE, T_EQ, 5));
        b += sz[i];
    }
    lmov32(&s, T_AL, 5, 65505);
    l16(&s, t_spec(T_SB, T_AL, 5));
    l16(&s, T_INT1);
    check("stack_size 10 20\nint 1\n", &s);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("stack_size\nfrob reg1\n", "t.mccp:2:", "unknown instruction 'frob'");
    expect_error("stack_size\njmp nowhere\n", "t.mccp:2:", "unknown label 'nowhere'");
    expect_error("stack_size\nadd reg1 $X\n", "t.mccp:2:", "no value label");
    expect_error("stack_size\nint 8\n", "t.mccp:2:", "0..7");
    expect_error("stack_size\nmovl reg1 70000\n", "t.mccp:2:", "16 bits");
    expect_error("stack_size\n\nloadl reg1 reg2\n", "t.mccp:3:", "hardware does not implement");
    expect_error("stack_size\ncallcs f\nf:\nret\n", "t.mccp:2:", "not supported for call");
    expect_error("V=5\nstack_size\nload reg2 V\n", "t.mccp:3:", "value label works only as operand 1");
    expect_error("stack_size\nmov reg1 5\n", "t.mccp:2:", "neither a register nor a label");
    expect_error("stack_size\nadd reg1 regX\n", "t.mccp:2:", "operand 2 must be a register");
    expect_error("stack_size\nmovimm reg1 -5\n", "t.mccp:2:", "negative");
    expect_error("stack_size 70000\n", "t.mccp:1:", "do not fit");
    expect_error("// nothing\n", "t.mccp", "no instructions");
    /* the file assembler reports unreadable input */
    char err[256];
    const char *src[1] = {"/nonexistent/x.mccp"};
    assert_int_equal(isa_mccp.assemble(1, src, "/tmp/never.out", NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.mccp"));
}

/* .out writing: 32 '0'/'1' characters per line, MSB first. */
static void test_out_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/mccp_asmXXXXXX";
    assert_non_null(mkdtemp(dir));
    char srcp[300], outp[300];
    snprintf(srcp, sizeof srcp, "%s/a.mccp", dir);
    snprintf(outp, sizeof outp, "%s/a.out", dir);
    FILE *f = fopen(srcp, "w");
    fputs("stack_size\nint 1\n", f);
    fclose(f);
    char err[256] = "";
    const char *srcs[1] = {srcp};
    assert_int_equal(isa_mccp.assemble(1, srcs, outp, NULL, err, sizeof err), 0);
    f = fopen(outp, "r");
    char line[64];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "10001111010101001111111111111111\n"); /* movl reg5 65535 */
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "00101001010101000010001101000100\n"); /* sb reg5 | int 1 */
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    remove(outp);
    remove(srcp);
    rmdir(dir);
}

/* The preprocessed text (the original's .prep): al added, store -> store1al, final pad. */
static void test_prep_text(void **state)
{
    (void)state;
    uint32_t *w;
    size_t n;
    char *prep;
    char err[256] = "";
    assert_int_equal(mccp_assemble_text("t.mccp", "stack_size\npushEQ reg1\nmovleq reg2 7\n", &w, &n, &prep, err, sizeof err), 0);
    assert_string_equal(prep, "movlal reg5 65535\nmovhal reg5 0\nsbal reg5\nstore1al reg1 sp\nincal sp\n"
                              "addnv reg0 reg0\nmovleq reg2 7\n");
    free(prep);
    free(w);
}

XPUSIM_TESTS(mccp_asm,
             cmocka_unit_test(test_prep_text),
             cmocka_unit_test(test_push_pop_nop),
             cmocka_unit_test(test_movimm_and_immediates),
             cmocka_unit_test(test_labels_jumps_alignment),
             cmocka_unit_test(test_call_ret),
             cmocka_unit_test(test_stack_macros_and_values),
             cmocka_unit_test(test_exception_addresses),
             cmocka_unit_test(test_default_prologue),
             cmocka_unit_test(test_errors),
             cmocka_unit_test(test_out_file))
