/* tests/fuzz/fuzz_asm_nyuzi.c: the nyuzi assembler on arbitrary source text (asm_body.h), linked or
 * as an object file (-c). */
#define FUZZ_ISA "nyuzi"
#define FUZZ_SUFFIX ".S"
#define FUZZ_OBJECT 1
#include "asm_body.h"
