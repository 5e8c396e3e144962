/* isa/ipu/machine.c: the Graphcore IPU as xpusim sees it (isa_ops isa_ipu). A machine is
 * one or more tiles (-o tiles=N), each a unit whose seven threads are the supervisor
 * (thread 0) and the worker contexts W0..W5 (threads 1..6); tile.c builds them and loads
 * the program, exec.c executes bundles, barrel.c issues them through the six-slot barrel.
 * Programs are recognised by ELF e_machine 248 (EM_GRAPHCORE_IPU). This file gives the
 * debugger its view: $m0-$m15, $a0-$a15 and the pc per context, the context's exception
 * and vertex/worker bases, a one-line state per context and `info barrel`.
 *
 * Which context runs a function decides how its words decode. A listing decodes each word
 * as llvm-objdump does: worker first, then supervisor when the worker decode fails; a
 * section or function symbol whose name contains "supervisor" (any case), or a section
 * with the assembler's IPU_SHF_SUPERVISOR flag, is decoded supervisor first. A listing
 * decodes for `xpusim disasm -o arch=...` (default ipu2), as a run does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "tile.h"

#define EM_GRAPHCORE_IPU 248

static const char *const ipu_stall_names[] = {"barrel", "dependency", "branch", "sync", "fpu", NULL};

static int ipu_probe(const ld_image *img)
{
    return img->fmt == LD_ELF && img->machine == EM_GRAPHCORE_IPU ? 100 : 0;
}

static int ipu_create(sim_machine *m, char *err, size_t errlen)
{
    ipu_exec_init();
    if (ipu_machine_create(m, err, errlen))
        return -1;
    /* the topology (issue 11 pt 1): IPU > tile, one IPU (group ipu0) holding every tile */
    sim_group *g = sim_add_group(m, "ipu0", NULL);
    if (!g || sim_group_take_units(m, g, 0, m->nunits)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void ipu_destroy(sim_machine *m)
{
    ipu_vertex_free(ipu_m(m));
    ipu_machine_destroy(m);
}

/* After `run --vertex FILE`: the output tensors and the cycles per context. */
static void ipu_finish(sim_machine *m)
{
    ipu_xchg_finish(m); /* a stop while tiles wait in a sync names them */
    if (ipu_m(m) && ipu_m(m)->vertex)
        ipu_vertex_report(m, 0, m->out, 1);
}

static int ipu_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    return ipu_machine_load(m, img, err, errlen);
}

static uint64_t ipu_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    return ipu_unit_run(m, u, now, horizon);
}

/* interleaved_base: without -o, the generation decided */
static const char *ipu_option_value(const sim_machine *m, const char *name, char *buf, size_t n)
{
    const ipu_machine *im = ipu_m(m);
    if (!im || strcmp(name, "interleaved_base") || opt_get(&m->opts, name, NULL))
        return NULL;
    snprintf(buf, n, "0x%x", im->interleaved_base);
    return buf;
}

/* ---- registers ---- */
#define RM(n) {"m" #n, 32, ISA_REG_THREAD, 0, "mrf"}
#define RA(n) {"a" #n, 32, ISA_REG_THREAD, 0, "arf"}
static const isa_reg ipu_regs[] = {
    RM(0), RM(1), RM(2), RM(3), RM(4), RM(5), RM(6), RM(7), RM(8), RM(9), RM(10), RM(11), RM(12), RM(13), RM(14), RM(15),
    RA(0), RA(1), RA(2), RA(3), RA(4), RA(5), RA(6), RA(7), RA(8), RA(9), RA(10), RA(11), RA(12), RA(13), RA(14), RA(15),
    {"pc", 32, ISA_REG_THREAD, ISA_REG_PC, "special"},
    {"vertex_base", 32, ISA_REG_THREAD, ISA_REG_RO, "status"},
    {"worker_base", 32, ISA_REG_THREAD, ISA_REG_RO, "status"},
    {"etype", 4, ISA_REG_THREAD, ISA_REG_RO, "status"},   /* $SSR/$WSR.ETYPE of the last exception */
    {"cause", 8, ISA_REG_THREAD, ISA_REG_RO, "status"},   /* its CAUSEID */
    {"exit_status", 1, ISA_REG_THREAD, ISA_REG_RO, "status"},
    {"repeat_count", 32, ISA_REG_THREAD, ISA_REG_RO, "status"}, /* $REPEAT_COUNT: rpt repetitions left */
    {"fp_sts", 32, ISA_REG_THREAD, ISA_REG_RO, "status"},       /* $FP_STS: INV, DIV0, OFLO */
    {"wsr", 32, ISA_REG_THREAD, ISA_REG_RO, "csr"},     /* $WSR (workers) / $SSR (supervisor) as `get` reads it */
    {"fp_ctl", 32, ISA_REG_THREAD, ISA_REG_RO, "csr"},  /* $FP_CTL */
    {"tas", 32, ISA_REG_THREAD, ISA_REG_RO, "csr"},     /* $TAS: the f32v2axpy scale */
};
#define IPU_NREGS ((int)(sizeof ipu_regs / sizeof ipu_regs[0]))
enum { RI_A0 = 16, RI_PC = 32, RI_VB, RI_WB, RI_ETYPE, RI_CAUSE, RI_EXIT, RI_RPT, RI_FPSTS, RI_WSR, RI_FPCTL, RI_TAS };

