/* isa/dpu/machine.c: the UPMEM DPU as an xpusim machine. Each DPU is one unit with its
 * own IRAM (predecoded at load), WRAM, MRAM and 256 atomic bits; its tasklets are the
 * unit's threads. Timing (reference §3): the revolver lets a tasklet issue at most once
 * every 11 cycles and the DPU at most once per cycle; taken branches, carries and load-use
 * cost nothing; DMA goes through one engine per DPU, serialised, latency alpha + beta x bytes,
 * the issuing tasklet sleeping until it is done. DPUs never interact, so the core may run
 * them on several host threads (-o jobs=N). isa_dpu is defined here. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "dpu.h"
#include "func.h"
#include "func_rec.h"
#include "../isa.h"
#include "../../core/sched.h"
#include "../../core/debug.h"

/* DPUs whose memories are the machine's shared, named spaces (the others' are their own) */
#define DPU_NAMED_DPUS 5

static const opt_desc dpu_options[] = {
    OPT_U("dpus", "1", 1, 2560, "number of DPUs (a rank is 64, a full system 2560); each has its own MRAM"),
    OPT_U("tasklets", NULL, 1, 24, "hardware threads per DPU (default: 24 on v1a, 16 on v1b, at most that; "
                                   "the program's NR_TASKLETS if it has one)"),
    OPT_C("chip", "v1a", ((const char *const[]){"v1a", "v1b", NULL}),
          "v1a (350 MHz, 24 tasklets, 4096-instruction IRAM, 64 KB WRAM) or v1b (400 MHz, 16, 3968, 62 KB)"),
    OPT_U("mram", "64", 1, 64, "MRAM size per DPU in MB (a power of two)"),
    OPT_R("dma_read_alpha", "77", 0, 1000000, "MRAM->WRAM DMA fixed latency, cycles"),
    OPT_R("dma_read_beta", "0.5", 0, 1000000, "MRAM->WRAM DMA cycles per byte"),
    OPT_R("dma_write_alpha", "61", 0, 1000000, "WRAM->MRAM DMA fixed latency, cycles"),
    OPT_R("dma_write_beta", "0.5", 0, 1000000, "WRAM->MRAM DMA cycles per byte"),
    OPT_U("bank_penalty", "0", 0, 1, "1: register-file bank penalty (uPIMulator's rule; unconfirmed by hardware)"),
    OPT_U("func_quantum", "1", 1, 1u << 30,
          "-o timing=none: instructions a tasklet issues before the next running one takes over (1: round robin, "
          "the revolver's order; larger is faster but changes the interleaving programs with races see)"),
    OPT_END};

static const char *const dpu_stall_names[] = {"dma", "revolver", "bank", NULL};
static const char *const dpu_counter_names[] = {"dma_read_bytes", "dma_write_bytes"};

/* The machine's state: dpu.h's, and what only this file keeps. */
typedef struct dpu_machine_x {
    dpu_machine dm;     /* first: m->isa_state points at both */
    /* every DPU's MRAM, WRAM and IRAM bytes, in one anonymous mapping (dpu_create): the
     * system gives zero pages on first touch, so a DPU costs nothing until its program
     * touches its memory (2,560 DPUs' MRAM is not written with zeros at set-up, and a
     * DPU's untouched MRAM takes no host memory), and making or freeing it is one call */
    uint8_t *mem;
    size_t mem_bytes, per_dpu;
    int loads;          /* programs loaded so far: the first finds every byte zero */
    uint64_t quantum;   /* -o func_quantum */
    dpu_fn_state *fn;   /* the functional mode's records (func_rec.c), NULL if none */
} dpu_machine_x;

static dpu_machine *DM(const sim_machine *m) { return m->isa_state; }
static dpu_machine_x *DMX(const sim_machine *m) { return m->isa_state; }
static dpu_unit *DU(const sim_unit *u) { return u->isa; }

static void dpu_destroy(sim_machine *m)
{
    dpu_machine *dm = DM(m);
    if (!dm)
        return;
    /* units is NULL when create failed before making them (a bad option value) */
    for (int i = 0; dm->units && i < dm->ndpus; i++) {
        dpu_unit *d = &dm->units[i];
        /* wram/mram/iram, the machine's or the DPU's own, are freed by the core */
        mem_space_free(&d->atomic_space);
        if (d->iram_own) {
            free(d->iram);
            free(d->iram_seen);
        }
    }
    dpu_session_free(dm->session);
    free(dm->shared_iram);
    free(dm->shared_raw);
    free(dm->units);
    dpu_machine_x *x = DMX(m);
    dpu_fn_free(x->fn);
    if (x->mem)
        munmap(x->mem, x->mem_bytes);
    free(x);
    m->isa_state = NULL;
}

/* Set up DPU i (a sim_par_fn: ctx is the machine): its spaces, each a slice of the one
 * mapping, and its counters. DPUs below DPU_NAMED_DPUS add the machine's spaces. */
