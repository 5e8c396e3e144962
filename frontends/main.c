/* frontends/main.c: the xpusim command line: run, debug, asm, disasm, info, isas.
 * Parses options into cli_args and dispatches; the work lives in session.c (machine and
 * host transfers), debugger.c and view.c. Exit status: 0 on a clean halt, 1 on bad input
 * or host errors, 2 on a simulated fault or illegal instruction, 3 on a limit or deadlock. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "report.h"
#include "stats_diff.h"
#include "timeline.h"
#include "../core/debug.h"
#include "../core/stats.h"
#include "../core/file.h"
#include "../core/grow.h"
/* $(BUILD)/version.h, made by the Makefile for this file; builds that include this file
 * elsewhere (the fuzz harness of the parser, clang's checks) do without it */
#if defined(__has_include)
#if __has_include("version.h")
#include "version.h"
#endif
#endif
#ifndef XPUSIM_VERSION
#define XPUSIM_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fputs("usage:\n"
          "  xpusim run PROGRAM [options]       run to completion: program output, then a summary\n"
          "  xpusim debug PROGRAM [-x SCRIPT]   interactive debugger (-x: commands from a file)\n"
          "  xpusim run|debug|gdbserver --vertex FILE  a host file instead of PROGRAM: the ISA\n"
          "                                     builds the run it describes (IPU: a vertex file,\n"
          "                                     docs/isa/ipu.md \"Running a vertex\")\n"
          "  xpusim gdbserver PROGRAM [--port N | --listen HOST:PORT]  GDB remote server\n"
          "                                     (default 127.0.0.1:1234; --port 0 picks a free port)\n"
          "  xpusim asm --isa NAME [-c] [-I DIR] SRC... -o OUT   (-c: a relocatable object)\n"
          "  xpusim disasm PROGRAM [--isa NAME] [-o KEY=VALUE]   (options that decide decoding: IPU arch)\n"
          "  xpusim stats diff A.json B.json   what changed between two runs' --stats=json files\n"
          "  xpusim report STATS.json [-o OUT.html] [--profile FILE]   one HTML page: where the cycles go\n"
          "  xpusim info PROGRAM [--isa NAME]   ISA, entry, segments, sections, symbols\n"
          "  xpusim isas                        list ISAs and their -o options\n"
          "  xpusim --version                   the commit this xpusim was built from\n"
          "options:\n"
          "  --isa NAME               ISA (default: recognised from the program)\n"
          "  -o KEY=VALUE             machine option (see `xpusim isas`)\n"
          "  --load SPACE:ADDR=FILE   write FILE into memory before the run (.txt: decimal words)\n"
          "  --dump SPACE:ADDR:COUNT[=FILE]  print COUNT words after the run (or write them raw LE)\n"
          "  --set [@U:]SYMBOL[+OFF]=FILE  write FILE's bytes at a symbol before the run\n"
          "                           (in every unit, or only unit U)\n"
          "  --get [@U:]SYMBOL[+OFF][:LEN][=FILE]  print (or write) a symbol's bytes after the run\n"
          "  --scatter SYMBOL[+OFF]=FILE[:CHUNK]  FILE in CHUNK-byte slices, slice k to unit k\n"
          "  --gather SYMBOL[+OFF]:LEN[=FILE]     LEN bytes of every unit, unit 0 first\n"
          "  --symbols PATH=FILE      FILE's symbols name the addresses of unit or group PATH\n"
          "                           (ipu0.tile5, col1): --set/--get @U: look there first\n"
          "  --image PATH=FILE        FILE is the program of unit PATH, or of every unit of group\n"
          "                           PATH (an IPU tile's ELF, a CERT uC's control code); its\n"
          "                           symbols name those units' addresses\n"
          "  --max-cycles N           stop after cycle N      --max-insns N  stop after N instructions\n"
          "  --stats=text|json        statistics format       --stats-file FILE  write them to FILE\n"
          "  --trace FILE             instruction trace ('-' = stdout); --trace-window FROM:TO\n"
          "                           traces cycles FROM to TO-1 only (the rest runs at full\n"
          "                           speed), --trace-pc LO:HI the pcs LO to HI-1 only\n"
          "  --profile FILE           per-PC instructions, cycles and stalls by cause, callgrind format\n"
          "                           (kcachegrind, callgrind_annotate)\n"
          "  --profile-threads        with --profile: FILE-01, FILE-02... one per hardware thread, no FILE\n"
          "  --trace-cosim FILE       reference cosimulation event stream (ISAs that have one: nyuzi)\n"
          "  --frame-dump FILE.ppm    write the framebuffer after the run\n"
          "  --fast-forward MARKER    run functionally (-o timing=none) up to MARKER, then with the\n"
          "                           cycle model: SYMBOL[+OFF] (a thread reaches it), insns:N (N\n"
          "                           instructions retired in all) or magic (the ISA's marker\n"
          "                           instruction); the statistics report both parts apart;\n"
          "                           with debug and gdbserver the run stops at the switch\n"
          "  --mem-hash FILE          after the run, one line per memory region: space, region,\n"
          "                           base, size, FNV-1a 64 hash of its bytes (regression checks)\n"
          "  --timeline FILE.json     every hardware thread's running and stalled slices, as trace\n"
          "                           events for ui.perfetto.dev or chrome://tracing; each unit's IPC\n"
          "                           and counters every --timeline-sample N cycles (10000);\n"
          "                           --timeline-window FROM:TO keeps those cycles only\n"
          "  --headless               no window              --quiet  no summary, no progress line\n"
          "  --progress               progress every 0.5 s even when stderr is not a terminal (else a\n"
          "                           terminal shows one updating line once a run takes 2 s)\n",
          f);
}

