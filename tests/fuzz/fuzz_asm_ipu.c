/* tests/fuzz/fuzz_asm_ipu.c: the IPU assembler on arbitrary source text (asm_body.h): the
 * C preprocessor, .supervisor/.worker sections, bundles, expressions and relocations; odd
 * lengths assemble to a relocatable object (-o object=1), even ones link a single tile. */
#define FUZZ_ISA "ipu"
#define FUZZ_SUFFIX ".S"
#define FUZZ_OBJECT 1
#include "asm_body.h"
