/* isa/ipu/disasm.c: IPU disassembly text as llvm-mc/llvm-objdump print it, so listings can
 * be compared with the LLVM MC tests line by line: register names ($m3, $a4:5, $a0:3,
 * $a2:BL), post-increment suffixes (+=, ++, >>, @), signed and unsigned immediates in
 * decimal, branch targets as byte addresses in hex, and the printing aliases the LLVM
 * tables define (nop, fnop, zero, mov, movnz, swap16, strap, get/put for uget/uput). One
 * space separates the mnemonic from its operands where LLVM prints a tab. Bundles print as
 * "{ main ; aux }" on one line. Listings of code whose context is unknown decode as LLVM
 * does (the given context, then the other); a thread's view (the debugger, the trace:
 * isa_ops.disasm_thread) decodes in that thread's context only, as its executor does, so a
 * word the thread cannot execute shows as ".long". */
#include <stdio.h>
#include <string.h>
#include "ipu.h"

static int put_reg(char *buf, size_t n, int kind, uint32_t v)
{
    switch (kind) {
    case IPU_K_MR: return snprintf(buf, n, "$m%u", v);
    case IPU_K_AR: return snprintf(buf, n, "$a%u", v);
    case IPU_K_MRP: return snprintf(buf, n, "$m%u:%u", v, v + 1);
    case IPU_K_ARP: return snprintf(buf, n, "$a%u:%u", v, v == 14 ? 15 : v + 1);
    case IPU_K_ARQ: return snprintf(buf, n, "$a%u:%u", v, v + 3);
    case IPU_K_ARBL: return snprintf(buf, n, "$a%u:BL", v);
    case IPU_K_ARBU: return snprintf(buf, n, "$a%u:BU", v);
    case IPU_K_ARB: return snprintf(buf, n, "$a%u:B", v);
    default: return 0;
    }
}

static const char *const mod_text[] = {"", "++", "+=", ">>", "@"};

/* Operand i of in, as text. */
static void put_operand(const ipu_insn *in, int i, char *buf, size_t n)
{
    const ipu_operand *o = &in->op->op[i];
    int64_t v = ipu_operand_value(in, i);
    switch (o->kind) {
    case IPU_K_UIMM:
    case IPU_K_IZ:
        snprintf(buf, n, "%u", (unsigned)(uint32_t)v);
        break;
    case IPU_K_SIMM:
        snprintf(buf, n, "%lld", (long long)v);
        break;
    case IPU_K_BR:
        snprintf(buf, n, "0x%x", (unsigned)(uint32_t)v);
        break;
    default: {
        int k = put_reg(buf, n, o->kind, in->v[i]);
        if (k >= 0 && (size_t)k < n && o->mod < 5)
            snprintf(buf + k, n - (size_t)k, "%s", mod_text[o->mod]);
    }
    }
}

/* The printing aliases of the LLVM tables (InstAlias with the default priority, tried in
 * their order there): a row name, a condition on the operand values, the alias mnemonic and
 * which operands it prints. Aliases with priority 0 (adds, subz...) are parse-only. */
typedef struct ipu_alias {
    const char *row, *mnemonic;
    int8_t cond_op[2];       /* operands that must hold cond_val (-1: none) */
    uint8_t cond_val[2];
    int8_t same[2];          /* two operands that must be equal (-1: none) */
    int8_t print[3];         /* operands printed, -1 ends */
} ipu_alias;

