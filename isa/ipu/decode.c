/* isa/ipu/decode.c: IPU word and bundle decoding from the instruction table. A word is
 * matched against the rows its architecture and context may decode; when two rows match,
 * the one that fixes more bits wins, as in LLVM's generated decoder. Register fields are
 * then checked the way LLVM's disassembler checks them (pairs even, $m pairs below 12,
 * quads multiples of 4), because an encoding with an odd pair number is invalid, not another
 * instruction. A co-issued bundle is a main-pipe word with bit 31 set followed by its aux
 * half; llvm-objdump decodes each half in the current context first and then in the other
 * one, and ipu_decode offers the same fallback for listings of code whose context is not
 * known. */
#include <string.h>
#include "ipu.h"

static uint32_t field_value(const ipu_operand *o, uint32_t w)
{
    uint32_t v = 0;
    for (int i = 0; i < o->npieces; i++) {
        const ipu_piece *p = &o->p[i];
        uint32_t bits = (w >> p->lo) & (p->width >= 32 ? 0xffffffffu : ((1u << p->width) - 1));
        v |= bits << p->shift;
    }
    return v;
}

static int reg_ok(int kind, uint32_t v)
{
    switch (kind) {
    case IPU_K_MRP: return !(v & 1) && v < 12;
    case IPU_K_ARP: return !(v & 1);
    case IPU_K_ARQ: return !(v & 3);
    default: return 1;
    }
}

static int popcount32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int ipu_decode_word(uint32_t w, int arch, int ctx, ipu_insn *out)
{
    const ipu_opdef *best = NULL;
    int best_bits = -1;
    for (int i = 0; i < ipu_nops; i++) {
        const ipu_opdef *d = &ipu_ops[i];
        if ((w & d->mask) != d->match || !(d->arch & arch) || !(d->ctx & ctx))
            continue;
        int bits = popcount32(d->mask);
        if (bits > best_bits) {
            best = d;
            best_bits = bits;
        }
    }
    if (!best)
        return IPU_DEC_UNKNOWN;
    memset(out, 0, sizeof *out);
    out->op = best;
    out->word = w;
    out->ctx = (uint8_t)ctx;
    for (int i = 0; i < best->nops; i++) {
        out->v[i] = field_value(&best->op[i], w);
        if (!reg_ok(best->op[i].kind, out->v[i]))
            return IPU_DEC_BADREG;
    }
    return IPU_DEC_OK;
}

int64_t ipu_operand_value(const ipu_insn *in, int i)
{
    const ipu_operand *o = &in->op->op[i];
    unsigned w = ipu_operand_width(o);
    uint32_t v = in->v[i];
    switch (o->kind) {
    case IPU_K_SIMM:
        if (w < 32 && (v >> (w - 1)) & 1)
            return (int64_t)v - ((int64_t)1 << w);
        return v;
    case IPU_K_IZ:
        return (uint32_t)(v << (32 - w));
    case IPU_K_BR:
        return (uint32_t)(v << 2);
    default:
        return v;
    }
}

static int other_ctx(int ctx)
{
    return ctx == IPU_CTX_SUPERVISOR ? IPU_CTX_WORKER : IPU_CTX_SUPERVISOR;
}

static int decode_one(uint32_t w, int arch, int ctx, int fallback, ipu_insn *out)
{
    int rc = ipu_decode_word(w, arch, ctx, out);
    if (rc != IPU_DEC_OK && fallback) {
        ipu_insn alt;
        int rc2 = ipu_decode_word(w, arch, other_ctx(ctx), &alt);
        if (rc2 == IPU_DEC_OK) {
            *out = alt;
            return IPU_DEC_OK;
        }
    }
    return rc;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ipu_decode(const uint8_t *p, size_t avail, int arch, int ctx, int fallback, ipu_bundle *b)
{
    memset(b, 0, sizeof *b);
    if (avail < 4)
        return 0;
    uint32_t w = rd32(p);
    int rc = decode_one(w, arch, ctx, fallback, &b->insn[0]);
    if (rc != IPU_DEC_OK)
        return rc;
    b->n = 1;
    if (b->insn[0].op->flags & IPU_F_WIDE) { /* sendpicp: its payload, not an instruction */
        if (avail < 8)
            return IPU_DEC_UNKNOWN;
        b->insn[0].v[IPU_MAX_OPS - 1] = rd32(p + 4);
        return 8;
    }
    /* bit 31 is the co-issue flag only on rows that leave it free (exit*, run, sync... fix it 0) */
    if (!(w >> 31) || !(b->insn[0].op->flags & IPU_F_COISSUE) || avail < 8)
        return 4;
    if (decode_one(rd32(p + 4), arch, ctx, fallback, &b->insn[1]) != IPU_DEC_OK)
        return 4;
    b->n = 2;
    return 8;
}
