/* isa/nyuzi/pipeline.c: the Nyuzi core pipeline, cycle by cycle, in the structure of the
 * RTL (jbush001/NyuziProcessor hardware/core). Front end: each cycle ifetch_tag_stage picks
 * one thread, round robin among those whose instruction FIFO is not almost full and that
 * are not waiting for an instruction line; that instruction can issue FE_DEPTH cycles
 * later (tag, data, decode, FIFO). The data stage finds a miss: the thread then waits for
 * the line and refetches from it. Back end: each cycle thread_select_stage issues one
 * instruction, round robin among the threads whose FIFO head can go (scoreboard, writeback
 * port, not suspended). Taken branches, traps and rolled-back accesses act in the
 * writeback stage, RB_INT or RB_MEM cycles after issue: until then the thread goes on
 * issuing the instructions behind them, which are squashed but take issue and writeback
 * slots; then its FIFO is flushed and fetch restarts. A pending interrupt is attached to
 * the instruction being decoded. Semantics run when an instruction issues (exec.c); the
 * memory system is timing.c. Why the model is built this way: docs/isa/nyuzi.md. */
#include <string.h>
#include "exec_ops.h"
#include "memo.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

enum {
    FE_DEPTH = 4,    /* fetch to issue: ifetch_tag, ifetch_data, instruction_decode, FIFO */
    FIFO_ALMOST = 5, /* thread_select_stage: 8-entry FIFO, fetch stops at almost full (8 - 3) */
    RB_INT = 3,      /* issue to writeback of the integer pipe (operand fetch, execute) */
    RB_MEM = 4,      /* ... of the memory pipe (operand fetch, dcache tag, dcache data) */
    /* An instruction line miss: the request's time for the memory model, and how much of
     * the fill latency the fetch stages hide (calibrated on the RTL: a cold line in
     * straight-line code, docs/validation/nyuzi.md section 5) */
    ICACHE_REQ = 3,
    ICACHE_HIDE = 10,
};

/* Kinds of replay (nyz_thread.ghost): after a cache miss (an interrupt may take its place),
 * after the first issue of a device or synchronized access (interrupts wait for it), a
 * store that found the store queue busy (it enters the queue when replayed). */
enum { GHOST_INT = 1, GHOST_NOINT = 2, GHOST_STORE = 3 };

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Writeback port: one result per cycle. A pipe of depth d issued at t writes back in the
 * slot of cycle t + d (integer 1, memory 2, floating point 5), so an integer op cannot
 * issue one cycle after a memory op or four after an FP op, nor a memory op three after
 * an FP op. Slots within the next 8 cycles are kept by cycle number in a ring. */
static const unsigned pipe_depth[3] = {1, 2, 5};

static inline int wb_slot_busy(const nyz_core *c, uint64_t slot)
{
    return c->wb_slot[slot & 7] == slot;
}

static inline void wb_take(nyz_core *c, uint64_t slot)
{
    c->wb_slot[slot & 7] = slot;
}

/* The thread's FIFO: entries already enqueued at cycle now (the ones still in the fetch
 * stages do not count towards almost full). */
static inline unsigned fifo_count(const nyz_thread *t, uint64_t now)
{
    unsigned n = t->fe_n;
    if (n < FIFO_ALMOST)
        return n;
    while (n && t->fe_vis[(t->fe_h + n - 1) & 7] > now)
        n--;
    return n;
}

/* Empty the FIFO (rollback): the thread cannot issue until fetch brings the next one. */
static inline void fe_flush(nyz_thread *t, sim_thread *st, uint32_t pc)
{
    st->ready_at = SIM_NEVER;
    t->fetch_full = 0;
    t->fe_n = 0;
    t->fe_int = 0;
    t->sq_lanes = 0;
    t->fe_pc = t->npc = pc;
    t->miss_at = 0;
}

static inline void fe_pop(nyz_thread *t)
{
    t->fetch_full = 0;
    t->fe_int &= (uint8_t)~(1u << t->fe_h);
    t->fe_h = (t->fe_h + 1) & 7;
    t->fe_n--;
    t->fe_pc += 4;
}

static inline void set_due(nyz_core *c, uint64_t at)
{
    if (at < c->due)
        c->due = at;
}

/* The thread's instruction at pc for execution: 0 and *out, or -1 after raising the fetch
 * fault (alignment, TLB, outside memory: the thread state is already updated). */
static int fetch(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn **out)
{
    uint32_t pc = t->pc, pa;
    /* A thread retried at the same PC (it could not issue last time) reuses its fetch. */
    if (t->cur && t->cur_pc == pc && t->cur_flags == t->flags && t->cur->pa == t->cur_pa) {
        *out = &t->cur->in;
        return 0;
    }
    t->cur = NULL;
    if (pc & 3) {
        nyz_raise_trap(nm, c, t, pc, NYZ_TT_UNALIGNED, 0, 0, pc, 0);
        return -1;
    }
    if (t->flags & NYZ_F_M) {
        if (nyz_translate(nm, c, t, pc, &pa, 0, 0, pc) < 0)
            return -1;
    } else
        pa = pc;
    if (pa > nm->ram_size - 4) { /* = pa + 4 > ram_size, no wrap-around (ram >= 64 KiB) */
        sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, (int)(t - c->t), pc,
                     "instruction fetch from 0x%08x outside memory (0x%x bytes)", pa, nm->ram_size);
        return -1;
    }
    t->cur = nyz_decode_at(nm, pa);
    *out = &t->cur->in;
    t->cur_pa = pa;
    t->cur_pc = pc;
    t->cur_flags = t->flags;
    return 0;
}

