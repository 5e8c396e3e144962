/* tests/unit/fake_isa.h: a tiny ISA used only by the core unit tests (never registered).
 * It exists so the run loop, scheduler, debugger hooks and statistics can be tested with
 * timing that is trivial to derive by hand:
 *   - each unit has `threads` hardware threads, all started at cycle `start`;
 *   - a unit issues at most one instruction per cycle, picking threads with sched_pick
 *     (round robin among threads whose ready_at has passed);
 *   - thread t's k-th instruction (k = 0, 1, ...) is at code address 0x1000 + 4k; after it
 *     issues at cycle c the thread is ready again at c + lat (a revolver/barrel rule);
 *   - a thread retires insns + jitter * unit_index instructions, then halts at c + 1
 *     (the cycle after its last issue);
 *   - "wait" stall cycles = issue cycle - ready_at (cycles spent ready but not picked);
 *   - sleep_at=K: thread 0 sleeps after retiring K instructions; if wake_delay=D > 0 an
 *     ISA-owned event (registered with sim_register_event) wakes it at c + D, else nothing
 *     does (a deadlock);
 *   - long_at=K long_lat=L: after instruction K the thread is ready only at c + L;
 *   - store=1: instruction k of thread t writes k to data:0x100 + 4t (4 bytes), so
 *     watchpoints can trigger;
 *   - fault_unit=U fault_k=K: thread 0 of unit U faults (SIM_STOP_FAULT) instead of issuing
 *     its instruction K; the unit returns at once with that cycle, as isa.h asks;
 *   - kill_unit=U kill_at=C: an ISA event at cycle C (priority 1, after the unit events of
 *     that cycle) halts unit U with sim_unit_halt, as an ISA does when a host stops a core.
 * The debugger hooks are called exactly as isa/isa.h and core/debug.h ask: only when
 * m->slow, with u->last_issue set first; a veto leaves the thread and the round-robin
 * cursor untouched so the same instruction re-runs on resume. */
#ifndef XPUSIM_TEST_FAKE_ISA_H
#define XPUSIM_TEST_FAKE_ISA_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/sim.h"
#include "../../core/sched.h"
#include "../../core/debug.h"
#include "../../core/stats.h"
#include "../../isa/isa.h"

#define FAKE_MAX_THREADS 32
#define FAKE_CODE_BASE 0x1000u
#define FAKE_CODE_WORDS 8192u

typedef struct fake_unit {
    uint64_t calls;                 /* unit_run calls, for the skip-ahead test */
    uint64_t pc[FAKE_MAX_THREADS];  /* next instruction index per thread */
    uint64_t ninsn;                 /* instructions per thread on this unit */
    ev_event wake;                  /* ISA-owned event that wakes thread 0 */
    int slept;
    sim_unit *u;
} fake_unit;

typedef struct fake_machine {
    uint64_t lat, sleep_at, wake_delay, long_at, long_lat, store;
    uint64_t fault_unit, fault_k, kill_unit, kill_at;
    ev_event kill;
    sim_machine *m;
    fake_unit *units;
    mem_space *data;
} fake_machine;

static void fake_wake_fn(ev_event *e, void *ctx)
{
    (void)e;
    fake_unit *fu = ctx;
    sched_wake(fu->u, 0, fu->u->m->now);
}

static void fake_kill_fn(ev_event *e, void *ctx)
{
    (void)e;
    fake_machine *fm = ctx;
    sim_machine *m = fm->m;
    sim_unit_halt(m, &m->units[fm->kill_unit], m->now);
}

