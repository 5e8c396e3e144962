/* isa/registry.c: the table of plugged-in ISAs, generated from the isa/<name>/ directories
 * (build/isa_list.h), with lookup by name, probing of a program image and option checks. */
#include <string.h>
#include <stdio.h>
#include "isa.h"

#define XPUSIM_ISA(n) extern const isa_ops isa_##n;
#include "isa_list.h"
#undef XPUSIM_ISA

static const isa_ops *const registry[] = {
#define XPUSIM_ISA(n) &isa_##n,
#include "isa_list.h"
#undef XPUSIM_ISA
    NULL
};

int isa_count(void) { return (int)(sizeof registry / sizeof registry[0]) - 1; }
const isa_ops *isa_at(int i) { return i >= 0 && i < isa_count() ? registry[i] : NULL; }

const isa_ops *isa_find(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const isa_ops *isa_probe(const ld_image *img)
{
    const isa_ops *best = NULL;
    int best_score = 0;
    for (int i = 0; registry[i]; i++) {
        int s = registry[i]->probe ? registry[i]->probe(img) : 0;
        if (s > best_score) {
            best_score = s;
            best = registry[i];
        }
    }
    return best;
}

int isa_reg_find(const isa_ops *isa, const char *name)
{
    for (int i = 0; i < isa->nregs; i++)
        if (strcasecmp(isa->regs[i].name, name) == 0)
            return i;
    return -1;
}

/* Options the core itself reads (core/sim.c), valid for every ISA. */
const isa_option isa_core_options[] = {
    {"jobs", "1", "host threads for ISAs whose units run independently (results identical to jobs=1)"},
    {"watchdog", "100000000", "stop as a livelock after this many cycles in which no thread retires an instruction (0 = off)"},
    {NULL, NULL, NULL},
};

/* Every key in opts must be in one of the two tables (core may be NULL). */
static int check_keys(const isa_option *own, const isa_option *core, const char *what, const isa_ops *isa,
                      const sim_opts *opts, char *err, size_t errlen)
{
    for (int i = 0; i < opts->n; i++) {
        int known = 0;
        for (const isa_option *o = own; o && o->name; o++)
            if (strcmp(o->name, opts->key[i]) == 0)
                known = 1;
        for (const isa_option *o = core; o && o->name; o++)
            if (strcmp(o->name, opts->key[i]) == 0)
                known = 1;
        if (!known) {
            int len = snprintf(err, errlen, "unknown %soption '%s' for ISA %s; known:", what, opts->key[i], isa->name);
            if (!own || !own->name)
                len += snprintf(err + len, errlen - (size_t)len, " (none)");
            for (const isa_option *o = own; o && o->name && len > 0 && (size_t)len < errlen; o++)
                len += snprintf(err + len, errlen - (size_t)len, " %s", o->name);
            return -1;
        }
    }
    return 0;
}

int isa_check_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen)
{
    return check_keys(isa->options, isa_core_options, "", isa, opts, err, errlen);
}

int isa_check_asm_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen)
{
    return check_keys(isa->asm_options, NULL, "assembler ", isa, opts, err, errlen);
}
