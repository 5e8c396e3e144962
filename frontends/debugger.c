/* frontends/debugger.c: `xpusim debug PROGRAM [-x SCRIPT]`, the interactive debugger.
 * A command table in the style of mGBA's and SIMH's consoles (name, aliases, arguments, help,
 * handler) drives the core's debugger hooks (core/debug.h: breakpoints, watchpoints with
 * their thread and condition filters, history ring), the session's run control
 * (core/runctl.h: continue, step, until, Ctrl-C, the fast-forward switch; shared with
 * `xpusim run` and the GDB stub) and the ISA's register, thread-state, disassembly (as the
 * selected thread decodes) and info views, so every ISA gets the same debugger without code
 * of its own.
 * On a terminal it reads lines with readline (history, completion of commands, symbols and
 * registers); otherwise (or with -x) it reads a script, echoing each command after the prompt
 * so the transcript reads like a session, and `assert` turns such scripts into tests. An
 * interactive session with a display also shows the ISA's framebuffer (frontends/view.c).
 * The commands that show machine state live in debugger_views.c, the breakpoint and watchpoint
 * commands in debugger_break.c. Process-global state is
 * limited to what the C library and readline force on us: the machine a SIGINT must stop
 * and the session readline's completion callback must see (both take no context pointer);
 * everything else lives in the dbg_cli of one call. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>
#include "debugger.h"
#include "../core/debug.h"
#include "../core/file.h"
#include "../core/stats.h"

#define DBG_MAX_ARGS 16
#define DBG_MAX_DEPTH 8   /* nesting of `source` */

typedef struct dbg_cmd {
    const char *name;
    const char *aliases;  /* space-separated, may be "" */
    const char *args;
    const char *help;
    int (*fn)(dbg_cli *c, int argc, char **argv);
} dbg_cmd;

/* Why these two are static: a signal handler and readline's completion generator receive no
 * context pointer, and both are per-process facilities (one terminal, one SIGINT). The
 * handler only reads dbg_sigint_machine; it is set around runs of the one machine being
 * debugged and cleared after, so several machines in a process are unaffected. */
static sim_machine *volatile dbg_sigint_machine;
static dbg_cli *dbg_rl_ctx;

static const dbg_cmd dbg_cmds[];
static int dbg_exec_line(dbg_cli *c, char *line);
static int dbg_run_file(dbg_cli *c, FILE *f);

int dbg_err(dbg_cli *c, const char *fmt, ...)
{
    (void)c;
    fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    return -1;
}

/* ---- parsing helpers ---- */

int dbg_parse_s64(const char *t, uint64_t *v)
{
    int neg = *t == '-';
    if (cli_parse_u64(t + neg, v))
        return -1;
    if (neg)
        *v = (uint64_t)0 - *v;
    return 0;
}

int dbg_flat_count(const sim_machine *m)
{
    int n = 0;
    for (int u = 0; u < m->nunits; u++)
        n += m->units[u].nthreads;
    return n;
}

int dbg_flat_index(const sim_machine *m, int unit, int thread)
{
    int n = 0;
    for (int u = 0; u < unit; u++)
        n += m->units[u].nthreads;
    return n + thread;
}

/* A unit given as an index, a name ("dpu3") or a group-qualified path ("ipu0.tile5"). */
int dbg_parse_unit(const sim_machine *m, const char *t)
{
    uint64_t v;
    if (cli_parse_u64(t, &v) == 0)
        return v < (uint64_t)m->nunits ? (int)v : -1;
    return sim_find_unit(m, t);
}

/* Space by exact name, else the selected unit's copy of a per-unit space ("wram" -> "wram.3"). */
static mem_space *dbg_space(dbg_cli *c, const char *name)
{
    mem_space *sp = sim_space(c->m, name);
    return sp ? sp : sim_unit_space(c->m, c->unit, name);
}

