/* core/asm/cpp.h: the C preprocessor for assemblers, run with an argument vector.
 * Assembly sources of several ISAs use #include/#define; cpp is started with posix_spawnp
 * and a vector of arguments, never through a shell, so a file or directory name is only
 * ever a name (quotes, spaces, `;` and `$` in it are characters, not syntax). Its output
 * (with its messages) is read through a pipe. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_CPP_H
#define XPUSIM_ASM_CPP_H
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct asm_cpp {
    FILE *out;      /* cpp's stdout and stderr, merged */
    pid_t pid;
} asm_cpp;

#define ASM_CPP_MAX_ARGS 64

/* As the first element of args: run clang's preprocessor (`clang -E -x assembler-with-cpp`)
 * instead of cpp. The two differ where a `##` paste makes no valid token (e.g. `_ ## \ARG` in
 * assembler macros): GCC's cpp puts a blank between the pieces, clang keeps them together,
 * and code written for clang-based toolchains (Graphcore's popc) relies on the latter.
 * ASM_CPP_CLANG_OR_CPP falls back to cpp when there is no clang on PATH. */
#define ASM_CPP_CLANG "--xpusim-cpp=clang"
#define ASM_CPP_CLANG_OR_CPP "--xpusim-cpp=clang-or-cpp"

/* Start `cpp -x assembler-with-cpp -nostdinc ARGS... SRC`. args is NULL-terminated (e.g.
 * "-DNAME=1", "-IDIR": one element each, whatever characters they hold). 0 ok, -1 with
 * err filled. */
int asm_cpp_open(asm_cpp *c, const char *src, const char *const *args, char *err, size_t errlen);
/* Wait for cpp; 0 if it exited with status 0, -1 otherwise. Closes c->out. */
int asm_cpp_close(asm_cpp *c);

#endif
