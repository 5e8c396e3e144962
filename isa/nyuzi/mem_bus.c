/* isa/nyuzi/mem_bus.c: the Nyuzi cycle model's memory side below the L2: the reference
 * board's SDRAM controller state by state, the one memory bus its line reads and
 * write-backs share, and the L2's fill FIFO (its entries, its almost-full stall, the
 * restarts of collided misses) with the L2's acceptance of a request in a cycle. timing.c
 * asks it for a line's read or write; the write-back FIFO is l2_wb.c and the order of
 * several cores' requests bus_log.c. The rules and their sources: docs/isa/nyuzi.md. */
#include <string.h>
#include "nyuzi.h"
#include "mem_priv.h"
#ifdef NYZ_MEMTRACE /* -DNYZ_MEMTRACE: every memory-bus read (AR) and write-back (AW) on
                     * stderr, as the RTL testbench's traced copy prints them (docs/validation) */
#include <stdio.h>
#endif

/* A line written back holds the memory bus mem_interval (28) cycles for the next write,
 * counted from its start, which already includes its own row's cycles (sdram_extra), and
 * in any case until its second burst has ended: the SDRAM controller takes a write's
 * address only with no write pending (sdram_controller.sv s_awready = !write_pending, which
 * clears as the last burst leaves WRITE_BURST; axi_interconnect.sv passes the address phase
 * only then; s_bvalid is tied to 1, so the bus interface never waits for a response). RTL
 * trace of dflush_dirty.c4t1, every write to a closed row of bank 0: AW 913, store FIFO
 * full 922, CLOSE_ROW 923, OPEN_ROW 924, bursts to 935 and 937..945, next AW 945: 28 + 4 (it
 * was 30, which made dfdi.c4t1's and dflush_dirty.c4t1's writes 2 late each once the
 * flushes went in the RTL's order, nyz_flush_write); a refresh between the bursts delays
 * it (RTL trace of dflush_dirty.c2t1 with the controller's states: AW 2239, first burst to
 * 2261, the refresh 2262..2268, the second burst to 2279, next AW 2279: 40, the model had
 * 32). READ_AFTER_WRITE less for the next read: the bus interface takes a read in the
 * IDLE state after the write's last data beat (l2_axi_bus_interface.sv WRITE_TRANSFER ->
 * IDLE -> READ_ISSUE_ADDRESS), its address phase 2 cycles after that IDLE, while the
 * controller still runs the write's bursts (the read waits for them there, sd_idle). The
 * last beat is as late as the first burst (the store FIFO full until it drains), which the
 * write's start already includes: a read may start 21 after it, 2 before bi_free (WB_BI).
 * RTL traces: l2evict on 2 cores, AW 2856 (an open row) AR 2877 (21 after), its restart
 * 2912 (the write's second burst, then its own row); vstream.c4t4 with the controller's
 * states, AW 4314 (a row closed and opened: + 4), a whole-line store restarted at 4338 (AW
 * + 24, bi_free), AR 4341 (from the IDLE after it), before the write-back the restart
 * queued (with 27 the model's read waited for that write-back, its restart 32 late, and
 * vstream.c4t4's grants left the RTL's at the 259th; with 21 every thread is the RTL's).
 * Every RTL trace with the controller's states agrees: a read waiting for a write has its
 * address phase 3 cycles after the write's first burst ends in IDLE (sbfull.c4t4 25 reads,
 * scat_miss.c4t4 14, l2evict.c4t4 13, dflush_dirty.c2t1 15; session 39, rw). */
enum { READ_AFTER_WRITE = 7 };

