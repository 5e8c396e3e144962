/* frontends/gdbstub.c: `xpusim gdbserver PROGRAM`, a GDB Remote Serial Protocol server.
 * One GDB (or any RSP client) connects over TCP (127.0.0.1:1234 unless --port/--listen say
 * otherwise) and drives the same core machinery the built-in debugger uses: the session's
 * run control (core/runctl.h: continue, step, Ctrl-C between slices, the fast-forward switch,
 * the stop and the waiting threads), breakpoints and watchpoints through core/debug.h
 * (optionally for one thread: Z...;thread:TID), registers, PC and thread states through
 * isa_ops. Every hardware thread of every unit is one GDB thread,
 * id unit * threads_per_unit + thread + 1. Addresses: the PC, Z0/Z1 breakpoints and vCont
 * steps are in the ISA's code space (in its address units, as the PC counts); m/M/X and
 * watchpoints address the data space (the first space that is not the code space, the
 * selected thread's copy of it for per-unit memories) in its address units, with lengths in
 * bytes; `monitor space NAME` switches that view to another space. The register layout
 * (target.xml) is generated from the ISA's register table: scalars widened to 8/16/32/64
 * bits, vectors at full width as 32-bit lanes, little-endian. Continue runs in slices of
 * GDB_SLICE cycles and polls the socket for Ctrl-C (0x03) in between; slicing only moves the
 * run limit, so cycle counts equal those of a plain run. All state lives in one gdb_stub
 * (gdbstub.h); the register layout and the queries are in gdbstub_info.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "gdbstub.h"
#include "debugger.h"
#include "../core/debug.h"

/* ---- bytes and hex ---- */

int gdb_hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *gdb_put_hex(char *p, const uint8_t *b, size_t n)
{
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        *p++ = dig[b[i] >> 4];
        *p++ = dig[b[i] & 15];
    }
    *p = 0;
    return p;
}

/* Hex digits to bytes; returns the count, -1 on a bad digit. */
long gdb_get_hex_bytes(const char *h, uint8_t *b, size_t max)
{
    size_t n = 0;
    while (h[0] && h[1] && n < max) {
        int hi = gdb_hexval(h[0]), lo = gdb_hexval(h[1]);
        if (hi < 0 || lo < 0)
            return -1;
        b[n++] = (uint8_t)(hi << 4 | lo);
        h += 2;
    }
    return (long)n;
}

/* A hex number; *end after it. -1 if there are no digits or the value does not fit in 64
 * bits (a client's number that wrapped would name another address or thread). */
int gdb_get_hex_u64(const char *p, uint64_t *v, const char **end)
{
    uint64_t x = 0;
    const char *q = p;
    for (int d; (d = gdb_hexval(*q)) >= 0; q++) {
        if (x >> 60)
            return -1;
        x = x << 4 | (uint64_t)d;
    }
    if (q == p)
        return -1;
    *v = x;
    if (end)
        *end = q;
    return 0;
}

/* ---- packets ---- */