/* Option NAME with a value, as "NAME VALUE" or "NAME=VALUE". 1 taken, 0 not this option,
 * -1 missing value (reported). */
static int take(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *o = argv[*i];
    size_t n = strlen(name);
    if (strcmp(o, name) == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "xpusim: %s needs a value\n", name);
            return -1;
        }
        *val = argv[++*i];
        return 1;
    }
    if (strncmp(o, name, n) == 0 && o[n] == '=') {
        *val = o + n + 1;
        return 1;
    }
    return 0;
}

static int add_xfer(cli_list *l, const char *v, const char *opt)
{
    const char **nv = grow_array_int(l->v, &l->cap, l->n + 1, sizeof *nv, 16);
    if (!nv) {
        fprintf(stderr, "xpusim: out of memory for %s options\n", opt);
        return -1;
    }
    l->v = nv;
    l->v[l->n++] = v;
    return 0;
}

/* FROM:TO, FROM below TO (a half-open range), for --timeline-window, --trace-window and
 * --trace-pc. 0 ok, -1 reported. */
static int parse_range(const char *opt, const char *val, const char *what, uint64_t *from, uint64_t *to)
{
    char lo[32];
    const char *colon = strchr(val, ':');
    size_t n = colon ? (size_t)(colon - val) : 0;
    if (!colon || n >= sizeof lo) {
        fprintf(stderr, "xpusim: %s '%s': expected FROM:TO (%s)\n", opt, val, what);
        return -1;
    }
    memcpy(lo, val, n);
    lo[n] = 0;
    if (cli_parse_u64(lo, from) || cli_parse_u64(colon + 1, to) || *from >= *to) {
        fprintf(stderr, "xpusim: %s '%s': expected FROM:TO (%s), FROM below TO\n", opt, val, what);
        return -1;
    }
    return 0;
}

