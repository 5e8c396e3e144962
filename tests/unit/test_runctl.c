/* tests/unit/test_runctl.c: the run control every frontend shares (core/runctl.c) on the
 * fake ISA (fake_isa.h), extended here with one register per thread ("k", the index of the
 * thread's next instruction), a per-thread disassembly view and a thread state.
 * Base timeline (1 unit, 2 threads, latency 1, 10 instructions each, store=1): thread 0
 * issues instruction k at cycle 2k, thread 1 at 2k + 1; instruction k of thread t writes k
 * to data:0x100 + 4t; thread 0 halts at 19, thread 1 at 20. */
#include "../testlib.h"
#include "fake_isa.h"
#include "../../core/runctl.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})
#define BASE KV("threads=2", "insns=10", "store=1")
#define ADDR(k) (FAKE_CODE_BASE + 4u * (k))

static const isa_reg rc_regs[] = {{"k", 64, ISA_REG_THREAD, 0, "general"}};

static int rc_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    (void)reg;
    fake_machine *fm = m->isa_state;
    uint64_t k = fm->units[unit].pc[thread];
    memcpy(buf, &k, 8);
    return 0;
}

static int rc_disasm_thread(sim_machine *m, int unit, int thread, uint64_t addr, const uint8_t *p, size_t avail,
                            char *buf, size_t n)
{
    (void)m, (void)unit, (void)addr;
    if (avail < 4)
        return 0;
    snprintf(buf, n, "t%d-op %u", thread, (unsigned)mem_ld32le(p));
    return 4;
}

static void rc_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    const sim_thread *t = &m->units[unit].threads[thread];
    const fake_machine *fm = m->isa_state;
    if (t->state == SIM_T_SLEEP) /* else nothing: the core's words stand in */
        snprintf(buf, n, "asleep at k=%llu", (unsigned long long)fm->units[unit].pc[thread]);
}

static const isa_ops rc_isa = {
    .name = "fake-rc",
    .description = "unit-test ISA with a register",
    .stall_names = fake_stalls,
    .create = fake_create,
    .destroy = fake_destroy,
    .unit_run = fake_unit_run,
    .pc_get = fake_pc_get,
    .code_space = "code",
    .disasm = fake_disasm,
    .regs = rc_regs,
    .nregs = 1,
    .reg_read = rc_reg_read,
    .thread_state = rc_thread_state,
    .disasm_thread = rc_disasm_thread,
};

/* A watch on both threads' words narrowed to thread 1: thread 0's stores (cycles 0, 2...)
 * are passed over, each stop is thread 1's store, and the timing is that of a plain run. */
static void test_watch_thread(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    rc.interactive = 1;
    assert_true(dbg_watch_add(&m, sim_space(&m, "data"), 0x100, 8, MEM_W, -1, 1, NULL) > 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.cycle, 1);            /* thread 1's k0 */
    assert_int_equal(rc.watch_resumes, 1);        /* thread 0's k0 at cycle 0 */
    assert_int_equal(m.units[0].threads[0].instructions, 1);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.cycle, 3);            /* thread 1's k1; thread 0's k1 (2) passed */
    assert_int_equal(rc.watch_resumes, 2);
    assert_int_equal(dbg_watch_remove(&m, sim_space(&m, "data"), -1), 0);
    assert_null(dbg_watch_find(&m, sim_space(&m, "data"), 1));
    assert_int_equal(runctl_continue(&rc), SIM_STOP_HALT);
    assert_int_equal(m.units[0].threads[0].halted_at, 19);
    assert_int_equal(m.units[0].threads[1].halted_at, 20);
    assert_true(rc.over);
    sim_destroy(&m);
}

/* Two watches on one word, each for one thread: every access counts for both, so the
 * second is not hidden behind the first; the stop names the watch that matched (the fake
 * ISA's stop message names the first one the memory recorded). */
static void test_watch_two_filters(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    mem_space *d = sim_space(&m, "data");
    int w0 = dbg_watch_add(&m, d, 0x100, 8, MEM_W, -1, 5, NULL); /* no such thread: never */
    int w1 = dbg_watch_add(&m, d, 0x100, 8, MEM_W, -1, 1, NULL);
    assert_true(w0 > 0 && w1 > w0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.cycle, 1);
    char want[32];
    snprintf(want, sizeof want, "watchpoint %d:", w1);
    assert_memory_equal(m.stop.msg, want, strlen(want));
    sim_destroy(&m);
}

/* An ISA that stops on a watched access before finishing it meets it again at once: the
 * run control passes over a filtered-out hit 64 times with nothing retired and no cycle gone
 * by, then lets the stop stand instead of looping forever. */
static uint64_t stuck_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    (void)horizon;
    fake_machine *fm = m->isa_state;
    u->last_issue = now;
    if (mem_watch_check(fm->data, 0x100, 4, MEM_W))
        sim_set_stop(m, SIM_STOP_WATCH, u->index, 1, ADDR(0), "watchpoint %d: stuck write", fm->data->watch_hit_id);
    return now;
}

