/* isa/nyuzi/machine.c: the Nyuzi plug-in (isa_nyuzi): options, machine creation (cores as
 * units, hardware threads as threads, physical memory and device space), program loading
 * (ELF with e_machine 9999, elf2hex text, raw binary), the debugger's register view,
 * disassembly entry points, framebuffer and "info" topics. Devices live in devices.c,
 * semantics in exec.c, the cycle model in timing.c. */
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"
#include "memo.h"
#include "../../core/sched.h"


static const opt_desc nyz_options[] = {
    OPT_U("cores", "1", 1, NYZ_MAX_CORES, "number of cores (units)"),
    OPT_U("threads", "4", 1, NYZ_MAX_THREADS, "hardware threads per core"),
    OPT_U("mem", "0x1000000", 0x10000, 0xFFFF0000u, "physical memory size in bytes"),
    OPT_U("l1i_size", "16384", 256, 1 << 24, "L1 instruction cache bytes"),
    OPT_U("l1i_ways", "4", 1, 64, "L1 instruction cache ways"),
    OPT_U("l1d_size", "16384", 256, 1 << 24, "L1 data cache bytes"),
    OPT_U("l1d_ways", "4", 1, 64, "L1 data cache ways"),
    OPT_U("l2_size", "131072", 1024, 1 << 28, "L2 cache bytes (shared)"),
    OPT_U("l2_ways", "8", 1, 64, "L2 cache ways"),
    OPT_U("tlb_entries", "64", 1, 4096, "ITLB/DTLB entries per core"),
    OPT_U("tlb_ways", "4", 1, 64, "ITLB/DTLB ways"),
    OPT_U("int_latency", "5", 1, 1000, "issue-to-issue cycles for a dependent integer op"),
    OPT_U("fp_latency", "9", 1, 1000, "issue-to-issue cycles for a dependent FP/multiply op"),
    OPT_U("load_latency", "6", 1, 1000, "load-to-use cycles on an L1 hit"),
    OPT_U("l2_latency", "11", 0, 100000, "extra cycles of an L1 miss that hits L2"),
    OPT_U("mem_latency", "45", 0, 100000, "extra cycles of an L2 miss"),
    OPT_U("store_latency", "10", 1, 100000, "cycles until a store is acknowledged (one per thread)"),
    OPT_U("mem_interval", "28", 0, 100000, "cycles a line transfer occupies the memory bus"),
    OPT_U("io_latency", "9", 1, 100000, "cycles between the two issues of a device access"),
    OPT_U("sync_latency", "10", 1, 100000, "cycles between the two issues of load_sync/store_sync"),
    OPT_C("nyuzi_memo", "on", ((const char *const[]){"off", "on", "check", NULL}),
          "memoized periods of the cycle model: replay a loop's recorded schedule (check: compare it)"),
    OPT_T("cosim", NULL, "write the cosimulation event stream to FILE"),
    OPT_T("include", NULL, "asm: extra #include directory for the C preprocessor"),
    OPT_T("define", NULL, "asm: NAME[=VALUE] macros for the C preprocessor, separated by commas"),
    OPT_END};

static const char *const nyz_stalls[] = {"scoreboard", "icache_miss", "dcache_miss", "store_wait",
                                         "rollback", "writeback_conflict", "io_wait",
                                         "arbitration", NULL};

static const char *const nyz_counter_names[NYZ_NPERF] = {
    "interrupt", "store_rollback", "store", "instr_retire", "instr_issue", "icache_miss",
    "icache_hit", "itlb_miss", "dcache_miss", "dcache_hit", "dtlb_miss", "uncond_branch",
    "cond_branch_taken", "cond_branch_not_taken"};

#define REG_PC 32
#define REG_V0 33
#define REG_CR0 65

/* An integer option: its default and range are the table's (nyz_options). */
static int getopt_u(sim_machine *m, const char *k, uint64_t *v, char *err, size_t errlen)
{
    return opt_uint(&m->opts, nyz_options, k, v, err, errlen);
}

static void timer_fire(ev_event *e, void *ctx)
{
    (void)e;
    nyz_machine *nm = ctx;
    nm->timer_count = 0;
    nyz_raise_interrupt(nm, 1u << 1);
}

