/* isa/dpu/host/xpusim_dpu.h: what libxpusim-dpu offers beyond the UPMEM SDK host API: the
 * simulated statistics of the last launch. Statistics of every launch can also be written
 * without changing the host program: XPUSIM_DPU_STATS=FILE (text; FILE ending in .json:
 * one JSON object per launch, one per line). docs/isa/dpu.md "Host API library". */
#ifndef XPUSIM_DPU_HOST_XPUSIM_H
#define XPUSIM_DPU_HOST_XPUSIM_H
#include <stdint.h>
#include <stdio.h>
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The last launch of the allocation dpu_set belongs to: the cycles of its longest DPU, the
 * instructions of all its DPUs, and its number (1 for the first launch; 0: none yet). */
dpu_error_t xpusim_dpu_last_launch(struct dpu_set_t dpu_set, uint64_t *cycles, uint64_t *instructions,
                                   uint32_t *launch);
/* The full statistics of that launch as xpusim prints them (text), or as its JSON object. */
dpu_error_t xpusim_dpu_stats(struct dpu_set_t dpu_set, FILE *out, int json);

#ifdef __cplusplus
}
#endif
#endif