/* An instruction line missing in L1I, seen by ifetch_data at cycle now: requested from
 * the L2; returns the cycle the thread may fetch from it again (l2i_icache_wake_bitmap).
 * The L1I's ready time of a line is that cycle, so a thread whose fetch finds a line
 * still being filled waits for the same fill. */
static __attribute__((noinline)) uint64_t icache_fill(nyz_machine *nm, nyz_core *c, uint32_t pa,
                                                  uint64_t now)
{
    nyz_cache *l1i = &c->l1i;
    uint64_t at;
    nyz_l1_settle(l1i, now);
    if (nyz_cache_access(l1i, pa, 0, 0)) /* arrived since (a near miss) */
        return now;
    if (nyz_l1_fill_pending(l1i, pa, &at))
        return at;
    unsigned lat = nyz_fill_latency(nm, pa, 0, now + ICACHE_REQ, 0, c->index);
    uint64_t w = now + ICACHE_REQ + lat;
    w = w > ICACHE_HIDE ? w - ICACHE_HIDE : 0;
    nyz_l1_fill_add(l1i, pa, w);
    return w;
}

/* The threads whose last fetch and issue before a setcr's suspension were before now halt
 * (devices.c nyz_suspend_due); c->halt_due and c->due follow the ones left. */
static __attribute__((noinline)) void due_halts(nyz_machine *nm, sim_unit *u, nyz_core *c,
                                               uint64_t now)
{
    if (now < c->halt_due) {
        set_due(c, c->halt_due);
        return;
    }
    uint64_t next = 0;
    for (int i = 0; i < c->nthreads; i++) {
        nyz_thread *t = &c->t[i];
        if (t->halt_at && now > t->halt_at)
            nyz_suspend_due(nm, u, i);
        else if (t->halt_at && (!next || t->halt_at + 1 < next))
            next = t->halt_at + 1;
    }
    c->halt_due = next;
    if (next)
        set_due(c, next);
}

/* Start of cycle now: rollbacks reaching the writeback stage, fetch misses reaching the
 * data stage, threads (re)started or suspended. */
static void due_events(nyz_machine *nm, sim_unit *u, nyz_core *c, uint64_t now)
{
    uint64_t due = SIM_NEVER;
    for (int i = 0; i < c->nthreads; i++) {
        nyz_thread *t = &c->t[i];
        /* most threads have nothing due now: only their next event counts (0 is none) */
        if (!t->fe_sync && t->rb_at != now && t->miss_at != now) {
            if (t->rb_at && t->rb_at < due)
                due = t->rb_at;
            if (t->miss_at && t->miss_at < due)
                due = t->miss_at;
            continue;
        }
        sim_thread *st = &u->threads[i];
        if (t->fe_sync) { /* reset, resume or a new pc: fetch from pc from now on */
            t->fe_sync = 0;
            t->iwait = max64(now, st->ready_at == SIM_NEVER ? now : st->ready_at);
            fe_flush(t, st, t->pc);
            t->rb_at = 0;
            t->ghost = 0;
            t->blocked = 0;
            t->last_issue = now;
            t->waste_at = SIM_NEVER;
        }
        if (t->rb_at && t->rb_at == now) { /* flush; the fetch selected this cycle is dropped */
            /* ifetch_tag_stage chooses this cycle's thread by the FIFOs' almost_full before
             * the flush (thread_select_stage's ts_fetch_en): a thread whose FIFO was almost
             * full is not chosen now (fetch_cycle: fetch_full, the FIFO empty) */
            uint8_t full = t->fetch_full ||
                           (t->fe_n >= FIFO_ALMOST && fifo_count(t, now) >= FIFO_ALMOST);
            t->rb_at = 0;
            fe_flush(t, st, t->rb_pc);
            t->fetch_full = full;
            /* a thread waiting for an instruction line stays out of the choice, rolled back
             * or not (icache_wait_threads: cleared only by the fill's wake-up) */
            if (t->iwait <= now)
                t->waste_at = now;
            /* (a rolled-back access waits on for its cause: a miss, the store queue, I/O) */
            if (t->why == NYZ_ST_NONE)
                t->why = t->blocked > now ? t->block_why : NYZ_ST_ROLLBACK;
        }
        if (t->miss_at && t->miss_at == now) { /* the last fetch missed: wait for the line */
            t->miss_at = 0;
            /* a faulting fetch goes on down the pipeline as a trap (ifetch_data_stage sets
             * the fault whether or not the line hit); any other is dropped */
            if (!t->miss_fault) {
                if (--t->fe_n == 0)
                    st->ready_at = SIM_NEVER;
                t->fe_int &= (uint8_t)~(1u << ((t->fe_h + t->fe_n) & 7));
            }
            t->npc = t->miss_pc;
            c->events[5]++;
            t->iwait = max64(icache_fill(nm, c, t->miss_pa, now), now + 1);
            t->waste_at = now;
        }
        if (t->rb_at)
            due = min64(due, t->rb_at);
        if (t->miss_at)
            due = min64(due, t->miss_at);
    }
    c->due = due;
    /* a setcr's suspension (devices.c nyz_suspend_threads): rare, kept out of the loop */
    if (__builtin_expect(c->halt_due != 0, 0))
        due_halts(nm, u, c, now);
}

