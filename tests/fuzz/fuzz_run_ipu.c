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
    static const char src[] = ".section .text.sup, \"ax\"\n.supervisor\n.globl _start\n_start:\n  br $m10\n";
    return fuzz_load_over(m, isa, &base, &have, src, ".S", "tmem", 1, 0, d, n, err, errlen); /* (over its entry) */
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
