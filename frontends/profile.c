/* frontends/profile.c: write the per-PC profile (core/profile.h) in callgrind format, so
 * kcachegrind and callgrind_annotate show where a simulated program spends its cycles:
 * events Instructions, Cycles and one Stall_<cause> per ISA stall cause (stall_names) per PC,
 * grouped into functions by code symbol. Where the program has DWARF line tables
 * (profile_src.c) each PC also carries its source line (`positions: instr line`): a function's
 * file is the one of its symbol's address (fl=), a PC in another file (inlined code) switches
 * with fi=. Where the ISA classifies calls (isa_ops.insn_flow) each call site lists its
 * callees (cfl=, cfn=, calls=COUNT TARGET, then the site with the callee's inclusive cost),
 * which KCachegrind's call graph and `callgrind_annotate --inclusive=yes` read. FILE holds
 * all hardware threads together; with --profile-threads instead each hardware thread that
 * issued gets FILE-N (N = 1 + unit * threads-per-unit + thread, two digits at least), with a
 * `thread: N` header and a `desc:` naming the unit and thread, and FILE is not written: the
 * layout of valgrind's --separate-threads=yes, which kcachegrind loads as the parts of one
 * profile (a merged FILE beside them would be counted twice) and callgrind_annotate reads one
 * by one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "profile_src.h"
#include "../core/debug.h"
#include "../core/profile.h"

/* Merge the per-thread rows of one key (arrays sorted by key, then thread). */
static int merge_entries(prof_entry *v, int n, int nstalls)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && v[k - 1].pc == v[i].pc) {
            v[k - 1].insns += v[i].insns;
            v[k - 1].cycles += v[i].cycles;
            for (int c = 0; c < nstalls; c++)
                v[k - 1].stalls[c] += v[i].stalls[c];
        } else
            v[k++] = v[i];
    }
    return k;
}

static int merge_edges(prof_edge *v, int n, int nstalls)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && v[k - 1].site == v[i].site && v[k - 1].target == v[i].target) {
            v[k - 1].calls += v[i].calls;
            v[k - 1].insns += v[i].insns;
            v[k - 1].cycles += v[i].cycles;
            for (int c = 0; c < nstalls; c++)
                v[k - 1].stalls[c] += v[i].stalls[c];
        } else
            v[k++] = v[i];
    }
    return k;
}

typedef struct prof_out {
    cli_session *s;
    const prof_state *p;
    const prof_src *src; /* NULL: no line information */
    FILE *f;
    int unit;            /* the unit whose program names the PCs being written (its own
                            program's symbols, issue 11 pt 1; the lines are the machine
                            program's, so none for a unit with a program of its own) */
} prof_out;

static const char *fn_name(const prof_out *o, uint64_t pc, uint64_t *start)
{
    uint64_t off = 0;
    const char *name = cli_unit_code_symbol_at(o->s, o->unit, pc, &off);
    *start = name ? pc - off : pc;
    return name ? name : "(no symbol)";
}

/* The source position of pc: " LINE" after the address when the profile has lines. */
static const char *pc_file(const prof_out *o, uint64_t pc, uint32_t *line)
{
    uint32_t file = 0;
    *line = 0;
    if (!o->src || cli_unit_image(o->s, o->unit) != &o->s->img || !prof_src_at(o->src, pc, &file, line))
        return "???"; /* callgrind's own name for code without line information */
    return o->src->files[file];
}

/* A function's file: the one of its symbol's address, else of its first PC seen. */
static const char *fn_file(const prof_out *o, uint64_t start, uint64_t pc)
{
    uint32_t line;
    const char *f = pc_file(o, start, &line);
    return strcmp(f, "???") ? f : pc_file(o, pc, &line);
}

static void costs(const prof_out *o, uint64_t insns, uint64_t cycles, const uint64_t *stalls)
{
    fprintf(o->f, " %llu %llu", (unsigned long long)insns, (unsigned long long)cycles);
    for (int c = 0; c < o->p->nstalls; c++)
        fprintf(o->f, " %llu", (unsigned long long)stalls[c]);
    fputc('\n', o->f);
}

static void position(const prof_out *o, uint64_t pc)
{
    uint32_t line;
    pc_file(o, pc, &line);
    fprintf(o->f, "0x%llx", (unsigned long long)pc);
    if (o->src)
        fprintf(o->f, " %u", line);
}

/* One call edge, inside its site's function. */
static void call_lines(prof_out *o, const prof_edge *x)
{
    uint64_t start;
    o->unit = x->thread / o->p->tpu;
    const char *callee = fn_name(o, x->target, &start);
    if (o->src)
        fprintf(o->f, "cfl=%s\n", fn_file(o, start, x->target));
    fprintf(o->f, "cfn=%s\ncalls=%llu ", callee, (unsigned long long)x->calls);
    position(o, x->target);
    fputc('\n', o->f);
    position(o, x->site);
    costs(o, x->insns, x->cycles, x->stalls);
}

