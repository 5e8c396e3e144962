/* isa/cert/machine.c: the CERT job-runner machine as xpusim sees it (isa_ops isa_cert).
 * Options and latencies come from timing.c; loading turns the aiebu ELF into a
 * cert_program (program.c) and hands it to the runner (runner.c), which makes one unit per
 * uC -- columns x 1 on aie2ps, columns x 2 on aie4, the target being the program's, so the
 * units are built at load rather than at create. For the debugger, a uC is a unit and its
 * job-table slots are its threads: r0-r7 belong to the job in a slot, g0-g15 to the uC, the
 * pc is page * 8192 + offset in the uC's host buffer, which is the "ctrl" space ("ctrl.N"
 * for uC N) so that disassembly reads the control code itself. */
#include <stdlib.h>
#include <string.h>
#include "runner.h"

/* ---- building and freeing the runner ---- */

static void uc_free(cert_uc *c)
{
    free(c->job);
    free(c->tct);
    free(c->q);
    free(c->rec);
    /* c->ctrl is the machine's or the uC's own space: the core frees it */
}

void cert_runner_free(sim_machine *m)
{
    cert_machine *cm = cert_m(m);
    if (!cm)
        return;
    for (int i = 0; cm->uc && i < cm->nuc; i++)
        uc_free(&cm->uc[i]);
    free(cm->uc);
    cm->uc = NULL;
    if (cm->array)
        cert_array_free(cm->array);
    cm->array = NULL;
    if (cm->have_prog)
        cert_program_free(&cm->prog);
    cm->have_prog = 0;
    for (int i = 0; i < cm->nunit_progs; i++)
        cert_program_free(&cm->unit_progs[i]);
    free(cm->unit_progs);
    cm->unit_progs = NULL;
    cm->nunit_progs = 0;
    free(cm->ptct);
    free(cm->warned);
    free(cm->last_report);
    cm->ptct = NULL;
    cm->warned = NULL;
    cm->last_report = NULL;
}

