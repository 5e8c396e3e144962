/* isa/ipu/tile.c: building IPU tiles and loading programs into them. Each tile is a unit
 * with its own tile memory, whose base and size come from the generation (reference §2.1,
 * §2.4: ipu1 256 KiB at 0x40000, ipu2/ipu21 624 KiB at 0x4c000); the interleaved region
 * (where ld128 works) starts at a per-generation address that is an option because the
 * ipu2 boundary is not public. Loading copies every PT_LOAD segment into every tile (the
 * segment's file bytes, the rest of memsz zero), checking sizes and offsets before any
 * arithmetic so that a hostile ELF gets a clear error, never a wrapped address. The
 * supervisor then starts at the ELF entry or at `-o entry=SYMBOL|ADDRESS`; workers wait
 * for run/runall. The timing options live here too, with their sources.
 * Coupling (isa/isa.h, issue 11): a tile is event-coupled in a compute phase: tiles share
 * nothing then (each its own memory, contexts and barrel), so a tile's bursts may run ahead
 * of the others' and, with -o jobs=N, on N host threads (in the cycle model: functional
 * tiles stay cycle-coupled, see ipu_unit_run). It is cycle-coupled while its $INCOMING_MUX
 * selects a tile (items may reach it) or its supervisor waits in a sync of other tiles,
 * and event-coupled again after (exchange.c, ipu_unit_run). */
#include <stdlib.h>
#include <string.h>
#include "tile.h"
#include "../../core/sched.h"

static const char *const arch_choices[] = {"ipu1", "ipu2", "ipu21", NULL};
static const char *const ctx_choices[] = {"auto", "worker", "supervisor", NULL};
static const char *const denorm_choices[] = {"keep", "flush", NULL};
static const char *const conflict_choices[] = {"ignore", "raise", NULL};
static const char *const xtiming_choices[] = {"flat", "rows", NULL};
static const char *const prng_choices[] = {"aox", "plus", NULL};
static const char *const amp_sum_choices[] = {"fused", "chained", NULL};

