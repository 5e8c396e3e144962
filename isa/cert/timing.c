/* isa/cert/timing.c: every number the CERT job-runner model charges time with, and the
 * options that set them. No timing of the CERT firmware, the MicroBlaze, the AXI-MM path,
 * the uC-DMA or the token path is public (reference §2 "Timing numbers"), so each latency
 * is a named option whose default is a plausible estimate, written next to the reason it
 * was chosen; runs print the values they used. One cycle is one uC clock cycle everywhere
 * (array latencies included: cert_array_cfg is in uC cycles too). The semantics (runner.c)
 * only read struct cert_timing, so a calibration against hardware traces (SAVE_TIMESTAMPS,
 * dtrace) changes this file alone. The non-timing switches of the model live here too, so
 * the whole option table is in one place. */
#include <stdio.h>
#include <string.h>
#include "runner.h"

static const char *const cert_spec_choices[] = {"latest", "2025.02", NULL};
static const char *const cert_w32d_choices[] = {"mlir", "spec", NULL};
static const char *const cert_route_choices[] = {"controller", "column", NULL};
static const char *const cert_target_choices[] = {"auto", "aie2ps", "aie4", "aie4-a", "aie4-z", NULL};

const opt_desc cert_options[] = {
    /* ---- machine shape and semantics switches ---- */
    OPT_U("columns", NULL, 1, 64,
          "columns of the partition, one uC per column on aie2ps and two on aie4 (default: as many as the program uses)"),
    /* aiebu without `.target` writes OSABI 0x46 (the "group" ELF) for aie2ps and aie4 alike */
    OPT_C("target", "auto", cert_target_choices,
          "device the control code runs on: auto = the ELF's OSABI (0x46 group ELFs: aie2ps), or aie2ps (one uC per "
          "column), aie4, aie4-a, aie4-z (two uCs per column)"),
    /* ctrlcode addresses are partition-relative and the partition is the host's choice: by
     * default the array model is as wide as the largest aie2ps device (xcve3858, 36 columns),
     * so code written for a wider partition than it has uCs for still finds its tiles */
    OPT_U("array_columns", NULL, 1, 128,
          "columns of the array model (default: -o columns if given, else 36, the xcve3858's width)"),
    OPT_U("rows", "7", 2, 32, "rows per column of the array model (xcve3858: shim, 2 memory-tile rows, 4 core rows)"),
    OPT_U("mem_rows", "2", 0, 8, "memory-tile rows right above the shim"),
    OPT_C("spec", NULL, cert_spec_choices,
          "opcode table the control code is decoded with: 2025.02 (aiebu Feb-2025, 6-byte LOAD_PDI, no opcodes "
          "above 0x1c) or latest (default: 2025.02 for OSABI 0x40 with ABI 0x01/0x02, which only aiebu Feb-2025 "
          "writes; latest otherwise)"),
    OPT_U("preempt", "0", 0, 1,
          "the host's preemption flag: 1 = START_COND_JOB_PREEMPT jobs exist and every PREEMPT point runs its "
          "save then its restore page"),
    OPT_U("strict", "0", 0, 1, "1 = an access to an array register the model does not know stops the run"),
    OPT_C("write32d_flags", "mlir", cert_w32d_choices,
          "WRITE_32_D flag bits: mlir = bit1 address immediate, bit0 value immediate (aiebu's own example and "
          "mlir-aie); spec = bit0 address immediate, bit1 value immediate (the spec's table)"),
    /* aiebu's own sanity.asm (uC 0) waits for tokens of TILE_2_1 and TILE_3_1 without writing
     * any channel CTRL register, and the spec's multi-uC example has uC 1 wait for TILE_0_1:
     * a token goes where its channel's Controller_ID (CTRL bits 15:8, reset 0) sends it. */
    OPT_C("tct_route", "controller", cert_route_choices,
          "which uC a task-completion token reaches: controller = the uC numbered by the channel CTRL register's "
          "Controller_ID (reset value 0); column = the uC of the token's column (aie4: its A uC)"),
    OPT_U("job_slots", "32", 1, 256, "job-table entries per uC (debugger threads)"),
    OPT_U("ucdma_queue", "4", 1, 64, "uC-DMA transfers queued or running per uC before UC_DMA_WRITE_DES blocks"),
    OPT_U("opcode_timeout", "0", 0, UINT64_MAX / 4,
          "stop with a hang report when one opcode has waited this many cycles (0 = off); the firmware's watchdog"),
    /* ---- clock ---- */
    /* 500 MHz: an estimate. The uC is a MicroBlaze-class core beside the shim; such cores run
     * at a few hundred MHz, well below the array's 1.25 GHz (the only public clock figure). */
    OPT_R("uc_mhz", "500", 1, 10000, "uC clock in MHz (one simulated cycle is one uC cycle)"),
    /* ---- firmware cost per opcode class: interpreting one opcode in C on the MicroBlaze
     * (fetch from sDM, switch dispatch, operand unpacking, bookkeeping) is some tens of
     * instructions; the numbers rank the classes by the work the firmware must do. ---- */
    OPT_U("cost_job", "30", 0, 1000000, "cycles for START_JOB*, END_JOB, LAUNCH_JOB, EOF (job-table update)"),
    OPT_U("cost_reg", "10", 0, 1000000, "cycles for MOV, ADD (a register-file update)"),
    OPT_U("cost_axi_write", "15", 0, 1000000, "firmware cycles of WRITE_32, WRITE_32_D, MASK_WRITE_32 (+ AXI latency)"),
    OPT_U("cost_axi_read", "15", 0, 1000000, "firmware cycles of READ_32, READ_32_D, SAVE_REGISTER (+ AXI latency)"),
    OPT_U("cost_poll", "20", 0, 1000000, "firmware cycles of one poll attempt (+ AXI read latency)"),
    OPT_U("cost_ucdma", "40", 0, 1000000, "cycles for UC_DMA_WRITE_DES(_SYNC), WAIT_UC_DMA (descriptor parse, enqueue)"),
    OPT_U("cost_wait", "20", 0, 1000000, "cycles for WAIT_TCTS (actor-table lookup)"),
    OPT_U("cost_barrier", "25", 0, 1000000, "cycles for LOCAL_BARRIER, REMOTE_BARRIER"),
    OPT_U("cost_sched", "10", 0, 1000000, "cycles for YIELD, NOP, SLEEP (before SLEEP's own time)"),
    OPT_U("cost_patch", "50", 0, 1000000, "cycles for APPLY_OFFSET_57, APPLY_OFFSET_PL (64-bit adds on BD words)"),
    OPT_U("cost_load", "100", 0, 1000000,
          "cycles for LOAD_PDI, LOAD_CORES(_CP), LOAD_LAST_PDI, PREEMPT (bookkeeping before the page runs)"),
    OPT_U("cost_trace", "20", 0, 1000000, "cycles for TRACE, SAVE_TIMESTAMPS (a timestamp read and an sDM store)"),
    /* ---- scheduling: a pass looks at the next job-table entry and switches context
     * (8 private registers and a pc): a handful of loads and stores. ---- */
    OPT_U("sched_pass", "12", 0, 1000000, "cycles to dispatch a job (readiness check and context switch)"),
    /* polls are re-tried on every scheduling pass; when the polling job is alone, a pass
     * comes round at most this often (the firmware's loop overhead plus the read). */
    OPT_U("poll_retry", "50", 1, 1000000, "cycles at least between two attempts of one poll"),
    /* ---- AXI-MM from the uC store port to a tile register: through the shim and the
     * column's memory-mapped switch, ~100 ns round trip for a read; a posted write still
     * waits for its response (WRITE_32 is synchronous). ---- */
    OPT_U("axi_write_latency", "40", 0, 1000000, "cycles from a synchronous AXI-MM write's issue to its response"),
    OPT_U("axi_read_latency", "50", 0, 1000000, "cycles from an AXI-MM read's issue to its data"),
    /* ---- uC-DMA (DM2MM): descriptor fetch from sDM and channel start, then one 32-bit
     * word per write beat; register targets take single-beat writes (2 cycles each). ---- */
    OPT_U("ucdma_setup", "30", 0, 1000000, "cycles per uC-DMA descriptor before its first word"),
    OPT_R("ucdma_word", "2", 0, 1000000, "cycles per 32-bit word a uC-DMA descriptor writes"),
    /* ---- page fetch (MM2DM from host DDR into sDM): a DDR read through the NoC is
     * ~0.5 us (250 cycles); 8 bytes per cycle is a 4 GB/s share of the NoC port. ---- */
    OPT_U("page_fetch_fixed", "250", 0, 100000000, "cycles of a page fetch before its first byte"),
    OPT_R("page_fetch_byte", "0.125", 0, 1000000, "cycles per byte of a page fetch (the header's page length)"),
    /* ---- array DMA (cert_array_cfg): a task needs its BD read and its locks acquired
     * (~20 array cycles = 8 uC cycles at 1.25 GHz vs 500 MHz); a channel moves one 32-bit
     * word per array cycle, i.e. 2.5 words per uC cycle. ---- */
    OPT_U("dma_task_setup", "8", 0, 1000000, "cycles from a DMA task leaving its queue to its first word"),
    OPT_R("dma_words_per_cycle", "2.5", 0, 1000000, "array DMA transfer rate, 32-bit words per uC cycle"),
    /* ---- task-completion token: a stream packet routed south through the column's
     * switches to the shim and into the uC's token FIFO: a few switch hops plus the
     * firmware's interrupt entry. Documented nowhere (xdna-emu: a calibration knob). ---- */
    OPT_U("tct_latency", "30", 0, 1000000, "cycles from a task's completion to its token reaching the uC"),
    OPT_END};

