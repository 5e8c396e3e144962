/* isa/dpu/predecode.c: DPU words to execution records, once per IRAM word at load (or
 * after ldmai / host writes). The execution form is the table's most specific non-alias
 * form; its operand fields become register numbers, the immediate, the branch target, the
 * destination kind (32-bit, sign/zero-extended pair, 64-bit), the canonical condition (the
 * meaning of a condition value depends on the form's condition class), the access width,
 * the registers read and written (bank-penalty option) and a specialised-path tag. */
#include <string.h>
#include "dpu.h"

/* canonical condition of value v in class cls */
static uint8_t canon_cond(int cls, int v)
{
    if (cls == DPU_CLS_ACQUIRE_CC)
        return v == 1 ? DPU_C_TRUE : v == 2 ? DPU_C_ACQ_Z : DPU_C_ACQ_NZ;
    if (cls == DPU_CLS_RELEASE_CC)
        return DPU_C_NZ;
    if (v >= 32)
        v -= 32; /* ext_sub_set: the sub conditions as set conditions */
    switch (v) {
    case 0: return DPU_C_FALSE;
    case 1: return DPU_C_TRUE;
    case 2: case 6: return DPU_C_Z;
    case 3: case 7: return DPU_C_NZ;
    case 4: case 10: return DPU_C_XZ;
    case 5: case 11: return DPU_C_XNZ;
    case 8:
        return (cls == DPU_CLS_COUNT_CC || cls == DPU_CLS_COUNT_NZ_CC) ? DPU_C_MAX : DPU_C_PL;
    case 9:
        return (cls == DPU_CLS_COUNT_CC || cls == DPU_CLS_COUNT_NZ_CC) ? DPU_C_NMAX : DPU_C_MI;
    case 12: return DPU_C_SZ;
    case 13: return DPU_C_SNZ;
    case 14: return DPU_C_SPL;
    case 15: return DPU_C_SMI;
    case 18: return DPU_C_OV;
    case 19: return DPU_C_NOV;
    default: break;
    }
    int add = cls == DPU_CLS_ADD_CC || cls == DPU_CLS_ADD_NZ_CC;
    int sub = cls == DPU_CLS_SUB_CC || cls == DPU_CLS_SUB_NZ_CC || cls == DPU_CLS_EXT_SUB_SET_CC ||
              cls == DPU_CLS_SUB_SET_CC;
    int shf = cls == DPU_CLS_SHIFT_CC || cls == DPU_CLS_SHIFT_NZ_CC || cls == DPU_CLS_IMM_SHIFT_CC ||
              cls == DPU_CLS_IMM_SHIFT_NZ_CC;
    int mul = cls == DPU_CLS_MUL_CC || cls == DPU_CLS_MUL_NZ_CC;
    if (add) {
        if (v == 20) return DPU_C_C;
        if (v == 21) return DPU_C_NC;
        if (v >= 22 && v <= 31) return (uint8_t)(DPU_C_NC5 + (v - 22));
    }
    if (sub) {
        static const uint8_t s[] = {DPU_C_LTU, DPU_C_GEU, DPU_C_LTS, DPU_C_GES, DPU_C_LES, DPU_C_GTS,
                                    DPU_C_LEU, DPU_C_GTU, DPU_C_XLES, DPU_C_XGTS, DPU_C_XLEU, DPU_C_XGTU};
        if (v >= 20 && v <= 31) return s[v - 20];
    }
    if (shf) {
        switch (v) {
        case 24: return DPU_C_E;
        case 25: return DPU_C_O;
        case 28: return DPU_C_NSH32;
        case 29: return DPU_C_SH32;
        case 30: return DPU_C_SE;
        case 31: return DPU_C_SO;
        }
    }
    if (mul) {
        if (v == 30) return DPU_C_SMALL;
        if (v == 31) return DPU_C_LARGE;
    }
    return DPU_C_FALSE;
}

