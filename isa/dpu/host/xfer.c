/* isa/dpu/host/xfer.c: libxpusim-dpu's memory transfers and logs. A transfer names a
 * symbol of the loaded program and a byte offset in it; the symbol's ELF address says which
 * memory (the DPU model's symbol_location: WRAM, MRAM, IRAM), and the SDK's rules are
 * checked before any byte moves: WRAM offsets and lengths 4-byte aligned, MRAM and IRAM
 * 8-byte aligned, nothing past the symbol's size (a size-0 symbol such as
 * DPU_MRAM_HEAP_POINTER_NAME reaches to the end of its memory) or past the memory. Copies
 * to a set write every DPU of it; copies from need one DPU; prepared buffers move with one
 * push. Logs print the DPU program's printf records (../printf.c). */
#include <string.h>
#include "host.h"
#include "../../isa.h"

extern const isa_ops isa_dpu;

typedef struct xfer_req {
    const ld_symbol *sym;
    uint32_t offset;
    size_t length;
    int to_dpu;
    const void *src; /* broadcast: the same buffer for every DPU; NULL: each DPU's prepared one */
    void *dst;
} xfer_req;

/* Where a transfer of one DPU goes, after the SDK's checks: alignment, the symbol's size,
 * and the memory's end (probed by reading the first and the last bytes, which changes
 * nothing), so that a transfer that would fail is refused before any DPU is written. */
static dpu_error_t place_xfer(xdpu_system *s, uint32_t unit, const xfer_req *r, mem_space **sp, uint64_t *at)
{
    const ld_symbol *y = r->sym;
    uint64_t addr;
    dpu_error_t bad;
    unsigned align;
    if (y->value >= 0xF0000000u)
        return DPU_ERR_INVALID_SYMBOL_ACCESS; /* atomic bits are not host-visible memory */
    else if (y->value >= 0x80000000u)
        bad = DPU_ERR_INVALID_IRAM_ACCESS, align = 8;
    else if (y->value >= 0x08000000u)
        bad = DPU_ERR_INVALID_MRAM_ACCESS, align = 8;
    else
        bad = DPU_ERR_INVALID_WRAM_ACCESS, align = 4;
    if ((y->value + r->offset) % align || r->length % align)
        return bad;
    if (y->size && (uint64_t)r->offset + r->length > y->size)
        return DPU_ERR_INVALID_SYMBOL_ACCESS;
    if (isa_dpu.symbol_location(s->m, (int)unit, y, sp, &addr))
        return bad;
    *at = addr + r->offset / (*sp)->addr_unit;
    uint8_t probe[8];
    if (r->length && (mem_host_read(*sp, *at, probe, 1) ||
                      mem_host_read(*sp, *at + (r->length - align) / (*sp)->addr_unit, probe, align)))
        return bad;
    return DPU_OK;
}

static dpu_error_t xfer_dpu(xdpu_system *s, uint32_t unit, const xfer_req *r, void *buf)
{
    mem_space *sp;
    uint64_t at;
    dpu_error_t e = place_xfer(s, unit, r, &sp, &at);
    if (e != DPU_OK || !r->length)
        return e;
    int rc = r->to_dpu ? mem_host_write(sp, at, buf, r->length) : mem_host_read(sp, at, buf, r->length);
    return rc ? DPU_ERR_INVALID_MEMORY_TRANSFER : DPU_OK;
}

/* The symbol of a transfer, once the allocation is ready for one. */
static dpu_error_t find_symbol(xdpu_system *s, const char *name, const ld_symbol **y)
{
    dpu_error_t e = xdpu_settle(s);
    if (e != DPU_OK)
        return e;
    if (!s->loaded)
        return DPU_ERR_NO_PROGRAM_LOADED;
    if (!name || !(*y = ld_symbol_find(&s->img, name)))
        return DPU_ERR_UNKNOWN_SYMBOL;
    return DPU_OK;
}

/* Every DPU's transfer is checked before any is done: no DPU is written when one is wrong. */
static dpu_error_t check_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    const xfer_req *r = ctx;
    if (!r->src && !d->xfer_buf)
        return DPU_OK; /* no buffer prepared for this DPU: it takes no part */
    mem_space *sp;
    uint64_t at;
    return place_xfer(s, d->index, r, &sp, &at);
}

static dpu_error_t do_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    const xfer_req *r = ctx;
    void *buf = r->src ? (void *)r->src : d->xfer_buf;
    if (!buf)
        return DPU_OK;
    return xfer_dpu(s, d->index, r, buf);
}

static dpu_error_t to_set(struct dpu_set_t set, xfer_req *r)
{
    xdpu_system *s = xdpu_system_of(set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_each(set, check_one, r);
    return e == DPU_OK ? xdpu_each(set, do_one, r) : e;
}

static dpu_error_t broadcast(struct dpu_set_t set, const ld_symbol *y, uint32_t off, const void *src, size_t len)
{
    if (!src && len)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    xfer_req r = {y, off, len, 1, src ? src : "", NULL};
    return to_set(set, &r);
}

dpu_error_t dpu_broadcast_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset,
                             const void *src, size_t length, dpu_xfer_flags_t flags)
{
    (void)flags; /* ASYNC: done at once, which keeps program order */
    xdpu_system *s = xdpu_system_of(dpu_set);
    const ld_symbol *y;
    dpu_error_t e = s ? find_symbol(s, symbol_name, &y) : DPU_ERR_INVALID_DPU_SET;
    return e == DPU_OK ? broadcast(dpu_set, y, symbol_offset, src, length) : e;
}

