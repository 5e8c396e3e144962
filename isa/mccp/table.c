/* isa/mccp/table.c: the MCCP instruction table and the field layouts built from it.
 * Every mnemonic the original assembler knows appears once here with its format and opcode;
 * the decoder (mccp_decode), the disassembler (mccp_format) and the assembler's encoder all
 * read this table, so an encoding is defined in exactly one place. Bit layouts follow
 * MCCP/core/instr_decoder.v (Verilog numbering, the ISA document counts bits MSB-first). */
#include <string.h>
#include <stdio.h>
#include "mccp.h"

const mccp_desc mccp_table[] = {
    {"add", MCCP_ADD, MCCP_F_ALU2, 0x0},     {"addc", MCCP_ADDC, MCCP_F_ALU2, 0x1},
    {"sub", MCCP_SUB, MCCP_F_ALU2, 0x2},     {"subc", MCCP_SUBC, MCCP_F_ALU2, 0x3},
    {"mul", MCCP_MUL, MCCP_F_ALU2, 0x4},     {"div", MCCP_DIV, MCCP_F_ALU2, 0x5},
    {"and", MCCP_AND, MCCP_F_ALU2, 0x6},     {"or", MCCP_OR, MCCP_F_ALU2, 0x7},
    {"xor", MCCP_XOR, MCCP_F_ALU2, 0x8},     {"lsh", MCCP_LSH, MCCP_F_ALU2, 0x9},
    {"rsh", MCCP_RSH, MCCP_F_ALU2, 0xA},     {"not", MCCP_NOT, MCCP_F_ALU1, 0xB},
    {"cmp", MCCP_CMP, MCCP_F_ALU2, 0xC},     {"inc", MCCP_INC, MCCP_F_ALU1, 0xD},
    {"dec", MCCP_DEC, MCCP_F_ALU1, 0xE},
    {"load", MCCP_LOAD, MCCP_F_MEM, 0x0},    {"store", MCCP_STORE, MCCP_F_MEM, 0x1},
    {"mov", MCCP_MOV, MCCP_F_MEM, 0x2},
    {"movh", MCCP_MOVH, MCCP_F_IMM, 0x06},   {"movl", MCCP_MOVL, MCCP_F_IMM, 0x07},
    {"movf", MCCP_MOVF, MCCP_F_REG, 0x08},
    {"je", MCCP_JE, MCCP_F_REG, 0x09},       {"jne", MCCP_JNE, MCCP_F_REG, 0x0A},
    {"jgt", MCCP_JGT, MCCP_F_REG, 0x0B},     {"jge", MCCP_JGE, MCCP_F_REG, 0x0C},
    {"jlt", MCCP_JLT, MCCP_F_REG, 0x0D},     {"jle", MCCP_JLE, MCCP_F_REG, 0x0E},
    {"jmp", MCCP_JMP, MCCP_F_REG, 0x0F},
    {"coreidx", MCCP_COREIDX, MCCP_F_SPEC, 0x10}, {"int", MCCP_INT, MCCP_F_INT, 0x11},
    {"msb", MCCP_MSB, MCCP_F_SPEC, 0x12},    {"mse", MCCP_MSE, MCCP_F_SPEC, 0x13},
    {"sb", MCCP_SB, MCCP_F_SPEC, 0x14},      {"excl", MCCP_EXCL, MCCP_F_SPEC, 0x15},
    /* planned load-linked/store-conditional: named by the assembler, never encodable */
    {"loadl", MCCP_LOADL, MCCP_F_NONE, 0x16}, {"storec", MCCP_STOREC, MCCP_F_NONE, 0x17},
    {"jst", MCCP_JST, MCCP_F_NONE, 0x18},    {"jnst", MCCP_JNST, MCCP_F_NONE, 0x19},
};
const int mccp_table_len = (int)(sizeof mccp_table / sizeof mccp_table[0]);

