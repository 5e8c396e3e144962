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

/* The fuzz_run harnesses that write their input over a loaded program's code: src
 * (an assembly source of suffix's kind) assembled once per process into *base, loaded into
 * m, then data written at addr of the first unit's space named space. -1 when the input
 * does not fit there (the input is skipped); a template that does not build aborts. */
static inline int fuzz_load_over(sim_machine *m, const isa_ops *isa, ld_image *base, int *have, const char *src,
                                 const char *suffix, const char *space, int use_entry, uint64_t addr,
                                 const uint8_t *data, size_t n, char *err, size_t errlen)
{
    if (!*have) {
        const char *path = fuzz_temp_file((const uint8_t *)src, strlen(src), suffix);
        char out[160];
        snprintf(out, sizeof out, "%s.elf", path);
        const char *srcs[1] = {path};
        if (isa->assemble(1, srcs, out, NULL, err, errlen) || ld_load(out, base, err, errlen))
            abort();
        *have = 1;
    }
    if (isa->load(m, base, err, errlen))
        abort();
    mem_space *sp = sim_unit_space(m, 0, space);
    if (!sp)
        abort();
    return mem_host_write(sp, use_entry ? base->entry : addr, data, n) ? -1 : 0;
}

static inline void fuzz_machine_done(sim_machine *m)
{
    FILE *f = m->out;
    sim_destroy(m);
    if (f)
        fclose(f);
}

#endif
