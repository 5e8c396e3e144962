/* frontends/gdbstub_info.c: the descriptive half of `xpusim gdbserver` (see gdbstub.c):
 * the register layout GDB sees, generated from the ISA's register table (target.xml, the g
 * and p packets: scalars widened to 8/16/32/64 bits, vectors at full width as 32-bit lanes,
 * little-endian), and the queries: qSupported, qXfer:features:read, the thread list and
 * thread descriptions, and `monitor` (qRcmd: cycle, stats, regs, stop, waiting, disasm, space, units, `info
 * tasks`, and `info NAME` for the ISA's own views, the table the debugger's `info` uses). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gdbstub.h"
#include "debugger.h"
#include "../core/stats.h"
#include "../core/task.h"

/* ---- registers ---- */

unsigned gdb_reg_bits(const isa_reg *r)
{
    if (r->bits > 64)
        return (r->bits + 31) / 32 * 32;
    return r->bits <= 8 ? 8 : r->bits <= 16 ? 16 : r->bits <= 32 ? 32 : 64;
}

/* One register of the Hg thread as hex into p (xx.. if unreadable); returns the end. */
char *gdb_put_reg(gdb_stub *g, int i, char *p)
{
    const isa_reg *r = &g->isa->regs[i];
    unsigned nb = gdb_reg_bits(r) / 8;
    uint8_t buf[512] = {0};
    if (g->gdb_compat) {
        /* GDB reads register i at its own architecture's size, into a buffer of that size:
         * a longer reply would overrun it, a shorter one leaves garbage. Four bytes suit
         * the 32-bit and wider registers of the usual layouts: registers of up to 32 bits
         * are sent zero-extended to 4 bytes, wider ones as unavailable (`monitor regs`). */
        if (r->bits > 32 || !g->isa->reg_read || g->isa->reg_read(g->m, g->gunit, g->gthread, i, buf))
            return strcpy(p, "xx") + 2;
        return gdb_put_hex(p, buf, 4);
    }
    if (nb > sizeof buf || !g->isa->reg_read || g->isa->reg_read(g->m, g->gunit, g->gthread, i, buf)) {
        for (unsigned k = 0; k < nb; k++)
            *p++ = 'x', *p++ = 'x';
        *p = 0;
        return p;
    }
    return gdb_put_hex(p, buf, nb);
}

/* GDB with no architecture of ours uses i386's layout (its default when nothing else
 * fits), where register 8 is eip, the PC. Swapping the ISA's PC with register 8 makes $pc,
 * stop locations and "hit Breakpoint" come out right in GDB. */
int gdb_compat_regnum(const gdb_stub *g, int n)
{
    enum { I386_EIP = 8 };
    int pc = -1;
    for (int i = 0; i < g->isa->nregs; i++)
        if (g->isa->regs[i].flags & ISA_REG_PC)
            pc = i;
    if (!g->gdb_compat || pc < 0 || g->isa->nregs <= I386_EIP)
        return n;
    return n == I386_EIP ? pc : n == pc ? I386_EIP : n;
}

int gdb_set_reg(gdb_stub *g, int i, const uint8_t *b)
{
    const isa_reg *r = &g->isa->regs[i];
    if ((r->flags & ISA_REG_RO) || !g->isa->reg_write)
        return 0; /* GDB writes whole register sets back: read-only ones keep their value */
    uint8_t buf[512] = {0};
    memcpy(buf, b, gdb_reg_bits(r) / 8);
    return g->isa->reg_write(g->m, g->gunit, g->gthread, i, buf);
}

size_t gdb_regs_bytes(const gdb_stub *g)
{
    size_t n = 0;
    for (int i = 0; i < g->isa->nregs; i++)
        n += gdb_reg_bits(&g->isa->regs[i]) / 8;
    return n;
}

/* target.xml from the register table. No <architecture>: GDB has no xpusim ISA, so the
 * description is a generic register view (see docs/user-guide.md, "GDB remote"). */
