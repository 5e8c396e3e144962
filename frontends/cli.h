/* frontends/cli.h: what the xpusim subcommands share: the parsed command line, building a
 * machine from a program file, host-protocol transfers (--load/--dump/--set/--get), frame
 * output and the end-of-run report. Frontends see ISAs only through isa_ops. */
#ifndef XPUSIM_CLI_H
#define XPUSIM_CLI_H
#include <stdio.h>
#include "../core/sim.h"
#include "../core/runctl.h"
#include "../isa/isa.h"
#include "../loaders/loader.h"

/* the most bytes one --get/--gather transfer may move (a host buffer is allocated for it) */
#define CLI_MAX_TRANSFER (1ULL << 30)

/* A repeatable option's values, in command-line order (as many as the command line holds;
 * freed by cli_args_free). */
typedef struct cli_list {
    const char **v;
    int n, cap;
} cli_list;

typedef struct cli_args {
    const char *cmd;
    const char *program;
    const char *isa_name;
    sim_opts opts;
    cli_list loads;    /* SPACE:ADDR=FILE */
    cli_list dumps;    /* SPACE:ADDR:COUNT[=FILE] */
    cli_list sets;     /* [@U:]SYMBOL[+OFF]=FILE */
    cli_list gets;     /* [@U:]SYMBOL[+OFF][:LEN][=FILE] */
    cli_list scatters; /* SYMBOL[+OFF]=FILE[:CHUNK]: chunk k to unit k */
    cli_list gathers;  /* SYMBOL[+OFF]:LEN[=FILE]: every unit's LEN bytes */
    cli_list symbols;  /* PATH=FILE: FILE's symbols name a unit's or group's addresses (issue 11 pt 1) */
    cli_list images;   /* PATH=FILE: FILE is the program of a unit, or of every unit of a group */
    cli_list srcs;     /* asm sources */
    const char *output;               /* asm -o */
    uint64_t max_cycles;              /* SIM_NEVER = none */
    uint64_t max_insns;
    int stats_json;
    const char *stats_file;
    const char *trace;
    uint64_t tr_from, tr_to;          /* --trace-window FROM:TO (cycles [FROM, TO)); 0:0 = all */
    uint64_t tr_lo, tr_hi;            /* --trace-pc LO:HI (pcs [LO, HI)); 0:0 = all */
    const char *trace_cosim;
    const char *profile;              /* --profile FILE (callgrind format) */
    int profile_threads;              /* --profile-threads: also FILE-N per hardware thread */
    const char *timeline;             /* --timeline FILE (Chrome/Perfetto trace events) */
    uint64_t tl_from, tl_to, tl_sample; /* --timeline-window FROM:TO, --timeline-sample N */          /* ISA option cosim=FILE, for ISAs that declare it */
    const char *frame_dump;
    const char *mem_hash;             /* --mem-hash FILE: every memory region's hash after the run */
    const char *fast_forward;         /* --fast-forward MARKER (frontends/fastforward.c) */
    const char *script;               /* debug -x */
    const char *host_file;            /* --vertex FILE: the ISA builds the run (isa_ops.host_file) */
    const char *listen;               /* gdbserver --port N | --listen HOST:PORT */
    int headless, quiet, wait_window;
    int progress;       /* --progress: report progress even when stderr is not a terminal */
    const char *version; /* this build (`xpusim --version`), for the statistics */
} cli_args;

/* Free what parsing the command line allocated (the repeatable options' lists). */
void cli_args_free(cli_args *a);

/* A symbol placed in the code space, in the PC's units (see cli_code_symbols). */
typedef struct cli_csym {
    const char *name;
    uint64_t addr;
} cli_csym;

typedef struct cli_session {
    cli_args *args;
    ld_image img;
    const isa_ops *isa;
    sim_machine m;
    int have_machine;
    cli_csym *csyms;      /* code symbols when the ISA places symbols (else NULL: raw values) */
    int ncsyms;
    runctl rc;            /* the run control every subcommand runs the machine through */
    ld_image *uimgs;      /* --image, --symbols PATH=FILE: the files, one per option, freed at close */
    int nuimgs;
} cli_session;

/* Load the program, pick the ISA, build the machine, apply --load/--set and --trace.
 * Prints the error and returns -1 on failure. */
int cli_session_open(cli_session *s, cli_args *a);
/* The session's run control, set up on first use (a session built by hand, as tests and
 * the fuzz harnesses do, gets it too). */