/* The ISA's data space: the first space that is not (a unit's copy of) the code space. */
static mem_space *dbg_data_space(dbg_cli *c)
{
    const char *code = c->isa->code_space ? c->isa->code_space : "";
    size_t cl = strlen(code);
    for (int i = 0; i < c->m->nspaces; i++) {
        const char *n = c->m->spaces[i]->name;
        if (strcmp(n, code) == 0 || (cl && strncmp(n, code, cl) == 0 && n[cl] == '.'))
            continue;
        char base[sizeof c->m->spaces[0]->name];
        snprintf(base, sizeof base, "%s", n);
        char *dot = strchr(base, '.');
        if (dot)
            *dot = 0;
        return sim_unit_space(c->m, c->unit, base);
    }
    return c->m->nspaces ? c->m->spaces[0] : NULL;
}

/* [SPACE:]ADDR, or a data symbol placed by the ISA's symbol_location. */
int dbg_resolve_mem(dbg_cli *c, const char *text, mem_space **sp, uint64_t *addr)
{
    char err[256] = "";
    const char *colon = strchr(text, ':');
    if (colon) {
        char name[40];
        snprintf(name, sizeof name, "%.*s", (int)(colon - text), text);
        if (!(*sp = dbg_space(c, name)))
            return dbg_err(c, "no memory space '%s'", name);
        if (cli_unit_resolve_addr(c->s, c->unit, colon + 1, addr, err, sizeof err))
            return dbg_err(c, "%s", err);
        return 0;
    }
    const ld_image *uimg = cli_unit_image(c->s, c->unit); /* the selected unit's program */
    if (c->isa->symbol_location && uimg->nsyms && (text[0] == '_' || (text[0] | 32) >= 'a') &&
        (text[0] | 32) <= 'z') {
        char name[128];
        uint64_t off = 0;
        snprintf(name, sizeof name, "%s", text);
        char *plus = strchr(name, '+');
        if (plus) {
            *plus = 0;
            if (cli_parse_u64(plus + 1, &off))
                return dbg_err(c, "bad offset in '%s'", text);
        }
        const ld_symbol *sym = ld_symbol_find(uimg, name);
        if (sym && c->isa->symbol_location(c->m, c->unit, sym, sp, addr) == 0) {
            *addr += off;
            return 0;
        }
    }
    if (!(*sp = dbg_data_space(c)))
        return dbg_err(c, "the machine has no memory space");
    if (cli_unit_resolve_addr(c->s, c->unit, text, addr, err, sizeof err))
        return dbg_err(c, "%s", err);
    return 0;
}

/* ---- showing code ---- */

/* Symbols come from the selected unit's program (its own with --image or --symbols). */
const char *dbg_code_symbol_at(dbg_cli *c, uint64_t addr, uint64_t *off)
{
    return cli_unit_code_symbol_at(c->s, c->unit, addr, off);
}

int dbg_resolve_code(dbg_cli *c, const char *text, uint64_t *addr, char *err, size_t errlen)
{
    const cli_session *cs = c->s;
    const ld_image *uimg = cli_unit_image(cs, c->unit);
    if (!cs->csyms || uimg != &cs->img || cli_parse_u64(text, addr) == 0) /* (csyms: the program's) */
        return cli_unit_resolve_addr(c->s, c->unit, text, addr, err, errlen);
    char name[256];
    uint64_t off = 0;
    snprintf(name, sizeof name, "%s", text);
    char *plus = strchr(name, '+');
    if (plus) {
        *plus = 0;
        if (cli_parse_u64(plus + 1, &off)) {
            snprintf(err, errlen, "'%s': offset is not a number", text);
            return -1;
        }
    }
    for (int i = 0; i < cs->ncsyms; i++)
        if (strcmp(cs->csyms[i].name, name) == 0) {
            *addr = cs->csyms[i].addr + off;
            return 0;
        }
    snprintf(err, errlen, "'%s': not a number and no code symbol of that name%s", text,
             ld_symbol_find(&c->s->img, name) ? " (it names data)" : "");
    return -1;
}