static int create_dpu(void *ctx, int i, char *err, size_t errlen)
{
    sim_machine *m = ctx;
    dpu_machine_x *x = DMX(m);
    dpu_machine *dm = &x->dm;
    dpu_unit *d = &dm->units[i];
    sim_unit *u = &m->units[i];
    d->dm = dm;
    d->index = i;
    d->ntasklets = dm->ntasklets;
    d->time_mode = 1;
    u->isa = d;
    char sfx[16] = "";
    if (i)
        snprintf(sfx, sizeof sfx, ".%d", i);
    snprintf(d->space_names[0], sizeof d->space_names[0], "wram%s", sfx);
    snprintf(d->space_names[1], sizeof d->space_names[1], "mram%s", sfx);
    snprintf(d->space_names[2], sizeof d->space_names[2], "iram%s", sfx);
    /* the first five DPUs' spaces are the machine's, by name (iram, wram, mram, then
     * iram.1, wram.1...: what --mem-hash and the space listings have always shown); the
     * others are each DPU's own (sim_unit_add_space), found as "wram.1234" */
    if (i < DPU_NAMED_DPUS) {
        d->iram_space = sim_add_space(m, d->space_names[2], 8, 8, 0);
        d->wram = sim_add_space(m, d->space_names[0], 1, 4, 0);
        d->mram = sim_add_space(m, d->space_names[1], 1, 8, 0);
    } else {
        d->wram = sim_unit_add_space(m, u, "wram", d->space_names[0], 1, 4, 0);
        d->mram = sim_unit_add_space(m, u, "mram", d->space_names[1], 1, 8, 0);
        d->iram_space = sim_unit_add_space(m, u, "iram", d->space_names[2], 8, 8, 0);
    }
    if (!d->wram || !d->mram || !d->iram_space) {
        snprintf(err, errlen, "out of memory for DPU %d", i);
        return -1;
    }
    mem_space_init(&d->atomic_space, "atomic", 1, 1, 0);
    uint8_t *mem = x->mem + x->per_dpu * (size_t)i, *wmem = mem + dm->mram_size, *imem = wmem + dm->wram_size;
    mem_region *rw = mem_add_ram_ext(d->wram, "wram", 0, dm->wram_size, MEM_RW, wmem);
    mem_region *rm = mem_add_ram_ext(d->mram, "mram", 0, dm->mram_size, MEM_RW, mem);
    mem_region *ri = mem_add_ram_ext(d->iram_space, "iram", 0, dm->iram_words, MEM_RWX, imem);
    mem_region *ra = mem_add_ram_ext(&d->atomic_space, "atomic", 0, 256, MEM_RW, d->atomic);
    d->iram = dm->shared_iram;
    if (!rw || !rm || !ri || !ra) {
        snprintf(err, errlen, "out of memory for DPU %d (try -o mram=8)", i);
        return -1;
    }
    d->wram_p = rw->data;
    d->mram_p = rm->data;
    d->iram_p = ri->data;
    d->mram_mask = dm->mram_size - 1;
    if (sim_unit_counters(u, dpu_counter_names, DPU_CNT_DMA_N)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int dpu_create(sim_machine *m, char *err, size_t errlen)
{
    const opt_desc *t = dpu_options;
    int chip;
    uint64_t ndpus, ntask = 0, mram_mb, bank, quantum;
    int rc_task;
    if (opt_choice(&m->opts, t, "chip", &chip, err, errlen) || opt_uint(&m->opts, t, "dpus", &ndpus, err, errlen) ||
        (rc_task = opt_uint(&m->opts, t, "tasklets", &ntask, err, errlen)) < 0 ||
        opt_uint(&m->opts, t, "mram", &mram_mb, err, errlen) || opt_uint(&m->opts, t, "bank_penalty", &bank, err, errlen) ||
        opt_uint(&m->opts, t, "func_quantum", &quantum, err, errlen))
        return -1;
    uint64_t max_task = chip ? 16 : 24; /* the chip's, below the declared 24 */
    if (rc_task == 1)
        ntask = max_task;
    else if (ntask > max_task) {
        snprintf(err, errlen, "option tasklets=%llu: a %s DPU has at most %llu", (unsigned long long)ntask,
                 chip ? "v1b" : "v1a", (unsigned long long)max_task);
        return -1;
    }
    if (mram_mb & (mram_mb - 1)) {
        snprintf(err, errlen, "-o mram=%llu: must be a power of two (MB)", (unsigned long long)mram_mb);
        return -1;
    }
    dpu_machine_x *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->isa_state = x;
    dpu_machine *dm = &x->dm;
    x->quantum = quantum;
    dm->v1b = chip;
    dm->ndpus = (int)ndpus;
    dm->ntasklets = (int)ntask;
    dm->bank_penalty = (int)bank;
    dm->mram_size = (uint32_t)(mram_mb << 20);
    dm->wram_size = chip ? 63488 : 65536;
    dm->iram_words = chip ? 3968 : 4096;
    if (opt_real(&m->opts, t, "dma_read_alpha", &dm->dma_ra, err, errlen) ||
        opt_real(&m->opts, t, "dma_read_beta", &dm->dma_rb, err, errlen) ||
        opt_real(&m->opts, t, "dma_write_alpha", &dm->dma_wa, err, errlen) ||
        opt_real(&m->opts, t, "dma_write_beta", &dm->dma_wb, err, errlen))
        return -1;
    for (int w = 0; w < 2; w++)
        for (uint32_t k = 0; k < 256; k++)
            dm->dma_lat[w][k] = dpu_dma_cycles(dm, w, 8 * (k + 1));
    if (sim_add_units(m, dm->ndpus, dm->ntasklets, "dpu%d", chip ? 400e6 : 350e6)) {
        snprintf(err, errlen, "cannot create %d DPUs", dm->ndpus);
        return -1;
    }
    dm->units = calloc((size_t)dm->ndpus, sizeof *dm->units);
    /* the functional records: the functional loop's, and the cycle model's round replay's
     * (fast_round.c); NULL (out of memory): both do without */
    x->fn = dm->fn = dpu_fn_create(dm->ndpus);
    if (!dm->units) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* MRAM, then WRAM, then IRAM, each DPU's at a multiple of 64 bytes */
    x->per_dpu = ((size_t)dm->mram_size + dm->wram_size + 8 * (size_t)dm->iram_words + 63) & ~(size_t)63;
    x->mem_bytes = x->per_dpu * (size_t)dm->ndpus;
    x->mem = mmap(NULL, x->mem_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (x->mem == MAP_FAILED) {
        x->mem = NULL;
        snprintf(err, errlen, "out of memory for %d DPUs of %u MB MRAM (try -o mram=8)", dm->ndpus,
                 dm->mram_size >> 20);
        return -1;
    }
    /* a record for every 16-bit pc (DPU_IRAM_RECS): the fast loop's fetch has no bounds check */
    dm->shared_iram = calloc(DPU_IRAM_RECS, sizeof *dm->shared_iram);
    dm->shared_raw = calloc(dm->iram_words, 8);
    if (!dm->shared_iram || !dm->shared_raw) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k <= dm->iram_words; k++)
        dpu_predecode(0, &dm->shared_iram[k]); /* zero words are illegal: running off the end faults */
    /* the named DPUs add the machine's spaces (a list): on this thread; the others touch
     * only their own state, on the -o jobs host threads (their first touch of memory is
     * most of a 2,560-DPU machine's set-up) */
    const int named = dm->ndpus < DPU_NAMED_DPUS ? dm->ndpus : DPU_NAMED_DPUS;
    for (int i = 0; i < named; i++)
        if (create_dpu(m, i, err, errlen))
            return -1;
    return sim_par_for(m, named, dm->ndpus, create_dpu, m, err, errlen);
}

/* A host-session file (host/session.c) is recognised by its name, FILE.dpuhost. */
static int is_session(const ld_image *img)
{
    size_t n = strlen(img->path);
    return img->fmt == LD_RAW && n > 8 && !strcmp(img->path + n - 8, ".dpuhost");
}

static int dpu_probe(const ld_image *img)
{
    return (img->fmt == LD_ELF && img->machine == 0xF5) || is_session(img) ? 100 : 0;
}

/* Where an ELF address lives: 0x80000000 IRAM (bytes, 8 per instruction), 0x08000000 MRAM,
 * 0xF0000000 atomic bits, below 0x08000000 WRAM (dpu.lds; ABI "virtual address offset"). */
static mem_space *place(dpu_unit *d, uint64_t vaddr, uint64_t *addr)
{
    if (vaddr >= 0xF0000000u) { *addr = vaddr - 0xF0000000u; return &d->atomic_space; }
    if (vaddr >= 0x80000000u) { *addr = (vaddr - 0x80000000u) / 8; return d->iram_space; }
    if (vaddr >= 0x08000000u) { *addr = vaddr - 0x08000000u; return d->mram; }
    *addr = vaddr;
    return d->wram;
}

/* DPU d's state at its boot, its tasklets beyond ntask disabled; the caller wakes it at
 * cycle 0 (sim_unit_wake: the queue, on the loop's thread). */
static void boot_dpu(sim_unit *u, dpu_unit *d, int ntask)
{
    memset(d->t, 0, sizeof d->t);
    for (int k = 0; k < DPU_NTHREADS_MAX; k++)
        dpu_reset_regs(&d->t[k], k);
    memset(d->atomic, 0, sizeof d->atomic);
    for (int k = 0; k < u->nthreads; k++) {
        u->threads[k].state = SIM_T_SLEEP;
        u->threads[k].ready_at = SIM_NEVER;
        d->t[k].wait = DPU_W_STOPPED;
    }
    /* the host boots tasklet 0 at PC 0 (crt0 boots the others) */
    d->pend_n = d->pend_head = 0;
    d->pend_next = SIM_NEVER;
    d->dma_free = 0;
    d->dma_nlog = 0;
    d->run = 1;
    d->t[0].wait = DPU_W_NONE;
    /* tasklet 0 runs from cycle 0: its first issue, at cycle 0, waited for nothing */
    d->t[0].last_issue = d->t[0].seg_start = (uint64_t)-1;
    d->t[0].seg_open = 1;
    u->threads[0].state = SIM_T_READY;
    u->threads[0].started = 1;
    u->threads[0].ready_at = 0;
    for (int k = ntask; k < u->nthreads; k++)
        u->threads[k].state = SIM_T_DISABLED;
}

/* Predecode DPU d's IRAM; the first DPU loaded fills the machine's shared copy, the others
 * reuse it when their IRAM is the same (the usual case: one program on every DPU). */
static void predecode_all(dpu_unit *d, int fresh, dpu_fn_state *fn)
{
    dpu_machine *dm = d->dm;
    if (d->index == 0) {
        memcpy(dm->shared_raw, d->iram_p, 8 * (size_t)dm->iram_words);
        for (uint32_t k = 0; k < dm->iram_words; k++)
            dpu_predecode(mem_ld64le(d->iram_p + 8 * (size_t)k), &dm->shared_iram[k]);
        dpu_fn_build_shared(fn, dm); /* (here: one host thread) */
    }
    /* on the first load the other DPUs' IRAM is DPU 0's (the same words on zeros): no need
     * to compare (and so read) it here, serially; each run compares it anyway */
    if (!fresh || d->index == 0 || d->iram_own)
        dpu_iram_sync(d);
}

/* The size of a DPU's space sp, in its units. */
static uint64_t space_units(const dpu_unit *d, const mem_space *sp)
{
    return sp == d->wram ? d->dm->wram_size : sp == d->mram ? d->dm->mram_size : sp == d->iram_space ? d->dm->iram_words : 256;
}

/* Write a program's n bytes (a whole number of the space's units) at addr of DPU d's space
 * sp; -1 if they do not fit. On the machine's first load every byte is still zero (a new
 * mapping) and the 4 KB pieces that are all zero are left out: writing them would only
 * make the system hand the DPU pages of zeros it already reads as zeros (a program's stacks
 * are mostly zeros in the file), serially, for each of thousands of DPUs. */
static int load_bytes(const dpu_unit *d, mem_space *sp, uint64_t addr, const uint8_t *src, uint64_t n, int fresh)
{
    static const uint8_t zero[4096];
    const uint64_t unit = sp->addr_unit;
    if (!fresh)
        return mem_host_write(sp, addr, src, n);
    if (n % unit || addr > space_units(d, sp) || n / unit > space_units(d, sp) - addr)
        return -1;
    for (uint64_t o = 0; o < n; o += sizeof zero) {
        uint64_t k = n - o < sizeof zero ? n - o : sizeof zero;
        if (memcmp(src + o, zero, k) && mem_host_write(sp, addr + o / unit, src + o, k))
            return -1;
    }
    return 0;
}

/* One program load (dpu_load): what every DPU's share of it needs. */
typedef struct dpu_load_job {
    sim_machine *m;
    const ld_image *img;
    int fresh;               /* the machine's first load: every byte still zero */
    size_t raw_words;        /* a raw IRAM image's instructions (0: an ELF) */
    int ntask;               /* tasklets that exist */
    const ld_symbol *cps;    /* CLOCKS_PER_SEC, NULL if none */
} dpu_load_job;

/* DPU i's share of a load (a sim_par_fn: ctx is the job): the program's bytes into its
 * memories, its IRAM predecoded, its boot state. It touches only DPU i, except DPU 0,
 * whose predecoding fills the machine's shared copy: load_all runs that one first. */
static int load_dpu(void *ctx, int i, char *err, size_t errlen)
{
    const dpu_load_job *job = ctx;
    sim_machine *m = job->m;
    const ld_image *img = job->img;
    dpu_machine *dm = DM(m);
    dpu_unit *d = &dm->units[i];
    if (img->fmt != LD_ELF) {
        if (job->raw_words) /* (an empty file may have no bytes to point at) */
            memcpy(d->iram_p, img->file, job->raw_words * 8);
    } else {
        d->ntasklets = job->ntask;
        for (int s = 0; s < img->nsegs; s++) {
            const ld_segment *g = &img->segs[s];
            if (g->type != 1 || !g->filesz)
                continue; /* PT_LOAD with contents; NOBITS parts are already zero */
            uint64_t addr;
            mem_space *sp = place(d, g->vaddr, &addr);
            if (load_bytes(d, sp, addr, g->data, g->filesz, job->fresh)) {
                snprintf(err, errlen, "%s: segment at 0x%llx (%llu bytes) does not fit in %s", img->path,
                         (unsigned long long)g->vaddr, (unsigned long long)g->filesz, sp->name);
                return -1;
            }
        }
        /* initialised MRAM sections outside the LOAD segments (.mram PROGBITS) */
        for (int s = 0; s < img->nsecs; s++) {
            const ld_section *c = &img->secs[s];
            if (c->data && c->size && c->addr >= 0x08000000u && c->addr < 0x80000000u &&
                !strncmp(c->name, ".mram", 5)) {
                uint64_t addr;
                mem_space *sp = place(d, c->addr, &addr);
                if (load_bytes(d, sp, addr, c->data, c->size, job->fresh)) {
                    snprintf(err, errlen, "%s: section %s does not fit in MRAM", img->path, c->name);
                    return -1;
                }
            }
        }
        /* CLOCKS_PER_SEC (.dpu_host, 4 bytes, 0 in the binary): the SDK host library writes
         * the DPU clock rate there at load; programs divide cycle counts by it */
        const ld_symbol *cps = job->cps;
        if (cps && cps->size == 4 && cps->value < dm->wram_size) {
            uint8_t hz[4];
            uint64_t addr;
            mem_st32le(hz, (uint32_t)m->units[i].clock_hz);
            mem_space *sp = place(d, cps->value, &addr);
            if (sp == d->wram && mem_host_write(sp, addr, hz, 4)) {
                snprintf(err, errlen, "%s: CLOCKS_PER_SEC at 0x%llx is outside WRAM", img->path,
                         (unsigned long long)cps->value);
                return -1;
            }
        }
    }
    predecode_all(d, job->fresh, DMX(m)->fn);
    boot_dpu(&m->units[i], d, job->ntask);
    return 0;
}

/* Every DPU's share of a load: DPU 0 first (the shared predecoded copy the others compare
 * with), the others on the -o jobs host threads (their copies' first touch of memory is
 * most of a 2,560-DPU load), then each DPU's boot on this thread, in order (the queue). */
static int load_all(dpu_load_job *job, char *err, size_t errlen)
{
    sim_machine *m = job->m;
    dpu_machine *dm = DM(m);
    if (load_dpu(job, 0, err, errlen) || sim_par_for(m, 1, dm->ndpus, load_dpu, job, err, errlen))
        return -1;
    for (int i = 0; i < dm->ndpus; i++)
        sim_unit_wake(m, &m->units[i], 0);
    return 0;
}

static int dpu_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    dpu_machine *dm = DM(m);
    if (is_session(img)) {
        if (dm->session) {
            snprintf(err, errlen, "%s: a host session is already loaded", img->path);
            return -1;
        }
        return dpu_session_start(m, img->path, &dm->session, err, errlen);
    }
    const int fresh = DMX(m)->loads++ == 0; /* every byte of every DPU is still zero */
    if (img->fmt != LD_ELF) {
        /* raw words: an IRAM image of 8-byte little-endian instructions */
        size_t n = img->file_size / 8;
        if (img->file_size % 8 || n > dm->iram_words) {
            snprintf(err, errlen, "%s: a raw DPU program is 8-byte instructions, at most %u of them (%zu bytes given)",
                     img->path, dm->iram_words, img->file_size);
            return -1;
        }
        dpu_load_job job = {m, img, fresh, n, dm->ntasklets, NULL};
        return load_all(&job, err, errlen);
    }
    if (img->machine != 0xF5 || img->elfclass != 1 || img->big_endian) {
        snprintf(err, errlen, "%s: not a DPU ELF (need ELF32 little-endian, e_machine 0xF5; got machine 0x%x)",
                 img->path, img->machine);
        return -1;
    }
    /* without -o tasklets, the program's NR_TASKLETS says how many tasklets exist: the
     * others are disabled (they could never be booted by its bootstrap anyway) */
    const ld_symbol *nt = ld_symbol_find(img, "NR_TASKLETS");
    const ld_symbol *end = ld_symbol_find(img, "__sys_end");
    dm->built_tasklets = nt && nt->value <= 1024 ? (int)nt->value : 0;
    dm->exit_pc = end && end->value >= 0x80000000u && end->value < 0x80000000u + 8ull * dm->iram_words
                      ? (int)((end->value - 0x80000000u) / 8)
                      : -1;
    const ld_symbol *cps = ld_symbol_find(img, "CLOCKS_PER_SEC");
    int ntask = dm->ntasklets;
    if (nt && !opt_get(&m->opts, "tasklets", NULL) && nt->value >= 1 && nt->value <= (uint64_t)dm->ntasklets)
        ntask = (int)nt->value;
    dpu_load_job job = {m, img, fresh, 0, ntask, cps};
    return load_all(&job, err, errlen);
}

static uint64_t dpu_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    if (m->functional) /* -o timing=none (func.c) */
        return dpu_func_run(m, u, DU(u), now, horizon, DMX(m)->quantum, DMX(m)->fn);
    return dpu_run(m, u, DU(u), now, horizon);
}

