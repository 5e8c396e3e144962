/* core/asm/arith.c: checked assembler arithmetic (see arith.h). Shift counts use their low
 * six bits, as the evaluators always did (and as x86 shifts do). */
#include "arith.h"

int64_t asm_negate(int64_t a) { return (int64_t)(0 - (uint64_t)a); }

const char *asm_arith(char op, int64_t a, int64_t b, int64_t *out)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case '+': *out = (int64_t)(ua + ub); return 0;
    case '-': *out = (int64_t)(ua - ub); return 0;
    case '*': *out = (int64_t)(ua * ub); return 0;
    case '&': *out = a & b; return 0;
    case '|': *out = a | b; return 0;
    case '^': *out = a ^ b; return 0;
    case '<': *out = (int64_t)(ua << (b & 63)); return 0;
    case '>': *out = a >> (b & 63); return 0;
    case '/':
    case '%':
        if (b == 0)
            return "division by zero";
        if (a == INT64_MIN && b == -1)
            return "overflow: the most negative number divided by -1";
        *out = op == '/' ? a / b : a % b;
        return 0;
    default:
        return "unknown operator";
    }
}
