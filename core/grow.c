/* core/grow.c: growing an array (see grow.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "grow.h"

size_t grow_cap(size_t cap, size_t need, size_t elem, size_t first, size_t max)
{
    size_t lim = elem ? SIZE_MAX / elem : 0;
    if (need > lim || need > max)
        return 0;
    if (max > lim)
        max = lim;
    size_t c = cap ? cap : (first ? first : 1);
    while (c < need)
        c = c > max / 2 ? max : c * 2;
    return c > max ? max : c;
}

void *grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap && p)
        return p;
    size_t c = grow_cap(*cap, need, elem, first, SIZE_MAX);
    void *q = c ? realloc(p, c * elem) : NULL;
    if (q)
        *cap = c;
    return q;
}

void *grow_array_int(void *p, int *cap, int need, size_t elem, int first)
{
    if (need <= 0 || *cap < 0) /* not a count */
        return NULL;
    if (need <= *cap && p)
        return p;
    size_t c = grow_cap((size_t)*cap, (size_t)need, elem, first > 0 ? (size_t)first : 1, INT_MAX);
    void *q = c ? realloc(p, c * elem) : NULL;
    if (q)
        *cap = (int)c;
    return q;
}