const char *const mccp_cond_names[16] = {"eq", "ne", "gt", "lt", "ge", "le", "cs", "cc",
                                         "mi", "pl", "al", "nv", "vs", "vc", "hi", "ls"};
const char *const mccp_reg_names[8] = {"reg0", "reg1", "reg2", "reg3", "reg4", "reg5", "sp", "ip"};

/* op -> table row (a linear search: used when decoding a ROM word into the predecode
 * cache and by the assembler, never per executed instruction). */
static const mccp_desc *by_op(int op)
{
    for (int i = 0; i < mccp_table_len; i++)
        if (mccp_table[i].op == op)
            return &mccp_table[i];
    return NULL;
}

const mccp_desc *mccp_desc_find(const char *name)
{
    for (int i = 0; i < mccp_table_len; i++)
        if (strcmp(mccp_table[i].name, name) == 0)
            return &mccp_table[i];
    return NULL;
}

const mccp_desc *mccp_desc_of(int op) { return by_op(op); }

/* Find the row of a 16-bit format by its opcode field. */
static int op_of(int fmt_a, int fmt_b, unsigned code)
{
    for (int i = 0; i < mccp_table_len; i++)
        if ((mccp_table[i].fmt == fmt_a || mccp_table[i].fmt == fmt_b) && mccp_table[i].code == code)
            return mccp_table[i].op;
    return -1;
}

void mccp_decode16(uint16_t h, mccp_insn *out)
{
    memset(out, 0, sizeof *out);
    out->raw = h;
    out->len = 1;
    out->cond = (h >> 6) & 15;
    out->r1 = (h >> 3) & 7;
    out->r2 = h & 7;
    if (h & 0x4000) { /* ALU: bit 15 is never looked at for a 16-bit instruction */
        unsigned code = (h >> 10) & 15;
        int op = op_of(MCCP_F_ALU2, MCCP_F_ALU1, code);
        out->op = (uint8_t)(op < 0 ? MCCP_ALU15 : op);
        return;
    }
    unsigned c4 = (h >> 10) & 15, c5 = (h >> 9) & 31;
    if (c4 <= 2) { /* load / store / mov, 4-bit condition in [9:6] */
        out->op = (uint8_t)op_of(MCCP_F_MEM, MCCP_F_MEM, c4);
        return;
    }
    int op = op_of(MCCP_F_REG, MCCP_F_REG, c5);
    if (op >= 0) {
        out->op = (uint8_t)op;
        out->r1 = (h >> 6) & 7;
        out->cond = out->r1; /* the [9:6] condition the RTL computes: 0, then the register */
        return;
    }
    op = op_of(MCCP_F_SPEC, MCCP_F_INT, c5);
    if (op >= 0) {
        out->op = (uint8_t)op;
        out->cond = (h >> 5) & 15;
        out->r1 = (h >> 2) & 7;
        return;
    }
    /* 00110, 00111 (movh/movl codes in a 16-bit slot), 10110..11111; one word of 11111 is
     * the simulator's fast-forward marker (a no-op like the others on the hardware) */
    out->op = h == MCCP_MARKER_HALF ? MCCP_MARKER : MCCP_NOOP;
}

void mccp_decode(uint32_t w, int half, mccp_insn *out)
{
    if (w & 0x80000000u) {
        memset(out, 0, sizeof *out);
        out->raw = w;
        out->len = 2;
        out->op = (w >> 25) & 1 ? MCCP_MOVL : MCCP_MOVH; /* the hardware only looks at bit 25 */
        out->cond = (w >> 21) & 15;
        out->r1 = (w >> 18) & 7;
        out->imm = (uint16_t)w;
        return;
    }
    mccp_decode16(half ? (uint16_t)w : (uint16_t)(w >> 16), out);
}