const opt_desc ipu_exec_options[] = {
    OPT_C("arch", "ipu2", arch_choices, "IPU generation: ipu1 (Mk1), ipu2 (Mk2), ipu21 (Bow); decode and tile memory"),
    OPT_C("context", "auto", ctx_choices,
          "decode space for disassembly: worker, supervisor, or auto (worker first, then supervisor, as llvm-objdump)"),
    OPT_U("tiles", "1", 1, 1472, "tiles, each a unit with its own memory, each running the program's supervisor"),
    OPT_T("entry", NULL, "supervisor entry: a symbol or an address (default: the ELF entry)"),
    OPT_U("sup_dep_cycles", "6", 1, 1000,
          "tile cycles from a supervisor instruction's issue to the issue of one that reads its result "
          "(PopLibs' \"6 cycles\" comments, reference §2.5)"),
    OPT_U("sup_branch_cycles", "6", 1, 1000,
          "tile cycles from a taken supervisor branch to the next supervisor issue (PopLibs: brnzdec costs "
          "6(n-1)+1, reference §2.5)"),
    OPT_U("run_cycles", "6", 1, 1000,
          "inferred: tile cycles from run/runall to the earliest first issue of the started worker "
          "(one barrel turn; not public)"),
    OPT_U("interleaved_base", NULL, 0, 0xffffffffu,
          "first address of the interleaved memory region (ld128 only there); default 0x60000 on ipu1 "
          "(ipu1_consts.c), 0x80000 on ipu2/ipu21 (unverified hypothesis, reference §2.4)"),
    OPT_U("fp_ctl", "0", 0, 0xffffffffu,
          "$FP_CTL a worker starts with (the supervisor's $FP_ICTL, not modelled): bits 0-2 enable the "
          "invalid/divide-by-zero/overflow exceptions, 16-18 RND, 19 ESR, 20 NANOO (ipu1_consts.c)"),
    OPT_C("f32_denormals", "keep", denorm_choices,
          "f32 subnormal operands and results: keep (IEEE) or flush to signed zero (not public which the tile does)"),
    OPT_C("f16_denormals", "keep", denorm_choices,
          "f16 subnormal operands and results: keep (IEEE) or flush to signed zero (not public which the tile does)"),
    OPT_C("mem_conflicts", "raise", conflict_choices,
          "two accesses of one instruction (the pace loads/stores) to one SRAM element: raise TEXCPT_CONFLICT "
          "as the hardware does (reference §2.4), or ignore"),
    OPT_C("bundle_align", "ignore", conflict_choices,
          "a 64-bit bundle at an address that is 4 mod 8: execute it (ignore; PopLibs' codelets have such "
          "bundles where padding would misalign an rpt body, docs/isa/ipu.md \"Bundles\") or raise "
          "TEXCPT_INVALID_PC with cause MISALIGNED_EXEBUNDLE"),
    /* Thread cycles a transcendental holds its worker (one issue turn = 1): not public;
     * the defaults are PopLibs' own figures, measured on Graphcore's simulator
     * (docs/isa/ipu.md "Transcendental latency"). */
    OPT_U("f32exp_cycles", "3", 1, 64,
          "thread cycles of f32exp, f32exp2 (PopLibs CycleEstimationFunctions.cpp: \"3 * 2 (2 of f32exp)\")"),
    OPT_U("f32ln_cycles", "6", 1, 64,
          "thread cycles of f32ln, f32log2 (PopLibs CycleEstimationFunctions.cpp: \"6 * 2 (2 of f32log)\")"),
    OPT_U("f32sigm_cycles", "6", 1, 64,
          "thread cycles of f32sigm, f32tanh (PopLibs' UnaryOp1D estimator table: 12 cycles per 2-bundle loop)"),
    OPT_U("f16exp_cycles", "2", 1, 64,
          "thread cycles of f16v2exp, f16v2exp2, f16v2ln, f16v2log2 (PopLibs: \"the exp, log instructions take 2 cycles\")"),
    OPT_U("f16tanh_cycles", "2", 1, 64, "thread cycles of f16v2tanh (PopLibs' UnaryOp1D table: 4 cycles per 2-bundle loop)"),
    OPT_U("f16sigm_cycles", "3", 1, 64, "thread cycles of f16v2sigm (PopLibs' UnaryOp1D table: 6 cycles per 2-bundle loop)"),
    OPT_U("mem_element", "16384", 8, 0x100000,
          "bytes of one SRAM element (ipu1_consts.c 2048 x 64 bits; ipu2/ipu21 assumed the same); the "
          "interleaved region pairs two elements 64-bit word by 64-bit word"),
    OPT_C("prng", "aox", prng_choices,
          "PRNG output function (docs/isa/ipu.md \"PRNG\"): aox (xoroshiro128aox, Graphcore's published "
          "hardware generator) or plus (xoroshiro128+, PopLibs' C++ model of it)"),
    OPT_U("prng_seed", "0", 0, 0xffffffffu,
          "$PRNG_SEED value each worker's PRNG starts from until the program seeds it (reset state not public)"),
    OPT_U("sync_cycles", "0", 0, 1000000,
          "tile cycles a sync INTERNAL/EXTERNAL costs on a tile alone in its zone (on-chip sync latency not public)"),
    OPT_U("exchange_latency", "10", 1, 1000000,
          "tile cycles from an exchange item's send to its arrival at the receiving tiles (IPU1 pipeline "
          "constants: BNET_SENDTOEXCHOUTDLY 8 + BNET_MINEXCHIN2LDDLY 2; docs/isa/ipu.md \"Sync and exchange\")"),
    OPT_C("exchange_clashes", "raise", conflict_choices,
          "an exchange item written into the memory element of the fetch or an access of the bundle its tile "
          "issues in that cycle: raise TEXCH_RERR_CLASH_IFETCH/_INSTR (ipu1_consts.c), or ignore"),
    OPT_C("exchange_timing", "flat", xtiming_choices,
          "flat: every item reaches every receiving tile's memory exchange_latency cycles after its send; rows "
          "(ipu21 only): it passes the receiver's incoming mux then and is written 52 + 2 x the receiver's "
          "physical row cycles later (ipu-stack's C600 schedules and layout; docs/isa/ipu.md \"Per-row timing\")"),
    OPT_U("predecode", "1", 0, 1, "1: decode each code word once per context (predecode cache); 0: decode at every issue"),
    OPT_U("amp_sets", NULL, 1, 2,
          "AMP sets of 8 units: default 1 on ipu1 (TFPU_NUM_AMP_SETS), 2 on ipu2/ipu21 (16 conv units, PopLibs); "
          "sizes the CCCS (32 or 64 weight words) and $AACC (16 or 32)"),
    OPT_C("amp_sum", "fused", amp_sum_choices,
          "AMP/SLIC internal precision (not public): fused adds an instruction's exact products to the running "
          "sum and rounds once to f32; chained rounds each product to f32 and adds them one by one"),
    OPT_END,
};