void dbg_symbolize(dbg_cli *c, uint64_t addr, char *buf, size_t n) { dbg_symbolize_unit(c, c->unit, addr, buf, n); }

void dbg_symbolize_unit(dbg_cli *c, int unit, uint64_t addr, char *buf, size_t n)
{
    uint64_t off = 0;
    const char *name = cli_unit_code_symbol_at(c->s, unit, addr, &off);
    if (!name)
        snprintf(buf, n, "%s", "");
    else if (off)
        snprintf(buf, n, "<%s+%llu>", name, (unsigned long long)off);
    else
        snprintf(buf, n, "<%s>", name);
}

/* Disassemble one instruction of a unit's code space as thread decodes it (-1: the unit's
 * default view); returns its size in address units, 0 if the address cannot be read. */
int dbg_disasm_one(dbg_cli *c, int unit, int thread, uint64_t addr, char *text, size_t n)
{
    return dbg_disasm(c->m, unit, thread, addr, text, n);
}

static int dbg_is_break(dbg_cli *c, int unit, uint64_t addr)
{
    const dbg_state *d = c->m->dbg;
    for (int i = 0; d && i < d->nbrk; i++)
        if (d->brk[i].addr == addr && (d->brk[i].unit < 0 || d->brk[i].unit == unit) &&
            sim_unit_in_group(c->m, unit, d->brk[i].group))
            return 1;
    return 0;
}

/* "=> 0x00000010 <loop+4>  add r1, r2, r3"; marker "=>" for the PC, "*" for a breakpoint. */
int dbg_print_insn(dbg_cli *c, int unit, uint64_t addr, uint64_t pc)
{
    char sym[160], text[200];
    dbg_symbolize_unit(c, unit, addr, sym, sizeof sym);
    int len = dbg_disasm_one(c, unit, unit == c->unit ? c->thread : -1, addr, text, sizeof text);
    printf("%s%c0x%08llx %-16s %s\n", addr == pc ? "=>" : "  ", dbg_is_break(c, unit, addr) ? '*' : ' ',
           (unsigned long long)addr, sym, text);
    return len;
}

uint64_t dbg_pc(dbg_cli *c, int unit, int thread)
{
    return c->isa->pc_get ? c->isa->pc_get(c->m, unit, thread) : 0;
}

void dbg_print_where(dbg_cli *c)
{
    const sim_thread *t = &c->m->units[c->unit].threads[c->thread];
    if (t->state == SIM_T_HALTED || t->state == SIM_T_DISABLED) {
        printf("   (%s thread %d is %s)\n", c->m->units[c->unit].name, c->thread,
               t->state == SIM_T_HALTED ? "halted" : "disabled");
        return;
    }
    uint64_t pc = dbg_pc(c, c->unit, c->thread);
    dbg_print_insn(c, c->unit, pc, pc);
}

/* ---- running: the session's run control (core/runctl.h) does it; here are the commands
 * and the way a stop is printed ---- */

static void dbg_on_sigint(int sig)
{
    (void)sig;
    sim_machine *m = dbg_sigint_machine;
    if (m) /* (at the prompt: ignored, readline redraws the line) */
        runctl_interrupt(m);
}

static void dbg_set_sigint(dbg_cli *c, int running)
{
    dbg_sigint_machine = running ? c->m : NULL;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    /* scripts keep the default Ctrl-C (end the process) outside runs */
    sa.sa_handler = running || c->interactive ? dbg_on_sigint : SIG_DFL;
    sigaction(SIGINT, &sa, NULL);
}

uint64_t dbg_now(const sim_machine *m) { return runctl_now(m); }

static int dbg_thread_live(const sim_machine *m, int unit, int thread) { return runctl_thread_live(m, unit, thread); }

/* Report a stop: who, why, and the instruction the stopped thread executes next; after a
 * deadlock or a limit, what each thread that has not halted waits for. */