int cert_runner_load(sim_machine *m, cert_program *p, char *err, size_t errlen)
{
    cert_machine *cm = cert_m(m);
    if (cm->have_prog || m->units) {
        snprintf(err, errlen, "a CERT machine runs one program: build a new machine for another");
        cert_program_free(p);
        return -1;
    }
    cm->prog = *p;
    memset(p, 0, sizeof *p);
    cm->have_prog = 1;
    cm->running = -1;
    const cert_program *pr = &cm->prog;
    /* Without -o spec the writer decides: aiebu Feb-2025 writes OSABI 0x40 with ABI 0x01/0x02
     * and the 6-byte LOAD_PDI; newer aiebu writes the group OSABI 0x46 (no .target) or a
     * config ELF (ABI 0x21) with the latest table (checked on aiebu's own test ELFs). */
    if (!cm->tm.spec)
        cm->tm.spec = pr->osabi == 0x40 && pr->abi_version <= 0x02 ? CERT_SPEC_2502 : CERT_SPEC_LATEST;
    if (cm->tm.target >= 0)
        cm->prog.target = cm->tm.target;
    else if (pr->target == CERT_T_GROUP)
        cm->prog.target = CERT_T_AIE2PS;
    int upc = cert_target_ucs_per_column(pr->target);
    unsigned cols = cm->tm.columns ? cm->tm.columns : (unsigned)((pr->nuc + upc - 1) / upc);
    if (!cols)
        cols = 1;
    if (pr->nuc > (int)cols * upc) {
        snprintf(err, errlen, "the program has control code for uC %d, but -o columns=%u gives %u uC(s) on %s", pr->nuc - 1,
                 cols, cols * (unsigned)upc, cert_target_name(pr->target));
        return -1;
    }
    cm->nuc = (int)cols * upc;
    if (sim_add_units(m, cm->nuc, cm->tm.job_slots, "uc%d", cm->tm.uc_mhz * 1e6) ||
        !(cm->uc = calloc((size_t)cm->nuc, sizeof *cm->uc))) {
        snprintf(err, errlen, "out of memory for %d uCs", cm->nuc);
        return -1;
    }
    /* the topology (issue 11 pt 1): column > uC, groups col0, col1... of upc uCs each; the
     * uCs keep their machine-wide numbers (uc5 is col1's second with 4 per column) */
    for (unsigned c = 0; c < cols; c++) {
        char gname[16];
        snprintf(gname, sizeof gname, "col%u", c);
        sim_group *g = sim_add_group(m, gname, NULL);
        if (!g || sim_group_take_units(m, g, (int)c * upc, upc)) {
            snprintf(err, errlen, "out of memory for column %u", c);
            return -1;
        }
    }
    unsigned acols = cm->tm.array_columns > cols ? cm->tm.array_columns : cols;
    cm->opaque_array = upc > 1;
    cert_array_cfg cfg = {pr->target, acols, cm->tm.rows, cm->tm.mem_rows, cm->tm.strict, cm->tm.dma_task_setup,
                          cm->tm.dma_words_per_cycle, cm->opaque_array};
    cm->array = cert_array_new(&cfg);
    if (!cm->array || sim_register_event(m, &cm->array_ev, "array", cert_array_event, m, -2) ||
        sim_register_event(m, &cm->tct_ev, "tokens", cert_tct_event, m, -1) || cert_array_space(m, acols)) {
        snprintf(err, errlen, "cannot build the array model (%u columns x %u rows)", acols, cm->tm.rows);
        return -1;
    }
    for (int i = 0; i < cm->nuc; i++) {
        cert_uc *c = &cm->uc[i];
        sim_unit *u = &m->units[i];
        c->m = m;
        c->index = i;
        c->cur = -1;
        c->nslots = cm->tm.job_slots;
        c->code = i < pr->nuc && pr->uc[i].present ? &pr->uc[i] : NULL;
        c->present = c->code != NULL;
        u->isa = c;
        c->job = calloc((size_t)c->nslots, sizeof *c->job);
        if (!c->job || sim_unit_counters(u, cert_counter_names, CN_COUNT) ||
            sim_unit_thread_counters(u, cert_job_counter_names, CJC_COUNT) ||
            sim_register_event(m, &c->dma_ev, "ucdma", cert_ucdma_done, c, -1)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        c->cnt = u->counters;
        for (int s = 0; s < c->nslots; s++) /* free slots: no thread until a job is parsed */
            u->threads[s].state = SIM_T_DISABLED;
        /* the debugger disassembles the uC's host buffer: "ctrl" is uC 0's, the machine's
         * (what --mem-hash lists); "ctrl.N" is uC N's own space (sim_unit_add_space; also
         * "ctrl@colC.ucN"), freed by the core */
        char name[32];
        snprintf(name, sizeof name, i ? "ctrl.%d" : "ctrl", i);
        c->ctrl = !i ? sim_add_space(m, name, 1, 4, 0) : sim_unit_add_space(m, u, "ctrl", name, 1, 4, 0);
        if (!c->ctrl || (c->present && c->code->len &&
                         !mem_add_ram_ext(c->ctrl, "ctrl", 0, c->code->len, MEM_R | MEM_X, c->code->buf))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (c->present)
            cm->npresent++;
    }
    if (!cm->npresent) {
        snprintf(err, errlen, "the program has control code for no uC");
        return -1;
    }
    for (int i = 0; i < cm->nuc; i++) {
        cert_uc *c = &cm->uc[i];
        if (!c->present) {
            sim_unit_disable(m, &m->units[i]);
            continue;
        }
        if (!c->code->npages) {
            c->done = 1;
            sim_unit_halt(m, &m->units[i], 0);
            continue;
        }
        cert_uc_start(m, c);
    }
    return 0;
}

/* isa_ops.load_unit: uC `unit` runs its own control code, from img: img's code for that
 * uC when it has some, else, when img has code for one uC only, that code (a one-column
 * program placed on any column's uC). It replaces what load gave the uC (a uC the machine's
 * program left without code is enabled), before the run: the uC starts at page 0 as load
 * starts every uC. img must be a program of the machine's target. */
int cert_runner_load_unit(sim_machine *m, int unit, const ld_image *img, char *err, size_t errlen)
{
    cert_machine *cm = cert_m(m);
    if (!cm->have_prog || !cm->uc) {
        snprintf(err, errlen, "a uC's own control code comes after the machine's program (load)");
        return -1;
    }
    if (unit < 0 || unit >= cm->nuc) {
        snprintf(err, errlen, "no uC %d (the machine has %d)", unit, cm->nuc);
        return -1;
    }
    if (m->now || sim_total_instructions(m)) {
        snprintf(err, errlen, "a uC's own control code is placed before the run");
        return -1;
    }
    cert_program p;
    memset(&p, 0, sizeof p);
    if (cert_program_load(img, cm->tm.spec, &p, err, errlen))
        return -1;
    int target = p.target == CERT_T_GROUP ? CERT_T_AIE2PS : p.target;
    if (cm->tm.target < 0 && target != cm->prog.target) {
        snprintf(err, errlen, "%s is an %s program; the machine's is %s", img->path, cert_target_name(target),
                 cert_target_name(cm->prog.target));
        cert_program_free(&p);
        return -1;
    }
    int k = unit < p.nuc && p.uc[unit].present ? unit : -1, npresent = 0, only = -1;
    for (int i = 0; i < p.nuc; i++)
        if (p.uc[i].present) {
            npresent++;
            only = i;
        }
    if (k < 0 && npresent == 1)
        k = only;
    if (k < 0) {
        snprintf(err, errlen, "%s has no control code for uC %d and code for %d uCs (give a program for that uC, or "
                 "one with one uC's code)", img->path, unit, npresent);
        cert_program_free(&p);
        return -1;
    }
    cert_program *v = realloc(cm->unit_progs, sizeof *v * (size_t)(cm->nunit_progs + 1));
    if (!v) {
        snprintf(err, errlen, "out of memory");
        cert_program_free(&p);
        return -1;
    }
    cm->unit_progs = v;
    v[cm->nunit_progs++] = p; /* p.uc stays where it is: the uC's pointer into it holds */
    cert_uc *c = &cm->uc[unit];
    sim_unit *u = &m->units[unit];
    cert_ucode *code = &v[cm->nunit_progs - 1].uc[k];
    /* the debugger's "ctrl" view of the uC: the new host buffer */
    if (c->ctrl->nregions) {
        c->ctrl->regions[0].data = code->buf;
        c->ctrl->regions[0].size = code->len;
    } else if (code->len && !mem_add_ram_ext(c->ctrl, "ctrl", 0, code->len, MEM_R | MEM_X, code->buf)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!c->present) {
        sim_unit_enable(m, u);
        cm->npresent++;
    }
    c->code = code;
    c->present = 1;
    ev_cancel(&m->q, &u->ev); /* load's start of the old code */
    memset(c->ctx, 0, sizeof c->ctx);
    c->depth = 0;
    c->idle = 0;
    c->idle_since = 0;
    if (c->done) { /* the old code had no page */
        c->done = 0;
        sim_unit_resume(m, u);
    }
    if (!code->npages) {
        c->done = 1;
        sim_unit_halt(m, u, 0);
        return 0;
    }
    cert_uc_start(m, c);
    return 0;
}

static int cert_create(sim_machine *m, char *err, size_t errlen)
{
    cert_machine *cm = calloc(1, sizeof *cm);
    if (!cm) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->isa_state = cm;
    cm->running = -1;
    if (cert_timing_read(&m->opts, &cm->tm, err, errlen))
        return -1;
    cm->tm_cycle = cm->tm;
    if (m->functional) /* -o timing=none */
        cert_timing_functional(&cm->tm);
    return 0;
}

void cert_timing_resume(sim_machine *m)
{
    cert_machine *cm = cert_m(m);
    cert_timing_latencies(&cm->tm, &cm->tm_cycle);
    if (cm->array)
        cert_array_set_timing(cm->array, cm->tm.dma_task_setup, cm->tm.dma_words_per_cycle);
}

static void cert_destroy(sim_machine *m)
{
    cert_machine *cm = cert_m(m);
    if (!cm)
        return;
    cert_runner_free(m);
    free(cm);
    m->isa_state = NULL;
}

static int cert_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    cert_program p;
    memset(&p, 0, sizeof p);
    if (cert_program_load(img, cert_m(m)->tm.spec ? cert_m(m)->tm.spec : CERT_SPEC_2502, &p, err, errlen))
        return -1;
    return cert_runner_load(m, &p, err, errlen);
}

static int cert_probe(const ld_image *img) { return cert_probe_image(img); }

/* After any stop: a deadlock the core found (its livelock watchdog) gets the report too. */
static void cert_finish(sim_machine *m)
{
    cert_machine *cm = cert_m(m);
    if (cm && cm->uc && m->stop.kind == SIM_STOP_DEADLOCK && !cm->hang_printed) {
        if (m->err)
            fprintf(m->err, "xpusim: what each uC waits for:\n");
        cert_hang_report(m, m->err);
        cm->hang_printed = 1;
    }
}

/* columns and spec: without -o, the program decided */
static const char *cert_option_value(const sim_machine *m, const char *name, char *buf, size_t n)
{
    const cert_machine *cm = cert_m(m);
    if (!cm || !cm->have_prog)
        return NULL;
    if (!strcmp(name, "spec") && !opt_get(&m->opts, "spec", NULL))
        return cert_spec_name(cm->tm.spec);
    if (!strcmp(name, "target") && !opt_get(&m->opts, "target", NULL))
        return cert_target_name(cm->prog.target);
    if (!strcmp(name, "array_columns") && !opt_get(&m->opts, "array_columns", NULL)) {
        snprintf(buf, n, "%u", cm->tm.array_columns);
        return buf;
    }
    if (strcmp(name, "columns") || cm->tm.columns)
        return NULL;
    snprintf(buf, n, "%d", cm->nuc / cert_target_ucs_per_column(cm->prog.target));
    return buf;
}

/* ---- registers ---- */
#define RT(n) {n, 32, ISA_REG_THREAD, 0, "general"}
#define RU(n) {n, 32, ISA_REG_UNIT, 0, "global"}
static const isa_reg cert_regs[] = {
    RT("r0"), RT("r1"), RT("r2"), RT("r3"), RT("r4"), RT("r5"), RT("r6"), RT("r7"),
    RU("g0"), RU("g1"), RU("g2"), RU("g3"), RU("g4"), RU("g5"), RU("g6"), RU("g7"),
    RU("g8"), RU("g9"), RU("g10"), RU("g11"), RU("g12"), RU("g13"), RU("g14"), RU("g15"),
    {"pc", 32, ISA_REG_THREAD, ISA_REG_PC, "special"},
    {"job_id", 16, ISA_REG_THREAD, ISA_REG_RO, "special"},
    /* the pc split into the job's page and offset (pc = page * 8192 + offset) */
    {"page", 32, ISA_REG_THREAD, ISA_REG_RO, "special"},
    {"offset", 32, ISA_REG_THREAD, ISA_REG_RO, "special"},
};
#define CERT_NREGS ((int)(sizeof cert_regs / sizeof cert_regs[0]))
enum { RI_PC = 24, RI_JOB, RI_PAGE, RI_OFFSET };
static uint64_t cert_pc_get(sim_machine *m, int unit, int thread);

static cert_uc *uc_of(sim_machine *m, int unit)
{
    cert_machine *cm = cert_m(m);
    return cm && cm->uc && unit >= 0 && unit < cm->nuc ? &cm->uc[unit] : NULL;
}

static int cert_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    cert_uc *c = uc_of(m, unit);
    if (!c || reg < 0 || reg >= CERT_NREGS || (cert_regs[reg].scope == ISA_REG_THREAD && (thread < 0 || thread >= c->nslots)))
        return -1;
    uint64_t v;
    if (reg < CERT_NLOCAL_REG)
        v = c->job[thread].r[reg];
    else if (reg < CERT_NREG)
        v = c->g[reg - CERT_NLOCAL_REG];
    else if (reg == RI_JOB)
        v = c->job[thread].id;
    else if (reg == RI_PAGE)
        v = cert_pc_get(m, unit, thread) / CERT_PAGE_SIZE;
    else if (reg == RI_OFFSET)
        v = cert_pc_get(m, unit, thread) % CERT_PAGE_SIZE;
    else
        v = cert_pc_get(m, unit, thread);
    for (unsigned i = 0; i < (cert_regs[reg].bits + 7) / 8; i++)
        buf[i] = (uint8_t)(v >> (8 * i));
    return 0;
}

