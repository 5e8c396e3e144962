/* frontends/fastforward.c: `xpusim run --fast-forward MARKER` (issue 9 pt 3). The run goes
 * functionally (-o timing=none, set before the machine is built) up to the marker, then the
 * machine switches to the cycle model (sim_ff_switch: the functional part's counts are
 * kept apart, m->functional cleared, the ISA's timing_resume) and the same sim_run goes on,
 * so the statistics describe the region after the marker. MARKER is SYMBOL[+OFF] (any
 * thread reaching that code address: a temporary breakpoint of core/debug.c, which the
 * ISAs' fast paths check through the breakpoint filter, so the functional part stays
 * fast; the instruction there runs in the timed part), insns:N (N instructions retired in
 * all, m->ff_insns: checked between bursts, which shrink as the count nears, so at most one
 * cycle's worth more may retire; the statistics give the exact count), or magic (the ISA's marker instruction,
 * sim_marker; the marker itself counts in the functional part). The session's run control
 * (core/runctl.c) does the switch; this file turns the option into its marker. `debug` and
 * `gdbserver` take the option too: there the switch is a stop (runctl.ff_stop).
 * docs/user-guide.md "Fast-forward" has the user's view. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../core/debug.h"
#include "../isa/isa.h"

/* Before the machine is built: the ISA must have a functional mode, and the part before the
 * marker runs with -o timing=none (the option the ISA reads at create time). */
int cli_ff_prepare(cli_args *a, const isa_ops *isa)
{
    if (!a->fast_forward)
        return 0;
    if (!isa->functional) {
        fprintf(stderr, "xpusim: --fast-forward %s: the %s model has no functional mode (-o timing=none) yet, so it "
                        "cannot run up to the marker functionally\n", a->fast_forward, isa->name);
        return -1;
    }
    const char *t = opt_get(&a->opts, "timing", NULL);
    if (t) {
        fprintf(stderr, "xpusim: --fast-forward runs functionally up to the marker and with the cycle model after "
                        "it: leave out -o timing=%s\n", t);
        return -1;
    }
    if (opt_set(&a->opts, "timing", "none")) {
        fprintf(stderr, "xpusim: --fast-forward: too many -o options\n");
        return -1;
    }
    return 0;
}

/* A code symbol's pc (the ISA may place symbols in PC units: cli_code_symbols). */
static int ff_symbol(cli_session *s, const char *text, uint64_t *pc)
{
    char name[256], err[300];
    uint64_t off = 0;
    snprintf(name, sizeof name, "%s", text);
    char *plus = strchr(name, '+');
    if (plus) {
        *plus = 0;
        if (cli_parse_u64(plus + 1, &off)) {
            fprintf(stderr, "xpusim: --fast-forward %s: the offset after '+' is not a number\n", text);
            return -1;
        }
    }
    if (cli_code_symbols(s)) {
        fprintf(stderr, "xpusim: --fast-forward: out of memory\n");
        return -1;
    }
    if (s->csyms) {
        for (int i = 0; i < s->ncsyms; i++)
            if (strcmp(s->csyms[i].name, name) == 0) {
                *pc = s->csyms[i].addr + off;
                return 0;
            }
        fprintf(stderr, "xpusim: --fast-forward %s: no code symbol '%s' in the program%s\n", text, name,
                ld_symbol_find(&s->img, name) ? " (that name is data)" : "");
        return -1;
    }
    if (!ld_symbol_find(&s->img, name)) {
        fprintf(stderr, "xpusim: --fast-forward %s: no symbol '%s' in the program\n", text, name);
        return -1;
    }
    if (cli_resolve_addr(s, text, pc, err, sizeof err)) {
        fprintf(stderr, "xpusim: --fast-forward %s\n", err);
        return -1;
    }
    return 0;
}

int cli_ff_arm(cli_session *s)
{
    const char *t = s->args->fast_forward;
    if (!t)
        return 0;
    if (strcmp(t, "magic") == 0) {
        runctl_ff_at_magic(&s->rc, t);
        return 0;
    }
    if (strncmp(t, "insns:", 6) == 0) {
        uint64_t n;
        if (cli_parse_u64(t + 6, &n) || n == 0) {
            fprintf(stderr, "xpusim: --fast-forward %s: expected insns:N with N a positive number of instructions\n", t);
            return -1;
        }
        runctl_ff_at_insns(&s->rc, n, t);
        return 0;
    }
    uint64_t pc;
    if (!*t || strchr(" \t:=,", *t) || (*t >= '0' && *t <= '9')) {
        fprintf(stderr, "xpusim: --fast-forward '%s': expected SYMBOL[+OFFSET], insns:N or magic\n", t);
        return -1;
    }
    if (ff_symbol(s, t, &pc))
        return -1;
    if (runctl_ff_at_pc(&s->rc, pc, t)) {
        fprintf(stderr, "xpusim: --fast-forward %s: cannot set the breakpoint\n", t);
        return -1;
    }
    return 0;
}

sim_stop_kind cli_run(cli_session *s, uint64_t until) { return runctl_run(&s->rc, until); }

int cli_ff_finish(cli_session *s)
{
    sim_machine *m = &s->m;
    int r = runctl_ff_finish(&s->rc);
    if (r <= 0)
        return r;
    fprintf(stderr, "xpusim: --fast-forward %s: the marker was never reached (the run ended: %s); the whole run was "
                    "functional and there is no timed part\n", s->args->fast_forward, sim_stop_name(m->stop.kind));
    return -1;
}
