/* isa/nyuzi/l2_wb.c: the L2's write-back FIFO and the bus interface's state machine
 * between write-backs and restarts (l2_axi_bus_interface.sv): when a dirty victim's
 * write-back takes the memory bus, and how long a write holds back the restarts of the fill
 * FIFO's requests. The bus and the SDRAM themselves are timing.c's (nyz_bus_write). */
#include <string.h>
#include "nyuzi.h"

/* A dirty line the L2 evicts for a fill is written back over the memory bus
 * (l2_cache_read_stage.sv needs_writeback): it enters the bus interface's write-back FIFO
 * when the fill's restart passes the L2's read stage, two cycles after the restart
 * (l2_axi_bus_interface.sv enqueue_writeback_request with l2r_l2_fill), and the state
 * machine takes it in its next IDLE state before any fill request. So a fill queued behind
 * the evicting one starts first if the state machine goes from the restart straight to it
 * (RTL trace, l2evict on 2 cores: restart 2793, the other core's read AR 2796, its restart
 * 2821, then the two write-backs AW 2824 and 2856). The IDLE 3 cycles after the restart R
 * does not see it yet, the one 5 after does: in vstream.c2t4 every evicting restart R (595,
 * 670, 715, 754) has restarts at R + 2 and R + 4 (IDLE at R + 1, R + 3) before the write-back,
 * whose address phase is at R + 7 (nyuzi-fl, session 36; it was read as 2 from "restart 597,
 * AW 602", but 597 is another set's restart; with 3 l2evict.c1t1, c2t1 and c4t1 are exact,
 * docs/validation/nyuzi.md 5b "Session 37 (fl2)"). In the model's time (a transfer's start is
 * its address phase - 3, its IDLE its start + 1) a write-back may start at the restart +
 * WB_ENQ, seen by an IDLE at R + 4 on; nyz_wb_push keeps it until the next request of the
 * bus interface (nyz_wb_drain), which it goes before if it may start by then. */
enum { WB_ENQ = 3 };

/* The oldest write-back waiting, written (FIFO order). */
static void wb_write(nyz_machine *nm)
{
    nyz_bus_write(nm, nm->wb_line[0] << nm->l2.line_shift, nm->wb_at[0]);
    nm->wb_n--;
    memmove(nm->wb_at, nm->wb_at + 1, nm->wb_n * sizeof nm->wb_at[0]);
    memmove(nm->wb_line, nm->wb_line + 1, nm->wb_n * sizeof nm->wb_line[0]);
}

/* The write-backs waiting that the bus interface takes before a transfer it would start
 * at bus time b or when the bus is free after them. */
void nyz_wb_drain(nyz_machine *nm, uint64_t b)
{
    while (nm->wb_n && nm->wb_at[0] <= (b > nm->mem_free ? b : nm->mem_free))
        wb_write(nm);
}

/* The cycle the bus interface restarts a request from the fill FIFO that is due at r: not
 * while a write-back holds it (bi_free), and after the write-backs waiting that it takes
 * in the IDLE state before (r - 1: as a read's start, r - 2). */
uint64_t nyz_bi_restart(nyz_machine *nm, uint64_t r)
{
    for (;;) {
        if (r < nm->bi_free)
            r = nm->bi_free;
        if (!nm->wb_n || nm->wb_at[0] + 2 > r)
            return r;
        wb_write(nm);
    }
}

/* The dirty line a fill restarted at rst evicts (see WB_ENQ). */
void nyz_wb_push(nyz_machine *nm, uint32_t line, uint64_t rst)
{
    if (nm->wb_n == NYZ_WBQ)
        wb_write(nm);
    nm->wb_at[nm->wb_n] = rst + WB_ENQ;
    nm->wb_line[nm->wb_n++] = line;
}

/* The same in a saved bus state (bus_log.c): dropped if its FIFO is full. */
void nyz_wb_push_saved(nyz_bus_state *s, uint32_t line, uint64_t rst)
{
    if (s->wb_n == NYZ_WBQ)
        return;
    s->wb_at[s->wb_n] = rst + WB_ENQ;
    s->wb_line[s->wb_n++] = line;
}

/* A write-back queued (at, line, *n: nm's FIFO or a saved one) for the fill restarted at
 * rst as line `was`: its line is `now` instead (~0: none, it leaves); 0 if not queued. */
int nyz_wb_fix(uint64_t *at, uint32_t *line, uint32_t *n, uint32_t was, uint32_t now, uint64_t rst)
{
    for (uint32_t i = 0; i < *n; i++)
        if (line[i] == was && at[i] == rst + WB_ENQ) {
            if (now != 0xffffffffu)
                line[i] = now;
            else {
                --*n;
                memmove(at + i, at + i + 1, (*n - i) * sizeof at[0]);
                memmove(line + i, line + i + 1, (*n - i) * sizeof line[0]);
            }
            return 1;
        }
    return 0;
}