uint16_t mccp_enc_alu(int code, int cond, int rd, int rs)
{
    return (uint16_t)(0x4000 | (code & 15) << 10 | (cond & 15) << 6 | (rd & 7) << 3 | (rs & 7));
}
uint16_t mccp_enc_mem(int code, int cond, int r1, int r2)
{
    return (uint16_t)((code & 15) << 10 | (cond & 15) << 6 | (r1 & 7) << 3 | (r2 & 7));
}
uint16_t mccp_enc_reg(int code, int r) { return (uint16_t)((code & 31) << 9 | (r & 7) << 6); }
uint16_t mccp_enc_spec(int code, int cond, int r)
{
    return (uint16_t)((code & 31) << 9 | (cond & 15) << 5 | (r & 7) << 2);
}
uint32_t mccp_enc_imm(int code, int cond, int r, uint16_t imm)
{
    return 0x80000000u | (uint32_t)(code & 31) << 25 | (uint32_t)(cond & 15) << 21 | (uint32_t)(r & 7) << 18 | imm;
}

/* The encoding the assembler would produce for these fields (don't-care bits zero). */
static uint32_t canonical(const mccp_insn *in, const mccp_desc *d)
{
    switch (d->fmt) {
    case MCCP_F_ALU2: return mccp_enc_alu(d->code, in->cond, in->r1, in->r2);
    case MCCP_F_ALU1: return mccp_enc_alu(d->code, in->cond, in->r1, 0);
    case MCCP_F_MEM: return mccp_enc_mem(d->code, in->cond, in->r1, in->r2);
    case MCCP_F_REG: return mccp_enc_reg(d->code, in->r1);
    case MCCP_F_SPEC: case MCCP_F_INT: return mccp_enc_spec(d->code, in->cond, in->r1);
    case MCCP_F_IMM: return mccp_enc_imm(d->code, in->cond, in->r1, in->imm);
    default: return ~in->raw;
    }
}

int mccp_format(const mccp_insn *in, char *buf, size_t n)
{
    const mccp_desc *d = in->op == MCCP_NOOP || in->op == MCCP_MARKER || in->op == MCCP_ALU15 ? NULL : by_op(in->op);
    /* encodings the assembler cannot write (don't-care bits set, bit 15 of a low half, the
     * decoder's no-op codes) print as data; they still execute as the decoder says */
    if (!d || canonical(in, d) != in->raw)
        return in->len == 2 ? snprintf(buf, n, ".word 0x%08x", (unsigned)in->raw)
                            : snprintf(buf, n, ".half 0x%04x", (unsigned)in->raw & 0xFFFF);
    const char *cs = in->cond == 10 ? "" : mccp_cond_names[in->cond];
    switch (d->fmt) {
    case MCCP_F_ALU2:
        if (in->raw == 0x42C0)
            return snprintf(buf, n, "addnv reg0 reg0");
        return snprintf(buf, n, "%s%s %s %s", d->name, cs, mccp_reg_names[in->r1], mccp_reg_names[in->r2]);
    case MCCP_F_ALU1:
        return snprintf(buf, n, "%s%s %s", d->name, cs, mccp_reg_names[in->r1]);
    case MCCP_F_MEM:
        return snprintf(buf, n, "%s%s %s %s", d->name, cs, mccp_reg_names[in->r1], mccp_reg_names[in->r2]);
    case MCCP_F_REG:
        return snprintf(buf, n, "%s %s", d->name, mccp_reg_names[in->r1]);
    case MCCP_F_SPEC:
        return snprintf(buf, n, "%s%s %s", d->name, cs, mccp_reg_names[in->r1]);
    case MCCP_F_INT:
        return snprintf(buf, n, "int%s %u", cs, (unsigned)in->r1);
    case MCCP_F_IMM:
        return snprintf(buf, n, "%s%s %s %u", d->name, cs, mccp_reg_names[in->r1], (unsigned)in->imm);
    default:
        return snprintf(buf, n, ".half 0x%04x", (unsigned)in->raw & 0xFFFF);
    }
}
