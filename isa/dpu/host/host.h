/* isa/dpu/host/host.h: libxpusim-dpu's internal state (not installed). An allocation is a
 * system: one xpusim machine with the allocated DPUs, the loaded program's image, the ranks
 * and DPU handles the public dpu_set_t values point into, the buffers prepared for the next
 * pushed transfer, and a launch that DPU_ASYNCHRONOUS left to run. The session runner
 * (session.c, `xpusim run FILE.dpuhost`) wraps the command line's machine in a system that
 * does not own it. */
#ifndef XPUSIM_DPU_HOST_HOST_H
#define XPUSIM_DPU_HOST_HOST_H
#include "dpu.h"
#include "../dpu.h"
#include "../../../loaders/loader.h"

#define XDPU_RANK_SIZE 64

struct dpu_t {
    struct dpu_rank_t *rank;
    uint32_t index;  /* the machine's unit */
    void *xfer_buf;  /* prepared for the next dpu_push_xfer */
};

struct dpu_rank_t {
    struct xdpu_system *sys;
    uint32_t first, n; /* DPUs first .. first+n-1 */
};

typedef struct xdpu_system {
    sim_machine *m;
    sim_machine own;       /* the machine, when the system made it */
    int owns_machine;
    ld_image img;
    int loaded;
    char *program;         /* path of the loaded program */
    struct dpu_t *dpus;
    uint32_t ndpus;
    struct dpu_rank_t *ranks;
    struct dpu_rank_t **rank_ptrs;
    uint32_t nranks;
    uint8_t *sel;          /* DPUs of the launch in progress */
    int pending;           /* an asynchronous launch not run yet */
    uint32_t launches;
    uint64_t last_cycles, last_insns;
    FILE *stats;           /* XPUSIM_DPU_STATS */
    int stats_json;
} xdpu_system;

/* The system a set belongs to (NULL: not a valid set). */
xdpu_system *xdpu_system_of(struct dpu_set_t set);
/* Run an asynchronous launch still pending; its status. */
dpu_error_t xdpu_settle(xdpu_system *s);
/* Build a system around an existing machine (the CLI's), not owning it. */
dpu_error_t xdpu_wrap(sim_machine *m, struct dpu_set_t *set);
/* Free what dpu_alloc or xdpu_wrap made. */
void xdpu_system_free(xdpu_system *s);
/* Call f for each DPU of set with ctx; stops at the first error. */
dpu_error_t xdpu_each(struct dpu_set_t set, dpu_error_t (*f)(xdpu_system *s, struct dpu_t *d, void *ctx), void *ctx);

#endif
