/* isa/nyuzi/devices.c: the device space at 0xFFFF0000 and thread control.
 * Serial console (status 0x40, TX 0x48 to the machine's output), VGA enable/base/length
 * (0x180/0x188/0x18C) for the framebuffer, the timer (0x240: counts down one per cycle and
 * raises interrupt line 1 while it is zero, as after reset), and suspend/resume of hardware threads through CR 20/21
 * (global thread bitmaps). Unknown registers read as all ones, as on the reference. */
#include "nyuzi.h"
#include "../../core/sched.h"

/* The timer's interrupt output rises this many cycles after val more than the cycle the
 * store that wrote val issues: the write travels through the I/O request queue and bus
 * (measured on the RTL: handler-entry periods of timer probes, docs/validation/nyuzi.md). */
enum { TIMER_PATH = 4 };

uint64_t nyz_now(nyz_machine *nm) { return nm->cur_cycle; }

int nyz_dev_read(nyz_machine *nm, uint32_t pa, uint32_t *val)
{
    switch (pa - NYZ_DEVICE_BASE) {
    case 0x40: *val = 1; return 0;           /* TX ready, no RX data */
    case 0x44: *val = 0; return 0;
    case 0x180: *val = nm->vga_enable; return 0;
    case 0x188: *val = nm->fb_base; return 0;
    case 0x240: {
        uint64_t now = nm->cur_cycle;
        *val = ev_pending(&nm->timer_ev) && nm->timer_ev.when > now ? (uint32_t)(nm->timer_ev.when - now) : 0;
        return 0;
    }
    default: *val = 0xffffffffu; return 0;
    }
}

int nyz_dev_write(nyz_machine *nm, uint32_t pa, uint32_t val)
{
    switch (pa - NYZ_DEVICE_BASE) {
    case 0x48:
        if (nm->m->out)
            fputc((int)(val & 0xff), nm->m->out);
        return 0;
    case 0x180: nm->vga_enable = val & 1; return 0;
    case 0x188: nm->fb_base = val; return 0;
    case 0x240:
        nm->timer_count = val;
        if (val) {
            nm->int_levels &= ~(1u << 1);
            sim_schedule(nm->m, &nm->timer_ev, nm->cur_cycle + val + TIMER_PATH);
            nm->resched = 1;
        } else {
            /* counter 0: the interrupt output is high again (an edge if it was low) */
            if (ev_pending(&nm->timer_ev))
                ev_cancel(&nm->m->q, &nm->timer_ev);
            if (!(nm->int_levels & 2))
                nyz_raise_interrupt(nm, 2);
        }
        return 0;
    default:
        return 0;
    }
}

void nyz_raise_interrupt(nyz_machine *nm, uint32_t bits)
{
    nm->int_levels |= bits;
    for (int ci = 0; ci < nm->ncores; ci++)
        for (int i = 0; i < nm->nthreads; i++)
            nm->cores[ci].t[i].latched |= bits;
}

/* A resumed thread starts fetching this many cycles after the setcr issues (the control
 * register is written in its writeback stage): RTL trace, kernel on 2 cores, setcr at 104,
 * core 0's thread 1 (its line in the L1I) issues first at 113, 9 cycles later, and the
 * model issues a started thread's first instruction 4 cycles after its start. Core 1's
 * thread 0, whose line the L2 holds, issues at 121 on the RTL, at + 18 in the model (the
 * model's fetch is a stage shorter on a hit, a stage longer to the miss, calibrated on
 * running threads). Of the 67 whole programs 20 four-thread ones end a cycle closer to
 * the RTL with 5 than with 1, none further (docs/validation/nyuzi.md 5b, session 29). */
enum { RESUME_START = 5 };