static int nyz_create(sim_machine *m, char *err, size_t errlen)
{
    nyz_machine *nm = calloc(1, sizeof *nm);
    if (!nm) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->isa_state = nm;
    nm->m = m;
    uint64_t cores, threads, mem, l1is, l1iw, l1ds, l1dw, l2s, l2w, tlbe, tlbw;
    uint64_t il, fl, ll, l2l, ml, sl, iol, syl, mi;
    if (getopt_u(m, "cores", &cores, err, errlen) ||
        getopt_u(m, "threads", &threads, err, errlen) ||
        getopt_u(m, "mem", &mem, err, errlen) ||
        getopt_u(m, "l1i_size", &l1is, err, errlen) ||
        getopt_u(m, "l1i_ways", &l1iw, err, errlen) ||
        getopt_u(m, "l1d_size", &l1ds, err, errlen) ||
        getopt_u(m, "l1d_ways", &l1dw, err, errlen) ||
        getopt_u(m, "l2_size", &l2s, err, errlen) ||
        getopt_u(m, "l2_ways", &l2w, err, errlen) ||
        getopt_u(m, "tlb_entries", &tlbe, err, errlen) ||
        getopt_u(m, "tlb_ways", &tlbw, err, errlen) ||
        getopt_u(m, "int_latency", &il, err, errlen) ||
        getopt_u(m, "fp_latency", &fl, err, errlen) ||
        getopt_u(m, "load_latency", &ll, err, errlen) ||
        getopt_u(m, "l2_latency", &l2l, err, errlen) ||
        getopt_u(m, "mem_latency", &ml, err, errlen) ||
        getopt_u(m, "store_latency", &sl, err, errlen) ||
        getopt_u(m, "io_latency", &iol, err, errlen) ||
        getopt_u(m, "sync_latency", &syl, err, errlen) ||
        getopt_u(m, "mem_interval", &mi, err, errlen))
        return -1;
    if (cores * threads > 32) {
        snprintf(err, errlen, "cores*threads = %llu exceeds 32 (CR 20/21 thread bitmaps are 32 bits)",
                 (unsigned long long)(cores * threads));
        return -1;
    }
    if (tlbe % tlbw || ((tlbe / tlbw) & (tlbe / tlbw - 1))) {
        snprintf(err, errlen, "tlb_entries must be tlb_ways times a power of two");
        return -1;
    }
    nm->tm = (nyz_timing){(unsigned)il, (unsigned)fl, (unsigned)ll, (unsigned)l2l, (unsigned)ml,
                          (unsigned)sl, (unsigned)iol, (unsigned)syl, (unsigned)mi};
    nm->ncores = (int)cores;
    nm->nthreads = (int)threads;
    nm->ram_size = (uint32_t)(mem & ~3ull);
    nm->mem = sim_add_space(m, "mem", 1, 4, 0);
    if (!nm->mem) {
        snprintf(err, errlen, "cannot add memory space");
        return -1;
    }
    mem_region *r = mem_add_ram(nm->mem, "ram", 0, nm->ram_size, MEM_RWX);
    if (!r) {
        snprintf(err, errlen, "cannot allocate 0x%x bytes of memory", nm->ram_size);
        return -1;
    }
    nm->ram = r->data;
    if (nyz_cache_init(&nm->l2, (unsigned)l2s, (unsigned)l2w, NYZ_LINE)) {
        snprintf(err, errlen, "bad L2 geometry: size must be ways x 64 x a power of two");
        return -1;
    }
    if (sim_add_units(m, (int)cores, (int)threads, "core%d", 50e6) < 0) {
        snprintf(err, errlen, "cannot add cores");
        return -1;
    }
    /* a core halts when the machine's rule says (issue 11 pt 5; devices.c
     * nyz_suspend_threads), not with its last thread: another core may restart it (CR 21) */
    for (int ci = 0; ci < (int)cores; ci++)
        m->units[ci].halt_by_isa = 1;
    nm->cores = calloc(cores, sizeof *nm->cores);
    if (!nm->cores) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int ci = 0; ci < (int)cores; ci++) {
        nyz_core *c = &nm->cores[ci];
        c->index = ci;
        c->nthreads = (int)threads;
        c->tlb_ways = (unsigned)tlbw;
        c->tlb_sets = (unsigned)(tlbe / tlbw);
        c->fetch_from = c->tlb_from = 1; /* empty ranges: nothing leaves the plain fetch */
        c->itlb = calloc(tlbe, sizeof *c->itlb);
        c->itlb_old = calloc(tlbe, sizeof *c->itlb_old);
        c->dtlb = calloc(tlbe, sizeof *c->dtlb);
        c->t = calloc(threads, sizeof *c->t);
        if (!c->itlb || !c->itlb_old || !c->dtlb || !c->t) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (unsigned i = 0; i < tlbe; i++)
            c->itlb[i].va = c->itlb_old[i].va = c->dtlb[i].va = 1;
        if (nyz_cache_init(&c->l1i, (unsigned)l1is, (unsigned)l1iw, NYZ_LINE) ||
            nyz_cache_init(&c->l1d, (unsigned)l1ds, (unsigned)l1dw, NYZ_LINE)) {
            snprintf(err, errlen, "bad L1 geometry: size must be ways x 64 x a power of two");
            return -1;
        }
        for (int i = 0; i < (int)threads; i++) {
            nyz_thread_reset(&c->t[i], ci * (int)threads + i);
        }
        m->units[ci].isa = c;
        sim_unit_counters(&m->units[ci], nyz_counter_names, NYZ_NPERF);
    }
    int memo = 0;
    if (opt_choice(&m->opts, nyz_options, "nyuzi_memo", &memo, err, errlen) < 0)
        return -1;
    /* one core only (memo.c: cores run in bursts of a cycle, with the L2 shared) */
    if (memo && cores == 1 && !(nm->memo = nyz_memo_new(memo))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    nm->bus_log = nm->bus_mem;
    nm->dc_mask = (1u << 16) - 1;
    nm->dc = calloc(nm->dc_mask + 1, sizeof *nm->dc);
    nm->fb_pixels = calloc(640 * 480, 4);
    if (!nm->dc || !nm->fb_pixels) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i <= nm->dc_mask; i++)
        nm->dc[i].pa = 1; /* never a valid instruction address */
    nm->fb_base = 0x200000;
    /* The timer's counter is 0 after reset and its interrupt output is (counter == 0), so
     * line 1 rises one cycle after reset: every thread has the edge latched (CR 16 reads 2
     * before the program writes the timer, measured on the RTL). */
    nyz_raise_interrupt(nm, 2);
    if (sim_register_event(m, &nm->timer_ev, "nyuzi-timer", timer_fire, nm, 0) < 0) {
        snprintf(err, errlen, "cannot register timer event");
        return -1;
    }
    if (sim_register_event(m, &nm->flush_ev, "nyuzi-flush", nyz_flush_event, nm, 0) < 0) {
        snprintf(err, errlen, "cannot register flush event");
        return -1;
    }
    if (mem_add_mmio(nm->mem, "devices", NYZ_DEVICE_BASE, 0x10000, MEM_RW, NULL, NULL, nm) == NULL) {
        /* the debugger reads device space as a fault; programs use nyz_dev_* directly */
    }
    const char *cosim = opt_text(&m->opts, nyz_options, "cosim");
    if (cosim && *cosim) {
        nm->cosim = fopen(cosim, "w");
        if (!nm->cosim) {
            snprintf(err, errlen, "cannot open cosim output '%s'", cosim);
            return -1;
        }
    }
    return 0;
}