/* The SDRAM controller (sdram_controller.sv) cycle by cycle, in the RTL's time (RTL trace of
 * its states, a copy of the testbench printing them: docs/validation/nyuzi.md 5b "Session 35
 * (nyuzi-sd)"). A line is two bursts of 8 words, each started from IDLE; IDLE acts first at
 * SD_READY after reset (INIT0..INIT3), and from IDLE it refreshes if its refresh timer has
 * run out (SD_REFRESH from reset, i.e. due at cycle 750, and again SD_REFRESH + 1 after
 * the AUTO_REFRESH command: PRECHARGE-all 2 cycles if a row is open, then the command and
 * its wait, IDLE again 7 cycles (5 if no row was open) after it started, due again 754
 * (752) after that), before any read or write; else a read (read_pending, the load FIFO
 * empty) or a write (write_pending, its store FIFO full). A burst from IDLE at c is back
 * in IDLE at c + SD_RBURST (a read: CAS_WAIT 2, READ_BURST 9) or c + SD_WBURST (a write),
 * 2 cycles later if its bank has no open row (OPEN_ROW), 4 if another row is open
 * (CLOSE_ROW first). A read's address phase at A (the model's bus time t + 3) is pending
 * from A + 1; its second burst starts the cycle after its first ends (the load FIFO
 * drains), and the line restarts in the L2 the cycle after the second ends: A + 25 from an
 * open row with the controller idle (mem_latency's case). A write's address phase at W:
 * its store FIFO is full at W + 9 (SD_WFULL), full again the cycle after its first burst
 * ends. The refresh is checked at each IDLE, also between a line's two bursts (RTL trace
 * of dfdi: a read at AR 743, its first burst from 744 (another row open: 15 cycles), the
 * refresh from 759, the second burst from 766 opening the row again: restart 780). */
enum { SD_READY = 11, SD_REFRESH = 750, SD_ACT = 2, SD_PRE = 2, SD_AREF = 5, SD_RBURST = 11,
       SD_WBURST = 9, SD_WFULL = 9, SD_AR = 3 };

/* A request waiting in the controller from cycle c: the refreshes due go first; the cycle
 * IDLE takes it (nm->sd_idle, the cycle IDLE acts next; nm->sd_refresh, the cycle the
 * refresh timer reads 0). */
static uint64_t sd_wait(nyz_machine *nm, uint64_t c)
{
    if (c < nm->sd_idle)
        c = nm->sd_idle;
    while (nm->sd_refresh <= c) { /* refreshes due before the burst starts */
        uint64_t r = nm->sd_refresh > nm->sd_idle ? nm->sd_refresh : nm->sd_idle;
        int open = nm->sd_row[0] | nm->sd_row[1] | nm->sd_row[2] | nm->sd_row[3];
        memset(nm->sd_row, 0, sizeof nm->sd_row);
        nm->sd_idle = r + (open ? SD_PRE : 0) + SD_AREF;
        nm->sd_refresh = r + (open ? SD_PRE : 0) + SD_REFRESH + 2;
        if (c < nm->sd_idle)
            c = nm->sd_idle;
        if (nm->sd_refresh + SD_REFRESH + 2 < c) { /* idle: whole periods of closed banks */
            uint64_t k = (c - nm->sd_refresh) / (SD_REFRESH + 2);
            nm->sd_refresh += k * (SD_REFRESH + 2);
            nm->sd_idle = nm->sd_refresh - (SD_REFRESH + 2) + SD_AREF;
        }
    }
    return c;
}

/* One burst of the line pa whose request waits from cycle c: the cycle its controller is
 * in IDLE again. */
static uint64_t sd_burst(nyz_machine *nm, uint32_t pa, uint64_t c, unsigned len)
{
    c = sd_wait(nm, c);
    unsigned bank = (pa >> 10) & 3, row = (pa >> 12) + 1;
    if (nm->sd_row[bank] != row) {
        len += (nm->sd_row[bank] ? SD_PRE : 0) + SD_ACT;
        nm->sd_row[bank] = row;
    }
    return nm->sd_idle = c + len;
}

/* A write's second burst that a refresh has separated from its first waits at the IDLE
 * after the refresh (nm->sd_wat; its line nm->sd_wpa) for the next access: a read pending
 * by then goes first, both its bursts, and the write's burst follows (sdram_controller.sv
 * IDLE: a read pending with the load FIFO empty before a write, and a write only while no
 * read is pending; their addresses never match, the held burst being a line's second
 * half). RTL traces with the controller's states: memcpy.c2t1, AW 20406, first burst to
 * 20428, the refresh 20429..20434, AR 20433 pending from 20434, the read's bursts from IDLE
 * at 20435 (opening its row) to 20460, its restart 20461, the write's second burst from
 * 20460 (closing and opening its row) to 20473; sbfull.c4t4, AW 9819, AR 9844, the read's
 * restart 9874, the write's burst from 9873. This runs the held burst from c (sd_wat, or the
 * read's end): the next write's address phase waits for its end (nyz_bus_write). */
