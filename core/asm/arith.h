/* core/asm/arith.h: the arithmetic of assembler expressions, written once for every ISA's
 * evaluator. Values are 64-bit two's complement; + - * and << wrap as in GNU as and LLVM MC
 * (computed on unsigned values: no undefined behaviour), >> is arithmetic, and the cases C
 * leaves undefined are errors with a message: division or remainder by zero, and the most
 * negative number divided by -1. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_ARITH_H
#define XPUSIM_ASM_ARITH_H
#include <stdint.h>

/* op: one of + - * / % & | ^ and '<' for <<, '>' for >>. NULL ok, else the error text. */
const char *asm_arith(char op, int64_t a, int64_t b, int64_t *out);
/* Unary minus, wrapping (-(most negative) is itself). */
int64_t asm_negate(int64_t a);

#endif
