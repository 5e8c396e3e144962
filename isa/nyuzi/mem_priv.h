/* isa/nyuzi/mem_priv.h: the memory system's constants and calls shared by timing.c (the
 * caches' requests and the store path) and mem_bus.c (the bus, the fill FIFO and the SDRAM
 * controller), private to the Nyuzi cycle model. Each constant's comment says where its
 * number comes from. */
#ifndef NYZ_MEM_PRIV_H
#define NYZ_MEM_PRIV_H
#include <stdint.h>
#include "nyuzi.h"

/* The reference board's SDRAM controller (fpga/common/sdram_controller.sv, as the RTL
 * testbench instantiates it: 4 banks, 1 KiB rows, word address = {row, bank, column}):
 * mem_latency is a line read from an open row in an idle controller; sdram_extra (below)
 * times its bursts, rows and refresh. */
/* A data line from memory reaches the L1D this much sooner than an instruction line
 * reaches the L1I (RTL trace of a one-thread copy loop: load issue, L2 request +3, AR
 * address phase +9, line complete (RST) +34 in an open row, response +38, replay +41; the
 * probes start, hs5 and sy (cold load and use, cold load_sync) are exact with 3 and were
 * one cycle fast with 4). Set with -o mem_latency as the instruction line's latency. */
enum { DMEM_LEAD = 3 };
/* The memory model serves line requests in the order they reach the L2, as the RTL's fill
 * FIFO does (l2_cache_read_stage.sv enqueues a miss into l2_axi_bus_interface.sv's
 * fill_queue in the order the requests leave l2_cache_arb_stage.sv). Each request gets a
 * bus time: the cycle of its L2 request (the l1_l2_interface.sv miss queue's entry is valid
 * the cycle after the miss is seen: ifetch_data_stage.sv for a code line, the data stage
 * (issue + 3) for data) plus two. A code line's request time (pipeline.c icache_fill, seen
 * by ifetch_data at D) is D + 3; a data request's is its issue cycle plus DMEM_BUS. An
 * uncontended request keeps its latency (its lead grows by as much). */
enum { DMEM_BUS = 6 };
/* A code line the L2 holds is answered this much later than l2_latency (a data load's):
 * its response comes 4 cycles after the L2 takes it, and the fetch resumes as long after
 * a response as after a line read's (RTL trace, kernel on 2 cores: core 1's first line,
 * ifetch_data's miss at 109, grant 110, response 114, first issue 121). */
enum { CODE_HIT = 3 };
/* A request the L2 restarts from its miss queue without a memory access (a whole-line store
 * to a line it lacks) is answered this much later than a hit: FIFO, bus-interface state
 * machine, arbiter, tag and read stages again (measured: sixteen whole-line stores to fresh
 * lines 245 cycles on the RTL, 165 with a hit's timing). */
enum { RESTART_PASS = 5 };
/* Each restart from the fill FIFO (a whole-line store the L2 lacks, a collided miss) holds
 * the bus interface's state machine RESTART_SLOT cycles (IDLE, READ_COMPLETE): restarts
 * come 2 cycles apart in FIFO order, after the restart of a read queued before them. */
enum { RESTART_SLOT = 2 };
/* A line read's restart (l2_axi_bus_interface.sv READ_COMPLETE: the filled request back
 * into l2_cache_arb_stage.sv, RTL trace "RST") comes RST_LEAD cycles before a code line's
 * (lead 0) data in the model: the bus time is the address phase - 3 (a data miss issued at
 * t: L2 request t + 3, address phase t + 9, restart t + 34, response t + 38, replay t + 41,
 * the model's data t + 42 for the bus time t + DMEM_BUS), so the restart is the bus time
 * + 28 and a code line's arrival the bus time + mem_latency (45). A request that reaches the
 * L2's read stage before the fill's restart has passed it (its bus time before the restart
 * + COLL_WINDOW: L2 request at bus time - 3, tag stage one cycle later, the fill's tag
 * update in its read stage two cycles after its restart) misses there, finds the line in
 * l2_cache_pending_miss_cam.sv and is queued in the fill FIFO as a collided miss. */
enum { RST_LEAD = 17, COLL_WINDOW = 4, STORE_RST_ACK = 7 };
enum { FQ_REQ = NYZ_FQ_REQ };

/* The cycle the L2 takes a request that reaches it at x: the first at or after x in which
 * it is not stalled and, if slot, takes no other (mem_bus.c). */
uint64_t nyz_l2_accept(nyz_machine *nm, uint64_t x, int slot);
/* A fill FIFO entry enqueued at e and restarted at r (mem_bus.c). */
void nyz_fq_push(nyz_machine *nm, uint64_t e, uint64_t r);

/* l2_fill.c: the L2's ways on several cores (fills at their restart, hits at their grant) */
int nyz_l2_mark(nyz_cache *c, uint32_t pa, int write);
int nyz_l2_pending(const nyz_machine *nm, uint32_t pa);
void nyz_l2_settle_made(nyz_machine *nm, uint64_t now);
void nyz_l2_settle_set(nyz_machine *nm, uint32_t pa, uint64_t now);
void nyz_l2_pend_write(nyz_machine *nm, uint32_t pa);

#endif
