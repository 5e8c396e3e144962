/* isa/mccp/machine.c: the MCCP machine as xpusim sees it (isa_ops isa_mccp).
 * Builds 4 units (core0..core3, one thread each, 1 MHz), the shared "ram" space (65536
 * 32-bit words, word-addressed) and the "rom" space (the 8192-word ROM every core holds a
 * copy of, addressed in 16-bit slots, big-endian, so PC = ip*2 + half and the high half
 * comes first), the arbiter event, options, loading of .out images with the start protocol
 * (cycle 1 is the dummy save, the first instruction saves at cycle 5), the debugger's view
 * (registers, state lines, "info arbiter"/"info stack") and the framebuffer view of RAM. */
#include <stdlib.h>
#include <string.h>
#include "mccp.h"
#include "../../core/sched.h"

static const opt_desc mccp_options[] = {
    OPT_L("cores", "0,1,2,3", MCCP_CORES, "enabled cores (comma-separated indices)"),
    OPT_C("semantics", "rtl", ((const char *const[]){"rtl", "doc", NULL}),
          "rtl = HEAD RTL behaviour with its quirks; doc = the ISA document's behaviour"),
    OPT_U("arbiter_phase", "2", 0, 3, "arbiter pointer value before cycle 1"),
    OPT_U("warm_restart", "0", 0, 1000,
          "start the cores again N more times after all have executed int (state kept as the RTL keeps it)"),
    OPT_U("fault_stop", "1", 0, 1, "stop at the first stack protection fault (1) or only count faults (0)"),
    OPT_U("fb_base", "0", 0, MCCP_RAM_WORDS - 1, "RAM word where the framebuffer starts"),
    OPT_U("fb_width", "1024", 1, 4096, "framebuffer width in pixels (one RAM word each)"),
    OPT_U("fb_height", "64", 1, 4096, "framebuffer height in rows"),
    OPT_C("fb_palette", "rgb", ((const char *const[]){"rgb", "mono", NULL}),
          "rgb = words are 0x00RRGGBB; mono = non-zero words are white"),
    OPT_END};

static const char *const mccp_stall_names[] = {"memory", "arbiter_wait", "exception_dump", NULL};
static const char *const mccp_counter_names[] = {"loads", "stores", "stack_faults", "div_by_zero", "ram_transactions"};

enum { R_REG0, R_SP = 6, R_IP = 7, R_PC, R_FLAGS, R_HALF, R_SB, R_MSB, R_MSE, R_EXC, R_NREGS };
static const isa_reg mccp_regs[] = {
    {"reg0", 32, ISA_REG_THREAD, 0, "general"}, {"reg1", 32, ISA_REG_THREAD, 0, "general"},
    {"reg2", 32, ISA_REG_THREAD, 0, "general"}, {"reg3", 32, ISA_REG_THREAD, 0, "general"},
    {"reg4", 32, ISA_REG_THREAD, 0, "general"}, {"reg5", 32, ISA_REG_THREAD, 0, "general"},
    {"sp", 32, ISA_REG_THREAD, 0, "general"},   {"ip", 32, ISA_REG_THREAD, 0, "general"},
    {"pc", 32, ISA_REG_THREAD, ISA_REG_PC, "special"}, {"flags", 8, ISA_REG_THREAD, 0, "special"},
    {"half", 8, ISA_REG_THREAD, 0, "special"},
    {"stack_begin", 32, ISA_REG_THREAD, 0, "control"}, {"my_stack_begin", 32, ISA_REG_THREAD, 0, "control"},
    {"my_stack_end", 32, ISA_REG_THREAD, 0, "control"}, {"stack_exc_addr", 32, ISA_REG_THREAD, 0, "control"},
};

static int mccp_probe(const ld_image *img) { return img->fmt == LD_OUT ? 80 : 0; }

