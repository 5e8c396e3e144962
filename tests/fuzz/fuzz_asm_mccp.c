/* tests/fuzz/fuzz_asm_mccp.c: the mccp assembler on arbitrary source text (asm_body.h). */
#define FUZZ_ISA "mccp"
#define FUZZ_SUFFIX ".mccp"
#include "asm_body.h"