/* The fetch of an instruction off the fast path (translated, misaligned, another line of
 * its set, a fill due): kept out of the loop, whose registers it would take. */
static __attribute__((noinline)) void fetch_slow(nyz_machine *nm, nyz_core *c, nyz_thread *t,
                                                 unsigned idx, uint32_t flags, uint32_t pc,
                                                 uint64_t now)
{
    nyz_cache *l1i = &c->l1i;
    uint32_t pa;
    t->fe_ent[idx] = NULL;
    /* a fetch that faults (when it issues) still looks its line up, unless there is no
     * translation (ifetch_data_stage: the miss needs only a TLB hit) */
    int pk = nyz_fetch_peek_in(nm, c, now == c->itlb_old_at ? c->itlb_old : c->itlb, t, flags,
                               pc, &pa);
    if (pk < 0)
        return;
    t->miss_fault = pk > 0;
    nyz_l1_settle(l1i, now);
    if (!nyz_cache_access(l1i, pa, 0, 0)) {
        t->miss_at = now + 1; /* seen by ifetch_data next cycle */
        t->miss_pc = pc;
        t->miss_pa = pa;
        set_due(c, now + 1);
        return;
    }
    c->events[6]++;
    if (pk > 0)
        return;
    t->fe_ent[idx] = nyz_decode_at(nm, pa);
    t->fe_pa[idx] = pa;
}

/* What the fetch fast path reads of the L1I that does not change during a call (the
 * geometry), kept in locals so that the stores of the loop do not make the compiler load
 * them again each cycle. */
typedef struct l1i_geom {
    const uint32_t *mru;         /* per set: line, way (nyz_cache.mru as words) */
    uint32_t set_mask;
    int fast;                    /* pseudo-LRU kept (2, 4, 8 ways): the fast path applies */
} l1i_geom;

/* ifetch_tag_stage: one fetch per cycle (ns threads scanned, n the core's). Returns 1 if a
 * thread was selected, else 0 and *next the earliest cycle one could be. */
static inline __attribute__((always_inline)) int
fetch_cycle(nyz_machine *nm, sim_unit *u, nyz_core *c, int ns, int n, uint64_t now, uint64_t *next,
            const l1i_geom *g, const int win)
{
    nyz_thread *const T = c->t;
    sim_thread *const S = u->threads;
    int i = c->frr < ns ? c->frr : 0, pick = -1;
#pragma GCC unroll 4
    for (int k = 0; k < ns; k++, i = (i + 1 == ns ? 0 : i + 1)) {
        nyz_thread *t = &T[i];
        if (S[i].state != SIM_T_READY)
            continue;
        if (t->fetch_full) {
            if (t->fe_n)
                continue;
            if (t->waste_at == now) { /* rolled back now, almost full before: due_events */
                *next = min64(*next, now + 1);
                continue;
            }
            t->fetch_full = 0;
        }
        if (t->iwait > now && t->waste_at != now) {
            *next = min64(*next, t->iwait);
            continue;
        }
        if (t->fe_n >= FIFO_ALMOST && fifo_count(t, now) >= FIFO_ALMOST) {
            t->fetch_full = 1;
            continue;
        }
        pick = i;
        break;
    }
    if (pick < 0)
        return 0;
    c->frr = pick + 1 == n ? 0 : pick + 1;
    nyz_thread *t = &T[pick];
    if (t->waste_at == now) /* rolled back or missed this cycle: the request is dropped */
        return 1;
    unsigned fn = t->fe_n;
    unsigned idx = (t->fe_h + fn) & 7;
    t->fe_vis[idx] = now + FE_DEPTH;
    t->fe_n = (uint8_t)(fn + 1);
    if (fn == 0 && S[pick].ready_at > now + FE_DEPTH)
        S[pick].ready_at = now + FE_DEPTH; /* the new FIFO head */
    /* instruction_decode_stage turns the instruction into an interrupt if one is pending,
     * but not while a device or synchronized access waits for its second issue */
    /* (win: in a setcr window, decode, a cycle after this, reads the flags before it until
     * the setcr's issue + 3: exec.c nyz_write_cr) */
    if (((win && now + 1 < t->fl_at ? t->fl_old : t->flags) & NYZ_F_I) &&
        t->ghost != GHOST_NOINT && (nm->int_levels | t->latched) && nyz_pending_ints(nm, c, t))
        t->fe_int |= (uint8_t)(1u << idx);
    uint32_t pc = t->npc;
    /* behind a trap or eret fetch still runs with the flags from before it (they change in
     * the writeback stage), and until a setcr's issue + 3 with those from before it */
    uint32_t flags = win && now < t->fl_at ? t->fl_old : t->rb_at ? t->rb_flags : t->flags;
    t->npc = pc + 4;
    /* Fast path: an untranslated, aligned fetch from the line its L1I set touched last is a
     * hit that leaves the replacement state as it is (no fill due either) */
    uint32_t line = pc >> 6;
    nyz_cache *l1i = &c->l1i;
    /* (g NULL: a call of one pass reads the geometry where it is) */
    const int fast = g ? g->fast : c->l1i.plru_on;
    const uint32_t *mru = g ? g->mru : c->l1i.mru ? &c->l1i.mru[0].line : NULL;
    const uint32_t set_mask = g ? g->set_mask : c->l1i.sets - 1;
    if (!((flags & NYZ_F_M) | (pc & 3)) && fast && mru[2 * (line & set_mask)] == line &&
        l1i->next_fill > now) {
        l1i->hits++;
        c->events[6]++;
        uint32_t pa = pc;
        t->fe_ent[idx] = nyz_decode_at(nm, pa);
        t->fe_pa[idx] = pa;
    } else
        fetch_slow(nm, c, t, idx, flags, pc, now);
    return 1;
}