static void sd_wr_second(nyz_machine *nm, uint64_t c)
{
    uint64_t e = sd_burst(nm, nm->sd_wpa, c, SD_WBURST);
    nm->sd_wat = 0;
    if (nm->wr_free < e - SD_AR)
        nm->wr_free = e - SD_AR;
}

/* The extra cycles of a line read or write (its bank's rows, the refresh, the controller
 * still busy) whose address phase is at bus time t + SD_AR: a read's beyond an open row's
 * restart in an idle controller; a write's beyond its first burst's start at its store
 * FIFO's filling (the bus's last data beat waits as long), *wr_end (if a write) then the
 * cycle its second burst ends, the controller in IDLE again (0: a refresh came between its
 * bursts, the second is held). */
static unsigned sdram_extra(nyz_machine *nm, uint32_t pa, uint64_t t, uint64_t *wr_end)
{
    uint64_t a = t + SD_AR;
    if (nm->sd_refresh == 0) { /* reset */
        nm->sd_refresh = SD_REFRESH;
        nm->sd_idle = SD_READY;
    }
    if (wr_end) {
        uint64_t e = sd_burst(nm, pa, a + SD_WFULL, SD_WBURST);
        if (nm->sd_refresh <= e + 1) { /* the refresh first, then held (sd_wr_second) */
            nm->sd_wat = sd_wait(nm, e + 1);
            nm->sd_wpa = pa;
            *wr_end = 0;
        } else
            *wr_end = sd_burst(nm, pa, e + 1, SD_WBURST);
        return (unsigned)(e - (a + SD_WFULL + SD_WBURST));
    }
    if (nm->sd_wat && a + 1 > nm->sd_wat) /* a held burst the read is too late for */
        sd_wr_second(nm, nm->sd_wat);
    uint64_t e = sd_burst(nm, pa, a + 1, SD_RBURST);
    e = sd_burst(nm, pa, e + 1, SD_RBURST);
    if (nm->sd_wat) /* the held burst after the read */
        sd_wr_second(nm, e);
    return (unsigned)(e - (a + 1 + 2 * SD_RBURST + 1));
}
/* A line written to memory at pa from bus cycle `from` on (a write-back, a flush): the
 * cycle its transfer starts, later by the controller's extra cycles; the bus is busy after
 * it (mem_free for a read, wr_free for a write), the SDRAM controller with its two bursts
 * (sdram_extra), and the bus interface's state machine until WB_BI after the start
 * (bi_free): the write's address and sixteen data beats, then IDLE, in which a restart may
 * come (RTL trace of vstream on 2 cores x 4 threads, whole-line stores restarted from the
 * fill FIFO: AW at 722, 804, 845, 886, the next restart 20 cycles later; 24 after a write
 * that opened its row (602, 1105, 1377): the model's start is the address phase - 3, as a
 * read's, so 23 + the row's cycles after the start). */
enum { WB_BI = 23 };

uint64_t nyz_bus_write(nyz_machine *nm, uint32_t pa, uint64_t from)
{
    if (nm->sd_wat) /* (the previous write's held burst: no read went before it) */
        sd_wr_second(nm, nm->sd_wat);
    uint64_t start = from > nm->mem_free ? from : nm->mem_free;
    if (start < nm->wr_free)
        start = nm->wr_free;
    uint64_t end;
    start += sdram_extra(nm, pa, start, &end);
    nm->mem_free = start + nm->tm.mem_interval - READ_AFTER_WRITE;
    nm->wr_free = start + nm->tm.mem_interval;
    if (end && nm->wr_free < end - SD_AR) /* (the next address phase no sooner than end) */
        nm->wr_free = end - SD_AR;
    nm->bi_free = start + WB_BI;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu AWX a%08x from %llu\n", (unsigned long long)start, pa, (unsigned long long)from);
#endif
    return start;
}

