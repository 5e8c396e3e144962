/* tests/mccp/mccp_test.h: helpers shared by the MCCP test suites: build a machine in-process
 * with options, load ROM words, preset registers and RAM, run to a cycle, read state back.
 * Expected encodings in the tests are built here from the bit layouts of the reference
 * (MCCP/core/instr_decoder.v), independently of isa/mccp/table.c. */
#ifndef MCCP_TEST_H
#define MCCP_TEST_H
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../core/sim.h"
#include "../../core/opts.h"

extern const isa_ops isa_mccp;
int mccp_assemble_text(const char *name, const char *text, uint32_t **words, size_t *nwords, char **prep, char *err,
                       size_t errlen);

/* ---- independent encoders (Verilog bit numbers) ---- */
enum { T_EQ, T_NE, T_GT, T_LT, T_GE, T_LE, T_CS, T_CC, T_MI, T_PL, T_AL, T_NV, T_VS, T_VC, T_HI, T_LS };
enum { T_ADD, T_ADDC, T_SUB, T_SUBC, T_MUL, T_DIV, T_AND, T_OR, T_XOR, T_LSH, T_RSH, T_NOT, T_CMP, T_INC, T_DEC };
/* 01 oooo cccc ddd sss */
static inline uint16_t t_alu(int op, int cond, int rd, int rs) { return (uint16_t)(1u << 14 | op << 10 | cond << 6 | rd << 3 | rs); }
/* 00 0000/0001/0010 cccc ddd sss */
static inline uint16_t t_load(int cond, int rd, int ra) { return (uint16_t)(0u << 10 | cond << 6 | rd << 3 | ra); }
static inline uint16_t t_store(int cond, int rs, int ra) { return (uint16_t)(1u << 10 | cond << 6 | rs << 3 | ra); }
static inline uint16_t t_mov(int cond, int rd, int rs) { return (uint16_t)(2u << 10 | cond << 6 | rd << 3 | rs); }
/* 00 ooooo rrr 000000: movf 01000, je 01001 .. jmp 01111 */
static inline uint16_t t_jreg(int op5, int r) { return (uint16_t)(op5 << 9 | r << 6); }
enum { T_MOVF = 8, T_JE, T_JNE, T_JGT, T_JGE, T_JLT, T_JLE, T_JMP, T_COREIDX, T_INT, T_MSB, T_MSE, T_SB, T_EXCL };
/* 00 ooooo cccc rrr 00 */
static inline uint16_t t_spec(int op5, int cond, int r) { return (uint16_t)(op5 << 9 | cond << 5 | r << 2); }
/* 1 0 00111/00110 cccc rrr 00 imm16 */
static inline uint32_t t_movl(int cond, int r, unsigned imm) { return 0x80000000u | 7u << 25 | (unsigned)cond << 21 | (unsigned)r << 18 | (imm & 0xFFFF); }
static inline uint32_t t_movh(int cond, int r, unsigned imm) { return 0x80000000u | 6u << 25 | (unsigned)cond << 21 | (unsigned)r << 18 | (imm & 0xFFFF); }
#define T_NOP 0x42C0u /* addnv reg0 reg0 */
#define T_INT1 0x2344u /* int 1 (al) */
static inline uint32_t t_pair(uint16_t hi, uint16_t lo) { return (uint32_t)hi << 16 | lo; }

/* ---- machine helpers ---- */
typedef struct tmach {
    sim_machine m;
    ld_image img;
} tmach;

/* Build a machine with "k=v" options (NULL-terminated list). */
static inline void tm_create(tmach *t, const char *const *kv)
{
    sim_opts o;
    opt_init(&o);
    for (; kv && *kv; kv++)
        assert_int_equal(opt_parse(&o, *kv), 0);
    char err[256] = "";
    int rc = sim_create(&t->m, &isa_mccp, &o, err, sizeof err);
    if (rc)
        fprintf(stderr, "sim_create: %s\n", err);
    assert_int_equal(rc, 0);
    t->m.err = stderr;
}

static inline void tm_load(tmach *t, const uint32_t *w, size_t n)
{
    memset(&t->img, 0, sizeof t->img);
    snprintf(t->img.path, sizeof t->img.path, "test.out");
    t->img.fmt = LD_OUT;
    t->img.words = (uint32_t *)w;
    t->img.nwords = n;
    char err[256] = "";
    int rc = t->m.isa->load(&t->m, &t->img, err, sizeof err);
    if (rc)
        fprintf(stderr, "load: %s\n", err);
    assert_int_equal(rc, 0);
}

static inline void tm_asm(tmach *t, const char *src, uint32_t **w, size_t *n)
{
    char err[256] = "";
    int rc = mccp_assemble_text("t.mccp", src, w, n, NULL, err, sizeof err);
    if (rc)
        fprintf(stderr, "assemble: %s\n", err);
    assert_int_equal(rc, 0);
    tm_load(t, *w, *n);
}

static inline int tm_reg_index(const char *name)
{
    int r = isa_reg_find(&isa_mccp, name);
    assert_true(r >= 0);
    return r;
}

static inline uint32_t tm_reg(tmach *t, int core, const char *name)
{
    int r = tm_reg_index(name);
    uint8_t b[4] = {0};
    assert_int_equal(isa_mccp.reg_read(&t->m, core, 0, r, b), 0);
    return isa_mccp.regs[r].bits == 8 ? b[0] : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void tm_set(tmach *t, int core, const char *name, uint32_t v)
{
    int r = tm_reg_index(name);
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    assert_int_equal(isa_mccp.reg_write(&t->m, core, 0, r, b), 0);
}

/* Let every address be an ordinary access: stack_begin = 0xFFFFFFFF. */
static inline void tm_open_stack(tmach *t)
{
    for (int c = 0; c < 4; c++)
        tm_set(t, c, "stack_begin", 0xFFFFFFFFu);
}

static inline uint32_t tm_ram(tmach *t, uint32_t addr)
{
    uint8_t b[4];
    assert_int_equal(mem_host_read(sim_space(&t->m, "ram"), addr, b, 4), 0);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void tm_ram_set(tmach *t, uint32_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    assert_int_equal(mem_host_write(sim_space(&t->m, "ram"), addr, b, 4), 0);
}

/* Run through cycle 'until' (inclusive). */
static inline sim_stop_kind tm_run(tmach *t, uint64_t until) { return sim_run(&t->m, until); }

/* Run until every enabled core has executed int; fails the test otherwise. */
static inline void tm_run_halt(tmach *t, uint64_t limit)
{
    sim_stop_kind k = sim_run(&t->m, limit);
    if (k != SIM_STOP_HALT)
        fprintf(stderr, "stop: %s: %s\n", sim_stop_name(k), t->m.stop.msg);
    assert_int_equal(k, SIM_STOP_HALT);
}

static inline uint64_t tm_halted_at(tmach *t, int core)
{
    assert_true(t->m.units[core].halted);
    return t->m.units[core].halted_at;
}

static inline void tm_destroy(tmach *t) { sim_destroy(&t->m); }

#endif