/* One callgrind file of the entries of thread (-1: all threads merged per PC). */
static int write_one(cli_session *s, const prof_state *p, const prof_src *src, const char *path, int thread)
{
    sim_machine *m = &s->m;
    prof_entry *v;
    prof_edge *ev = NULL;
    int n = prof_sorted(p, thread, &v);
    int ne = n < 0 ? -1 : prof_edges(p, thread, &ev);
    if (n < 0 || ne < 0) {
        fprintf(stderr, "xpusim: --profile: out of memory\n");
        free(n < 0 ? NULL : v);
        return -1;
    }
    n = merge_entries(v, n, p->nstalls);
    ne = merge_edges(ev, ne, p->nstalls);
    prof_out o = {s, p, src && src->nrows ? src : NULL, cli_open_out(path, "--profile"), thread >= 0 ? thread / p->tpu : 0};
    if (!o.f) {
        free(v);
        free(ev);
        return -1;
    }
    prof_entry tot;
    memset(&tot, 0, sizeof tot);
    for (int i = 0; i < n; i++) {
        tot.insns += v[i].insns;
        tot.cycles += v[i].cycles;
        for (int c = 0; c < p->nstalls; c++)
            tot.stalls[c] += v[i].stalls[c];
    }
    FILE *f = o.f;
    /* creator: the build that measured it (as the statistics' host.xpusim), then the ISA */
    fprintf(f, "# callgrind format\nversion: 1\ncreator: xpusim%s%s (%s)\n", m->build ? " " : "", m->build ? m->build : "",
            s->isa->name);
    if (thread >= 0) { /* the unit by its path on a machine with groups (ipu0.tile5) */
        char label[128];
        fprintf(f, "thread: %d\ndesc: Hardware thread: %s thread %d\n", thread + 1,
                sim_unit_path(m, thread / p->tpu, label, sizeof label), thread % p->tpu);
    }
    /* (a thread's file: its unit's program) */
    const char *prog = thread >= 0 ? cli_unit_image(s, o.unit)->path : s->img.path;
    fprintf(f, "cmd: %s\npositions: %s\nevents: Instructions Cycles", prog, o.src ? "instr line" : "instr");
    for (int c = 0; c < p->nstalls; c++)
        fprintf(f, " Stall_%s", s->isa->stall_names[c]);
    fprintf(f, "\nsummary:");
    costs(&o, tot.insns, tot.cycles, tot.stalls);
    /* fl= before the first fn=: the format's readers expect a source file name */
    fprintf(f, "\nob=%s\n", prog);
    const char *cur = NULL, *cur_file = NULL, *cur_ob = prog;
    int k = 0; /* next edge: written after the cost line of its call site */
    for (int i = 0; i < n; i++) {
        uint64_t start;
        o.unit = v[i].thread / p->tpu; /* (merged: the first thread's at the PC) */
        const char *ob = cli_unit_image(s, o.unit)->path;
        if (strcmp(ob, cur_ob)) { /* a unit's own program (merged file): its object */
            fprintf(f, "ob=%s\n", ob);
            cur_ob = ob;
            cur = NULL;
        }
        const char *name = fn_name(&o, v[i].pc, &start);
        uint32_t line;
        const char *file = pc_file(&o, v[i].pc, &line);
        if (!cur || strcmp(cur, name) != 0) {
            const char *ff = fn_file(&o, start, v[i].pc);
            fprintf(f, "fl=%s\nfn=%s\n", ff, name);
            cur = name;
            cur_file = ff;
        }
        if (strcmp(file, cur_file)) { /* a line of another file inside this function */
            fprintf(f, "fi=%s\n", file);
            cur_file = file;
        }
        position(&o, v[i].pc);
        costs(&o, v[i].insns, v[i].cycles, v[i].stalls);
        for (; k < ne && ev[k].site <= v[i].pc; k++)
            call_lines(&o, &ev[k]);
    }
    for (; k < ne; k++) /* a site with no entry of its own cannot be: kept all the same */
        call_lines(&o, &ev[k]);
    free(v);
    free(ev);
    return cli_close_out(f, path);
}

int cli_write_profile(cli_session *s, const char *path)
{
    sim_machine *m = &s->m;
    if (!m->dbg || !m->dbg->prof)
        return -1;
    prof_state *p = m->dbg->prof;
    prof_finish(p, m);
    cli_code_symbols(s);
    prof_src src;
    if (prof_src_load(s, &src))
        return -1;
    const int parts = s->args && s->args->profile_threads;
    int rc = parts ? 0 : write_one(s, p, &src, path, -1);
    for (int g = 0; !rc && parts && g < p->nth; g++) {
        if (!p->th[g].valid) /* never issued: no part */
            continue;
        size_t len = strlen(path) + 16;
        char *name = malloc(len);
        if (!name) {
            fprintf(stderr, "xpusim: --profile: out of memory\n");
            rc = -1;
            break;
        }
        snprintf(name, len, "%s-%02d", path, g + 1);
        rc = write_one(s, p, &src, name, g);
        free(name);
    }
    prof_src_free(&src);
    return rc;
}
