/* isa/ipu/frec.c: the fast path's records. ipu_frec_build turns the bundle at a pc into
 * what fast.c executes without the table: an operation id, register operands as indices
 * into the context's one register array, immediates and branch targets precomputed, and the
 * registers each half reads and writes (the pairing and old-value rules of exec.c, checked
 * once here instead of at every issue). A bundle the fast path does not do gets no record
 * and takes a turn of the reference loop (barrel.c). Split from exec.c, whose semantics
 * (ipu_sem_of) it follows. */
#include <string.h>
#include "exec.h"

/* ---- the fast path's records (fast.c runs them) ---- */

/* r[] index of register operand i as a source, -1 if it is not a single register */
static int fsrc(const ipu_insn *in, int i)
{
    uint32_t v = in->v[i];
    switch (in->op->op[i].kind) {
    case IPU_K_MR: return v == 15 ? IPU_R_ZERO : (int)v;
    case IPU_K_AR: return v == 15 ? IPU_R_ZERO : IPU_R_A0 + (int)v;
    default: return -1;
    }
}
static int fdst(const ipu_insn *in, int i)
{
    uint32_t v = in->v[i];
    switch (in->op->op[i].kind) {
    case IPU_K_MR: return v == 15 ? IPU_R_SINK : (int)v;
    case IPU_K_AR: return v == 15 ? IPU_R_SINK : IPU_R_A0 + (int)v;
    default: return -1;
    }
}
/* an $a pair ($aN:N+1, N even): $a14:15 reads 0 and takes no writes (ipu_rap, ipu_wap) */
static int fpair(const ipu_insn *in, int i, int dst)
{
    uint32_t v = in->v[i];
    if (in->op->op[i].kind != IPU_K_ARP)
        return -1;
    return v >= 14 ? (dst ? IPU_R_SINK : IPU_R_ZERO) : IPU_R_A0 + (int)v;
}
static int is_reg(const ipu_insn *in, int i) { return in->op->op[i].kind == IPU_K_MR || in->op->op[i].kind == IPU_K_AR; }
static uint64_t rbit(int r) { return r == IPU_R_ZERO || r == IPU_R_ZERO + 1 || r == IPU_R_SINK || r == IPU_R_SINK + 1 ? 0 : 1ull << r; }

