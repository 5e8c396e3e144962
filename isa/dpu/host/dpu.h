/* isa/dpu/host/dpu.h: the UPMEM SDK host API, implemented by libxpusim-dpu on top of the
 * xpusim DPU model. Written for xpusim from the public SDK documentation of the host API
 * (allocation, load, symbol copies, broadcasts, prepared and pushed transfers, launch, sync,
 * logs, errors), with the SDK's names, so that a host program compiles unchanged:
 *     cc host.c $(pkg-config --cflags --libs xpusim-dpu)
 * Every allocation is one simulated machine (docs/isa/dpu.md "Host API library": options,
 * statistics per launch, what differs from hardware). */
#ifndef XPUSIM_DPU_HOST_DPU_H
#define XPUSIM_DPU_HOST_DPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run statement; on an error print where and which, then exit(EXIT_FAILURE). */
#define DPU_ASSERT(statement)                                                                        \
    do {                                                                                             \
        dpu_error_t __dpu_err = (statement);                                                         \
        if (__dpu_err != DPU_OK) {                                                                   \
            char *__dpu_msg = dpu_error_to_string(__dpu_err);                                        \
            fprintf(stderr, "%s:%d(%s): DPU Error (%s)\n", __FILE__, __LINE__, __func__,             \
                    __dpu_msg ? __dpu_msg : "?");                                                    \
            free(__dpu_msg);                                                                         \
            exit(EXIT_FAILURE);                                                                      \
        }                                                                                            \
    } while (0)

/* Run statement; on an error run on_error (a statement such as `goto end` or `return e`). */
#define DPU_CHECK(statement, on_error)                                                               \
    do {                                                                                             \
        if ((statement) != DPU_OK) {                                                                 \
            on_error;                                                                                \
        }                                                                                            \
    } while (0)

/* dpu_alloc(DPU_ALLOCATE_ALL, ...): every DPU the simulated system has (one rank of 64
 * unless the profile says dpus=N). */
#define DPU_ALLOCATE_ALL ((uint32_t)-1)

/* ---- iteration: DPU_FOREACH(set, dpu) or DPU_FOREACH(set, dpu, index), the same for ranks ---- */
struct dpu_set_iterator_t {
    struct dpu_set_t set, next;
    uint32_t count;
    bool has_next;
    uint32_t pos;
};
struct dpu_set_iterator_t dpu_set_dpu_iterator_from(const struct dpu_set_t *set);
struct dpu_set_iterator_t dpu_set_rank_iterator_from(const struct dpu_set_t *set);
void dpu_set_dpu_iterator_next(struct dpu_set_iterator_t *it);
void dpu_set_rank_iterator_next(struct dpu_set_iterator_t *it);

#define _DPU_SELECT3(_1, _2, NAME, ...) NAME
#define _DPU_FOREACH_X(set, dpu)                                                                     \
    for (struct dpu_set_iterator_t __dpu_it = dpu_set_dpu_iterator_from(&(set));                     \
         __dpu_it.has_next && (((dpu) = __dpu_it.next), 1); dpu_set_dpu_iterator_next(&__dpu_it))
#define _DPU_FOREACH_I(set, dpu, i)                                                                  \
    for (struct dpu_set_iterator_t __dpu_it = dpu_set_dpu_iterator_from(&(set));                     \
         __dpu_it.has_next && (((dpu) = __dpu_it.next), ((i) = __dpu_it.count), 1);                  \
         dpu_set_dpu_iterator_next(&__dpu_it))
#define _DPU_RANK_FOREACH_X(set, rank)                                                               \
    for (struct dpu_set_iterator_t __dpu_rit = dpu_set_rank_iterator_from(&(set));                   \
         __dpu_rit.has_next && (((rank) = __dpu_rit.next), 1); dpu_set_rank_iterator_next(&__dpu_rit))
