/* isa/nyuzi/func.c: the Nyuzi functional mode (-o timing=none) and the hand-over to the
 * cycle model. Every instruction runs through nyz_exec (exec.c, the same semantics as the
 * cycle model) without the pipeline: no fetch stages, scoreboard, writeback port, caches or
 * memory latencies. A core's threads take turns in bursts of up to FUNC_BURST instructions,
 * round robin, so a thread spinning on a flag another thread sets still lets that thread
 * run; memory accesses complete at once. One instruction (a gather/scatter lane, an
 * interrupt taken) is one step of the core's clock, so cycles count issue steps and the
 * run loop, the timer and the watchdog move on. Interrupts are taken before the instruction
 * a thread would run next. When the run will hand over to the cycle model (a fast-forward
 * is armed) the fetched lines and the data lines touched are entered in the L1 and L2 tags
 * (no timing), so that the cycle model starts from warm caches; nyz_timing_resume then
 * empties the pipelines and clears the scoreboard. The magic marker (NYZ_MAGIC) calls
 * sim_marker. The rules: docs/isa/nyuzi.md "Functional mode and fast-forward". */
#include <string.h>
#include "exec_ops.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

/* Instructions a thread runs before the next ready thread of its core gets a turn: long
 * enough that the turn's bookkeeping costs little per instruction, short enough that a
 * spin-wait on another thread of the core costs at most this many steps per round. */
enum { FUNC_BURST = 64 };

/* Warming: the line of an instruction fetch (L1I, L2 on a miss) and of a data access (L1D,
 * and L2 on an L1D miss for loads; stores write through to the L2, and the store's
 * acknowledgement installs its line in the L1D, as in the cycle model). */
static void warm_fetch(nyz_machine *nm, nyz_core *c, uint32_t pa)
{
    if (!nyz_cache_access(&c->l1i, pa, 1, 0))
        nyz_cache_access(&nm->l2, pa, 1, 0);
}

static void warm_data(nyz_machine *nm, nyz_core *c, const nyz_effect *ef)
{
    if (ef->mem == 1) {
        if (!nyz_cache_access(&c->l1d, ef->paddr, 1, 0))
            nyz_cache_access(&nm->l2, ef->paddr, 1, 0);
    } else if (ef->mem == 2 || ef->mem == 3) { /* stores, load_sync/store_sync (via the L2) */
        nyz_cache_access(&nm->l2, ef->paddr, 1, ef->mem == 2);
        nyz_cache_access(&c->l1d, ef->paddr, 1, 0);
    }
}

/* The instruction fetch of a thread that is translated (MMU on), misaligned, outside
 * memory or may take an interrupt: 1 and *pa when the instruction at pc runs now; 0 when
 * the thread trapped instead (its pc moved) or the run stopped. */
static int fetch_slow(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t *pa)
{
    if ((t->flags & NYZ_F_I) && (nm->int_levels | t->latched) && nyz_pending_ints(nm, c, t)) {
        if (nm->cosim)
            fprintf(nm->cosim, "interrupt %d %08x\n", t->gid, pc);
        nyz_raise_trap(nm, c, t, pc, NYZ_TT_INTERRUPT, 0, 0, 0, 0);
        return 0;
    }
    if (pc & 3) {
        nyz_raise_trap(nm, c, t, pc, NYZ_TT_UNALIGNED, 0, 0, pc, 0);
        return 0;
    }
    if (t->flags & NYZ_F_M) {
        if (nyz_translate(nm, c, t, pc, pa, 0, 0, pc) < 0)
            return 0;
    } else
        *pa = pc;
    if (*pa > nm->ram_size - 4) {
        sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, (int)(t - c->t), pc,
                     "instruction fetch from 0x%08x outside memory (0x%x bytes)", *pa, nm->ram_size);
        return 0;
    }
    return 1;
}

