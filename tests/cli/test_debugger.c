/* tests/cli/test_debugger.c: the debugger's commands, run as scripts against a tiny test ISA.
 * The "toy" ISA below exists only in this test: 2 units x 2 threads (unit 1's second thread
 * disabled), a word-addressed code space and a byte-addressed RAM, scalar and vector
 * registers, a barrel schedule (a thread issues every 2 cycles) and instructions to loop,
 * store, fault and raise SIGINT. It exercises every ISA hook the debugger uses without
 * depending on a real ISA, so expected values follow from the few rules written here.
 * Each test writes a script, runs dbg_cli_main with stdout/stderr captured and checks the
 * transcript and the exit status. */
#include "../testlib.h"
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include "../../frontends/cli.h"
#include "../../core/debug.h"
#include "../../core/sched.h"

/* ---- the toy ISA ---- */
enum { TOY_HALT = 0, TOY_ADDI, TOY_STW, TOY_LDW, TOY_JMP, TOY_DJNZ, TOY_TID, TOY_SIG };
#define TOY(op, rd, imm) ((uint32_t)(op) << 24 | (uint32_t)(rd) << 20 | ((uint32_t)(imm) & 0xfffff))

typedef struct toy_thread {
    uint32_t r[4], v[4];
    uint64_t pc;
} toy_thread;

typedef struct toy_state {
    toy_thread th[2][2];
    mem_space *code, *ram;
} toy_state;

static const isa_reg toy_regs[] = {
    {"r0", 32, ISA_REG_THREAD, 0, "general"}, {"r1", 32, ISA_REG_THREAD, 0, "general"},
    {"r2", 32, ISA_REG_THREAD, 0, "general"}, {"r3", 32, ISA_REG_THREAD, 0, "general"},
    {"v0", 128, ISA_REG_THREAD, 0, "vector"},  {"pc", 32, ISA_REG_THREAD, ISA_REG_PC, "special"},
    {"cnt", 64, ISA_REG_UNIT, ISA_REG_RO, "special"},
};

static int toy_create(sim_machine *m, char *err, size_t errlen)
{
    toy_state *ts = calloc(1, sizeof *ts);
    if (!ts || sim_add_units(m, 2, 2, "toy%d", 100e6)) {
        free(ts);
        snprintf(err, errlen, "toy: out of memory");
        return -1;
    }
    m->isa_state = ts;
    ts->code = sim_add_space(m, "code", 4, 4, 0);
    ts->ram = sim_add_space(m, "ram", 1, 4, 0);
    mem_add_ram(ts->code, "rom", 0, 64, MEM_R | MEM_X);
    mem_add_ram(ts->ram, "ram", 0, 256, MEM_RW);
    return 0;
}

static void toy_destroy(sim_machine *m) { free(m->isa_state); }

static int toy_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    toy_state *ts = m->isa_state;
    for (size_t i = 0; i < img->nwords; i++)
        if (mem_host_write(ts->code, i, &img->words[i], 4)) {
            snprintf(err, errlen, "toy: program too long");
            return -1;
        }
    sched_start(&m->units[0], 0, 0);
    sched_start(&m->units[0], 1, 0);
    sched_start(&m->units[1], 0, 0);
    m->units[1].threads[1].state = SIM_T_DISABLED;
    return 0;
}

