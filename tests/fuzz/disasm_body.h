/* tests/fuzz/disasm_body.h: the body of the fuzz_disasm_ISA harnesses (FUZZ_ISA names the
 * ISA): disassemble the input as code at every offset, into a small buffer, as `xpusim
 * disasm` and the debugger do. Each call must consume at least one address unit or report
 * that the input is too short, and never write past the buffer (ASan). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const isa_ops *isa = isa_find(FUZZ_ISA);
    if (!isa || !isa->disasm)
        abort();
    char small[24], big[256];
    for (size_t off = 0; off < size; off++) {
        int n = isa->disasm(off, data + off, size - off, big, sizeof big);
        if (n < 0)
            abort();
        isa->disasm(off, data + off, size - off, small, sizeof small);
        if (!memchr(small, 0, sizeof small) || !memchr(big, 0, sizeof big))
            abort(); /* not terminated inside its buffer */
    }
    return 0;
}