static ipu_tile *tile_of(sim_machine *m, int unit)
{
    ipu_machine *im = ipu_m(m);
    return im && im->tiles && unit >= 0 && unit < im->ntiles ? &im->tiles[unit] : NULL;
}

/* $WSR of a worker (CTXTID_M1 [2:0], ETYPE [7:4], ERPT [9], as exec.c's get), or the
 * supervisor's $SSR as far as it is modelled (ETYPE [7:4], RAERR: bit 8 here, its position
 * not being public). */
static uint32_t ctx_sr(const ipu_tile *tl, int thread)
{
    const ipu_ctx *c = &tl->ctx[thread];
    if (thread == IPU_SUP)
        return (c->etype & 15) << 4 | (tl->ssr_raerr ? 1u << 8 : 0);
    return (uint32_t)(thread - 1) | (c->etype & 15) << 4 | (uint32_t)c->erpt << 9;
}

static int ipu_reg_read(sim_machine *m, int unit, int thread, int reg, uint8_t *buf)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl || reg < 0 || reg >= IPU_NREGS || thread < 0 || thread >= IPU_NCTX)
        return -1;
    const ipu_ctx *c = &tl->ctx[thread];
    uint32_t v;
    if (reg < RI_A0) v = reg == 15 ? 0 : c->m[reg];
    else if (reg < RI_PC) v = reg - RI_A0 == 15 ? 0 : c->a[reg - RI_A0];
    else if (reg == RI_PC) v = c->pc;
    else if (reg == RI_VB) v = c->vertex_base;
    else if (reg == RI_WB) v = c->worker_base;
    else if (reg == RI_ETYPE) v = c->etype;
    else if (reg == RI_CAUSE) v = c->cause;
    else if (reg == RI_RPT) v = c->rpt_count;
    else if (reg == RI_FPSTS) v = c->fp_sts;
    else if (reg == RI_WSR) v = ctx_sr(tl, thread);
    else if (reg == RI_FPCTL) v = c->fp_ctl;
    else if (reg == RI_TAS) v = c->tas;
    else v = c->exit_status;
    for (unsigned i = 0; i < (ipu_regs[reg].bits + 7) / 8; i++)
        buf[i] = (uint8_t)(v >> (8 * i));
    return 0;
}

static int ipu_reg_write(sim_machine *m, int unit, int thread, int reg, const uint8_t *buf)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl || reg < 0 || reg >= IPU_NREGS || thread < 0 || thread >= IPU_NCTX || (ipu_regs[reg].flags & ISA_REG_RO))
        return -1;
    ipu_ctx *c = &tl->ctx[thread];
    uint32_t v = mem_ld32le(buf);
    if (reg == 15 || reg == RI_A0 + 15)
        return -1; /* $mzero / $azero */
    if (reg < RI_A0) c->m[reg] = v;
    else if (reg < RI_PC) c->a[reg - RI_A0] = v;
    else c->pc = v;
    return 0;
}

static uint64_t ipu_pc_get(sim_machine *m, int unit, int thread)
{
    ipu_tile *tl = tile_of(m, unit);
    return tl && thread >= 0 && thread < IPU_NCTX ? tl->ctx[thread].pc : 0;
}

