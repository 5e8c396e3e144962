/* tests/fuzz/fuzz_asm_nyuzi.c: the nyuzi assembler on arbitrary source text (asm_body.h). */
#define FUZZ_ISA "nyuzi"
#define FUZZ_SUFFIX ".S"
#include "asm_body.h"
