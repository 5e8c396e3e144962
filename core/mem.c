/* core/mem.c: address spaces, regions, checked accesses and watchpoints.
 * Lookups scan a short region list with a one-entry cache of the last region hit: spaces
 * have a handful of regions and accesses are strongly local. Every access is bounds-checked
 * against the region so a simulated program can never touch host memory outside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mem.h"
#include "grow.h"

void mem_space_init(mem_space *s, const char *name, unsigned addr_unit, unsigned word_bytes, int big_endian)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->addr_unit = addr_unit ? addr_unit : 1;
    s->word_bytes = word_bytes ? word_bytes : 4;
    s->big_endian = big_endian;
    s->next_watch_id = 1;
}

void mem_space_free(mem_space *s)
{
    for (int i = 0; i < s->nregions; i++)
        if (s->regions[i].owns_data)
            free(s->regions[i].data);
    free(s->regions);
    s->regions = NULL;
    s->nregions = s->cap = 0;
}

static mem_region *mem_new_region(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm)
{
    if (size == 0 || base + size < base)
        return NULL;
    for (int i = 0; i < s->nregions; i++) {
        const mem_region *r = &s->regions[i];
        if (base < r->base + r->size && r->base < base + size)
            return NULL; /* overlap: a set-up bug, refuse it */
    }
    mem_region *nr = grow_array_int(s->regions, &s->cap, s->nregions + 1, sizeof *nr, 4);
    if (!nr)
        return NULL;
    s->regions = nr;
    mem_region *r = &s->regions[s->nregions++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->base = base;
    r->size = size;
    r->perm = perm;
    return r;
}

mem_region *mem_add_ram(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm)
{
    uint8_t *d = calloc(size, s->addr_unit);
    if (!d)
        return NULL;
    mem_region *r = mem_new_region(s, name, base, size, perm);
    if (!r) {
        free(d);
        return NULL;
    }
    r->data = d;
    r->owns_data = 1;
    return r;
}

mem_region *mem_add_ram_ext(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm, uint8_t *data)
{
    mem_region *r = mem_new_region(s, name, base, size, perm);
    if (r)
        r->data = data;
    return r;
}

mem_region *mem_add_mmio(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm,
                         mem_mmio_read_fn rd, mem_mmio_write_fn wr, void *ctx)
{
    mem_region *r = mem_new_region(s, name, base, size, perm);
    if (r) {
        r->rd = rd;
        r->wr = wr;
        r->ctx = ctx;
    }
    return r;
}

mem_region *mem_find(const mem_space *s, uint64_t addr)
{
    for (int i = 0; i < s->nregions; i++) {
        mem_region *r = &s->regions[i];
        if (addr - r->base < r->size)
            return r;
    }
    return NULL;
}

/* Region and byte offset for nbytes at addr, all inside one region; NULL if not. */
static mem_region *mem_locate(const mem_space *s, uint64_t addr, size_t nbytes, size_t *off)
{
    mem_region *r = mem_find(s, addr);
    if (!r)
        return NULL;
    uint64_t o = (addr - r->base) * s->addr_unit;
    if (o + nbytes > r->size * s->addr_unit || o + nbytes < o)
        return NULL;
    *off = (size_t)o;
    return r;
}

int mem_watch_check(mem_space *s, uint64_t addr, uint64_t len, unsigned kind)
{
    int hit = 0;
    /* every matching watch counts the access (the debugger may pass over the first for
     * another thread and stop for the second); the first one is the hit reported */
    for (int i = 0; i < s->nwatch; i++) {
        mem_watch *w = &s->watches[i];
        if ((w->kind & kind) && addr < w->addr + w->len && w->addr < addr + len) {
            w->hits++;
            if (!hit) {
                s->watch_hit_id = w->id;
                s->watch_hit_addr = addr;
                s->watch_hit_kind = kind;
            }
            hit = 1;
        }
    }
    return hit;
}

static uint64_t mem_load_bytes(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    if (be)
        for (unsigned i = 0; i < n; i++)
            v = v << 8 | p[i];
    else
        for (unsigned i = n; i-- > 0;)
            v = v << 8 | p[i];
    return v;
}

static void mem_store_bytes(uint8_t *p, unsigned n, uint64_t v, int be)
{
    if (be)
        for (unsigned i = n; i-- > 0; v >>= 8)
            p[i] = (uint8_t)v;
    else
        for (unsigned i = 0; i < n; i++, v >>= 8)
            p[i] = (uint8_t)v;
}

