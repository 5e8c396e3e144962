/* tests/fuzz/fuzz_run_dpu.c: random DPU code (the input, written over IRAM after a minimal
 * program is loaded, as a host or debugger write would) run by 16 tasklets (run_body.h):
 * DMA to wild addresses, bad WRAM/MRAM accesses, illegal words, faults and jumps past
 * IRAM have to stop cleanly. */
#define FUZZ_ISA "dpu"
#include "fuzz_common.h"
static const char *const fuzz_run_opts[] = {"watchdog=5000", "tasklets=16", "mram=1", NULL};
static int fuzz_load(sim_machine *m, const isa_ops *isa, const uint8_t *d, size_t n, char *err, size_t errlen)
{
    static ld_image base;
    static int have;
    static const char src[] = "\t.section .text.__bootstrap,\"ax\",@progbits\n"
                              "\t.globl __bootstrap\n__bootstrap:\n\tstop\n";
    return fuzz_load_over(m, isa, &base, &have, src, ".s", "iram", 0, 0, d, n, err, errlen); /* (over IRAM's start) */
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