/* One turn of thread ti: instructions from step now until lim, the thread stops being ready,
 * the run stops, or an event changed (a timer set, threads resumed: nm->resched). Returns
 * the step after the last. `slow`: the debugger's hooks around each instruction; `warm`:
 * the caches' tags follow the accesses (constants at each call, so the plain loop has
 * neither). */
static inline __attribute__((always_inline)) uint64_t
burst(sim_machine *m, nyz_machine *nm, sim_unit *u, nyz_core *c, int ti, uint64_t now,
      uint64_t lim, const int slow, const int warm)
{
    nyz_thread *t = &c->t[ti];
    sim_thread *st = &u->threads[ti];
    uint64_t start = now, retired = 0; /* counted into st at the end (slow: at each step) */
    const uint32_t top = nm->ram_size - 4;
    const uint8_t *const ram = nm->ram;
    nyz_dcache_ent *const dc = nm->dc;
    const uint32_t dmask = nm->dc_mask;
    const int magic = m->ff_magic; /* a fast-forward to the magic marker is armed */
    const int hooks = slow && dbg_hooks(m);
    prof_state *const prof = slow ? dbg_profile(m) : NULL; /* --profile, fed here */
    uint32_t iline = 0xffffffffu; /* warm: the line fetched last */
    while (now < lim) {
        uint32_t pc = t->pc, pa = pc;
        nm->cur_cycle = now;  /* CR 6, the timer, suspend/resume read it */
        u->last_issue = now;  /* a stop inside the instruction is at this step */
        if (slow) { /* the hooks and the profile read the thread's counts as they are */
            st->instructions += retired;
            st->issue_cycles += now - start;
            c->events[3] += retired;
            c->events[4] += now - start;
            retired = 0;
            start = now;
        }
        if (__builtin_expect(((t->flags & (NYZ_F_I | NYZ_F_M)) | (pc & 3)) != 0 || pc > top, 0)) {
            if (!fetch_slow(nm, c, t, pc, &pa)) { /* trapped instead (one step), or stopped */
                if (sim_stopped(m))
                    break;
                now++;
                continue;
            }
        }
        if (slow && (hooks || dbg_bp_maybe(m->dbg->bpmap, pc)) && dbg_before_insn(m, u, ti, pc))
            break;
        /* the decode cache (nyz_decode_at), its fields in registers */
        uint32_t w = mem_ld32le(ram + pa);
        nyz_dcache_ent *e = &dc[(pa >> 2) & dmask];
        if (__builtin_expect(e->pa != pa || e->raw != w, 0)) {
            nyz_predecode(w, &e->in);
            e->pa = pa;
            e->raw = w;
        }
        nyz_effect ef = {0};
        nyz_exec(nm, c, t, &e->in, &ef);
        retired += ef.retired;
        now++;
        if (warm) {
            if ((pa >> 6) != iline) {
                iline = pa >> 6;
                warm_fetch(nm, c, pa);
            }
            if (ef.mem && !ef.trapped)
                warm_data(nm, c, &ef);
        }
        if (slow) {
            st->instructions += retired;
            st->issue_cycles += now - start;
            c->events[3] += retired;
            c->events[4] += now - start;
            if (hooks)
                dbg_after_insn(m, u, ti, pc);
            else {
                if (prof) /* the count before this instruction, the stalls (none) */
                    prof_issue(prof, u->index * prof->tpu + ti, pc, now - 1, st->instructions - retired, NULL);
                if (m->dbg->watching)
                    dbg_watch_report(m, u, ti, pc);
            }
            retired = 0;
            start = now;
            if (sim_stopped(m))
                break;
        }
        /* traps, control registers (suspend/resume threads) and device accesses (the
         * timer) are the only instructions that stop the run or change the schedule */
        if ((ef.trapped || ef.mem >= 4) && (sim_stopped(m) || st->state != SIM_T_READY || nm->resched))
            break;
        if (magic && w == NYZ_MAGIC && sim_marker(m, c->index, ti, pc))
            break;
    }
    st->instructions += retired;
    st->issue_cycles += now - start;
    c->events[3] += retired;     /* instr_retire */
    c->events[4] += now - start; /* instr_issue */
    return now;
}

