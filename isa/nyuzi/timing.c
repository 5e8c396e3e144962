/* isa/nyuzi/timing.c: the Nyuzi cycle model and the per-core run loop.
 * Each cycle a core issues at most one instruction, picking its hardware threads round
 * robin (as core/sched.h does) among those whose next instruction can issue: fetched
 * (L1 instruction cache), scoreboard clear for sources and destination (no bypass: a
 * result is readable int_lat/fp_lat/load_lat cycles after issue), no writeback-port
 * conflict with an FP-pipe op issued 4 (integer) or 3 (memory) cycles earlier, and for
 * stores no store still pending in the thread's one-entry store queue. Taken branches,
 * traps and interrupts roll the thread back (branch_penalty). Data accesses go through
 * the L1 data cache and the shared L2 (LRU, geometry from -o options); misses cost the
 * L2 or memory latency. The rules and their sources are in docs/isa/nyuzi.md. */
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"
#include "../../core/debug.h"
#include "../../core/sched.h"

enum { ST_SCOREBOARD, ST_ICACHE, ST_DCACHE, ST_STORE, ST_ROLLBACK, ST_WB, ST_IO };

int nyz_cache_init(nyz_cache *c, unsigned size, unsigned ways, unsigned line)
{
    memset(c, 0, sizeof *c);
    if (!ways || !line || (line & (line - 1)) || size % (ways * line))
        return -1;
    c->sets = size / (ways * line);
    if (c->sets & (c->sets - 1))
        return -1;
    c->ways = ways;
    c->line_shift = (unsigned)__builtin_ctz(line);
    c->tag = malloc(sizeof *c->tag * c->sets * ways);
    c->lru = calloc(c->sets * ways, sizeof *c->lru);
    c->dirty = calloc(c->sets * ways, 1);
    c->ready = calloc(c->sets * ways, sizeof *c->ready);
    if (!c->tag || !c->lru || !c->dirty || !c->ready)
        return -1;
    memset(c->tag, 0xff, sizeof *c->tag * c->sets * ways);
    return 0;
}

void nyz_cache_free(nyz_cache *c)
{
    free(c->tag);
    free(c->lru);
    free(c->dirty);
    free(c->ready);
    c->ready = NULL;
    c->tag = NULL;
    c->lru = NULL;
    c->dirty = NULL;
}

int nyz_cache_probe(const nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[set * c->ways + w] == line)
            return 1;
    return 0;
}

/* 1 hit, 0 miss (the line is filled when allocate). */
int nyz_cache_access(nyz_cache *c, uint32_t addr, int allocate, int write)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    uint32_t *tag = c->tag + set * c->ways;
    uint64_t *lru = c->lru + set * c->ways;
    c->stamp++;
    for (unsigned w = 0; w < c->ways; w++)
        if (tag[w] == line) {
            lru[w] = c->stamp;
            if (write)
                c->dirty[set * c->ways + w] = 1;
            c->hits++;
            c->last_way = (int)(set * c->ways + w);
            return 1;
        }
    c->misses++;
    c->last_way = -1;
    if (allocate) {
        unsigned v = 0;
        for (unsigned w = 1; w < c->ways; w++)
            if (lru[w] < lru[v])
                v = w;
        tag[v] = line;
        lru[v] = c->stamp;
        c->dirty[set * c->ways + v] = (uint8_t)write;
        c->last_way = (int)(set * c->ways + v);
    }
    return 0;
}

void nyz_cache_invalidate(nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[set * c->ways + w] == line)
            c->tag[set * c->ways + w] = 0xffffffffu;
}

/* The reference board's SDRAM controller (fpga/common/sdram_controller.sv, as the RTL
 * testbench instantiates it: 4 banks, 1 KiB rows, word address = {row, bank, column}):
 * mem_latency is a line read from an open row. Reading from a closed bank first opens the
 * row (ACTIVATE + tRCD: 2 cycles), from another row of an open bank also closes it
 * (PRECHARGE + tRP: 2 more). The controller is ready SD_INIT cycles after reset
 * (power-up wait and initialisation); the request reaches it SD_PATH cycles after the L2
 * miss. Every SD_REFRESH cycles it precharges all banks (2 cycles if any is open) and
 * auto-refreshes (4 cycles); the timer restarts at the refresh. Returns the extra cycles
 * of an access whose request leaves the L2 at cycle t. */