/* The L2 takes no request while its fill FIFO holds FQ_ALMOST_FULL or more entries, nor in
 * a cycle in which the bus interface restarts one (l2_cache_arb_stage.sv can_accept_request
 * = !l2bi_request_valid && !l2bi_stall; l2_axi_bus_interface.sv: l2bi_stall is the 8-entry
 * fill FIFO's almost_full, ALMOST_FULL_THRESHOLD = 8 - L2REQ_LATENCY = 4, so the requests
 * already in the L2's stages still fit; sync_fifo.sv counts an entry from the cycle after
 * its enqueue to its dequeue at READ_COMPLETE, the restart). A request that reaches the L2
 * at cycle X (in the model's time a request's bus time less FQ_REQ) is enqueued, if it
 * misses, at X + FQ_REQ (RTL trace, llsc on 2 cores x 4 threads: seven cold loads
 * requested at 260..266 enqueued at 263..269; the L2 takes nothing from 267, the fourth
 * entry, until 376, the cycle after the fourth restart at 375; requests waiting then are
 * taken one a cycle, none in a restart's cycle). */
enum { FQ_ALMOST_FULL = 4 };

/* Entries are made in the order the model makes requests, not the FIFO's: one for a
 * request held far ahead can come before older ones have left, so a new entry replaces
 * the one restarted first (one that has left), never simply the oldest made. */
void nyz_fq_push(nyz_machine *nm, uint64_t e, uint64_t r)
{
    unsigned k = 0;
    if (nm->fq_n < NYZ_FQ)
        k = nm->fq_n;
    else
        for (unsigned i = 1; i < NYZ_FQ; i++)
            if (nm->fq_r[i] < nm->fq_r[k])
                k = i;
    nm->fq_n++;
    nm->fq_e[k] = e;
    nm->fq_r[k] = r;
}

/* 1 if the L2 takes no request at cycle x (fill FIFO almost full, or a restart); *until is
 * then a cycle no sooner than the next it may. */
static int l2_stalled(const nyz_machine *nm, uint64_t x, uint64_t *until)
{
    /* every entry has left (the usual case: no miss in flight). fq_rst, the restart of the
     * FIFO's last entry, is at least every entry's less one: a read starts when the bus is
     * free (mem_free, at least a collided miss's restart and a store's less one) and
     * restarts mem_latency - RST_LEAD (>= 0) after it */
    if (x > nm->fq_rst + 1) {
        *until = x + 1;
        return 0;
    }
    unsigned n = 0, k = nm->fq_n < NYZ_FQ ? nm->fq_n : NYZ_FQ;
    uint64_t first = UINT64_MAX;
    int rst = 0;
    for (unsigned i = 0; i < k; i++) {
        if (nm->fq_r[i] == x)
            rst = 1;
        if (nm->fq_e[i] < x && x <= nm->fq_r[i]) {
            n++;
            if (nm->fq_r[i] < first)
                first = nm->fq_r[i];
        }
    }
    if (n >= FQ_ALMOST_FULL) {
        *until = first + 1; /* the oldest entry's restart frees a place the cycle after */
        return 1;
    }
    *until = x + 1;
    return rst;
}

int nyz_l2_stalled(const nyz_machine *nm, uint64_t x)
{
    uint64_t next;
    return l2_stalled(nm, x, &next);
}

/* The cycle the L2 takes a request that reaches it at x: the first at or after x that is
 * not stalled (l2_stalled) and, if slot, in which it takes no other (one grant a cycle;
 * synchronized requests are ordered by their own arbiter model, l2_sync.c, which skips the
 * stalled cycles). */
uint64_t nyz_l2_accept(nyz_machine *nm, uint64_t x, int slot)
{
    uint64_t next;
#ifdef NYZ_MEMTRACE
    uint64_t x0 = x;
#endif
    for (;;) {
        if (l2_stalled(nm, x, &next))
            x = next;
        else if (slot && nm->l2_slot[x % NYZ_L2_SLOTS] == x)
            x++;
        else
            break;
    }
    if (slot)
        nm->l2_slot[x % NYZ_L2_SLOTS] = x;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu ACC %llu\n", (unsigned long long)x0, (unsigned long long)x);
#endif
    return x;
}

