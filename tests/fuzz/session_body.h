/* tests/fuzz/session_body.h: a debugging session on a small MCCP program (four cores, one
 * shared RAM), for the debugger and GDB stub harnesses. The program is assembled once per
 * process; every input gets a fresh session (cli_session_open) with a cycle limit, so
 * `run`, `continue` and `c` always end. */
#include "fuzz_common.h"
#include "../../frontends/cli.h"
#include "../../core/debug.h"

static const char *fuzz_program(void)
{
    static char out[160];
    if (!out[0]) {
        static const char src[] = "movimm reg1 5\nLOOP:\nstore reg1 reg1\nload reg2 reg1\n"
                                  "dec reg1\ncmp reg1 0\njne LOOP\nint 1\n";
        const char *path = fuzz_temp_file((const uint8_t *)src, sizeof src - 1, ".mccp");
        char err[512];
        snprintf(out, sizeof out, "%s.out", path);
        const char *srcs[1] = {path};
        if (isa_find("mccp")->assemble(1, srcs, out, NULL, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            abort();
        }
    }
    return out;
}

static int fuzz_session(cli_session *s, cli_args *a, const char *script)
{
    memset(a, 0, sizeof *a);
    opt_init(&a->opts);
    a->cmd = "debug";
    a->program = fuzz_program();
    a->max_cycles = FUZZ_MAX_CYCLES;
    a->headless = 1;
    a->script = script;
    if (cli_session_open(s, a) || dbg_attach(&s->m))
        abort();
    return 0;
}