dpu_error_t dpu_copy_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, const void *src,
                        size_t length)
{
    return dpu_broadcast_to(dpu_set, symbol_name, symbol_offset, src, length, DPU_XFER_DEFAULT);
}

/* The one DPU of a set (copies from and logs need exactly one). */
static struct dpu_t *single(struct dpu_set_t set)
{
    if (set.kind == DPU_SET_DPU)
        return set.dpu;
    uint32_t n = 0;
    if (dpu_get_nr_dpus(set, &n) != DPU_OK || n != 1)
        return NULL;
    for (uint32_t r = 0; r < set.list.nr_ranks; r++)
        if (set.list.ranks[r]->n)
            return &set.list.ranks[r]->sys->dpus[set.list.ranks[r]->first];
    return NULL;
}

static dpu_error_t copy_from(struct dpu_set_t set, const ld_symbol *y, uint32_t off, void *dst, size_t len)
{
    struct dpu_t *d = single(set);
    if (!d)
        return DPU_ERR_INVALID_DPU_SET;
    if (!dst && len)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    xfer_req r = {y, off, len, 0, dst, NULL};
    return xfer_dpu(d->rank->sys, d->index, &r, dst);
}

dpu_error_t dpu_copy_from(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset, void *dst,
                          size_t length)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    const ld_symbol *y;
    dpu_error_t e = s ? find_symbol(s, symbol_name, &y) : DPU_ERR_INVALID_DPU_SET;
    return e == DPU_OK ? copy_from(dpu_set, y, symbol_offset, dst, length) : e;
}

/* A symbol given by address (dpu_get_symbol): the loaded program's symbol there. */
static dpu_error_t by_address(struct dpu_set_t set, struct dpu_symbol_t symbol, const ld_symbol **y)
{
    xdpu_system *s = xdpu_system_of(set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    if (e != DPU_OK)
        return e;
    if (!s->loaded)
        return DPU_ERR_NO_PROGRAM_LOADED;
    for (int i = 0; i < s->img.nsyms; i++)
        if (s->img.syms[i].value == symbol.address && s->img.syms[i].size == symbol.size && s->img.syms[i].name &&
            s->img.syms[i].name[0]) {
            *y = &s->img.syms[i];
            return DPU_OK;
        }
    return DPU_ERR_UNKNOWN_SYMBOL;
}

dpu_error_t dpu_copy_to_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol, uint32_t symbol_offset,
                               const void *src, size_t length)
{
    const ld_symbol *y;
    dpu_error_t e = by_address(dpu_set, symbol, &y);
    return e == DPU_OK ? broadcast(dpu_set, y, symbol_offset, src, length) : e;
}

dpu_error_t dpu_copy_from_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol, uint32_t symbol_offset,
                                 void *dst, size_t length)
{
    const ld_symbol *y;
    dpu_error_t e = by_address(dpu_set, symbol, &y);
    return e == DPU_OK ? copy_from(dpu_set, y, symbol_offset, dst, length) : e;
}

static dpu_error_t prepare_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    (void)s;
    d->xfer_buf = ctx;
    return DPU_OK;
}

dpu_error_t dpu_prepare_xfer(struct dpu_set_t dpu_set, void *buffer)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    return e == DPU_OK ? xdpu_each(dpu_set, prepare_one, buffer) : e;
}

dpu_error_t dpu_push_xfer(struct dpu_set_t dpu_set, dpu_xfer_t xfer, const char *symbol_name, uint32_t symbol_offset,
                          size_t length, dpu_xfer_flags_t flags)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    if (xfer != DPU_XFER_TO_DPU && xfer != DPU_XFER_FROM_DPU)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    const ld_symbol *y;
    dpu_error_t e = find_symbol(s, symbol_name, &y);
    if (e != DPU_OK)
        return e;
    xfer_req r = {y, symbol_offset, length, xfer == DPU_XFER_TO_DPU, NULL, NULL};
    e = xdpu_each(dpu_set, check_one, &r);
    if (e == DPU_OK)
        e = xdpu_each(dpu_set, do_one, &r);
    if (!(flags & DPU_XFER_NO_RESET))
        xdpu_each(dpu_set, prepare_one, NULL);
    return e;
}

/* ---- logs ---- */

static dpu_error_t log_dpu(struct dpu_t *d, FILE *stream)
{
    if (!d || !d->rank || !stream)
        return DPU_ERR_INVALID_DPU_SET;
    xdpu_system *s = d->rank->sys;
    dpu_error_t e = xdpu_settle(s);
    if (e != DPU_OK)
        return e;
    if (!s->loaded)
        return DPU_ERR_NO_PROGRAM_LOADED;
    switch (dpu_log_print(s->m, (int)d->index, stream)) {
    case 0: return DPU_OK;
    /* a program without printf has nothing to print: not an error (PrIM's host code reads
     * the log of every DPU, also of programs whose printf the linker dropped) */
    case -1: return DPU_OK;
    default: return DPU_ERR_LOG_FORMAT;
    }
}

dpu_error_t dpu_log_read(struct dpu_set_t dpu_set, FILE *stream)
{
    return log_dpu(single(dpu_set), stream);
}

dpu_error_t dpulog_read_for_dpu(struct dpu_t *dpu, FILE *stream)
{
    return log_dpu(dpu, stream);
}