static int cert_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    cert_uc *c = uc_of(m, unit);
    if (!c || reg < 0 || reg >= CERT_NREGS || (cert_regs[reg].flags & ISA_REG_RO) ||
        (cert_regs[reg].scope == ISA_REG_THREAD && (thread < 0 || thread >= c->nslots)))
        return -1;
    uint32_t v = mem_ld32le(buf);
    if (reg < CERT_NLOCAL_REG)
        c->job[thread].r[reg] = v;
    else if (reg < CERT_NREG)
        c->g[reg - CERT_NLOCAL_REG] = v;
    else { /* pc: stays within the job's own page (the runner fetches page by page) */
        if (v / CERT_PAGE_SIZE != c->job[thread].page)
            return -1;
        c->job[thread].off = v % CERT_PAGE_SIZE;
    }
    return 0;
}

static uint64_t cert_pc_get(sim_machine *m, int unit, int thread)
{
    cert_uc *c = uc_of(m, unit);
    if (!c || thread < 0 || thread >= c->nslots)
        return 0;
    if (c->job[thread].state == CJ_FREE)
        return cert_pc(c->ctx[c->depth].page, c->ctx[c->depth].parse);
    return cert_pc(c->job[thread].page, c->job[thread].off);
}

/* A thread is a job-table slot; the jobs it hosts come and go. */
static void cert_thread_name(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    (void)m, (void)unit;
    snprintf(buf, n, "job slot %d", thread);
}