static void nyz_destroy(sim_machine *m)
{
    nyz_machine *nm = m->isa_state;
    if (!nm)
        return;
    if (nm->cosim)
        fclose(nm->cosim);
    for (int ci = 0; nm->cores && ci < nm->ncores; ci++) {
        nyz_core *c = &nm->cores[ci];
        free(c->itlb);
        free(c->itlb_old);
        free(c->dtlb);
        free(c->t);
        nyz_cache_free(&c->l1i);
        nyz_cache_free(&c->l1d);
    }
    free(nm->cores);
    nyz_cache_free(&nm->l2);
    nyz_memo_free(nm->memo);
    free(nm->dc);
    free(nm->fb_pixels);
    free(nm);
    m->isa_state = NULL;
}

static int nyz_probe(const ld_image *img)
{
    if (img->fmt == LD_ELF)
        return img->machine == 9999 ? 100 : 0;
    if (img->fmt == LD_HEX)
        return 20;
    return 0;
}

static int nyz_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    nyz_machine *nm = m->isa_state;
    uint32_t entry = 0;
    if (img->fmt == LD_ELF) {
        if (img->machine != 9999 || img->elfclass != 1 || img->big_endian) {
            snprintf(err, errlen, "%s: not a Nyuzi program (need ELF32 little-endian, e_machine 9999; got machine %u)",
                     img->path, img->machine);
            return -1;
        }
        for (int i = 0; i < img->nsegs; i++) {
            const ld_segment *s = &img->segs[i];
            if (s->type != 1 || s->memsz == 0)
                continue;
            uint64_t a = s->paddr ? s->paddr : s->vaddr;
            if (a + s->memsz > nm->ram_size || s->filesz > s->memsz) {
                snprintf(err, errlen, "%s: segment %d at 0x%llx (+0x%llx) does not fit in 0x%x bytes of memory",
                         img->path, i, (unsigned long long)a, (unsigned long long)s->memsz, nm->ram_size);
                return -1;
            }
            memcpy(nm->ram + a, s->data, s->filesz);
            memset(nm->ram + a + s->filesz, 0, s->memsz - s->filesz);
        }
        entry = (uint32_t)img->entry;
    } else if (img->fmt == LD_HEX) {
        uint32_t top;
        if (nyz_hex_load(img->file, img->file_size, nm->ram, nm->ram_size, &top, err, errlen) < 0) {
            char tmp[256];
            snprintf(tmp, sizeof tmp, "%s", err);
            snprintf(err, errlen, "%s:%s", img->path, tmp);
            return -1;
        }
    } else if (img->fmt == LD_RAW) {
        if (img->file_size > nm->ram_size) {
            snprintf(err, errlen, "%s: %zu bytes do not fit in memory", img->path, img->file_size);
            return -1;
        }
        memcpy(nm->ram, img->file, img->file_size);
    } else {
        snprintf(err, errlen, "%s: Nyuzi loads ELF, elf2hex .hex or raw binaries, not %s",
                 img->path, ld_format_name(img->fmt));
        return -1;
    }
    /* Reset: only thread 0 of core 0 runs; the others wait for CR 21 (resume). */
    for (int ci = 0; ci < nm->ncores; ci++) {
        sim_unit *u = &m->units[ci];
        for (int i = 0; i < nm->nthreads; i++) {
            nyz_thread *t = &nm->cores[ci].t[i];
            t->pc = entry;
            if (ci == 0 && i == 0)
                sched_start(u, 0, 0);
            else {
                u->threads[i].state = SIM_T_HALTED;
                u->threads[i].ready_at = SIM_NEVER;
            }
        }
    }
    return 0;
}