static void dbg_report_stop(dbg_cli *c)
{
    sim_machine *m = c->m;
    runctl_stop st;
    runctl_stop_get(c->rc, &st);
    if (st.unit >= 0 && st.unit < m->nunits) {
        c->unit = st.unit;
        c->thread = st.thread >= 0 && st.thread < m->units[st.unit].nthreads ? st.thread : 0;
    }
    if (st.unit >= 0)
        printf("%s thread %d stopped at cycle %llu: %s\n", m->units[c->unit].name, c->thread,
               (unsigned long long)st.cycle, st.msg);
    else
        printf("%s at cycle %llu: %s\n", sim_stop_name(st.kind),
               (unsigned long long)(st.kind == SIM_STOP_HALT ? sim_end_cycle(m) : dbg_now(m)), st.msg);
    if (st.kind == SIM_STOP_DEADLOCK || st.kind == SIM_STOP_LIMIT) {
        printf("waiting threads:\n");
        fflush(stdout);
        runctl_waiting(m, stdout, "  ", 32);
    }
    if (c->rc->ff_missed == 1) {
        printf("fast-forward %s: the marker was never reached; the whole run was functional\n", c->rc->ff_marker);
        c->rc->ff_missed = 2;
    }
    if (st.kind != SIM_STOP_HALT)
        dbg_print_where(c);
    runctl_seen(c->rc, c->unit, c->thread);
}

/* Before a run: 0 if there is nothing left to run (said). */
static int dbg_run_begin(dbg_cli *c)
{
    sim_machine *m = c->m;
    if (m->nhalted >= m->nenabled && c->ran) {
        printf("the program has halted (cycle %llu); nothing to run\n", (unsigned long long)sim_end_cycle(m));
        return 0;
    }
    fflush(stdout);
    dbg_set_sigint(c, 1);
    return 1;
}

static void dbg_run_end(dbg_cli *c)
{
    sim_machine *m = c->m;
    dbg_set_sigint(c, 0);
    if (c->rc->over && runctl_ff_finish(c->rc) < 0)
        printf("fast-forward: out of memory recording the functional run\n");
    c->ran = 1;
    c->finished = c->rc->finished;
    c->last_stop = m->stop.kind;
    dbg_report_stop(c);
    if (c->view && view_update(c->view, m) < 0) {
        view_close(c->view);
        c->view = NULL;
    }
}

static int dbg_cmd_step(dbg_cli *c, int argc, char **argv)
{
    uint64_t n = 1;
    if (argc > 1 && (cli_parse_u64(argv[1], &n) || n == 0))
        return dbg_err(c, "step: '%s' is not a positive count", argv[1]);
    if (!dbg_thread_live(c->m, c->unit, c->thread))
        return dbg_err(c, "%s thread %d is not running; select another with `thread`", c->m->units[c->unit].name,
                       c->thread);
    if (dbg_run_begin(c)) {
        runctl_step(c->rc, c->unit, c->thread, n);
        dbg_run_end(c);
    }
    return 0;
}

static int dbg_cmd_continue(dbg_cli *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    if (dbg_run_begin(c)) {
        runctl_continue(c->rc);
        dbg_run_end(c);
    }
    return 0;
}

