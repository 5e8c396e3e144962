/* isa/dpu/func.h: the DPU's functional mode (-o timing=none, m->functional): every
 * instruction with its architectural effect and no timing model. The running tasklets
 * issue in round-robin order, each for a quantum of steps (-o func_quantum, default 1:
 * one instruction each, the revolver's order), DMA lands at once, there is no revolver
 * wait and no bank penalty, and a cycle is one issue step. The rules are in
 * docs/isa/dpu.md, "Functional mode". machine.c dispatches here from unit_run. */
#ifndef XPUSIM_DPU_FUNC_H
#define XPUSIM_DPU_FUNC_H
#include "dpu.h"

/* isa_ops.unit_run while m->functional: run DPU d's tasklets functionally for issue steps
 * in [now, horizon); the next step to run, or SIM_NEVER once the DPU halted or faulted.
 * quantum: the steps a tasklet issues before the next running one takes over (bursts end
 * where the cycle is a multiple of it, so the interleaving depends on the cycle alone: a
 * run stopped and resumed anywhere, or split at any horizon, interleaves the same). */
struct dpu_fn_state;
/* fs: the machine's functional records (func_rec.h; NULL: none). */
uint64_t dpu_func_run(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon, uint64_t quantum,
                      struct dpu_fn_state *fs);

/* isa_ops.timing_resume: the cycle model goes on from the architectural state a functional
 * run left (a fast-forward reached its marker) at the unit's current cycle: every running
 * tasklet ready from then on, in round-robin order from the cursor, no DMA in flight, the
 * engine free, the revolver statistics continuing from their values. */
void dpu_func_timing_resume(sim_machine *m);

#endif
