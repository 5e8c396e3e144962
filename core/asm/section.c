/* core/asm/section.c: sections and deferred statements (see section.h). */
#include <stdlib.h>
#include <string.h>
#include "section.h"
#include "../grow.h"

int asm_section_get(asm_sections *s, const char *name, int scope, int *created)
{
    if (created)
        *created = 0;
    for (int i = 0; i < s->n; i++)
        if (s->v[i].scope == scope && !strcmp(s->v[i].name, name))
            return i;
    asm_section *v = grow_array_int(s->v, &s->cap, s->n + 1, sizeof *v, 16);
    if (!v)
        return -1;
    s->v = v;
    asm_section *x = &s->v[s->n];
    memset(x, 0, sizeof *x);
    if (!(x->name = strdup(name)))
        return -1;
    x->scope = scope;
    x->align = 1;
    if (created)
        *created = 1;
    return s->n++;
}

int asm_section_grow(asm_sections *s, int i, uint64_t n)
{
    asm_section *x = &s->v[i];
    if (n > (uint64_t)s->max_size - x->size)
        return -1;
    x->size += (uint32_t)n;
    return 0;
}

int asm_sections_alloc(asm_sections *s, uint32_t nobits_mask, const char **name_of_failed)
{
    for (int i = 0; i < s->n; i++) {
        if (i < 32 && (nobits_mask >> i & 1))
            continue;
        /* one byte more: a section of size 0 still has a buffer to point at */
        if (!s->v[i].bytes && !(s->v[i].bytes = calloc((size_t)s->v[i].size + 1, 1))) {
            *name_of_failed = s->v[i].name;
            return -1;
        }
    }
    return 0;
}

void asm_sections_free(asm_sections *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->v[i].name);
        free(s->v[i].bytes);
    }
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

asm_stmt *asm_stmt_add(asm_stmts *t, asm_sections *s, int sec, const asm_stmt *proto, const char *mn,
                       const char *text, int *too_big)
{
    *too_big = 0;
    if (proto->size > (uint64_t)s->max_size - s->v[sec].size) {
        *too_big = 1;
        return NULL;
    }
    asm_stmt *v = grow_array_int(t->v, &t->cap, t->n + 1, sizeof *v, 1024);
    if (!v)
        return NULL;
    t->v = v;
    asm_stmt *st = &t->v[t->n];
    *st = *proto;
    st->sec = sec;
    st->off = s->v[sec].size;
    st->text = strdup(text ? text : "");
    st->mn = mn ? strdup(mn) : NULL;
    if (!st->text || (mn && !st->mn)) {
        free(st->text);
        free(st->mn);
        return NULL;
    }
    s->v[sec].size += proto->size;
    t->n++;
    return st;
}

void asm_stmts_free(asm_stmts *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->v[i].text);
        free(t->v[i].mn);
    }
    free(t->v);
    t->v = NULL;
    t->n = t->cap = 0;
}

int asm_stmts_emit(const asm_stmts *t, const asm_data_rules *rules, asm_place_fn place, asm_encode_fn encode,
                   asm_value_fn value, void *ctx, asm_relocs *relocs, const asm_stmt **failed, char *err,
                   size_t errlen)
{
    for (int i = 0; i < t->n; i++) {
        const asm_stmt *st = &t->v[i];
        *failed = st;
        uint8_t *out = place(ctx, st);
        int rc;
        if (st->kind != ASM_STMT_DATA)
            rc = encode(ctx, st, out, err, errlen);
        else if (out && st->size) {
            asm_reloc_site site = {relocs, st->sec, st->off};
            rc = asm_data_emit(rules, &st->data, st->text, st->size, value, ctx, relocs ? &site : NULL, out, err,
                               errlen);
        } else
            rc = 0;
        if (rc)
            return -1;
    }
    *failed = NULL;
    return 0;
}