/* 0: parsed; 1: help printed, nothing to do; -1: an error, reported on stderr. */
static int parse_args(int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    opt_init(&a->opts);
    a->max_cycles = SIM_NEVER;
    a->cmd = argv[1];
    static const char *const valued[] = {"--isa", "-o", "--load", "--dump", "--set", "--get", "--scatter",
                                         "--gather", "--symbols", "--image", "--max-cycles",
                                         "--max-insns", "--stats", "--stats-file", "--trace", "--trace-window", "--trace-pc", "--trace-cosim", "--profile", "--timeline", "--timeline-window", "--timeline-sample", "--frame-dump", "--mem-hash", "--fast-forward", "-x", "-I",
                                         "--port", "--listen", "--vertex", NULL};
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *val = NULL;
        int k = 0, r = 0;
        for (; valued[k] && !(r = take(argc, argv, &i, valued[k], &val)); k++)
            ;
        if (r < 0)
            return -1;
        const char *name = valued[k];
        /* the repeatable host-transfer options, each collected in order */
        const struct {
            const char *opt;
            cli_list *list;
        } xfers[] = {{"--load", &a->loads},       {"--dump", &a->dumps},     {"--set", &a->sets},
                     {"--get", &a->gets},         {"--scatter", &a->scatters}, {"--gather", &a->gathers},
                     {"--symbols", &a->symbols}, {"--image", &a->images}};
        cli_list *xfer = NULL;
        for (size_t x = 0; name && x < sizeof xfers / sizeof xfers[0]; x++)
            if (strcmp(name, xfers[x].opt) == 0)
                xfer = xfers[x].list;
        if (!name) {
            if (strcmp(o, "--headless") == 0)
                a->headless = 1;
            else if (strcmp(o, "--progress") == 0)
                a->progress = 1;
            else if (strcmp(o, "--profile-threads") == 0)
                a->profile_threads = 1;
            else if (strcmp(o, "--quiet") == 0 || strcmp(o, "-q") == 0)
                a->quiet = 1;
            else if (strcmp(o, "-c") == 0 && strcmp(a->cmd, "asm") == 0) {
                if (opt_set(&a->opts, "object", "1")) { /* an object file, not a linked image */
                    fprintf(stderr, "xpusim: -c: too many -o options (at most %d)\n", OPT_MAX);
                    return -1;
                }
            }
            else if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
                usage(stdout);
                return 1; /* done: the caller exits 0 (never exit() here: the parser is fuzzed in-process) */
            } else if (o[0] == '-' && o[1]) {
                fprintf(stderr, "xpusim: unknown option '%s' (try xpusim --help)\n", o);
                return -1;
            } else if (strcmp(a->cmd, "asm") == 0) {
                if (add_xfer(&a->srcs, o, "source"))
                    return -1;
            } else if (!a->program)
                a->program = o;
            else {
                fprintf(stderr, "xpusim: unexpected argument '%s'\n", o);
                return -1;
            }
            continue;
        }
        if (strcmp(name, "--isa") == 0)
            a->isa_name = val;
        else if (strcmp(name, "-o") == 0) {
            if (strcmp(a->cmd, "asm") == 0 && !strchr(val, '=')) {
                a->output = val; /* asm -o OUT */
            } else if (opt_parse(&a->opts, val)) {
                fprintf(stderr, "xpusim: -o '%s': expected KEY=VALUE\n", val);
                return -1;
            }
        } else if (xfer) {
            if (add_xfer(xfer, val, name))
                return -1;
        } else if (strcmp(name, "--max-cycles") == 0 || strcmp(name, "--max-insns") == 0) {
            uint64_t *dst = name[6] == 'c' ? &a->max_cycles : &a->max_insns;
            if (cli_parse_u64(val, dst)) {
                fprintf(stderr, "xpusim: %s '%s': expected a number\n", name, val);
                return -1;
            }
        } else if (strcmp(name, "--stats") == 0) {
            if (strcmp(val, "json") && strcmp(val, "text")) {
                fprintf(stderr, "xpusim: --stats=%s: expected text or json\n", val);
                return -1;
            }
            a->stats_json = strcmp(val, "json") == 0;
        } else if (strcmp(name, "--stats-file") == 0)
            a->stats_file = val;
        else if (strcmp(name, "--trace") == 0)
            a->trace = val;
        else if (strcmp(name, "--frame-dump") == 0)
            a->frame_dump = val;
        else if (strcmp(name, "--mem-hash") == 0)
            a->mem_hash = val;
        else if (strcmp(name, "--fast-forward") == 0)
            a->fast_forward = val;
        else if (strcmp(name, "-x") == 0)
            a->script = val;
        else if (strcmp(name, "--vertex") == 0)
            a->host_file = val;
        else if (strcmp(name, "--trace-cosim") == 0)
            a->trace_cosim = val;
        else if (strcmp(name, "--profile") == 0)
            a->profile = val;
        else if (strcmp(name, "--timeline") == 0)
            a->timeline = val;
        else if (strcmp(name, "--timeline-window") == 0) {
            if (parse_range(name, val, "cycles", &a->tl_from, &a->tl_to))
                return -1;
        } else if (strcmp(name, "--trace-window") == 0) {
            if (parse_range(name, val, "cycles", &a->tr_from, &a->tr_to))
                return -1;
        } else if (strcmp(name, "--trace-pc") == 0) {
            if (parse_range(name, val, "addresses in the code space", &a->tr_lo, &a->tr_hi))
                return -1;
        } else if (strcmp(name, "--timeline-sample") == 0) {
            if (cli_parse_u64(val, &a->tl_sample) || a->tl_sample == 0 || a->tl_sample > (1ull << 40)) {
                fprintf(stderr, "xpusim: --timeline-sample '%s': expected a number of cycles, 1..2^40\n", val);
                return -1;
            }
        }
        else if (strcmp(name, "-I") == 0) {
            /* asm: an extra include directory, passed to the ISA's assembler as -o include= */
            if (opt_set(&a->opts, "include", val)) {
                fprintf(stderr, "xpusim: -I '%s': path too long\n", val);
                return -1;
            }
        }
        else if (strcmp(name, "--port") == 0 || strcmp(name, "--listen") == 0)
            a->listen = val;
    }
    if (a->profile_threads && !a->profile) {
        fprintf(stderr, "xpusim: --profile-threads needs --profile FILE\n");
        return -1;
    }
    if ((a->tr_to || a->tr_hi) && !a->trace) {
        fprintf(stderr, "xpusim: --trace-window and --trace-pc need --trace FILE\n");
        return -1;
    }
    return 0;
}

