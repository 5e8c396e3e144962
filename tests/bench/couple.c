/* tests/bench/couple.c: what coupling costs the run loop (issue 11 pt 2), for `make bench`.
 * It runs the synthetic tile model of tests/unit/couple_model.h (N units x 7 threads,
 * phases separated by a barrier) through the real core: coupling "event" (the contract an
 * IPU tile keeps in a compute phase), "cycle" (every burst ends at the next event of any
 * unit: the core's only coupled path before the contract) or "independent" (the same units
 * declared independent, no barrier: the floor the coupled runs are compared with). The
 * bench rows (tests/bench/couple.bench) pair each coupled row with its independent peer, so
 * the report's ratio is the coupled cost over the independent one.
 * Usage: couple MODE UNITS PHASES INSNS [-o KEY=VALUE ...]
 *   MODE event|cycle|independent; INSNS per thread per phase; -o jobs=N etc. as for xpusim.
 * Prints "N total instructions, C cycles, hash H" (the barrier's arrival order); exit 0 when
 * every unit halted. */
#include <stdio.h>
#include <string.h>
#include "../unit/couple_model.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s event|cycle|independent UNITS PHASES INSNS [-o KEY=VALUE ...]\n", argv[0]);
        return 2;
    }
    const int indep = strcmp(argv[1], "independent") == 0;
    if (!indep && strcmp(argv[1], "event") && strcmp(argv[1], "cycle")) {
        fprintf(stderr, "couple: mode must be event, cycle or independent, not %s\n", argv[1]);
        return 2;
    }
    char kv[8][160];
    const char *list[24];
    int n = 0;
    snprintf(kv[0], sizeof kv[0], "units=%s", argv[2]);
    snprintf(kv[1], sizeof kv[1], "phases=%s", argv[3]);
    snprintf(kv[2], sizeof kv[2], "insns=%s", argv[4]);
    snprintf(kv[3], sizeof kv[3], "coupling=%s", indep ? "event" : argv[1]);
    for (int k = 0; k < 4; k++)
        list[n++] = kv[k];
    for (int i = 5; i < argc && n < 22; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            list[n++] = argv[++i];
        else {
            fprintf(stderr, "couple: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    list[n] = NULL;
    sim_machine m;
    char err[256] = "";
    if (cm_make(&m, indep ? &cm_isa_indep : &cm_isa, list, err, sizeof err)) {
        fprintf(stderr, "couple: %s\n", err);
        return 2;
    }
    sim_stop_kind k = sim_run(&m, SIM_NEVER);
    const cm_machine *cm = m.isa_state;
    printf("%llu total instructions, %llu cycles, hash %016llx, %llu releases, stop %s\n",
           (unsigned long long)sim_total_instructions(&m), (unsigned long long)sim_end_cycle(&m),
           (unsigned long long)cm->hash, (unsigned long long)cm->releases, sim_stop_name(k));
    int rc = k == SIM_STOP_HALT ? 0 : 1;
    sim_destroy(&m);
    return rc;
}
