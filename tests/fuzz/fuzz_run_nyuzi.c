/* tests/fuzz/fuzz_run_nyuzi.c: random Nyuzi memory images (raw, loaded at 0 where the
 * threads start) run on one core with four threads (run_body.h): traps, MMU faults, device
 * accesses and illegal instructions all have to stop or trap cleanly. */
#define FUZZ_ISA "nyuzi"
#include "fuzz_common.h"
static const char *const fuzz_run_opts[] = {"watchdog=5000", "mem=0x10000", NULL};
static int fuzz_load(sim_machine *m, const isa_ops *isa, const uint8_t *d, size_t n, char *err, size_t errlen)
{
    ld_image img;
    if (ld_parse("fuzz.bin", d, n, LD_RAW, &img, err, errlen))
        return -1;
    int rc = isa->load(m, &img, err, errlen);
    ld_free(&img);
    return rc;
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
