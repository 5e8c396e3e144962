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
    if (!have) {
        static const char src[] = "\t.section .text.__bootstrap,\"ax\",@progbits\n"
                                  "\t.globl __bootstrap\n__bootstrap:\n\tstop\n";
        const char *path = fuzz_temp_file((const uint8_t *)src, sizeof src - 1, ".s");
        char out[160];
        snprintf(out, sizeof out, "%s.elf", path);
        const char *srcs[1] = {path};
        if (isa->assemble(1, srcs, out, NULL, err, errlen) || ld_load(out, &base, err, errlen))
            abort();
        have = 1;
    }
    if (isa->load(m, &base, err, errlen))
        abort();
    mem_space *iram = sim_unit_space(m, 0, "iram");
    if (!iram)
        abort();
    if (mem_host_write(iram, 0, d, n))
        return -1; /* more than IRAM holds */
    return 0;
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