/* Option name per cert_class, in enum order (cert.h). */
static const char *const class_option[CC_COUNT] = {
    "cost_job", "cost_reg", "cost_axi_write", "cost_axi_read", "cost_poll", "cost_ucdma",
    "cost_wait", "cost_barrier", "cost_sched", "cost_patch", "cost_load", "cost_trace",
};

const char *cert_class_option(int cls) { return cls >= 0 && cls < CC_COUNT ? class_option[cls] : "?"; }

static int get_u(const sim_opts *o, const char *k, uint64_t *out, char *err, size_t n)
{
    return opt_uint(o, cert_options, k, out, err, n) < 0 ? -1 : 0;
}

int cert_timing_read(const sim_opts *o, cert_timing *t, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    uint64_t v;
    int c;
    for (int i = 0; i < CC_COUNT; i++)
        if (get_u(o, class_option[i], &t->cost[i], err, n))
            return -1;
    if (get_u(o, "sched_pass", &t->sched_pass, err, n) || get_u(o, "poll_retry", &t->poll_retry, err, n) ||
        get_u(o, "axi_write_latency", &t->axi_write, err, n) || get_u(o, "axi_read_latency", &t->axi_read, err, n) ||
        get_u(o, "ucdma_setup", &t->ucdma_setup, err, n) || get_u(o, "page_fetch_fixed", &t->fetch_fixed, err, n) ||
        get_u(o, "dma_task_setup", &t->dma_task_setup, err, n) || get_u(o, "tct_latency", &t->tct_latency, err, n) ||
        get_u(o, "opcode_timeout", &t->opcode_timeout, err, n))
        return -1;
    if (opt_real(o, cert_options, "uc_mhz", &t->uc_mhz, err, n) ||
        opt_real(o, cert_options, "ucdma_word", &t->ucdma_word, err, n) ||
        opt_real(o, cert_options, "page_fetch_byte", &t->fetch_byte, err, n) ||
        opt_real(o, cert_options, "dma_words_per_cycle", &t->dma_words_per_cycle, err, n))
        return -1;
    /* the table's ranges are whole numbers: a rate of 0 would never finish a transfer */
    if (!(t->dma_words_per_cycle > 0)) {
        snprintf(err, n, "-o dma_words_per_cycle=%g: the DMA rate must be above 0 words per cycle",
                 t->dma_words_per_cycle);
        return -1;
    }
    if (get_u(o, "preempt", &v, err, n))
        return -1;
    t->preempt = (int)v;
    if (get_u(o, "strict", &v, err, n))
        return -1;
    t->strict = (int)v;
    if (get_u(o, "job_slots", &v, err, n))
        return -1;
    t->job_slots = (int)v;
    if (get_u(o, "ucdma_queue", &v, err, n))
        return -1;
    t->ucdma_queue = (int)v;
    if (get_u(o, "rows", &v, err, n))
        return -1;
    t->rows = (unsigned)v;
    if (get_u(o, "mem_rows", &v, err, n))
        return -1;
    t->mem_rows = (unsigned)v;
    if (t->mem_rows + 1 >= t->rows) {
        snprintf(err, n, "-o mem_rows=%u: needs at least one core row above the shim (rows=%u)", t->mem_rows, t->rows);
        return -1;
    }
    int r = opt_uint(o, cert_options, "columns", &v, err, n);
    if (r < 0)
        return -1;
    t->columns = r == 1 ? 0 : (unsigned)v; /* 0: from the program */
    r = opt_choice(o, cert_options, "spec", &c, err, n);
    if (r < 0)
        return -1;
    t->spec = r == 1 ? 0 : c == 0 ? CERT_SPEC_LATEST : CERT_SPEC_2502; /* 0: from the program */
    if (opt_choice(o, cert_options, "write32d_flags", &c, err, n))
        return -1;
    t->w32d_mlir = c == 0;
    if (opt_choice(o, cert_options, "tct_route", &c, err, n))
        return -1;
    t->tct_by_column = c == 1;
    if (opt_choice(o, cert_options, "target", &c, err, n))
        return -1;
    static const int targets[] = {-1, CERT_T_AIE2PS, CERT_T_AIE4, CERT_T_AIE4A, CERT_T_AIE4Z};
    t->target = targets[c];
    r = opt_uint(o, cert_options, "array_columns", &v, err, n);
    if (r < 0)
        return -1;
    t->array_columns = r == 1 ? (t->columns ? t->columns : 36) : (unsigned)v;
    return 0;
}