static int tile_init(sim_machine *m, ipu_machine *im, int i, char *err, size_t errlen)
{
    ipu_tile *tl = &im->tiles[i];
    tl->im = im;
    tl->index = i;
    m->units[i].isa = tl;
    /* tile 0's memory is the machine's "tmem" (what --mem-hash lists, as before groups);
     * every other tile's is its own space (sim_unit_add_space: "tmem.N", "tmem@ipu0.tileN"),
     * which sim_unit_space finds and the core frees */
    char name[32];
    snprintf(name, sizeof name, "tmem.%d", i);
    tl->tmem = i == 0 ? sim_add_space(m, "tmem", 1, 4, 0) : sim_unit_add_space(m, &m->units[i], "tmem", name, 1, 4, 0);
    mem_region *r = tl->tmem ? mem_add_ram(tl->tmem, "tmem", im->mem_base, im->mem_size, MEM_RWX) : NULL;
    if (!r) {
        snprintf(err, errlen, "out of memory for tile %d's %u bytes", i, im->mem_size);
        return -1;
    }
    tl->mem = r->data;
    return 0;
}

int ipu_machine_create(sim_machine *m, char *err, size_t errlen)
{
    const opt_desc *t = ipu_exec_options;
    int arch;
    uint64_t ntiles, dep, br, run, ib = 0, fpctl, pd, melem;
    int rc_ib, f32d, f16d, mconf, balign, rc_sets, asum;
    uint64_t asets = 0;
    if (opt_choice(&m->opts, t, "arch", &arch, err, errlen) || opt_uint(&m->opts, t, "tiles", &ntiles, err, errlen) ||
        opt_uint(&m->opts, t, "sup_dep_cycles", &dep, err, errlen) ||
        opt_uint(&m->opts, t, "sup_branch_cycles", &br, err, errlen) ||
        opt_uint(&m->opts, t, "run_cycles", &run, err, errlen) ||
        (rc_ib = opt_uint(&m->opts, t, "interleaved_base", &ib, err, errlen)) < 0 ||
        opt_uint(&m->opts, t, "fp_ctl", &fpctl, err, errlen) || opt_choice(&m->opts, t, "f32_denormals", &f32d, err, errlen) ||
        opt_choice(&m->opts, t, "f16_denormals", &f16d, err, errlen) || opt_uint(&m->opts, t, "predecode", &pd, err, errlen) ||
        opt_choice(&m->opts, t, "mem_conflicts", &mconf, err, errlen) || opt_uint(&m->opts, t, "mem_element", &melem, err, errlen) ||
        opt_choice(&m->opts, t, "bundle_align", &balign, err, errlen) ||
        (rc_sets = opt_uint(&m->opts, t, "amp_sets", &asets, err, errlen)) < 0 ||
        opt_choice(&m->opts, t, "amp_sum", &asum, err, errlen))
        return -1;
    int prng_alg;
    uint64_t prng_seed, sync_cyc, xlat;
    if (opt_choice(&m->opts, t, "prng", &prng_alg, err, errlen) ||
        opt_uint(&m->opts, t, "prng_seed", &prng_seed, err, errlen) ||
        opt_uint(&m->opts, t, "sync_cycles", &sync_cyc, err, errlen) ||
        opt_uint(&m->opts, t, "exchange_latency", &xlat, err, errlen))
        return -1;
    int xclash, xtiming;
    if (opt_choice(&m->opts, t, "exchange_clashes", &xclash, err, errlen) ||
        opt_choice(&m->opts, t, "exchange_timing", &xtiming, err, errlen))
        return -1;
    if (arch == 0 && ntiles > 1280) { /* (its reset $INCOMING_MUX, 0x500, would then select a tile) */
        snprintf(err, errlen, "-o tiles=%llu: an ipu1 has 1280 tile instances (1216 usable), at most 1280",
                 (unsigned long long)ntiles);
        return -1;
    }
    if (xtiming == 1 && arch != 2) {
        snprintf(err, errlen, "-o exchange_timing=rows needs -o arch=ipu21 (its rows are the C600's tile layout)");
        return -1;
    }
    ipu_machine *im = calloc(1, sizeof *im);
    if (!im) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->isa_state = im;
    im->arch = 1 << arch;
    /* reference §2.1: ipu1 0x40000-0x80000 (bootloader _RAM_END); ipu2/ipu21 624 KiB from
     * TMEM_REGION0_BASE_ADDR 0x4c000 (LLVM), so 0x4c000-0xe8000 */
    im->mem_base = arch == 0 ? 0x40000u : 0x4c000u;
    im->mem_size = arch == 0 ? 0x40000u : 624u * 1024u;
    im->interleaved_base = rc_ib == 1 ? (arch == 0 ? 0x60000u : 0x80000u) : (uint32_t)ib;
    im->sup_dep_cycles = dep;
    im->sup_branch_cycles = br;
    im->run_cycles = run;
    im->ntiles = (int)ntiles;
    im->fp_ctl_launch = (uint32_t)fpctl;
    im->f32_flush = (uint8_t)f32d;
    im->f16_flush = (uint8_t)f16d;
    im->predecode = (uint8_t)pd;
    im->mem_conflicts = (uint8_t)mconf;
    im->bundle_align = (uint8_t)balign;
    static const char *const tr_opts[IPU_TR_N] = {"f32exp_cycles", "f32ln_cycles", "f32sigm_cycles",
                                                  "f16exp_cycles", "f16tanh_cycles", "f16sigm_cycles"};
    for (int k = 0; k < IPU_TR_N; k++) {
        uint64_t v;
        if (opt_uint(&m->opts, t, tr_opts[k], &v, err, errlen))
            return -1;
        im->tr_cycles[k] = (uint8_t)v;
    }
    im->mem_element = (uint32_t)melem;
    im->prng_alg = (uint8_t)prng_alg;
    im->prng_seed = (uint32_t)prng_seed;
    im->sync_cycles = sync_cyc;
    im->exchange_latency = xlat;
    im->exchange_clashes = (uint8_t)xclash;
    im->exchange_rows = (uint8_t)xtiming;
    /* $INCOMING_MUX at reset selects no tile: 0x500 on ipu1 (TILE_INCOMING_MUX__RESET0, one
     * past its 1280 tile instances), TILE_ID_NULL 0x600 where 1472 tiles pass 0x500 */
    im->mux_reset = arch == 0 ? 0x500u : 0x600u;
    /* AMP: 8 units per set (ipu1_consts.c); ipu2/ipu21 have 16 conv units (PopLibs) */
    im->amp_sets = rc_sets == 1 ? (arch == 0 ? 1 : 2) : (uint8_t)asets;
    im->amp_chained = (uint8_t)asum;
    /* $REPEAT_COUNT.VALUE: 12 bits on ipu1 (ipu1_consts.c), 16 on ipu2/ipu21 (ipuArchInfo.cpp) */
    im->repeat_mask = arch == 0 ? 0xfffu : 0xffffu;
    /* clocks (reference §2.1): 1.6 GHz Mk1, 1.325 GHz Mk2 (M2000), 1.85 GHz Bow-2000 */
    double hz = arch == 0 ? 1.6e9 : arch == 1 ? 1.325e9 : 1.85e9;
    if (sim_add_units(m, im->ntiles, IPU_NCTX, "tile%d", hz) || !(im->tiles = calloc(ntiles, sizeof *im->tiles))) {
        snprintf(err, errlen, "cannot create %d tiles", im->ntiles);
        return -1;
    }
    for (int i = 0; i < im->ntiles; i++) {
        if (tile_init(m, im, i, err, errlen))
            return -1;
        /* a compute phase; functionally cycle-coupled, as before (barrel.c says why) */
        sim_unit_set_coupling(m, &m->units[i], m->functional ? SIM_COUPLE_CYCLE : SIM_COUPLE_EVENT);
    }
    return ipu_xchg_init(m, err, errlen);
}

