/* frontends/profile.c: write the per-PC profile (core/profile.h) in callgrind format, so
 * kcachegrind and callgrind_annotate show where a simulated program spends its cycles:
 * events Instructions, Cycles and one Stall_<cause> per ISA stall cause (stall_names) per PC,
 * grouped into functions by code symbol. FILE holds all hardware threads together; with
 * --profile-threads each hardware thread that issued also gets FILE-N (N = 1 + unit *
 * threads-per-unit + thread, two digits at least), with a `thread: N` header and a `desc:`
 * naming the unit and thread: the layout of valgrind's --separate-threads=yes, which
 * kcachegrind loads as parts of one profile and callgrind_annotate reads one by one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/debug.h"
#include "../core/profile.h"

/* One callgrind file of the entries of thread (-1: all threads merged per PC). */
static int write_one(cli_session *s, const prof_state *p, const char *path, int thread)
{
    sim_machine *m = &s->m;
    prof_entry *v;
    int n = prof_sorted(p, thread, &v);
    if (n < 0) {
        fprintf(stderr, "xpusim: --profile: out of memory\n");
        return -1;
    }
    /* merge the threads' entries of one PC (sorted by PC, then thread) */
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && v[k - 1].pc == v[i].pc) {
            v[k - 1].insns += v[i].insns;
            v[k - 1].cycles += v[i].cycles;
            for (int c = 0; c < p->nstalls; c++)
                v[k - 1].stalls[c] += v[i].stalls[c];
        } else
            v[k++] = v[i];
    }
    n = k;
    FILE *f = cli_open_out(path, "--profile");
    if (!f) {
        free(v);
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
    fprintf(f, "# callgrind format\nversion: 1\ncreator: xpusim (%s)\n", s->isa->name);
    if (thread >= 0) {
        const sim_unit *u = &m->units[thread / p->tpu];
        fprintf(f, "thread: %d\ndesc: Hardware thread: %s thread %d\n", thread + 1, u->name, thread % p->tpu);
    }
    fprintf(f, "cmd: %s\npositions: instr\nevents: Instructions Cycles", s->img.path);
    for (int c = 0; c < p->nstalls; c++)
        fprintf(f, " Stall_%s", s->isa->stall_names[c]);
    fprintf(f, "\nsummary: %llu %llu", (unsigned long long)tot.insns, (unsigned long long)tot.cycles);
    for (int c = 0; c < p->nstalls; c++)
        fprintf(f, " %llu", (unsigned long long)tot.stalls[c]);
    /* fl= before the first fn=: the format's readers expect a source file name, and "???" is
     * callgrind's own for code without line information */
    fprintf(f, "\n\nob=%s\nfl=???\n", s->img.path);
    const char *cur = NULL;
    for (int i = 0; i < n; i++) {
        uint64_t off = 0;
        const char *name = cli_code_symbol_at(s, v[i].pc, &off);
        if (!name)
            name = "(no symbol)";
        if (!cur || strcmp(cur, name) != 0) {
            fprintf(f, "fn=%s\n", name);
            cur = name;
        }
        fprintf(f, "0x%llx %llu %llu", (unsigned long long)v[i].pc, (unsigned long long)v[i].insns,
                (unsigned long long)v[i].cycles);
        for (int c = 0; c < p->nstalls; c++)
            fprintf(f, " %llu", (unsigned long long)v[i].stalls[c]);
        fputc('\n', f);
    }
    free(v);
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
    if (write_one(s, p, path, -1))
        return -1;
    if (!s->args || !s->args->profile_threads)
        return 0;
    for (int g = 0; g < p->nth; g++) {
        if (!p->th[g].valid) /* never issued: no part */
            continue;
        size_t len = strlen(path) + 16;
        char *name = malloc(len);
        if (!name) {
            fprintf(stderr, "xpusim: --profile: out of memory\n");
            return -1;
        }
        snprintf(name, len, "%s-%02d", path, g + 1);
        int r = write_one(s, p, name, g);
        free(name);
        if (r)
            return -1;
    }
    return 0;
}
