/* tests/fuzz/fuzz_disasm_mccp.c: the mccp disassembler on arbitrary code (disasm_body.h). */
#define FUZZ_ISA "mccp"
#include "disasm_body.h"