static void set_fast(dpu_insn *in, int store)
{
    in->fast = DPU_FAST_NONE;
    if (in->kind || in->setf || in->endian)
        return;
    /* "false" never jumps: such a form is the plain one (move rr is or rrif) */
    int plain = in->cond == DPU_C_NONE || in->cond == DPU_C_FALSE;
    /* forms compiled code runs often (issue 16; counted on the PrIM kernels) */
    switch (in->op) {
    case DPU_OP_AND: case DPU_OP_OR: case DPU_OP_XOR:
        /* plain 32-bit ones keep their own cases below; the rest (a jump on the result:
         * "move r, k, true, L"; the .s/.u pairs of 64-bit code; zero destination) here */
        if (!(plain && in->dk == DPU_D_R) &&
            (in->dk == DPU_D_R || in->dk == DPU_D_DS || in->dk == DPU_D_DU || in->dk == DPU_D_NONE))
            in->fast = DPU_FAST_LOGX;
        break;
    case DPU_OP_MUL_STEP: case DPU_OP_DIV_STEP:
        /* __mulsi3's and __udivsi3's loops: "mul_step d0, r2, d0, k, z, L" */
        if (in->dk == DPU_D_D64)
            in->fast = in->op == DPU_OP_MUL_STEP ? DPU_FAST_MULSTEP : DPU_FAST_DIVSTEP;
        /* the multiply's own form (every step of __mulsi3): the kept half is the source
         * pair's odd register, the shift a constant below 32 (its own block, branch-free) */
        if (in->fast == DPU_FAST_MULSTEP && in->rb == in->rc && in->cond == DPU_C_Z && in->shift < 32)
            in->fast = DPU_FAST_MULSTEPZ;
        break;
    case DPU_OP_CLZ: case DPU_OP_CLO:
        if (in->dk == DPU_D_R || in->dk == DPU_D_NONE)
            in->fast = in->op == DPU_OP_CLZ ? DPU_FAST_CLZ : DPU_FAST_CLO;
        break;
    case DPU_OP_MOVD:
        if (in->dk == DPU_D_D64)
            in->fast = DPU_FAST_MOVD;
        break;
    case DPU_OP_LDMA: case DPU_OP_SDMA:
        /* every MRAM access of compiled code (mram_read/mram_write, pointer access) */
        in->fast = DPU_FAST_DMA;
        break;
    case DPU_OP_CALL:
        /* with a return register (every C call) or without (a jump through a register) */
        if (in->cond == DPU_C_NONE && (in->dk == DPU_D_R || in->dk == DPU_D_NONE))
            in->fast = DPU_FAST_CALL;
        break;
    default:
        break;
    }
    if (in->fast != DPU_FAST_NONE)
        return;
    if (plain && in->dk == DPU_D_R) {
        switch (in->op) {
        case DPU_OP_ADD: in->fast = DPU_FAST_ADD; break;
        case DPU_OP_SUB: in->fast = DPU_FAST_SUB; break;
        case DPU_OP_AND: in->fast = DPU_FAST_AND; break;
        case DPU_OP_OR: in->fast = DPU_FAST_OR; break;
        case DPU_OP_XOR: in->fast = DPU_FAST_XOR; break;
        case DPU_OP_LSL: in->fast = DPU_FAST_LSL; break;
        case DPU_OP_LSR: in->fast = DPU_FAST_LSR; break;
        case DPU_OP_ASR: in->fast = DPU_FAST_ASR; break;
        case DPU_OP_ADDC: in->fast = DPU_FAST_ADDC; break;
        case DPU_OP_SUBC: in->fast = DPU_FAST_SUBC; break;
        case DPU_OP_LSL_ADD:
            /* the added register is read as 0 when it is a constant register (exec.c) */
            if (in->rb < 24 && in->shift < 32) in->fast = DPU_FAST_LSLADD;
            break;
        default: break;
        }
        if (in->fast != DPU_FAST_NONE || in->cond == DPU_C_FALSE)
            return;
    }
    if (in->cond == DPU_C_NONE && in->dk == DPU_D_R) {
        switch (in->op) {
        case DPU_OP_LW: in->fast = DPU_FAST_LW; break;
        case DPU_OP_LBU: in->fast = DPU_FAST_LBU; break;
        case DPU_OP_LBS: in->fast = DPU_FAST_LBS; break;
        case DPU_OP_LHU: in->fast = DPU_FAST_LHU; break;
        case DPU_OP_LHS: in->fast = DPU_FAST_LHS; break;
        default: break;
        }
    } else if (in->cond == DPU_C_NONE && in->dk == DPU_D_NONE && store) {
        if (in->op == DPU_OP_SW) in->fast = DPU_FAST_SW;
        if (in->op == DPU_OP_SB) in->fast = DPU_FAST_SB;
        if (in->op == DPU_OP_SH) in->fast = DPU_FAST_SH;
        if (in->op == DPU_OP_SD && !in->bimm) in->fast = DPU_FAST_SD;
    } else if (in->cond != DPU_C_NONE && in->dk == DPU_D_NONE && in->op == DPU_OP_SUB) {
        switch (in->cond) {
        case DPU_C_Z: in->fast = DPU_FAST_JEQ; break;
        case DPU_C_NZ: in->fast = DPU_FAST_JNEQ; break;
        case DPU_C_LTU: in->fast = DPU_FAST_JLTU; break;
        case DPU_C_GEU: in->fast = DPU_FAST_JGEU; break;
        case DPU_C_LEU: in->fast = DPU_FAST_JLEU; break;
        case DPU_C_GTU: in->fast = DPU_FAST_JGTU; break;
        case DPU_C_LTS: in->fast = DPU_FAST_JLTS; break;
        case DPU_C_GES: in->fast = DPU_FAST_JGES; break;
        case DPU_C_LES: in->fast = DPU_FAST_JLES; break;
        case DPU_C_GTS: in->fast = DPU_FAST_JGTS; break;
        default: in->fast = DPU_FAST_JSUB; break;
        }
    } else if (in->cond != DPU_C_NONE && in->dk == DPU_D_R && in->op == DPU_OP_ADD) {
        in->fast = in->cond == DPU_C_Z ? DPU_FAST_ADDZ : in->cond == DPU_C_NZ ? DPU_FAST_ADDNZ : DPU_FAST_ADDBR;
    } else if (in->cond != DPU_C_NONE && in->dk == DPU_D_R && in->op == DPU_OP_SUB) {
        in->fast = in->cond == DPU_C_Z ? DPU_FAST_SUBZ : in->cond == DPU_C_NZ ? DPU_FAST_SUBNZ : DPU_FAST_SUBBR;
    } else if ((in->op == DPU_OP_ACQUIRE || in->op == DPU_OP_RELEASE) && in->dk == DPU_D_NONE) {
        switch (in->cond) {
        case DPU_C_NONE: case DPU_C_FALSE: case DPU_C_TRUE: case DPU_C_Z: case DPU_C_NZ:
        case DPU_C_ACQ_Z: case DPU_C_ACQ_NZ:
            in->fast = DPU_FAST_ACQREL;
            break;
        default: break;
        }
    } else if (in->op == DPU_OP_CALL && (in->dk == DPU_D_R || in->dk == DPU_D_NONE)) {
        in->fast = DPU_FAST_CALL;
    } else if (in->op == DPU_OP_LD && in->cond == DPU_C_NONE && in->dk == DPU_D_D64) {
        in->fast = DPU_FAST_LD;
    }
}

