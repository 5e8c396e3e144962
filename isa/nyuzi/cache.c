/* isa/nyuzi/cache.c: a set-associative cache's tags and replacement for the Nyuzi cycle
 * model (L1 instruction and data caches, the shared L2): geometry from -o options, the
 * RTL's pseudo-LRU tree (cache_lru.sv) for 2, 4 and 8 ways, true LRU otherwise, lookups
 * that allocate and mark lines dirty, and invalidation. When fills land and what a miss
 * costs is timing.c's. */
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"

int nyz_cache_init(nyz_cache *c, unsigned size, unsigned ways, unsigned line)
{
    memset(c, 0, sizeof *c);
    if (!ways || !line || (line & (line - 1)) || size % (ways * line))
        return -1;
    c->sets = size / (ways * line);
    if (c->sets & (c->sets - 1))
        return -1;
    c->ways = ways;
    c->line_shift = (unsigned)__builtin_ctz(line);
    c->tag = malloc(sizeof *c->tag * c->sets * ways);
    c->lru = calloc(c->sets * ways, sizeof *c->lru);
    c->dirty = calloc(c->sets * ways, 1);
    c->plru = calloc(c->sets, 1);
    c->plru_on = ways == 2 || ways == 4 || ways == 8;
    c->next_fill = UINT64_MAX;
    c->mru = malloc(sizeof *c->mru * c->sets);
    if (c->mru)
        memset(c->mru, 0xff, sizeof *c->mru * c->sets);
    c->ready = calloc(c->sets * ways, sizeof *c->ready);
    if (!c->tag || !c->lru || !c->dirty || !c->ready || !c->plru || !c->mru)
        return -1;
    memset(c->tag, 0xff, sizeof *c->tag * c->sets * ways);
    return 0;
}

void nyz_cache_free(nyz_cache *c)
{
    free(c->tag);
    free(c->lru);
    free(c->dirty);
    free(c->ready);
    free(c->plru);
    free(c->mru);
    c->ready = NULL;
    c->plru = NULL;
    c->mru = NULL;
    c->tag = NULL;
    c->lru = NULL;
    c->dirty = NULL;
}

/* The way of set holding line, or -1 (the lookup probe and touch share). */
static inline int line_way(const nyz_cache *c, uint32_t line, unsigned set)
{
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[set * c->ways + w] == line)
            return (int)w;
    return -1;
}

int nyz_cache_probe(const nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    return line_way(c, line, line & (c->sets - 1)) >= 0;
}

int nyz_cache_slot(const nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    int w = line_way(c, line, set);
    return w < 0 ? -1 : (int)(set * c->ways) + w;
}

/* Replacement as the RTL's cache_lru.sv: a pseudo-LRU tree of flag bits per set for 2, 4
 * and 8 ways (bit layouts and update rules as there, including that a fill takes the way
 * the flags point to even if another way is invalid); true LRU for other way counts. */
unsigned nyz_plru_victim(unsigned f, unsigned ways)
{
    if (ways == 2)
        return !(f & 1);
    if (ways == 4)
        return !(f & 2) ? ((f & 4) ? 1 : 0) : ((f & 1) ? 3 : 2);
    /* 8 ways: bits 6..0 */
#define B(n) ((f >> (n)) & 1)
    if (!B(3))
        return !B(5) ? (B(6) ? 1 : 0) : (B(4) ? 3 : 2);
    return !B(1) ? (B(2) ? 5 : 4) : (B(0) ? 7 : 6);
#undef B
}

static unsigned plru_touch(unsigned f, unsigned way, unsigned ways)
{
    if (ways == 2)
        return !way;
    if (ways == 4) {
        static const uint8_t set[4] = {6, 2, 1, 0}, keep[4] = {1, 1, 4, 4};
        return set[way] | (f & keep[way]);
    }
    unsigned f5 = (f >> 5) & 1;
    switch (way) {
    case 0: return 0x60 | (f5 << 4) | 0x08 | (f & 7);
    case 1: return 0x20 | (f5 << 4) | 0x08 | (f & 7);
    case 2: return (f & 0x40) | 0x18 | (f & 7);
    case 3: return (f & 0x40) | 0x08 | (f & 7);
    case 4: return (f & 0x70) | 0x06 | (f & 1);
    case 5: return (f & 0x70) | 0x02 | (f & 1);
    case 6: return (f & 0x70) | (f & 4) | 0x01;
    default: return (f & 0x70) | (f & 4);
    }
}

