/* isa/ipu/table.c: the IPU instruction table. The rows (table.inc) were converted from the
 * public LLVM Colossus encodings; this file only gives the row macros their C meaning, so
 * the rows stay one readable line each, and holds the small helpers every user of the table
 * needs (operand widths, architecture names). Decode and disassembly both read these rows,
 * so an encoding is written down once. */
#include <string.h>
#include "ipu.h"

#define A_ALL IPU_ARCH_ALL
#define A_IPU2UP (IPU_ARCH_IPU2 | IPU_ARCH_IPU21)
#define A_IPU21 IPU_ARCH_IPU21
#define C_BOTH IPU_CTX_BOTH
#define C_WORKER IPU_CTX_WORKER
#define C_SUP IPU_CTX_SUPERVISOR
#define P_MAIN IPU_PIPE_MAIN
#define P_AUX IPU_PIPE_AUX
#define F_CO IPU_F_COISSUE
#define F_CTL IPU_F_CONTROL
#define F_SYS IPU_F_SYSTEM
#define F_WIDE IPU_F_WIDE
#define OP(k, m, lo, w) {IPU_K_##k, IPU_M_##m, 1, {{lo, w, 0}}}
#define OPS(k, m, n, ...) {IPU_K_##k, IPU_M_##m, n, {__VA_ARGS__}}
#define OPNONE {IPU_K_NONE, IPU_M_NONE, 0, {{0, 0, 0}}}
#define IPU_UNPAREN(...) __VA_ARGS__
#define IPU_ROW(mn, nm, mt, mk, a, c, p, f, n, fmt, ops) {mn, nm, #fmt, mt, mk, a, c, p, f, n, {IPU_UNPAREN ops}},

const ipu_opdef ipu_ops[] = {
#include "table.inc"
};
const int ipu_nops = (int)(sizeof ipu_ops / sizeof ipu_ops[0]);

unsigned ipu_operand_width(const ipu_operand *o)
{
    unsigned w = 0;
    for (int i = 0; i < o->npieces; i++)
        w += o->p[i].width;
    return w;
}

static const char *const arch_names[] = {"ipu1", "ipu2", "ipu21"};

int ipu_arch_parse(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (s && !strcmp(s, arch_names[i]))
            return 1 << i;
    return 0;
}

const char *ipu_arch_name(int arch)
{
    return arch == IPU_ARCH_IPU1 ? "ipu1" : arch == IPU_ARCH_IPU2 ? "ipu2" : arch == IPU_ARCH_IPU21 ? "ipu21" : "?";
}
