/* core/grow.h: growing an array, written once. The capacity doubles from a first size until
 * it holds what is needed, and the byte size is checked against overflow before the realloc
 * (a count read from a file or a guest program never wraps a size); on failure the old block
 * and capacity are left as they were, still the caller's. Used by the assemblers' tables,
 * the loaders and the front ends; hot paths keep their own preallocated storage. */
#ifndef XPUSIM_GROW_H
#define XPUSIM_GROW_H
#include <stddef.h>

/* The capacity the functions below grow cap to for need elements of elem (> 0) bytes: cap
 * (or first, when cap is 0) doubled until it holds need, stopping at max (and at what
 * SIZE_MAX bytes hold) rather than wrapping; 0 when need itself cannot be held. */
size_t grow_cap(size_t cap, size_t need, size_t elem, size_t first, size_t max);
/* Storage for at least need (>= 1) elements of elem bytes in p, which holds *cap now: p
 * itself when it has room, else the grown block, *cap updated (first, then doubling). NULL
 * when out of memory or when the size cannot be represented: p and *cap unchanged. */
void *grow_array(void *p, size_t *cap, size_t need, size_t elem, size_t first);
/* The same with an int capacity (at most INT_MAX elements). */
void *grow_array_int(void *p, int *cap, int need, size_t elem, int first);

#endif
