/* core/asm/macro.h: GNU-style assembler macros and numeric local labels, shared by the
 * assemblers. `.macro NAME P1, P2=DEFAULT ...` up to `.endm`/`.endmacro` records a body;
 * a use `NAME A1, A2` (or blank-separated, as GNU as allows) replays it with `\P` replaced by
 * the argument (or the default) and `\()` removed. Expansion feeds each line back to the
 * assembler's own line handler, so macros may use other macros (64 levels at most) and may
 * define macros. Numeric local labels `N:` are renamed to unique `.Llocal_label_N_K` names
 * and references `Nb`/`Nf` to the nearest one before/after. A parameter may carry llvm-mc's
 * qualifiers `:req` (ignored: a missing argument is empty, as before) and `:vararg` (the last
 * parameter takes the rest of the arguments, commas included). An assembler that follows
 * llvm-mc sets strip_quotes: an argument (or default) that is one quoted string is substituted
 * without its quotes, as llvm-mc's expandMacro does. Part of the shared framework. */
#ifndef XPUSIM_ASM_MACRO_H
#define XPUSIM_ASM_MACRO_H
#include <stddef.h>

#define ASM_MACRO_MAX_PARAMS 16
#define ASM_MACRO_MAX_DEPTH 64
#define ASM_LOCAL_LABELS 1000   /* numeric local labels 0..999 */

typedef struct asm_macro {
    char *name;
    int nparams;
    char *params[ASM_MACRO_MAX_PARAMS], *defs[ASM_MACRO_MAX_PARAMS];
    int vararg;             /* the last parameter is `:vararg` */
    char **lines;
    int nlines, caplines;
} asm_macro;

typedef struct asm_macros {
    asm_macro *v;
    int n, cap;
    int defining;           /* index of the macro being recorded, -1 if none */
    int depth;              /* expansion nesting */
    int strip_quotes;       /* llvm-mc: "text" as an argument substitutes text (default 0) */
} asm_macros;

/* The assembler's line handler: 0 ok, -1 error (the assembler has recorded it). */
typedef int (*asm_line_fn)(void *ctx, char *line);

void asm_macros_init(asm_macros *m);
void asm_macros_free(asm_macros *m);
/* Start recording: rest is what follows `.macro`. 0 ok, -1 with err. */
int asm_macro_begin(asm_macros *m, char *rest, char *err, size_t errlen);
/* While recording (m->defining >= 0): keep line, or end the body at .endm. 0 ok, -1 no memory. */
int asm_macro_record(asm_macros *m, const char *line);
/* The newest macro named name, -1 if none. */
int asm_macro_find(const asm_macros *m, const char *name);
/* Replay macro idx with the argument text args through fn. 0 ok, -1: err set, or fn failed
 * (err empty then: the assembler holds the message). */
int asm_macro_expand(asm_macros *m, int idx, const char *args, asm_line_fn fn, void *ctx, char *err, size_t errlen);

typedef struct asm_locals {
    int count[ASM_LOCAL_LABELS];   /* definitions of N so far */
} asm_locals;
/* Define `N:` (s is the label without its colon): the unique name in out. 0 ok, -1 if N is
 * out of range, -2 if s is not all digits. */
int asm_local_define(asm_locals *l, const char *s, char *out, size_t n);
/* Copy in to out (n bytes) with every `Nb`/`Nf` reference renamed; -1 if out is too small. */
int asm_local_rename(const asm_locals *l, const char *in, char *out, size_t n);

#endif