int gdb_build_xml(gdb_stub *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
               "<feature name=\"org.xpusim.%s\">\n", g->isa->name);
    unsigned declared[64];
    int ndecl = 0;
    for (int i = 0; i < g->isa->nregs; i++) {
        const isa_reg *r = &g->isa->regs[i];
        unsigned bits = gdb_reg_bits(r);
        if (r->bits <= 64)
            continue;
        int seen = 0;
        for (int k = 0; k < ndecl; k++)
            seen |= declared[k] == bits;
        if (!seen && ndecl < 64) {
            declared[ndecl++] = bits;
            fprintf(f, "<vector id=\"v%uu32\" type=\"uint32\" count=\"%u\"/>\n", bits / 32, bits / 32);
        }
    }
    for (int i = 0; i < g->isa->nregs; i++) {
        const isa_reg *r = &g->isa->regs[i];
        unsigned bits = gdb_reg_bits(r);
        char type[24];
        if (r->flags & ISA_REG_PC)
            snprintf(type, sizeof type, "code_ptr");
        else if (r->bits > 64)
            snprintf(type, sizeof type, "v%uu32", bits / 32);
        else
            snprintf(type, sizeof type, "uint%u", bits);
        fprintf(f, "<reg name=\"%s\" bitsize=\"%u\" regnum=\"%d\" type=\"%s\"", r->name, bits, i, type);
        if (r->group)
            fprintf(f, " group=\"%s\"", r->bits > 64 ? "vector" : strcmp(r->group, "general") == 0 ? "general" : r->group);
        fprintf(f, "/>\n");
    }
    fprintf(f, "</feature>\n</target>\n");
    if (fclose(f))
        return -1;
    g->xml = buf;
    g->xml_len = len;
    return 0;
}

/* ---- queries ---- */

/* Send text as console output: one hex reply if it fits, else O packets and OK. */
static int gdb_send_output(gdb_stub *g, const char *text, size_t n)
{
    char hex[2 * 2048 + 2];
    if (n <= 2048) {
        if (!n)
            return gdb_send_str(g, "OK");
        gdb_put_hex(hex, (const uint8_t *)text, n);
        return gdb_send(g, hex, 2 * n);
    }
    for (size_t off = 0; off < n; off += 1024) {
        size_t k = n - off < 1024 ? n - off : 1024;
        hex[0] = 'O';
        gdb_put_hex(hex + 1, (const uint8_t *)text + off, k);
        if (gdb_send(g, hex, 1 + 2 * k))
            return -1;
    }
    return gdb_send_str(g, "OK");
}

/* `monitor regs [TID] [NAME]`: a thread's registers by name (vectors as 32-bit lanes); the
 * thread is TID (decimal, as GDB numbers threads) or the one GDB selected last (Hg). */
static void gdb_print_regs(gdb_stub *g, FILE *f, const char *arg)
{
    int unit = g->gunit, thread = g->gthread;
    char *end;
    unsigned long tid = strtoul(arg, &end, 10);
    if (end != arg && (*end == 0 || *end == ' ')) {
        if (gdb_thread_of(g, tid, &unit, &thread)) {
            fprintf(f, "no thread %lu (1..%d)\n", tid, gdb_tid(g, g->m->nunits - 1, g->m->units[g->m->nunits - 1].nthreads - 1));
            return;
        }
        arg = end + strspn(end, " ");
    }
    const char *name = arg;
    fprintf(f, "thread %d = %s thread %d:\n", gdb_tid(g, unit, thread), g->m->units[unit].name, thread);
    int shown = 0;
    for (int i = 0; i < g->isa->nregs; i++) {
        const isa_reg *r = &g->isa->regs[i];
        if (*name && strcasecmp(name, r->name))
            continue;
        uint8_t buf[512] = {0};
        unsigned nb = gdb_reg_bits(r) / 8;
        shown++;
        if (nb > sizeof buf || !g->isa->reg_read || g->isa->reg_read(g->m, unit, thread, i, buf)) {
            fprintf(f, "%-14s (unreadable)\n", r->name);
            continue;
        }
        fprintf(f, "%-14s", r->name);
        if (r->bits <= 64) {
            uint64_t v = 0;
            for (unsigned k = nb; k-- > 0;)
                v = v << 8 | buf[k];
            fprintf(f, " 0x%0*llx %llu\n", (int)(r->bits + 3) / 4, (unsigned long long)v, (unsigned long long)v);
        } else {
            for (unsigned l = 0; l < nb / 4; l++)
                fprintf(f, "%s %08x", l && l % 8 == 0 ? "\n              " : "",
                        (unsigned)(buf[4 * l] | buf[4 * l + 1] << 8 | buf[4 * l + 2] << 16 | (unsigned)buf[4 * l + 3] << 24));
            fprintf(f, "\n");
        }
    }
    if (!shown)
        fprintf(f, "no register '%s'\n", name);
}

