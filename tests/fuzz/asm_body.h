/* tests/fuzz/asm_body.h: the body of the fuzz_asm_ISA harnesses: the input is an assembly
 * source (FUZZ_SUFFIX names its kind), assembled and linked to a scratch output. It must be
 * accepted or refused with a message naming the file and line; never a crash, unbounded
 * memory or undefined behaviour (expressions, alignment, sizes, macros). Where the ISA writes
 * object files (FUZZ_OBJECT), inputs of odd length are assembled with -c instead. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192 || memchr(data, 0, size))
        return 0;
    const isa_ops *isa = isa_find(FUZZ_ISA);
    if (!isa || !isa->assemble)
        abort();
    const char *path = fuzz_temp_file(data, size, FUZZ_SUFFIX);
    char src[160], out[160], err[1024];
    snprintf(src, sizeof src, "%s", path);
    snprintf(out, sizeof out, "%s.out", path);
    const char *srcs[1] = {src};
    err[0] = 0;
    sim_opts opts;
    opt_init(&opts);
#ifdef FUZZ_OBJECT
    if ((size & 1) && opt_set(&opts, "object", "1"))
        abort();
#endif
    if (isa->assemble(1, srcs, out, &opts, err, sizeof err) && !err[0])
        abort(); /* a refusal always says why */
    return 0;
}