static int mem_access(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t *val, unsigned kind)
{
    if (nbytes == 0 || nbytes > 8) {
        s->fault_addr = addr;
        return MEM_FAULT_SIZE;
    }
    mem_region *r = mem_find(s, addr);
    if (!r) {
        s->fault_addr = addr;
        return MEM_FAULT_UNMAPPED;
    }
    unsigned need = kind == MEM_X ? MEM_X : kind;
    if (!(r->perm & need)) {
        s->fault_addr = addr;
        return kind == MEM_W ? MEM_FAULT_READONLY : kind == MEM_X ? MEM_FAULT_NOEXEC : MEM_FAULT_UNMAPPED;
    }
    uint64_t off = (addr - r->base) * s->addr_unit;
    if (off + nbytes > r->size * s->addr_unit) {
        s->fault_addr = addr;
        return MEM_FAULT_UNMAPPED;
    }
    if (s->nwatch && kind != MEM_X) {
        uint64_t units = (nbytes + s->addr_unit - 1) / s->addr_unit;
        mem_watch_check(s, addr, units, kind);
    }
    if (!r->data) {
        int rc = kind == MEM_W ? (r->wr ? r->wr(r->ctx, off, nbytes, *val) : MEM_FAULT_READONLY)
                               : (r->rd ? r->rd(r->ctx, off, nbytes, val) : MEM_FAULT_UNMAPPED);
        if (rc)
            s->fault_addr = addr;
        return rc;
    }
    if (kind == MEM_W)
        mem_store_bytes(r->data + off, nbytes, *val, s->big_endian);
    else
        *val = mem_load_bytes(r->data + off, nbytes, s->big_endian);
    return MEM_OK;
}

int mem_read(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t *val) { return mem_access(s, addr, nbytes, val, MEM_R); }
int mem_write(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t val) { return mem_access(s, addr, nbytes, &val, MEM_W); }
int mem_fetch(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t *val) { return mem_access(s, addr, nbytes, val, MEM_X); }

/* Copy between a host buffer and RAM/ROM regions, crossing region boundaries. */
static int mem_host_copy(const mem_space *s, uint64_t addr, uint8_t *buf, size_t len, int to_mem)
{
    while (len) {
        size_t off;
        mem_region *r = mem_locate(s, addr, 1, &off);
        if (!r || !r->data)
            return r ? MEM_FAULT_DEVICE : MEM_FAULT_UNMAPPED;
        size_t avail = (size_t)(r->size * s->addr_unit) - off;
        size_t n = len < avail ? len : avail;
        if (to_mem)
            memcpy(r->data + off, buf, n);
        else
            memcpy(buf, r->data + off, n);
        buf += n;
        len -= n;
        addr += (n + s->addr_unit - 1) / s->addr_unit;
    }
    return MEM_OK;
}

int mem_host_read(const mem_space *s, uint64_t addr, void *buf, size_t len) { return mem_host_copy(s, addr, buf, len, 0); }

int mem_host_write(mem_space *s, uint64_t addr, const void *buf, size_t len)
{
    return mem_host_copy(s, addr, (uint8_t *)(uintptr_t)buf, len, 1); /* only read from when copying in */
}

uint8_t *mem_ptr(const mem_space *s, uint64_t addr, size_t nbytes)
{
    size_t off;
    mem_region *r = mem_locate(s, addr, nbytes, &off);
    return r && r->data ? r->data + off : NULL;
}

int mem_watch_add(mem_space *s, uint64_t addr, uint64_t len, unsigned kind)
{
    if (s->nwatch >= MEM_MAX_WATCH || len == 0 || !(kind & MEM_RW))
        return -1;
    mem_watch *w = &s->watches[s->nwatch++];
    w->addr = addr;
    w->len = len;
    w->kind = kind & MEM_RW;
    w->hits = 0;
    w->id = s->next_watch_id++;
    return w->id;
}

int mem_watch_remove(mem_space *s, int id)
{
    for (int i = 0; i < s->nwatch; i++)
        if (s->watches[i].id == id || id < 0) {
            memmove(&s->watches[i], &s->watches[i + 1], (size_t)(s->nwatch - i - 1) * sizeof s->watches[0]);
            s->nwatch--;
            if (id >= 0)
                return 0;
            i--;
        }
    return id < 0 ? 0 : -1;
}

const char *mem_fault_str(int fault)
{
    switch (fault) {
    case MEM_OK: return "ok";
    case MEM_FAULT_UNMAPPED: return "unmapped address";
    case MEM_FAULT_READONLY: return "write to read-only memory";
    case MEM_FAULT_NOEXEC: return "fetch from non-executable memory";
    case MEM_FAULT_ALIGN: return "misaligned access";
    case MEM_FAULT_SIZE: return "unsupported access size";
    case MEM_FAULT_DEVICE: return "device error";
    default: return "unknown fault";
    }
}