/* 0 with *f filled, -1 when the instruction goes through the generic executor */
static int fop_build(const ipu_machine *im, const ipu_insn *in, ipu_fop *f)
{
    static const uint8_t alu_fop[] = {
        [S_ADD] = IPU_FOP_ADD, [S_SUB] = IPU_FOP_SUB, [S_MUL] = IPU_FOP_MUL, [S_AND] = IPU_FOP_AND,
        [S_ANDC] = IPU_FOP_ANDC, [S_OR] = IPU_FOP_OR, [S_XOR] = IPU_FOP_XOR, [S_XNOR] = IPU_FOP_XNOR,
        [S_MIN] = IPU_FOP_MIN, [S_MAX] = IPU_FOP_MAX, [S_SHL] = IPU_FOP_SHL, [S_SHR] = IPU_FOP_SHR,
        [S_SHRS] = IPU_FOP_SHRS, [S_CMPEQ] = IPU_FOP_CMPEQ, [S_CMPNE] = IPU_FOP_CMPNE,
        [S_CMPSLT] = IPU_FOP_CMPSLT, [S_CMPULT] = IPU_FOP_CMPULT, [S_ABS] = IPU_FOP_ABS, [S_CLZ] = IPU_FOP_CLZ,
        [S_CMS] = IPU_FOP_CMS, [S_POPC] = IPU_FOP_POPC, [S_BITREV8] = IPU_FOP_BITREV8, [S_SETZI] = IPU_FOP_MOV,
        [S_AAND] = IPU_FOP_AND, [S_AANDC] = IPU_FOP_ANDC, [S_AOR] = IPU_FOP_OR, [S_ANOT] = IPU_FOP_NOT,
        [S_ASETZI] = IPU_FOP_MOV, [S_AAND64] = IPU_FOP_AND64, [S_AANDC64] = IPU_FOP_ANDC64,
        [S_AOR64] = IPU_FOP_OR64, [S_ANOT64] = IPU_FOP_NOT64,
    };
    const ipu_opdef *op = in->op;
    const int sem = ipu_sem_of(in);
    memset(f, 0, sizeof *f);
    int d, a, b;
    if (sem >= S_AAND64 && sem <= S_ANOT64) {
        d = fpair(in, 0, 1);
        a = fpair(in, 1, 0);
        b = sem == S_ANOT64 ? IPU_R_ZERO : fpair(in, 2, 0);
        if (d < 0 || a < 0 || b < 0)
            return -1;
        *f = (ipu_fop){.op = alu_fop[sem], .d = (uint8_t)d, .a = (uint8_t)a, .b = (uint8_t)b};
        f->rmask = rbit(a) | rbit(a + 1) | rbit(b) | rbit(b + 1);
        f->wmask = rbit(d) | rbit(d + 1);
        return 0;
    }
    if ((sem >= S_ADD && sem <= S_SETZI) || (sem >= S_AAND && sem <= S_ASETZI)) {
        f->op = alu_fop[sem];
        if ((d = fdst(in, 0)) < 0)
            return -1;
        f->d = (uint8_t)d;
        f->wmask = rbit(d);
        if (sem == S_SETZI || sem == S_ASETZI) {
            /* d = the immediate: b's value, a the zero word (MOV is a | b) */
            f->a = IPU_R_ZERO;
            f->bimm = 1;
            f->imm = (uint32_t)ipu_operand_value(in, 1);
            if (sem == S_SETZI && in->v[0] == 15 && f->imm == IPU_MARKER_IMM)
                return -1; /* the fast-forward marker: the generic executor calls sim_marker */
            return 0;
        }
        int i1 = 1, i2 = op->nops > 2 ? 2 : -1;
        if (!is_reg(in, i1)) {
            /* an immediate first source: commutative operations take it second */
            int comm = sem == S_ADD || sem == S_MUL || sem == S_AND || sem == S_OR || sem == S_XOR || sem == S_XNOR ||
                       sem == S_MIN || sem == S_MAX || sem == S_CMPEQ || sem == S_CMPNE || sem == S_AAND || sem == S_AOR;
            if (i2 < 0 || !comm || !is_reg(in, i2))
                return -1;
            i1 = 2;
            i2 = 1;
        }
        f->a = (uint8_t)fsrc(in, i1);
        f->rmask = rbit(f->a);
        if (sem == S_ANOT) {
            f->bimm = 1;
            return 0;
        }
        if (i2 < 0) {
            f->bimm = 1; /* no second source: b = 0 (alu()) */
        } else if (is_reg(in, i2)) {
            f->b = (uint8_t)fsrc(in, i2);
            f->rmask |= rbit(f->b);
        } else {
            f->bimm = 1;
            f->imm = (uint32_t)ipu_operand_value(in, i2);
        }
        if (sem == S_SHL || sem == S_SHR || sem == S_SHRS) {
            if (f->bimm && f->imm > 31)
                return -1; /* not modelled: the generic executor says so */
            f->mayfail = !f->bimm;
        }
        return 0;
    }
    if (sem == S_LOAD || sem == S_STORE) {
        const int row = (int)(op - ipu_ops);
        const unsigned size = ipu_row_size(row);
        const int dkind = op->op[0].kind;
        f->step = op->op[2].mod == IPU_M_INCOFF;
        f->shift = (uint8_t)__builtin_ctz(size);
        f->mayfail = 1;
        if (!is_reg(in, 1) || !is_reg(in, 2) || op->nops < 4)
            return -1;
        f->a = (uint8_t)fsrc(in, 1);
        f->b = (uint8_t)fsrc(in, 2);
        f->rmask = rbit(f->a) | rbit(f->b);
        if (is_reg(in, 3)) {
            f->c = (uint8_t)fsrc(in, 3);
            f->rmask |= rbit(f->c);
        } else {
            f->bimm = 1;
            f->imm = (uint32_t)ipu_operand_value(in, 3) * size;
        }
        if (f->step) {
            if (op->op[2].kind != IPU_K_MR)
                return -1;
            f->e = (uint8_t)fdst(in, 2);
            f->wmask |= rbit(f->e);
        }
        if (sem == S_LOAD) {
            if (f->step && dkind == IPU_K_MR && in->v[0] == in->v[2] && in->v[0] != 15)
                return -1; /* not modelled */
            if (size == 8 && dkind == IPU_K_ARP) {
                f->op = IPU_FOP_LD64;
                d = fpair(in, 0, 1);
                f->d = (uint8_t)d;
                f->wmask |= rbit(d) | rbit(d + 1);
                return 0;
            }
            if (size > 4 || (d = fdst(in, 0)) < 0)
                return -1;
            f->d = (uint8_t)d;
            f->wmask |= rbit(d);
            const int ext = ipu_row_ext(row);
            f->op = size == 4 ? IPU_FOP_LD32
                    : size == 1 ? (ext == X_SIGN ? IPU_FOP_LDS8 : IPU_FOP_LDZ8)
                    : ext == X_SIGN ? IPU_FOP_LDS16 : ext == X_BCAST16 ? IPU_FOP_LDB16 : IPU_FOP_LDZ16;
            return 0;
        }
        if (size == 8 && dkind == IPU_K_ARP) {
            f->op = IPU_FOP_ST64;
            d = fpair(in, 0, 0);
            f->d = (uint8_t)d;
            f->rmask |= rbit(d) | rbit(d + 1);
            return 0;
        }
        if (size != 4 || (d = fsrc(in, 0)) < 0)
            return -1;
        f->op = IPU_FOP_ST32;
        f->d = (uint8_t)d;
        f->rmask |= rbit(d);
        return 0;
    }
    switch (sem) {
    case S_BR: case S_BRI:
        f->op = IPU_FOP_BR;
        if (is_reg(in, 0)) {
            f->a = (uint8_t)fsrc(in, 0);
            f->rmask = rbit(f->a);
        } else {
            f->a = IPU_R_ZERO; /* target = a + imm2 */
            f->imm2 = (uint32_t)ipu_operand_value(in, 0);
        }
        return 0;
    case S_BRZ: case S_BRNZ: case S_BRNEG: case S_BRPOS: case S_BRNZDEC:
        if (!is_reg(in, 0) || is_reg(in, 1))
            return -1;
        f->op = sem == S_BRZ ? IPU_FOP_BRZ : sem == S_BRNZ ? IPU_FOP_BRNZ : sem == S_BRNEG ? IPU_FOP_BRNEG
                : sem == S_BRPOS ? IPU_FOP_BRPOS : IPU_FOP_BRNZDEC;
        f->a = (uint8_t)fsrc(in, 0);
        f->rmask = rbit(f->a);
        f->imm2 = (uint32_t)ipu_operand_value(in, 1);
        if (sem == S_BRNZDEC) {
            f->d = (uint8_t)fdst(in, 0);
            f->wmask = rbit(f->d);
        }
        return 0;
    case S_CALL:
        if ((d = fdst(in, 0)) < 0 || is_reg(in, 1))
            return -1;
        f->op = IPU_FOP_CALL;
        f->d = (uint8_t)d;
        f->wmask = rbit(d);
        f->imm2 = (uint32_t)ipu_operand_value(in, 1) & 0x1ffffcu;
        return 0;
    case S_ATOM:
        if ((d = fdst(in, 0)) < 0 || (a = fsrc(in, 1)) < 0)
            return -1;
        *f = (ipu_fop){.op = IPU_FOP_MOV, .d = (uint8_t)d, .a = (uint8_t)a, .bimm = 1, .rmask = rbit(a), .wmask = rbit(d)};
        return 0;
    case S_MOVZ:
        if ((d = fdst(in, 0)) < 0 || (a = fsrc(in, 1)) < 0 || (b = fsrc(in, 2)) < 0)
            return -1;
        *f = (ipu_fop){.op = IPU_FOP_MOVZ, .d = (uint8_t)d, .a = (uint8_t)a, .b = (uint8_t)b,
                       .rmask = rbit(a) | rbit(b), .wmask = rbit(d)};
        return 0;
    case S_RPT:
        f->op = IPU_FOP_RPT;
        if (is_reg(in, 0)) {
            f->a = (uint8_t)fsrc(in, 0);
            f->rmask = rbit(f->a);
            f->mayfail = 1;
        } else {
            f->a = IPU_R_ZERO; /* count = a + imm */
            f->imm = (uint32_t)ipu_operand_value(in, 0);
            if (f->imm > im->repeat_mask)
                return -1;
        }
        f->imm2 = 8 * ((uint32_t)ipu_operand_value(in, 1) + 1);
        return 0;
    default:
        return -1;
    }
}