static int gdb_write_all(gdb_stub *g, const char *b, size_t n)
{
    while (n) {
        ssize_t k = send(g->fd, b, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int gdb_getc(gdb_stub *g)
{
    unsigned char c;
    for (;;) {
        ssize_t k = recv(g->fd, &c, 1, 0);
        if (k == 1)
            return c;
        if (k < 0 && errno == EINTR)
            continue;
        return -1;
    }
}

/* Send one packet ($data#cs); without QStartNoAckMode wait for the '+'. */
int gdb_send(gdb_stub *g, const char *data, size_t n)
{
    char *buf = malloc(n + 5);
    if (!buf)
        return -1;
    unsigned sum = 0;
    buf[0] = '$';
    memcpy(buf + 1, data, n);
    for (size_t i = 0; i < n; i++)
        sum += (unsigned char)data[i];
    snprintf(buf + 1 + n, 4, "#%02x", sum & 255);
    for (int tries = 0; tries < 8; tries++) {
        if (gdb_write_all(g, buf, n + 4)) {
            free(buf);
            return -1;
        }
        if (g->noack)
            break;
        int c;
        while ((c = gdb_getc(g)) >= 0 && c != '+' && c != '-')
            ; /* a Ctrl-C while stopped means nothing */
        if (c < 0) {
            free(buf);
            return -1;
        }
        if (c == '+')
            break;
    }
    free(buf);
    return 0;
}

int gdb_send_str(gdb_stub *g, const char *s) { return gdb_send(g, s, strlen(s)); }

/* Read one packet into g->in (unescaped binary kept, NUL-terminated); returns its length,
 * -1 when the connection closed. A lone 0x03 outside a packet sets pending_break. */
static long gdb_recv(gdb_stub *g)
{
    for (;;) {
        int c = gdb_getc(g);
        if (c < 0)
            return -1;
        if (c == 0x03) {
            g->pending_break = 1;
            return 0;
        }
        if (c != '$')
            continue; /* acks and noise */
        size_t n = 0;
        unsigned sum = 0;
        int overflow = 0;
        for (;;) {
            c = gdb_getc(g);
            if (c < 0)
                return -1;
            if (c == '#')
                break;
            sum += (unsigned)c;
            if (c == '}') { /* escaped byte: the next one xor 0x20, never a terminator */
                int d = gdb_getc(g);
                if (d < 0)
                    return -1;
                sum += (unsigned)d;
                c = d ^ 0x20;
            }
            if (n < GDB_PKT_MAX)
                g->in[n++] = (char)c;
            else
                overflow = 1;
        }
        int h1 = gdb_getc(g), h2 = gdb_getc(g);
        if (h1 < 0 || h2 < 0)
            return -1;
        int ok = gdb_hexval(h1) >= 0 && gdb_hexval(h2) >= 0 && (unsigned)(gdb_hexval(h1) << 4 | gdb_hexval(h2)) == (sum & 255);
        if (!g->noack && gdb_write_all(g, ok && !overflow ? "+" : "-", 1))
            return -1;
        if (!ok || overflow)
            continue;
        g->in[n] = 0;
        return (long)n;
    }
}

/* ---- threads ---- */

int gdb_tid(const gdb_stub *g, int unit, int thread) { return unit * g->tpu + thread + 1; }

/* Thread id -> unit/thread; 0 ok. */
int gdb_thread_of(const gdb_stub *g, uint64_t tid, int *unit, int *thread)
{
    if (tid < 1)
        return -1;
    uint64_t u = (tid - 1) / (uint64_t)g->tpu, t = (tid - 1) % (uint64_t)g->tpu;
    if (u >= (uint64_t)g->m->nunits || t >= (uint64_t)g->m->units[u].nthreads)
        return -1;
    *unit = (int)u;
    *thread = (int)t;
    return 0;
}

static int gdb_live(const sim_machine *m, int unit, int thread) { return runctl_thread_live(m, unit, thread); }

/* The first thread that runs (else thread 1). */
static void gdb_first_live(const gdb_stub *g, int *unit, int *thread)
{
    *unit = *thread = 0;
    for (int u = 0; u < g->m->nunits; u++)
        for (int t = 0; t < g->m->units[u].nthreads; t++)
            if (gdb_live(g->m, u, t)) {
                *unit = u, *thread = t;
                return;
            }
}

/* "p" thread ids are not used (no multiprocess); accepts hex, -1 and 0. */
int gdb_parse_tid(const char *p, int64_t *tid)
{
    if (p[0] == '-' && p[1] == '1') {
        *tid = -1;
        return 0;
    }
    uint64_t v;
    if (gdb_get_hex_u64(p, &v, NULL))
        return -1;
    *tid = (int64_t)v;
    return 0;
}

/* ---- spaces ---- */

/* The data view of the Hg thread's unit: `monitor space` if set, else the first space that
 * is not (a unit's copy of) the code space, as the debugger's default. */
mem_space *gdb_data_space(gdb_stub *g)
{
    sim_machine *m = g->m;
    if (g->space[0]) {
        mem_space *sp = sim_space(m, g->space);
        return sp ? sp : sim_unit_space(m, g->gunit, g->space);
    }
    const char *code = g->isa->code_space ? g->isa->code_space : "";
    size_t cl = strlen(code);
    for (int i = 0; i < m->nspaces; i++) {
        const char *n = m->spaces[i]->name;
        if (cl && strncmp(n, code, cl) == 0 && (n[cl] == 0 || n[cl] == '.'))
            continue;
        char base[sizeof m->spaces[0]->name];
        snprintf(base, sizeof base, "%s", n);
        char *dot = strchr(base, '.');
        if (dot)
            *dot = 0;
        return sim_unit_space(m, g->gunit, base);
    }
    return m->nspaces ? m->spaces[0] : NULL;
}

/* ---- stop replies ---- */

static int gdb_signal_of(sim_stop_kind k)
{
    switch (k) {
    case SIM_STOP_FAULT: return GDB_SIGSEGV;
    case SIM_STOP_ILLEGAL: return GDB_SIGILL;
    case SIM_STOP_USER: return GDB_SIGINT;
    case SIM_STOP_LIMIT: return GDB_SIGXCPU;
    case SIM_STOP_DEADLOCK:
    case SIM_STOP_ERROR: return GDB_SIGABRT;
    case SIM_STOP_MARKER: return GDB_SIGTRAP; /* a fast-forward's marker: resumable, as a breakpoint */
    default: return GDB_SIGTRAP;
    }
}

/* The reply for the machine's current stop. A halt is W00; a fault, illegal instruction,
 * deadlock or host error first stops with its signal (T), so GDB can look at the thread,
 * and ends the process (X) if continued. */
static void gdb_stop_reply(gdb_stub *g, char *out, size_t n)
{
    sim_machine *m = g->m;
    sim_stop *st = &m->stop;
    if (st->kind == SIM_STOP_HALT || (g->rc->over && m->nhalted >= m->nenabled)) {
        snprintf(out, n, "W00");
        return;
    }
    int unit = g->gunit, thread = g->gthread;
    if (st->unit >= 0 && st->unit < m->nunits && st->thread >= 0 && st->thread < m->units[st->unit].nthreads)
        unit = st->unit, thread = st->thread;
    else if (!gdb_live(m, unit, thread))
        gdb_first_live(g, &unit, &thread);
    g->gunit = unit, g->gthread = thread;
    int len = snprintf(out, n, "T%02xthread:%x;", gdb_signal_of(st->kind), gdb_tid(g, unit, thread));
    if (st->kind == SIM_STOP_WATCH) {
        int id;
        if (sscanf(st->msg, "watchpoint %d:", &id) == 1)
            for (int i = 0; i < g->nwatch; i++)
                if (g->watch[i].id == id) {
                    static const char *const names[] = {"watch", "rwatch", "awatch"};
                    snprintf(out + len, n - (size_t)len, "%s:%llx;", names[g->watch[i].type - 2],
                             (unsigned long long)g->watch[i].sp->watch_hit_addr);
                    break;
                }
    }
}

/* ---- running ---- */

/* Poll the socket without blocking: 1 if GDB sent Ctrl-C, -1 if it went away. */
static int gdb_poll_break(gdb_stub *g)
{
    struct pollfd p = {.fd = g->fd, .events = POLLIN};
    while (poll(&p, 1, 0) > 0) {
        if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
            return -1;
        unsigned char c;
        ssize_t k = recv(g->fd, &c, 1, MSG_DONTWAIT);
        if (k == 0)
            return -1;
        if (k < 0)
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        if (c == 0x03)
            return 1;
        /* anything else while running (a stray ack) is dropped */
    }
    return 0;
}

/* Console output while the target runs: O packets (GDB prints them; the stop reply follows). */
static void gdb_console(gdb_stub *g, const char *text)
{
    char hex[2 * 512 + 2];
    for (size_t off = 0, n = strlen(text); off < n; off += 512) {
        size_t k = n - off < 512 ? n - off : 512;
        hex[0] = 'O';
        gdb_put_hex(hex + 1, (const uint8_t *)text + off, k);
        if (gdb_send(g, hex, 1 + 2 * k))
            return;
    }
}

/* Between two slices of a run (core/runctl.h poll): 1 if GDB sent Ctrl-C, -1 if it went away. */
static int gdb_run_poll(void *ctx)
{
    gdb_stub *g = ctx;
    int b = gdb_poll_break(g);
    if (b < 0)
        g->quit = 1;
    return b;
}

/* Run until a stop; step_unit >= 0 asks for one issue of that thread. Then reply. */
static int gdb_resume(gdb_stub *g, int step_unit, int step_thread)
{
    sim_machine *m = g->m;
    runctl *rc = g->rc;
    char reply[256];
    if (rc->over) {
        /* nothing left to run: the end again (W) or, after a fault, the process's end by signal */
        if (m->stop.kind == SIM_STOP_HALT || m->nhalted >= m->nenabled)
            return gdb_send_str(g, "W00");
        snprintf(reply, sizeof reply, "X%02x", gdb_signal_of(m->stop.kind));
        return gdb_send_str(g, reply);
    }
    fflush(stdout);
    if (g->pending_break) { /* Ctrl-C before the run: stop at once */
        g->pending_break = 0;
        m->stop.kind = SIM_STOP_USER;
        m->stop.unit = m->stop.thread = -1;
        m->stop.cycle = runctl_now(m);
        snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted (Ctrl-C)");
    } else if (step_unit >= 0) {
        runctl_step(rc, step_unit, step_thread, 1);
    } else {
        runctl_continue(rc);
    }
    if (g->quit)
        return -1;
    if (rc->over && runctl_ff_finish(rc) > 0)
        fprintf(stderr, "xpusim gdbserver: --fast-forward %s: the marker was never reached; the whole run was "
                        "functional\n", rc->ff_marker);
    /* a deadlock or a limit: what each waiting thread waits for, on the server's stderr and
     * as console output to GDB (O packets, shown before the stop) */
    if (m->stop.kind == SIM_STOP_DEADLOCK || m->stop.kind == SIM_STOP_LIMIT) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (f) {
            fprintf(f, "%s: %s\nwaiting threads:\n", sim_stop_name(m->stop.kind), m->stop.msg);
            runctl_waiting(m, f, "  ", 32);
            fclose(f);
            fputs(text, stderr);
            gdb_console(g, text);
            free(text);
        }
    }
    gdb_stop_reply(g, reply, sizeof reply);
    runctl_seen(rc, g->gunit, g->gthread); /* gdb_stop_reply selected it */
    return gdb_send_str(g, reply);
}

/* vCont;ACTION[:TID][;ACTION[:TID]]...: c/C continue, s/S step. A step of one thread with
 * the others continuing or stopped is the same here: the machine runs as one clock, so the
 * other threads run as the schedule dictates until the stepped one retires an instruction. */
static int gdb_vcont(gdb_stub *g, const char *p)
{
    int su = -1, st = -1;
    while (*p == ';') {
        p++;
        char act = *p++;
        if (act == 'C' || act == 'S') { /* the signal to deliver is ignored */
            uint64_t sig;
            if (gdb_get_hex_u64(p, &sig, &p))
                return gdb_send_str(g, "E01");
            act = (char)(act | 32);
        }
        int64_t tid = -1;
        if (*p == ':') {
            if (gdb_parse_tid(p + 1, &tid))
                return gdb_send_str(g, "E01");
            p += 1 + strcspn(p + 1, ";");
        }
        if (act == 's' && su < 0) {
            int u = g->gunit, t = g->gthread;
            if (tid > 0 && gdb_thread_of(g, (uint64_t)tid, &u, &t))
                return gdb_send_str(g, "E02");
            su = u, st = t;
        } else if (act != 'c' && act != 's') {
            return gdb_send_str(g, "E01");
        }
    }
    return gdb_resume(g, su, st);
}

/* ---- breakpoints and watchpoints ---- */

/* Z/z TYPE,ADDR,KIND[;thread:TID]: an xpusim extension narrows an insertion to one thread
 * (GDB's `break ... thread N` and `watch ... thread N` filter on the client side; a client
 * that knows the stub can have the stub filter, so other threads run on at full speed past
 * a breakpoint and a watch stops only for its thread). */
static int gdb_z(gdb_stub *g, int insert, const char *p)
{
    uint64_t type, addr, kind;
    const char *q;
    if (gdb_get_hex_u64(p, &type, &q) || *q != ',' || gdb_get_hex_u64(q + 1, &addr, &q) || *q != ',' ||
        gdb_get_hex_u64(q + 1, &kind, &q))
        return gdb_send_str(g, "E01");
    int funit = -1, fthread = -1;
    if (*q == ';' && strncmp(q + 1, "thread:", 7) == 0) {
        int64_t tid;
        if (!insert || gdb_parse_tid(q + 8, &tid) || tid <= 0 || gdb_thread_of(g, (uint64_t)tid, &funit, &fthread))
            return gdb_send_str(g, "E01");
        q += 8 + strcspn(q + 8, ";");
    }
    if (*q && *q != ';')
        return gdb_send_str(g, "E01");
    sim_machine *m = g->m;
    if (type <= 1) { /* software or hardware breakpoint: the same to a simulator */
        if (insert) {
            int id = dbg_break_add(m, addr, funit, 0, "gdb");
            if (id < 0)
                return gdb_send_str(g, "E0c");
            if (fthread >= 0)
                dbg_break_filter(m, id, fthread, NULL);
            return gdb_send_str(g, "OK");
        }
        for (int i = 0; i < m->dbg->nbrk; i++)
            if (m->dbg->brk[i].addr == addr && !strcmp(m->dbg->brk[i].label, "gdb")) {
                dbg_break_delete(m, m->dbg->brk[i].id);
                return gdb_send_str(g, "OK");
            }
        return gdb_send_str(g, "E02");
    }
    if (type > 4)
        return gdb_send_str(g, "");
    mem_space *sp = gdb_data_space(g);
    if (!sp)
        return gdb_send_str(g, "E02");
    uint64_t units = kind ? (kind + sp->addr_unit - 1) / sp->addr_unit : 1;
    if (insert) {
        if (g->nwatch >= GDB_MAX_WATCH || !mem_find(sp, addr) || !mem_find(sp, addr + units - 1))
            return gdb_send_str(g, "E02");
        /* ids unique across spaces, so a stop message names one watch */
        if (g->next_watch_id > sp->next_watch_id)
            sp->next_watch_id = g->next_watch_id;
        int id = dbg_watch_add(m, sp, addr, units, type == 2 ? MEM_W : type == 3 ? MEM_R : MEM_RW, funit, fthread, NULL);
        if (id < 0)
            return gdb_send_str(g, "E0c");
        g->next_watch_id = id + 1;
        g->watch[g->nwatch++] = (gdb_watch){(int)type, addr, kind, sp, id};
        dbg_update_slow(m);
        return gdb_send_str(g, "OK");
    }
    for (int i = 0; i < g->nwatch; i++)
        if (g->watch[i].type == (int)type && g->watch[i].addr == addr && g->watch[i].len == kind) {
            dbg_watch_remove(m, g->watch[i].sp, g->watch[i].id);
            g->watch[i] = g->watch[--g->nwatch];
            dbg_update_slow(m);
            return gdb_send_str(g, "OK");
        }
    return gdb_send_str(g, "E02");
}

/* ---- memory ---- */

/* Read len bytes at addr of the data space: as much as is mapped, in whole address units. */
static size_t gdb_mem_read(mem_space *sp, uint64_t addr, uint8_t *buf, size_t len)
{
    if (mem_host_read(sp, addr, buf, len) == 0)
        return len;
    size_t done = 0;
    for (uint64_t a = addr; done < len; a++) {
        size_t n = len - done < sp->addr_unit ? len - done : sp->addr_unit;
        if (mem_host_read(sp, a, buf + done, n))
            break;
        done += n;
    }
    return done;
}

static int gdb_mem(gdb_stub *g, char op, const char *p, long pktlen)
{
    uint64_t addr, len;
    const char *q;
    if (gdb_get_hex_u64(p, &addr, &q) || *q != ',' || gdb_get_hex_u64(q + 1, &len, &q))
        return gdb_send_str(g, "E01");
    mem_space *sp = gdb_data_space(g);
    if (!sp)
        return gdb_send_str(g, "E0e");
    if (op == 'm') {
        if (len > GDB_PKT_MAX / 2)
            len = GDB_PKT_MAX / 2;
        uint8_t *buf = malloc(len ? len : 1);
        char *hex = malloc(2 * len + 1);
        int rc;
        if (!buf || !hex) {
            rc = gdb_send_str(g, "E0c");
        } else {
            size_t got = gdb_mem_read(sp, addr, buf, (size_t)len);
            if (!got && len) {
                rc = gdb_send_str(g, "E0e");
            } else {
                gdb_put_hex(hex, buf, got);
                rc = gdb_send(g, hex, 2 * got);
            }
        }
        free(buf);
        free(hex);
        return rc;
    }
    if (*q != ':')
        return gdb_send_str(g, "E01");
    q++;
    /* the data must be in this packet: a length beyond the packet size is an error before
     * anything is allocated (a client's number is never a host size) */
    if (len > GDB_PKT_MAX)
        return gdb_send_str(g, "E01");
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return gdb_send_str(g, "E0c");
    int bad;
    if (op == 'M') {
        bad = gdb_get_hex_bytes(q, buf, len) != (long)len;
    } else { /* X: binary, already unescaped by gdb_recv */
        bad = (uint64_t)(pktlen - (q - g->in)) != len;
        if (!bad)
            memcpy(buf, q, len);
    }
    int rc;
    if (bad)
        rc = gdb_send_str(g, "E01");
    else if (len && mem_host_write(sp, addr, buf, (size_t)len))
        rc = gdb_send_str(g, "E0e");
    else
        rc = gdb_send_str(g, "OK");
    free(buf);
    return rc;
}

/* ---- the packet loop ---- */

static int gdb_handle(gdb_stub *g, long n)
{
    char *p = g->in;
    sim_machine *m = g->m;
    switch (p[0]) {
    case '?': {
        char r[256];
        gdb_stop_reply(g, r, sizeof r);
        return gdb_send_str(g, r);
    }
    case 'q':
        return gdb_query(g, p);
    case 'Q':
        if (strcmp(p, "QStartNoAckMode") == 0) {
            int rc = gdb_send_str(g, "OK");
            g->noack = 1;
            return rc;
        }
        return gdb_send_str(g, "");
    case 'H': {
        int64_t tid;
        if ((p[1] != 'g' && p[1] != 'c') || gdb_parse_tid(p + 2, &tid))
            return gdb_send_str(g, "E01");
        int u = -1, t = -1;
        if (tid > 0 && gdb_thread_of(g, (uint64_t)tid, &u, &t))
            return gdb_send_str(g, "E02");
        if (p[1] == 'g' && tid > 0)
            g->gunit = u, g->gthread = t;
        if (p[1] == 'c')
            g->cunit = u, g->cthread = t;
        return gdb_send_str(g, "OK");
    }
    case 'T': {
        int64_t tid;
        int u, t;
        if (gdb_parse_tid(p + 1, &tid) || tid < 1 || gdb_thread_of(g, (uint64_t)tid, &u, &t))
            return gdb_send_str(g, "E01");
        return gdb_send_str(g, "OK");
    }
    case 'g': {
        /* GDB (it names itself with xmlRegisters= in qSupported) knows no xpusim ISA, so it
         * rejects target.xml and lays out 'g' as its default architecture's registers: a full
         * reply would not fit and `target remote` would fail. Registers 0 and 1 as 4 bytes
         * each end on a register boundary of every 32- and 64-bit layout; GDB then asks for
         * the others one by one with 'p' (see gdb_put_reg) and the session works (memory,
         * breakpoints, stepping, threads, monitor; `monitor regs` shows the real names). */
        if (g->gdb_compat) {
            char hex[16], one[2 * 512 + 1];
            for (int i = 0; i < 2; i++)
                memcpy(hex + 8 * i,
                       i < g->isa->nregs && gdb_put_reg(g, gdb_compat_regnum(g, i), one) - one == 8 ? one : "xxxxxxxx", 8);
            return gdb_send(g, hex, 16);
        }
        size_t nb = gdb_regs_bytes(g);
        char *hex = malloc(2 * nb + 1), *q = hex;
        if (!hex)
            return gdb_send_str(g, "E0c");
        for (int i = 0; i < g->isa->nregs; i++)
            q = gdb_put_reg(g, i, q);
        int rc = gdb_send(g, hex, (size_t)(q - hex));
        free(hex);
        return rc;
    }
    case 'G': {
        size_t nb = gdb_regs_bytes(g);
        uint8_t *b = malloc(nb + 1);
        if (!b)
            return gdb_send_str(g, "E0c");
        int rc;
        if (gdb_get_hex_bytes(p + 1, b, nb) != (long)nb) {
            rc = gdb_send_str(g, "E01");
        } else {
            int bad = 0;
            size_t off = 0;
            for (int i = 0; i < g->isa->nregs; i++) {
                bad |= gdb_set_reg(g, i, b + off) != 0;
                off += gdb_reg_bits(&g->isa->regs[i]) / 8;
            }
            rc = gdb_send_str(g, bad ? "E0e" : "OK");
        }
        free(b);
        return rc;
    }
    case 'p':
    case 'P': {
        uint64_t r;
        const char *q;
        if (gdb_get_hex_u64(p + 1, &r, &q) || (p[0] == 'P' && *q != '='))
            return gdb_send_str(g, "E01");
        if (r >= (uint64_t)g->isa->nregs) /* beyond the table (a GDB with its own layout): unavailable */
            return gdb_send_str(g, p[0] == 'p' ? "xx" : "E01");
        r = (uint64_t)gdb_compat_regnum(g, (int)r);
        if (p[0] == 'p') {
            char hex[2 * 512 + 1];
            gdb_put_reg(g, (int)r, hex);
            return gdb_send_str(g, hex);
        }
        uint8_t b[512] = {0};
        long nb = (long)gdb_reg_bits(&g->isa->regs[r]) / 8;
        if (gdb_get_hex_bytes(q + 1, b, (size_t)nb) != nb)
            return gdb_send_str(g, "E01");
        return gdb_send_str(g, gdb_set_reg(g, (int)r, b) ? "E0e" : "OK");
    }
    case 'm':
    case 'M':
    case 'X':
        return gdb_mem(g, p[0], p + 1, n);
    case 'c':
    case 'C':
        if (p[1] && p[0] == 'c') /* c ADDR: resuming elsewhere is not supported */
            return gdb_send_str(g, "E01");
        return gdb_resume(g, -1, -1);
    case 's':
    case 'S': {
        int u = g->cunit >= 0 ? g->cunit : g->gunit, t = g->cunit >= 0 ? g->cthread : g->gthread;
        return gdb_resume(g, u, t);
    }
    case 'v':
        if (strncmp(p, "vCont?", 6) == 0)
            return gdb_send_str(g, "vCont;c;C;s;S");
        if (strncmp(p, "vCont;", 6) == 0)
            return gdb_vcont(g, p + 5);
        if (strncmp(p, "vKill", 5) == 0) {
            g->quit = 1;
            return gdb_send_str(g, "OK");
        }
        return gdb_send_str(g, "");
    case 'Z':
    case 'z':
        return gdb_z(g, p[0] == 'Z', p + 1);
    case 'D':
        g->quit = 1;
        return gdb_send_str(g, "OK");
    case 'k':
        g->quit = 1;
        return 0; /* no reply to k */
    default:
        (void)m;
        return gdb_send_str(g, "");
    }
}

/* "PORT", "HOST:PORT" or NULL (127.0.0.1:1234) -> a listening socket; prints the address. */
static int gdb_listen(const char *spec)
{
    char host[256] = "127.0.0.1", port[16] = "1234";
    if (spec && *spec) {
        const char *colon = strrchr(spec, ':');
        if (colon) {
            snprintf(host, sizeof host, "%.*s", (int)(colon - spec), spec);
            snprintf(port, sizeof port, "%s", colon + 1);
        } else {
            snprintf(port, sizeof port, "%s", spec);
        }
    }
    char *end;
    long pn = strtol(port, &end, 10);
    if (!*port || *end || pn < 0 || pn > 65535) {
        fprintf(stderr, "xpusim gdbserver: '%s': expected PORT or HOST:PORT with PORT in 0..65535\n", spec);
        return -1;
    }
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc) {
        fprintf(stderr, "xpusim gdbserver: cannot resolve '%s': %s\n", host, gai_strerror(rc));
        return -1;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1)) {
        fprintf(stderr, "xpusim gdbserver: cannot listen on %s:%s: %s\n", host, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_in sa;
    socklen_t sl = sizeof sa;
    char addr[64] = "?";
    if (getsockname(fd, (struct sockaddr *)&sa, &sl) == 0)
        inet_ntop(AF_INET, &sa.sin_addr, addr, sizeof addr);
    fprintf(stderr, "xpusim gdbserver: listening on %s:%u\n", addr, (unsigned)ntohs(sa.sin_port));
    fflush(stderr);
    return fd;
}

int gdb_serve_fd(cli_session *s, int fd)
{
    gdb_stub *g = calloc(1, sizeof *g);
    if (!g) {
        fprintf(stderr, "xpusim gdbserver: out of memory\n");
        close(fd);
        return 1;
    }
    g->s = s;
    g->m = &s->m;
    g->isa = s->isa;
    g->fd = fd;
    g->cunit = g->cthread = -1;
    g->next_watch_id = 1;
    g->rc = cli_runctl(s);
    g->rc->interactive = 1;
    g->rc->ff_stop = 1; /* --fast-forward: the switch is a stop (SIGTRAP), GDB looks from there */
    g->rc->slice = GDB_SLICE;
    g->rc->poll = gdb_run_poll;
    g->rc->poll_ctx = g;
    sim_machine *m = g->m;
    int rc = 1;
    if (!m->nunits) {
        fprintf(stderr, "xpusim gdbserver: the machine has no units\n");
        goto out;
    }
    for (int u = 0; u < m->nunits; u++)
        if (m->units[u].nthreads > g->tpu)
            g->tpu = m->units[u].nthreads;
    if (dbg_attach(m) || gdb_build_xml(g)) {
        fprintf(stderr, "xpusim gdbserver: out of memory\n");
        goto out;
    }
    gdb_first_live(g, &g->gunit, &g->gthread);
    m->stop.kind = SIM_STOP_NONE;
    while (!g->quit) {
        long n = gdb_recv(g);
        if (n < 0)
            break;
        if (g->pending_break && n == 0) {
            /* Ctrl-C while stopped: nothing runs, nothing to report (a reply here would be
             * taken as the answer to GDB's next packet) */
            g->pending_break = 0;
            continue;
        }
        if (n > 0 && gdb_handle(g, n))
            break;
    }
    rc = 0;
    fprintf(stderr, "xpusim gdbserver: session ended at cycle %llu (%s)\n",
            (unsigned long long)(m->stop.kind == SIM_STOP_HALT ? sim_end_cycle(m) : runctl_now(m)),
            sim_stop_name(m->stop.kind));
    if (m->stop.kind != SIM_STOP_NONE)
        runctl_finish(g->rc);
out:
    if (g->fd >= 0)
        close(g->fd);
    free(g->xml);
    free(g);
    fflush(stdout);
    return rc;
}

int gdb_serve(cli_session *s, const char *listen_spec)
{
    int lfd = gdb_listen(listen_spec);
    if (lfd < 0)
        return 1;
    int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    close(lfd);
    if (fd < 0) {
        fprintf(stderr, "xpusim gdbserver: accept: %s\n", strerror(errno));
        return 1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fprintf(stderr, "xpusim gdbserver: connected\n");
    return gdb_serve_fd(s, fd);
}