/* A data line from memory reaches the L1D this much sooner than an instruction line
 * reaches the L1I (measured: a cold load followed by a dependent add, open SDRAM row:
 * 51 cycles load to add on the RTL, mem_latency + load_latency = 51 + 4 here before). */
enum { DMEM_LEAD = 4 };
/* Store and flush acknowledgements (probes: store + membar to a line in L2 15 cycles on
 * both; to a line missing in L2 46 and 43 on the RTL, i.e. the miss adds mem_latency - 14;
 * dflush + membar 36 (dirty line) and 38 (clean) on the RTL, i.e. store_latency + 22
 * whether or not the line is dirty: the write-back is posted). */
enum { STORE_MISS_LEAD = 14, DFLUSH_EXTRA = 22 };
enum { SD_INIT = 17, SD_PATH = 8, SD_REFRESH = 750, SD_ACT = 2, SD_PRE = 2, SD_AREF = 4 };

static unsigned sdram_extra(nyz_machine *nm, uint32_t pa, uint64_t t)
{
    uint64_t at = t + SD_PATH, ready = SD_INIT;
    if (nm->sd_refresh == 0)
        nm->sd_refresh = SD_REFRESH;
    while (nm->sd_refresh <= at) { /* refreshes since the last access */
        int open = nm->sd_row[0] | nm->sd_row[1] | nm->sd_row[2] | nm->sd_row[3];
        uint64_t r = nm->sd_refresh, end = r + (open ? SD_PRE : 0) + SD_AREF;
        memset(nm->sd_row, 0, sizeof nm->sd_row);
        ready = end;
        nm->sd_refresh = r + (open ? SD_PRE : 0) + SD_REFRESH;
        if (at - r > 4ull * SD_REFRESH) /* long idle: skip whole periods */
            nm->sd_refresh += (at - r) / SD_REFRESH * SD_REFRESH - 2ull * SD_REFRESH;
    }
    unsigned extra = ready > at ? (unsigned)(ready - at) : 0;
    unsigned bank = (pa >> 10) & 3, row = (pa >> 12) + 1;
    if (nm->sd_row[bank] != row) {
        extra += (nm->sd_row[bank] ? SD_PRE : 0) + SD_ACT;
        nm->sd_row[bank] = row;
    }
    return extra;
}

/* Extra cycles beyond an L1 hit for a line fetched from L2 / memory at cycle now. A line
 * whose fill is still in flight makes a later request wait for the same fill (the L1 and
 * L2 miss queues merge requests to one line). */
static unsigned fill_latency(nyz_machine *nm, uint32_t pa, int write, uint64_t now, unsigned lead)
{
    nyz_cache *l2 = &nm->l2;
    if (nyz_cache_access(l2, pa, 1, write)) {
        uint64_t r = l2->ready[l2->last_way];
        return (unsigned)((r > now ? r - now : 0) + nm->tm.l2_lat);
    }
    /* Memory is one bus: a line transfer occupies it for mem_interval cycles, so
     * overlapping misses (an instruction line and a data line) queue. */
    uint64_t start = now > nm->mem_free ? now : nm->mem_free;
    unsigned sd = sdram_extra(nm, pa, start);
    nm->mem_free = start + sd + nm->tm.mem_interval;
    uint64_t done = start + sd + nm->tm.mem_lat - lead;
    l2->ready[l2->last_way] = done;
    return (unsigned)(done - now);
}

/* L1 lookup with allocation: 0 if the data is there now, else the cycles until it is. */
static unsigned l1_access(nyz_machine *nm, nyz_cache *c, uint32_t pa, uint64_t now, unsigned lead)
{
    if (nyz_cache_access(c, pa, 1, 0)) {
        uint64_t r = c->ready[c->last_way];
        return r > now ? (unsigned)(r - now) : 0;
    }
    int way = c->last_way;
    unsigned lat = fill_latency(nm, pa, 0, now, lead);
    c->ready[way] = now + lat;
    return lat;
}

