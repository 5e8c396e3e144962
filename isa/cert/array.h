/* isa/cert/array.h: the part of the AIE2PS array that control code drives, seen through its
 * AXI-MM register space (addr = col << 25 | row << 20 | offset, partition-relative): shim
 * and memory-tile DMA channels with their 4-deep task queues, buffer descriptors, task
 * completion after a modelled transfer time, task-completion tokens (TCTs), locks, core
 * control, tile data memories. The job-runner (runner.c) calls it for every AXI access and
 * uC-DMA word and asks it for the next completion; the array knows nothing of jobs. Every
 * latency is a field of cert_array_cfg, filled from named options. */
#ifndef XPUSIM_CERT_ARRAY_H
#define XPUSIM_CERT_ARRAY_H
#include <stdint.h>
#include <stddef.h>

typedef struct cert_array cert_array;

/* Tasks that may wait behind the running one on a DMA channel (aie-rt XAIE_DMA_MAX_QUEUE_SIZE). */
#define CERT_ARRAY_QUEUE_DEPTH 4

typedef struct cert_array_cfg {
    int target;                 /* cert_target */
    unsigned columns;           /* columns in the partition */
    unsigned rows;              /* rows per column (aie2ps xcve3858: 7: shim, 2 mem, 4 core) */
    unsigned mem_rows;          /* memory-tile rows right above the shim (aie2ps: 2) */
    int strict;                 /* an access to an unmodelled register is an error */
    /* Time, in uC cycles. */
    uint64_t dma_task_setup;    /* from a task leaving the queue head to its first word */
    double dma_words_per_cycle; /* DMA transfer rate, 32-bit words per uC cycle */
    int opaque;                 /* the target's register map is not public (aie4): every
                                 * access answers CERT_AX_OPAQUE and changes nothing */
} cert_array_cfg;

/* A task-completion token as it leaves the tile (the runner adds the path latency). */
typedef struct cert_token {
    uint32_t col, row;          /* source tile */
    uint32_t actor;             /* channel actor id (S2MM n = n, MM2S n = 6 + n) */
    uint32_t controller;        /* the channel CTRL register's Controller_ID (bits 15:8) */
    uint64_t cycle;             /* when the task completed */
} cert_token;

/* Outcome of an access. */
enum {
    CERT_AX_OK = 0,
    CERT_AX_UNMODELLED = 1,     /* not modelled: logged (warning); an error when strict */
    CERT_AX_DROPPED = 2,        /* a task pushed onto a full queue: dropped, as the hardware does */
    CERT_AX_OPAQUE = 3,         /* no public register map for this target: counted, reads 0 */
    CERT_AX_BAD = -1            /* outside the partition or misaligned: always an error */
};

/* NULL if cfg is out of range: columns 1..128, rows 1..32, mem_rows < rows, a positive
 * finite dma_words_per_cycle. Every target gets the AIE2PS register map unless cfg->opaque
 * says its map is not public (AIE4); strict is kept for the caller: the array answers CERT_AX_UNMODELLED either way. */
cert_array *cert_array_new(const cert_array_cfg *cfg);
void cert_array_free(cert_array *a);
/* New DMA timing from now on (the end of a fast-forward: tasks already running keep the
 * completion they were given). */
void cert_array_set_timing(cert_array *a, uint64_t dma_task_setup, double dma_words_per_cycle);

/* One 32-bit AXI-MM access at cycle now. msg (may be NULL) gets one line explaining any
 * result other than CERT_AX_OK ("push to full task queue of TILE_2_1 MM2S_0: dropped"). */
int cert_array_write(cert_array *a, uint64_t now, uint32_t addr, uint32_t value, char *msg, size_t n);
int cert_array_read(cert_array *a, uint64_t now, uint32_t addr, uint32_t *value, char *msg, size_t n);
/* An access at cycle now sees the completions due at or before now only once
 * cert_array_advance(now) has run: call it before the accesses of each cycle. A push at now
 * onto an idle channel starts its task at now. Reading a lock request address (tile base
 * 0x40000 core, 0xC000 shim, 0xD0000 memory tile, + id * 0x400, + 0x200 for acquire,
 * + (value & 0x7F) << 2) performs the request: bit 0 of the value read is 1 on success. A
 * read of anything but CERT_AX_OK gives *value 0. */

/* The earliest cycle at which a queued task completes, or UINT64_MAX if none is pending. */
uint64_t cert_array_next_event(const cert_array *a);
/* Complete every task due at or before now, in time order (ties: by column, row, channel index, then S2MM before MM2S);
 * for each one whose Enable_Token_Issue bit was set, call emit. Returns the number done. */
int cert_array_advance(cert_array *a, uint64_t now, void (*emit)(void *ctx, const cert_token *t), void *ctx);

/* Debugger and hang reports: one line per busy or non-empty DMA channel (queue contents,
 * running task, when it completes), and per lock with a non-zero value. */
void cert_array_describe(const cert_array *a, char *buf, size_t n);
/* What the register at addr is, for a hang report on a poll of it ("an acquire request of
 * TILE_0_3 lock 14 (-1), lock value 0; ..."): 1 with buf filled, 0 when nothing to add.
 * Touches nothing (no tile is allocated). */
int cert_array_explain(const cert_array *a, uint32_t addr, char *buf, size_t n);
/* Statistics. tasks_pushed counts accepted pushes (a dropped push is in tasks_dropped only); tokens
 * counts completed tasks whose Enable_Token_Issue was set. */
typedef struct cert_array_stats {
    uint64_t tasks_pushed, tasks_dropped, tasks_done, tokens, words_moved;
    uint64_t unmodelled_reads, unmodelled_writes;
} cert_array_stats;
void cert_array_get_stats(const cert_array *a, cert_array_stats *s);
/* A hash (FNV-1a 64) of the array's architectural state: every touched tile's BD words,
 * lock values, channel CTRL and queue registers, queued and running task counts, overflow
 * bits and storage contents -- not when anything happened (the functional mode's check). */
uint64_t cert_array_hash(const cert_array *a);

#endif
