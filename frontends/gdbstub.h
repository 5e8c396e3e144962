/* frontends/gdbstub.h: what the two halves of the GDB remote server share (not a library
 * API). gdbstub.c holds the connection, packets, run control, breakpoints, watchpoints and
 * memory; gdbstub_info.c the register layout (target.xml, g/p) and the queries (threads,
 * qXfer, monitor). Both work on one gdb_stub, the state of one `xpusim gdbserver` call. */
#ifndef XPUSIM_GDBSTUB_H
#define XPUSIM_GDBSTUB_H
#include <stdint.h>
#include "cli.h"

#define GDB_PKT_MAX 16384          /* advertised as PacketSize (hex) */
#define GDB_SLICE 100000           /* cycles between polls for Ctrl-C during a continue */
#define GDB_MAX_WATCH 64
#define GDB_SIGINT 2
#define GDB_SIGILL 4
#define GDB_SIGTRAP 5
#define GDB_SIGABRT 6
#define GDB_SIGSEGV 11
#define GDB_SIGXCPU 24

typedef struct gdb_watch {
    int type;          /* 2 write, 3 read, 4 access (the Z packet's type) */
    uint64_t addr, len; /* as GDB gave them: address units, bytes */
    mem_space *sp;
    int id;
} gdb_watch;

typedef struct gdb_stub {
    cli_session *s;
    sim_machine *m;
    const isa_ops *isa;
    int fd;
    int noack;
    int tpu;                 /* threads per unit in the thread-id formula */
    int gunit, gthread;      /* Hg: registers and memory */
    int cunit, cthread;      /* Hc: the thread `s`/`c` act on (-1: any) */
    char space[32];          /* `monitor space`: data view by name, "" = the default */
    char *xml;
    size_t xml_len;
    gdb_watch watch[GDB_MAX_WATCH];
    int nwatch, next_watch_id;
    int thread_cursor;       /* qsThreadInfo position */
    runctl *rc;              /* the session's run control (core/runctl.h): limit, over, last stop seen */
    char in[GDB_PKT_MAX + 8];
    int pending_break;       /* a 0x03 arrived while reading a packet */
    int gdb_compat;          /* the client is GDB, which rejects our target.xml (see gdb_handle 'g') */
    int quit;
} gdb_stub;

/* gdbstub.c */
int gdb_hexval(int c);
char *gdb_put_hex(char *p, const uint8_t *b, size_t n);             /* NUL-terminates */
long gdb_get_hex_bytes(const char *h, uint8_t *b, size_t max);      /* count, -1 bad digit */
int gdb_get_hex_u64(const char *p, uint64_t *v, const char **end);  /* -1 if no digits */
int gdb_send(gdb_stub *g, const char *data, size_t n);
int gdb_send_str(gdb_stub *g, const char *s);
int gdb_tid(const gdb_stub *g, int unit, int thread);
int gdb_thread_of(const gdb_stub *g, uint64_t tid, int *unit, int *thread);
int gdb_parse_tid(const char *p, int64_t *tid);
mem_space *gdb_data_space(gdb_stub *g);

/* gdbstub_info.c */
unsigned gdb_reg_bits(const isa_reg *r);           /* the width GDB sees */
char *gdb_put_reg(gdb_stub *g, int i, char *p);    /* hex of the Hg thread's register i */
int gdb_set_reg(gdb_stub *g, int i, const uint8_t *b);
int gdb_compat_regnum(const gdb_stub *g, int n);   /* GDB's register n -> ours (see there) */
size_t gdb_regs_bytes(const gdb_stub *g);
int gdb_build_xml(gdb_stub *g);
int gdb_query(gdb_stub *g, const char *p);         /* a q packet: reply sent */

#endif