/* The fetch in a cycle off its plain path (c->fetch_from..fetch_off): none in a TLB change's
 * cycle (timing.c), else the one of fetch_cycle that reads the threads' setcr windows. */
static __attribute__((noinline)) int fetch_window(sim_unit *u, int ns, int n, uint64_t now,
                                                  uint64_t *next)
{
    nyz_core *c = u->isa;
    if (now >= c->tlb_from && now <= c->tlb_off) {
        *next = min64(*next, now + 1);
        return 0;
    }
    return fetch_cycle(u->m->isa_state, u, c, ns, n, now, next, NULL, 1);
}

/* Kinds that go through the thread's one-entry store queue: issued while an earlier
 * request is pending, they roll back and wait for its acknowledgement (l1_store_queue).
 * Plain stores do too, but only to memory (a device store goes to the I/O queue): they are
 * checked once executed, when the address is known. */
#define KBIT(k) (1ull << (k))
static const uint64_t STORE_QUEUE_KINDS =
    KBIT(K_STORE_SYNC) | KBIT(K_MEMBAR) | KBIT(K_DFLUSH) | KBIT(K_IINVALIDATE) |
    KBIT(K_DINVALIDATE);
static const uint64_t MULTI_SUBCYCLE_KINDS = KBIT(K_LOAD_GATH) | KBIT(K_STORE_SCAT);
_Static_assert(K_ERET < 64, "nyz_kind must fit the kind masks");

/* What the FIFO head of a thread is. */
enum { H_SQUASHED, H_GHOST, H_TRAP, H_REAL };

static inline void stall(nyz_thread *t, uint8_t why)
{
    if (t->why == NYZ_ST_NONE)
        t->why = why;
}

/* The instruction bodies' hooks (exec_ops.inc) for the plain loops, which have them inline
 * (nyz_exec's switch without its call, frame and effect in memory: about 20 host
 * instructions per instruction): what nyz_exec does at each end, then on to the timing. */
#define OP(f) case f:
#define OPS(f) case f:
#define END() goto exec_done
#define END_SYS() goto exec_done
#define END_MARKER() goto exec_done
#define TAKEN(x)                                                                          \
    do {                                                                                  \
        t->pc = (x);                                                                      \
        ef.taken = 1;                                                                     \
        goto exec_done;                                                                   \
    } while (0)
#define TAKEN_SYS(x) TAKEN(x)
#define FAILED()                                                                          \
    do {                                                                                  \
        ef.trapped = 1;                                                                   \
        goto exec_done;                                                                   \
    } while (0)
#define REPEAT()                                                                          \
    do {                                                                                  \
        t->pc = pc; /* the next subcycle issues this instruction again */                 \
        ef.retired = 0;                                                                   \
        goto exec_done;                                                                   \
    } while (0)
#define EF_MEM(k) (ef.mem = (k))
#define EF_PADDR(a) (ef.paddr = (a))
#define EF_FULL(x) (ef.full_line = (x))
#define NYZ_COSIM (nm->cosim != NULL)
#define NYZ_FUNCTIONAL 0
#define NYZ_LANES_UNROLL /* built at -O3 (isa.mk), which unrolls the lanes */

/* One call of the cycle model. `profiled`: --profile without the hooks, fed here; `slow`:
 * m->slow (some debugging feature is on); `inl`: the instruction bodies inline (the plain
 * loops of 1 and 4 threads; each copy is about 100 KB of code); `one`: a call of one cycle
 * (horizon now + 1: cores in step, each call a cycle), one pass without the loop, whose
 * kept locals (the L1I's geometry) would cost more to set up than they save. All are
 * constants at each call site, so the plain loop has no test of any (m->slow changes only
 * between calls). */
