/* tests/fuzz/replay.c: runs one fuzz harness over files and directories without libFuzzer,
 * so `make test` can replay the committed corpora against the ASan+UBSan build it has just
 * tested instead of compiling the whole simulator a third time with clang's fuzzer
 * instrumentation (that build cost more CPU time than the other two together). Each
 * argument is a file or a directory walked recursively in name order; every regular file is
 * one input to LLVMFuzzerTestOneInput, after the empty input, as libFuzzer's `-runs=0` does. A sanitizer report
 * aborts the process (the build has -fno-sanitize-recover); an input that runs longer than
 * REPLAY_TIMEOUT seconds is reported by name and fails the run, as libFuzzer's -timeout.
 * Exit status: 0 when every input ran, 1 otherwise. `make fuzz` still uses libFuzzer. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REPLAY_TIMEOUT 20
#define REPLAY_MAX_BYTES (1u << 20) /* corpus inputs are small; a bigger file is an error */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input being run, for the timeout message (async-signal-safe writes only). */
typedef struct replay_state {
    char current[4096];
    unsigned long inputs;
} replay_state;

static replay_state *replay_now; /* the one run of this process; read by the alarm handler */

static void replay_timeout(int sig)
{
    (void)sig;
    static const char msg[] = "replay: timeout (over 20 s) on input ";
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, replay_now->current, strlen(replay_now->current)) < 0 ||
        write(2, "\n", 1) < 0)
        _exit(2);
    _exit(1);
}

static int replay_file(replay_state *st, const char *path, off_t size)
{
    if (size < 0 || (uint64_t)size > REPLAY_MAX_BYTES) {
        fprintf(stderr, "replay: %s: %lld bytes, more than the %u a corpus input may have\n", path,
                (long long)size, REPLAY_MAX_BYTES);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    /* a private copy of exactly size bytes, as libFuzzer passes it: reads past it are caught */
    uint8_t *buf = malloc(size ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "replay: %s: cannot read %lld bytes\n", path, (long long)size);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    snprintf(st->current, sizeof st->current, "%s", path);
    alarm(REPLAY_TIMEOUT);
    LLVMFuzzerTestOneInput(buf, (size_t)size);
    alarm(0);
    free(buf);
    st->inputs++;
    return 0;
}

static int replay_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(replay_state *st, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return -1;
    }
    if (S_ISREG(sb.st_mode))
        return replay_file(st, path, sb.st_size);
    if (!S_ISDIR(sb.st_mode))
        return 0;
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                rc = -1;
                break;
            }
            names = grown;
        }
        size_t len = strlen(path) + 1 + strlen(e->d_name) + 1;
        if (!(names[n] = malloc(len))) {
            rc = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (rc)
        fprintf(stderr, "replay: %s: out of memory listing it\n", path);
    else if (n)
        qsort(names, n, sizeof *names, replay_name_cmp);
    for (size_t i = 0; i < n; i++) {
        if (!rc && replay_path(st, names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    replay_state st = { .current = "", .inputs = 0 };
    replay_now = &st;
    signal(SIGALRM, replay_timeout);
    /* libFuzzer runs the empty input before the corpus; so does the replay */
    snprintf(st.current, sizeof st.current, "(the empty input)");
    static const uint8_t none[1];
    alarm(REPLAY_TIMEOUT);
    LLVMFuzzerTestOneInput(none, 0);
    alarm(0);
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(&st, argv[i]) != 0)
            rc = 1;
    printf("replay: %lu inputs\n", st.inputs);
    return rc;
}