void ipu_machine_destroy(sim_machine *m)
{
    ipu_machine *im = ipu_m(m);
    if (!im)
        return;
    for (int i = 0; im->tiles && i < im->ntiles; i++)
        ipu_pd_free(&im->tiles[i]); /* (the tiles' memories are the machine's and the units') */
    ipu_xchg_free(im);
    free(im->tiles);
    free(im);
    m->isa_state = NULL;
}

/* The supervisor's entry: -o entry (a symbol, else a number), else the ELF entry. */
static int find_entry(sim_machine *m, const ld_image *img, uint32_t *entry, char *err, size_t errlen)
{
    const char *e = opt_text(&m->opts, ipu_exec_options, "entry");
    if (!e) {
        if (img->entry > 0xffffffffu) {
            snprintf(err, errlen, "%s: ELF entry 0x%llx is not a 32-bit address", img->path, (unsigned long long)img->entry);
            return -1;
        }
        *entry = (uint32_t)img->entry;
        return 0;
    }
    const ld_symbol *s = ld_symbol_find(img, e);
    uint64_t v;
    if (s)
        v = s->value;
    else if (opt_parse_u64(e, &v)) {
        snprintf(err, errlen, "-o entry=%s: no such symbol in %s (and not a number)", e, img->path);
        return -1;
    }
    if (v > 0xffffffffu) {
        snprintf(err, errlen, "-o entry=%s: 0x%llx is not a 32-bit address", e, (unsigned long long)v);
        return -1;
    }
    *entry = (uint32_t)v;
    return 0;
}

