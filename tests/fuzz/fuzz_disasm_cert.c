/* tests/fuzz/fuzz_disasm_cert.c: the CERT disassembler on arbitrary code (disasm_body.h). */
#define FUZZ_ISA "cert"
#include "disasm_body.h"
