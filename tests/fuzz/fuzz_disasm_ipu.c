/* tests/fuzz/fuzz_disasm_ipu.c: the IPU disassembler on arbitrary code (disasm_body.h). */
#define FUZZ_ISA "ipu"
#include "disasm_body.h"