static int dbg_cmd_until(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "until: give a CYCLE (decimal) or an ADDRESS (0x..., SYMBOL[+OFF])");
    const char *t = argv[1];
    int is_cycle = argv[1][0] >= '0' && argv[1][0] <= '9' && strncasecmp(t, "0x", 2) != 0;
    if (argc > 2 && (strcmp(argv[1], "cycle") == 0 || strcmp(argv[1], "pc") == 0)) {
        is_cycle = argv[1][0] == 'c';
        t = argv[2];
    }
    if (is_cycle) {
        uint64_t cyc;
        if (cli_parse_u64(t, &cyc))
            return dbg_err(c, "until: '%s' is not a cycle number", t);
        if (cyc <= dbg_now(c->m) && c->ran)
            return dbg_err(c, "until: already at cycle %llu", (unsigned long long)dbg_now(c->m));
        if (dbg_run_begin(c)) {
            runctl_until_cycle(c->rc, cyc, c->unit, c->thread);
            dbg_run_end(c);
        }
        return 0;
    }
    uint64_t pc;
    char err[256];
    if (dbg_resolve_code(c, t, &pc, err, sizeof err))
        return dbg_err(c, "until: %s", err);
    if (dbg_run_begin(c)) {
        runctl_until_pc(c->rc, c->unit, pc);
        dbg_run_end(c);
    }
    return 0;
}

/* ---- session commands ---- */

static int dbg_cmd_source(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "source: give a FILE");
    if (c->depth >= DBG_MAX_DEPTH)
        return dbg_err(c, "source: nested too deeply (%d)", DBG_MAX_DEPTH);
    char err[512];
    FILE *f = file_open_read(argv[1], FILE_MAX_INPUT, err, sizeof err);
    if (!f)
        return dbg_err(c, "source: %s", err);
    c->depth++;
    int rc = dbg_run_file(c, f);
    c->depth--;
    fclose(f);
    return rc;
}

static int dbg_cmd_echo(dbg_cli *c, int argc, char **argv)
{
    (void)c;
    for (int i = 1; i < argc; i++)
        printf("%s%s", i > 1 ? " " : "", argv[i]);
    printf("\n");
    return 0;
}

static int dbg_cmd_quit(dbg_cli *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    c->quit = c->quit_explicit = 1;
    return 0;
}

static const dbg_cmd *dbg_find_cmd(const char *name)
{
    for (const dbg_cmd *k = dbg_cmds; k->name; k++) {
        if (strcmp(k->name, name) == 0)
            return k;
        size_t n = strlen(name);
        for (const char *a = k->aliases; *a;) {
            size_t al = strcspn(a, " ");
            if (al == n && strncmp(a, name, n) == 0)
                return k;
            a += al;
            a += *a == ' ';
        }
    }
    return NULL;
}

static int dbg_cmd_help(dbg_cli *c, int argc, char **argv)
{
    if (argc > 1) {
        const dbg_cmd *k = dbg_find_cmd(argv[1]);
        if (!k)
            return dbg_err(c, "help: no command '%s'", argv[1]);
        printf("%s %s\n", k->name, k->args);
        if (*k->aliases)
            printf("  aliases: %s\n", k->aliases);
        printf("  %s\n", k->help);
        return 0;
    }
    for (const dbg_cmd *k = dbg_cmds; k->name; k++) {
        char head[80];
        snprintf(head, sizeof head, "%s %s", k->name, k->args);
        const char *end = strstr(k->help, ". "); /* the first sentence ("0x..." is not an end) */
        int len = end ? (int)(end - k->help) : (int)strlen(k->help);
        if (!end && len && k->help[len - 1] == '.')
            len--;
        printf("  %-34s %.*s\n", head, len, k->help);
    }
    printf("`help COMMAND` tells more. Addresses: NUMBER, SYMBOL or SYMBOL+OFF; memory: [SPACE:]ADDR.\n");
    return 0;
}