/* Writeback port: one result per cycle. A pipe of depth d issued at t writes back in the
 * slot of cycle t + d (integer 1, memory 2, floating point 5), so an integer op cannot
 * issue one cycle after a memory op or four after an FP op, nor a memory op three after
 * an FP op. Slots are kept as a bit mask relative to wb_base. */
static const unsigned pipe_depth[3] = {1, 2, 5};

static inline int wb_slot_busy(const nyz_core *c, uint64_t slot)
{
    uint64_t k = slot - c->wb_base; /* slot < wb_base wraps to a huge k: free */
    return k < 64 && ((c->wb_mask >> k) & 1);
}

static inline void wb_take(nyz_core *c, uint64_t now, uint64_t slot)
{
    if (now > c->wb_base) {
        uint64_t d = now - c->wb_base;
        c->wb_mask = d >= 64 ? 0 : c->wb_mask >> d;
        c->wb_base = now;
    }
    if (slot - c->wb_base < 64) /* slots further out (a long miss) cannot conflict yet */
        c->wb_mask |= 1ull << (slot - c->wb_base);
}

/* Fetch port: the RTL's ifetch_tag_stage fetches for one thread per cycle (round robin
 * among threads whose instruction FIFO has room). Slots are counted in issue cycles (a
 * fetch for issue cycle x); a slot before the window is history and free. */
static inline void fs_slide(nyz_core *c, uint64_t now)
{
    if (now > c->fs_base) {
        uint64_t d = now - c->fs_base;
        c->fs_mask = d >= 64 ? 0 : c->fs_mask >> d;
        c->fs_base = now;
    }
}

/* The first free slot at or after cycle at, taken. */
static inline uint64_t fs_take(nyz_core *c, uint64_t at)
{
    if (at < c->fs_base)
        return at;
    while (at - c->fs_base < 64 && ((c->fs_mask >> (at - c->fs_base)) & 1))
        at++;
    if (at - c->fs_base < 64)
        c->fs_mask |= 1ull << (at - c->fs_base);
    return at;
}

/* Wrong-path fetches after a rollback at now: the slots in (now, now + k] still free. */
static inline void fs_waste(nyz_core *c, uint64_t now, unsigned k)
{
    for (unsigned i = 1; i <= k; i++) {
        uint64_t s = now + i - c->fs_base;
        if (s < 64)
            c->fs_mask |= 1ull << s;
    }
}

/* Fetch the thread's next instruction: 0 ready (*out set), 1 waiting (ready_at moved),
 * -1 stopped or trapped at fetch (thread state already updated). */
static int fetch(nyz_machine *nm, sim_unit *u, nyz_core *c, int tid, uint64_t now,
                 const nyz_insn **out)
{
    nyz_thread *t = &c->t[tid];
    sim_thread *st = &u->threads[tid];
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
        sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, tid, pc,
                     "instruction fetch from 0x%08x outside memory (0x%x bytes)", pa, nm->ram_size);
        return -1;
    }
    /* Instruction fetch: t->ft is when the instruction at t->ft_pc could issue if its
     * line were cached (fetch runs one instruction per cycle, at most fetch_ahead
     * instructions ahead of issue, and restarts at the target of a redirect). A line
     * missing in L1I is requested when fetch reaches it; the instruction can issue
     * lat - icache_lead cycles after that (the fetch stages overlap the miss). */
    uint32_t line = pa >> 6;
    if (line != t->icache_line) {
        t->icache_line = line;
        uint64_t q = t->ft_pc == pc ? t->ft : now;
        unsigned lat = l1_access(nm, &c->l1i, pa, q, 0);
        if (lat == 0)
            c->events[6]++;
        else {
            c->events[5]++;
            uint64_t avail = q + (lat > nm->tm.icache_lead ? lat - nm->tm.icache_lead : 0);
            if (avail > t->ft_hold)
                t->ft_hold = avail;
        }
    }
    if (t->ft_hold > now) {
        st->stalls[ST_ICACHE] += t->ft_hold - now;
        st->ready_at = t->ft_hold;
        return 1;
    }
    uint32_t w = mem_ld32le(nm->ram + pa);
    nyz_dcache_ent *e = &nm->dc[(pa >> 2) & nm->dc_mask];
    if (e->pa != pa || e->raw != w) { /* (e->in.raw == e->raw: both set together) */
        nyz_decode(w, &e->in);
        e->pa = pa;
        e->raw = w;
    }
    *out = &e->in;
    t->cur = e;
    t->cur_pa = pa;
    t->cur_pc = pc;
    t->cur_flags = t->flags;
    return 0;
}