/* `monitor disasm [ADDR] [N]`: as the thread GDB selected last (Hg) decodes (its context:
 * isa_ops.disasm_thread), from ADDR (hex or decimal, in the PC's units; default its pc). */
static void gdb_print_disasm(gdb_stub *g, FILE *f, const char *arg)
{
    sim_machine *m = g->m;
    uint64_t pc = g->isa->pc_get ? g->isa->pc_get(m, g->gunit, g->gthread) : 0, addr = pc, count = 8;
    char a[64] = "", b[64] = "";
    int k = sscanf(arg, "%63s %63s", a, b);
    if ((k >= 1 && cli_parse_u64(a, &addr)) || (k >= 2 && (cli_parse_u64(b, &count) || count == 0 || count > 4096))) {
        fprintf(f, "usage: disasm [ADDR] [COUNT] (numbers; COUNT 1..4096)\n");
        return;
    }
    fprintf(f, "%s thread %d:\n", m->units[g->gunit].name, g->gthread);
    for (uint64_t i = 0; i < count; i++) {
        char text[200];
        int len = dbg_disasm(m, g->gunit, g->gthread, addr, text, sizeof text);
        fprintf(f, "%s0x%08llx  %s\n", addr == pc ? "=> " : "   ", (unsigned long long)addr, text);
        if (len <= 0)
            break;
        addr += (uint64_t)len;
    }
}

static int gdb_monitor(gdb_stub *g, const char *hexcmd)
{
    char cmd[256];
    long n = gdb_get_hex_bytes(hexcmd, (uint8_t *)cmd, sizeof cmd - 1);
    if (n < 0)
        return gdb_send_str(g, "E01");
    cmd[n] = 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return gdb_send_str(g, "E0c");
    char *arg = cmd + strcspn(cmd, " ");
    if (*arg)
        *arg++ = 0;
    sim_machine *m = g->m;
    if (strcmp(cmd, "cycle") == 0 || strcmp(cmd, "cycles") == 0) {
        fprintf(f, "cycle %llu, %llu instructions retired\n",
                (unsigned long long)(m->stop.kind == SIM_STOP_HALT ? sim_end_cycle(m) : dbg_now(m)),
                (unsigned long long)sim_total_instructions(m));
    } else if (strcmp(cmd, "stats") == 0) {
        stats_write_text(m, f);
    } else if (strcmp(cmd, "space") == 0) {
        if (strcmp(arg, "default") == 0) {
            g->space[0] = 0;
        } else if (*arg) {
            mem_space *sp = sim_space(m, arg) ? sim_space(m, arg) : sim_unit_space(m, g->gunit, arg);
            if (!sp)
                fprintf(f, "no space '%s'\n", arg);
            else
                snprintf(g->space, sizeof g->space, "%s", arg);
        }
        mem_space *sp = gdb_data_space(g);
        fprintf(f, "memory view: %s (%u byte(s) per address); spaces:", sp ? sp->name : "none",
                sp ? sp->addr_unit : 0);
        for (int i = 0; i < m->nspaces && i < 16; i++)
            fprintf(f, " %s", m->spaces[i]->name);
        fprintf(f, "%s\n", m->nspaces > 16 ? " ..." : "");
    } else if (strcmp(cmd, "regs") == 0 || strcmp(cmd, "registers") == 0) {
        gdb_print_regs(g, f, arg);
    } else if (strcmp(cmd, "stop") == 0) {
        fprintf(f, "%s at cycle %llu: %s\n", sim_stop_name(m->stop.kind), (unsigned long long)m->stop.cycle,
                m->stop.msg);
    } else if (strcmp(cmd, "units") == 0 || strcmp(cmd, "groups") == 0) {
        dbg_write_units(m, f);
    } else if (strcmp(cmd, "waiting") == 0) {
        if (!runctl_waiting(m, f, "", 64))
            fprintf(f, "no thread is waiting (all halted)\n");
    } else if (strcmp(cmd, "disasm") == 0) {
        gdb_print_disasm(g, f, arg);
    } else if (strcmp(cmd, "info") == 0 && strncmp(arg, "tasks", 5) == 0 && (!arg[5] || arg[5] == ' ')) {
        /* core/task.h: each unit's bound tasks, then its last ended ones (`info tasks` of the
         * debugger); a UNIT (index, name or path) narrows it to that unit */
        const char *u = arg + 5 + strspn(arg + 5, " ");
        int unit = *u && strcmp(u, "all") ? dbg_parse_unit(m, u) : -1;
        if (*u && strcmp(u, "all") && unit < 0)
            fprintf(f, "info tasks: no unit '%s'\n", u);
        else if (!sim_tasks_write_list(m, f, unit, 16))
            fprintf(f, "no task has begun%s (CERT binds jobs, the IPU vertex runs)\n", unit >= 0 ? " on this unit" : "");
    } else if (strcmp(cmd, "info") == 0 && isa_view_find(m->isa, arg)) {
        /* the ISA's own views, for the unit of the thread GDB selected (the debugger's table) */
        if (isa_view_find(m->isa, arg)->show(m, g->gunit, f) < 0)
            fprintf(f, "info %s: nothing to show for unit %d\n", arg, g->gunit);
    } else {
        fprintf(f, "xpusim monitor commands:\n"
                   "  cycle           current cycle and instructions retired\n"
                   "  stats           run statistics\n"
                   "  regs [TID] [NAME]  registers of thread TID (default: the last one GDB\n"
                   "                  selected) by their names, or only register NAME\n"
                   "  stop            the last stop reason\n"
                   "  waiting         each thread that has not halted and what it waits for\n"
                   "  units           the groups > units tree (thread names in GDB carry the path)\n"
                   "  info tasks [UNIT]  the tasks each thread slot runs and the last ended ones\n"
                   "  disasm [ADDR] [N]  N instructions (8) from ADDR (the pc) as the thread\n"
                   "                  GDB selected decodes them (its context)\n"
                   "  space [NAME]    show or set the memory space m/M/X and watchpoints use\n"
                   "                  (`space default`: the data space)\n");
        for (const isa_view *v = m->isa->views; v && v->name; v++)
            fprintf(f, "  info %-10s %s\n", v->name, v->help);
    }
    fclose(f);
    int rc = gdb_send_output(g, buf, len);
    free(buf);
    return rc;
}

