/* frontends/debugger.c: placeholder until the readline debugger lands (owned by the
 * debugger work); it reports that the debugger is unavailable. */
#include "cli.h"
int dbg_cli_main(cli_session *s)
{
    (void)s;
    fprintf(stderr, "xpusim: the interactive debugger is not built yet\n");
    return 1;
}