/* The fetch unit keeps fetching sequentially past an instruction until its rollback
 * arrives (RTL ifetch_tag_stage: "If a rollback occurs while a thread is waiting, wait
 * until that miss to be filled"). Measured on the RTL: a cold line that begins at most
 * rb_fetch_int instructions after a taken branch or trap, or rb_fetch_mem after a load
 * miss, device or sync access, is requested when sequential fetch reaches it (one
 * instruction per cycle after the issue), and the thread restarts only when that fill
 * has arrived. Returns the thread's new restart cycle. */
static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

enum { FETCH_FIFO = 8 }; /* RTL thread_select_stage THREAD_FIFO_SIZE */

static uint64_t rollback_fetch_wait(nyz_machine *nm, nyz_core *c, nyz_thread *t,
                                    const nyz_effect *ef, uint32_t pc,
                                    uint64_t now, uint64_t ready)
{
    unsigned ahead;
    if (ef->taken || ef->trapped)
        ahead = nm->tm.rb_fetch_int;
    else if (ef->mem == 1 || ef->mem == 3 || ef->mem == 4)
        ahead = nm->tm.rb_fetch_mem;
    else
        return ready;
    uint32_t next = (pc | 63u) + 1;
    unsigned d = (next - pc) / 4;
    if (d > FETCH_FIFO || (next & ~0xfffu) != (pc & ~0xfffu))
        return ready; /* too far, or on another page (its translation is not known) */
    /* Fetch reaches the line d instructions after this one's fetch (it runs on while the
     * thread waits on the scoreboard), but at most FETCH_FIFO instructions ahead of issue;
     * the miss counts only if fetch gets there before the rollback does. */
    uint64_t base = t->ft_pc == pc ? max64(t->ft, t->ft_hold) : now;
    if (base > now)
        base = now;
    uint64_t q = base + d + 1;
    if (q + FETCH_FIFO < now + d + 1)
        q = now + d + 1 - FETCH_FIFO;
    if (q > now + ahead + 1)
        return ready;
    uint32_t pa = (t->cur_pa | 63u) + 1;
    if (pa >= nm->ram_size)
        return ready;
    /* a line still being filled (another thread's miss) also makes the thread wait */
    int hit = nyz_cache_probe(&c->l1i, pa);
    unsigned lat = l1_access(nm, &c->l1i, pa, q, 0);
    if (lat == 0)
        return ready;
    if (!hit)
        c->events[5]++;
    uint64_t avail = q + (lat > nm->tm.icache_lead ? lat - nm->tm.icache_lead : 0);
    return avail > ready ? avail : ready;
}

/* The RTL attaches a pending interrupt to the instruction being decoded
 * (instruction_decode_stage raise_interrupt): the instructions already fetched and decoded
 * into the thread's FIFO issue first. Modelled as a count: the interrupt is taken before
 * the int_delay-th instruction the thread issues after it first sees it pending and
 * enabled (issues counted in st->issue_cycles). A rollback also empties the FIFO, which
 * the RTL would follow with an earlier delivery; not modelled (docs/validation). */
