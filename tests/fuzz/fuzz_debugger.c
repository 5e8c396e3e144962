/* tests/fuzz/fuzz_debugger.c: the readline debugger's command parser and handlers
 * (frontends/debugger.c, debugger_views.c) on an arbitrary script, the way `xpusim debug
 * -x SCRIPT` runs it: every command must do its work or print an error, never crash. The
 * debugger's own output goes to /dev/null. */
#include "session_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char path[160];
    snprintf(path, sizeof path, "%s", fuzz_temp_file(data, size, ".gdb"));
    cli_session s;
    cli_args a;
    fuzz_session(&s, &a, path);
    FILE *out = stdout;
    stdout = fopen("/dev/null", "w");
    s.m.out = stdout;
    dbg_cli_main(&s);
    fclose(stdout);
    stdout = out;
    cli_session_close(&s);
    return 0;
}