static uint64_t toy_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    toy_state *ts = m->isa_state;
    while (now < horizon && !sim_stopped(m)) {
        int t = sched_pick(u, now);
        if (t < 0) {
            uint64_t next = sched_next_ready(u);
            if (next == SIM_NEVER || next >= horizon)
                return next;
            now = next;
            continue;
        }
        toy_thread *th = &ts->th[u->index][t];
        sim_thread *st = &u->threads[t];
        uint64_t pc = th->pc, w;
        u->last_issue = now;
        if (m->slow && dbg_before_insn(m, u, t, pc)) {
            u->rr = t; /* the vetoed thread goes first on resume */
            return now;
        }
        if (mem_fetch(ts->code, pc, 4, &w)) {
            sim_set_stop(m, SIM_STOP_FAULT, u->index, t, pc, "fetch outside the code");
            return now;
        }
        unsigned op = (unsigned)(w >> 24), rd = (unsigned)(w >> 20) & 3;
        uint32_t imm = (uint32_t)w & 0xfffff;
        uint64_t val;
        th->pc = pc + 1;
        switch (op) {
        case TOY_HALT: sched_halt(u, t, now); break;
        case TOY_ADDI: th->r[rd] += imm; break;
        case TOY_STW: mem_write(ts->ram, imm, 4, th->r[rd]); break;
        case TOY_LDW: mem_read(ts->ram, imm, 4, &val); th->r[rd] = (uint32_t)val; break;
        case TOY_JMP: th->pc = imm; break;
        case TOY_DJNZ: if (--th->r[rd]) th->pc = imm; break;
        case TOY_TID: th->r[rd] = (uint32_t)(u->index * 2 + t); break;
        case TOY_SIG: raise(SIGINT); break; /* stands for the user's Ctrl-C mid-run */
        default:
            sim_set_stop(m, SIM_STOP_ILLEGAL, u->index, t, pc, "illegal instruction 0x%08llx", (unsigned long long)w);
            th->pc = pc;
            return now;
        }
        st->instructions++;
        st->issue_cycles++;
        if (st->state == SIM_T_READY)
            st->ready_at = now + 2; /* barrel: a thread issues every second cycle */
        if (m->slow)
            dbg_after_insn(m, u, t, pc);
        now++;
    }
    return now;
}

static int toy_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    toy_thread *th = &((toy_state *)m->isa_state)->th[unit][thread];
    if (reg < 4)
        memcpy(buf, &th->r[reg], 4);
    else if (reg == 4)
        memcpy(buf, th->v, 16);
    else if (reg == 5)
        memcpy(buf, &(uint32_t){(uint32_t)th->pc}, 4);
    else
        memcpy(buf, &(uint64_t){m->units[unit].threads[0].instructions + m->units[unit].threads[1].instructions}, 8);
    return 0;
}

static int toy_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    toy_thread *th = &((toy_state *)m->isa_state)->th[unit][thread];
    if (reg < 4)
        memcpy(&th->r[reg], buf, 4);
    else if (reg == 4)
        memcpy(th->v, buf, 16);
    else if (reg == 5) {
        uint32_t pc;
        memcpy(&pc, buf, 4);
        th->pc = pc;
    } else
        return -1;
    return 0;
}

static uint64_t toy_pc(sim_machine *m, int unit, int thread) { return ((toy_state *)m->isa_state)->th[unit][thread].pc; }

static void toy_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    snprintf(buf, n, "toy r1=%u", ((toy_state *)m->isa_state)->th[unit][thread].r[1]);
}

static int toy_view_lanes(sim_machine *m, int unit, FILE *out)
{
    fprintf(out, "toy unit %d has 4 lanes\n", unit);
    (void)m;
    return 0;
}

static const isa_view toy_views[] = {{"lanes", "the lanes of a unit", toy_view_lanes}, {NULL, NULL, NULL}};

static int toy_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    static const char *const names[] = {"halt", "addi", "stw", "ldw", "jmp", "djnz", "tid", "sig"};
    (void)addr;
    if (avail < 4)
        return 0;
    uint32_t w;
    memcpy(&w, p, 4);
    unsigned op = w >> 24;
    if (op < 8)
        snprintf(buf, n, "%s r%u, %u", names[op], (w >> 20) & 3, w & 0xfffff);
    else
        snprintf(buf, n, ".word 0x%08x", w);
    return 1;
}

/* Like an ISA draining a program's output buffer: must run once per session. */
static void toy_finish(sim_machine *m)
{
    fprintf(m->out, "[toy finish: %s]\n", sim_stop_name(m->stop.kind));
}

static const isa_ops toy_isa = {
    .name = "toy", .description = "debugger test ISA",
    .create = toy_create, .destroy = toy_destroy, .load = toy_load, .unit_run = toy_run,
    .regs = toy_regs, .nregs = 7, .reg_read = toy_reg_read, .reg_write = toy_reg_write, .pc_get = toy_pc,
    .thread_state = toy_thread_state, .views = toy_views, .code_space = "code", .disasm = toy_disasm,
    .finish = toy_finish,
};