/* ---- printf: the runtime's MRAM stdout buffer, decoded as the SDK host library does ---- */
static const ld_symbol *sym(const sim_machine *m, const char *name)
{
    return m->image ? ld_symbol_find(m->image, name) : NULL;
}

static dpu_unit *unit_of_any(sim_machine *m, int unit)
{
    dpu_machine *dm = DM(m);
    return dm && unit >= 0 && unit < dm->ndpus ? &dm->units[unit] : NULL;
}

/* Print DPU d's printf records; buf and st: the program's __stdout_buffer and
 * __stdout_buffer_state symbols (looked up once for all DPUs). */
static void drain_stdout(const ld_symbol *buf, const ld_symbol *st, dpu_unit *d, FILE *out)
{
    if (!buf || !st || buf->value < 0x08000000u || buf->value >= 0x80000000u || st->value >= 0x08000000u)
        return;
    uint32_t wp = 0;
    uint8_t hw[8];
    if (mem_host_read(d->wram, st->value, hw, 8))
        return;
    wp = mem_ld32le(hw);
    uint32_t base = (uint32_t)(buf->value - 0x08000000u), size = (uint32_t)buf->size;
    if (!size || wp > size || (uint64_t)base + size > d->dm->mram_size)
        return;
    dpu_printf_buffer(out, d->mram_p + base, wp);
}

