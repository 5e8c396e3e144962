/* isa/mccp/asm_util.h: the MCCP assembler's internal types and helpers (asm_util.c), shared
 * by its pipeline steps in asm.c: tokenised lines, programs (vectors of lines), the jump and
 * value label tables, errors with file:line, and the name lists the original assembler
 * matches against. Internal to isa/mccp/. */
#ifndef XPUSIM_MCCP_ASM_UTIL_H
#define XPUSIM_MCCP_ASM_UTIL_H
#include <stddef.h>
#include "../../core/asm/symtab.h"

#define TOKLEN 128
#define MAXTOK 16

typedef struct aline {
    int n;
    int src;                  /* source line number */
    char t[MAXTOK][TOKLEN];
} aline;

typedef struct aprog {
    aline *v;
    int n, cap;
} aprog;

/* labels: core/asm/symtab.c's table, one scope (0); value is the label's value */
typedef asm_symbol alabel;
typedef asm_symtab alabels;

typedef struct actx {
    const char *file;
    char *err;
    size_t errlen;
    int failed;
    alabels jump, val;
} actx;

int masm_fail(actx *a, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
aline *masm_prog_add(actx *a, aprog *p, int src);
int masm_tok_set(actx *a, aline *l, int i, const char *s);
aline *masm_emit(actx *a, aprog *p, int src, const char *t0, const char *t1, const char *t2);
alabel *masm_lab_find(alabels *ls, const char *name);
int masm_lab_set(actx *a, alabels *ls, const char *name, long long v, int src);
int masm_is_label(actx *a, const char *s);
void masm_lab_shift(actx *a, long long at, long long delta);
void masm_scpy(char *d, size_t n, const char *s);
int masm_is_suffix(const char *s);
int masm_cond_code(const char *s);
const char *masm_last2(const char *s);
int masm_has_suffix(const char *s);
void masm_strip2(char *dst, const char *s);
int masm_reg_code(const char *s);
int masm_in_list(const char *s, const char *const *list);
int masm_py_int(const char *s, long long *out);
int masm_to_bin(actx *a, int src, long long v, char *lo, char *hi);

extern const char *const masm_alu_names[];
extern const char *const masm_alu_one[];
extern const char *const masm_jumps[];
extern const char *const masm_not_suffix[];
extern const char *const masm_mls[];
extern const char *const masm_movlh[];
extern const char *const masm_suffixes0[];
extern const char *const masm_macros[];

#endif