static const dbg_cmd dbg_cmds[] = {
    {"step", "s si stepi", "[N]", "Execute N issues (default 1) of the selected thread, then stop. An issue is one instruction, or one bundle where the ISA issues several together (an IPU { main ; aux } pair is one step). Other threads run as the schedule dictates.", dbg_cmd_step},
    {"continue", "c cont run r", "", "Run until a breakpoint, watchpoint, fault, the end of the program or --max-cycles. Ctrl-C interrupts.", dbg_cmd_continue},
    {"until", "u", "CYCLE | ADDRESS", "Run until cycle CYCLE (a decimal number) or until the selected unit reaches ADDRESS (0x..., SYMBOL[+OFF]); `until cycle N` and `until pc ADDR` force the meaning.", dbg_cmd_until},
    {"break", "b", "ADDRESS [UNIT|GROUP] [thread N] [if REG OP VALUE]", "Set a breakpoint at ADDRESS (0x..., SYMBOL[+OFF]) in the code space, on every unit or only on UNIT (index, name or path) or the units of GROUP (`ipu0`, `col1`; a SYMBOL of a unit's own program, --image: where that program runs), for every hardware thread or only thread N, stopping only when the thread's register compares true (OP: == != < <= > >=, unsigned).", dbg_cmd_break},
    {"tbreak", "tb", "ADDRESS [UNIT|GROUP] [thread N] [if REG OP VALUE]", "Set a temporary breakpoint: deleted when first hit.", dbg_cmd_break},
    {"delete", "d", "[ID | wID]", "Delete breakpoint ID, watchpoint wID, or (no argument) every breakpoint and watchpoint.", dbg_cmd_delete},
    {"watch", "w", "[SPACE:]ADDR[,LEN] [r|w|rw] [UNIT|GROUP] [thread N] [if REG OP VALUE]", "Stop after an instruction, or a device or DMA engine, reads (r), writes (w, the default) or accesses (rw) LEN address units at ADDR of SPACE (default: the data space); only for accesses of UNIT or of GROUP's units, of hardware thread N, and when the thread's register compares true (the stop names a device's or DMA's source).", dbg_cmd_watch},
    {"regs", "reg registers", "[NAME | GROUP]", "Show the selected thread's registers (vectors as 32-bit lanes), or one register or group.", dbg_cmd_regs},
    {"set", "", "REGISTER VALUE[,VALUE...]", "Write a register of the selected thread; a vector takes one value per 32-bit lane, or one value for all lanes.", dbg_cmd_set},
    {"x", "mem", "[SPACE:]ADDR [COUNT]", "Show COUNT (default 8) memory words in hex, from ADDR of SPACE (default: the data space).", dbg_cmd_x},
    {"disasm", "dis list l x/i", "[ADDRESS] [COUNT]", "Disassemble COUNT (default 8) instructions from ADDRESS (default: the selected thread's PC, marked =>; * marks breakpoints), decoded as the selected thread decodes them (its context: the IPU's supervisor and workers differ).", dbg_cmd_disasm},
    {"thread", "t", "[N | UNIT.THREAD]", "Select a hardware thread: N counts all threads of all units in order (with one thread per unit N is the unit), or UNIT.THREAD (UNIT a name, an index or a path: ipu0.tile5.3).", dbg_cmd_thread},
    {"unit", "", "[PATH | N]", "Select a unit by its path (`ipu0.tile5`, `col1.uc5`), name or index (its thread 0, or the thread selected there before); alone: show the selected unit's path.", dbg_cmd_unit},
    {"threads", "", "[PATH]", "List every hardware thread (or only a group's or a unit's: `threads ipu0`, `threads col1.uc5`): unit, thread, state, PC, instructions retired and the ISA's view of its state.", dbg_cmd_threads},
    {"cycle", "cycles", "", "Show the current cycle and the instructions retired.", dbg_cmd_cycle},
    {"stats", "", "", "Show the run statistics (cycles, instructions, IPC, stalls, ISA counters).", dbg_cmd_stats},
    {"history", "hist", "[N | on | off]", "Show the last N (default 10) instructions executed, by any thread, with cycle and disassembly; `history on` also records them while running (slower), `off` only while stepping (the default).", dbg_cmd_history},
    {"info", "i", "[TOPIC]", "Show breakpoints (`info break`) or an ISA view (dma, cache...); `info` alone lists the topics.", dbg_cmd_info},
    {"print", "p", "OPERAND", "Print a value: NUMBER, SYMBOL, $REG (or reg NAME, $VEC[LANE]), mem [SPACE:]ADDR, cycle, pc, instructions.", dbg_cmd_print},
    {"assert", "", "OPERAND OP OPERAND | stop KIND", "Check a condition (OP: == != < <= > >=; operands as for print) or the last stop (halted, breakpoint, fault...); a failure makes the exit status 1.", dbg_cmd_assert},
    {"source", "", "FILE", "Execute the commands in FILE.", dbg_cmd_source},
    {"echo", "", "TEXT", "Print TEXT (for scripts).", dbg_cmd_echo},
    {"help", "h ?", "[COMMAND]", "List the commands, or describe one.", dbg_cmd_help},
    {"quit", "q exit", "", "Leave the debugger (exit status 0 unless an assert failed).", dbg_cmd_quit},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- reading commands ---- */

static int dbg_exec_line(dbg_cli *c, char *line)
{
    char *argv[DBG_MAX_ARGS];
    int argc = 0;
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && argc < DBG_MAX_ARGS; tok = strtok(NULL, " \t\r\n"))
        argv[argc++] = tok;
    if (!argc)
        return 0;
    const dbg_cmd *k = dbg_find_cmd(argv[0]);
    if (!k)
        return dbg_err(c, "unknown command '%s' (`help` lists them)", argv[0]);
    int rc = k->fn(c, argc, argv);
    fflush(stdout);
    return rc;
}