static inline __attribute__((always_inline)) uint64_t
run_core(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon, const int profiled,
         const int slow, const int ns, const int inl, const int one)
{
    nyz_machine *nm = m->isa_state;
    nyz_core *c = u->isa;
    const nyz_timing *tm = &nm->tm;
    const int n = one ? ns : u->nthreads; /* (one: nyz_unit_run saw nthreads 4) */
    /* the per-instruction hooks (trace, history, step, profile); constant during a call */
    const int hooks = slow && dbg_hooks(m);
    /* --profile without the hooks: fed at each executed issue, as dbg_after_insn would */
    prof_state *const prof = profiled && slow ? dbg_profile(m) : NULL;
    const int magic = m->ff_magic; /* a fast-forward to the magic marker is armed */
    const l1i_geom geom = {c->l1i.mru ? &c->l1i.mru[0].line : NULL, c->l1i.sets - 1,
                               c->l1i.plru_on};
    if (sim_stopped(m))
        return now;
    for (int first = 1; one ? first : now < horizon; first = 0) {
        /* the plain loop stops only where an issue may have stopped the run (each such
         * place returns); the debugger's hooks may stop it anywhere */
        if (slow && sim_stopped(m))
            return now;
        if (c->due <= now)
            due_events(nm, u, c, now);
        /* thread_select_stage: which thread issues this cycle */
        int pick = -1, kind = H_REAL;
        unsigned ppipe = NYZ_PIPE_INT;
        const nyz_insn *in = NULL;
        uint64_t next = c->due;
        int i = u->rr < ns ? u->rr : 0;
#pragma GCC unroll 4
        for (int k = 0; k < ns; k++, i = (i + 1 == ns ? 0 : i + 1)) {
            sim_thread *st = &u->threads[i];
            if (st->state != SIM_T_READY)
                continue;
            /* st->ready_at: no issue before it (FIFO head not there, suspended, scoreboard);
             * every change that could make it sooner resets it */
            if (st->ready_at > now) {
                next = min64(next, st->ready_at);
                continue;
            }
            nyz_thread *t = &c->t[i];
            if (t->fe_n == 0 || t->fe_vis[t->fe_h] > now) {
                stall(t, t->iwait > now ? NYZ_ST_ICACHE : NYZ_ST_ROLLBACK);
                st->ready_at = t->fe_n ? t->fe_vis[t->fe_h] : SIM_NEVER;
                next = min64(next, st->ready_at);
                continue;
            }
            /* a rolled-back access suspends its thread only from the writeback stage
             * (thread_select_stage.sv thread_blocked from wb_suspend_thread_oh): until the
             * flush the instructions behind it issue, squashed */
            if (t->blocked > now && !t->rb_at) {
                stall(t, t->block_why);
                st->ready_at = t->blocked;
                next = min64(next, t->blocked);
                continue;
            }
            const nyz_insn *x = NULL;
            int hk;
            unsigned pipe = NYZ_PIPE_INT;
            const nyz_dcache_ent *e = t->fe_ent[t->fe_h];
            if (e && e->pa != t->fe_pa[t->fe_h])
                e = NULL; /* its decode entry was reused since: decode again below */
            if (t->rb_at) { /* behind a rollback: issued and squashed */
                hk = H_SQUASHED;
                x = e ? &e->in : NULL;
            } else if (t->ghost) { /* an interrupt attached to a replay takes its place */
                hk = (t->fe_int >> t->fe_h) & 1 ? H_TRAP : H_GHOST;
                pipe = hk == H_GHOST ? NYZ_PIPE_MEM : NYZ_PIPE_INT;
            } else if (t->fe_pc != t->pc) { /* pc changed outside the pipeline: refetch */
                fe_flush(t, st, t->pc);
                continue;
            } else if ((t->fe_int >> t->fe_h) & 1) {
                hk = H_TRAP;
            } else if (e) { /* the instruction fetched (as the RTL, not re-read) */
                hk = H_REAL;
                x = &e->in;
            } else {
                uint32_t pa;
                hk = nyz_fetch_peek(nm, c, t, t->flags, t->pc, &pa) != 0 ? H_TRAP : H_REAL;
                if (hk == H_REAL && fetch(nm, c, t, &x) < 0)
                    return now; /* cannot happen: peek said it is fetchable */
            }
            if (x) {
                pipe = x->pipe;
                /* scoreboard: sources and destination (WAW); checked on the first subcycle
                 * only (a gather's lanes behind its rolled-back lane too) */
                if (t->subcycle == 0) {
                    const uint64_t *rr = t->reg_ready;
                    uint64_t rdy = max64(max64(max64(rr[x->rd[0]], rr[x->rd[1]]),
                                               max64(rr[x->rd[2]], rr[x->rd[3]])), rr[x->wr]);
                    if (rdy > now) {
                        /* (behind a pending rollback the cycles are the rollback's: its
                         * access's cause, or the rollback itself; the squashed issues'
                         * scoreboard only decides which of them issue) */
                        stall(t, !t->rb_at ? NYZ_ST_SCOREBOARD
                                 : t->blocked > now ? t->block_why : NYZ_ST_ROLLBACK);
                        st->ready_at = rdy;
                        next = min64(next, rdy);
                        continue;
                    }
                }
            }
            if (wb_slot_busy(c, now + pipe_depth[pipe])) {
                stall(t, NYZ_ST_WB);
                st->ready_at = now + 1;
                next = min64(next, now + 1);
                continue;
            }
            pick = i;
            kind = hk;
            in = x;
            ppipe = pipe;
            break;
        }
        /* breakpoints and watchpoints alone: the debugger sees only the pcs its filter flags */
        if (slow && pick >= 0 && kind == H_REAL &&
            (hooks || dbg_bp_maybe(m->dbg->bpmap, c->t[pick].pc)) &&
            dbg_before_insn(m, u, pick, c->t[pick].pc))
            return now;
        /* ifetch_tag_stage (it sees the FIFOs before this cycle's dequeue) */
        int fetched = 0;
        if (__builtin_expect(now > c->fetch_off || now < c->fetch_from, 1))
            fetched = fetch_cycle(nm, u, c, ns, n, now, &next, one ? NULL : &geom, 0);
        else { /* a TLB change in the dcache tag stage (nyz_mem_timing), a setcr window */
            uint64_t nw = next; /* (next's address not taken: it stays in a register) */
            fetched = fetch_window(u, ns, n, now, &nw);
            next = nw;
        }
        if (pick < 0) {
            if (fetched) {
                now++;
                continue;
            }
            if (next == SIM_NEVER)
                return SIM_NEVER;
            now = next > now ? next : now + 1;
            continue;
        }
        u->rr = pick + 1 == n ? 0 : pick + 1;
        nyz_thread *t = &c->t[pick];
        sim_thread *st = &u->threads[pick];
        /* stall accounting: the cycles since the thread's last issue, by the first cause */
        uint64_t gap = 0;
        int gcause = 0;
        if (now > t->last_issue + 1) {
            gcause = t->why == NYZ_ST_NONE ? NYZ_ST_ISSUE : t->why;
            gap = now - t->last_issue - 1;
            st->stalls[gcause] += gap;
            /* --profile: an issue without an instruction executed (squashed, replayed,
             * interrupt) adds its gap to the thread's open row, the instruction it executed
             * last, as the hook path does at its next issue */
            if (prof && kind != H_REAL)
                prof_stall(prof, u->index * prof->tpu + pick, gcause, gap);
        }
        t->why = NYZ_ST_NONE;
        t->last_issue = now;
        st->ready_at = now + 1;
        u->last_issue = now;
        st->issue_cycles++;
        c->events[4]++;
        wb_take(c, now + pipe_depth[ppipe]);
        uint32_t pc = t->fe_pc;
        if (kind == H_SQUASHED) {
            /* its destination is pending on the scoreboard until the rollback clears it
             * (scoreboard.sv rollback_bitmap): an instruction behind that reads it waits
             * (RTL trace of dinv_pend.c4t1: a dinvalidate issued at 840 rolls back at 843,
             * the add behind it issues squashed at 842, the store that reads the add's
             * result does not issue at 843) */
            if (in && in->wr != 0xff)
                t->reg_ready[in->wr] = max64(t->reg_ready[in->wr], t->rb_at);
            /* a gather's or scatter's lanes go on to its last (the subcycle counts on,
             * thread_select_stage.sv), which dequeues it (RTL trace of gath_l2.c1t4: lane
             * 13 rolled back at 2079, lanes 14 and 15 issue squashed at 2080 and 2081, the
             * add behind it, which reads the gather's result, does not issue at 2082) */
            if (!in || !((MULTI_SUBCYCLE_KINDS >> in->kind) & 1) ||
                t->subcycle + ++t->sq_lanes >= NYZ_LANES)
                fe_pop(t);
        } else if (kind == H_GHOST) { /* the replayed access hits now; its result follows */
            uint64_t again = 0;
            if (t->ghost == GHOST_STORE)
                nyz_store_timing(nm, c, t, t->ghost_pa, t->ghost_full, now);
            else if (t->rp_kind) /* timing.c: a sync decided; a load whose line left misses */
                again = nyz_replay_timing(nm, c, t, now);
            if (again) { /* rolled back once more, replayed after the new fill */
                fe_pop(t);
                t->rb_at = now + RB_MEM;
                t->rb_pc = pc;
                t->blocked = again;
                t->block_why = NYZ_ST_DCACHE;
                if (t->ghost_wr != 0xff) /* pending until the rollback, as below */
                    t->reg_ready[t->ghost_wr] = max64(t->reg_ready[t->ghost_wr], t->rb_at);
                set_due(c, t->rb_at);
            } else {
                t->ghost = 0;
                if (t->ghost_wr != 0xff)
                    t->reg_ready[t->ghost_wr] = now + tm->load_lat;
                if (t->pc != pc || t->subcycle == 0)
                    fe_pop(t);
            }
        } else if (kind == H_TRAP) { /* interrupt, or a fetch fault carried by decode */
            nm->cur_cycle = now;
            t->rb_flags = t->flags;
            if ((t->fe_int >> t->fe_h) & 1) {
                /* on a replay, the access is issued again after eret (as the RTL does) */
                uint32_t ipc = t->ghost ? pc : t->pc;
                t->ghost = 0;
                if (nm->cosim)
                    fprintf(nm->cosim, "interrupt %d %08x\n", t->gid, ipc);
                nyz_raise_trap(nm, c, t, ipc, NYZ_TT_INTERRUPT, 0, 0, 0, 0);
            } else {
                const nyz_insn *x;
                if (sim_stopped(m) || (fetch(nm, c, t, &x) < 0 && sim_stopped(m)))
                    return now; /* outside memory: stopped with the reason */
            }
            fe_pop(t);
            t->rb_at = now + RB_INT;
            t->rb_pc = t->pc;
            set_due(c, t->rb_at);
            if (sim_stopped(m)) /* a trap without a handler */
                return now + 1;
        } else if (((STORE_QUEUE_KINDS >> in->kind) & 1) && t->store_done > now &&
                   !(in->kind == K_DINVALIDATE && !(t->flags & NYZ_F_S))) {
            /* the store queue entry is busy: roll back and wait for its acknowledgement (a
             * dinvalidate in user mode faults first) */
            if (in->kind != K_MEMBAR)
                c->events[1]++;
            if (prof && gap) /* not executed: as above */
                prof_stall(prof, u->index * prof->tpu + pick, gcause, gap);
            fe_pop(t);
            t->rb_at = now + RB_MEM;
            t->rb_pc = pc;
            t->blocked = t->store_done + NYZ_SQ_AHEAD; /* its acknowledgement */
            t->block_why = NYZ_ST_STORE;
            if (in->wr != 0xff) /* (a store_sync's) pending until the rollback, as below */
                t->reg_ready[in->wr] = max64(t->reg_ready[in->wr], t->rb_at);
            set_due(c, t->rb_at);
        } else {
            nm->cur_cycle = now;
            t->rb_flags = t->flags;
            nyz_effect ef = {0};
            const uint64_t insns0 = st->instructions; /* the profile's count at the issue */
            if (!inl)
                nyz_exec(nm, c, t, in, &ef);
            else { /* nyz_exec inline (exec.c) */
                t->pc = pc + 4;
                ef.retired = 1;
                switch ((nyz_fop_t)in->fop) {
#include "exec_ops.inc"
                case F_UNSET: /* decoded by nyz_decode alone: nyz_exec finds its number */
                case NYZ_NFOPS:
                    t->pc = pc;
                    nyz_exec(nm, c, t, in, &ef);
                    break;
                }
            exec_done:;
            }
            t->cur = NULL;
            if (__builtin_expect((ef.trapped | ef.mem | ef.taken) == 0 && ef.retired, 1) &&
                t->pc == pc + 4) {
                /* the common case, what the general path below does for it: no rollback
                 * (none was pending either: the head is not squashed), the result after the
                 * pipe's latency, dequeued */
                st->instructions++;
                c->events[3]++;
                if (in->wr != 0xff)
                    t->reg_ready[in->wr] =
                        now + (in->pipe == NYZ_PIPE_FP ? tm->fp_lat : tm->int_lat);
                fe_pop(t);
            } else {
                if (sim_stopped(m) && !ef.retired) /* stopped by a fault inside the instruction */
                    return now;
                if (ef.retired) {
                    st->instructions++;
                    c->events[3]++;
                }
                unsigned lat = in->pipe == NYZ_PIPE_FP ? tm->fp_lat : tm->int_lat;
                uint64_t block = 0;
                if (ef.trapped) {
                    /* a load_sync that faults toggles dd_load_sync_pending too (timing.c
                     * nyz_replay_timing) */
                    t->sync_odd ^= in->kind == K_LOAD_SYNC;
                    t->rb_at = now + (in->pipe == NYZ_PIPE_MEM ? RB_MEM : RB_INT);
                    t->rb_pc = t->pc;
                    /* its destination, set busy at the issue, is cleared by the rollback
                     * (scoreboard.sv rollback_bitmap; no writeback): a squashed issue behind
                     * it that reads it waits (RTL trace of tlb_inval_all.c1t4: a load_sync's
                     * DTLB miss issued at 833, the add behind it not issued at 836) */
                    if (in->wr != 0xff)
                        t->reg_ready[in->wr] = max64(t->reg_ready[in->wr], t->rb_at);
                } else {
                    if (ef.mem == 2 && t->store_done > now &&
                        !nyz_store_combine(nm, c, t, ef.paddr, now)) { /* store queue busy */
                        c->events[1]++;
                        t->rb_at = now + RB_MEM;
                        t->rb_pc = pc;
                        t->blocked = t->store_done + NYZ_SQ_AHEAD; /* its acknowledgement */
                        t->block_why = NYZ_ST_STORE;
                        t->ghost = GHOST_STORE;
                        t->ghost_wr = 0xff;
                        t->ghost_pa = ef.paddr;
                        t->ghost_full = ef.full_line;
                    } else if (ef.mem && (block = nyz_mem_timing(nm, c, t, in, &ef, now, &lat,
                                                                 &t->block_why))) {
                        /* rolled back: replayed after the suspension */
                        t->rb_at = now + RB_MEM;
                        t->rb_pc = pc;
                        t->blocked = block;
                        t->ghost = ef.mem == 1 ? GHOST_INT : GHOST_NOINT;
                        t->ghost_wr = in->wr;
                        /* its destination is pending until the rollback clears it: the
                         * squashed issues behind it that read it wait */
                        if (in->wr != 0xff)
                            t->reg_ready[in->wr] = max64(t->reg_ready[in->wr], t->rb_at);
                    } else if (ef.taken || (t->pc != pc + 4 && t->pc != pc)) {
                        t->rb_at = now + RB_INT;
                        t->rb_pc = t->pc;
                        if (in->wr != 0xff)
                            t->reg_ready[in->wr] = now + lat;
                    } else if (in->wr != 0xff)
                        t->reg_ready[in->wr] = now + lat;
                }
                if (t->rb_at)
                    set_due(c, t->rb_at);
                /* dequeued at its last subcycle; a rolled-back one is flushed with the
                 * FIFO, a gather's or scatter's lane before its last stays there until
                 * then (thread_select_stage.sv dequeues at the last subcycle) */
                if (t->pc != pc || ef.retired ||
                    (t->rb_at && !((MULTI_SUBCYCLE_KINDS >> in->kind) & 1)))
                    fe_pop(t);
            }
            if (hooks)
                dbg_after_insn(m, u, pick, pc);
            else if (slow) {
                if (prof) { /* as the hooks: this issue's gap is this instruction's (the
                               * stalls reported one by one with prof_stall) */
                    int g = u->index * prof->tpu + pick;
                    prof_issue(prof, g, pc, now, insns0, NULL);
                    if (gap)
                        prof_stall(prof, g, gcause, gap);
                }
                if (m->dbg->watching)
                    dbg_watch_report(m, u, pick, pc); /* what the accesses recorded (exec.c ram) */
            }
            if (magic && in->raw == NYZ_MAGIC && ef.retired)
                sim_marker(m, u->index, pick, pc); /* a fast-forward's marker: stops the run */
            if (!hooks && nm->memo) /* memo.c: record this issue, or replay periods from here
                                     * (it checks breakpoints, watchpoints, feeds the profile) */
                now = nyz_memo_issue(nm->memo, nm, u, c, pick, pc, in, ef, now, horizon, gap,
                                     gcause);
            if (sim_stopped(m))
                return now + 1;
            if (nm->resched) { /* a timer was set or threads resumed: let the loop see it */
                nm->resched = 0;
                return now + 1;
            }
        }
        now++;
    }
    return now;
}