/* _start: tid r0; addi r1,3; loop: addi r2,1; djnz r1,loop; stw r2,result; halt.
 * Each live thread retires 1 + 1 + 3*2 + 1 + 1 = 10 instructions and leaves r2 = 3. */
static const uint32_t toy_main[] = {
    TOY(TOY_TID, 0, 0), TOY(TOY_ADDI, 1, 3), TOY(TOY_ADDI, 2, 1), TOY(TOY_DJNZ, 1, 2), TOY(TOY_STW, 2, 0x10), TOY(TOY_HALT, 0, 0),
};

/* ---- running a script ---- */
typedef struct toy_run_result {
    int rc;
    char out[65536];
} toy_run_result;

/* The toy with ELF-like symbol values placed by symbol_location, as the DPU does: values
 * from 0x80000000 are code (4 bytes per instruction word), the rest RAM bytes. */
static int toy_symbol_location(sim_machine *m, int unit, const ld_symbol *sym, mem_space **space, uint64_t *addr)
{
    toy_state *ts = m->isa_state;
    (void)unit;
    *space = sym->value >= 0x80000000u ? ts->code : ts->ram;
    *addr = sym->value >= 0x80000000u ? (sym->value - 0x80000000u) / 4 : sym->value;
    return 0;
}
static isa_ops toy_placed_isa; /* toy_isa plus toy_symbol_location, filled by its test */

static void run_script_isa(const isa_ops *isa, const uint32_t *prog, size_t nwords, const char *script,
                           toy_run_result *res)
{
    char spath[] = "/tmp/xpusim-dbg-XXXXXX", opath[] = "/tmp/xpusim-dbgout-XXXXXX";
    int sfd = mkstemp(spath), ofd = mkstemp(opath);
    assert_true(sfd >= 0 && ofd >= 0);
    assert_int_equal(write(sfd, script, strlen(script)), (ssize_t)strlen(script));
    close(sfd);

    static cli_args args; /* zeroed per run below; static only to keep the stack small */
    memset(&args, 0, sizeof args);
    args.script = spath;
    args.max_cycles = SIM_NEVER;
    cli_session *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->args = &args;
    s->isa = isa;
    char err[256];
    char hex[1024] = "";
    for (size_t i = 0; i < nwords; i++)
        snprintf(hex + strlen(hex), sizeof hex - strlen(hex), "%08x\n", prog[i]);
    assert_int_equal(ld_parse("toy.hex", hex, strlen(hex), LD_HEX, &s->img, err, sizeof err), 0);
    ld_symbol *syms = calloc(3, sizeof *syms);
    uint64_t code = isa->symbol_location ? 0x80000000u : 0, scale = isa->symbol_location ? 4 : 1;
    syms[0] = (ld_symbol){"_start", code, 0, 2, 1, 1};
    syms[1] = (ld_symbol){"loop", code + 2 * scale, 0, 0, 1, 1};
    syms[2] = (ld_symbol){"result", 0x10, 4, 1, 1, 2};
    s->img.syms = syms;
    s->img.nsyms = 3;
    assert_int_equal(sim_create(&s->m, isa, NULL, err, sizeof err), 0);
    assert_int_equal(isa->load(&s->m, &s->img, err, sizeof err), 0);
    s->m.image = &s->img;
    s->have_machine = 1;

    fflush(stdout);
    fflush(stderr);
    int o1 = dup(1), o2 = dup(2);
    dup2(ofd, 1);
    dup2(ofd, 2);
    res->rc = dbg_cli_main(s);
    fflush(stdout);
    fflush(stderr);
    dup2(o1, 1);
    dup2(o2, 2);
    close(o1);
    close(o2);
    lseek(ofd, 0, SEEK_SET);
    ssize_t n = read(ofd, res->out, sizeof res->out - 1);
    res->out[n > 0 ? n : 0] = 0;
    close(ofd);
    unlink(spath);
    unlink(opath);
    cli_session_close(s); /* the machine, the image and what the session built (code symbols) */
    free(s);
    printf("---- transcript (exit %d) ----\n%s", res->rc, res->out);
}

static void run_script(const uint32_t *prog, size_t nwords, const char *script, toy_run_result *res)
{
    run_script_isa(&toy_isa, prog, nwords, script, res);
}