static void ipu_thread_name(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    (void)m, (void)unit;
    snprintf(buf, n, "%s", thread >= 0 && thread < IPU_NCTX ? ipu_ctx_name(thread) : "?");
}

static void ipu_thread_state(sim_machine *m, int unit, int thread, char *buf, size_t n)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl || thread < 0 || thread >= IPU_NCTX) {
        snprintf(buf, n, "?");
        return;
    }
    const ipu_ctx *c = &tl->ctx[thread];
    const char *name = ipu_ctx_name(thread);
    uint64_t now = m->units[unit].last_issue == SIM_NEVER ? 0 : m->units[unit].last_issue;
    switch (c->state) {
    case IPU_CS_IDLE:
        snprintf(buf, n, "%s: idle, never started (waits for run/runall)", name);
        return;
    case IPU_CS_EXITED:
        snprintf(buf, n, "%s: exited at cycle %llu with status %u (slot %d back to the supervisor)", name,
                 (unsigned long long)(c->exited_at - 1), c->exit_status, thread - 1);
        return;
    case IPU_CS_RETURNED:
        snprintf(buf, n, "%s: returned to the host at cycle %llu", name, (unsigned long long)(c->exited_at - 1));
        return;
    case IPU_CS_EXCEPTED:
        if (c->etype)
            snprintf(buf, n, "%s: excepted at pc 0x%x: %s, cause %u", name, c->pc, ipu_etype_name(c->etype), c->cause);
        else
            snprintf(buf, n, "%s: stopped at pc 0x%x on an instruction not modelled yet", name, c->pc);
        return;
    default:
        break;
    }
    if (thread != IPU_SUP) {
        if (c->rpt_count)
            snprintf(buf, n, "%s: running in slot %d, next bundle at cycle %llu, in an rpt body 0x%x-0x%x (%u "
                     "repetition(s) left)", name, thread - 1, (unsigned long long)c->next, c->rpt_first, c->rpt_end,
                     c->rpt_count);
        else
            snprintf(buf, n, "%s: running in slot %d, next bundle at cycle %llu", name, thread - 1,
                     (unsigned long long)c->next);
        return;
    }
    int held = ipu_active_workers(tl);
    char xs[160];
    if (ipu_xchg_state(tl, xs, sizeof xs))
        snprintf(buf, n, "%s: %s", name, xs);
    else if (held == IPU_NSLOTS)
        snprintf(buf, n, "%s: waiting for a slot (all six held by workers)", name);
    else if (c->sync_local)
        snprintf(buf, n, "%s: in sync LOCAL, waiting for %d worker(s) to exit", name, held);
    else if (c->sync_ready > now + 1)
        snprintf(buf, n, "%s: waiting after a sync, delay or send until cycle %llu", name,
                 (unsigned long long)c->sync_ready);
    else if (c->branch_ready > now + 1)
        snprintf(buf, n, "%s: waiting out a taken branch until cycle %llu (%d slot(s) held by workers)", name,
                 (unsigned long long)c->branch_ready, held);
    else
        snprintf(buf, n, "%s: running in the %d slot(s) no worker holds, next issue at cycle %llu or later", name,
                 IPU_NSLOTS - held, (unsigned long long)(c->next > c->branch_ready ? c->next : c->branch_ready));
}

/* `info barrel`: who owns each slot, and each context's state, pc and counts. */
static int ipu_view_barrel(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    const sim_unit *u = &m->units[unit];
    uint64_t now = u->last_issue == SIM_NEVER ? 0 : u->last_issue;
    fprintf(out, "%s barrel at cycle %llu (slot %llu); supervisor: dependent use %llu, taken branch %llu, run %llu cycles\n",
            u->name, (unsigned long long)now, (unsigned long long)(now % IPU_NSLOTS),
            (unsigned long long)tl->im->sup_dep_cycles, (unsigned long long)tl->im->sup_branch_cycles,
            (unsigned long long)tl->im->run_cycles);
    fprintf(out, "  slots:");
    for (int k = 0; k < IPU_NSLOTS; k++)
        fprintf(out, " %d=%s", k, tl->ctx[IPU_WORKER(k)].state == IPU_CS_ACTIVE ? ipu_ctx_name(IPU_WORKER(k)) : "SU");
    fprintf(out, "\n");
    for (int c = 0; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        const sim_thread *th = &u->threads[c];
        char st[200];
        ipu_thread_state(m, unit, c, st, sizeof st);
        fprintf(out, "  %-10s pc 0x%05x  bundles %llu  insns %llu  stalls barrel %llu dep %llu branch %llu  | %s\n",
                ipu_ctx_name(c), x->pc, (unsigned long long)th->issue_cycles, (unsigned long long)th->instructions,
                (unsigned long long)th->stalls[IPU_STALL_BARREL], (unsigned long long)th->stalls[IPU_STALL_DEP],
                (unsigned long long)th->stalls[IPU_STALL_BRANCH], strchr(st, ':') ? strchr(st, ':') + 2 : st);
    }
    return 0;
}