static int fake_create(sim_machine *m, char *err, size_t errlen)
{
    uint64_t units, threads, insns, jitter, start;
    fake_machine *fm = calloc(1, sizeof *fm);
    if (!fm)
        return -1;
    m->isa_state = fm;
    if (opt_get_u64(&m->opts, "units", 1, 1, 64, &units, err, errlen) ||
        opt_get_u64(&m->opts, "threads", 1, 1, FAKE_MAX_THREADS, &threads, err, errlen) ||
        opt_get_u64(&m->opts, "insns", 10, 1, FAKE_CODE_WORDS, &insns, err, errlen) ||
        opt_get_u64(&m->opts, "jitter", 0, 0, 1000, &jitter, err, errlen) ||
        opt_get_u64(&m->opts, "lat", 1, 1, 1000000000, &fm->lat, err, errlen) ||
        opt_get_u64(&m->opts, "start", 0, 0, UINT64_MAX / 2, &start, err, errlen) ||
        opt_get_u64(&m->opts, "sleep_at", 0, 0, UINT64_MAX, &fm->sleep_at, err, errlen) ||
        opt_get_u64(&m->opts, "wake_delay", 0, 0, 1000000000, &fm->wake_delay, err, errlen) ||
        opt_get_u64(&m->opts, "long_at", UINT64_MAX, 0, UINT64_MAX, &fm->long_at, err, errlen) ||
        opt_get_u64(&m->opts, "long_lat", 1, 1, UINT64_MAX / 4, &fm->long_lat, err, errlen) ||
        opt_get_u64(&m->opts, "store", 0, 0, 1, &fm->store, err, errlen) ||
        opt_get_u64(&m->opts, "fault_unit", UINT64_MAX, 0, UINT64_MAX, &fm->fault_unit, err, errlen) ||
        opt_get_u64(&m->opts, "fault_k", 0, 0, UINT64_MAX, &fm->fault_k, err, errlen) ||
        opt_get_u64(&m->opts, "kill_unit", UINT64_MAX, 0, UINT64_MAX, &fm->kill_unit, err, errlen) ||
        opt_get_u64(&m->opts, "kill_at", 0, 0, UINT64_MAX, &fm->kill_at, err, errlen))
        return -1;
    fm->m = m;
    if (sim_add_units(m, (int)units, (int)threads, "fake%d", 1e9))
        return snprintf(err, errlen, "sim_add_units failed"), -1;
    mem_space *code = sim_add_space(m, "code", 1, 4, 0);
    fm->data = sim_add_space(m, "data", 1, 4, 0);
    if (!code || !fm->data || !mem_add_ram(code, "rom", FAKE_CODE_BASE, 4 * FAKE_CODE_WORDS, MEM_R | MEM_X) ||
        !mem_add_ram(fm->data, "ram", 0x100, 0x100, MEM_RW))
        return snprintf(err, errlen, "space set-up failed"), -1;
    for (uint32_t k = 0; k < FAKE_CODE_WORDS; k++)
        mem_host_write(code, FAKE_CODE_BASE + 4 * k, &k, 4); /* word k = k (host is LE) */
    fm->units = calloc(units, sizeof *fm->units);
    if (!fm->units)
        return -1;
    for (int i = 0; i < (int)units; i++) {
        fake_unit *fu = &fm->units[i];
        fu->u = &m->units[i];
        fu->ninsn = insns + jitter * (uint64_t)i;
        m->units[i].isa = fu;
        if (sim_register_event(m, &fu->wake, "fake-wake", fake_wake_fn, fu, 1))
            return -1;
        for (int t = 0; t < (int)threads; t++)
            sched_start(&m->units[i], t, start);
    }
    if (fm->kill_unit < units) {
        if (sim_register_event(m, &fm->kill, "fake-kill", fake_kill_fn, fm, 1))
            return -1;
        sim_schedule(m, &fm->kill, fm->kill_at);
    }
    return 0;
}

static void fake_destroy(sim_machine *m)
{
    fake_machine *fm = m->isa_state;
    free(fm->units);
    free(fm);
    m->isa_state = NULL;
}