#define HAS(res, text)                                                             \
    do {                                                                           \
        if (!strstr((res)->out, (text)))                                           \
            fail_msg("transcript lacks \"%s\"", (text));                           \
    } while (0)
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#define LACKS(res, text)                                                           \
    do {                                                                           \
        if (strstr((res)->out, (text)))                                            \
            fail_msg("transcript has \"%s\"", (text));                             \
    } while (0)

static toy_run_result R;

/* Breakpoint, registers, step, history, threads, watchpoint, run to the end. */
static void test_session(void **state)
{
    (void)state;
    run_script(toy_main, 6,
               "break loop 0\n"
               "info break\n"
               "continue\n"
               "assert stop breakpoint\n"
               "assert pc == loop\n"
               "assert $r1 == 3\n"
               "regs\n"
               "delete 1\n"
               "step 2\n"
               /* the selected thread (toy0.0) did addi r2 then djnz: r2 = 1, r1 = 3 - 1 */
               "assert stop step\n"
               "assert $r2 == 1\n"
               "assert reg r1 == 2\n"
               "assert pc == loop\n"
               "history 3\n"
               "threads\n"
               "watch result,4 w\n"
               "continue\n"
               "assert stop watchpoint\n"
               "assert mem result == 3\n"
               "x ram:0x10 2\n"
               "delete\n"
               "continue\n"
               "assert stop halted\n"
               "assert mem ram:0x10 == 3\n"
               /* toy0.1 issues at odd cycles: tid 1, addi 3, loop 5..15, stw 17, halt 19 */
               "assert cycle == 19\n"
               "cycle\n"
               "stats\n",
               &R);
    assert_int_equal(R.rc, 0);
    HAS(&R, "(xpusim) break loop 0");
    HAS(&R, "breakpoint 1 at 0x2 <loop> on toy0");
    /* toy0.0 issues at cycles 0 (tid), 2 (addi) and reaches loop at cycle 4 */
    HAS(&R, "toy0 thread 0 stopped at cycle 4: breakpoint 1 at 0x2 (loop)");
    HAS(&R, "=> 0x00000002 <loop>           addi r2, 1");
    HAS(&R, "[general]\nr0     0x00000000   r1     0x00000003   r2     0x00000000   r3     0x00000000\n");
    HAS(&R, "[vector]\nv0       00000000 00000000 00000000 00000000\n");
    HAS(&R, "cnt      0x0000000000000004  4"); /* toy0 retired tid+addi on both threads */
    HAS(&R, "step done");
    HAS(&R, "djnz r1, 2");
    HAS(&R, "toy1        0    ready");
    HAS(&R, "toy1        1    disabled");
    HAS(&R, "watchpoint 1: ram:0x10,4 w");
    HAS(&R, "watchpoint 1: write of ram:0x10 by the instruction at 0x4");
    HAS(&R, "ram:0x00000010: 0x00000003 0x00000000");
    HAS(&R, "halted at cycle 19: all 2 units halted");
    HAS(&R, "cycle 19, 30 instructions retired");
    HAS(&R, "instructions: 30"); /* 3 live threads x 10 */
    /* finish runs once, when the program halts (not at the breakpoint, step or watch
     * stops); its output comes before the stop line, as in `xpusim run` */
    assert_int_equal(count_of(R.out, "[toy finish"), 1);
    HAS(&R, "(xpusim) continue\n[toy finish: halted]\nhalted at cycle 19");
    LACKS(&R, "error:");
}

/* Every command the help lists has help text, and `help NAME` works for each. */
static void test_help_every_command(void **state)
{
    (void)state;
    run_script(toy_main, 6, "help\n", &R);
    assert_int_equal(R.rc, 0);
    char script[4096] = "", names[64][32];
    int n = 0;
    for (char *line = strtok(R.out, "\n"); line; line = strtok(NULL, "\n")) {
        char name[32], rest[256] = "";
        if (strncmp(line, "  ", 2) || sscanf(line, " %31s %255[^\n]", name, rest) < 1)
            continue;
        assert_true(strlen(rest) > 10); /* a one-line summary follows the usage */
        snprintf(names[n++], sizeof names[0], "%s", name);
        snprintf(script + strlen(script), sizeof script - strlen(script), "help %s\n", name);
    }
    assert_true(n >= 20);
    run_script(toy_main, 6, script, &R);
    assert_int_equal(R.rc, 0);
    LACKS(&R, "error:");
    for (int i = 0; i < n; i++) {
        char head[48];
        snprintf(head, sizeof head, "\n%.31s ", names[i]);
        HAS(&R, head);
    }
    run_script(toy_main, 6, "frobnicate\nhelp frobnicate\n", &R);
    HAS(&R, "error: unknown command 'frobnicate'");
    HAS(&R, "error: help: no command 'frobnicate'");
}