/* Record a use of way w of set, which now holds line, for replacement. */
static inline void touch(nyz_cache *c, unsigned set, unsigned w, uint32_t line)
{
    if (c->plru_on) {
        unsigned f = plru_touch(c->plru[set], w, c->ways);
        c->plru[set] = (uint8_t)f;
        /* nyz_cache_access's fast path skips the touch of the set's last way: only if it
         * changes nothing (8 ways: cache_lru.sv's update for way 0 or 1 copies bit 5 into
         * bit 4, so a second touch can set bit 4: RTL trace of vstream on 2 cores, the
         * code line 0x0 filled into way 0 and hit by the other core, the eight data lines
         * that follow take ways 4 3 6 1 5 2 7 0, not 4 2 6 1 5 2) */
        c->mru[set].line = plru_touch(f, w, c->ways) == f ? line : 0xffffffffu;
        c->mru[set].way = w;
    } else
        c->lru[set * c->ways + w] = ++c->stamp;
}

/* nyz_cache_access (nyuzi.h) past its inline test of the set's last touch. */
int nyz_cache_access_slow(nyz_cache *c, uint32_t addr, int allocate, int write)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1), base = set * c->ways, w;
    const uint32_t *tag = c->tag + base;
    for (w = 0; w < c->ways && tag[w] != line; w++)
        ;
    if (w == c->ways) {
        c->misses++;
        c->last_way = -1;
        if (!allocate)
            return 0;
        if (c->plru_on)
            w = nyz_plru_victim(c->plru[set], c->ways);
        else {
            const uint64_t *lru = c->lru + base;
            w = 0;
            for (unsigned k = 1; k < c->ways; k++)
                if (lru[k] < lru[w])
                    w = k;
        }
        c->tag[base + w] = line;
        c->dirty[base + w] = (uint8_t)write;
        c->last_way = (int)(base + w);
        touch(c, set, w, line);
        return 0;
    }
    touch(c, set, w, line);
    return nyz_cache_hit(c, base + w, write);
}

/* The line a miss of pa would evict from c if that line is valid and dirty, else
 * 0xffffffff (a hit or a clean victim). */
uint32_t nyz_cache_dirty_victim(const nyz_cache *c, uint32_t pa)
{
    uint32_t line = pa >> c->line_shift;
    unsigned set = line & (c->sets - 1), base = set * c->ways, w;
    for (w = 0; w < c->ways; w++)
        if (c->tag[base + w] == line)
            return 0xffffffffu;
    if (c->plru_on)
        w = nyz_plru_victim(c->plru[set], c->ways);
    else {
        w = 0;
        for (unsigned k = 1; k < c->ways; k++)
            if (c->lru[base + k] < c->lru[base + w])
                w = k;
    }
    return c->dirty[base + w] ? c->tag[base + w] : 0xffffffffu;
}

/* The dirty line a miss of addr would evict (or ~0) once the n lines ahead of it (in order;
 * dirty[k]: written) have entered the cache, on the set's flags as they are now (timing.c:
 * a fill's provisional victim while earlier fills wait for their restart). */
uint32_t nyz_cache_victim_after(const nyz_cache *c, uint32_t addr, const uint32_t *ahead,
                                const uint8_t *dirty, unsigned n)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1), base = set * c->ways, w;
    uint32_t tag[8];
    uint8_t dt[8];
    if (!c->plru_on || c->ways > 8)
        return 0xffffffffu;
    memcpy(tag, c->tag + base, c->ways * sizeof tag[0]);
    memcpy(dt, c->dirty + base, c->ways);
    unsigned f = c->plru[set];
    for (unsigned k = 0; k <= n; k++) {
        uint32_t l = k < n ? ahead[k] : line;
        if ((l & (c->sets - 1)) != set)
            continue;
        for (w = 0; w < c->ways && tag[w] != l; w++)
            ;
        if (w == c->ways) {
            w = nyz_plru_victim(f, c->ways);
            if (k == n)
                return dt[w] ? tag[w] : 0xffffffffu;
            tag[w] = l;
            dt[w] = dirty[k];
        } else if (k == n)
            return 0xffffffffu;
        f = plru_touch(f, w, c->ways);
    }
    return 0xffffffffu;
}

/* A use of addr's line, if held, for replacement alone (no count, no dirty mark). */
void nyz_cache_touch(nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    int w = line_way(c, line, set);
    if (w >= 0)
        touch(c, set, (unsigned)w, line);
}

void nyz_cache_invalidate(nyz_cache *c, uint32_t addr)
{
    uint32_t line = addr >> c->line_shift;
    unsigned set = line & (c->sets - 1);
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[set * c->ways + w] == line) {
            c->tag[set * c->ways + w] = 0xffffffffu;
            if (c->mru[set].line == line)
                c->mru[set].line = 0xffffffffu;
        }
}