static void nyz_finish(sim_machine *m)
{
    nyz_machine *nm = m->isa_state;
    if (m->out)
        fflush(m->out);
    if (nm && nm->cosim) {
        if (m->stop.kind == SIM_STOP_HALT)
            fprintf(nm->cosim, "***HALTED***\n");
        fflush(nm->cosim);
    }
}

/* ---- debugger view ---- */

#define SR(n) {n, 32, ISA_REG_THREAD, 0, "general"}
#define VR(n) {n, 512, ISA_REG_THREAD, 0, "vector"}
#define CRR(n) {n, 32, ISA_REG_THREAD, 0, "control"}
static const isa_reg nyz_regs[] = {
    SR("s0"), SR("s1"), SR("s2"), SR("s3"), SR("s4"), SR("s5"), SR("s6"), SR("s7"), SR("s8"),
    SR("s9"), SR("s10"), SR("s11"), SR("s12"), SR("s13"), SR("s14"), SR("s15"), SR("s16"),
    SR("s17"), SR("s18"), SR("s19"), SR("s20"), SR("s21"), SR("s22"), SR("s23"), SR("s24"),
    SR("s25"), SR("s26"), SR("s27"), SR("gp"), SR("fp"), SR("sp"), SR("ra"),
    {"pc", 32, ISA_REG_THREAD, ISA_REG_PC, "special"},
    VR("v0"), VR("v1"), VR("v2"), VR("v3"), VR("v4"), VR("v5"), VR("v6"), VR("v7"), VR("v8"),
    VR("v9"), VR("v10"), VR("v11"), VR("v12"), VR("v13"), VR("v14"), VR("v15"), VR("v16"),
    VR("v17"), VR("v18"), VR("v19"), VR("v20"), VR("v21"), VR("v22"), VR("v23"), VR("v24"),
    VR("v25"), VR("v26"), VR("v27"), VR("v28"), VR("v29"), VR("v30"), VR("v31"),
    CRR("flags"), CRR("asid"), CRR("page_dir"), CRR("int_mask"), CRR("trap_pc"),
    CRR("trap_cause"), CRR("trap_address"), CRR("subcycle"), CRR("saved_flags"),
    CRR("syscall_index"), CRR("latched_ints"),
    {"trap_handler", 32, ISA_REG_UNIT, 0, "control"},
    {"tlb_miss_handler", 32, ISA_REG_UNIT, 0, "control"},
};
#define NREGS (int)(sizeof nyz_regs / sizeof nyz_regs[0])