/* Script mode: echo each command after the prompt; errors are reported and the script goes on. */
static int dbg_run_file(dbg_cli *c, FILE *f)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (!c->quit && getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = 0;
        const char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        printf("(xpusim) %s\n", p);
        if (dbg_exec_line(c, line))
            rc = -1;
    }
    free(line);
    return rc;
}

static char *dbg_complete_gen(const char *text, int state)
{
    /* readline calls with state 0 first, then increasing: resume a walk over commands,
     * registers and symbols (static because readline gives the generator no context) */
    static int phase, idx;
    size_t n = strlen(text);
    dbg_cli *c = dbg_rl_ctx;
    if (!state)
        phase = idx = 0;
    if (!state && strspn(rl_line_buffer, " \t") < (size_t)rl_point - n) /* not the first word */
        phase = 1;
    if (phase == 0) {
        for (; dbg_cmds[idx].name; idx++)
            if (strncmp(dbg_cmds[idx].name, text, n) == 0)
                return strdup(dbg_cmds[idx++].name);
        return NULL;
    }
    if (phase == 1) {
        for (; c && idx < c->isa->nregs; idx++)
            if (strncasecmp(c->isa->regs[idx].name, text, n) == 0)
                return strdup(c->isa->regs[idx++].name);
        phase = 2;
        idx = 0;
    }
    for (; c && idx < c->s->img.nsyms; idx++) {
        const char *name = c->s->img.syms[idx].name;
        if (name && *name && strncmp(name, text, n) == 0)
            return strdup(c->s->img.syms[idx++].name);
    }
    return NULL;
}

static char **dbg_complete(const char *text, int start, int end)
{
    (void)start, (void)end;
    rl_attempted_completion_over = 1; /* no file-name fallback */
    return rl_completion_matches(text, dbg_complete_gen);
}

/* While readline waits for a key: keep the framebuffer window alive (redraws, close). */
static int dbg_rl_idle(void)
{
    dbg_cli *c = dbg_rl_ctx;
    if (c && c->view && view_update(c->view, c->m) < 0) {
        view_close(c->view); /* the user closed it; the session goes on */
        c->view = NULL;
    }
    return 0;
}