/* The functional loop's hooks for the instruction bodies (exec_ops.inc): the pc stays in a
 * register, the bodies end in a jump to the next instruction's dispatch, and only the OPS
 * bodies (those that may call code reading the cycle, the thread's pc or stopping the run)
 * store them first. Cosimulation, store records and the timing model's effect are left to
 * nyz_exec (burst()). */
#define OP(f) L_##f:
#define OPS(f)                                                                            \
    L_##f: t->pc = pc + 4;                                                                \
    nm->cur_cycle = now; /* CR 6, the timer, suspend/resume read it */                    \
    u->last_issue = now; /* a stop inside the instruction is at this step */
#define END()                                                                             \
    do {                                                                                  \
        pc += 4;                                                                          \
        goto L_next;                                                                      \
    } while (0)
#define END_SYS()                                                                         \
    do {                                                                                  \
        pc += 4;                                                                          \
        goto L_sys;                                                                       \
    } while (0)
#define END_MARKER()                                                                      \
    do {                                                                                  \
        pc += 4;                                                                          \
        goto L_magic;                                                                     \
    } while (0)
#define TAKEN(x)                                                                          \
    do {                                                                                  \
        pc = (x);                                                                         \
        goto L_next;                                                                      \
    } while (0)
#define TAKEN_SYS(x)                                                                      \
    do {                                                                                  \
        pc = (x);                                                                         \
        goto L_sys;                                                                       \
    } while (0)
#define FAILED()                                                                          \
    do {                                                                                  \
        pc = t->pc;                                                                       \
        goto L_sys;                                                                       \
    } while (0)
#define REPEAT() goto L_repeat
#define EF_MEM(k) ((void)0)
#define EF_PADDR(a) ((void)0)
#define EF_FULL(x) ((void)0)
#define NYZ_COSIM 0
#define NYZ_FUNCTIONAL 1
/* straight-line lanes, vectorised at -O2 (exec.c, at -O3, unrolls them by itself; clang
 * unrolls them unasked and reports a pragma it cannot honour as an error) */
#if defined(__GNUC__) && !defined(__clang__)
#define NYZ_LANES_UNROLL _Pragma("GCC unroll 16")
#else
#define NYZ_LANES_UNROLL
#endif

/* --profile (func_loop.inc): the issue of thread pt at pc in step now, with the retired
 * count insns, whose row the window does not map. The loop keeps the thread's row closed up
 * to (insns, now): it is opened again (minus them) for prof_issue_th, and the row that opens
 * is closed up to them in turn and returned. */
static __attribute__((noinline)) uint64_t *nyz_prof_slow(prof_thread *pt, uint32_t pc, uint64_t now, uint64_t insns)
{
    pt->row[PROF_INSNS] -= insns;
    pt->row[PROF_CYCLES] -= now;
    prof_issue_th(pt, pc, now, insns, NULL);
    uint64_t *r = pt->row;
    r[PROF_INSNS] += insns;
    r[PROF_CYCLES] += now;
    return r;
}

/* The plain turn (func_loop.inc), without and with the --profile feed */
#define FUNC_LOOP_NAME plain
#define FUNC_LOOP_PROF 0
#include "func_loop.inc"
#define FUNC_LOOP_NAME plain_prof
#define FUNC_LOOP_PROF 1
#include "func_loop.inc"