runctl *cli_runctl(cli_session *s);
void cli_session_close(cli_session *s);

int cli_apply_loads(cli_session *s);
int cli_apply_outputs(cli_session *s);      /* --dump and --get */
int cli_write_frame(sim_machine *m, const char *path); /* PPM (P6) */
/* One line per RAM/ROM region of every space: "SPACE REGION BASE SIZE HASH", the hash an
 * FNV-1a 64 of the region's bytes (a whole-memory fingerprint for regression checks). */
int cli_write_mem_hash(const sim_machine *m, const char *path);
/* Stop line, statistics and host speed; to the stats file if given, else stderr. */
int cli_report(cli_session *s);
/* Parse "NUMBER" (decimal or 0x) fully; -1 if malformed. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Output files: open for writing ("xpusim: WHAT PATH: reason" on failure), and close with
 * every write, flush and close error reported as "xpusim: PATH: reason". -1 on error. */
FILE *cli_open_out(const char *path, const char *what);
int cli_close_out(FILE *f, const char *path);
/* Resolve a debugger/CLI address: number, SYMBOL or SYMBOL+OFF. -1 with a message. */
int cli_resolve_addr(cli_session *s, const char *text, uint64_t *addr, char *err, size_t errlen);
/* The same with the symbols that name unit's addresses (cli_unit_image). */
int cli_unit_resolve_addr(cli_session *s, int unit, const char *text, uint64_t *addr, char *err, size_t errlen);
/* The program whose symbols name unit's addresses: its own (--image, --symbols), its
 * group's, else the machine's (sim_unit_image); never NULL. */
const ld_image *cli_unit_image(const cli_session *s, int unit);

/* Symbols are ELF values; an ISA whose PC does not count in those units (DPU: IRAM index vs
 * byte address) places them through symbol_location. cli_code_symbols keeps those that land
 * in the code space, in PC units, so PCs are named by code symbols only. 0 ok, -1 no memory. */
int cli_code_symbols(cli_session *s);
/* Name of the code symbol at or below addr (offset in *off), or NULL. */
const char *cli_code_symbol_at(const cli_session *s, uint64_t addr, uint64_t *off);
/* The same in unit's own program (cli_unit_image), when it has one (raw symbol values). */
const char *cli_unit_code_symbol_at(const cli_session *s, int unit, uint64_t addr, uint64_t *off);
/* --fast-forward MARKER (frontends/fastforward.c). cli_ff_prepare, before the machine is
 * built: checks the ISA has a functional mode and sets -o timing=none; cli_ff_arm, after
 * the load: arms the session's run control at the marker (SYMBOL[+OFF], insns:N, magic);
 * cli_run: runctl_run, which switches to the cycle model at the marker (core/runctl.h);
 * cli_ff_finish, after the run: a marker never reached is recorded (the whole run
 * functional) and reported. Each returns -1 after printing an error. */
int cli_ff_prepare(cli_args *a, const isa_ops *isa);
int cli_ff_arm(cli_session *s);
sim_stop_kind cli_run(cli_session *s, uint64_t until);
int cli_ff_finish(cli_session *s);
/* Write a per-PC profile (callgrind format) of the run; see core/profile.h. */
int cli_write_profile(cli_session *s, const char *path);

/* Subcommands implemented in their own files. */
int dbg_cli_main(cli_session *s);           /* frontends/debugger.c */
/* GDB remote protocol server on listen_spec ("PORT", "HOST:PORT"; NULL: 127.0.0.1:1234). */
int gdb_serve(cli_session *s, const char *listen_spec); /* frontends/gdbstub.c */
/* Serve one connected GDB client on fd (closed at the end): the stub without the socket
 * set-up, for tests and the fuzz harness. 0 ok, 1 error. */
int gdb_serve_fd(cli_session *s, int fd);

/* Optional SDL2 window (frontends/view.c); all are no-ops without SDL or a display. SDL2 is
 * loaded (dlopen) by view_open, not linked; a library that cannot be loaded is reported on
 * stderr and the run goes on headless. */
#define VIEW_SDL_SONAME "libSDL2-2.0.so.0"
typedef struct view view;
view *view_open(sim_machine *m);
/* view_open with the library named (tests name one that does not exist). */
view *view_open_lib(sim_machine *m, const char *soname);
/* Refresh from the machine's framebuffer; returns 0, or -1 when the user closed the window. */
int view_update(view *v, sim_machine *m);
void view_wait_close(view *v);
void view_close(view *v);
#endif