#include "exec_ops_end.h"

/* The threads the scans go over: up to the last ready one. Threads above it stay not ready
 * for this call (a thread becomes ready only through sched_start/sched_wake, which set
 * nm->resched or happen between calls); under the debugger (which changes states between
 * calls) all of them. */
static int live_threads(const sim_unit *u)
{
    int ns = u->nthreads;
    while (ns > 0 && u->threads[ns - 1].state != SIM_T_READY)
        ns--;
    return ns;
}

/* The unit's event counters set to the core's: after every call of the slow, profiled and
 * functional loops (the debugger's and observers' runs, which may read them between calls);
 * for the plain loops only when the core asks (nyz_counters_sync: on several cores a call is
 * a cycle, and the copy after each was 3% of a 4-core run). */
static void counters_out(sim_unit *u)
{
    const nyz_core *c = u->isa;
    for (int i = 0; i < u->ncounters && i < NYZ_NPERF; i++)
        u->counters[i].value = c->events[i];
}

/* The plain loop with the common thread counts as constants (1 and 4: the scans unrolled);
 * run_one4 is run_plain4's call of one cycle (several cores in step). */
static __attribute__((noinline)) uint64_t run_plain1(sim_machine *m, sim_unit *u, uint64_t now,
                                                     uint64_t horizon)
{
    return run_core(m, u, now, horizon, 0, 0, 1, 1, 0);
}