static void dpu_finish(sim_machine *m)
{
    dpu_machine *dm = DM(m);
    if (!dm || !m->out)
        return;
    if (dm->session) { /* the session's log lines print what the program printed */
        dpu_session_finish(m, dm->session);
        return;
    }
    const ld_symbol *buf = sym(m, "__stdout_buffer"), *st = sym(m, "__stdout_buffer_state");
    for (int i = 0; i < dm->ndpus; i++) {
        if (dm->ndpus > 1 && buf) {
            /* several DPUs: say whose output it is, as dpu_log_print does per DPU */
            uint8_t hw[4];
            if (st && !mem_host_read(dm->units[i].wram, st->value, hw, 4) && mem_ld32le(hw))
                fprintf(m->out, "=== DPU %d ===\n", i);
        }
        drain_stdout(buf, st, &dm->units[i], m->out);
    }
    fflush(m->out);
}

/* ---- host API support (isa/dpu/host/): launch again with memory kept, read a log ---- */

/* The own predecoded copy exec.c's dpu_iram_sync makes (ldmai, host writes) has the
 * program's records and its guard; the fast loop needs one for every 16-bit pc. A new
 * zeroed allocation (untouched pages cost no memory) takes them over once. */
int dpu_iram_widen(dpu_unit *d)
{
    if (!d->iram_own || d->iram_full)
        return 0;
    dpu_insn *w = calloc(DPU_IRAM_RECS, sizeof *w);
    if (!w)
        return -1;
    memcpy(w, d->iram, sizeof *w * ((size_t)d->dm->iram_words + 1));
    free(d->iram);
    d->iram = w;
    d->iram_full = 1;
    return 0;
}

