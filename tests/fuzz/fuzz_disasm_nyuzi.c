/* tests/fuzz/fuzz_disasm_nyuzi.c: the nyuzi disassembler on arbitrary code (disasm_body.h). */
#define FUZZ_ISA "nyuzi"
#include "disasm_body.h"
