/* tests/fuzz/fuzz_cli.c: the command-line parser of frontends/main.c. The input is split at
 * NUL bytes into an argument vector after "xpusim run"; parse_args must accept it or refuse
 * it with a message, never read past an argument or overflow a list. main.c is included
 * (its parser is static to it, and it is not part of the library), with its main renamed. */
#define main xpusim_main
#include "../../frontends/main.c"
#undef main
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char buf[4098];
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[260];
    int argc = 0;
    argv[argc++] = "xpusim";
    argv[argc++] = size && data[0] % 2 ? "asm" : "run";
    for (size_t i = 0; i < size && argc < 258;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    cli_args a;
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    parse_args(argc, argv, &a);
    cli_args_free(&a);
    fclose(stderr);
    stderr = saved;
    return 0;
}