/* A new launch of the DPUs sel[] selects (all when sel is NULL), as the SDK host library's
 * dpu_launch does on hardware: every selected DPU is booted again (tasklet 0 at PC 0, RUN
 * bits, atomic bits, DMA engine, fault and performance counter cleared) with IRAM, WRAM and
 * MRAM as the host left them. Simulated time starts over at cycle 0 and the statistics of
 * the selected DPUs with it, so each launch reports its own cycles. The DPUs not selected
 * stay halted (their memories and last statistics untouched). sim_restart resets the
 * core's per-run state; this boots the DPUs. */
int dpu_relaunch(sim_machine *m, const uint8_t *sel)
{
    dpu_machine *dm = DM(m);
    if (!dm)
        return -1;
    sim_restart(m, sel);
    for (int i = 0; i < dm->ndpus; i++) {
        sim_unit *u = &m->units[i];
        dpu_unit *d = &dm->units[i];
        if (!u->enabled || (sel && !sel[i]))
            continue;
        d->faulted = 0;
        d->fault_code = 0;
        d->time_base = 0;
        d->time_mode = 1;
        dpu_iram_sync(d); /* the host may have written IRAM since the last launch */
        boot_dpu(u, d, d->ntasklets);
        sim_unit_wake(m, u, 0);
    }
    return 0;
}