static void test_watch_no_progress(void **state)
{
    (void)state;
    isa_ops stuck = rc_isa;
    stuck.unit_run = stuck_unit_run;
    sim_machine m;
    fake_make(&m, &stuck, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    assert_true(dbg_watch_add(&m, sim_space(&m, "data"), 0x100, 4, MEM_W, -1, 0, NULL) > 0); /* thread 0 only */
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(rc.watch_resumes, 64);
    sim_destroy(&m);
}

/* A condition on the register of the thread that made the access, read after the store:
 * k == 4 holds after instruction 3, so the first stop is thread 0's k3 (cycle 6); the
 * stores before it (k0..k2 of both threads, k0..k2 of thread 1 too) are passed over. */
static void test_watch_condition(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    dbg_cond c;
    char err[128];
    assert_int_equal(dbg_cond_parse(&m, "k == 4", &c, err, sizeof err), 0);
    assert_true(dbg_watch_add(&m, sim_space(&m, "data"), 0x100, 8, MEM_W, 0, -1, &c) > 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.cycle, 6);
    assert_int_equal(rc.watch_resumes, 6); /* t0 k0..k2, t1 k0..k2 */
    sim_destroy(&m);
}

/* until CYCLE is a step stop at that cycle; until ADDRESS and step count issues; the last
 * reported thread resumes past the breakpoint it was shown at. */
static void test_step_until(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    rc.interactive = 1;
    assert_int_equal(dbg_attach(&m), 0);
    assert_int_equal(runctl_until_cycle(&rc, 5, 0, 1), SIM_STOP_STEP);
    assert_string_equal(m.stop.msg, "reached cycle 5");
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(runctl_step(&rc, 0, 1, 2), SIM_STOP_STEP); /* thread 1's k3, k4 (7, 9) */
    assert_int_equal(m.stop.cycle, 9);
    assert_int_equal(m.units[0].threads[1].instructions, 5);
    int id = dbg_break_add(&m, ADDR(7), 0, 0, "k7");
    assert_true(id > 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_BREAK); /* thread 0 reaches k7 at 14 */
    assert_int_equal(m.stop.thread, 0);
    runctl_seen(&rc, 0, 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_BREAK); /* thread 0 passes, thread 1 stops */
    assert_int_equal(m.stop.thread, 1);
    runctl_seen(&rc, 0, 1);
    dbg_break_delete(&m, id);
    assert_int_equal(runctl_until_pc(&rc, 0, ADDR(9)), SIM_STOP_STEP);
    assert_int_equal(m.stop.pc, ADDR(9));
    assert_int_equal(runctl_continue(&rc), SIM_STOP_HALT);
    assert_int_equal(m.units[0].threads[1].halted_at, 20);
    sim_destroy(&m);
}

typedef struct poll_log {
    int calls, stop_at;
} poll_log;

static int count_poll(void *ctx)
{
    poll_log *p = ctx;
    return ++p->calls == p->stop_at ? 1 : 0;
}

/* Slices of 4 cycles with a poll between them change no cycle; a poll that says stop ends
 * the run as an interrupt at the slice's end. */
static void test_slices_and_interrupt(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    poll_log p = {0, 0};
    rc.slice = 4;
    rc.poll = count_poll;
    rc.poll_ctx = &p;
    assert_int_equal(runctl_continue(&rc), SIM_STOP_HALT);
    assert_int_equal(m.units[0].threads[0].halted_at, 19);
    assert_int_equal(m.units[0].threads[1].halted_at, 20);
    /* polled after the slices ending at 4, 8, 12 and 16; the one ending at 20 ends with the
     * halt (thread 1's last instruction at 19, its halt at 20), a real stop: no poll */
    assert_int_equal(p.calls, 4);
    sim_destroy(&m);

    fake_make(&m, &rc_isa, BASE);
    runctl_init(&rc, &m, 0);
    rc.interactive = 1;
    p = (poll_log){0, 2};
    rc.slice = 4;
    rc.poll = count_poll;
    rc.poll_ctx = &p;
    assert_int_equal(runctl_continue(&rc), SIM_STOP_USER);
    assert_string_equal(m.stop.msg, "interrupted (Ctrl-C)");
    assert_int_equal(runctl_now(&m), 8);
    /* a signal handler's interrupt: the kind alone, swapped in */
    m.stop.kind = SIM_STOP_NONE;
    runctl_interrupt(&m);
    assert_int_equal(m.stop.kind, SIM_STOP_USER);
    sim_destroy(&m);
}

/* A fast-forward to 6 instructions in all: with ff_stop the run stops at the switch (a
 * marker stop naming it), the functional part is recorded (m->ff), and the run then goes
 * on to the same end as a plain run (the fake ISA's timing does not depend on the mode). */
static void test_fast_forward_stop(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, BASE);
    runctl rc;
    runctl_init(&rc, &m, 0);
    rc.interactive = 1;
    rc.ff_stop = 1;
    runctl_ff_at_insns(&rc, 6, "insns:6");
    assert_int_equal(runctl_continue(&rc), SIM_STOP_MARKER);
    assert_non_null(strstr(m.stop.msg, "fast-forward marker insns:6 reached"));
    assert_non_null(m.ff);
    assert_true(m.ff->instructions >= 6);
    assert_int_equal(rc.ff_armed, 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_HALT);
    assert_int_equal(m.units[0].threads[1].halted_at, 20);
    assert_int_equal(runctl_ff_finish(&rc), 0); /* reached: nothing to record */
    sim_destroy(&m);

    /* a marker never reached: the whole run is functional, said by ff_missed */
    fake_make(&m, &rc_isa, BASE);
    runctl_init(&rc, &m, 0);
    runctl_ff_at_insns(&rc, 1000, "insns:1000");
    assert_int_equal(runctl_continue(&rc), SIM_STOP_HALT);
    assert_int_equal(runctl_ff_finish(&rc), 1);
    assert_int_equal(rc.ff_missed, 1);
    assert_non_null(m.ff);
    assert_int_equal(m.ff->reached, 0);
    sim_destroy(&m);
}

