/* core/asm/expr.h: the one expression evaluator of the assemblers. Syntax and precedence
 * are LLVM MC's in GNU mode (the assembler of both the UPMEM SDK and the Nyuzi toolchain):
 * from lowest, `+ -`, then `| & ^`, then `* / % << >>`, all left-associative; unary
 * `- + ~ !`; parentheses; integers in decimal, 0x hex, 0b binary and 0-prefixed octal;
 * 'c' character constants; symbols [A-Za-z_.$][A-Za-z0-9_.$]* resolved through a callback.
 * Arithmetic is core/asm/arith.c's (checked, wrapping). A symbol the callback does not know
 * yet makes the value "unresolved" (pass 1 of a two-pass assembler) rather than an error;
 * the caller decides whether that is an error.
 * For object files (relocatable output) asm_expr_eval_rel also tracks what the value is
 * relative to: the lookup names a "base" for each symbol (0: an absolute value; otherwise the
 * section it lies in, or the undefined symbol itself), and the result is absolute or one base
 * plus a constant, as in GNU as: base + c, c + base, base - c, and base - base (one base:
 * absolute); any other use of a relocatable value is an error. Part of the shared assembler
 * framework. */
#ifndef XPUSIM_ASM_EXPR_H
#define XPUSIM_ASM_EXPR_H
#include <stddef.h>
#include <stdint.h>
#include "limits.h"

/* 0: *val is the symbol's value; non-zero: not known (yet). */
typedef int (*asm_expr_lookup_fn)(void *ctx, const char *name, int64_t *val);

/* The same, for object files: *base is 0 (absolute) or the value's relocatable base (the
 * caller's numbering: a section, or an undefined symbol); *val is then the offset from it. */
typedef int (*asm_expr_lookup_rel_fn)(void *ctx, const char *name, int64_t *val, int *base);

typedef struct asm_expr_syntax {
    /* names that are not symbols here (registers): an error where a value is expected */
    int (*is_reserved)(const char *name);
} asm_expr_syntax;

typedef struct asm_expr_result {
    int64_t value;
    int unresolved;                         /* symbols the callback did not know */
    char first_unresolved[ASM_MAX_IDENT + 1];
    int base;                               /* asm_expr_eval_rel: 0 absolute, else the base */
    char base_sym[ASM_MAX_IDENT + 1];       /* the symbol that brought the base in */
} asm_expr_result;

/* Evaluate text whole. 0 ok (r filled; an unresolved symbol reads as 0), -1 with err set to
 * what was expected where. syn and look may be NULL (no reserved names; no symbols). */
int asm_expr_eval(const char *text, const asm_expr_syntax *syn, asm_expr_lookup_fn look, void *ctx,
                  asm_expr_result *r, char *err, size_t errlen);
/* The same with relocatable values (see above): r->value is the offset from r->base. */
int asm_expr_eval_rel(const char *text, const asm_expr_syntax *syn, asm_expr_lookup_rel_fn look, void *ctx,
                      asm_expr_result *r, char *err, size_t errlen);

#endif