static __attribute__((noinline)) uint64_t run_plain4(sim_machine *m, sim_unit *u, uint64_t now,
                                                     uint64_t horizon)
{
    return run_core(m, u, now, horizon, 0, 0, 4, 1, 0);
}

static __attribute__((noinline)) uint64_t run_one4(sim_machine *m, sim_unit *u, uint64_t now,
                                                   uint64_t horizon)
{
    return run_core(m, u, now, horizon, 0, 0, 4, 1, 1);
}

static __attribute__((noinline)) uint64_t run_plain_n(sim_machine *m, sim_unit *u, uint64_t now,
                                                      uint64_t horizon, int ns)
{
    return run_core(m, u, now, horizon, 0, 0, ns, 0, 0);
}

static __attribute__((noinline)) uint64_t run_slow(sim_machine *m, sim_unit *u, uint64_t now,
                                                   uint64_t horizon)
{
    uint64_t next = run_core(m, u, now, horizon, 0, 1, u->nthreads, 0, 0);
    counters_out(u);
    return next;
}

static __attribute__((noinline)) uint64_t run_profiled(sim_machine *m, sim_unit *u, uint64_t now,
                                                       uint64_t horizon)
{
    uint64_t next = run_core(m, u, now, horizon, 1, 1, u->nthreads, 0, 0);
    counters_out(u);
    return next;
}

void nyz_counters_sync(sim_machine *m, sim_unit *u)
{
    (void)m;
    counters_out(u);
}

uint64_t nyz_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    ((nyz_machine *)m->isa_state)->run_core = u->index;
    if (__builtin_expect(m->functional | m->slow, 0)) {
        if (m->functional) {
            uint64_t next = nyz_func_run(m, u, now, horizon);
            counters_out(u);
            return next;
        }
        return dbg_profile(m) ? run_profiled(m, u, now, horizon) : run_slow(m, u, now, horizon);
    }
    /* the plain loop, for the threads up to the last ready one; a call of one cycle (several
     * cores in step) as one pass */
    if (u->nthreads == 4 && u->threads[3].state == SIM_T_READY)
        return horizon == now + 1 ? run_one4(m, u, now, horizon) : run_plain4(m, u, now, horizon);
    int ns = live_threads(u);
    return ns == 4 ? run_plain4(m, u, now, horizon)
           : ns == 1 ? run_plain1(m, u, now, horizon)
                     : run_plain_n(m, u, now, horizon, ns);
}