static float f32_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double f16_of(uint32_t h)
{
    int e = (h >> 10) & 31, mt = h & 1023;
    double v = e == 0 ? ldexp(mt, -24) : e == 31 ? (mt ? NAN : INFINITY) : ldexp(mt + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}
/* contexts worth showing: the supervisor and every worker that has run */
static int shown(const ipu_tile *tl, int c) { return c == IPU_SUP || tl->ctx[c].launches || tl->ctx[c].state; }

/* `info csr`: the CSRs the model keeps, per context, with the last exception. */
static int ipu_view_csr(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    const ipu_ctx *s = &tl->ctx[IPU_SUP];
    uint32_t sts = 0;
    for (int k = 0; k < IPU_NCTX; k++) {
        uint8_t st = tl->ctx[k].state;
        sts |= (uint32_t)(st == IPU_CS_ACTIVE ? 1 : st == IPU_CS_EXCEPTED ? 3 : 0) << (2 * k);
    }
    fprintf(out, "%s supervisor: $SSR 0x%08x (ETYPE %u %s, cause %u, RAERR %u)  $CTXT_STS 0x%04x\n", m->units[unit].name,
            ctx_sr(tl, IPU_SUP), s->etype, s->etype ? ipu_etype_name(s->etype) : "none", s->cause, tl->ssr_raerr ? 1 : 0, sts);
    fprintf(out, "  $WORKER0..5_BASE");
    for (int k = 0; k < IPU_NSLOTS; k++)
        fprintf(out, " 0x%x", tl->worker_base_csr[k]);
    fprintf(out, "\n");
    ipu_xchg_view(tl, out); /* the exchange CSRs, on a machine of several tiles */
    for (int c = 1; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        if (!shown(tl, c))
            continue;
        fprintf(out, "  %s: $WSR 0x%08x (CTXTID %d, ETYPE %u %s, cause %u, ERPT %u)  $VERTEX_BASE 0x%x  $WORKER_BASE 0x%x\n",
                ipu_ctx_name(c), ctx_sr(tl, c), c - 1, x->etype, x->etype ? ipu_etype_name(x->etype) : "none", x->cause,
                x->erpt, x->vertex_base, x->worker_base);
        fprintf(out, "      $REPEAT_COUNT %u  $FP_STS 0x%x (INV %u DIV0 %u OFLO %u)  $FP_CTL 0x%08x (RND %u, NANOO %u, "
                "ESR %u, enables 0x%x)  $TAS 0x%08x (%g)\n", x->rpt_count, x->fp_sts, x->fp_sts & 1, x->fp_sts >> 1 & 1,
                x->fp_sts >> 2 & 1, x->fp_ctl, x->fp_ctl >> 16 & 7, x->fp_ctl >> 20 & 1, x->fp_ctl >> 19 & 1,
                x->fp_ctl & 7, x->tas, (double)f32_of(x->tas));
        fprintf(out, "      $PRNG_0 0x%016llx  $PRNG_1 0x%016llx%s", (unsigned long long)x->prng[0],
                (unsigned long long)x->prng[1], x->prng_set ? "" : " (not seeded yet: -o prng_seed at first use)");
        if (tl->im->arch == IPU_ARCH_IPU21)
            fprintf(out, "  $FP_NFMT 0x%x  $FP_SCL 0x%x", x->fp_nfmt, x->fp_scl);
        fprintf(out, "\n");
    }
    return 0;
}

/* `info acc`: each worker's $AACC[0..15] (f32), and the even chain L0..L7 the reductions use. */
static int ipu_view_acc(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    fprintf(out, "%s accumulators ($AACC[0..15] as f32; L0..L7 = $AACC[0, 2, ... 14])\n", m->units[unit].name);
    for (int c = 1; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        if (!shown(tl, c))
            continue;
        for (int h = 0; h < 2 * tl->im->amp_sets; h++) { /* the second AMP set: [16..31] */
            static const char *const part[4] = {"[0..7] ", "[8..15]", "[16..23]", "[24..31]"};
            fprintf(out, "  %-3s %s", h ? "" : ipu_ctx_name(c), part[h]);
            for (int i = 8 * h; i < 8 * h + 8; i++)
                fprintf(out, " %g", (double)f32_of(x->aacc[i]));
            fprintf(out, "\n");
        }
    }
    return 0;
}

/* `info rpt`: each worker's repeat state and the body's bundles. */
static int ipu_view_rpt(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    for (int c = 1; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        if (!shown(tl, c))
            continue;
        if (!x->rpt_count) {
            fprintf(out, "%s: not in an rpt body ($REPEAT_COUNT 0%s)\n", ipu_ctx_name(c), x->erpt ? ", ERPT set" : "");
            continue;
        }
        fprintf(out, "%s: rpt body 0x%x-0x%x, %u repetition(s) left ($REPEAT_COUNT), pc 0x%x%s\n", ipu_ctx_name(c),
                x->rpt_first, x->rpt_end, x->rpt_count, x->pc, x->erpt ? ", ERPT set" : "");
        const ipu_machine *im = tl->im;
        for (uint32_t a = x->rpt_first; a < x->rpt_end && ipu_in_mem(im, a, 4);) {
            char text[200];
            uint32_t avail = im->mem_base + im->mem_size - a;
            int len = ipu_disasm_at(a, tl->mem + (a - im->mem_base), avail, im->arch, IPU_CTX_WORKER, text, sizeof text);
            if (len <= 0)
                break;
            fprintf(out, "  %s0x%05x  %s\n", a == x->pc ? "=>" : "  ", a, text);
            a += (uint32_t)len;
        }
    }
    return 0;
}

/* `info pairs`: MRF pairs, ARF pairs (hex, f32 x2) and quads (f32 x4, f16 x8) per context. */
static int ipu_view_pairs(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    for (int c = 0; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        if (!shown(tl, c))
            continue;
        fprintf(out, "%s:\n ", ipu_ctx_name(c));
        for (int i = 0; i < 12; i += 2)
            fprintf(out, " $m%d:%d 0x%08x%08x", i, i + 1, x->m[i + 1], x->m[i]);
        fprintf(out, "\n");
        if (c == IPU_SUP)
            continue;
        uint32_t a[16];
        memcpy(a, x->a, sizeof a);
        a[14] = a[15] = 0; /* $azeros */
        for (int i = 0; i < 16; i += 2)
            fprintf(out, "  $a%d:%d 0x%08x%08x = (%g, %g)%s", i, i + 1, a[i + 1], a[i], (double)f32_of(a[i]),
                    (double)f32_of(a[i + 1]), i % 4 == 2 ? "\n" : "");
        for (int q = 0; q < 16; q += 4) {
            fprintf(out, "  $a%d:%d f32 (%g, %g, %g, %g) f16 (", q, q + 3, (double)f32_of(a[q]), (double)f32_of(a[q + 1]),
                    (double)f32_of(a[q + 2]), (double)f32_of(a[q + 3]));
            for (int h = 0; h < 8; h++)
                fprintf(out, "%s%g", h ? ", " : "", f16_of(a[q + h / 2] >> (16 * (h & 1)) & 0xffff));
            fprintf(out, ")\n");
        }
    }
    return 0;
}

static int ipu_view_vertex(sim_machine *m, int unit, FILE *out)
{
    if (!ipu_m(m) || !ipu_m(m)->vertex) {
        fprintf(out, "no vertex: this run was not started with --vertex FILE\n");
        return 0;
    }
    return ipu_vertex_report(m, unit, out, 0);
}

/* `info cccs`: the tile's common compute configuration space (AMP weights, exec_amp.c):
 * $CCCSLOAD, then each unit's $CWEI_m_0..3 as 64-bit hex words */
static int ipu_view_cccs(sim_machine *m, int unit, FILE *out)
{
    ipu_tile *tl = tile_of(m, unit);
    if (!tl)
        return -1;
    fprintf(out, "%s CCCS: $CCCSLOAD 0x%x, %d AMP set(s) of 8 units; $CWEI_m_n (set.unit: n = 0..3)\n",
            m->units[unit].name, tl->cccsload, tl->im->amp_sets);
    for (int g = 0; g < 8 * tl->im->amp_sets; g++) {
        fprintf(out, "  %d.%d", g / 8, g % 8);
        for (int n = 0; n < 4; n++)
            fprintf(out, " %016llx", (unsigned long long)tl->cccs[4 * g + n]);
        fprintf(out, "\n");
    }
    return 0;
}

static const isa_view ipu_views[] = {
    {"barrel", "the tile's six slots, and each context's state, pc, bundles and stalls", ipu_view_barrel},
    {"csr", "the CSRs per context: $SSR/$WSR with the last exception and its cause, $CTXT_STS, bases, exchange, $FP_*, $TAS",
     ipu_view_csr},
    {"acc", "each worker's accumulators $AACC[0..15] (f32; [16..31] with two AMP sets)", ipu_view_acc},
    {"cccs", "the AMP weights: $CCCSLOAD and each unit's $CWEI_m_0..3", ipu_view_cccs},
    {"rpt", "each worker's rpt state: the body, the repetitions left, ERPT", ipu_view_rpt},
    {"pairs", "register pairs and quads per context: $m pairs, $a pairs as f32 x2, quads as f32 x4 and f16 x8",
     ipu_view_pairs},
    {"vertex", "the --vertex run: output tensors and the cycles per context", ipu_view_vertex},
    {NULL, NULL, NULL}};

/* --profile's call edges (isa_ops.insn_flow): `call $mN, target` links to the address after
 * its bundle; `br $mN` (the ABI's return is br $m10) may return. Decoded from tile memory as
 * the disassembler does (worker, then supervisor encodings). */
static int ipu_insn_flow(sim_machine *m, int unit, uint64_t pc, uint64_t *ret)
{
    ipu_tile *tl = tile_of(m, unit);
    uint8_t w[8];
    size_t avail = sizeof w;
    while (tl && avail && mem_host_read(tl->tmem, pc, w, avail))
        avail /= 2;
    ipu_bundle b;
    int used = tl && avail >= 4 ? ipu_decode(w, avail, ipu_m(m)->arch, IPU_CTX_WORKER, 1, &b) : 0;
    if (used <= 0 || !b.insn[0].op)
        return ISA_FLOW_NONE;
    if (!strcmp(b.insn[0].op->mnemonic, "call")) {
        *ret = pc + (uint64_t)used;
        return ISA_FLOW_CALL;
    }
    return !strcmp(b.insn[0].op->mnemonic, "br") ? ISA_FLOW_RETURN : ISA_FLOW_NONE;
}

/* The debugger hook has no machine: default architecture, worker then supervisor. */
static int ipu_disasm_hook(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    return ipu_disasm_at(addr, p, avail, IPU_ARCH_IPU2, IPU_CTX_WORKER, buf, n);
}

/* A thread's view (the debugger, the trace): the supervisor (thread 0) decodes in the
 * supervisor context and the workers in the worker context, for the machine's architecture,
 * with no fallback: what that thread executes. */
static int ipu_disasm_thread(sim_machine *m, int unit, int thread, uint64_t addr, const uint8_t *p, size_t avail,
                             char *buf, size_t n)
{
    (void)unit, (void)addr;
    return ipu_disasm_context(p, avail, ipu_m(m)->arch, thread == 0 ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER, buf, n);
}

static int name_says_supervisor(const char *s)
{
    for (; s && *s; s++)
        if (!strncasecmp(s, "supervisor", 10))
            return 1;
    return 0;
}

/* List one code range: a label line at every function or object symbol, then one line per
 * word or bundle: address, raw words, text. */
static void list_range(const ld_image *img, const char *secname, uint64_t base, const uint8_t *data, uint64_t size,
                       int flag_sup, int arch, FILE *out)
{
    int sec_sup = flag_sup || name_says_supervisor(secname);
    int ctx = sec_sup ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
    for (uint64_t off = 0; off + 4 <= size;) {
        uint64_t so;
        const ld_symbol *sym = ld_symbol_at(img, base + off, &so);
        if (sym && so == 0 && sym->name && sym->name[0]) {
            fprintf(out, "%08llx <%s>:\n", (unsigned long long)(base + off), sym->name);
            ctx = sec_sup || name_says_supervisor(sym->name) ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
        }
        char text[200];
        int len = ipu_disasm_at(base + off, data + off, (size_t)(size - off), arch, ctx, text, sizeof text);
        if (len <= 0)
            break;
        const uint8_t *w = data + off;
        uint32_t w0 = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        if (len == 8) {
            uint32_t w1 = (uint32_t)w[4] | (uint32_t)w[5] << 8 | (uint32_t)w[6] << 16 | (uint32_t)w[7] << 24;
            fprintf(out, "  %08llx  %08x %08x  %s\n", (unsigned long long)(base + off), w0, w1, text);
        } else {
            fprintf(out, "  %08llx  %08x           %s\n", (unsigned long long)(base + off), w0, text);
        }
        off += (uint64_t)len;
    }
}

static int ipu_disasm_image(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen)
{
    int choice = 1; /* -o arch: ipu1, ipu2, ipu21 (tile.c), as the bit of IPU_ARCH_* */
    if (opts && opt_choice(opts, ipu_exec_options, "arch", &choice, err, errlen))
        return -1;
    const int arch = 1 << choice;
    if (img->fmt == LD_ELF) {
        int any = 0;
        for (int i = 0; i < img->nsecs; i++) {
            const ld_section *s = &img->secs[i];
            if (!(s->flags & 4) || !s->data) /* SHF_EXECINSTR */
                continue;
            fprintf(out, "Disassembly of section %s:\n", s->name ? s->name : "?");
            list_range(img, s->name, s->addr, s->data, s->size, (s->flags & IPU_SHF_SUPERVISOR) != 0, arch, out);
            any = 1;
        }
        for (int i = 0; !any && i < img->nsegs; i++)
            if (img->segs[i].type == 1 && (img->segs[i].flags & 1))
                list_range(img, NULL, img->segs[i].vaddr, img->segs[i].data, img->segs[i].filesz, 0, arch, out);
        return 0;
    }
    if (img->fmt == LD_RAW) {
        list_range(img, NULL, 0, img->file, img->file_size, 0, arch, out);
        return 0;
    }
    snprintf(err, errlen, "ipu cannot list a %s file (ELF or raw binary expected)", ld_format_name(img->fmt));
    return -1;
}

const isa_ops isa_ipu = {
    .name = "ipu",
    .description = "Graphcore Colossus IPU tile (ipu1/ipu2/ipu21): supervisor + 6 workers in the six-slot barrel; "
                   "integer, control, load/store, f32/f16 and rpt execution (AMP, PRNG not yet)",
    .probe = ipu_probe,
    .options = ipu_exec_options,
    .option_value = ipu_option_value,
    .stall_names = ipu_stall_names,
    .create = ipu_create,
    .destroy = ipu_destroy,
    .load = ipu_load,
    .load_unit = ipu_machine_load_unit,
    .unit_run = ipu_run,
    .finish = ipu_finish,
    .regs = ipu_regs,
    .nregs = IPU_NREGS,
    .reg_read = ipu_reg_read,
    .reg_write = ipu_reg_write,
    .pc_get = ipu_pc_get,
    .thread_state = ipu_thread_state,
    .thread_name = ipu_thread_name,
    .views = ipu_views,
    .code_space = "tmem",
    .disasm = ipu_disasm_hook,
    .disasm_thread = ipu_disasm_thread,
    .disasm_image = ipu_disasm_image,
    .assemble = ipu_assemble,
    .asm_options = ipu_asm_options,
    .host_file = ipu_vertex_host_file,
    .insn_flow = ipu_insn_flow,
    .functional = 1,
    .timing_resume = ipu_timing_resume,
    .profile_fast = 1, /* fast.c, barrel.c and func.c feed --profile (notes/profile-api.md) */
};