static nyz_thread *thr(sim_machine *m, int unit, int thread, nyz_core **cp)
{
    nyz_machine *nm = m->isa_state;
    if (!nm || unit < 0 || unit >= nm->ncores || thread < 0 || thread >= nm->nthreads)
        return NULL;
    *cp = &nm->cores[unit];
    return &nm->cores[unit].t[thread];
}

static uint32_t *cr_field(nyz_core *c, nyz_thread *t, int k)
{
    switch (k) {
    case 0: return &t->flags;
    case 1: return &t->asid;
    case 2: return &t->page_dir;
    case 3: return &t->int_mask;
    case 4: return &t->ts[0].pc;
    case 5: return &t->ts[0].cause;
    case 6: return &t->ts[0].addr;
    case 7: return &t->subcycle;
    case 8: return &t->ts[0].flags;
    case 9: return &t->ts[0].syscall;
    case 10: return &t->latched;
    case 11: return &c->trap_handler;
    case 12: return &c->tlb_miss_handler;
    default: return NULL;
    }
}

static int nyz_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    nyz_core *c;
    nyz_thread *t = thr(m, unit, thread < 0 ? 0 : thread, &c);
    if (!t || reg < 0 || reg >= NREGS)
        return -1;
    if (reg < 32)
        mem_st32le(buf, t->s[reg]);
    else if (reg == REG_PC)
        mem_st32le(buf, t->pc);
    else if (reg < REG_CR0)
        for (int l = 0; l < NYZ_LANES; l++)
            mem_st32le(buf + 4 * l, t->v[reg - REG_V0][l]);
    else
        mem_st32le(buf, *cr_field(c, t, reg - REG_CR0));
    return 0;
}

static int nyz_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    nyz_core *c;
    nyz_thread *t = thr(m, unit, thread < 0 ? 0 : thread, &c);
    if (!t || reg < 0 || reg >= NREGS)
        return -1;
    if (reg < 32)
        t->s[reg] = mem_ld32le(buf);
    else if (reg == REG_PC) {
        t->pc = mem_ld32le(buf);
        t->subcycle = 0;
        t->fe_sync = 1; /* the front end refetches from the new pc */
        c->due = 0;
    } else if (reg < REG_CR0)
        for (int l = 0; l < NYZ_LANES; l++)
            t->v[reg - REG_V0][l] = mem_ld32le(buf + 4 * l);
    else
        *cr_field(c, t, reg - REG_CR0) = mem_ld32le(buf);
    return 0;
}

static uint64_t nyz_pc_get(sim_machine *m, int unit, int thread)
{
    nyz_core *c;
    nyz_thread *t = thr(m, unit, thread, &c);
    return t ? t->pc : 0;
}

static void nyz_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    nyz_core *c;
    nyz_thread *t = thr(m, unit, thread, &c);
    if (!t) {
        snprintf(buf, n, "?");
        return;
    }
    sim_thread *st = &m->units[unit].threads[thread];
    snprintf(buf, n, "%s gid %d pc 0x%08x flags %c%c%c%s", st->state == SIM_T_READY ? "running" : "suspended",
             t->gid, t->pc, (t->flags & 4) ? 'S' : '-', (t->flags & 2) ? 'M' : '-', (t->flags & 1) ? 'I' : '-',
             t->subcycle ? " (mid gather/scatter)" : "");
}

