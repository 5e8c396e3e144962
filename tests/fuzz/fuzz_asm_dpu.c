/* tests/fuzz/fuzz_asm_dpu.c: the dpu assembler on arbitrary source text (asm_body.h). */
#define FUZZ_ISA "dpu"
#define FUZZ_SUFFIX ".s"
#include "asm_body.h"
