/* tests/fuzz/fuzz_common.h: what the libFuzzer harnesses share. Each harness is one
 * tests/fuzz/fuzz_NAME.c defining LLVMFuzzerTestOneInput (tests/fuzz/fuzz.mk builds it with
 * clang under ASan and UBSan). Inputs that need a file (assembler sources, debugger
 * scripts) go through fuzz_temp_file, one per process, rewritten for every input. Runs of
 * random programs are bounded by FUZZ_MAX_CYCLES and the watchdog so every input ends. */
#ifndef XPUSIM_FUZZ_COMMON_H
#define XPUSIM_FUZZ_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../isa/isa.h"
#include "../../core/sim.h"
#include "../../loaders/loader.h"

#define FUZZ_MAX_CYCLES 20000
#define FUZZ_MAX_INSNS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* where harnesses put what they read, so the reads are not optimised away */
static volatile uint64_t fuzz_sink;

/* A scratch file of this process holding data[0..size), with suffix (".s", ".S"...). */
static inline const char *fuzz_temp_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/xpusim-fuzz-%d%s", (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

/* Build a machine of an ISA with the given -o options (NULL-terminated KEY=VALUE list). */
static inline int fuzz_machine(sim_machine *m, const isa_ops *isa, const char *const *kv)
{
    sim_opts o;
    opt_init(&o);
    char err[256];
    for (int i = 0; kv && kv[i]; i++)
        if (opt_parse(&o, kv[i]))
            abort();
    if (sim_create(m, isa, &o, err, sizeof err))
        return -1;
    m->out = fopen("/dev/null", "w");
    m->err = m->out;
    return 0;
}

static inline void fuzz_machine_done(sim_machine *m)
{
    FILE *f = m->out;
    sim_destroy(m);
    if (f)
        fclose(f);
}

#endif