/* Mirrors fetch, check_rpt_body's conditions, check_pair and the modelled check of
 * ipu_exec_bundle: a bundle any of them would stop is IPU_FR_GENERIC, so the reference
 * executor raises the same stop. */
void ipu_frec_build(const ipu_tile *tl, uint32_t pc, ipu_frec *r)
{
    const ipu_machine *im = tl->im;
    ipu_insn in[2];
    memset(r, 0, sizeof *r);
    r->kind = IPU_FR_GENERIC;
    r->w0 = mem_ld32le(tl->mem + (pc - im->mem_base));
    r->n = 1;
    if (ipu_decode_word(r->w0, im->arch, IPU_CTX_WORKER, &in[0]) != IPU_DEC_OK)
        return;
    if ((r->w0 >> 31) && (in[0].op->flags & IPU_F_COISSUE)) {
        if ((pc & 7) || !ipu_in_mem(im, pc + 4, 4))
            return;
        r->w1 = mem_ld32le(tl->mem + (pc + 4 - im->mem_base));
        r->n = 2;
        if (ipu_decode_word(r->w1, im->arch, IPU_CTX_WORKER, &in[1]) != IPU_DEC_OK)
            return;
        const ipu_opdef *a = in[0].op, *c = in[1].op;
        if (a->pipe != IPU_PIPE_MAIN || c->pipe != IPU_PIPE_AUX || !(c->flags & IPU_F_COISSUE) ||
            (ipu_arf_writes(&in[0]) & ipu_arf_writes(&in[1])))
            return;
        r->rpt_ok = !((a->flags | c->flags) & (IPU_F_CONTROL | IPU_F_SYSTEM));
    }
    for (int h = 0; h < r->n; h++)
        if (!ipu_sem_of(&in[h]) || fop_build(im, &in[h], &r->f[h]))
            return;
    /* a pair runs its halves one after the other on the live registers: only when the
     * second half reads nothing the first writes (else both would need the snapshot), and
     * cannot leave half done */
    if (r->n == 2 && (r->f[1].mayfail || (r->f[0].wmask & r->f[1].rmask)))
        return;
    r->kind = IPU_FR_FAST;
}