#define _DPU_RANK_FOREACH_I(set, rank, i)                                                            \
    for (struct dpu_set_iterator_t __dpu_rit = dpu_set_rank_iterator_from(&(set));                   \
         __dpu_rit.has_next && (((rank) = __dpu_rit.next), ((i) = __dpu_rit.count), 1);              \
         dpu_set_rank_iterator_next(&__dpu_rit))
/* Each DPU of set in turn (as a one-DPU set), optionally with its index 0, 1, ... */
#define DPU_FOREACH(set, ...) _DPU_SELECT3(__VA_ARGS__, _DPU_FOREACH_I, _DPU_FOREACH_X, -)(set, __VA_ARGS__)
/* Each rank of set in turn (as a one-rank set), optionally with its index. */
#define DPU_RANK_FOREACH(set, ...)                                                                   \
    _DPU_SELECT3(__VA_ARGS__, _DPU_RANK_FOREACH_I, _DPU_RANK_FOREACH_X, -)(set, __VA_ARGS__)

/* ---- allocation ---- */
/* nr_dpus simulated DPUs (DPU_ALLOCATE_ALL: all), in ranks of 64. profile: NULL or
 * "key=value,..." with xpusim's DPU options (dpus, chip, tasklets, mram, dma_*, bank_penalty,
 * jobs, watchdog); the SDK's own keys (backend, cycleAccurate, nrThreadPerPool...) are
 * accepted and have no effect. The environment variable XPUSIM_DPU_PROFILE is read first. */
dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set);
dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set);
dpu_error_t dpu_free(struct dpu_set_t dpu_set);
dpu_error_t dpu_get_nr_ranks(struct dpu_set_t dpu_set, uint32_t *nr_ranks);
dpu_error_t dpu_get_nr_dpus(struct dpu_set_t dpu_set, uint32_t *nr_dpus);

/* ---- program ---- */
/* Load the DPU ELF at binary_path into every DPU of the allocation (program may be NULL). */
dpu_error_t dpu_load(struct dpu_set_t dpu_set, const char *binary_path, struct dpu_program_t **program);
dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *symbol_name, struct dpu_symbol_t *symbol);

/* ---- memory transfers (symbol + byte offset; WRAM 4-byte, MRAM and IRAM 8-byte aligned) ---- */
dpu_error_t dpu_copy_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, const void *src,
                        size_t length);
dpu_error_t dpu_copy_from(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, void *dst,
                          size_t length);
dpu_error_t dpu_copy_to_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol, uint32_t symbol_offset,
                               const void *src, size_t length);
dpu_error_t dpu_copy_from_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol, uint32_t symbol_offset,
                                 void *dst, size_t length);
dpu_error_t dpu_broadcast_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset,
                             const void *src, size_t length, dpu_xfer_flags_t flags);
/* Remember buffer for each DPU of dpu_set; dpu_push_xfer moves length bytes between each
 * DPU that has one and its buffer. */
dpu_error_t dpu_prepare_xfer(struct dpu_set_t dpu_set, void *buffer);
dpu_error_t dpu_push_xfer(struct dpu_set_t dpu_set, dpu_xfer_t xfer, const char *symbol_name, uint32_t symbol_offset,
                          size_t length, dpu_xfer_flags_t flags);

/* ---- execution ---- */
/* Boot the set's DPUs with their memories as they are. DPU_SYNCHRONOUS returns when every
 * DPU is done; DPU_ASYNCHRONOUS returns at once and the run happens, in order, before the
 * next call that uses the allocation (dpu_sync waits for it and returns its status). */
dpu_error_t dpu_launch(struct dpu_set_t dpu_set, dpu_launch_policy_t policy);
dpu_error_t dpu_sync(struct dpu_set_t dpu_set);
/* done: every DPU of the set has finished; fault: one of them faulted. */
dpu_error_t dpu_status(struct dpu_set_t dpu_set, bool *done, bool *fault);

/* ---- logs: the DPU program's printf output (one DPU) ---- */
dpu_error_t dpu_log_read(struct dpu_set_t dpu_set, FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
