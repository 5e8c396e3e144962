/* isa/nyuzi/table.c: the Nyuzi instruction table, the one source of decode, disassembly
 * and assembly. Each entry is (mnemonic, match, mask, operand syntax, executor kind, ALU or
 * memory op); the macros below expand every ALU operation into the formats the hardware
 * decodes (R: SS/VS/VSM/VV/VVM, I: S/V/VM). Decoding takes the first entry whose masked
 * bits match; the assembler tries the entries of a mnemonic in order and uses the first
 * whose operand syntax parses; entries marked decode-only are never emitted. Field
 * positions come from the RTL decode stage (documented in docs/isa/nyuzi.md). */
#include <string.h>
#include "nyuzi.h"

#define RM(fmt, op) (0xC0000000u | (uint32_t)(fmt) << 26 | (uint32_t)(op) << 20)
#define IM(fmt, op) ((uint32_t)(fmt) << 29 | (uint32_t)((op) & 0x1f) << 24)
#define MM(ld, op) (0x80000000u | (uint32_t)(ld) << 29 | (uint32_t)(op) << 25)
#define CM(op) (0xE0000000u | (uint32_t)(op) << 25)
#define BM(ty) (0xF0000000u | (uint32_t)(ty) << 25)

#define R2(n, op) \
    {n, RM(0, op), 0xFFF00000u, SYN_R_SSS, K_ALU_SS, op, 1}, \
    {n, RM(1, op), 0xFFF00000u, SYN_R_VVS, K_ALU_VS, op, 1}, \
    {n "_mask", RM(2, op), 0xFFF00000u, SYN_R_VSVS, K_ALU_VS, op, 1}, \
    {n, RM(4, op), 0xFFF00000u, SYN_R_VVV, K_ALU_VV, op, 1}, \
    {n "_mask", RM(5, op), 0xFFF00000u, SYN_R_VSVV, K_ALU_VV, op, 1}
#define I2(n, op) \
    {n, IM(0, op), 0xFF000000u, SYN_I_SSI, K_ALU_SI, op, 1}, \
    {n, IM(1, op), 0xFF000000u, SYN_I_VVI, K_ALU_VI, op, 1}, \
    {n "_mask", IM(3, op), 0xFF000000u, SYN_I_VSVI, K_ALU_VI, op, 1}
#define R1(n, op) \
    {n, RM(0, op), 0xFFF00000u, SYN_R1_SS, K_ALU_SS, op, 1}, \
    {n, RM(1, op), 0xFFF00000u, SYN_R1_VS, K_ALU_VS, op, 1}, \
    {n "_mask", RM(2, op), 0xFFF00000u, SYN_R1_VSS, K_ALU_VS, op, 1}, \
    {n, RM(4, op), 0xFFF00000u, SYN_R1_VV, K_ALU_VV, op, 1}, \
    {n "_mask", RM(5, op), 0xFFF00000u, SYN_R1_VSV, K_ALU_VV, op, 1}
/* Compares write a scalar mask. The masked R formats decode (the emulator treats them as
 * unmasked) but the assembler never produces them. */
#define CMPR(n, op) \
    {n, RM(0, op), 0xFFF00000u, SYN_C_SSS, K_CMP_SS, op, 1}, \
    {n, RM(1, op), 0xFFF00000u, SYN_C_SVS, K_CMP_VS, op, 1}, \
    {n, RM(4, op), 0xFFF00000u, SYN_C_SVV, K_CMP_VV, op, 1}, \
    {n, RM(2, op), 0xFFF00000u, SYN_C_SVS, K_CMP_VS, op, 0}, \
    {n, RM(5, op), 0xFFF00000u, SYN_C_SVV, K_CMP_VV, op, 0}
#define CMPI(n, op) \
    {n, IM(0, op), 0xFF000000u, SYN_C_SSI, K_CMP_SI, op, 1}, \
    {n, IM(1, op), 0xFF000000u, SYN_C_SVI, K_CMP_VI, op, 1}

