/* isa/ipu/predecode.c: the per-tile predecode cache. Decoding a word scans the instruction
 * table (ipu_decode_word picks the most specific of 368 rows), which dominated the cost of
 * an issue; the cache keeps each word's decode, per context (worker and supervisor decode
 * spaces differ), indexed by word address. It is built lazily in pages of 256 words, so a
 * tile pays only for the code it runs, and a machine of 1,472 tiles running one small
 * program stays small. Each entry remembers the word it was decoded from; a fetch whose
 * word in memory differs decodes again. That is the invalidation: any store into code --
 * by the program's own stores, by the debugger, by --load/--set -- is seen at the next
 * fetch at no cost to stores (which would otherwise have to look up the cache). The check
 * costs one compare per fetch, against a word the fetch reads anyway. */
#include <stdlib.h>
#include <string.h>
#include "tile.h"

#define PD_SHIFT 8 /* 256 words, 1 KiB of code, a page */
#define PD_WORDS (1u << PD_SHIFT)

typedef struct ipu_pd_entry {
    uint32_t word;
    int8_t rc;        /* IPU_DEC_*; meaningful only when valid */
    uint8_t valid;
    ipu_insn insn;
} ipu_pd_entry;

typedef struct ipu_pd_page {
    ipu_pd_entry e[2][PD_WORDS]; /* [0] worker, [1] supervisor */
} ipu_pd_page;

int ipu_pd_decode(ipu_tile *tl, uint32_t pc, int ctx, int half, const ipu_insn **out)
{
    const ipu_machine *im = tl->im;
    const uint32_t off = pc - im->mem_base;
    const uint32_t w = mem_ld32le(tl->mem + off);
    /* the uncached path's results, one per bundle half (tiles run on one host thread) */
    static _Thread_local ipu_insn scratch_pair[2];
    ipu_insn *const scratchp = &scratch_pair[half & 1];
#define scratch (*scratchp)
    if (!im->predecode) {
        int rc = ipu_decode_word(w, im->arch, ctx, &scratch);
        *out = &scratch;
        return rc;
    }
    const uint32_t wi = off >> 2, pg = wi >> PD_SHIFT;
    if (!tl->pd) {
        tl->npd = (im->mem_size / 4 + PD_WORDS - 1) / PD_WORDS;
        tl->pd = calloc(tl->npd, sizeof *tl->pd);
        if (!tl->pd) {
            int rc = ipu_decode_word(w, im->arch, ctx, &scratch);
            *out = &scratch;
            return rc;
        }
    }
    ipu_pd_page *p = tl->pd[pg];
    if (!p && !(p = tl->pd[pg] = calloc(1, sizeof *p))) {
        int rc = ipu_decode_word(w, im->arch, ctx, &scratch);
        *out = &scratch;
        return rc;
    }
    ipu_pd_entry *e = &p->e[ctx == IPU_CTX_SUPERVISOR][wi & (PD_WORDS - 1)];
    if (!e->valid || e->word != w) {
        e->rc = (int8_t)ipu_decode_word(w, im->arch, ctx, &e->insn);
        e->word = w;
        e->valid = 1;
    }
    *out = &e->insn;
    return e->rc;
}

#undef scratch

void ipu_pd_free(ipu_tile *tl)
{
    for (uint32_t i = 0; tl->pd && i < tl->npd; i++)
        free(tl->pd[i]);
    free(tl->pd);
    tl->pd = NULL;
    tl->npd = 0;
    ipu_fast_free(tl);
}
