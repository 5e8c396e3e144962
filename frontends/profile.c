/* frontends/profile.c: write the per-PC profile (core/profile.h) in callgrind format, so
 * kcachegrind and callgrind_annotate show where a simulated program spends its cycles:
 * events Instructions and Cycles per PC, grouped into functions by code symbol. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/debug.h"
#include "../core/profile.h"

int cli_write_profile(cli_session *s, const char *path)
{
    sim_machine *m = &s->m;
    if (!m->dbg || !m->dbg->prof)
        return -1;
    prof_finish(m->dbg->prof, m);
    prof_entry *v;
    int n = prof_sorted(m->dbg->prof, &v);
    if (n < 0) {
        fprintf(stderr, "xpusim: --profile: out of memory\n");
        return -1;
    }
    FILE *f = cli_open_out(path, "--profile");
    if (!f) {
        free(v);
        return -1;
    }
    cli_code_symbols(s);
    uint64_t ti = 0, tc = 0;
    for (int i = 0; i < n; i++) {
        ti += v[i].insns;
        tc += v[i].cycles;
    }
    fprintf(f, "# callgrind format\nversion: 1\ncreator: xpusim (%s)\ncmd: %s\npositions: instr\n", s->isa->name,
            s->img.path);
    /* fl= before the first fn=: the format's readers expect a source file name, and "???" is
     * callgrind's own for code without line information */
    fprintf(f, "events: Instructions Cycles\nsummary: %llu %llu\n\nob=%s\nfl=???\n", (unsigned long long)ti,
            (unsigned long long)tc, s->img.path);
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
        fprintf(f, "0x%llx %llu %llu\n", (unsigned long long)v[i].pc, (unsigned long long)v[i].insns,
                (unsigned long long)v[i].cycles);
    }
    free(v);
    return cli_close_out(f, path);
}
