/* core/asm/reloc.c: the relocation list of an object file (see reloc.h). */
#include <limits.h>
#include <stdlib.h>
#include "reloc.h"

int asm_reloc_add(asm_relocs *r, const asm_reloc *x)
{
    if (r->n == r->cap) {
        if (r->cap > INT_MAX / 2)
            return -1;
        int cap = r->cap ? r->cap * 2 : 16;
        asm_reloc *v = realloc(r->v, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = *x;
    return 0;
}

void asm_relocs_free(asm_relocs *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}