static void cert_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    cert_uc *c = uc_of(m, unit);
    if (!c || thread < 0 || thread >= c->nslots) {
        snprintf(buf, n, "?");
        return;
    }
    if (!c->present) {
        snprintf(buf, n, "uC without control code");
        return;
    }
    const cert_job *j = &c->job[thread];
    if (j->state == CJ_FREE) {
        snprintf(buf, n, "free job-table slot");
        return;
    }
    /* "job 2 blocked at page 0 offset 0x6c: waits for TCTs from ...": id, state, pc, wait */
    char w[400];
    const char *st = j->state == CJ_BLOCKED ? "blocked" : j->state == CJ_DEFERRED ? "deferred" : "ready", *what = w;
    cert_wait_text(m, c, thread, w, sizeof w);
    if (j->state == CJ_READY && c->cur == thread) {
        st = "running";
        what = "";
    } else if (j->state == CJ_READY && !strncmp(w, "ready, ", 7)) {
        what = w + 7;
    } else if (j->state == CJ_DEFERRED && !strncmp(w, "deferred: ", 10)) {
        what = w + 10;
    } else if (j->state == CJ_BLOCKED) {
        memmove(w + 10, w, strnlen(w, sizeof w - 11) + 1);
        memcpy(w, "waits for ", 10);
        w[sizeof w - 1] = 0;
    }
    snprintf(buf, n, "job %u %s at page %u offset 0x%x%s%s", j->id, st, j->page, j->off, *what ? ": " : "", what);
}

