/* tests/bench/ceiling.c: the ceiling row of `make bench`. The smallest interpreter a simulator
 * could be: instructions predecoded into records (handler address, register numbers,
 * immediate, branch target), dispatched by computed goto, with a per-instruction count and a
 * bounds-checked data memory, and nothing else (no timing, no events, no statistics). It runs
 * the loop of programs/dpu/bench/alu_loop.s (add, shift-add, xor, store, load, decrement and
 * branch), so its instructions per second are what an interpreter of that loop reaches on this
 * host; every xpusim row is reported as a ratio to it. Written for this repository.
 * With --threads T it runs the same loop on T host threads at once, each its own copy
 * (instructions: the sum): against one thread, that is the host's own scaling, the bound of
 * every -o jobs= row (the 2,560-DPU row, issue 9 pt 5).
 * Usage: ceiling ITERATIONS [--threads T] [--stats-file FILE]  (statistics as JSON, stdout
 * by default: instructions, the final r3 as a result check, and the host seconds of the
 * loop alone). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
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
#define MAX_THREADS 8

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

/* One host thread's run: its own cpu and records, so threads share nothing but the code. */
struct job {
    const struct enc *prog;
    int n;
    struct cpu c;
    struct insn code[16];
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    run(&j->c, j->prog, j->n, j->code);
    return NULL;
}

static int usage(void)
{
    fprintf(stderr, "usage: ceiling ITERATIONS (1..%" PRIu32 ") [--threads 1..%d] [--stats-file FILE]\n",
            UINT32_MAX, MAX_THREADS);
    return 2;
}

int main(int argc, char **argv)
{
    const char *stats = NULL;
    char *end;
    unsigned long threads = 1;
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    errno = 0;
    unsigned long long iters = strtoull(argv[1], &end, 10);
    if (errno || *end || iters < 1 || iters > UINT32_MAX)
        return usage();
    for (int a = 2; a < argc; a += 2) {
        if (a + 1 >= argc)
            return usage();
        if (strcmp(argv[a], "--stats-file") == 0)
            stats = argv[a + 1];
        else if (strcmp(argv[a], "--threads") == 0) {
            errno = 0;
            threads = strtoul(argv[a + 1], &end, 10);
            if (errno || *end || argv[a + 1][0] == '-' || threads < 1 || threads > MAX_THREADS)
                return usage();
        } else
            return usage();
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
    _Static_assert(N <= 16, "struct job holds 16 records");
    /* each job on its own cache lines (aligned_alloc of a multiple of 64): two threads
     * writing one line would measure the line's traffic, not the host's two cores */
    size_t jsz = (sizeof(struct job) + 63) / 64 * 64;
    unsigned char *jobs = aligned_alloc(64, jsz * threads);
    pthread_t tid[MAX_THREADS];
    if (!jobs) {
        fprintf(stderr, "ceiling: out of memory\n");
        return 1;
    }
    memset(jobs, 0, jsz * threads);
    for (unsigned long k = 0; k < threads; k++) {
        struct job *j = (struct job *)(jobs + k * jsz);
        j->prog = prog;
        j->n = N;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned long k = 1; k < threads; k++)
        if (pthread_create(&tid[k], NULL, run_job, jobs + k * jsz)) {
            fprintf(stderr, "ceiling: cannot start host thread %lu\n", k);
            return 1;
        }
    run_job(jobs);
    for (unsigned long k = 1; k < threads; k++)
        pthread_join(tid[k], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t count = 0;
    const struct cpu *c0 = &((struct job *)jobs)->c;
    for (unsigned long k = 0; k < threads; k++) {
        const struct cpu *c = &((struct job *)(jobs + k * jsz))->c;
        if (c->fault || c->r[3] != c0->r[3] || c->count != c0->count) {
            fprintf(stderr, "ceiling: %s on host thread %lu\n", c->fault ? "memory fault" : "a different result", k);
            return 1;
        }
        count += c->count;
    }
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    FILE *f = stats ? fopen(stats, "w") : stdout;
    if (!f || fprintf(f, "{\n  \"instructions\": %" PRIu64 ",\n  \"result\": %" PRIu32
                         ",\n  \"host\": {\"seconds\": %.6f, \"mips\": %.3f}\n}\n",
                      count, c0->r[3], s, s > 0 ? (double)count / s / 1e6 : 0.0) < 0
        || (stats && fclose(f) != 0) || (!stats && fflush(f) != 0)) {
        fprintf(stderr, "ceiling: %s: %s\n", stats ? stats : "stdout", strerror(errno));
        return 1;
    }
    free(jobs);
    return 0;
}