/* One line per declared option: name=default, its type and range, and what it does. */
static void print_options(const opt_desc *o)
{
    for (; o && o->name; o++) {
        char type[96];
        opt_describe(o, type, sizeof type);
        const char *def = o->def ? o->def : "";
        int pad = 24 - (int)(strlen(o->name) + strlen(def));
        printf("    -o %s=%s%*s%s (%s)\n", o->name, def, pad > 0 ? pad : 1, "", o->help, type);
    }
}

static int cmd_isas(void)
{
    for (int i = 0; i < isa_count(); i++) {
        const isa_ops *isa = isa_at(i);
        printf("%-8s %s\n", isa->name, isa->description);
        print_options(isa->options);
        if (isa->asm_options) {
            printf("  xpusim asm --isa %s:\n", isa->name);
            print_options(isa->asm_options);
        }
    }
    printf("every ISA\n");
    print_options(sim_core_options);
    return 0;
}

/* info and disasm work on the file alone: load it and name its ISA (--isa, else probing;
 * NULL when nothing recognises it). */
static int load_listing(cli_args *a, ld_image *img, const isa_ops **isa)
{
    char err[512];
    if (ld_load(a->program, img, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    *isa = a->isa_name ? isa_find(a->isa_name) : isa_probe(img);
    if (a->isa_name && !*isa) {
        fprintf(stderr, "xpusim: unknown ISA '%s'\n", a->isa_name);
        ld_free(img);
        return -1;
    }
    return 0;
}

static int cmd_info(cli_args *a)
{
    ld_image img;
    const isa_ops *isa;
    if (load_listing(a, &img, &isa))
        return 1;
    printf("file: %s (%zu bytes)\nformat: %s\nisa: %s\n", img.path, img.file_size, ld_format_name(img.fmt),
           isa ? isa->name : "unknown (use --isa)");
    if (img.fmt == LD_ELF) {
        printf("elf: class %s, %s-endian, e_machine %u, e_flags 0x%x\nentry: 0x%llx\n",
               img.elfclass == 1 ? "ELF32" : "ELF64", img.big_endian ? "big" : "little", img.machine, img.eflags,
               (unsigned long long)img.entry);
        printf("segments (%d loadable):\n", img.nsegs);
        for (int i = 0; i < img.nsegs; i++) {
            const ld_segment *s = &img.segs[i];
            printf("  vaddr 0x%08llx paddr 0x%08llx filesz 0x%06llx memsz 0x%06llx %c%c%c\n",
                   (unsigned long long)s->vaddr, (unsigned long long)s->paddr, (unsigned long long)s->filesz,
                   (unsigned long long)s->memsz, s->flags & 4 ? 'r' : '-', s->flags & 2 ? 'w' : '-',
                   s->flags & 1 ? 'x' : '-');
        }
        printf("sections:\n");
        for (int i = 0; i < img.nsecs; i++)
            if (img.secs[i].name[0])
                printf("  %-24s addr 0x%08llx size 0x%06llx\n", img.secs[i].name, (unsigned long long)img.secs[i].addr,
                       (unsigned long long)img.secs[i].size);
        printf("symbols (%d):\n", img.nsyms);
        for (int i = 0; i < img.nsyms; i++)
            if (img.syms[i].type != 3 && img.syms[i].type != 4) /* not section/file symbols */
                printf("  0x%08llx %6llu %s %s\n", (unsigned long long)img.syms[i].value,
                       (unsigned long long)img.syms[i].size,
                       img.syms[i].type == 2 ? "func" : img.syms[i].type == 1 ? "obj " : "    ", img.syms[i].name);
    } else if (img.fmt == LD_RAW) {
        printf("raw bytes: %zu\n", img.file_size);
    } else {
        printf("words: %zu\n", img.nwords);
    }
    ld_free(&img);
    return 0;
}

static int cmd_disasm(cli_args *a)
{
    char err[512];
    ld_image img;
    const isa_ops *isa;
    if (load_listing(a, &img, &isa))
        return 1;
    int rc = 0;
    if (!isa) {
        fprintf(stderr, "xpusim: %s: cannot tell the ISA; use --isa NAME\n", a->program);
        rc = 1;
    } else if (isa_check_options(isa, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        rc = 1;
    } else if (isa->disasm_image) {
        if (isa->disasm_image(&img, &a->opts, stdout, err, sizeof err)) {
            fprintf(stderr, "xpusim: %s\n", err);
            rc = 1;
        }
    } else if (img.fmt == LD_ELF && isa->disasm) {
        for (int i = 0; i < img.nsecs; i++) {
            const ld_section *s = &img.secs[i];
            if (!(s->flags & 4 /* SHF_EXECINSTR */) || !s->data)
                continue;
            printf("%s:\n", s->name);
            for (uint64_t off = 0; off < s->size;) {
                char text[160];
                int n = isa->disasm(s->addr + off, s->data + off, (size_t)(s->size - off), text, sizeof text);
                if (n <= 0)
                    break;
                uint64_t so;
                const ld_symbol *sym = ld_symbol_at(&img, s->addr + off, &so);
                if (sym && so == 0)
                    printf("%s:\n", sym->name);
                printf("  %08llx  %s\n", (unsigned long long)(s->addr + off), text);
                off += (uint64_t)n;
            }
        }
    } else {
        fprintf(stderr, "xpusim: %s cannot disassemble a %s file\n", isa->name, ld_format_name(img.fmt));
        rc = 1;
    }
    ld_free(&img);
    return rc;
}

static int cmd_asm(cli_args *a)
{
    if (!a->isa_name || !a->srcs.n || !a->output) {
        fprintf(stderr, "xpusim asm: usage: xpusim asm --isa NAME [-I DIR] SRC... -o OUT\n");
        return 1;
    }
    const isa_ops *isa = isa_find(a->isa_name);
    if (!isa) {
        fprintf(stderr, "xpusim: unknown ISA '%s'\n", a->isa_name);
        return 1;
    }
    if (!isa->assemble) {
        fprintf(stderr, "xpusim: ISA %s has no assembler\n", isa->name);
        return 1;
    }
    char err[1024];
    if (isa_check_asm_options(isa, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim asm: %s\n", err);
        return 1;
    }
    if (isa->assemble(a->srcs.n, a->srcs.v, a->output, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return 1;
    }
    return 0;
}

static sim_machine *volatile sigint_machine; /* only for the SIGINT handler: signals carry no context */
static void on_sigint(int sig)
{
    (void)sig;
    sim_machine *m = sigint_machine;
    if (m)
        runctl_interrupt(m);
}

/* The window between two slices of a run: 0 go on, -1 the user closed it (the run ends). */
typedef struct run_view {
    view *v;
    sim_machine *m;
} run_view;
static int run_view_poll(void *ctx)
{
    run_view *rv = ctx;
    return view_update(rv->v, rv->m) < 0 ? -1 : 0;
}

/* The progress line of a long run: on a terminal, one line rewritten in place once the run
 * has taken two seconds; with --progress, a line every half second wherever stderr goes. */
typedef struct run_progress {
    struct timespec t0;
    int tty, shown;
    uint64_t max_cycles, max_insns;
} run_progress;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void show_progress(void *ctx, const sim_progress *p)
{
    run_progress *r = ctx;
    double el = since(&r->t0);
    if (r->tty && el < 2.0)
        return;
    char line[200];
    int n;
    double frac = -1;
    if (p->parallel) {
        n = snprintf(line, sizeof line, "xpusim: %d of %d units done, %.1f s", p->units_done, p->units, el);
        frac = p->units ? (double)p->units_done / p->units : -1;
    } else {
        n = snprintf(line, sizeof line, "xpusim: cycle %llu, %.1f MIPS, %.1f s", (unsigned long long)p->cycle,
                     el > 0 ? (double)p->instructions / el / 1e6 : 0.0, el);
        if (r->max_cycles != SIM_NEVER && r->max_cycles)
            frac = (double)p->cycle / (double)r->max_cycles;
        else if (r->max_insns)
            frac = (double)p->instructions / (double)r->max_insns;
    }
    if (frac > 0 && frac <= 1 && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, p->parallel ? ", about %.0f s left" : ", %.0f%% of the limit, about %.0f s left",
                 p->parallel ? el / frac - el : frac * 100, el / frac - el);
    fprintf(stderr, r->tty ? "\r%s\033[K" : "%s\n", line);
    fflush(stderr);
    r->shown = 1;
}

/* --trace-window FROM:TO: the cycles before FROM and from TO on run with the trace paused,
 * so they take the ISA's fast path; each part ends at a cycle limit, which changes nothing
 * simulated (tests/cli/instr_fast.t.sh compares the statistics). The trace's own filter
 * (dbg_trace_limit) keeps exactly [FROM, TO) whatever the ISA's bursts do. */
static void run_trace_window(cli_session *s, const cli_args *a)
{
    sim_machine *m = &s->m;
    const uint64_t ends[3] = {a->tr_from ? a->tr_from - 1 : 0, a->tr_to - 1, a->max_cycles};
    for (int part = a->tr_from ? 0 : 1; part < 3; part++) {
        uint64_t until = ends[part] < a->max_cycles ? ends[part] : a->max_cycles;
        dbg_trace_pause(m, part != 1);
        cli_run(s, until);
        if (m->stop.kind != SIM_STOP_LIMIT || until == a->max_cycles)
            break;
    }
    dbg_trace_pause(m, 0);
}

static int cmd_run(cli_args *a)
{
    cli_session s;
    if (cli_session_open(&s, a)) {
        cli_session_close(&s);
        return 1;
    }
    sim_machine *m = &s.m;
    view *v = NULL;
    isa_framebuffer fb;
    if (a->profile && dbg_profile_on(m)) {
        fprintf(stderr, "xpusim: --profile: out of memory\n");
        cli_session_close(&s);
        return 1;
    }
    if (!a->headless && getenv("DISPLAY") && m->isa->framebuffer && m->isa->framebuffer(m, &fb) == 0)
        v = view_open(m);
    sigint_machine = m;
    signal(SIGINT, on_sigint);
    timeline *tl = NULL;
    char tl_err[600];
    uint64_t tl_to = a->tl_to ? a->tl_to : SIM_NEVER, tl_every = a->tl_sample ? a->tl_sample : 10000;
    if (a->timeline && !(tl = timeline_open(m, a->timeline, a->tl_from, tl_to, tl_every, tl_err, sizeof tl_err))) {
        fprintf(stderr, "xpusim: %s\n", tl_err);
        cli_session_close(&s);
        return 1;
    }
    run_progress prog = {.tty = isatty(2) && !a->progress, .max_cycles = a->max_cycles, .max_insns = a->max_insns};
    clock_gettime(CLOCK_MONOTONIC, &prog.t0);
    if (a->progress || (prog.tty && !a->quiet))
        sim_set_progress(m, show_progress, &prog, 0.5);
    run_view rv = {v, m};
    if (v) {
        /* run in slices of one frame period so the window follows simulated time */
        s.rc.slice = m->isa->frame_period ? m->isa->frame_period : 100000;
        s.rc.poll = run_view_poll;
        s.rc.poll_ctx = &rv;
        cli_run(&s, a->max_cycles);
    } else if (a->trace && a->tr_to) {
        run_trace_window(&s, a);
    } else {
        cli_run(&s, a->max_cycles);
    }
    int ff_missed = cli_ff_finish(&s); /* a marker never reached: said, and not a success */
    signal(SIGINT, SIG_DFL);
    sigint_machine = NULL;
    sim_set_progress(m, NULL, NULL, 0);
    if (prog.tty && prog.shown)
        fprintf(stderr, "\r\033[K"); /* the summary takes the line's place */
    if (m->stop.kind == SIM_STOP_USER)
        snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted by the user at cycle %llu", (unsigned long long)m->stop.cycle);
    if (m->isa->finish)
        m->isa->finish(m);
    fflush(m->out);
    int rc = sim_stop_exit_code(m->stop.kind);
    if (ff_missed && !rc)
        rc = 3;
    if (cli_apply_outputs(&s))
        rc = rc ? rc : 1;
    if (a->profile && cli_write_profile(&s, a->profile))
        rc = rc ? rc : 1;
    if (tl && timeline_close(tl, tl_err, sizeof tl_err)) {
        fprintf(stderr, "xpusim: %s\n", tl_err);
        rc = rc ? rc : 1;
    }
    if (a->frame_dump && cli_write_frame(m, a->frame_dump))
        rc = rc ? rc : 1;
    if (a->mem_hash && cli_write_mem_hash(m, a->mem_hash))
        rc = rc ? rc : 1;
    if (a->trace && dbg_trace_end(m)) {
        fprintf(stderr, "xpusim: %s: %s\n", a->trace, strerror(errno));
        rc = rc ? rc : 1;
    }
    if (cli_report(&s))
        rc = rc ? rc : 1;
    if (v) {
        view_update(v, m);
        view_wait_close(v);
        view_close(v);
    }
    cli_session_close(&s);
    return rc;
}

/* Build the machine with the debugger state attached and hand it to an interactive
 * frontend (the readline debugger or the GDB server). */
static int cmd_interactive(cli_args *a, int (*frontend)(cli_session *s, cli_args *a))
{
    cli_session s;
    if (cli_session_open(&s, a) || dbg_attach(&s.m)) {
        cli_session_close(&s);
        return 1;
    }
    int rc = frontend(&s, a);
    cli_session_close(&s);
    return rc;
}

static int run_debugger(cli_session *s, cli_args *a)
{
    (void)a;
    return dbg_cli_main(s);
}

static int run_gdbserver(cli_session *s, cli_args *a) { return gdb_serve(s, a->listen); }

/* Run the subcommand; returns the exit status. */
static int dispatch(cli_args *a)
{
    if (strcmp(a->cmd, "isas") == 0)
        return cmd_isas();
    if (strcmp(a->cmd, "asm") == 0)
        return cmd_asm(a);
    if (!a->program && !(a->host_file && (!strcmp(a->cmd, "run") || !strcmp(a->cmd, "debug") ||
                                          !strcmp(a->cmd, "gdbserver")))) {
        fprintf(stderr, "xpusim %s: missing PROGRAM\n", a->cmd);
        usage(stderr);
        return 1;
    }
    if (a->fast_forward && strcmp(a->cmd, "run") && strcmp(a->cmd, "debug") && strcmp(a->cmd, "gdbserver")) {
        fprintf(stderr, "xpusim %s: --fast-forward is an option of xpusim run, debug and gdbserver\n", a->cmd);
        return 1;
    }
    if (strcmp(a->cmd, "run") == 0)
        return cmd_run(a);
    if (strcmp(a->cmd, "debug") == 0)
        return cmd_interactive(a, run_debugger);
    if (strcmp(a->cmd, "gdbserver") == 0)
        return cmd_interactive(a, run_gdbserver);
    if (strcmp(a->cmd, "info") == 0)
        return cmd_info(a);
    if (strcmp(a->cmd, "disasm") == 0)
        return cmd_disasm(a);
    fprintf(stderr, "xpusim: unknown command '%s' (run, debug, gdbserver, asm, disasm, info, isas)\n", a->cmd);
    return 1;
}

/* rc, or 1 when what went to stdout was not all written: program output, listings, reports
 * and help must not be lost silently (a full disk, /dev/full), like any other output file */
static int stdout_checked(int rc)
{
    char err[300];
    if (file_check_out(stdout, "standard output", err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return rc ? rc : 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return stdout_checked(0);
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("xpusim %s\n", XPUSIM_VERSION);
        return stdout_checked(0);
    }
    if (strcmp(argv[1], "report") == 0) { /* xpusim report STATS.json [-o OUT.html] [--profile FILE] */
        const char *stats = NULL, *out = NULL, *prof = NULL;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "-o") && i + 1 < argc)
                out = argv[++i];
            else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
                prof = argv[++i];
            else if (argv[i][0] != '-' && !stats)
                stats = argv[i];
            else {
                fprintf(stderr, "xpusim report: unexpected '%s'; usage: xpusim report STATS.json [-o OUT.html] "
                                "[--profile FILE]\n", argv[i]);
                return 1;
            }
        }
        if (!stats) {
            fprintf(stderr, "xpusim report: usage: xpusim report STATS.json [-o OUT.html] [--profile FILE]\n");
            return 1;
        }
        return report_write(stats, prof, out);
    }
    if (strcmp(argv[1], "stats") == 0) { /* xpusim stats diff A.json B.json */
        if (argc != 5 || strcmp(argv[2], "diff")) {
            fprintf(stderr, "xpusim stats: usage: xpusim stats diff A.json B.json\n");
            return 2;
        }
        return stats_diff_files(argv[3], argv[4], stdout);
    }
    cli_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed) { /* 1: help was asked for and printed; -1: an error, reported */
        cli_args_free(&a);
        return parsed > 0 ? 0 : 1;
    }
    a.version = XPUSIM_VERSION;
    int rc = dispatch(&a);
    cli_args_free(&a);
    return stdout_checked(rc);
}