static inline int int_armed(nyz_thread *t, const sim_thread *st, unsigned delay)
{
    if (!t->int_arm)
        t->int_arm = st->issue_cycles + delay + 1;
    if (st->issue_cycles + 1 < t->int_arm)
        return 0;
    t->int_arm = 0;
    return 1;
}

/* Kinds that wait for the thread's store queue to drain (one bit per nyz_kind). */
#define KBIT(k) (1ull << (k))
static const uint64_t STORE_QUEUE_KINDS =
    KBIT(K_STORE) | KBIT(K_STORE_V) | KBIT(K_STORE_SCAT) | KBIT(K_STORE_SYNC) |
    KBIT(K_MEMBAR) | KBIT(K_DFLUSH) | KBIT(K_IINVALIDATE);
_Static_assert(K_ERET < 64, "nyz_kind must fit the STORE_QUEUE_KINDS mask");

static uint64_t run_core(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    nyz_machine *nm = m->isa_state;
    nyz_core *c = u->isa;
    const nyz_timing *tm = &nm->tm;
    int n = u->nthreads;
    /* The scan covers threads 0..ns-1: the ones above the last ready thread stay not ready
     * for this call (a thread becomes ready only through sched_start/sched_wake, which set
     * nm->resched or happen between calls), so the round-robin order among ready threads
     * is unchanged. Under the debugger (which stops the run to change states) all of them. */
    int ns = n;
    while (!m->slow && ns > 0 && u->threads[ns - 1].state != SIM_T_READY)
        ns--;
    while (now < horizon) {
        if (sim_stopped(m))
            return now;
        int pick = -1;
        const nyz_insn *in = NULL;
        int i = u->rr < ns ? u->rr : 0;
        uint64_t next = SIM_NEVER;
        for (int k = 0; k < ns; k++, i = (i + 1 == ns ? 0 : i + 1)) {
            sim_thread *st = &u->threads[i];
            if (st->state != SIM_T_READY)
                continue;
            if (st->ready_at > now) {
                next = next < st->ready_at ? next : st->ready_at;
                continue;
            }
            nyz_thread *t = &c->t[i];
            /* Interrupts are taken between instructions (precise). */
            if ((t->flags & NYZ_F_I) && (nm->int_levels | t->latched) && nyz_pending_ints(nm, c, t)
                && int_armed(t, st, tm->int_delay)) {
                if (nm->cosim)
                    fprintf(nm->cosim, "interrupt %d %08x\n", t->gid, t->pc);
                nyz_raise_trap(nm, c, t, t->pc, NYZ_TT_INTERRUPT, 0, 0, 0, 0);
                st->ready_at = now + tm->branch_penalty;
                st->stalls[ST_ROLLBACK] += tm->branch_penalty;
                next = next < st->ready_at ? next : st->ready_at;
                continue;
            }
            const nyz_insn *x;
            int r = fetch(nm, u, c, i, now, &x);
            if (r != 0) {
                if (sim_stopped(m))
                    return now;
                if (r < 0) { /* fetch fault: the thread restarts at its handler */
                    st->ready_at = now + tm->branch_penalty;
                    st->stalls[ST_ROLLBACK] += tm->branch_penalty;
                }
                next = next < st->ready_at ? next : st->ready_at;
                continue;
            }
            if (t->ft_pc == t->pc && t->ft > now) { /* not yet through the fetch port */
                st->ready_at = t->ft;
                next = next < t->ft ? next : t->ft;
                continue;
            }
            /* Scoreboard: sources and destination (WAW); checked on the first subcycle. */
            uint64_t rdy = 0;
            if (t->subcycle == 0) { /* no branches: reg_ready[0xff] ("none") stays 0 */
                const uint64_t *rr = t->reg_ready;
                rdy = max64(max64(max64(rr[x->rd[0]], rr[x->rd[1]]), max64(rr[x->rd[2]], rr[x->rd[3]])),
                            rr[x->wr]);
            }
            int cause = ST_SCOREBOARD;
            if (((STORE_QUEUE_KINDS >> x->kind) & 1) && t->store_done > rdy) {
                rdy = t->store_done;
                cause = ST_STORE;
                if (x->kind != K_MEMBAR)
                    c->events[1]++;
            }
            if (rdy > now) {
                st->stalls[cause] += rdy - now;
                st->ready_at = rdy;
                next = next < rdy ? next : rdy;
                continue;
            }
            if (wb_slot_busy(c, now + pipe_depth[x->pipe])) {
                st->stalls[ST_WB]++;
                next = next < now + 1 ? next : now + 1;
                continue;
            }
            pick = i;
            in = x;
            break;
        }
        if (pick < 0) {
            if (next == SIM_NEVER)
                return SIM_NEVER;
            now = next;
            continue;
        }
        u->rr = pick + 1 == n ? 0 : pick + 1;
        nyz_thread *t = &c->t[pick];
        sim_thread *st = &u->threads[pick];
        uint32_t pc = t->pc;
        u->last_issue = now;
        if (m->slow && dbg_before_insn(m, u, pick, pc))
            return now;
        nm->cur_cycle = now;
        nyz_effect ef = {0};
        nyz_exec(nm, c, t, in, &ef);
        t->cur = NULL;
        if (sim_stopped(m) && !ef.retired) /* stopped by a fault inside the instruction */
            return now;
        st->issue_cycles++;
        c->events[4]++;
        if (ef.retired) {
            st->instructions++;
            c->events[3]++;
        }
        wb_take(c, now, now + pipe_depth[in->pipe]);
        uint64_t ready = now + 1;
        unsigned lat = in->pipe == NYZ_PIPE_FP ? tm->fp_lat : tm->int_lat;
        if (ef.trapped) {
            ready = now + tm->branch_penalty;
            st->stalls[ST_ROLLBACK] += tm->branch_penalty - 1;
        } else {
            if (ef.mem) /* most instructions touch no memory: skip the jump table */
            switch (ef.mem) {
            case 1: { /* load (or block/gather lane) */
                lat = tm->load_lat;
                unsigned extra = l1_access(nm, &c->l1d, ef.paddr, now, DMEM_LEAD);
                if (extra == 0)
                    c->events[9]++;
                else {
                    c->events[8]++;
                    lat += extra;
                    ready = now + extra; /* rollback; the load reissues after the fill */
                    st->stalls[ST_DCACHE] += extra;
                }
                break;
            }
            case 2: { /* store: write-through to L2, one outstanding per thread */
                c->events[2]++;
                nyz_cache_access(&c->l1d, ef.paddr, 0, 0);
                /* The L2 takes a store every store_interval cycles (measured: four
                 * threads storing in step get one store acknowledged per ~4 cycles). */
                uint64_t acc = now > nm->l2_store_free ? now : nm->l2_store_free;
                nm->l2_store_free = acc + tm->store_interval;
                t->store_done = acc + tm->store_lat +
                                (nyz_cache_probe(&nm->l2, ef.paddr) ? 0 : tm->mem_lat - STORE_MISS_LEAD);
                nyz_cache_access(&nm->l2, ef.paddr, 1, 1);
                break;
            }
            case 3: /* load_sync/store_sync: issued twice; the thread waits for the L2
                     * round trip between the issues, the result follows the second */
            case 4: { /* I/O: the same two-issue protocol through the I/O request queue */
                unsigned rt = ef.mem == 4 ? tm->io_lat : tm->sync_lat;
                if (ef.mem == 3) {
                    if (!nyz_cache_probe(&nm->l2, ef.paddr))
                        rt += tm->mem_lat;
                    nyz_cache_access(&nm->l2, ef.paddr, 1, in->kind == K_STORE_SYNC);
                }
                lat = rt + tm->load_lat;
                ready = now + rt + 1;
                wb_take(c, now, now + rt + pipe_depth[NYZ_PIPE_MEM]);
                st->stalls[ef.mem == 4 ? ST_IO : ST_DCACHE] += rt;
                break;
            }
            case 5:
                if (in->kind == K_DINVALIDATE) {
                    /* the line is dropped from L1 and L2 (measured: the next load of it
                     * costs a memory access on the RTL) */
                    nyz_cache_invalidate(&c->l1d, ef.paddr);
                    nyz_cache_invalidate(&nm->l2, ef.paddr);
                } else if (in->kind == K_IINVALIDATE || in->kind == K_DFLUSH) {
                    /* sent to the L2 through the store queue: membar waits for them;
                     * a flush of a dirty line writes it to memory first */
                    uint64_t acc = now > nm->l2_store_free ? now : nm->l2_store_free;
                    nm->l2_store_free = acc + tm->store_interval;
                    t->store_done = acc + tm->store_lat + (in->kind == K_DFLUSH ? DFLUSH_EXTRA : 0);
                    if (in->kind == K_IINVALIDATE) {
                        nyz_cache_invalidate(&c->l1i, ef.paddr);
                        t->icache_line = 0xffffffffu;
                    } else if (nyz_cache_probe(&nm->l2, ef.paddr)) {
                        nyz_cache_access(&nm->l2, ef.paddr, 0, 0);
                        uint8_t *dirty = &nm->l2.dirty[nm->l2.last_way];
                        if (*dirty) {
                            uint64_t start = acc > nm->mem_free ? acc : nm->mem_free;
                            start += sdram_extra(nm, ef.paddr, start);
                            nm->mem_free = start + tm->mem_interval;
                            /* the write is posted: acknowledged once the bus takes it */
                            t->store_done = start + tm->store_lat + DFLUSH_EXTRA;
                            *dirty = 0;
                        }
                    }
                } else if (in->kind == K_GETCR || in->kind == K_SETCR)
                    lat = tm->load_lat;
                break;
            default:
                break;
            }
            if (ef.taken) {
                ready = now + tm->branch_penalty;
                st->stalls[ST_ROLLBACK] += tm->branch_penalty - 1;
                t->icache_line = 0xffffffffu;
            }
            if (in->wr != 0xff)
                t->reg_ready[in->wr] = now + lat;
        }
        if (ready > now + 1)
            ready = rollback_fetch_wait(nm, c, t, &ef, pc, now, ready);
        if (st->state == SIM_T_READY && st->ready_at < ready)
            st->ready_at = ready;
        /* fetch model: when could the next instruction issue if its line were cached */
        t->iss[t->niss++ & 7] = now;
        if (t->pc == pc) {
            /* next subcycle of a gather/scatter: same fetch */
        } else if (ef.taken || ef.trapped || t->pc != pc + 4) {
            fs_slide(c, now);
            fs_waste(c, now, ef.taken || ef.trapped ? tm->rb_fetch_int : 0);
            t->ft_pc = t->pc;
            t->ft = fs_take(c, st->ready_at);
            t->niss = 0;
        } else {
            uint64_t f = max64(t->ft_pc == pc ? t->ft : now, t->ft_hold) + 1;
            unsigned fa = nm->tm.fetch_ahead;
            if (fa < 8 && t->niss >= fa) { /* the FIFO is full until an older one issues */
                uint64_t s = t->iss[(t->niss - fa) & 7] + 1;
                if (s > f)
                    f = s;
            }
            if (ready > now + 1) { /* rolled back: the thread refetches this pc */
                fs_slide(c, now);
                fs_waste(c, now, tm->rb_fetch_mem);
                f = st->ready_at;
            }
            fs_slide(c, now);
            t->ft_pc = t->pc;
            t->ft = fs_take(c, f);
        }
        if (m->slow)
            dbg_after_insn(m, u, pick, pc);
        if (sim_stopped(m))
            return now + 1;
        now++;
        if (nm->resched) { /* a timer was set or threads resumed: let the loop see it */
            nm->resched = 0;
            return now;
        }
    }
    return now;
}

uint64_t nyz_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    uint64_t next = run_core(m, u, now, horizon);
    const nyz_core *c = u->isa;
    for (int i = 0; i < u->ncounters && i < NYZ_NPERF; i++) /* the unit's event counters */
        u->counters[i].value = c->events[i];
    return next;
}