const nyz_opdef nyz_optab[] = {
    {"nop", 0x00000000u, 0xFFFFFFFFu, SYN_NONE, K_NOP, 0, 1},
    R2("or", NYZ_OP_OR), I2("or", NYZ_OP_OR),
    R2("and", NYZ_OP_AND), I2("and", NYZ_OP_AND),
    R2("xor", NYZ_OP_XOR), I2("xor", NYZ_OP_XOR),
    R2("add_i", NYZ_OP_ADD_I), I2("add_i", NYZ_OP_ADD_I),
    R2("sub_i", NYZ_OP_SUB_I), I2("sub_i", NYZ_OP_SUB_I),
    R2("mull_i", NYZ_OP_MULL_I), I2("mull_i", NYZ_OP_MULL_I),
    R2("mulh_u", NYZ_OP_MULH_U), I2("mulh_u", NYZ_OP_MULH_U),
    R2("ashr", NYZ_OP_ASHR), I2("ashr", NYZ_OP_ASHR),
    R2("shr", NYZ_OP_SHR), I2("shr", NYZ_OP_SHR),
    R2("shl", NYZ_OP_SHL), I2("shl", NYZ_OP_SHL),
    R2("mulh_i", NYZ_OP_MULH_I), I2("mulh_i", NYZ_OP_MULH_I),
    R2("add_f", NYZ_OP_ADD_F), R2("sub_f", NYZ_OP_SUB_F), R2("mul_f", NYZ_OP_MUL_F),
    R1("clz", NYZ_OP_CLZ), R1("ctz", NYZ_OP_CTZ), R1("move", NYZ_OP_MOVE),
    {"move", IM(0, NYZ_OP_MOVE), 0xFF000000u, SYN_I_SI, K_ALU_SI, NYZ_OP_MOVE, 1},
    {"move", IM(1, NYZ_OP_MOVE), 0xFF000000u, SYN_I_VI, K_ALU_VI, NYZ_OP_MOVE, 1},
    {"move_mask", IM(3, NYZ_OP_MOVE), 0xFF000000u, SYN_I_VSI, K_ALU_VI, NYZ_OP_MOVE, 1},
    R1("ftoi", NYZ_OP_FTOI), R1("reciprocal", NYZ_OP_RECIPROCAL),
    R1("sext_8", NYZ_OP_SEXT8), R1("sext_16", NYZ_OP_SEXT16), R1("itof", NYZ_OP_ITOF),
    {"shuffle", RM(4, NYZ_OP_SHUFFLE), 0xFFF00000u, SYN_R_VVV, K_SHUFFLE, NYZ_OP_SHUFFLE, 1},
    {"shuffle_mask", RM(5, NYZ_OP_SHUFFLE), 0xFFF00000u, SYN_R_VSVV, K_SHUFFLE, NYZ_OP_SHUFFLE, 1},
    {"getlane", RM(1, NYZ_OP_GETLANE), 0xFFF00000u, SYN_GL_SVS, K_GETLANE_R, NYZ_OP_GETLANE, 1},
    {"getlane", IM(1, NYZ_OP_GETLANE), 0xFF000000u, SYN_GL_SVI, K_GETLANE_I, NYZ_OP_GETLANE, 1},
    CMPR("cmpeq_i", NYZ_OP_CMPEQ_I), CMPI("cmpeq_i", NYZ_OP_CMPEQ_I),
    CMPR("cmpne_i", NYZ_OP_CMPNE_I), CMPI("cmpne_i", NYZ_OP_CMPNE_I),
    CMPR("cmpgt_i", NYZ_OP_CMPGT_I), CMPI("cmpgt_i", NYZ_OP_CMPGT_I),
    CMPR("cmpge_i", NYZ_OP_CMPGE_I), CMPI("cmpge_i", NYZ_OP_CMPGE_I),
    CMPR("cmplt_i", NYZ_OP_CMPLT_I), CMPI("cmplt_i", NYZ_OP_CMPLT_I),
    CMPR("cmple_i", NYZ_OP_CMPLE_I), CMPI("cmple_i", NYZ_OP_CMPLE_I),
    CMPR("cmpgt_u", NYZ_OP_CMPGT_U), CMPI("cmpgt_u", NYZ_OP_CMPGT_U),
    CMPR("cmpge_u", NYZ_OP_CMPGE_U), CMPI("cmpge_u", NYZ_OP_CMPGE_U),
    CMPR("cmplt_u", NYZ_OP_CMPLT_U), CMPI("cmplt_u", NYZ_OP_CMPLT_U),
    CMPR("cmple_u", NYZ_OP_CMPLE_U), CMPI("cmple_u", NYZ_OP_CMPLE_U),
    CMPR("cmpgt_f", NYZ_OP_CMPGT_F), CMPR("cmpge_f", NYZ_OP_CMPGE_F),
    CMPR("cmplt_f", NYZ_OP_CMPLT_F), CMPR("cmple_f", NYZ_OP_CMPLE_F),
    CMPR("cmpeq_f", NYZ_OP_CMPEQ_F), CMPR("cmpne_f", NYZ_OP_CMPNE_F),
    {"movehi", IM(2, NYZ_OP_MOVE), 0xFF000000u, SYN_MOVEHI, K_ALU_SI, NYZ_OP_MOVE, 1},
    {"syscall", IM(0, NYZ_OP_SYSCALL), 0xFF000000u, SYN_SYSCALL, K_SYSCALL, NYZ_OP_SYSCALL, 1},
    {"break", RM(0, NYZ_OP_BREAK), 0xFFF00000u, SYN_NONE, K_BREAK, NYZ_OP_BREAK, 1},
    /* memory: alu holds the 4-bit memory op */
    {"load_u8", MM(1, 0), 0xFE000000u, SYN_M_S, K_LOAD, 0, 1},
    {"load_s8", MM(1, 1), 0xFE000000u, SYN_M_S, K_LOAD, 1, 1},
    {"load_u16", MM(1, 2), 0xFE000000u, SYN_M_S, K_LOAD, 2, 1},
    {"load_s16", MM(1, 3), 0xFE000000u, SYN_M_S, K_LOAD, 3, 1},
    {"load_32", MM(1, 4), 0xFE000000u, SYN_M_S, K_LOAD, 4, 1},
    {"load_sync", MM(1, 5), 0xFE000000u, SYN_M_S, K_LOAD_SYNC, 5, 1},
    {"getcr", MM(1, 6), 0xFE000000u, SYN_M_CR, K_GETCR, 6, 1},
    {"load_v", MM(1, 7), 0xFE000000u, SYN_M_V, K_LOAD_V, 7, 1},
    {"load_v_mask", MM(1, 8), 0xFE000000u, SYN_M_VM, K_LOAD_V, 8, 1},
    {"load_gath", MM(1, 13), 0xFE000000u, SYN_M_G, K_LOAD_GATH, 13, 1},
    {"load_gath_mask", MM(1, 14), 0xFE000000u, SYN_M_GM, K_LOAD_GATH, 14, 1},
    {"store_8", MM(0, 1), 0xFE000000u, SYN_M_S, K_STORE, 1, 1},
    {"store_8", MM(0, 0), 0xFE000000u, SYN_M_S, K_STORE, 0, 0},
    {"store_16", MM(0, 3), 0xFE000000u, SYN_M_S, K_STORE, 3, 1},
    {"store_16", MM(0, 2), 0xFE000000u, SYN_M_S, K_STORE, 2, 0},
    {"store_32", MM(0, 4), 0xFE000000u, SYN_M_S, K_STORE, 4, 1},
    {"store_sync", MM(0, 5), 0xFE000000u, SYN_M_S, K_STORE_SYNC, 5, 1},
    {"setcr", MM(0, 6), 0xFE000000u, SYN_M_CR, K_SETCR, 6, 1},
    {"store_v", MM(0, 7), 0xFE000000u, SYN_M_V, K_STORE_V, 7, 1},
    {"store_v_mask", MM(0, 8), 0xFE000000u, SYN_M_VM, K_STORE_V, 8, 1},
    {"store_scat", MM(0, 13), 0xFE000000u, SYN_M_G, K_STORE_SCAT, 13, 1},
    {"store_scat_mask", MM(0, 14), 0xFE000000u, SYN_M_GM, K_STORE_SCAT, 14, 1},
    /* cache control */
    {"dtlbinsert", CM(0), 0xFE000000u, SYN_CC_2REG, K_DTLBINSERT, 0, 1},
    {"dinvalidate", CM(1), 0xFE000000u, SYN_CC_PTR, K_DINVALIDATE, 1, 1},
    {"dflush", CM(2), 0xFE000000u, SYN_CC_PTR, K_DFLUSH, 2, 1},
    {"iinvalidate", CM(3), 0xFE000000u, SYN_CC_PTR, K_IINVALIDATE, 3, 1},
    {"membar", CM(4), 0xFE000000u, SYN_NONE, K_MEMBAR, 4, 1},
    {"tlbinval", CM(5), 0xFE000000u, SYN_CC_PTR, K_TLBINVAL, 5, 1},
    {"tlbinvalall", CM(6), 0xFE000000u, SYN_NONE, K_TLBINVALALL, 6, 1},
    {"itlbinsert", CM(7), 0xFE000000u, SYN_CC_2REG, K_ITLBINSERT, 7, 1},
    /* branches; "ret" is b ra, listed first so it disassembles by name */
    {"ret", BM(0) | 31, 0xFE00001Fu, SYN_NONE, K_B_REG, 0, 1},
    {"b", BM(0), 0xFE000000u, SYN_B_REG, K_B_REG, 0, 1},
    {"bz", BM(1), 0xFE000000u, SYN_B_COND, K_BZ, 1, 1},
    {"bnz", BM(2), 0xFE000000u, SYN_B_COND, K_BNZ, 2, 1},
    {"b", BM(3), 0xFE000000u, SYN_B_OFF, K_B, 3, 1},
    {"call", BM(4), 0xFE000000u, SYN_B_OFF, K_CALL, 4, 1},
    {"call", BM(6), 0xFE000000u, SYN_B_REG, K_CALL_REG, 6, 1},
    {"eret", BM(7), 0xFE000000u, SYN_NONE, K_ERET, 7, 1},
};
const int nyz_noptab = (int)(sizeof nyz_optab / sizeof nyz_optab[0]);

