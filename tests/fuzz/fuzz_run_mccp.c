/* tests/fuzz/fuzz_run_mccp.c: random MCCP ROM images (the input's little-endian words) run
 * on all four cores (run_body.h). */
#define FUZZ_ISA "mccp"
#include "fuzz_common.h"
static const char *const fuzz_run_opts[] = {"watchdog=5000", NULL};
static int fuzz_load(sim_machine *m, const isa_ops *isa, const uint8_t *d, size_t n, char *err, size_t errlen)
{
    ld_image img;
    if (ld_parse("fuzz.bin", d, n & ~(size_t)3, LD_RAW, &img, err, errlen))
        return -1;
    int rc = isa->load(m, &img, err, errlen);
    ld_free(&img);
    return rc;
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
