/* core/asm/cpp.c: run the C preprocessor with an argument vector (see cpp.h). A name that
 * starts with '-' would be read by cpp as an option, so source paths like that get "./" in
 * front; everything else is passed as it is, one argument per element. */
#include "cpp.h"
#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int asm_cpp_open(asm_cpp *c, const char *src, const char *const *args, char *err, size_t errlen)
{
    const char *argv[ASM_CPP_MAX_ARGS + 8];
    char srcbuf[4096];
    int n = 0, clang = 0;
    if (args && args[0] && (!strcmp(args[0], ASM_CPP_CLANG) || !strcmp(args[0], ASM_CPP_CLANG_OR_CPP))) {
        clang = strcmp(args[0], ASM_CPP_CLANG) ? 2 : 1;
        args++;
    }
    argv[n++] = clang ? "clang" : "cpp";
    if (clang)
        argv[n++] = "-E";
    argv[n++] = "-x";
    argv[n++] = "assembler-with-cpp";
    argv[n++] = "-nostdinc";
    for (int i = 0; args && args[i]; i++) {
        if (i >= ASM_CPP_MAX_ARGS) {
            snprintf(err, errlen, "%s: more than %d preprocessor arguments", src, ASM_CPP_MAX_ARGS);
            return -1;
        }
        argv[n++] = args[i];
    }
    if (src[0] == '-') {
        if (snprintf(srcbuf, sizeof srcbuf, "./%s", src) >= (int)sizeof srcbuf) {
            snprintf(err, errlen, "%.200s...: path too long", src);
            return -1;
        }
        src = srcbuf;
    }
    argv[n++] = src;
    argv[n] = NULL;

    int fd[2];
    if (pipe(fd)) {
        snprintf(err, errlen, "%s: cannot create a pipe for cpp: %s", src, strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
    int rc = posix_spawnp(&c->pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    if (rc == ENOENT && clang == 2) { /* no clang: GCC's cpp, same arguments after "-E" */
        argv[1] = "cpp";
        rc = posix_spawnp(&c->pid, "cpp", &fa, NULL, (char *const *)(argv + 1), environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc) {
        close(fd[0]);
        snprintf(err, errlen, "%s: cannot run the C preprocessor (%s): %s", src, clang == 1 ? "clang -E" : "cpp",
                 strerror(rc));
        return -1;
    }
    c->out = fdopen(fd[0], "r");
    if (!c->out) {
        close(fd[0]);
        waitpid(c->pid, NULL, 0);
        snprintf(err, errlen, "%s: cannot read cpp's output: %s", src, strerror(errno));
        return -1;
    }
    return 0;
}

int asm_cpp_close(asm_cpp *c)
{
    int st = 0;
    if (c->out)
        fclose(c->out);
    c->out = NULL;
    while (waitpid(c->pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
