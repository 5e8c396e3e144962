/* core/asm/symtab.c: the assemblers' symbol table (see symtab.h): a vector of symbols and
 * an open-addressing hash of name -> first symbol of that name, grown at 3/4 load. */
#include <stdlib.h>
#include <string.h>
#include "symtab.h"
#include "../grow.h"

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void asm_symtab_free(asm_symtab *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->v[i].name);
        free(t->v[i].expr);
    }
    free(t->v);
    free(t->heads);
    memset(t, 0, sizeof *t);
}

/* The hash slot holding name's chain, or the empty slot where it would go. */
static int slot(const asm_symtab *t, const char *name)
{
    uint32_t m = (uint32_t)t->nheads - 1, i = hash(name) & m;
    while (t->heads[i] >= 0 && strcmp(t->v[t->heads[i]].name, name))
        i = (i + 1) & m;
    return (int)i;
}

int asm_sym_first(const asm_symtab *t, const char *name)
{
    return t->nheads ? t->heads[slot(t, name)] : -1;
}

asm_symbol *asm_sym_find(const asm_symtab *t, const char *name, int scope)
{
    for (int i = asm_sym_first(t, name); i >= 0; i = t->v[i].next_same)
        if (t->v[i].scope == scope)
            return &t->v[i];
    return NULL;
}

static int rehash(asm_symtab *t, int nheads)
{
    int *h = malloc(sizeof *h * (size_t)nheads);
    if (!h)
        return -1;
    for (int i = 0; i < nheads; i++)
        h[i] = -1;
    free(t->heads);
    t->heads = h;
    t->nheads = nheads;
    /* re-insert chain heads: a symbol is a head if no earlier symbol has its name */
    for (int i = 0; i < t->n; i++) {
        int s = slot(t, t->v[i].name);
        if (t->heads[s] < 0)
            t->heads[s] = i;
    }
    return 0;
}

asm_symbol *asm_sym_get(asm_symtab *t, const char *name, int scope)
{
    asm_symbol *y = asm_sym_find(t, name, scope);
    if (y)
        return y;
    if ((t->n + 1) * 4 > t->nheads * 3 && rehash(t, t->nheads ? t->nheads * 2 : 256))
        return NULL;
    asm_symbol *v = grow_array_int(t->v, &t->cap, t->n + 1, sizeof *v, 256);
    if (!v)
        return NULL;
    t->v = v;
    char *copy = strdup(name);
    if (!copy)
        return NULL;
    int idx = t->n++;
    y = &t->v[idx];
    memset(y, 0, sizeof *y);
    y->name = copy;
    y->scope = scope;
    y->section = -1;
    y->next_same = -1;
    int s = slot(t, name);
    if (t->heads[s] < 0) {
        t->heads[s] = idx;
    } else { /* append: chains keep definition order */
        int i = t->heads[s];
        while (t->v[i].next_same >= 0)
            i = t->v[i].next_same;
        t->v[i].next_same = idx;
    }
    return y;
}

int asm_sym_set_expr(asm_symbol *y, const char *expr)
{
    char *copy = expr ? strdup(expr) : NULL;
    if (expr && !copy)
        return -1;
    free(y->expr);
    y->expr = copy;
    return 0;
}