static int gdb_thread_list(gdb_stub *g, int first)
{
    if (first)
        g->thread_cursor = 0;
    int total = dbg_flat_count(g->m);
    if (g->thread_cursor >= total)
        return gdb_send_str(g, "l");
    char out[2048];
    size_t n = 0;
    out[n++] = 'm';
    int flat = 0;
    for (int u = 0; u < g->m->nunits && n < sizeof out - 40; u++)
        for (int t = 0; t < g->m->units[u].nthreads && n < sizeof out - 40; t++, flat++) {
            if (flat < g->thread_cursor)
                continue;
            n += (size_t)snprintf(out + n, sizeof out - n, "%s%x", n > 1 ? "," : "", gdb_tid(g, u, t));
            g->thread_cursor++;
        }
    return gdb_send(g, out, n);
}

static int gdb_extra_info(gdb_stub *g, const char *p)
{
    int64_t tid;
    int u, t;
    if (gdb_parse_tid(p, &tid) || tid < 1 || gdb_thread_of(g, (uint64_t)tid, &u, &t))
        return gdb_send_str(g, "E01");
    static const char *const states[] = {"ready", "sleeping", "halted", "disabled"};
    char text[400], isa_state[256] = "";
    const sim_thread *th = &g->m->units[u].threads[t];
    if (g->isa->thread_state)
        g->isa->thread_state(g->m, u, t, isa_state, sizeof isa_state);
    char path[256];
    int len = snprintf(text, sizeof text, "%s thread %d, %s%s%s", sim_unit_path(g->m, u, path, sizeof path), t,
                       th->state < 4 ? states[th->state] : "?", *isa_state ? ": " : "", isa_state);
    char hex[2 * sizeof text + 1];
    gdb_put_hex(hex, (const uint8_t *)text, (size_t)len < sizeof text ? (size_t)len : sizeof text - 1);
    return gdb_send_str(g, hex);
}

/* One chunk OFFSET,LENGTH (hex, at p) of an object of len bytes for qXfer:...:read: 'm' and
 * the bytes when more follow, 'l' and the last ones. */