void dpu_predecode(uint64_t w, dpu_insn *in)
{
    memset(in, 0, sizeof *in);
    if (w == 0) { /* no form has an all-zero word: skip the table scan for empty IRAM */
        in->illegal = 1;
        in->op = DPU_OP_FAULT;
        return;
    }
    int xi = dpu_decode_exec(w);
    int di = dpu_decode(w);
    if (xi < 0) {
        in->illegal = 1;
        in->op = DPU_OP_FAULT;
        return;
    }
    const dpu_form *f = dpu_form_at(xi);
    in->form = (uint16_t)(di >= 0 ? di : xi);
    in->op = f->op;
    in->cond = DPU_C_NONE;
    const char *fm = f->form;
    int reverse = (fm[0] == 'r' || fm[0] == 'z') && fm[1] == 'i' && fm[2] == 'r'; /* rir*, zir*: imm - ra */
    int has_ra = 0, has_imm = 0;
    for (int k = 0; k < f->nops; k++) {
        int r = dpu_field_at(f->ops[k])->role;
        has_ra |= r == DPU_R_RA;
        has_imm |= r == DPU_R_IMM;
    }
    int store = f->op == DPU_OP_SB || f->op == DPU_OP_SH || f->op == DPU_OP_SW || f->op == DPU_OP_SD ||
                f->op == DPU_OP_SB_ID || f->op == DPU_OP_SH_ID || f->op == DPU_OP_SW_ID || f->op == DPU_OP_SD_ID;
    in->ra = 24; /* zero unless given */
    in->dk = DPU_D_NONE;
    for (int k = 0; k < f->nops; k++) {
        int fd = f->ops[k];
        int32_t v = dpu_field_value(fd, w);
        switch (dpu_field_at(fd)->role) {
        case DPU_R_RA: in->ra = (uint8_t)v; break;
        case DPU_R_RB:
            if (!has_ra && has_imm && !store) in->ra = (uint8_t)v; /* rri/zri with a 32-bit immediate */
            else in->rb = (uint8_t)v;
            break;
        case DPU_R_DB: in->rb = (uint8_t)v; break;
        case DPU_R_RC: in->rc = (uint8_t)v; in->dk = DPU_D_R; break;
        case DPU_R_DC:
            in->rc = (uint8_t)v;
            in->dk = (f->flags & DPU_F_DS) ? DPU_D_DS : (f->flags & DPU_F_DU) ? DPU_D_DU : DPU_D_D64;
            break;
        case DPU_R_IMM: in->imm = v; in->bimm = 1; break;
        case DPU_R_CC:
            in->cond = canon_cond(f->cls, v);
            in->setf = f->cls == DPU_CLS_LOG_SET_CC || f->cls == DPU_CLS_SUB_SET_CC || f->cls == DPU_CLS_EXT_SUB_SET_CC;
            break;
        case DPU_R_PC: in->pc = (uint16_t)v; break;
        case DPU_R_OFF: in->off = v; break;
        case DPU_R_SHIFT: in->shift = (uint8_t)v; break;
        case DPU_R_ENDIAN: in->endian = v != 0; break;
        case DPU_R_IMMDMA: in->imm = v; break;
        }
    }
    if (reverse)
        in->kind = 1; /* first operand is the immediate */
    /* shift-by-immediate forms: the shift amount is the second operand */
    if (!in->bimm && !store) {
        int sh = 0;
        for (int k = 0; k < f->nops; k++)
            sh |= dpu_field_at(f->ops[k])->role == DPU_R_SHIFT;
        int has_rb = 0;
        for (int k = 0; k < f->nops; k++) {
            int r = dpu_field_at(f->ops[k])->role;
            has_rb |= r == DPU_R_RB || r == DPU_R_DB;
        }
        if (sh && !has_rb) {
            in->bimm = 1;
            in->imm = in->shift;
        }
    }
    if (f->flags & DPU_F_ZDEST)
        in->dk = DPU_D_NONE;
    /* registers read and written, for the optional register-file bank rule */
    int uses_rb = 0, pair_b = 0;
    for (int k = 0; k < f->nops; k++) {
        int r = dpu_field_at(f->ops[k])->role;
        uses_rb |= r == DPU_R_RB || r == DPU_R_DB;
        pair_b |= r == DPU_R_DB;
    }
    if (in->ra < 24)
        in->rmask |= 1u << in->ra;
    if (uses_rb && !(in->bimm && !pair_b && in->rb == 0 && !store))
        in->rmask |= (pair_b ? 3u : 1u) << in->rb;
    if (in->dk == DPU_D_R)
        in->wmask = 1u << in->rc;
    else if (in->dk != DPU_D_NONE)
        in->wmask = 3u << in->rc;
    set_fast(in, store);
    switch (in->op) {
    case DPU_OP_LBS: case DPU_OP_LBU: case DPU_OP_LBSS: case DPU_OP_LBUS: case DPU_OP_SB: case DPU_OP_SBS:
    case DPU_OP_SB_ID: in->msize = 1; break;
    case DPU_OP_LHS: case DPU_OP_LHU: case DPU_OP_LHSS: case DPU_OP_LHUS: case DPU_OP_SH: case DPU_OP_SHS:
    case DPU_OP_SH_ID: in->msize = 2; break;
    case DPU_OP_LD: case DPU_OP_LDS: case DPU_OP_SD: case DPU_OP_SDS: case DPU_OP_SD_ID: in->msize = 8; break;
    default: in->msize = 4; break;
    }
}