/* Every uC's control code by name: "ctrl" with the debugger's unit, or "ctrl.N". */
static mem_space *cert_unit_space(sim_machine *m, int unit, const char *name)
{
    cert_uc *c = uc_of(m, unit);
    return c && strcmp(name, "ctrl") == 0 ? c->ctrl : NULL;
}

const isa_ops isa_cert = {
    .name = "cert",
    .description = "AMD AIE CERT control-code job-runner (AIE2PS/AIE4 uController) with the array registers it drives",
    .probe = cert_probe,
    .options = cert_options,
    .option_value = cert_option_value,
    .stall_names = cert_stall_names,
    .create = cert_create,
    .destroy = cert_destroy,
    .load = cert_load,
    .load_unit = cert_runner_load_unit,
    .unit_run = cert_unit_run,
    /* Coupling (isa/isa.h, issue 11): uCs stay cycle-coupled, the default. They are not
     * event-coupled: a job's poll (POLL_32, MASK_POLL_32, UC_DMA_MASK_POLL_EXT, the lock
     * acquire) reads array registers that another uC's AXI writes change, while the polling
     * job is running, not blocked; and runner_io.c keeps causality by lowering the running
     * uC's horizon to every event or wake it makes earlier, which needs the next-event
     * horizon. Event coupling would need the array's state changes delivered as events to
     * blocked jobs only (a poll that fails blocks until the array changes). */
    .independent_units = 0,
    .functional = 1,
    .timing_resume = cert_timing_resume,
    .finish = cert_finish,
    .regs = cert_regs,
    .nregs = CERT_NREGS,
    .reg_read = cert_reg_read,
    .reg_write = cert_reg_write,
    .pc_get = cert_pc_get,
    .thread_state = cert_thread_state,
    .thread_name = cert_thread_name,
    .views = cert_views,
    .code_space = "ctrl",
    .disasm = cert_disasm_one,
    .disasm_image = cert_disasm_program,
    .assemble = cert_assemble,
    .asm_options = cert_asm_options,
    .unit_space = cert_unit_space,
};
