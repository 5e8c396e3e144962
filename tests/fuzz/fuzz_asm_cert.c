/* tests/fuzz/fuzz_asm_cert.c: the CERT assembler (aiebu syntax) on arbitrary source text
 * (asm_body.h): labels, scopes, .include, .setpad, the pager and the ELF layout. */
#define FUZZ_ISA "cert"
#define FUZZ_SUFFIX ".asm"
#include "asm_body.h"
