/* isa/dpu/disasm.c: instruction text from the table, in the SDK assembler syntax
 * (operands in encoder order; "zero" first for z forms; "false" last for f forms; pairs as
 * dN; stack-register operands as sN; endianness as !little / !big; conditions by name in
 * the form's condition class; PCs as instruction indices). The assembler reads this text
 * back, which the round-trip test checks for every form. */
#include <stdio.h>
#include <string.h>
#include "dpu.h"

const char *const dpu_reg_names[32] = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
    "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
    "zero", "one", "lneg", "mneg", "id", "id2", "id4", "id8"};

static void app(char *buf, size_t n, size_t *len, const char *fmt, const char *s, long long v)
{
    if (*len >= n)
        return;
    int k = s ? snprintf(buf + *len, n - *len, fmt, s) : snprintf(buf + *len, n - *len, fmt, v);
    if (k > 0)
        *len += (size_t)k;
}

int dpu_disasm_word(uint64_t w, char *buf, size_t n)
{
    int fi = dpu_decode(w);
    size_t len = 0;
    buf[0] = 0;
    if (fi < 0) {
        app(buf, n, &len, ".quad 0x%012llx", NULL, (long long)w);
        return -1;
    }
    const dpu_form *f = dpu_form_at(fi);
    app(buf, n, &len, "%s", f->mnem, 0);
    int first = 1;
    if (f->flags & DPU_F_ZDEST) {
        app(buf, n, &len, " %s", "zero", 0);
        first = 0;
    }
    for (int k = 0; k < f->nops; k++) {
        int fd = f->ops[k];
        const dpu_field *d = dpu_field_at(fd);
        int32_t v = dpu_field_value(fd, w);
        app(buf, n, &len, "%s", first ? " " : ", ", 0);
        first = 0;
        switch (d->role) {
        case DPU_R_RA: case DPU_R_RB: case DPU_R_RC:
            if ((f->smask >> k) & 1)
                app(buf, n, &len, "s%lld", NULL, v);
            else
                app(buf, n, &len, "%s", dpu_reg_names[v & 31], 0);
            break;
        case DPU_R_DC: case DPU_R_DB:
            app(buf, n, &len, "d%lld", NULL, v);
            break;
        case DPU_R_CC: {
            const char *cn = dpu_cc_name(f->cls, v);
            if (cn)
                app(buf, n, &len, "%s", cn, 0);
            else
                app(buf, n, &len, "%lld", NULL, v);
            break;
        }
        case DPU_R_ENDIAN:
            app(buf, n, &len, "%s", v ? "!big" : "!little", 0);
            break;
        default:
            app(buf, n, &len, "%lld", NULL, (long long)v);
            break;
        }
    }
    if (f->flags & DPU_F_FALSE)
        app(buf, n, &len, "%s", first ? " false" : ", false", 0);
    return fi;
}
