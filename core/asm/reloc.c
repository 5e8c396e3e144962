/* core/asm/reloc.c: the relocation list of an object file (see reloc.h). */
#include <limits.h>
#include <stdlib.h>
#include "reloc.h"
#include "../grow.h"

int asm_reloc_add(asm_relocs *r, const asm_reloc *x)
{
    if (r->n == INT_MAX)
        return -1;
    asm_reloc *v = grow_array_int(r->v, &r->cap, r->n + 1, sizeof *v, 16);
    if (!v)
        return -1;
    r->v = v;
    r->v[r->n++] = *x;
    return 0;
}

void asm_relocs_free(asm_relocs *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}
