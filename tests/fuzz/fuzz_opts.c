/* tests/fuzz/fuzz_opts.c: -o KEY=VALUE parsing (core/opts.c) and each ISA's option checks.
 * The input is lines of KEY=VALUE; each ISA must then either build a machine from them or
 * refuse with a message (isa_check_options, then the ISA's own range checks in create). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char text[4097];
    memcpy(text, data, size);
    text[size] = 0;
    sim_opts o;
    opt_init(&o);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        opt_parse(&o, line);
    uint64_t v;
    double d;
    char err[256];
    for (int i = 0; i < o.n; i++) {
        opt_get_u64(&o, o.key[i], 0, 0, UINT64_MAX, &v, err, sizeof err);
        opt_get_double(&o, o.key[i], 0, &d, err, sizeof err);
        opt_get_list(&o, o.key[i], 0, 64, &v, err, sizeof err);
        opt_parse_u64(o.val[i], &v);
    }
    for (int k = 0; k < isa_count(); k++) {
        const isa_ops *isa = isa_at(k);
        if (isa_check_options(isa, &o, err, sizeof err))
            continue;
        /* cap the sizes a machine may take, so the fuzzer explores checks, not memory */
        static const char *const sizing[] = {"dpus", "mram", "mem", "cores", "threads", "l1i_size",
                                             "l1d_size", "l2_size", "tlb_entries", "jobs", NULL};
        int big = 0;
        for (int i = 0; i < o.n; i++)
            for (int s = 0; sizing[s]; s++)
                if (!strcmp(o.key[i], sizing[s]) && (opt_parse_u64(o.val[i], &v) || v > 64))
                    big = 1;
        if (big)
            continue;
        sim_machine m = {0};
        sim_opts copy = o;
        char err2[256];
        if (sim_create(&m, isa, &copy, err2, sizeof err2) == 0)
            sim_destroy(&m);
        else if (!err2[0])
            abort(); /* a refusal always says why */
    }
    return 0;
}