/* Print DPU unit's printf records (the runtime's MRAM buffer) to out, as dpu_log_read does.
 * 0 done (also when the program printed nothing), -1 the program has no printf buffer
 * (its printf state without a buffer: the linker dropped an unused printf, as in PrIM's VA),
 * -2 its state is out of range (a corrupted buffer). */
int dpu_log_print(sim_machine *m, int unit, FILE *out)
{
    dpu_unit *d = unit_of_any(m, unit);
    const ld_symbol *buf = sym(m, "__stdout_buffer"), *st = sym(m, "__stdout_buffer_state");
    if (!d)
        return -2;
    if (!buf || !st || buf->value < 0x08000000u || buf->value >= 0x80000000u || st->value >= 0x08000000u)
        return -1;
    uint8_t hw[4];
    if (mem_host_read(d->wram, st->value, hw, 4))
        return -2;
    uint32_t wp = mem_ld32le(hw), base = (uint32_t)(buf->value - 0x08000000u), size = (uint32_t)buf->size;
    if (!size || wp > size || (uint64_t)base + size > d->dm->mram_size)
        return -2;
    dpu_printf_buffer(out, d->mram_p + base, wp);
    return 0;
}

/* tasklets: without -o tasklets, the program's NR_TASKLETS decided (dpu_load) */
static const char *dpu_option_value(const sim_machine *m, const char *name, char *buf, size_t n)
{
    const dpu_machine *dm = m->isa_state;
    if (strcmp(name, "tasklets") || !dm || !dm->ndpus)
        return NULL;
    snprintf(buf, n, "%d", dm->units[0].ntasklets);
    return buf;
}


/* ---- registers ---- */
#define R(n) {n, 32, ISA_REG_THREAD, 0, "general"}
static const isa_reg dpu_regs[] = {
    R("r0"), R("r1"), R("r2"), R("r3"), R("r4"), R("r5"), R("r6"), R("r7"), R("r8"), R("r9"), R("r10"),
    R("r11"), R("r12"), R("r13"), R("r14"), R("r15"), R("r16"), R("r17"), R("r18"), R("r19"), R("r20"),
    R("r21"), R("r22"), R("r23"),
    {"pc", 16, ISA_REG_THREAD, ISA_REG_PC, "special"},
    {"zf", 1, ISA_REG_THREAD, 0, "flags"},
    {"cf", 1, ISA_REG_THREAD, 0, "flags"},
    {"id", 32, ISA_REG_THREAD, ISA_REG_RO, "special"},
    {"d0", 64, ISA_REG_THREAD, 0, "pairs"}, {"d2", 64, ISA_REG_THREAD, 0, "pairs"},
    {"d4", 64, ISA_REG_THREAD, 0, "pairs"}, {"d6", 64, ISA_REG_THREAD, 0, "pairs"},
    {"d8", 64, ISA_REG_THREAD, 0, "pairs"}, {"d10", 64, ISA_REG_THREAD, 0, "pairs"},
    {"d12", 64, ISA_REG_THREAD, 0, "pairs"}, {"d14", 64, ISA_REG_THREAD, 0, "pairs"},
    {"d16", 64, ISA_REG_THREAD, 0, "pairs"}, {"d18", 64, ISA_REG_THREAD, 0, "pairs"},
    {"d20", 64, ISA_REG_THREAD, 0, "pairs"}, {"d22", 64, ISA_REG_THREAD, 0, "pairs"},
    {"run", 32, ISA_REG_UNIT, 0, "control"},
    {"fault", 32, ISA_REG_UNIT, ISA_REG_RO, "control"},
    {"perfcounter", 64, ISA_REG_UNIT, ISA_REG_RO, "control"},
};
#define DPU_NREGS ((int)(sizeof dpu_regs / sizeof dpu_regs[0]))
enum { RI_PC = 24, RI_ZF, RI_CF, RI_ID, RI_D0, RI_RUN = RI_D0 + 12, RI_FAULT, RI_PERF };

static dpu_unit *unit_of(sim_machine *m, int unit)
{
    dpu_machine *dm = DM(m);
    return dm && unit >= 0 && unit < dm->ndpus ? &dm->units[unit] : NULL;
}