uint64_t nyz_func_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    nyz_machine *nm = m->isa_state;
    nyz_core *c = u->isa;
    const int n = u->nthreads;
    /* warm caches only when the run will hand over to the cycle model: a fast-forward to
     * the magic marker, to an instruction count or to a code address (a breakpoint) */
    const int warm = nm->warm || m->ff_magic || m->ff_insns || (m->dbg && m->dbg->nbrk);
    /* --profile alone: the plain turn feeds it (the hooks, breakpoints, watchpoints or
     * warming take burst()) */
    prof_state *prof = dbg_profile(m);
    if (prof && (warm || nm->cosim || dbg_bp_map(m) || m->dbg->watching))
        prof = NULL;
    while (now < horizon) {
        if (sim_stopped(m))
            return now;
        int pick = -1, i = u->rr < n ? u->rr : 0;
        uint64_t next = SIM_NEVER;
        for (int k = 0; k < n; k++, i = (i + 1 == n ? 0 : i + 1)) {
            const sim_thread *st = &u->threads[i];
            if (st->state != SIM_T_READY)
                continue;
            if (st->ready_at <= now) {
                pick = i;
                break;
            }
            if (st->ready_at < next)
                next = st->ready_at;
        }
        if (pick < 0) { /* none ready: a resumed thread starts later, or none is left */
            if (next == SIM_NEVER || next >= horizon)
                return next;
            now = next;
            continue;
        }
        u->rr = pick + 1 == n ? 0 : pick + 1;
        uint64_t lim = horizon - now > FUNC_BURST ? now + FUNC_BURST : horizon;
        if (m->slow && prof)
            now = plain_prof(m, nm, u, c, pick, now, lim, prof);
        else if (m->slow)
            now = warm ? burst(m, nm, u, c, pick, now, lim, 1, 1) : burst(m, nm, u, c, pick, now, lim, 1, 0);
        else
            now = warm ? burst(m, nm, u, c, pick, now, lim, 0, 1)
                 : nm->cosim ? burst(m, nm, u, c, pick, now, lim, 0, 0) /* nyz_exec writes the stream */
                             : plain(m, nm, u, c, pick, now, lim, NULL);
        if (nm->resched) { /* a timer was set or threads resumed: the core's loop sees it */
            nm->resched = 0;
            return now;
        }
    }
    return now;
}

/* The end of a fast-forward: m->functional was cleared between two unit_run calls. The
 * cycle model goes on from the architectural state with empty pipelines: every thread's
 * instruction FIFO empty (fetch restarts at its pc), no rollback, replay or suspension
 * pending, the scoreboard clear, the store queue and writeback port free, no cache fill in
 * flight; the caches keep the lines the functional run entered. */
void nyz_timing_resume(sim_machine *m)
{
    nyz_machine *nm = m->isa_state;
    uint64_t last = m->now;
    for (int ci = 0; ci < nm->ncores; ci++) {
        nyz_core *c = &nm->cores[ci];
        sim_unit *u = &m->units[ci];
        /* a core runs ahead of m->now in bursts: it goes on from its own next step */
        uint64_t now = ev_pending(&u->ev) && u->ev.when > m->now ? u->ev.when : m->now;
        if (now > last)
            last = now;
        for (int i = 0; i < c->nthreads; i++) {
            nyz_thread *t = &c->t[i];
            memset(t->reg_ready, 0, sizeof t->reg_ready);
            t->store_done = 0;
            t->fe_n = 0;
            t->fe_int = 0;
            t->fe_sync = 1;
            t->fetch_full = 0;
            t->ghost = 0;
            t->rb_at = 0;
            t->miss_at = 0;
            t->blocked = 0;
            t->iwait = 0;
            t->cur = NULL;
            t->why = NYZ_ST_NONE;
            t->last_issue = now;
            if (u->threads[i].state == SIM_T_READY && u->threads[i].ready_at < now)
                u->threads[i].ready_at = now;
        }
        c->due = 0;
        c->frr = 0;
        for (int k = 0; k < 8; k++)
            c->wb_slot[k] = SIM_NEVER;
        nyz_cache *l1[2] = {&c->l1i, &c->l1d};
        for (int k = 0; k < 2; k++) {
            l1[k]->nfill = 0;
            l1[k]->next_fill = UINT64_MAX;
        }
    }
    if (nm->mem_free < last)
        nm->mem_free = last;
    nm->arb_tok = 0; /* (bus_log.c: the bus moved; its grants are settled again) */
}
