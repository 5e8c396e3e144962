/* isa/dpu/host/dpu_log.h: reading a DPU's printf output by DPU handle, the form PrIM's host
 * code uses (dpulog_read_for_dpu(dpu.dpu, stdout) inside DPU_FOREACH), for libxpusim-dpu.
 * Written for xpusim from the public SDK documentation. */
#ifndef XPUSIM_DPU_HOST_LOG_H
#define XPUSIM_DPU_HOST_LOG_H
#include <stdio.h>
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print the printf records DPU dpu's program left in its MRAM buffer. */
dpu_error_t dpulog_read_for_dpu(struct dpu_t *dpu, FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