static uint64_t fake_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    fake_machine *fm = m->isa_state;
    fake_unit *fu = u->isa;
    uint64_t c = now;
    fu->calls++;
    while (c < horizon) {
        if (sim_stopped(m))
            return c;
        int rr = u->rr;
        int t = sched_pick(u, c);
        if (t < 0) {
            uint64_t nr = sched_next_ready(u);
            if (nr == SIM_NEVER || nr >= horizon)
                return nr;
            c = nr; /* skip idle cycles */
            continue;
        }
        sim_thread *th = &u->threads[t];
        uint64_t k = fu->pc[t], pc = FAKE_CODE_BASE + 4 * k;
        u->last_issue = c;
        if (t == 0 && k == fm->fault_k && (uint64_t)u->index == fm->fault_unit) {
            u->rr = rr;
            sim_set_stop(m, SIM_STOP_FAULT, u->index, t, pc, "fake fault at 0x%llx", (unsigned long long)pc);
            return c;
        }
        if (m->slow && dbg_before_insn(m, u, t, pc)) {
            u->rr = rr; /* not issued: the same pick happens on resume */
            return c;
        }
        th->stalls[0] += c - th->ready_at;
        th->instructions++;
        th->issue_cycles++;
        if (fm->store) {
            int f = mem_write(fm->data, 0x100 + 4 * (uint64_t)t, 4, k);
            if (f)
                sim_set_stop(m, SIM_STOP_FAULT, u->index, t, pc, "store fault %d", f);
        }
        fu->pc[t] = k + 1;
        if (k + 1 == fu->ninsn) {
            sched_halt(u, t, c + 1);
        } else if (fm->sleep_at && t == 0 && k + 1 == fm->sleep_at && !fu->slept) {
            fu->slept = 1;
            sched_sleep(u, 0);
            if (fm->wake_delay) {
                sim_schedule(m, &fu->wake, c + fm->wake_delay);
                if (c + fm->wake_delay < horizon)
                    horizon = c + fm->wake_delay; /* let the event run first */
            }
        } else {
            th->ready_at = c + (k == fm->long_at ? fm->long_lat : fm->lat);
        }
        if (m->slow)
            dbg_after_insn(m, u, t, pc);
        c++;
    }
    return c;
}

static uint64_t fake_pc_get(sim_machine *m, int unit, int thread)
{
    fake_machine *fm = m->isa_state;
    return FAKE_CODE_BASE + 4 * fm->units[unit].pc[thread];
}

static int fake_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    (void)addr;
    if (avail < 4)
        return 0;
    snprintf(buf, n, "op %u", (unsigned)mem_ld32le(p));
    return 4;
}

static const char *const fake_stalls[] = {"wait", "other", NULL};

__attribute__((unused)) static const isa_ops fake_isa = {
    .name = "fake",
    .description = "unit-test ISA",
    .stall_names = fake_stalls,
    .create = fake_create,
    .destroy = fake_destroy,
    .unit_run = fake_unit_run,
    .pc_get = fake_pc_get,
    .code_space = "code",
    .disasm = fake_disasm,
};

/* The same machine, declared as having units that never interact (DPU-like). */
__attribute__((unused)) static const isa_ops fake_isa_indep = {
    .name = "fake-indep",
    .description = "unit-test ISA, independent units",
    .stall_names = fake_stalls,
    .create = fake_create,
    .destroy = fake_destroy,
    .unit_run = fake_unit_run,
    .independent_units = 1,
    .pc_get = fake_pc_get,
    .code_space = "code",
    .disasm = fake_disasm,
};

/* Build a machine from a NULL-terminated list of "key=value" strings; fails the test on error. */
__attribute__((unused)) static void fake_make(sim_machine *m, const isa_ops *isa, const char *const *kv)
{
    sim_opts o;
    char err[256] = "";
    opt_init(&o);
    for (int i = 0; kv && kv[i]; i++)
        assert_int_equal(opt_parse(&o, kv[i]), 0);
    int rc = sim_create(m, isa, &o, err, sizeof err);
    if (rc)
        fail_msg("sim_create: %s", err);
}

__attribute__((unused)) static uint64_t fake_calls(const sim_machine *m, int unit)
{
    return ((fake_unit *)m->units[unit].isa)->calls;
}

#endif