int nyz_alu_is_fp_pipe(int op)
{
    /* RTL rule: op bit 5, or the integer multiplies and ftoi. */
    return (op & 0x20) || op == NYZ_OP_MULL_I || op == NYZ_OP_MULH_U || op == NYZ_OP_MULH_I ||
           op == NYZ_OP_FTOI;
}

static int32_t sext(uint32_t v, int bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
    return (int32_t)((v ^ m) - m);
}

#define NONE 0xff
#define SREG(r) ((uint8_t)(r))
#define VREG(r) ((uint8_t)(32 + (r)))

/* The registers the RTL's scoreboard checks (rd: sources, wr: destination, 0-31 scalar,
 * 32-63 vector, 0xff none), taken from instruction_decode_stage.sv's decode table: by the
 * top seven bits, a field is read whether or not the operation uses it, so an immediate
 * move waits for s[4:0], a scalar load or getcr also for v[4:0], an unmasked vector-vector
 * op for s[14:10] (measured on the RTL: docs/validation/nyuzi.md). Timing only. */
static void rtl_scoreboard(uint32_t w, nyz_insn *in)
{
    enum { F4_0 = 1, F14_10, F19_15, F9_5 };
    int s1 = 0, s2 = 0, v1 = 0, v2 = 0, dest = 0, dvec = 0, call = 0, mask_s1 = 0;
    unsigned top = w >> 25, op;
    int fmt_r = (top >> 4) == 6, fmt_i = !(top >> 6);
    if (fmt_r) {
        switch ((top >> 1) & 7) {
        case 0: dest = 1; s1 = F4_0; s2 = F19_15; break;
        case 1: dest = dvec = 1; s1 = F4_0; s2 = F19_15; v1 = 1; break;
        case 2: dest = dvec = 1; s1 = F14_10; s2 = F19_15; v1 = 1; mask_s1 = 1; break;
        case 4: dest = dvec = 1; s1 = F14_10; v1 = v2 = F19_15; break;
        case 5: dest = dvec = 1; s1 = F4_0; s2 = F14_10; v1 = 1; v2 = F19_15; break;
        default: return; /* illegal */
        }
        op = (w >> 20) & 63;
    } else if (fmt_i) {
        dest = 1; s1 = F4_0;
        switch ((top >> 4) & 3) {
        case 1: dvec = v1 = 1; break;
        case 3: dvec = v1 = 1; s2 = F14_10; break;
        default: break;
        }
        op = (w >> 24) & 31;
    } else if ((top >> 5) == 2) { /* memory: bit 29 load, bits 28:25 the access */
        op = top & 15;
        s1 = F4_0;
        if (top & 16) { /* load */
            dest = v1 = 1;
            if (op == 7 || op == 8 || op == 13 || op == 14) dvec = 1;
            else if (op > 6) return;
            if (op == 8 || op == 14) s2 = F14_10;
            if (op >= 13) v2 = F19_15;
        } else { /* store */
            if (op <= 6) s2 = F9_5;
            else if (op == 7 || op == 13) v2 = F9_5;
            else if (op == 8 || op == 14) { s2 = F14_10; v2 = F9_5; }
            else return;
            if (op == 2 || op >= 13) v1 = 1;
            if (op == 5) dest = 1;
        }
        op = 0xff;
    } else if ((top >> 3) == 14) { /* cache control */
        op = top & 7;
        if (op != 4 && op != 6) s1 = F4_0;
        if (op == 0 || op == 7) s2 = F9_5;
        op = 0xff;
    } else { /* branches */
        op = top & 7;
        if (op == 5) return;
        if (op != 3 && op != 4) s1 = F4_0;
        if (op >= 4) dest = 1;
        call = op == 4 || op == 6;
        op = 0xff;
    }
    if (w == 0 || in->kind == K_ILLEGAL || (fmt_i && op == 2) || (fmt_r && op == 0x3e))
        return; /* nop; a trap (illegal, syscall, breakpoint) carries no operands */
    int unary = fmt_r && !mask_s1 && (op == 0x0c || op == 0x0e || op == 0x0f || op == 0x1b ||
                                      op == 0x1c || op == 0x1d || op == 0x1e || op == 0x2a);
    int compare = (fmt_r || fmt_i) && ((op >= 0x10 && op <= 0x19) || (op >= 0x2c && op <= 0x31));
    if (compare || ((fmt_r || fmt_i) && op == 0x1a))
        dvec = 0; /* compares and getlane write a scalar */
    static const uint8_t shift[5] = {0, 0, 10, 15, 5};
    int k = 0;
    if (s1 && !unary)
        in->rd[k++] = SREG((w >> shift[s1]) & 31);
    if (s2)
        in->rd[k++] = SREG((w >> shift[s2]) & 31);
    if (v1)
        in->rd[k++] = VREG(w & 31);
    if (v2)
        in->rd[k++] = VREG((w >> shift[v2]) & 31);
    if (dest)
        in->wr = call ? 31 : dvec ? VREG((w >> 5) & 31) : SREG((w >> 5) & 31);
}