static const ipu_alias aliases[] = {
    {"setzi_mmmn_zi", "nop", {0, 1}, {14, 0}, {-1, -1}, {-1, -1, -1}},
    {"setzi_aaan_zi", "fnop", {0, 1}, {13, 0}, {-1, -1}, {-1, -1, -1}},
    {"or_mmmn", "zero", {1, 2}, {15, 15}, {-1, -1}, {0, -1, -1}},
    {"or_aaan", "zero", {1, 2}, {15, 15}, {-1, -1}, {0, -1, -1}},
    {"or64_aaan", "zero", {1, 2}, {14, 14}, {-1, -1}, {0, -1, -1}},
    {"or_mmmn_zi", "mov", {2, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"or_mmmn_iz", "mov", {2, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"or_aaan_zi", "mov", {2, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"or_aaan_iz", "mov", {2, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"atom_mamn", "mov", {-1, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"or64_aaan", "mov", {2, -1}, {14, 0}, {-1, -1}, {0, 1, -1}},
    {"movz_mmmn", "movnz", {-1, -1}, {0, 0}, {-1, -1}, {0, 1, 2}},
    {"uget_aaan_zi", "get", {-1, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"uput_aaan_zi", "put", {-1, -1}, {0, 0}, {-1, -1}, {0, 1, -1}},
    {"roll16_mmmn", "swap16", {-1, -1}, {0, 0}, {1, 2}, {0, 1, -1}},
    {"roll16_aaan", "swap16", {-1, -1}, {0, 0}, {1, 2}, {0, 1, -1}},
    {"put_mmmn_zi", "strap", {0, 1}, {255, 15}, {-1, -1}, {-1, -1, -1}},
};

static const ipu_alias *find_alias(const ipu_insn *in)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        const ipu_alias *a = &aliases[i];
        if (strcmp(a->row, in->op->name))
            continue;
        int ok = 1;
        for (int k = 0; k < 2; k++)
            if (a->cond_op[k] >= 0 && in->v[a->cond_op[k]] != a->cond_val[k])
                ok = 0;
        if (a->same[0] >= 0 && in->v[a->same[0]] != in->v[a->same[1]])
            ok = 0;
        if (ok)
            return a;
    }
    return NULL;
}

void ipu_format_insn(const ipu_insn *in, char *buf, size_t n)
{
    const ipu_alias *a = find_alias(in);
    int8_t order[IPU_MAX_OPS];
    int nprint = 0;
    if (a) {
        for (int k = 0; k < 3 && a->print[k] >= 0; k++)
            order[nprint++] = a->print[k];
    } else {
        for (int k = 0; k < in->op->nops; k++)
            order[nprint++] = (int8_t)k;
    }
    size_t len = (size_t)snprintf(buf, n, "%s", a ? a->mnemonic : in->op->mnemonic);
    for (int k = 0; k < nprint && len < n; k++) {
        char t[48];
        put_operand(in, order[k], t, sizeof t);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : " ", t);
    }
    if ((in->op->flags & IPU_F_WIDE) && len < n) { /* sendpicp's payload: XPIC [31:18], PIC [17:0] */
        const uint32_t pl = in->v[IPU_MAX_OPS - 1];
        snprintf(buf + len, n - len, ", %u, %u", (unsigned)(pl >> 18), (unsigned)(pl & 0x3ffff));
    }
}

void ipu_format_bundle(const ipu_bundle *b, char *buf, size_t n)
{
    if (b->n < 2) {
        ipu_format_insn(&b->insn[0], buf, n);
        return;
    }
    char m[96], x[96];
    ipu_format_insn(&b->insn[0], m, sizeof m);
    ipu_format_insn(&b->insn[1], x, sizeof x);
    snprintf(buf, n, "{ %s ; %s }", m, x);
}

static int disasm_mode(const uint8_t *p, size_t avail, int arch, int ctx, int fallback, char *buf, size_t n)
{
    ipu_bundle b;
    int len = ipu_decode(p, avail, arch, ctx, fallback, &b);
    if (len == 0)
        return 0;
    if (len < 0) {
        snprintf(buf, n, ".long 0x%08x", (unsigned)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24));
        return 4;
    }
    ipu_format_bundle(&b, buf, n);
    return len;
}

int ipu_disasm_at(uint64_t addr, const uint8_t *p, size_t avail, int arch, int ctx, char *buf, size_t n)
{
    (void)addr; /* branch targets are absolute word addresses: the pc is not needed */
    return disasm_mode(p, avail, arch, ctx, 1, buf, n);
}

int ipu_disasm_context(const uint8_t *p, size_t avail, int arch, int ctx, char *buf, size_t n)
{
    return disasm_mode(p, avail, arch, ctx, 0, buf, n);
}
