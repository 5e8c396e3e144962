/* tests/bench/walltime.c: the whole-process timer of `make bench` (scripts/bench.sh). POSIX sh
 * has no sub-second clock, so this runs one command (execvp, no shell), waits for it and writes
 * its wall time in seconds (CLOCK_MONOTONIC, from before fork to after the child's exit) to a
 * file. Its exit status is the command's (128+N when killed by signal N), 127 when it cannot
 * be started. Usage: walltime OUT-FILE COMMAND [ARG...] */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: walltime OUT-FILE COMMAND [ARG...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "walltime: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "walltime: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "walltime: waitpid: %s\n", strerror(errno));
            return 127;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%.6f\n", s) < 0 || fclose(f) != 0) {
        fprintf(stderr, "walltime: %s: %s\n", argv[1], strerror(errno));
        return 127;
    }
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}