/* Fill operand fields and the pipeline from the entry's syntax. */
int nyz_decode(uint32_t w, nyz_insn *in)
{
    memset(in, 0, sizeof *in);
    in->raw = w;
    in->rd[0] = in->rd[1] = in->rd[2] = in->rd[3] = NONE;
    in->wr = NONE;
    int i;
    for (i = 0; i < nyz_noptab; i++)
        if ((w & nyz_optab[i].mask) == nyz_optab[i].match)
            break;
    if (i == nyz_noptab) {
        in->kind = K_ILLEGAL;
        in->def = 0xffff;
        return -1;
    }
    const nyz_opdef *d = &nyz_optab[i];
    in->def = (uint16_t)i;
    in->kind = d->kind;
    in->alu = d->alu;
    in->s1 = w & 31;
    in->dst = (w >> 5) & 31;
    in->mreg = (w >> 10) & 31;
    in->s2 = (w >> 15) & 31;
    in->pipe = NYZ_PIPE_INT;
    switch ((nyz_syn)d->syn) {
    case SYN_R_VSVS: case SYN_R_VSVV: case SYN_R1_VSS: case SYN_R1_VSV:
        in->masked = 1; break;
    case SYN_I_SSI: case SYN_C_SSI: case SYN_I_VVI: case SYN_C_SVI: case SYN_GL_SVI:
    case SYN_I_SI: case SYN_I_VI:
        in->imm = sext(w >> 10, 14); break;
    case SYN_I_VSVI: case SYN_I_VSI:
        in->imm = sext(w >> 15, 9); in->masked = 1; break;
    case SYN_MOVEHI:
        in->imm = (int32_t)((((w >> 10) & 0x3fff) << 18) | ((w & 31) << 13));
        break;
    case SYN_SYSCALL: in->imm = (int32_t)((w >> 10) & 0x3fff); break;
    case SYN_M_S:
        in->imm = sext(w >> 10, 15); in->pipe = NYZ_PIPE_MEM;
        in->width = (d->alu <= 1) ? 1 : (d->alu <= 3) ? 2 : 4;
        in->sext = d->alu == 1 || d->alu == 3;
        break;
    case SYN_M_CR:
        in->pipe = NYZ_PIPE_MEM; break;
    case SYN_M_V: case SYN_M_VM: case SYN_M_G: case SYN_M_GM: {
        int masked = d->syn == SYN_M_VM || d->syn == SYN_M_GM;
        in->imm = masked ? sext(w >> 15, 10) : sext(w >> 10, 15);
        in->masked = (uint8_t)masked;
        in->pipe = NYZ_PIPE_MEM;
        in->width = 4;
        break;
    }
    case SYN_CC_PTR:
        in->imm = sext(w >> 15, 10); in->pipe = NYZ_PIPE_MEM; break;
    case SYN_CC_2REG:
        in->pipe = NYZ_PIPE_MEM; break;
    case SYN_B_COND: in->imm = sext(w >> 5, 20) * 4; break;
    case SYN_B_OFF:
        in->imm = sext(w, 25) * 4;
        break;
    case SYN_NONE:
        if (d->kind == K_MEMBAR || d->kind == K_TLBINVALALL) in->pipe = NYZ_PIPE_MEM;
        break;
    default:
        break;
    }
    rtl_scoreboard(w, in);
    if (d->kind >= K_ALU_SS && d->kind <= K_SHUFFLE && nyz_alu_is_fp_pipe(d->alu))
        in->pipe = NYZ_PIPE_FP;
    return 0;
}