static uint64_t counter_value_for_debug(const dpu_unit *d, const sim_machine *m)
{
    const sim_unit *u = &m->units[d->index];
    uint64_t now = u->last_issue == SIM_NEVER ? 0 : u->last_issue;
    if (d->time_mode == 2) {
        uint64_t n = 0;
        for (int i = 0; i < u->nthreads; i++)
            n += u->threads[i].instructions;
        return n - d->time_base;
    }
    return now >= d->time_base ? now - d->time_base : 0;
}

static int dpu_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d || reg < 0 || reg >= DPU_NREGS || thread < 0 || thread >= DPU_NTHREADS_MAX)
        return -1;
    dpu_tasklet *t = &d->t[thread];
    uint64_t v;
    if (reg < 24) v = t->r[reg];
    else if (reg == RI_PC) v = t->pc;
    else if (reg == RI_ZF) v = t->zf;
    else if (reg == RI_CF) v = t->cf;
    else if (reg == RI_ID) v = (uint64_t)thread;
    else if (reg < RI_RUN) { int e = 2 * (reg - RI_D0); v = (uint64_t)t->r[e] << 32 | t->r[e + 1]; }
    else if (reg == RI_RUN) v = d->run;
    else if (reg == RI_FAULT) v = d->faulted ? d->fault_code : 0;
    else v = counter_value_for_debug(d, m);
    unsigned n = (dpu_regs[reg].bits + 7) / 8;
    for (unsigned i = 0; i < n; i++)
        buf[i] = (uint8_t)(v >> (8 * i));
    return 0;
}

static int dpu_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d || reg < 0 || reg >= DPU_NREGS || thread < 0 || thread >= DPU_NTHREADS_MAX)
        return -1;
    if (dpu_regs[reg].flags & ISA_REG_RO)
        return -1;
    unsigned n = (dpu_regs[reg].bits + 7) / 8;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)buf[i] << (8 * i);
    dpu_tasklet *t = &d->t[thread];
    if (reg < 24) t->r[reg] = (uint32_t)v;
    else if (reg == RI_PC) t->pc = (uint16_t)(v < d->dm->iram_words ? v : d->dm->iram_words);
    else if (reg == RI_ZF) t->zf = v & 1;
    else if (reg == RI_CF) t->cf = v & 1;
    else if (reg < RI_RUN) { int e = 2 * (reg - RI_D0); t->r[e] = (uint32_t)(v >> 32); t->r[e + 1] = (uint32_t)v; }
    else if (reg == RI_RUN) d->run = (uint32_t)v & ((1u << d->ntasklets) - 1);
    return 0;
}

static uint64_t dpu_pc_get(sim_machine *m, int unit, int thread)
{
    dpu_unit *d = unit_of(m, unit);
    return d && thread >= 0 && thread < DPU_NTHREADS_MAX ? d->t[thread].pc : 0;
}

static void dpu_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d || thread < 0 || thread >= DPU_NTHREADS_MAX) {
        snprintf(buf, n, "?");
        return;
    }
    const dpu_tasklet *t = &d->t[thread];
    const sim_thread *th = &m->units[unit].threads[thread];
    if (d->faulted && t->wait == DPU_W_STOPPED && m->stop.thread == thread)
        snprintf(buf, n, "faulted at pc %u", t->pc);
    else if (!((d->run >> thread) & 1))
        snprintf(buf, n, th->started ? "stopped (RUN bit clear), resumes at pc %u" : "not booted", t->pc);
    else if (m->functional) /* no issue times: func.c's round robin decides */
        snprintf(buf, n, "running (functional), at pc %u", t->pc);
    else if (t->wait == DPU_W_DMA)
        snprintf(buf, n, "waiting for DMA until cycle %llu", (unsigned long long)t->dma_until);
    else
        snprintf(buf, n, "running, next issue at cycle %llu", (unsigned long long)th->ready_at);
}

static int dpu_view_dma(sim_machine *m, int unit, FILE *out)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d)
        return -1;
    uint64_t now = m->units[unit].last_issue == SIM_NEVER ? 0 : m->units[unit].last_issue;
    fprintf(out, "dpu%d DMA engine: free at cycle %llu; read %.1f + %.3f/B, write %.1f + %.3f/B\n", unit,
            (unsigned long long)d->dma_free, d->dm->dma_ra, d->dm->dma_rb, d->dm->dma_wa, d->dm->dma_wb);
    unsigned n = d->dma_nlog < DPU_DMA_LOG ? d->dma_nlog : DPU_DMA_LOG;
    if (!n)
        fprintf(out, "  no transfers yet\n");
    for (unsigned i = 0; i < n; i++) {
        const dpu_dma_rec *r = &d->dma_log[(d->dma_nlog - n + i) % DPU_DMA_LOG];
        static const char *const dir[] = {"mram->wram", "wram->mram", "mram->iram"};
        fprintf(out, "  %s tasklet %2u %s wram 0x%05x mram 0x%07x %4u B issued %llu start %llu done %llu\n",
                r->done > now ? "pending" : "done   ", r->tasklet, dir[r->dir], r->wram, r->mram, r->bytes,
                (unsigned long long)r->issue, (unsigned long long)r->start, (unsigned long long)r->done);
    }
    return 0;
}

static int dpu_view_atomic(sim_machine *m, int unit, FILE *out)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d)
        return -1;
    int any = 0;
    for (int i = 0; i < 256; i++)
        if (d->atomic[i]) {
            fprintf(out, "%s%d", any ? " " : "atomic bits set: ", i);
            any = 1;
        }
    fprintf(out, any ? "\n" : "no atomic bit set\n");
    return 0;
}

