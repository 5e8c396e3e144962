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

const isa_view *isa_view_find(const isa_ops *isa, const char *name)
{
    for (const isa_view *v = isa->views; v && v->name; v++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

int isa_reg_find(const isa_ops *isa, const char *name)
{
    for (int i = 0; i < isa->nregs; i++)
        if (strcasecmp(isa->regs[i].name, name) == 0)
            return i;
    return -1;
}


/* Every key in opts must be declared in one of the two tables (core may be NULL), and its
 * value must parse as the declared type, in range: checked before anything is built. */
static int check_keys(const opt_desc *own, const opt_desc *core, const char *what, const isa_ops *isa,
                      const sim_opts *opts, char *err, size_t errlen)
{
    for (int i = 0; i < opts->n; i++) {
        const opt_desc *d = opt_desc_find(own, opts->key[i]);
        if (!d)
            d = opt_desc_find(core, opts->key[i]);
        if (!d) {
            int len = snprintf(err, errlen, "unknown %soption '%s' for ISA %s; known:", what, opts->key[i], isa->name);
            if (!own || !own->name)
                len += snprintf(err + len, errlen - (size_t)len, " (none)");
            for (const opt_desc *o = own; o && o->name && len > 0 && (size_t)len < errlen; o++)
                len += snprintf(err + len, errlen - (size_t)len, " %s", o->name);
            return -1;
        }
        if (opt_value_check(d, opts->val[i], err, errlen))
            return -1;
    }
    return 0;
}

int isa_check_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen)
{
    return check_keys(isa->options, sim_core_options, "", isa, opts, err, errlen);
}

int isa_check_asm_options(const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen)
{
    return check_keys(isa->asm_options, NULL, "assembler ", isa, opts, err, errlen);
}
