/* tests/fuzz/fuzz_run_ipu.c: random IPU code (the input, written over the supervisor's
 * entry in tile memory after a minimal program is loaded, as a host or debugger write
 * would) run by the tile (run_body.h): runall and run to wild addresses, worker contexts
 * that never exit, bad loads and stores, exchange and sync instructions, illegal words and
 * jumps out of tile memory have to stop cleanly. */
#define FUZZ_ISA "ipu"
#include "fuzz_common.h"
static const char *const fuzz_run_opts[] = {"watchdog=5000", NULL};
static int fuzz_load(sim_machine *m, const isa_ops *isa, const uint8_t *d, size_t n, char *err, size_t errlen)
{
    static ld_image base;
    static int have;
    if (!have) {
        static const char src[] = ".section .text.sup, \"ax\"\n.supervisor\n.globl _start\n"
                                  "_start:\n  br $m10\n";
        const char *path = fuzz_temp_file((const uint8_t *)src, sizeof src - 1, ".S");
        char out[160];
        snprintf(out, sizeof out, "%s.elf", path);
        const char *srcs[1] = {path};
        if (isa->assemble(1, srcs, out, NULL, err, errlen) || ld_load(out, &base, err, errlen))
            abort();
        have = 1;
    }
    if (isa->load(m, &base, err, errlen))
        abort();
    mem_space *tmem = sim_unit_space(m, 0, "tmem");
    if (!tmem)
        abort();
    if (mem_host_write(tmem, base.entry, d, n))
        return -1; /* past the tile's memory */
    return 0;
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
