/* frontends/debugger.h: what the two halves of the debugger share (not a library API).
 * debugger.c holds the session: reading commands, the command table, running and stop
 * reports, breakpoints and watchpoints, address parsing and code display. debugger_views.c
 * holds the commands that show or check machine state (registers, memory, disassembly,
 * threads, history, info, print, assert). Both work on one dbg_cli, the state of one
 * `xpusim debug` call. */
#ifndef XPUSIM_DEBUGGER_H
#define XPUSIM_DEBUGGER_H
#include "cli.h"
#include "../core/debug.h"

typedef struct dbg_cli {
    cli_session *s;
    sim_machine *m;
    const isa_ops *isa;
    int unit, thread;     /* the selected hardware thread */
    int interactive;
    int quit, quit_explicit;
    int assert_failed;
    int ran;              /* a run happened: last_stop is meaningful */
    int finished;         /* isa->finish has run (it drains output: once per session) */
    sim_stop_kind last_stop;
    int depth;
    int next_watch_id;    /* watch ids are unique across spaces (see dbg_cmd_watch) */
    runctl *rc;           /* the session's run control (core/runctl.h): limit, last stop seen */
    view *view;           /* the framebuffer window of an interactive session, or NULL */
} dbg_cli;

/* debugger.c: helpers. dbg_err prints "error: ..." (after flushing stdout) and returns -1. */
int dbg_err(dbg_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int dbg_parse_s64(const char *t, uint64_t *v);          /* [-]NUMBER */
int dbg_flat_count(const sim_machine *m);               /* threads of all units */
int dbg_flat_index(const sim_machine *m, int unit, int thread);
int dbg_parse_unit(const sim_machine *m, const char *t); /* index, name or path; -1 if none */
int dbg_resolve_mem(dbg_cli *c, const char *text, mem_space **sp, uint64_t *addr);
void dbg_symbolize(dbg_cli *c, uint64_t addr, char *buf, size_t n); /* "<sym+off>" or "" */
/* The same in unit's program (dbg_symbolize: the selected unit's). */
void dbg_symbolize_unit(dbg_cli *c, int unit, uint64_t addr, char *buf, size_t n);
/* The code symbol at or below a code address, NULL if none. */
const char *dbg_code_symbol_at(dbg_cli *c, uint64_t addr, uint64_t *off);
/* A code address: NUMBER, SYMBOL or SYMBOL+OFF (OFF in the PC's units). -1 with err. */
int dbg_resolve_code(dbg_cli *c, const char *text, uint64_t *addr, char *err, size_t errlen);
int dbg_disasm_one(dbg_cli *c, int unit, int thread, uint64_t addr, char *text, size_t n);
/* (dbg_print_insn shows the instruction as the selected thread decodes it) */
int dbg_print_insn(dbg_cli *c, int unit, uint64_t addr, uint64_t pc);
uint64_t dbg_pc(dbg_cli *c, int unit, int thread);
void dbg_print_where(dbg_cli *c);                        /* the selected thread's next insn */
uint64_t dbg_now(const sim_machine *m);                  /* the cycle the user sees */
void dbg_info_break(dbg_cli *c);

/* debugger_break.c: breakpoint and watchpoint commands. */
int dbg_cmd_break(dbg_cli *c, int argc, char **argv);
void dbg_break_where(dbg_cli *c, const dbg_break *b, char *buf, size_t n);
int dbg_cmd_watch(dbg_cli *c, int argc, char **argv);
int dbg_cmd_delete(dbg_cli *c, int argc, char **argv);

/* debugger_views.c: command handlers (argv[0] is the command name). */
int dbg_cmd_regs(dbg_cli *c, int argc, char **argv);
int dbg_cmd_set(dbg_cli *c, int argc, char **argv);
int dbg_cmd_x(dbg_cli *c, int argc, char **argv);
int dbg_cmd_disasm(dbg_cli *c, int argc, char **argv);
int dbg_cmd_thread(dbg_cli *c, int argc, char **argv);
int dbg_cmd_threads(dbg_cli *c, int argc, char **argv);
int dbg_cmd_unit(dbg_cli *c, int argc, char **argv);
int dbg_cmd_units(dbg_cli *c, int argc, char **argv);
/* The machine's groups > units tree (`info units`, GDB's `monitor units`). */
void dbg_write_units(const sim_machine *m, FILE *f);
int dbg_cmd_cycle(dbg_cli *c, int argc, char **argv);
int dbg_cmd_stats(dbg_cli *c, int argc, char **argv);
int dbg_cmd_history(dbg_cli *c, int argc, char **argv);
int dbg_cmd_info(dbg_cli *c, int argc, char **argv);
int dbg_cmd_print(dbg_cli *c, int argc, char **argv);
int dbg_cmd_assert(dbg_cli *c, int argc, char **argv);

#endif