static int dpu_view_run(sim_machine *m, int unit, FILE *out)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d)
        return -1;
    fprintf(out, "RUN bits 0x%06x, %s\n", d->run, d->faulted ? "faulted" : "no fault");
    if (d->faulted)
        fprintf(out, "fault code %u\n", d->fault_code);
    return 0;
}

/* The ISA's debugger views (`info NAME` in the debugger, `monitor info NAME` in GDB). */
static const isa_view dpu_views[] = {
    {"dma", "the DPU's DMA engine: recent and pending transfers", dpu_view_dma},
    {"atomic", "atomic bits that are set", dpu_view_atomic},
    {"run", "RUN bits and fault state", dpu_view_run},
    {NULL, NULL, NULL}};


static int dpu_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    (void)addr;
    if (avail < 8)
        return 0;
    dpu_disasm_word(mem_ld64le(p), buf, n);
    return 1;
}

static int dpu_disasm_image(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen)
{
    (void)opts;
    for (int s = 0; s < img->nsecs; s++) {
        const ld_section *c = &img->secs[s];
        if (!c->data || c->addr < 0x80000000u || c->addr >= 0xF0000000u || !c->size)
            continue;
        fprintf(out, "section %s:\n", c->name);
        for (uint64_t o = 0; o + 8 <= c->size; o += 8) {
            uint64_t a = c->addr + o, symoff = 0;
            const ld_symbol *sy = ld_symbol_at(img, a, &symoff);
            if (sy && !symoff && sy->value == a)
                fprintf(out, "%s:\n", sy->name);
            char t[160];
            uint64_t w = mem_ld64le(c->data + o);
            dpu_disasm_word(w, t, sizeof t);
            fprintf(out, "  %08llx [%4llu]  %012llx  %s\n", (unsigned long long)a,
                    (unsigned long long)((a - 0x80000000u) / 8), (unsigned long long)w, t);
        }
    }
    (void)err;
    (void)errlen;
    return 0;
}

static int dpu_symbol_location(sim_machine *m, int unit, const ld_symbol *s, mem_space **space, uint64_t *addr)
{
    dpu_unit *d = unit_of(m, unit < 0 ? 0 : unit);
    if (!d || !s)
        return -1;
    *space = place(d, s->value, addr);
    return 0;
}

/* --profile's call edges (isa_ops.insn_flow): a call that links (call rc, ...) returns to the
 * next instruction; a jump through a work register (`jump r23`, the ABI's return, is `call
 * zero, r23, 0`) may return. Read from the raw IRAM, never from the run loop. */
static int dpu_insn_flow(sim_machine *m, int unit, uint64_t pc, uint64_t *ret)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d || !d->iram_p || pc >= d->dm->iram_words)
        return ISA_FLOW_NONE;
    uint64_t w = mem_ld64le(d->iram_p + 8 * pc);
    int f = dpu_decode_exec(w);
    const dpu_form *fm = f < 0 ? NULL : dpu_form_at(f);
    if (!fm || fm->op != DPU_OP_CALL)
        return ISA_FLOW_NONE;
    if (!(fm->flags & DPU_F_ZDEST)) {
        *ret = pc + 1;
        return ISA_FLOW_CALL;
    }
    for (int i = 0; i < fm->nops; i++)
        if (dpu_field_at(fm->ops[i])->role == DPU_R_RA)
            return dpu_field_get(fm->ops[i], w) < 24 ? ISA_FLOW_RETURN : ISA_FLOW_NONE;
    return ISA_FLOW_NONE;
}

/* Every DPU's memories by name, also those not registered with the core (DPU 5 and up):
 * makes "mram.1234" work for --load/--dump and the debugger. */
static mem_space *dpu_unit_space(sim_machine *m, int unit, const char *name)
{
    dpu_unit *d = unit_of(m, unit);
    if (!d)
        return NULL;
    if (strcmp(name, "wram") == 0)
        return d->wram;
    if (strcmp(name, "mram") == 0)
        return d->mram;
    if (strcmp(name, "iram") == 0)
        return d->iram_space;
    if (strcmp(name, "atomic") == 0)
        return &d->atomic_space;
    return NULL;
}

int dpu_assemble_files(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                       size_t errlen);

const isa_ops isa_dpu = {
    .name = "dpu",
    .description = "UPMEM DPU (v1A/v1B): 24 tasklets, revolver pipeline, MRAM DMA engine",
    .probe = dpu_probe,
    .options = dpu_options,
    .option_value = dpu_option_value,
    .stall_names = dpu_stall_names,
    .create = dpu_create,
    .destroy = dpu_destroy,
    .load = dpu_load,
    .unit_run = dpu_unit_run,
    .independent_units = 1,
    .finish = dpu_finish,
    .regs = dpu_regs,
    .nregs = DPU_NREGS,
    .reg_read = dpu_reg_read,
    .reg_write = dpu_reg_write,
    .pc_get = dpu_pc_get,
    .thread_state = dpu_thread_state,
    .views = dpu_views,
    .code_space = "iram",
    .disasm = dpu_disasm,
    .disasm_image = dpu_disasm_image,
    .assemble = dpu_assemble_files,
    .asm_options = dpu_asm_options,
    .symbol_location = dpu_symbol_location,
    .unit_space = dpu_unit_space,
    .insn_flow = dpu_insn_flow,
    .functional = 1,
    .profile_fast = 1,
    .timing_resume = dpu_func_timing_resume,
};
