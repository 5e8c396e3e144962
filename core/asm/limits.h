/* core/asm/limits.h: bounds every assembler applies to its input, so that a name or a line
 * is either used whole or refused with file:line (never cut short into a different name,
 * nor split into two lines). Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_LIMITS_H
#define XPUSIM_ASM_LIMITS_H

#define ASM_MAX_IDENT 255   /* characters in a label or symbol name */
#define ASM_MAX_LINE 4095   /* characters in a source line */
#define ASM_MAX_OPERANDS (ASM_MAX_LINE / 2 + 1) /* the most comma-separated items a line can hold */

#endif