/* Put the supervisor at its entry and every worker at rest. */
static void boot_tile(sim_machine *m, ipu_tile *tl, uint32_t entry)
{
    sim_unit *u = &m->units[tl->index];
    memset(tl->ctx, 0, sizeof tl->ctx);
    memset(tl->worker_base_csr, 0, sizeof tl->worker_base_csr);
    tl->ssr_raerr = 0;
    ipu_xchg_reset(tl);
    for (int c = 0; c < IPU_NCTX; c++) {
        tl->ctx[c].last_issue = SIM_NEVER;
        u->threads[c].state = SIM_T_SLEEP;
        u->threads[c].ready_at = SIM_NEVER;
    }
    ipu_ctx *s = &tl->ctx[IPU_SUP];
    s->pc = entry;
    s->m[10] = IPU_HOST_RETURN; /* returning from the entry ends the supervisor */
    s->state = IPU_CS_ACTIVE;
    s->next = 0;
    sched_start(u, IPU_SUP, 0);
}

/* Check img as an IPU program and place its PT_LOAD segments in tiles [first, first + n)
 * (clearing first, when clear is set, the span the tile's previous program covered: a
 * tile's own program replaces the machine's; the rest of the memory, never written, stays
 * untouched, so 1,472 tiles do not each fault in 624 KiB), then find its supervisor entry.
 * Every bound is checked before it is added, so a hostile ELF gets a clear error, never a
 * wrapped address. */