/* Cycles of a page fetch of len bytes (the header's page length; a whole page if 0). */
uint64_t cert_fetch_cycles(const cert_timing *t, uint32_t len)
{
    if (!len || len > CERT_PAGE_SIZE)
        len = CERT_PAGE_SIZE;
    return t->fetch_fixed + (uint64_t)(t->fetch_byte * (double)len + 0.999999);
}

/* Cycles a uC-DMA chain of nbd descriptors moving words words takes on the engine. */
uint64_t cert_ucdma_cycles(const cert_timing *t, uint32_t nbd, uint64_t words)
{
    return t->ucdma_setup * nbd + (uint64_t)(t->ucdma_word * (double)words + 0.999999);
}

/* SLEEP target microseconds in uC cycles (functional: none, the opcode's own step only). */
uint64_t cert_sleep_cycles(const cert_timing *t, uint32_t us)
{
    return t->functional ? 0 : (uint64_t)((double)us * t->uc_mhz + 0.5);
}

/* The functional model's latencies: each opcode (and each START_JOB or EOF the parser reads)
 * is one step, so cycles count steps and every job still moves time on; dispatching a job,
 * AXI responses, page fetches, uC-DMA descriptors and words, DMA task set-up and token
 * delivery take none. A task moves its words in one step (the rate is finite because the
 * array model refuses an infinite one: any task under 10^18 words takes one cycle). A poll
 * that fails is retried one cycle later at the soonest (poll_retry's minimum), and only after
 * something changed, as in the cycle model. */
void cert_timing_functional(cert_timing *t)
{
    for (int i = 0; i < CC_COUNT; i++)
        t->cost[i] = 1;
    t->sched_pass = 0;
    t->poll_retry = 1;
    t->axi_write = t->axi_read = 0;
    t->ucdma_setup = 0;
    t->ucdma_word = 0;
    t->fetch_fixed = 0;
    t->fetch_byte = 0;
    t->dma_task_setup = 0;
    t->dma_words_per_cycle = 1e18;
    t->tct_latency = 0;
    t->functional = 1;
}

void cert_timing_latencies(cert_timing *t, const cert_timing *from)
{
    memcpy(t->cost, from->cost, sizeof t->cost);
    t->sched_pass = from->sched_pass;
    t->poll_retry = from->poll_retry;
    t->axi_write = from->axi_write;
    t->axi_read = from->axi_read;
    t->ucdma_setup = from->ucdma_setup;
    t->ucdma_word = from->ucdma_word;
    t->fetch_fixed = from->fetch_fixed;
    t->fetch_byte = from->fetch_byte;
    t->dma_task_setup = from->dma_task_setup;
    t->dma_words_per_cycle = from->dma_words_per_cycle;
    t->tct_latency = from->tct_latency;
    t->functional = from->functional;
}