static const char *sname(unsigned r)
{
    static const char *const names[32] = {
        "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12",
        "s13", "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24",
        "s25", "s26", "s27", "gp", "fp", "sp", "ra"};
    return names[r & 31];
}

static int mem_operand(char *buf, size_t n, int32_t off, char kind, unsigned reg)
{
    const char *rn = kind == 's' ? sname(reg) : NULL;
    char vb[8];
    if (!rn) {
        snprintf(vb, sizeof vb, "v%u", reg);
        rn = vb;
    }
    if (off)
        return snprintf(buf, n, "%d(%s)", off, rn);
    return snprintf(buf, n, "(%s)", rn);
}

int nyz_disasm_word(uint32_t addr, uint32_t w, char *buf, size_t n)
{
    nyz_insn in;
    if (nyz_decode(w, &in) < 0)
        return snprintf(buf, n, ".long 0x%08x", w);
    const nyz_opdef *d = &nyz_optab[in.def];
    char mb[48];
    const char *nm = d->name;
    unsigned D = in.dst, A = in.s1, B = in.s2, M = in.mreg;
    switch ((nyz_syn)d->syn) {
    case SYN_NONE: return snprintf(buf, n, "%s", nm);
    case SYN_R_SSS: case SYN_C_SSS:
        return snprintf(buf, n, "%s %s, %s, %s", nm, sname(D), sname(A), sname(B));
    case SYN_R_VVS: return snprintf(buf, n, "%s v%u, v%u, %s", nm, D, A, sname(B));
    case SYN_R_VSVS: return snprintf(buf, n, "%s v%u, %s, v%u, %s", nm, D, sname(M), A, sname(B));
    case SYN_R_VVV: return snprintf(buf, n, "%s v%u, v%u, v%u", nm, D, A, B);
    case SYN_R_VSVV: return snprintf(buf, n, "%s v%u, %s, v%u, v%u", nm, D, sname(M), A, B);
    case SYN_R1_SS: return snprintf(buf, n, "%s %s, %s", nm, sname(D), sname(B));
    case SYN_R1_VS: return snprintf(buf, n, "%s v%u, %s", nm, D, sname(B));
    case SYN_R1_VSS: return snprintf(buf, n, "%s v%u, %s, %s", nm, D, sname(M), sname(B));
    case SYN_R1_VV: return snprintf(buf, n, "%s v%u, v%u", nm, D, B);
    case SYN_R1_VSV: return snprintf(buf, n, "%s v%u, %s, v%u", nm, D, sname(M), B);
    case SYN_C_SVS: case SYN_GL_SVS:
        return snprintf(buf, n, "%s %s, v%u, %s", nm, sname(D), A, sname(B));
    case SYN_C_SVV: return snprintf(buf, n, "%s %s, v%u, v%u", nm, sname(D), A, B);
    case SYN_I_SSI: case SYN_C_SSI:
        return snprintf(buf, n, "%s %s, %s, %d", nm, sname(D), sname(A), in.imm);
    case SYN_I_VVI: return snprintf(buf, n, "%s v%u, v%u, %d", nm, D, A, in.imm);
    case SYN_C_SVI: case SYN_GL_SVI:
        return snprintf(buf, n, "%s %s, v%u, %d", nm, sname(D), A, in.imm);
    case SYN_I_VSVI: return snprintf(buf, n, "%s v%u, %s, v%u, %d", nm, D, sname(M), A, in.imm);
    case SYN_I_SI: return snprintf(buf, n, "%s %s, %d", nm, sname(D), in.imm);
    case SYN_I_VI: return snprintf(buf, n, "%s v%u, %d", nm, D, in.imm);
    case SYN_I_VSI: return snprintf(buf, n, "%s v%u, %s, %d", nm, D, sname(M), in.imm);
    case SYN_MOVEHI: return snprintf(buf, n, "%s %s, %u", nm, sname(D), (uint32_t)in.imm >> 13);
    case SYN_SYSCALL: return snprintf(buf, n, "%s %d", nm, in.imm);
    case SYN_M_S:
        mem_operand(mb, sizeof mb, in.imm, 's', A);
        return snprintf(buf, n, "%s %s, %s", nm, sname(D), mb);
    case SYN_M_CR: return snprintf(buf, n, "%s %s, %u", nm, sname(D), A);
    case SYN_M_V:
        mem_operand(mb, sizeof mb, in.imm, 's', A);
        return snprintf(buf, n, "%s v%u, %s", nm, D, mb);
    case SYN_M_VM:
        mem_operand(mb, sizeof mb, in.imm, 's', A);
        return snprintf(buf, n, "%s v%u, %s, %s", nm, D, sname(M), mb);
    case SYN_M_G:
        mem_operand(mb, sizeof mb, in.imm, 'v', A);
        return snprintf(buf, n, "%s v%u, %s", nm, D, mb);
    case SYN_M_GM:
        mem_operand(mb, sizeof mb, in.imm, 'v', A);
        return snprintf(buf, n, "%s v%u, %s, %s", nm, D, sname(M), mb);
    case SYN_CC_PTR:
        if (in.imm == 0)
            return snprintf(buf, n, "%s %s", nm, sname(A));
        mem_operand(mb, sizeof mb, in.imm, 's', A);
        return snprintf(buf, n, "%s %s", nm, mb);
    case SYN_CC_2REG: return snprintf(buf, n, "%s %s, %s", nm, sname(A), sname(D));
    case SYN_B_REG: return snprintf(buf, n, "%s %s", nm, sname(A));
    case SYN_B_COND:
        return snprintf(buf, n, "%s %s, 0x%x", nm, sname(A), addr + (uint32_t)in.imm);
    case SYN_B_OFF: return snprintf(buf, n, "%s 0x%x", nm, addr + (uint32_t)in.imm);
    }
    return snprintf(buf, n, ".long 0x%08x", w);
}
