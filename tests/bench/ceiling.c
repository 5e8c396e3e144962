/* tests/bench/ceiling.c: the ceiling row of `make bench`. The smallest interpreter a simulator
 * could be: instructions predecoded into records (handler address, register numbers,
 * immediate, branch target), dispatched by computed goto, with a per-instruction count and a
 * bounds-checked data memory, and nothing else (no timing, no events, no statistics). It runs
 * the loop of programs/dpu/bench/alu_loop.s (add, shift-add, xor, store, load, decrement and
 * branch), so its instructions per second are what an interpreter of that loop reaches on this
 * host; every xpusim row is reported as a ratio to it. Written for this repository.
 * Usage: ceiling ITERATIONS [--stats-file FILE]  (statistics as JSON, stdout by default:
 * instructions, the final r3 as a result check, and the host seconds of the loop alone). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum op { OP_MOVI, OP_ADD, OP_LSLADD, OP_XOR, OP_SW, OP_LW, OP_ADDI_BNZ, OP_STOP };

/* the encoded program: rd, ra, rb, immediate (shift for lsl_add, offset for sw/lw, branch
 * target index for addi_bnz); r0 = iterations, r5 = the memory base (id4 on the DPU) */
struct enc { enum op op; uint8_t rd, ra, rb; int32_t imm; int32_t target; };

struct insn {
    const void *handler;
    uint8_t rd, ra, rb;
    int32_t imm;
    const struct insn *target;
};

#define MEM_WORDS 64

struct cpu { uint32_t r[8]; uint32_t mem[MEM_WORDS]; uint64_t count; int fault; };

static void run(struct cpu *c, const struct enc *prog, int n, struct insn *code)
{
    static const void *const handlers[] = {
        [OP_MOVI] = &&op_movi, [OP_ADD] = &&op_add, [OP_LSLADD] = &&op_lsladd,
        [OP_XOR] = &&op_xor, [OP_SW] = &&op_sw, [OP_LW] = &&op_lw,
        [OP_ADDI_BNZ] = &&op_addi_bnz, [OP_STOP] = &&op_stop,
    };
    for (int i = 0; i < n; i++)
        code[i] = (struct insn){ handlers[prog[i].op], prog[i].rd, prog[i].ra, prog[i].rb,
                                 prog[i].imm, &code[prog[i].target] };
    uint32_t *r = c->r;
    uint64_t count = 0;
    const struct insn *pc = code;
    uint32_t a;
#define NEXT do { count++; pc++; goto *pc->handler; } while (0)
    goto *pc->handler;
op_movi:
    r[pc->rd] = (uint32_t)pc->imm;
    NEXT;
op_add:
    r[pc->rd] = r[pc->ra] + r[pc->rb];
    NEXT;
op_lsladd:
    r[pc->rd] = r[pc->ra] + (r[pc->rb] << pc->imm);
    NEXT;
op_xor:
    r[pc->rd] = r[pc->ra] ^ r[pc->rb];
    NEXT;
op_sw:
    a = r[pc->ra] + (uint32_t)pc->imm;
    if (a % 4 != 0 || a / 4 >= MEM_WORDS)
        goto fault;
    c->mem[a / 4] = r[pc->rd];
    NEXT;
op_lw:
    a = r[pc->ra] + (uint32_t)pc->imm;
    if (a % 4 != 0 || a / 4 >= MEM_WORDS)
        goto fault;
    r[pc->rd] = c->mem[a / 4];
    NEXT;
op_addi_bnz:
    r[pc->rd] = r[pc->ra] + (uint32_t)pc->imm;
    count++;
    pc = r[pc->rd] != 0 ? pc->target : pc + 1;
    goto *pc->handler;
fault:
    c->fault = 1;
op_stop:
    c->count = count + 1;
#undef NEXT
}

int main(int argc, char **argv)
{
    const char *stats = NULL;
    char *end;
    errno = 0;
    unsigned long long iters = argc >= 2 ? strtoull(argv[1], &end, 10) : 0;
    if (argc >= 4 && strcmp(argv[2], "--stats-file") == 0)
        stats = argv[3];
    if ((argc != 2 && !(argc == 4 && stats)) || errno || *end || argv[1][0] == '-'
        || iters < 1 || iters > UINT32_MAX) {
        fprintf(stderr, "usage: ceiling ITERATIONS (1..%" PRIu32 ") [--stats-file FILE]\n",
                UINT32_MAX);
        return 2;
    }
    const struct enc prog[] = {
        { OP_MOVI, 0, 0, 0, (int32_t)(uint32_t)iters, 0 },
        { OP_MOVI, 1, 0, 0, 0, 0 },
        { OP_MOVI, 2, 0, 0, 1, 0 },
        { OP_MOVI, 5, 0, 0, 0, 0 },
        { OP_ADD, 1, 1, 2, 0, 0 },          /* 4: loop */
        { OP_LSLADD, 2, 2, 1, 1, 0 },
        { OP_XOR, 3, 1, 2, 0, 0 },
        { OP_SW, 3, 5, 0, 16, 0 },
        { OP_LW, 4, 5, 0, 16, 0 },
        { OP_ADDI_BNZ, 0, 0, 0, -1, 4 },
        { OP_STOP, 0, 0, 0, 0, 0 },
    };
    enum { N = sizeof prog / sizeof prog[0] };
    static struct cpu c;
    struct insn code[N];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run(&c, prog, N, code);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (c.fault) {
        fprintf(stderr, "ceiling: memory fault\n");
        return 1;
    }
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    FILE *f = stats ? fopen(stats, "w") : stdout;
    if (!f || fprintf(f, "{\n  \"instructions\": %" PRIu64 ",\n  \"result\": %" PRIu32
                         ",\n  \"host\": {\"seconds\": %.6f, \"mips\": %.3f}\n}\n",
                      c.count, c.r[3], s, s > 0 ? (double)c.count / s / 1e6 : 0.0) < 0
        || (stats && fclose(f) != 0) || (!stats && fflush(f) != 0)) {
        fprintf(stderr, "ceiling: %s: %s\n", stats ? stats : "stdout", strerror(errno));
        return 1;
    }
    return 0;
}
