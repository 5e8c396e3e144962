/* isa/dpu/host/dpu_types.h: the types a UPMEM host program names (DPU sets, transfer
 * directions and flags, launch policies) and DPU_MRAM_HEAP_POINTER_NAME, for libxpusim-dpu.
 * Written for xpusim from the public SDK host-API documentation. A struct dpu_set_t is a
 * small value: the whole allocation or one rank (a list of ranks), or one DPU (its `dpu`
 * member, which PrIM's host code passes to dpulog_read_for_dpu). */
#ifndef XPUSIM_DPU_HOST_TYPES_H
#define XPUSIM_DPU_HOST_TYPES_H
#include <stdint.h>

/* The runtime's symbol for the first free MRAM byte (DPU_MRAM_HEAP_POINTER in DPU code). */
#define DPU_MRAM_HEAP_POINTER_NAME "__sys_used_mram_end"

struct dpu_t;       /* one simulated DPU */
struct dpu_rank_t;  /* up to 64 DPUs of one allocation */
struct dpu_program_t;

enum dpu_set_kind_t { DPU_SET_RANKS, DPU_SET_DPU };

struct dpu_set_t {
    enum dpu_set_kind_t kind;
    union {
        struct {
            uint32_t nr_ranks;
            struct dpu_rank_t **ranks;
        } list;
        struct dpu_t *dpu;
    };
};

typedef enum _dpu_launch_policy_t { DPU_ASYNCHRONOUS, DPU_SYNCHRONOUS } dpu_launch_policy_t;
typedef enum _dpu_xfer_t { DPU_XFER_TO_DPU, DPU_XFER_FROM_DPU } dpu_xfer_t;
typedef enum _dpu_xfer_flags_t {
    DPU_XFER_DEFAULT = 0,  /* synchronous; the prepared buffers are forgotten afterwards */
    DPU_XFER_ASYNC = 1,    /* accepted; xpusim transfers at once, in program order */
    DPU_XFER_NO_RESET = 2  /* keep the prepared buffers for the next push */
} dpu_xfer_flags_t;

/* A symbol of the loaded program: its address as the DPU sees it and its size. */
struct dpu_symbol_t {
    uint32_t address;
    uint32_t size;
};

#endif