static int place_program(sim_machine *m, const ld_image *img, int first, int n, int clear, uint32_t *entry, char *err,
                         size_t errlen)
{
    ipu_machine *im = ipu_m(m);
    if (img->fmt != LD_ELF) {
        snprintf(err, errlen, "%s: an IPU program is an ELF file (e_machine 248); got %s", img->path,
                 ld_format_name(img->fmt));
        return -1;
    }
    if (img->machine != 248 || img->elfclass != 1 || img->big_endian) {
        snprintf(err, errlen, "%s: not an IPU ELF (need ELF32 little-endian, e_machine 248; got machine %u)", img->path,
                 img->machine);
        return -1;
    }
    if (img->elf_type == 1) {
        snprintf(err, errlen, "%s: an object file (ET_REL) is not runnable: link it first", img->path);
        return -1;
    }
    const uint64_t lo = im->mem_base, hi = (uint64_t)im->mem_base + im->mem_size;
    int nload = 0;
    for (int s = 0; s < img->nsegs; s++) { /* checked in full before any tile is touched */
        const ld_segment *g = &img->segs[s];
        if (g->type != 1) /* PT_LOAD */
            continue;
        if (g->filesz > g->memsz) {
            snprintf(err, errlen, "%s: segment %d has filesz 0x%llx > memsz 0x%llx", img->path, s,
                     (unsigned long long)g->filesz, (unsigned long long)g->memsz);
            return -1;
        }
        if (g->offset > img->file_size || g->filesz > img->file_size - g->offset) {
            snprintf(err, errlen, "%s: segment %d (offset 0x%llx, 0x%llx bytes) lies outside the %zu-byte file", img->path,
                     s, (unsigned long long)g->offset, (unsigned long long)g->filesz, img->file_size);
            return -1;
        }
        if (!g->memsz)
            continue;
        if (g->vaddr < lo || g->vaddr >= hi || g->memsz > hi - g->vaddr) {
            snprintf(err, errlen,
                     "%s: segment %d at 0x%llx (0x%llx bytes) does not fit in %s tile memory 0x%llx-0x%llx", img->path,
                     s, (unsigned long long)g->vaddr, (unsigned long long)g->memsz, ipu_arch_name(im->arch),
                     (unsigned long long)lo, (unsigned long long)hi);
            return -1;
        }
        nload++;
    }
    if (!nload) {
        snprintf(err, errlen, "%s: no PT_LOAD segment to place in tile memory", img->path);
        return -1;
    }
    if (find_entry(m, img, entry, err, errlen))
        return -1;
    if (!ipu_in_mem(im, *entry, 4) || (*entry & 3)) {
        snprintf(err, errlen, "%s: supervisor entry 0x%x is not a 4-byte-aligned address in tile memory 0x%x-0x%llx",
                 img->path, *entry, im->mem_base, (unsigned long long)hi);
        return -1;
    }
    uint32_t span_lo = im->mem_size, span_hi = 0;
    for (int s = 0; s < img->nsegs; s++) {
        const ld_segment *g = &img->segs[s];
        if (g->type == 1 && g->memsz) {
            span_lo = (uint32_t)(g->vaddr - lo) < span_lo ? (uint32_t)(g->vaddr - lo) : span_lo;
            span_hi = (uint32_t)(g->vaddr - lo + g->memsz) > span_hi ? (uint32_t)(g->vaddr - lo + g->memsz) : span_hi;
        }
    }
    for (int i = first; i < first + n; i++) {
        ipu_tile *tl = &im->tiles[i];
        if (clear && tl->placed_hi > tl->placed_lo)
            memset(tl->mem + tl->placed_lo, 0, tl->placed_hi - tl->placed_lo);
        tl->placed_lo = span_lo;
        tl->placed_hi = span_hi;
    }
    for (int s = 0; s < img->nsegs; s++) {
        const ld_segment *g = &img->segs[s];
        if (g->type != 1 || !g->memsz)
            continue;
        for (int i = first; i < first + n; i++) {
            uint8_t *p = im->tiles[i].mem + (g->vaddr - lo);
            if (g->filesz)
                memcpy(p, g->data, (size_t)g->filesz);
            memset(p + g->filesz, 0, (size_t)(g->memsz - g->filesz));
        }
    }
    return 0;
}

int ipu_machine_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    ipu_machine *im = ipu_m(m);
    if (im->have_program) {
        snprintf(err, errlen, "an IPU machine runs one program: build a new machine for another");
        return -1;
    }
    uint32_t entry;
    if (place_program(m, img, 0, im->ntiles, 0, &entry, err, errlen))
        return -1;
    im->entry = entry;
    im->have_program = 1;
    for (int i = 0; i < im->ntiles; i++)
        boot_tile(m, &im->tiles[i], entry);
    return 0;
}

/* isa_ops.load_unit: tile `unit` gets its own program (the bytes the previous program's
 * segments covered cleared, then img's segments) and its supervisor starts at img's entry (-o entry names a symbol of img, or an
 * address); the other tiles keep theirs. After the machine's program (load), before the
 * run: the tile boots as load boots every tile. */
int ipu_machine_load_unit(sim_machine *m, int unit, const ld_image *img, char *err, size_t errlen)
{
    ipu_machine *im = ipu_m(m);
    if (!im->have_program) {
        snprintf(err, errlen, "a tile's own program comes after the machine's (load)");
        return -1;
    }
    if (unit < 0 || unit >= im->ntiles) {
        snprintf(err, errlen, "no tile %d (the machine has %d)", unit, im->ntiles);
        return -1;
    }
    uint32_t entry;
    if (place_program(m, img, unit, 1, 1, &entry, err, errlen))
        return -1;
    boot_tile(m, &im->tiles[unit], entry);
    return 0;
}