/* A failed assert reports, the script goes on, and the exit status is 1. */
static void test_assert_failure(void **state)
{
    (void)state;
    run_script(toy_main, 6, "assert $r1 == 7\nassert stop halted\necho still here\ncontinue\nassert $r2 == 3\n", &R);
    assert_int_equal(R.rc, 1);
    HAS(&R, "error: assert failed: 0 (0x0) == 7 (0x7) is false");
    HAS(&R, "error: assert failed: stop is 'none', expected 'halted'");
    HAS(&R, "still here");
    HAS(&R, "assert ok: 3 == 3");
}

/* until CYCLE stops at that cycle; until ADDRESS when the selected unit reaches it. */
static void test_until(void **state)
{
    (void)state;
    run_script(toy_main, 6,
               "until 3\nassert stop step\nassert cycle == 3\n"
               "until 0x4\nassert pc == 4\nassert stop step\n"
               "until cycle 2\n", &R);
    assert_int_equal(R.rc, 0);
    HAS(&R, "stopped at cycle 3: reached cycle 3");
    /* toy0.0 reaches pc 4 after tid, addi and three (addi, djnz) pairs: 8 issues, every
     * second cycle from 0, so its 9th issue slot is cycle 16 */
    HAS(&R, "toy0 thread 0 stopped at cycle 16: reached 0x4");
    HAS(&R, "error: until: already at cycle");
    /* the program never ended: finish runs once as the session ends */
    assert_int_equal(count_of(R.out, "[toy finish"), 1);
    assert_true(strstr(R.out, "[toy finish: step]") > strstr(R.out, "(xpusim) until cycle 2"));
}

/* Thread selection: flat numbers count units' threads in order; UNIT.THREAD; errors. */
static void test_threads_select(void **state)
{
    (void)state;
    run_script(toy_main, 6,
               "thread 2\nstep\nassert $r0 == 2\nthread 0.1\nthread toy1.1\nthread 4\nthread 1.5\n"
               "thread 1\nstep 2\nassert $r1 == 3\nassert $r0 == 1\nassert instructions == 2\n", &R);
    assert_int_equal(R.rc, 0); /* `thread 4` and `thread 1.5` fail, but they are not asserts */
    HAS(&R, "thread #2: toy1 thread 0");
    HAS(&R, "thread #1: toy0 thread 1");
    HAS(&R, "thread #3: toy1 thread 1");
    HAS(&R, "(toy1 thread 1 is disabled)");
    HAS(&R, "error: thread: no thread '4' (0..3, or UNIT.THREAD)");
    HAS(&R, "error: thread: no thread '1.5'");
}

/* set on scalars and vector lanes; read-only registers refuse; print and lanes. */
static void test_set_and_print(void **state)
{
    (void)state;
    run_script(toy_main, 6,
               "set r3 -1\nassert $r3 == -1\nassert $r3 == 0xffffffff\n"
               "set v0 1,2,3,4\nassert $v0[2] == 3\nset v0 9\nassert $v0[3] == 9\n"
               "set cnt 5\nset v0 1,2\nprint $r3\nprint loop\nassert $v0 == 1\n", &R);
    assert_int_equal(R.rc, 0); /* the errors are not failed asserts */
    HAS(&R, "v0       00000001 00000002 00000003 00000004");
    HAS(&R, "error: set: cnt is read-only");
    HAS(&R, "error: set: v0 has 4 lanes; give 1 or 4 values");
    HAS(&R, "0xffffffff  4294967295  -1");
    HAS(&R, "0x2  2  2");
    HAS(&R, "error: v0 is a vector: name a 32-bit lane, v0[0..3]");
}