/* A deadlock lists each waiting thread with the ISA's state, and the core's own words for a
 * thread the ISA says nothing of. */
static void test_waiting_list(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, KV("threads=2", "insns=10", "sleep_at=3"));
    runctl rc;
    runctl_init(&rc, &m, 0);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_DEADLOCK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(runctl_waiting(&m, f, "  ", 32), 1);
    fclose(f);
    assert_string_equal(text, "  fake0 thread 0: asleep at k=3\n");
    free(text);
    sim_destroy(&m);

    fake_make(&m, &fake_isa, KV("threads=2", "insns=10", "sleep_at=3"));
    runctl_init(&rc, &m, 0);
    runctl_continue(&rc);
    text = NULL;
    f = open_memstream(&text, &len);
    runctl_waiting(&m, f, "", 32);
    fclose(f);
    assert_string_equal(text, "fake0 thread 0: sleeping (waits for a wake-up)\n");
    free(text);
    sim_destroy(&m);
}

/* A device's write is checked like an instruction's and the stop names its source. */
static void test_device_write(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, KV("threads=2", "insns=10"));
    mem_space *d = sim_space(&m, "data");
    assert_int_equal(dbg_watch_device(&m, d, 0x104, 4, MEM_W, 0, 1, ADDR(2), 5, "DMA"), 0); /* no watch */
    int id = dbg_watch_add(&m, d, 0x104, 4, MEM_W, -1, -1, NULL);
    assert_int_equal(dbg_watch_device(&m, d, 0x110, 4, MEM_W, 0, 1, ADDR(2), 5, "DMA"), 0); /* elsewhere */
    assert_int_equal(dbg_watch_device(&m, d, 0x100, 8, MEM_W, 0, 1, ADDR(2), 5, "DMA"), 1);
    assert_int_equal(m.stop.kind, SIM_STOP_WATCH);
    assert_int_equal(m.stop.cycle, 5);
    char want[160];
    snprintf(want, sizeof want, "watchpoint %d: DMA write of data:0x100 (8 units) for fake0 thread 1", id);
    assert_string_equal(m.stop.msg, want);
    assert_int_equal(d->watch_hit_id, 0);
    sim_destroy(&m);
}

/* Disassembly by thread: the ISA's per-thread view where it has one, in the debugger's
 * helper and in the trace (whose cache keeps the views of two threads apart). */
static void test_disasm_thread(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &rc_isa, KV("threads=2", "insns=2"));
    char buf[64];
    assert_int_equal(dbg_disasm(&m, 0, 1, ADDR(1), buf, sizeof buf), 4);
    assert_string_equal(buf, "t1-op 1");
    assert_int_equal(dbg_disasm(&m, 0, -1, ADDR(1), buf, sizeof buf), 4);
    assert_string_equal(buf, "op 1");
    assert_int_equal(dbg_disasm(&m, 0, 0, 0x10, buf, sizeof buf), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(dbg_attach(&m), 0);
    m.dbg->trace = f;
    dbg_update_slow(&m);
    sim_run(&m, SIM_NEVER);
    m.dbg->trace = NULL;
    fclose(f);
    assert_string_equal(text, "         0 fake0 t0  00001000  t0-op 0\n"
                              "         1 fake0 t1  00001000  t1-op 0\n"
                              "         2 fake0 t0  00001004  t0-op 1\n"
                              "         3 fake0 t1  00001004  t1-op 1\n");
    free(text);
    sim_destroy(&m);
}

XPUSIM_TESTS(runctl,
             cmocka_unit_test(test_watch_thread),
             cmocka_unit_test(test_watch_two_filters),
             cmocka_unit_test(test_watch_no_progress),
             cmocka_unit_test(test_watch_condition),
             cmocka_unit_test(test_step_until),
             cmocka_unit_test(test_slices_and_interrupt),
             cmocka_unit_test(test_fast_forward_stop),
             cmocka_unit_test(test_waiting_list),
             cmocka_unit_test(test_device_write),
             cmocka_unit_test(test_disasm_thread))