void nyz_resume_threads(nyz_machine *nm, uint32_t mask)
{
    for (int g = 0; g < nm->ncores * nm->nthreads && g < 32; g++) {
        if (!(mask & (1u << g)))
            continue;
        sim_unit *u = &nm->m->units[g / nm->nthreads];
        int tid = g % nm->nthreads;
        nyz_thread *t = &nm->cores[g / nm->nthreads].t[tid];
        if (t->halt_at) { /* a suspension still on its way: this resume, later, undoes it
                           * (the cycles between the two, thread_en low, not modelled) */
            t->halt_at = 0;
            continue;
        }
        if (u->threads[tid].state == SIM_T_HALTED) {
            sched_start(u, tid, nm->cur_cycle + RESUME_START); /* the core never halted (halt_by_isa) */
            t->fe_sync = 1; /* fetch restarts at its pc */
            nm->cores[g / nm->nthreads].due = 0;
            nm->resched = 1;
        }
    }
}

/* The machine's rule for a core's halt (u->halt_by_isa, set in create): a core whose threads
 * are all halted may still be restarted by another core (CR 21), so the cores halt together
 * when no thread of the machine is left, each at the cycle its own last thread halted (its
 * threads' latest halt, 0 for a core never started): the cycles they had when each core
 * halted with its last thread and a restart undid it. */
static void nyz_halt_when_done(nyz_machine *nm)
{
    sim_machine *m = nm->m;
    for (int ci = 0; ci < nm->ncores; ci++)
        if (sched_live(&m->units[ci]))
            return;
    for (int ci = 0; ci < nm->ncores; ci++) {
        sim_unit *u = &m->units[ci];
        uint64_t at = 0;
        for (int t = 0; t < u->nthreads; t++)
            at = u->threads[t].halted_at > at ? u->threads[t].halted_at : at;
        sim_unit_halt(m, u, at);
    }
}

/* A setcr of CR 20 clears the threads' bits of thread_en: control_registers.sv writes
 * cr_suspend_thread at the end of the setcr's dcache data stage and nyuzi.sv registers
 * thread_en from it, so thread_select and ifetch_tag see it low two cycles after that. In
 * the model's cycles (the RTL trace's, issue I): the thread goes on fetching and issuing to
 * I + HALT_END (RTL trace of dep_int.4: thread 1's setcr issues at 3035, the branch behind
 * it at 3039; thread 0's at 2080, its fetch at 2082), and then halts (pipeline.c
 * due_events). The RTL's run ends when thread_en is all low: the thread counts as halted
 * at I + HALT_END (trace of cycles.S: the halting setcr issues at 757, "ran for 761";
 * tests/nyuzi/boot_end.t.sh). The functional mode counts steps: the step after. */
enum { HALT_END = 4 };

void nyz_suspend_threads(nyz_machine *nm, uint32_t mask)
{
    for (int g = 0; g < nm->ncores * nm->nthreads && g < 32; g++) {
        if (!(mask & (1u << g)))
            continue;
        sim_unit *u = &nm->m->units[g / nm->nthreads];
        int tid = g % nm->nthreads;
        if (!sim_thread_active(&u->threads[tid]))
            continue;
        if (nm->m->functional) {
            sched_halt(u, tid, nm->cur_cycle + 1);
            continue;
        }
        nyz_core *c = &nm->cores[g / nm->nthreads];
        nyz_thread *t = &c->t[tid];
        uint64_t at = nm->cur_cycle + HALT_END;
        if (t->halt_at && t->halt_at <= at)
            continue;
        t->halt_at = at;
        if (at + 1 < c->due)
            c->due = at + 1;
        if (!c->halt_due || at + 1 < c->halt_due)
            c->halt_due = at + 1;
        if (u->index != nm->run_core) /* (the running core sees its due at its next cycle) */
            sim_unit_wake(nm->m, u, at + 1);
    }
    if (nm->m->functional)
        nyz_halt_when_done(nm);
}

/* The suspension of thread tid of unit u takes effect (pipeline.c due_events, the cycle
 * after its last fetch and issue). */
void nyz_suspend_due(nyz_machine *nm, sim_unit *u, int tid)
{
    nyz_thread *t = &nm->cores[u->index].t[tid];
    sched_halt(u, tid, t->halt_at);
    t->halt_at = 0;
    nyz_halt_when_done(nm);
}
