/* tests/fuzz/run_body.h: the body of the fuzz_run_ISA harnesses: the input becomes the
 * code of a small program (FUZZ_LOAD places it), which runs under a cycle limit, an
 * instruction limit and the watchdog. Every input must end in a stop with a reason and
 * statistics, never a crash, a hang or a write outside the machine's memory. */
#include "fuzz_common.h"
#include "../../core/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || size > 65536)
        return 0;
    const isa_ops *isa = isa_find(FUZZ_ISA);
    sim_machine m;
    if (!isa || fuzz_machine(&m, isa, fuzz_run_opts))
        abort();
    char err[512];
    if (FUZZ_LOAD(&m, isa, data, size, err, sizeof err)) {
        fuzz_machine_done(&m);
        return 0;
    }
    m.max_instructions = FUZZ_MAX_INSNS;
    sim_stop_kind k = sim_run(&m, FUZZ_MAX_CYCLES);
    if (k == SIM_STOP_NONE)
        abort();
    if (isa->finish)
        isa->finish(&m);
    stats_write_json(&m, m.out);
    for (int u = 0; u < m.nunits; u++)
        for (int t = 0; t < m.units[u].nthreads; t++) {
            char st[200];
            if (isa->thread_state)
                isa->thread_state(&m, u, t, st, sizeof st);
        }
    fuzz_machine_done(&m);
    return 0;
}