static void cache_info(FILE *out, const char *name, const nyz_cache *c)
{
    unsigned valid = 0;
    for (unsigned i = 0; i < c->sets * c->ways; i++)
        valid += c->tag[i] != 0xffffffffu;
    fprintf(out, "%-4s %6u bytes, %u sets x %u ways x 64 B: %u lines valid, %llu hits, %llu misses\n",
            name, c->sets * c->ways * 64, c->sets, c->ways, valid, (unsigned long long)c->hits,
            (unsigned long long)c->misses);
}

/* The core a view shows: the debugger's unit, core 0 when none is selected. */
static nyz_core *view_core(sim_machine *m, int unit)
{
    nyz_machine *nm = m->isa_state;
    return &nm->cores[unit < 0 || unit >= nm->ncores ? 0 : unit];
}

static int nyz_view_cache(sim_machine *m, int unit, FILE *out)
{
    nyz_machine *nm = m->isa_state;
    nyz_core *c = view_core(m, unit);
    cache_info(out, "L1I", &c->l1i);
    cache_info(out, "L1D", &c->l1d);
    cache_info(out, "L2", &nm->l2);
    return 0;
}

static int nyz_view_tlb(sim_machine *m, int unit, FILE *out)
{
    nyz_core *c = view_core(m, unit);
    for (int d = 0; d < 2; d++) {
        nyz_tlb_entry *e = d ? c->dtlb : c->itlb;
        fprintf(out, "%s:\n", d ? "DTLB" : "ITLB");
        for (unsigned i = 0; i < c->tlb_sets * c->tlb_ways; i++)
            if (e[i].va != 1)
                fprintf(out, "  set %2u way %u: va 0x%08x -> pa 0x%08x asid %u flags %c%c%c%c%c\n",
                        i / c->tlb_ways, i % c->tlb_ways, e[i].va, e[i].pa_flags & ~0xfffu, e[i].asid,
                        (e[i].pa_flags & 16) ? 'G' : '-', (e[i].pa_flags & 8) ? 'S' : '-',
                        (e[i].pa_flags & 4) ? 'X' : '-', (e[i].pa_flags & 2) ? 'W' : '-',
                        (e[i].pa_flags & 1) ? 'P' : '-');
    }
    return 0;
}

static int nyz_view_perf(sim_machine *m, int unit, FILE *out)
{
    nyz_core *c = view_core(m, unit);
    for (int i = 0; i < NYZ_NPERF; i++)
        fprintf(out, "%2d %-22s %llu\n", i, nyz_counter_names[i], (unsigned long long)c->events[i]);
    return 0;
}

static int nyz_view_devices(sim_machine *m, int unit, FILE *out)
{
    nyz_machine *nm = m->isa_state;
    nyz_core *c = view_core(m, unit);
    fprintf(out, "timer count %u%s, interrupt levels 0x%x, trigger 0x%x, framebuffer 0x%08x (vga %s)\n",
            nm->timer_count, ev_pending(&nm->timer_ev) ? " (running)" : "", nm->int_levels,
            c->level_trig, nm->fb_base, nm->vga_enable ? "on" : "off");
    return 0;
}

/* The ISA's debugger views (`info NAME` in the debugger, `monitor info NAME` in GDB). */
static const isa_view nyz_views[] = {
    {"cache", "L1I, L1D of the core and the shared L2", nyz_view_cache},
    {"tlb", "ITLB and DTLB entries", nyz_view_tlb},
    {"perf", "performance event counts of the core", nyz_view_perf},
    {"devices", "timer, interrupts, framebuffer", nyz_view_devices},
    {NULL, NULL, NULL}};


static int nyz_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    if (avail < 4)
        return 0;
    nyz_disasm_word((uint32_t)addr, mem_ld32le(p), buf, n);
    return 4;
}

static void list_words(uint32_t base, const uint8_t *p, size_t len, const ld_image *img, FILE *out)
{
    char text[96];
    for (size_t off = 0; off + 4 <= len; off += 4) {
        uint32_t a = base + (uint32_t)off;
        for (int s = 0; img && s < img->nsyms; s++)
            if (img->syms[s].value == a && img->syms[s].name && img->syms[s].name[0] &&
                (img->syms[s].type == 2 || img->syms[s].type == 0) && img->syms[s].shndx)
                fprintf(out, "%08x <%s>:\n", a, img->syms[s].name);
        uint32_t w = mem_ld32le(p + off);
        nyz_disasm_word(a, w, text, sizeof text);
        fprintf(out, "%8x:\t%02x %02x %02x %02x\t%s\n", a, w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, w >> 24, text);
    }
}