/* disasm with labels and markers, info topics, source and echo. */
static void test_disasm_info_source(void **state)
{
    (void)state;
    char inc[] = "/tmp/xpusim-dbginc-XXXXXX";
    int fd = mkstemp(inc);
    assert_true(fd >= 0);
    const char *body = "echo from the sourced file\nbreak 3\n";
    assert_int_equal(write(fd, body, strlen(body)), (ssize_t)strlen(body));
    close(fd);
    char script[512];
    snprintf(script, sizeof script,
             "source %s\ndisasm 0 6\ninfo\ninfo lanes\ninfo nonsense\ninfo break\nsource /nonexistent/x\n", inc);
    run_script(toy_main, 6, script, &R);
    unlink(inc);
    assert_int_equal(R.rc, 0);
    HAS(&R, "from the sourced file");
    HAS(&R, "_start:\n=> 0x00000000 <_start>         tid r0, 0");
    HAS(&R, "loop:\n   0x00000002 <loop>           addi r2, 1");
    HAS(&R, "  *0x00000003 <loop+1>         djnz r1, 2");
    HAS(&R, "toy topics:\nlanes    the lanes of a unit");
    HAS(&R, "toy unit 0 has 4 lanes");
    HAS(&R, "error: info: unknown topic 'nonsense'");
    HAS(&R, "1    breakpoint  0x3 <loop+1>");
    HAS(&R, "error: source: /nonexistent/x: cannot open");
}

/* An illegal instruction ends the script with the stop's exit status (2). */
static void test_fault_exit(void **state)
{
    (void)state;
    static const uint32_t prog[] = {TOY(TOY_ADDI, 1, 1), 0xff000000u};
    run_script(prog, 2, "continue\nassert stop illegal\nregs pc\n", &R);
    assert_int_equal(R.rc, 2);
    HAS(&R, "stopped at cycle 2: illegal instruction 0xff000000");
    HAS(&R, "pc       0x00000001");
    run_script(prog, 2, "continue\nquit\n", &R);
    assert_int_equal(R.rc, 0); /* an explicit quit is the user's choice */
}

/* SIGINT during a run (what Ctrl-C sends) stops the run, not the process. */
static void test_interrupt(void **state)
{
    (void)state;
    static const uint32_t prog[] = {TOY(TOY_SIG, 0, 0), TOY(TOY_JMP, 0, 1)};
    run_script(prog, 2, "continue\nassert stop interrupted\nthreads\n", &R);
    assert_int_equal(R.rc, 0);
    HAS(&R, "interrupted (Ctrl-C)");
}

/* Watch access kinds and errors; tbreak deletes itself. Every live thread runs the same
 * program, so each watch fires once per thread (toy0.0 and toy1.0 at cycle 0, toy0.1 at 1). */
static void test_watch_kinds(void **state)
{
    (void)state;
    static const uint32_t prog[] = {TOY(TOY_LDW, 1, 0x20), TOY(TOY_STW, 1, 0x24), TOY(TOY_HALT, 0, 0)};
    run_script(prog, 3,
               "watch 0x20,1 r\nwatch ram:0x24 w\nwatch 0x20 x\nwatch nosuch:0 w\nwatch ram:0xfe,4\n"
               "tbreak 2 0\ninfo break\ncontinue\nassert stop watchpoint\n"
               "delete w1\ndelete w1\ndelete 9\ncontinue\nassert stop watchpoint\nassert pc == 2\n"
               "delete w2\ncontinue\nassert stop breakpoint\ninfo break\ncontinue\nassert stop halted\n", &R);
    assert_int_equal(R.rc, 0);
    HAS(&R, "watchpoint 1: ram:0x20,1 r");
    HAS(&R, "watchpoint 2: ram:0x24,4 w");
    HAS(&R, "error: watch: access kind must be r, w or rw, not 'x'");
    HAS(&R, "error: no memory space 'nosuch'");
    HAS(&R, "error: watch: ram:0xfe,4 is not all mapped memory");
    HAS(&R, "toy0 thread 0 stopped at cycle 0: watchpoint 1: read of ram:0x20 by the instruction at 0x0");
    HAS(&R, "deleted watchpoint 1");
    HAS(&R, "error: delete: no watchpoint w1");
    HAS(&R, "error: delete: no breakpoint or watchpoint 9");
    /* toy1.0 issues its store at cycle 2 too, but toy0 runs first in a cycle */
    HAS(&R, "toy0 thread 0 stopped at cycle 2: watchpoint 2: write of ram:0x24 by the instruction at 0x1");
    HAS(&R, "temporary breakpoint 1 at 0x2 <loop> on toy0");
    /* toy0.0 resumes past pc 2 (it is where it stopped); toy0.1 reaches it at cycle 5 */
    HAS(&R, "toy0 thread 1 stopped at cycle 5: temporary breakpoint 1 at 0x2\n");
    HAS(&R, "no breakpoints or watchpoints");
}

