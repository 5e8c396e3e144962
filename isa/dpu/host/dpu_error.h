/* isa/dpu/host/dpu_error.h: the status codes of the UPMEM SDK host API, for libxpusim-dpu.
 * Written for xpusim from the public SDK documentation (dpu_error.h reference page): the
 * same names in the same order, so a host program's comparisons and switch statements
 * compile and mean the same. dpu_error_to_string returns a string the caller frees. */
#ifndef XPUSIM_DPU_HOST_ERROR_H
#define XPUSIM_DPU_HOST_ERROR_H

#define DPU_ERROR_ASYNC_JOB_TYPE_SHIFT (16)

typedef enum dpu_error_t {
    DPU_OK,
    DPU_ERR_INTERNAL,
    DPU_ERR_SYSTEM,
    DPU_ERR_DRIVER,
    DPU_ERR_ALLOCATION,
    DPU_ERR_INVALID_DPU_SET,
    DPU_ERR_INVALID_THREAD_ID,
    DPU_ERR_INVALID_NOTIFY_ID,
    DPU_ERR_INVALID_WRAM_ACCESS,
    DPU_ERR_INVALID_IRAM_ACCESS,
    DPU_ERR_INVALID_MRAM_ACCESS,
    DPU_ERR_INVALID_SYMBOL_ACCESS,
    DPU_ERR_MRAM_BUSY,
    DPU_ERR_TRANSFER_ALREADY_SET,
    DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER,
    DPU_ERR_WRAM_FIFO_FULL,
    DPU_ERR_NO_PROGRAM_LOADED,
    DPU_ERR_DIFFERENT_DPU_PROGRAMS,
    DPU_ERR_CORRUPTED_MEMORY,
    DPU_ERR_DPU_DISABLED,
    DPU_ERR_DPU_ALREADY_RUNNING,
    DPU_ERR_INVALID_MEMORY_TRANSFER,
    DPU_ERR_INVALID_LAUNCH_POLICY,
    DPU_ERR_DPU_FAULT,
    DPU_ERR_ELF_INVALID_FILE,
    DPU_ERR_ELF_NO_SUCH_FILE,
    DPU_ERR_ELF_NO_SUCH_SECTION,
    DPU_ERR_TIMEOUT,
    DPU_ERR_INVALID_PROFILE,
    DPU_ERR_UNKNOWN_SYMBOL,
    DPU_ERR_LOG_FORMAT,
    DPU_ERR_LOG_CONTEXT_MISSING,
    DPU_ERR_LOG_BUFFER_TOO_SMALL,
    DPU_ERR_VPD_INVALID_FILE,
    DPU_ERR_VPD_NO_REPAIR,
    DPU_ERR_NO_THREAD_PER_RANK,
    DPU_ERR_INVALID_BUFFER_SIZE,
    DPU_ERR_NONBLOCKING_SYNC_CALLBACK,
    DPU_ERR_TOO_MANY_TASKLETS,
    DPU_ERR_SG_TOO_MANY_BLOCKS,
    DPU_ERR_SG_LENGTH_MISMATCH,
    DPU_ERR_SG_NOT_ACTIVATED,
    DPU_ERR_SG_NOT_MRAM_SYMBOL,
    DPU_ERR_ASYNC_JOBS = (int)(1U << 31)
} dpu_error_t;

/* A readable description of status, allocated with malloc: free it. */
char *dpu_error_to_string(dpu_error_t status);

#endif