static int nyz_disasm_image(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen)
{
    (void)opts;
    if (img->fmt == LD_ELF) {
        int any = 0;
        for (int i = 0; i < img->nsecs; i++) {
            const ld_section *s = &img->secs[i];
            if (!(s->flags & 4) || !s->data) /* SHF_EXECINSTR */
                continue;
            fprintf(out, "Disassembly of section %s:\n", s->name ? s->name : "?");
            list_words((uint32_t)s->addr, s->data, s->size, img, out);
            any = 1;
        }
        for (int i = 0; !any && i < img->nsegs; i++)
            if (img->segs[i].type == 1 && (img->segs[i].flags & 1))
                list_words((uint32_t)img->segs[i].vaddr, img->segs[i].data, img->segs[i].filesz, img, out);
        return 0;
    }
    if (img->fmt == LD_HEX) {
        uint32_t size = 1u << 24, top = 0;
        uint8_t *buf = calloc(size, 1);
        if (!buf) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (nyz_hex_load(img->file, img->file_size, buf, size, &top, err, errlen) < 0) {
            free(buf);
            return -1;
        }
        list_words(0, buf, top, NULL, out);
        free(buf);
        return 0;
    }
    list_words(0, img->file, img->file_size, NULL, out);
    return 0;
}

static int nyz_framebuffer(sim_machine *m, isa_framebuffer *fb)
{
    nyz_machine *nm = m->isa_state;
    uint32_t base = nm->fb_base, bytes = 640 * 480 * 4;
    if ((uint64_t)base + bytes > nm->ram_size)
        return -1;
    const uint8_t *p = nm->ram + base;
    for (unsigned i = 0; i < 640 * 480; i++, p += 4) /* memory bytes are R, G, B, A */
        nm->fb_pixels[i] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    fb->pixels = nm->fb_pixels;
    fb->width = 640;
    fb->height = 480;
    fb->stride = 640;
    return 0;
}

/* --profile's call edges (isa_ops.insn_flow): call and call through a register link ra to
 * the next instruction; a branch through a register (`ret` is `b ra`) may return. Read from
 * memory at the PC as a physical address (programs that page their code get no edges). */
static int nyz_insn_flow(sim_machine *m, int unit, uint64_t pc, uint64_t *ret)
{
    nyz_machine *nm = m->isa_state;
    nyz_insn in;
    (void)unit;
    if (!nm || (pc & 3) || pc + 4 > nm->ram_size || nyz_decode(mem_ld32le(nm->ram + pc), &in))
        return ISA_FLOW_NONE;
    if (in.kind == K_CALL || in.kind == K_CALL_REG) {
        *ret = pc + 4;
        return ISA_FLOW_CALL;
    }
    return in.kind == K_B_REG ? ISA_FLOW_RETURN : ISA_FLOW_NONE;
}

const isa_ops isa_nyuzi = {
    .name = "nyuzi",
    .description = "Nyuzi GPGPU: 16-lane vector cores, 4 threads per core (jbush001/NyuziProcessor)",
    .probe = nyz_probe,
    .options = nyz_options,
    .stall_names = nyz_stalls,
    .create = nyz_create,
    .destroy = nyz_destroy,
    .load = nyz_load,
    .unit_run = nyz_unit_run,
    .counters_sync = nyz_counters_sync,
    .independent_units = 0,
    .finish = nyz_finish,
    .regs = nyz_regs,
    .nregs = NREGS,
    .reg_read = nyz_reg_read,
    .reg_write = nyz_reg_write,
    .pc_get = nyz_pc_get,
    .thread_state = nyz_thread_state,
    .views = nyz_views,
    .code_space = "mem",
    .disasm = nyz_disasm,
    .disasm_image = nyz_disasm_image,
    .assemble = nyz_assemble,
    .asm_options = nyz_asm_options,
    .symbol_location = NULL,
    .framebuffer = nyz_framebuffer,
    .frame_period = 1000000,
    .insn_flow = nyz_insn_flow,
    .functional = 1,
    .timing_resume = nyz_timing_resume,
    .profile_fast = 1, /* pipeline.c and func.c feed --profile (notes/profile-api.md) */
};