/* After a breakpoint stop, selecting another thread and continuing must still let the
 * stopped thread past its breakpoint (it must not report the same stop again). toy0.0 and
 * toy1.0 both reach loop at cycle 4 (issues at 0, 2, 4); toy0.1 at cycle 5. */
static void test_resume_other_thread(void **state)
{
    (void)state;
    run_script(toy_main, 6, "break loop\ncontinue\nthread 2\ncontinue\ncontinue\n", &R);
    assert_int_equal(R.rc, 0);
    const char *a = strstr(R.out, "toy0 thread 0 stopped at cycle 4: breakpoint 1");
    const char *b = strstr(R.out, "toy1 thread 0 stopped at cycle 4: breakpoint 1");
    const char *c = strstr(R.out, "toy0 thread 1 stopped at cycle 5: breakpoint 1");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_true(a < b && b < c);
    assert_null(strstr(a + 1, "toy0 thread 0 stopped at cycle 4"));

    /* a thread stepped onto a breakpoint was shown there: continuing runs past it. toy0.0
     * steps tid (cycle 0) and addi (cycle 2) to loop; it would issue loop at 4, but the
     * next stop is toy0.1, which reaches loop at cycle 5 (tid 1, addi 3). */
    run_script(toy_main, 6, "step 2\nbreak loop 0\ncontinue\n", &R);
    HAS(&R, "toy0 thread 0 stopped at cycle 2: step done");
    HAS(&R, "toy0 thread 1 stopped at cycle 5: breakpoint 1");
    LACKS(&R, "toy0 thread 0 stopped at cycle 4");
}

/* With symbol_location, code symbols are placed in the code space (PC units) and data
 * symbols never name code: break/disasm/until use the placed addresses, x/watch the data. */
static void test_placed_symbols(void **state)
{
    (void)state;
    toy_placed_isa = toy_isa;
    toy_placed_isa.symbol_location = toy_symbol_location;
    run_script_isa(&toy_placed_isa, toy_main, 6,
                   "break loop 0\nbreak result\ndisasm _start 3\ncontinue\nassert pc == loop\n"
                   "print loop\nx result 1\nwatch result\ndelete 1\nuntil loop+1\n", &R);
    assert_int_equal(R.rc, 0);
    HAS(&R, "breakpoint 1 at 0x2 <loop> on toy0");
    HAS(&R, "error: break: 'result': not a number and no code symbol of that name (it names data)");
    HAS(&R, "_start:\n=> 0x00000000 <_start>         tid r0, 0\n   0x00000001 <_start+1>       addi r1, 3\n"
            "loop:\n  *0x00000002 <loop>           addi r2, 1");
    HAS(&R, "toy0 thread 0 stopped at cycle 4: breakpoint 1 at 0x2 (loop)");
    HAS(&R, "assert ok: 2 == 2");
    HAS(&R, "ram:0x00000010: 0x00000000");
    HAS(&R, "watchpoint 1: ram:0x10,4 w");
    HAS(&R, "reached 0x3");
}

XPUSIM_TESTS(debugger, cmocka_unit_test(test_session), cmocka_unit_test(test_help_every_command),
             cmocka_unit_test(test_assert_failure), cmocka_unit_test(test_until),
             cmocka_unit_test(test_threads_select), cmocka_unit_test(test_set_and_print),
             cmocka_unit_test(test_disasm_info_source), cmocka_unit_test(test_fault_exit),
             cmocka_unit_test(test_interrupt), cmocka_unit_test(test_watch_kinds),
             cmocka_unit_test(test_resume_other_thread), cmocka_unit_test(test_placed_symbols))