static void dbg_interactive(dbg_cli *c)
{
    dbg_rl_ctx = c;
    rl_readline_name = "xpusim";
    rl_attempted_completion_function = dbg_complete;
    if (c->view) {
        rl_event_hook = dbg_rl_idle;
        rl_set_keyboard_input_timeout(50000); /* call the hook every 50 ms while idle */
    }
    char last[512] = "";
    while (!c->quit) {
        char *line = readline("(xpusim) ");
        if (!line) {
            printf("\n");
            break;
        }
        char buf[512];
        if (!line[strspn(line, " \t")]) {
            snprintf(buf, sizeof buf, "%s", last); /* empty line repeats a step */
        } else {
            add_history(line);
            snprintf(buf, sizeof buf, "%s", line);
            const dbg_cmd *k = dbg_find_cmd(strtok(line, " \t"));
            snprintf(last, sizeof last, "%s", k && k->fn == dbg_cmd_step ? buf : "");
        }
        free(line);
        dbg_exec_line(c, buf);
    }
    rl_event_hook = NULL;
    dbg_rl_ctx = NULL;
}

int dbg_cli_main(cli_session *s)
{
    dbg_cli c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.m = &s->m;
    c.isa = s->isa;
    c.rc = cli_runctl(s);
    c.rc->interactive = 1;
    c.rc->ff_stop = 1; /* --fast-forward: the switch is a stop, to look at the machine there */
    c.next_watch_id = 1;
    if (!c.m->nunits) {
        fprintf(stderr, "xpusim debug: the machine has no units\n");
        return 1;
    }
    if (dbg_attach(c.m)) {
        fprintf(stderr, "xpusim debug: out of memory\n");
        return 1;
    }
    /* the history is recorded while stepping; through `continue` only after `history on`
     * (every instruction then goes through the hooks, as slow as a trace) so that unhit
     * breakpoints keep the ISA's fast path */
    dbg_update_slow(c.m);
    if (cli_code_symbols(s)) {
        fprintf(stderr, "xpusim debug: out of memory\n");
        return 1;
    }
    /* start on the first thread that runs */
    for (int u = c.m->nunits - 1; u >= 0; u--)
        for (int t = c.m->units[u].nthreads - 1; t >= 0; t--)
            if (dbg_thread_live(c.m, u, t))
                c.unit = u, c.thread = t;
    const char *script = s->args ? s->args->script : NULL;
    c.interactive = !script && isatty(STDIN_FILENO);
    dbg_set_sigint(&c, 0);
    printf("xpusim debugger: %s on %s, %d unit(s) x %d thread(s); `help` lists the commands\n",
           s->img.path[0] ? s->img.path : "(no program)", c.isa->name, c.m->nunits, c.m->units[0].nthreads);
    if (script) {
        char err[512];
        FILE *f = file_open_read(script, FILE_MAX_INPUT, err, sizeof err);
        if (!f) {
            fprintf(stderr, "xpusim debug: script %s\n", err);
            return 1;
        }
        dbg_run_file(&c, f);
        fclose(f);
    } else if (c.interactive) {
        /* on a terminal with a display, the ISA's framebuffer shows in a window that follows
         * every stop (scripts stay headless: they are for batch runs and tests) */
        if (s->args && !s->args->headless && getenv("DISPLAY"))
            c.view = view_open(c.m);
        dbg_interactive(&c);
        view_close(c.view);
    } else {
        dbg_run_file(&c, stdin);
    }
    signal(SIGINT, SIG_DFL);
    dbg_sigint_machine = NULL;
    if (c.ran)
        runctl_finish(c.rc);
    fflush(stdout);
    if (c.assert_failed)
        return 1;
    if (c.quit_explicit || !c.ran)
        return 0;
    /* the end of a script: the program's own end decides; stops the debugger asked for
     * (breakpoint, watchpoint, step, until, Ctrl-C) are not failures */
    switch (c.last_stop) {
    case SIM_STOP_BREAK:
    case SIM_STOP_WATCH:
    case SIM_STOP_STEP:
    case SIM_STOP_USER:
    case SIM_STOP_MARKER: /* a fast-forward's marker: a stop like a breakpoint's */
        return 0;
    default:
        return sim_stop_exit_code(c.last_stop);
    }
}