static int gdb_xfer_chunk(gdb_stub *g, const char *data, size_t dlen, const char *p)
{
    uint64_t off, len;
    const char *q;
    if (gdb_get_hex_u64(p, &off, &q) || *q != ',' || gdb_get_hex_u64(q + 1, &len, NULL))
        return gdb_send_str(g, "E01");
    if (off >= dlen)
        return gdb_send_str(g, "l");
    size_t n = dlen - off < len ? dlen - off : len;
    if (n > GDB_PKT_MAX / 2)
        n = GDB_PKT_MAX / 2;
    /* binary data: escape $ # } * (the generated XML has none of them, but stay correct) */
    char *out = malloc(2 * n + 2);
    if (!out)
        return gdb_send_str(g, "E0c");
    size_t k = 0;
    out[k++] = off + n < dlen ? 'm' : 'l';
    for (size_t i = 0; i < n; i++) {
        char c = data[off + i];
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            out[k++] = '}';
            c ^= 0x20;
        }
        out[k++] = c;
    }
    int rc = gdb_send(g, out, k);
    free(out);
    return rc;
}

static int gdb_xfer_features(gdb_stub *g, const char *p)
{
    /* qXfer:features:read:ANNEX:OFFSET,LENGTH */
    const char *colon = strchr(p, ':');
    if (!colon || strncmp(p, "target.xml", (size_t)(colon - p)) || colon - p != 10)
        return gdb_send_str(g, "E00");
    return gdb_xfer_chunk(g, g->xml, g->xml_len, colon + 1);
}

/* qXfer:threads:read::OFFSET,LENGTH: every thread with its path as its name
 * ("ipu0.tile5.3": groups > unit > thread, issue 11 pt 1) and its unit as its core, so GDB's
 * `info threads` shows where each one is. Names only (no state): the object stays the same
 * between the chunks of one read. */
static int gdb_xfer_threads(gdb_stub *g, const char *p)
{
    if (*p != ':')
        return gdb_send_str(g, "E00");
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f)
        return gdb_send_str(g, "E0c");
    fprintf(f, "<?xml version=\"1.0\"?>\n<threads>\n");
    char path[256];
    for (int u = 0; u < g->m->nunits; u++) {
        sim_unit_path(g->m, u, path, sizeof path);
        for (int t = 0; t < g->m->units[u].nthreads; t++)
            fprintf(f, "<thread id=\"%x\" core=\"%d\" name=\"%s.%d\"/>\n", gdb_tid(g, u, t), u, path, t);
    }
    fprintf(f, "</threads>\n");
    if (fclose(f)) {
        free(xml);
        return gdb_send_str(g, "E0c");
    }
    int rc = gdb_xfer_chunk(g, xml, len, p + 1);
    free(xml);
    return rc;
}

int gdb_query(gdb_stub *g, const char *p)
{
    if (strncmp(p, "qSupported", 10) == 0) {
        char r[160];
        g->gdb_compat = strstr(p, "xmlRegisters=") != NULL;
        snprintf(r, sizeof r, "PacketSize=%x;qXfer:features:read+;qXfer:threads:read+;vContSupported+;QStartNoAckMode+",
                 GDB_PKT_MAX);
        return gdb_send_str(g, r);
    }
    if (strncmp(p, "qXfer:features:read:", 20) == 0)
        return gdb_xfer_features(g, p + 20);
    if (strncmp(p, "qXfer:threads:read:", 19) == 0)
        return gdb_xfer_threads(g, p + 19);
    if (strcmp(p, "qfThreadInfo") == 0)
        return gdb_thread_list(g, 1);
    if (strcmp(p, "qsThreadInfo") == 0)
        return gdb_thread_list(g, 0);
    if (strcmp(p, "qC") == 0) {
        char r[32];
        snprintf(r, sizeof r, "QC%x", gdb_tid(g, g->gunit, g->gthread));
        return gdb_send_str(g, r);
    }
    if (strncmp(p, "qThreadExtraInfo,", 17) == 0)
        return gdb_extra_info(g, p + 17);
    if (strncmp(p, "qAttached", 9) == 0)
        return gdb_send_str(g, "1");
    if (strncmp(p, "qRcmd,", 6) == 0)
        return gdb_monitor(g, p + 6);
    if (strcmp(p, "qOffsets") == 0)
        return gdb_send_str(g, "Text=0;Data=0;Bss=0");
    if (strcmp(p, "qSymbol::") == 0)
        return gdb_send_str(g, "OK");
    return gdb_send_str(g, "");
}