/* An integer option of mccp_options (its default and range are the table's). */
static int opt_u(const sim_opts *o, const char *k, unsigned *out, char *err, size_t n)
{
    uint64_t v;
    if (opt_uint(o, mccp_options, k, &v, err, n))
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int mccp_create(sim_machine *m, char *err, size_t errlen)
{
    mccp_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->isa_state = s;
    const sim_opts *o = &m->opts;
    uint64_t mask;
    if (opt_list(o, mccp_options, "cores", &mask, err, errlen))
        return -1;
    if (!mask) {
        snprintf(err, errlen, "option cores: at least one core must be enabled");
        return -1;
    }
    s->core_mask = (unsigned)mask;
    int sem, pal; /* indices of the choices: rtl = MCCP_SEM_RTL, doc = MCCP_SEM_DOC */
    if (opt_choice(o, mccp_options, "semantics", &sem, err, errlen) ||
        opt_choice(o, mccp_options, "fb_palette", &pal, err, errlen))
        return -1;
    s->sem = sem;
    mccp_cond_masks(s->sem, s->cond_mask);
    s->fb_mono = (unsigned)pal;
    unsigned fs;
    if (opt_u(o, "arbiter_phase", &s->phase, err, errlen) || opt_u(o, "warm_restart", &s->warm_restart, err, errlen) ||
        opt_u(o, "fault_stop", &fs, err, errlen) || opt_u(o, "fb_base", &s->fb_base, err, errlen) ||
        opt_u(o, "fb_width", &s->fb_width, err, errlen) || opt_u(o, "fb_height", &s->fb_height, err, errlen))
        return -1;
    s->fault_stop = (int)fs;
    if ((uint64_t)s->fb_base + (uint64_t)s->fb_width * s->fb_height > MCCP_RAM_WORDS) {
        snprintf(err, errlen, "framebuffer fb_base=%u + fb_width=%u x fb_height=%u words does not fit in the %u-word RAM",
                 s->fb_base, s->fb_width, s->fb_height, MCCP_RAM_WORDS);
        return -1;
    }
    s->runs_left = s->warm_restart;
    s->pd = calloc(MCCP_ROM_WORDS, sizeof *s->pd);
    s->fb_pixels = calloc(MCCP_RAM_WORDS, sizeof *s->fb_pixels);
    if (!s->pd || !s->fb_pixels || mccp_fast_init(s) || sim_add_units(m, MCCP_CORES, 1, "core%d", MCCP_CLOCK_HZ)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ram_space = sim_add_space(m, "ram", 4, 4, 0);
    s->rom_space = sim_add_space(m, "rom", 2, 2, 1);
    mem_region *ram = s->ram_space ? mem_add_ram(s->ram_space, "ram", 0, MCCP_RAM_WORDS, MEM_RW) : NULL;
    mem_region *rom = s->rom_space ? mem_add_ram(s->rom_space, "rom", 0, MCCP_ROM_WORDS * 2, MEM_R | MEM_X) : NULL;
    if (!ram || !rom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->ram = ram->data;
    s->rom = rom->data;
    for (int i = 0; i < MCCP_CORES; i++) {
        mccp_core *c = &s->core[i];
        c->r[7] = 0xFFFFFFFFu; /* configuration state: ip = -1, instr_choose = 1 */
        c->half = 1;
        c->next_save = SIM_NEVER;
        if (sim_unit_counters(&m->units[i], mccp_counter_names, MCCP_NCOUNTERS)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (!(s->core_mask >> i & 1))
            sim_unit_disable(m, &m->units[i]);
    }
    if (mccp_arb_init(m)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void mccp_destroy(sim_machine *m)
{
    mccp_state *s = mccp_st(m);
    if (!s)
        return;
    free(s->pd);
    free(s->rec);
    free(s->rom_seen);
    free(s->prof_none);
    free(s->prof_mem);
    free(s->fb_pixels);
    free(s);
    m->isa_state = NULL;
}

/* Start a core whose first instruction saves at first_save. */
void mccp_start_core(sim_machine *m, int core, uint64_t first_save)
{
    mccp_state *s = mccp_st(m);
    s->core[core].next_save = first_save;
    sched_start(&m->units[core], 0, first_save);
}

/* `int` executed at cycle t: the core's run is over (or, with warm_restart, this run). */
void mccp_core_done(sim_machine *m, sim_unit *u, uint64_t t)
{
    mccp_state *s = mccp_st(m);
    if (!s->runs_left) {
        sched_halt(u, 0, t);
        return;
    }
    sched_sleep(u, 0);
    s->done_mask |= 1u << u->index;
    if (t > s->done_last)
        s->done_last = t;
    if (s->done_mask != s->core_mask)
        return;
    /* every enabled core has pulsed int: the host starts them again at once. The earliest
     * start pulse is seen at edge done+1; the cores stopped in state 0, so there is no dummy
     * save: done+2 is a fetch and the first save edge is done+5. */
    s->runs_left--;
    s->done_mask = 0;
    for (int i = 0; i < MCCP_CORES; i++)
        if (s->core_mask >> i & 1) {
            s->core[i].next_save = s->done_last + 5;
            sched_wake(&m->units[i], 0, s->done_last + 5);
        }
}

static int mccp_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    mccp_state *s = mccp_st(m);
    size_t n;
    const uint32_t *words = img->words;
    uint32_t *tmp = NULL;
    if (img->fmt == LD_OUT || img->fmt == LD_HEX || img->fmt == LD_TXT) {
        n = img->nwords;
    } else if (img->fmt == LD_RAW) {
        if (img->file_size % 4) {
            snprintf(err, errlen, "%s: raw ROM image is %zu bytes, expected a multiple of 4 (little-endian 32-bit words)",
                     img->path, img->file_size);
            return -1;
        }
        n = img->file_size / 4;
        tmp = malloc(n ? n * 4 : 4);
        if (!tmp) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            tmp[i] = mem_ld32le(img->file + 4 * i);
        words = tmp;
    } else {
        snprintf(err, errlen, "%s: MCCP programs are ROM images (.out: one 32-character 0/1 line per word), not %s",
                 img->path, ld_format_name(img->fmt));
        return -1;
    }
    if (n > MCCP_ROM_WORDS) {
        snprintf(err, errlen, "%s: %zu ROM words, but the MCCP ROM holds %u", img->path, n, MCCP_ROM_WORDS);
        free(tmp);
        return -1;
    }
    memset(s->rom, 0, MCCP_ROM_WORDS * 4);
    for (size_t i = 0; i < n; i++)
        mem_st32be(s->rom + 4 * i, words[i]);
    free(tmp);
    memset(s->pd, 0, MCCP_ROM_WORDS * sizeof *s->pd);
    mccp_fast_reset(s);
    /* Start pulse: cycle 1 is the dummy save that sets ip = 0 (high half); the first real
     * instruction saves at cycle 5. */
    for (int i = 0; i < MCCP_CORES; i++) {
        if (!(s->core_mask >> i & 1))
            continue;
        s->core[i].r[7] = 0;
        s->core[i].half = 0;
        mccp_start_core(m, i, 5);
    }
    return 0;
}

static int reg_io(sim_machine *m, int unit, int reg, uint8_t *buf, int write)
{
    mccp_state *s = mccp_st(m);
    if (unit < 0 || unit >= MCCP_CORES || reg < 0 || reg >= R_NREGS)
        return -1;
    mccp_core *c = &s->core[unit];
    uint32_t v = 0;
    if (write) {
        v = mem_ld32le(buf);
        if (mccp_regs[reg].bits == 8)
            v = buf[0];
    }
    uint32_t *p = NULL;
    switch (reg) {
    case R_PC:
        if (write) {
            c->r[7] = v >> 1;
            c->half = v & 1;
        }
        v = (uint32_t)mccp_slot(c);
        break;
    case R_FLAGS:
        if (write)
            c->flags = v & 15;
        v = c->flags;
        break;
    case R_HALF:
        if (write)
            c->half = v & 1;
        v = c->half;
        break;
    case R_SB: p = &c->stack_begin; break;
    case R_MSB: p = &c->my_stack_begin; break;
    case R_MSE: p = &c->my_stack_end; break;
    case R_EXC: p = &c->stack_exc_addr; break;
    default: p = &c->r[reg]; break;
    }
    if (p) {
        if (write)
            *p = v;
        v = *p;
    }
    if (!write) {
        if (mccp_regs[reg].bits == 8)
            buf[0] = (uint8_t)v;
        else
            mem_st32le(buf, v);
    }
    return 0;
}

static int mccp_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    (void)thread;
    return reg_io(m, unit, reg, buf, 0);
}

static int mccp_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    (void)thread;
    uint8_t tmp[4] = {0};
    memcpy(tmp, buf, mccp_regs[reg < 0 || reg >= R_NREGS ? 0 : reg].bits / 8);
    return reg_io(m, unit, reg, tmp, 1);
}

static uint64_t mccp_pc_get(sim_machine *m, int unit, int thread)
{
    (void)thread;
    return unit >= 0 && unit < MCCP_CORES ? mccp_slot(&mccp_st(m)->core[unit]) : 0;
}

static void mccp_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    (void)thread;
    mccp_state *s = mccp_st(m);
    const sim_unit *u = &m->units[unit];
    const mccp_core *c = &s->core[unit];
    if (!u->enabled)
        snprintf(buf, n, "disabled (option cores)");
    else if (u->halted)
        snprintf(buf, n, "halted by int at cycle %llu", (unsigned long long)u->halted_at);
    else if (c->dumping)
        snprintf(buf, n, "stack fault at cycle %llu: dumping registers, %u write(s) after the current one, then ip=0x%x",
                 (unsigned long long)c->mem_save, (unsigned)c->dump_left, c->stack_exc_addr);
    else if (c->waiting)
        snprintf(buf, n, "%s ram:0x%x since cycle %llu (request visible at %llu)%s", c->req_write ? "storing to" : "loading from",
                 c->req_addr & 0xFFFF, (unsigned long long)c->mem_save, (unsigned long long)c->req_visible,
                 c->req ? ", waiting for the arbiter" : "");
    else if (s->done_mask >> unit & 1)
        snprintf(buf, n, "executed int, waiting for the warm restart");
    else if (c->next_save != SIM_NEVER)
        snprintf(buf, n, "running, next save edge at cycle %llu", (unsigned long long)c->next_save);
    else
        snprintf(buf, n, "not started");
}

static int mccp_view_arbiter(sim_machine *m, int unit, FILE *out)
{
    (void)unit; /* one arbiter for the four cores */
    mccp_state *s = mccp_st(m);
    int next;
    uint64_t g = mccp_arb_next_grant(s, &next);
    fprintf(out, "arbiter: pointer %u after cycle %llu, idle from cycle %llu%s\n", s->arb_ref_ptr,
            (unsigned long long)s->arb_ref_edge, (unsigned long long)s->arb_free,
            s->arb_fresh ? " (first transaction still to come: +1 cycle)" : "");
    for (int i = 0; i < MCCP_CORES; i++) {
        const mccp_core *c = &s->core[i];
        if (c->req)
            fprintf(out, "  core%d: %s ram:0x%x, visible from cycle %llu\n", i, c->req_write ? "write" : "read",
                    c->req_addr & 0xFFFF, (unsigned long long)c->req_visible);
    }
    if (next >= 0)
        fprintf(out, "  next grant: core%d at cycle %llu (response %llu)\n", next, (unsigned long long)g,
                (unsigned long long)(g + 3 + (s->arb_fresh ? 1 : 0)));
    else
        fprintf(out, "  no pending request\n");
    return 0;
}

static int mccp_view_stack(sim_machine *m, int unit, FILE *out)
{
    mccp_state *s = mccp_st(m);
    for (int i = 0; i < MCCP_CORES; i++) {
        if (unit >= 0 && unit != i)
            continue;
        const mccp_core *c = &s->core[i];
        fprintf(out, "core%d: stack_begin 0x%x, own stack [0x%x, 0x%x), exception address 0x%x, sp 0x%x%s\n", i,
                c->stack_begin, c->my_stack_begin, c->my_stack_end, c->stack_exc_addr, c->r[6],
                c->wren_sticky ? ", wren_exception stuck: loads act as stores" : "");
    }
    return 0;
}

/* The ISA's debugger views (`info NAME` in the debugger, `monitor info NAME` in GDB). */
static const isa_view mccp_views[] = {
    {"arbiter", "round-robin RAM arbiter: pointer, pending requests, next grant", mccp_view_arbiter},
    {"stack", "stack protection registers of each core", mccp_view_stack},
    {NULL, NULL, NULL}};


static int mccp_framebuffer(sim_machine *m, isa_framebuffer *fb)
{
    mccp_state *s = mccp_st(m);
    size_t n = (size_t)s->fb_width * s->fb_height;
    const uint8_t *src = s->ram + (size_t)s->fb_base * 4;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = mem_ld32le(src + 4 * i);
        s->fb_pixels[i] = s->fb_mono ? (v ? 0xFFFFFFu : 0) : (v & 0xFFFFFFu);
    }
    fb->pixels = s->fb_pixels;
    fb->width = s->fb_width;
    fb->height = s->fb_height;
    fb->stride = s->fb_width;
    return 0;
}

/* --profile's call edges (isa_ops.insn_flow). MCCP has no call instruction: the assembler's
 * `call F` is `movl/movh reg5 RET; store reg5 sp; inc sp; movl/movh reg5 F; jXX reg5` and
 * `ret` is `dec sp; load reg5 sp; jmp reg5` (docs/isa/mccp.md). The 32-bit movl/movh start
 * ROM words, so a call's jump is the high half of word w after the two words of movl/movh
 * reg5 F, with word w-3 holding exactly `store reg5 sp | inc sp`; RET, a jump label, is word
 * w+1. A return is a `jmp reg5` right after `load reg5 sp`. Decided from the ROM words. */
static void flow_insn(const mccp_state *s, uint64_t slot, mccp_insn *in)
{
    mccp_decode(mem_ld32be(s->rom + 4 * ((slot / 2) & (MCCP_ROM_WORDS - 1))), (int)(slot & 1), in);
}

static int flow_is(const mccp_insn *in, int op, int r1, int r2)
{
    return in->op == op && in->r1 == r1 && (r2 < 0 || in->r2 == r2);
}

static int mccp_insn_flow(sim_machine *m, int unit, uint64_t pc, uint64_t *ret)
{
    const mccp_state *s = mccp_st(m);
    mccp_insn j, a, b, c, d;
    (void)unit;
    if (!s || !s->rom || pc >= 2 * MCCP_ROM_WORDS)
        return ISA_FLOW_NONE;
    flow_insn(s, pc, &j);
    if (j.len != 1 || j.op < MCCP_JE || j.op > MCCP_JMP || j.r1 != 5)
        return ISA_FLOW_NONE;
    uint64_t w = pc / 2;
    if (!(pc & 1) && w >= 3) {
        flow_insn(s, 2 * (w - 1), &a);
        flow_insn(s, 2 * (w - 2), &b);
        flow_insn(s, 2 * (w - 3), &c);
        flow_insn(s, 2 * (w - 3) + 1, &d);
        if (a.len == 2 && b.len == 2 && (a.op == MCCP_MOVL || a.op == MCCP_MOVH) && a.r1 == 5 &&
            (b.op == MCCP_MOVL || b.op == MCCP_MOVH) && b.r1 == 5 && c.len == 1 && d.len == 1 &&
            flow_is(&c, MCCP_STORE, 5, 6) && flow_is(&d, MCCP_INC, 6, -1)) {
            *ret = 2 * (w + 1);
            return ISA_FLOW_CALL;
        }
    }
    if (j.op != MCCP_JMP || (!(pc & 1) && w == 0))
        return ISA_FLOW_NONE;
    flow_insn(s, (pc & 1) ? pc - 1 : 2 * (w - 1) + 1, &a); /* the instruction before */
    return a.len == 1 && flow_is(&a, MCCP_LOAD, 5, 6) ? ISA_FLOW_RETURN : ISA_FLOW_NONE;
}

/* The end of a fast-forward: the cores go on from their own save edges (a core that
 * waits in a fault stop keeps its request). The arbiter starts idle, as if it had been idle
 * since configuration: its pointer after edge t is (arbiter_phase + t) mod 4 from the
 * switch on; the "first transaction" cycle is not charged again if the functional part
 * made one. */
static void mccp_timing_resume(sim_machine *m)
{
    mccp_state *s = mccp_st(m);
    s->arb_ref_edge = 0;
    s->arb_ref_ptr = s->phase & 3;
    if (s->arb_free < m->now + 1)
        s->arb_free = m->now + 1;
    mccp_arb_refresh(m);
}

const isa_ops isa_mccp = {
    .name = "mccp",
    .description = "MCCP multicore coprocessor (yewhenp/PureFPGA): 4 cores, shared 64K-word RAM, round-robin arbiter",
    .probe = mccp_probe,
    .options = mccp_options,
    .stall_names = mccp_stall_names,
    .create = mccp_create,
    .destroy = mccp_destroy,
    .load = mccp_load,
    .unit_run = mccp_core_run,
    .independent_units = 0,
    .finish = NULL,
    .regs = mccp_regs,
    .nregs = R_NREGS,
    .reg_read = mccp_reg_read,
    .reg_write = mccp_reg_write,
    .pc_get = mccp_pc_get,
    .thread_state = mccp_thread_state,
    .views = mccp_views,
    .code_space = "rom",
    .disasm = mccp_disasm,
    .disasm_image = mccp_disasm_image,
    .assemble = mccp_assemble,
    .symbol_location = NULL,
    .framebuffer = mccp_framebuffer,
    .frame_period = 16667,
    .insn_flow = mccp_insn_flow,
    .functional = 1,
    .timing_resume = mccp_timing_resume,
    .profile_fast = 1,
};
