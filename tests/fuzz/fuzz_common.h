/* tests/fuzz/fuzz_common.h: what the libFuzzer harnesses share. Each harness is one
 * tests/fuzz/fuzz_NAME.c defining LLVMFuzzerTestOneInput (tests/fuzz/fuzz.mk builds it with
 * clang under ASan and UBSan). Inputs that need a file (assembler sources, debugger
 * scripts) go through fuzz_temp_file, one per process and suffix, rewritten for every input
 * and removed at exit. Runs of random programs are bounded by FUZZ_MAX_CYCLES and the
 * watchdog so every input ends. */
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

/* The scratch paths this process made (one per suffix), removed with their assembler
 * outputs (".out", ".elf") when the process ends, so that runs leave nothing in /tmp. */
#define FUZZ_TEMP_MAX 4
static char fuzz_temp_paths[FUZZ_TEMP_MAX][128];
static int fuzz_temp_n;

static inline void fuzz_temp_cleanup(void)
{
    static const char *const ext[] = {"", ".out", ".elf"};
    char p[160];
    for (int i = 0; i < fuzz_temp_n; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            snprintf(p, sizeof p, "%s%s", fuzz_temp_paths[i], ext[e]);
            unlink(p);
        }
}

/* A scratch file of this process holding data[0..size), with suffix (".s", ".S"...). */
static inline const char *fuzz_temp_file(const uint8_t *data, size_t size, const char *suffix)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/xpusim-fuzz-%d%s", (int)getpid(), suffix);
    int i = 0;
    while (i < fuzz_temp_n && strcmp(fuzz_temp_paths[i], path))
        i++;
    if (i == fuzz_temp_n) {
        if (fuzz_temp_n == FUZZ_TEMP_MAX)
            abort();
        if (fuzz_temp_n == 0 && atexit(fuzz_temp_cleanup))
            abort();
        memcpy(fuzz_temp_paths[fuzz_temp_n++], path, sizeof path);
    }
    FILE *f = fopen(fuzz_temp_paths[i], "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return fuzz_temp_paths[i];
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
