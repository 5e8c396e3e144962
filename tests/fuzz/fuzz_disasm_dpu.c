/* tests/fuzz/fuzz_disasm_dpu.c: the dpu disassembler on arbitrary code (disasm_body.h). */
#define FUZZ_ISA "dpu"
#include "disasm_body.h"