/* A line read from memory for a request with bus time b (its requester's: bus, lead):
 * the memory bus, the SDRAM and the fill FIFO move on; returns the cycle the data is there
 * for the requester and sets *rst to the read's restart. */
uint64_t nyz_bus_read(nyz_machine *nm, uint32_t pa, uint32_t victim, uint64_t b, unsigned bus,
                      unsigned lead, uint64_t *rst)
{
    /* Memory is one bus: a line transfer occupies it for mem_interval cycles, so
     * overlapping misses (an instruction line and a data line) queue. */
    nyz_wb_drain(nm, b);
    uint64_t start = nm->bi_key = b > nm->mem_free ? b : nm->mem_free;
    unsigned sd = sdram_extra(nm, pa, start, NULL);
    nm->mem_free = start + sd + nm->tm.mem_interval;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu AR a%08x b %llu sd %u rst %llu\n", (unsigned long long)(start + sd), pa & ~63u, (unsigned long long)b, sd, (unsigned long long)(start + sd + nm->tm.mem_lat - (nm->tm.mem_lat < RST_LEAD ? nm->tm.mem_lat : RST_LEAD)));
#endif
    /* a data line arrives `lead` cycles before an instruction line (measured on the RTL);
     * with a memory latency below that (-o mem_latency=0..3, an ideal memory) it arrives
     * as soon as the bus takes the request, never before it: an unsigned wrap here made
     * a load wait 2^32 cycles */
    uint64_t done = start - bus + sd + (nm->tm.mem_lat > lead ? nm->tm.mem_lat - lead : 0);
    unsigned rst_lead = nm->tm.mem_lat < RST_LEAD ? nm->tm.mem_lat : RST_LEAD;
    *rst = nm->fq_rst = start + sd + nm->tm.mem_lat - rst_lead;
    nyz_fq_push(nm, b, *rst);
    if (victim != 0xffffffffu)
        nyz_wb_push(nm, victim, *rst);
    return done;
}

/* A collided miss (see fill_at) of the line whose fill restarts at rst, requested at now
 * with bus time now + bus: its restart follows everything queued in the fill FIFO;
 * returns the cycle the data is there for the requester (an L2 hit's if the fill has
 * restarted by then). */
uint64_t nyz_bus_collided(nyz_machine *nm, uint64_t rst, uint64_t now, unsigned bus,
                          unsigned lead)
{
    if (rst && now + bus >= rst + COLL_WINDOW) /* the line is there by then: a hit (fill_at) */
        return now + nm->tm.l2_lat + (bus ? 0 : CODE_HIT);
    unsigned rst_lead = nm->tm.mem_lat < RST_LEAD ? nm->tm.mem_lat : RST_LEAD;
    uint64_t r = (rst > nm->fq_rst ? rst : nm->fq_rst) + RESTART_SLOT;
    /* and no sooner than RESTART_SLOT after its own enqueue at its bus time (the bus
     * interface sees the entry the cycle after, IDLE, and restarts it the next: RTL trace of
     * kernel on 2 cores, core 1's code line collided with core 0's, whose read restarted at
     * 592, enqueued at 594 and restarted at 596) */
    if (r < now + bus + RESTART_SLOT)
        r = now + bus + RESTART_SLOT;
    r = nyz_bi_restart(nm, r);
    nm->bi_key = r - RESTART_SLOT; /* (its IDLE: a flush's write-back pending then goes first) */
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu COLL rst %llu r %llu bus %u\n", (unsigned long long)now,
            (unsigned long long)rst, (unsigned long long)r, bus);
#endif
    nm->fq_rst = r;
    nyz_fq_push(nm, now + bus, r);
    /* the next read's address phase comes 3 cycles after the restart, as after a read's
     * (RTL trace, llsc on 4 cores x 1 thread: a read restarted at 448 and three collided
     * misses at 450, 452, 454, the code line queued behind them read at 457), i.e. its bus
     * time is the restart at the earliest */
    if (nm->mem_free < r)
        nm->mem_free = r;
    uint64_t done = r + rst_lead, sub = bus + (lead < rst_lead ? lead : rst_lead);
    done = done > sub ? done - sub : 0;
    return done > now + nm->tm.l2_lat ? done : now + nm->tm.l2_lat;
}
