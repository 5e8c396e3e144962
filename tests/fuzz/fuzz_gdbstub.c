/* tests/fuzz/fuzz_gdbstub.c: the GDB remote stub (frontends/gdbstub.c, gdbstub_info.c) on
 * an arbitrary byte stream from the client: packets with bad checksums, bad hex, huge
 * lengths in m/M/X, unknown queries, Ctrl-C bytes. The input is written into one end of a
 * socket pair and the stub serves the other end until the stream ends; a thread drains its
 * replies. Every packet must get a reply or be refused, never crash or hang. */
#include <pthread.h>
#include <sys/socket.h>
#include "session_body.h"

static void *drain(void *arg)
{
    int fd = *(int *)arg;
    char buf[4096];
    while (read(fd, buf, sizeof buf) > 0)
        ;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        abort();
    cli_session s;
    cli_args a;
    fuzz_session(&s, &a, NULL);
    /* the client's bytes, then end of stream */
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(sv[1], data + off, size - off);
        if (w <= 0)
            abort();
        off += (size_t)w;
    }
    shutdown(sv[1], SHUT_WR);
    pthread_t t;
    pthread_create(&t, NULL, drain, &sv[1]);
    FILE *err = stderr;
    stderr = fopen("/dev/null", "w");
    gdb_serve_fd(&s, sv[0]);
    fclose(stderr);
    stderr = err;
    pthread_join(t, NULL);
    close(sv[1]);
    cli_session_close(&s);
    return 0;
}
