/* tests/dpu/dpu_harness.h: build and run DPU programs inside a test. Assembles an inline
 * source (plus, optionally, the runtime in programs/dpu/rt/ and more files) with the DPU
 * assembler into a temporary ELF, builds a machine with -o options, loads it, runs it, and
 * reads/writes symbols and registers through the isa_ops interface, as the CLI does. */
#ifndef DPU_HARNESS_H
#define DPU_HARNESS_H
#include <unistd.h>
#include "../../isa/isa.h"
#include "../../isa/dpu/dpu.h"
#include "../../core/stats.h"

extern const isa_ops isa_dpu;

typedef struct dh_run {
    sim_machine m;
    ld_image img;
    int have_m, have_img;
    char elf[64], src[64];
    char err[1024];
} dh_run;

/* opts: NULL-terminated "key=value" list used both to link (tasklets, stack) and to run. */
static inline int dh_build(dh_run *r, const char *text, int with_rt, const char *const *extra, const char *const *opts)
{
    memset(r, 0, sizeof *r);
    snprintf(r->src, sizeof r->src, "/tmp/xpusim-dpu-src-XXXXXX");
    int fd = mkstemp(r->src);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    snprintf(r->elf, sizeof r->elf, "/tmp/xpusim-dpu-elf-XXXXXX");
    fd = mkstemp(r->elf);
    if (fd < 0) return -1;
    close(fd);
    const char *srcs[32];
    int n = 0;
    char rt[6][256];
    if (with_rt) {
        const char *names[] = {"crt0", "mutex", "barrier", "perfcounter", "mram"};
        for (int i = 0; i < 5; i++) {
            snprintf(rt[i], sizeof rt[i], "%s/programs/dpu/rt/%s.s", test_root(), names[i]);
            srcs[n++] = rt[i];
        }
    }
    for (int i = 0; extra && extra[i]; i++)
        srcs[n++] = extra[i];
    srcs[n++] = r->src;
    sim_opts o;
    opt_init(&o);
    for (int i = 0; opts && opts[i]; i++)
        opt_parse(&o, opts[i]);
    sim_opts lo;
    opt_init(&lo);
    const char *t = opt_get(&o, "tasklets", NULL), *s = opt_get(&o, "stack", NULL);
    if (t) opt_set(&lo, "tasklets", t);
    if (s) opt_set(&lo, "stack", s);
    if (isa_dpu.assemble(n, srcs, r->elf, &lo, r->err, sizeof r->err)) {
        print_message("assemble: %s\n", r->err);
        return -1;
    }
    if (ld_load(r->elf, &r->img, r->err, sizeof r->err)) {
        print_message("load: %s\n", r->err);
        return -1;
    }
    r->have_img = 1;
    sim_opts ro = o;
    /* "stack" is a link option only */
    opt_init(&ro);
    for (int i = 0; i < o.n; i++)
        if (strcmp(o.key[i], "stack"))
            opt_set(&ro, o.key[i], o.val[i]);
    if (sim_create(&r->m, &isa_dpu, &ro, r->err, sizeof r->err)) {
        print_message("machine: %s\n", r->err);
        return -1;
    }
    r->have_m = 1;
    if (isa_dpu.load(&r->m, &r->img, r->err, sizeof r->err)) {
        print_message("machine: %s\n", r->err);
        return -1;
    }
    r->m.image = &r->img;
    return 0;
}

static inline sim_stop_kind dh_run_all(dh_run *r)
{
    return sim_run(&r->m, SIM_NEVER);
}

static inline int dh_sym(dh_run *r, int unit, const char *name, mem_space **sp, uint64_t *addr)
{
    const ld_symbol *s = ld_symbol_find(&r->img, name);
    if (!s) return -1;
    return isa_dpu.symbol_location(&r->m, unit, s, sp, addr);
}

static inline int dh_set(dh_run *r, int unit, const char *name, uint64_t off, const void *buf, size_t n)
{
    mem_space *sp;
    uint64_t a;
    if (dh_sym(r, unit, name, &sp, &a)) return -1;
    return mem_host_write(sp, a + off, buf, n);
}

static inline int dh_get(dh_run *r, int unit, const char *name, uint64_t off, void *buf, size_t n)
{
    mem_space *sp;
    uint64_t a;
    if (dh_sym(r, unit, name, &sp, &a)) return -1;
    return mem_host_read(sp, a + off, buf, n);
}

static inline uint32_t dh_get32(dh_run *r, int unit, const char *name, uint64_t off)
{
    uint8_t b[4] = {0};
    dh_get(r, unit, name, off, b, 4);
    return mem_ld32le(b);
}

static inline uint32_t dh_reg(dh_run *r, int unit, int thread, const char *name)
{
    uint8_t b[8] = {0};
    int reg = isa_reg_find(&isa_dpu, name);
    isa_dpu.reg_read(&r->m, unit, thread, reg, b);
    return mem_ld32le(b);
}

static inline void dh_free(dh_run *r)
{
    if (r->have_m) sim_destroy(&r->m);
    if (r->have_img) ld_free(&r->img);
    if (r->src[0]) unlink(r->src);
    if (r->elf[0]) unlink(r->elf);
}
#endif
