/* frontends/session.c: from a command line to a loaded machine, and back out to files.
 * Shared by `run` and `debug`: loads the program, picks the ISA (--isa, else by probing the
 * image), checks -o options against the ISA's table, builds and loads the machine, applies
 * --load/--set before the run and --dump/--get after it, writes frames and the report. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../core/debug.h"
#include "../core/stats.h"
#include "../core/file.h"

int cli_parse_u64(const char *s, uint64_t *out) { return opt_parse_u64(s, out); }

void cli_args_free(cli_args *a)
{
    cli_list *l[] = {&a->loads, &a->dumps, &a->sets, &a->gets, &a->scatters, &a->gathers, &a->srcs, &a->symbols,
                     &a->images};
    for (size_t i = 0; i < sizeof l / sizeof l[0]; i++) {
        free(l[i]->v);
        *l[i] = (cli_list){0};
    }
}

runctl *cli_runctl(cli_session *s)
{
    if (s->rc.m != &s->m)
        runctl_init(&s->rc, &s->m, s->args ? s->args->max_cycles : 0);
    return &s->rc;
}

/* What every way of opening a session does once the program is in the machine: the
 * instruction limit, --load/--set files, and the trace with its window and pc range. */
static int apply_unit_files(cli_session *s);

static int session_after_load(cli_session *s, cli_args *a)
{
    s->m.max_instructions = a->max_insns;
    s->m.build = a->version;
    cli_runctl(s);
    if (apply_unit_files(s) || cli_apply_loads(s) || cli_ff_arm(s))
        return -1;
    if (a->trace && dbg_trace_open(&s->m, a->trace)) {
        fprintf(stderr, "xpusim: --trace %s: cannot open for writing: %s\n", a->trace, strerror(errno));
        return -1;
    }
    if (a->trace)
        dbg_trace_limit(&s->m, a->tr_to ? a->tr_from : 0, a->tr_to ? a->tr_to : UINT64_MAX, a->tr_hi ? a->tr_lo : 0,
                        a->tr_hi ? a->tr_hi : UINT64_MAX);
    return 0;
}

/* --vertex FILE: the ISA (--isa, else the only one with a host_file hook) reads the file,
 * loads the program it names into s->img and the machine, and sets the state it describes. */
static int session_open_host_file(cli_session *s, cli_args *a)
{
    char err[512];
    if (a->program) {
        fprintf(stderr, "xpusim: --vertex %s names the program itself: give no PROGRAM (got '%s')\n", a->host_file,
                a->program);
        return -1;
    }
    s->isa = a->isa_name ? isa_find(a->isa_name) : NULL;
    for (int i = 0; !a->isa_name && i < isa_count(); i++)
        if (isa_at(i)->host_file) {
            if (s->isa) {
                fprintf(stderr, "xpusim: --vertex: several ISAs read host files; use --isa NAME\n");
                return -1;
            }
            s->isa = isa_at(i);
        }
    if (!s->isa || !s->isa->host_file) {
        fprintf(stderr, "xpusim: --vertex: %s\n", a->isa_name ? "that ISA reads no host file (or is unknown)"
                                                               : "no ISA reads host files");
        return -1;
    }
    if (cli_ff_prepare(a, s->isa))
        return -1;
    if (isa_check_options(s->isa, &a->opts, err, sizeof err) || sim_create(&s->m, s->isa, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    s->have_machine = 1;
    s->m.image = &s->img;
    if (s->isa->host_file(&s->m, a->host_file, &s->img, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    return session_after_load(s, a);
}

int cli_session_open(cli_session *s, cli_args *a)
{
    char err[512];
    memset(s, 0, sizeof *s);
    s->args = a;
    if (a->host_file)
        return session_open_host_file(s, a);
    if (ld_load(a->program, &s->img, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    if (s->img.fmt == LD_ELF && s->img.elf_type == 1 /* ET_REL */) {
        fprintf(stderr, "xpusim: %s: a relocatable object file (ELF type ET_REL), not a program: link it first "
                        "(xpusim asm without -c writes a linked executable)\n", a->program);
        ld_free(&s->img);
        return -1;
    }
    if (a->isa_name) {
        s->isa = isa_find(a->isa_name);
        if (!s->isa) {
            fprintf(stderr, "xpusim: unknown ISA '%s'; available:", a->isa_name);
            for (int i = 0; i < isa_count(); i++)
                fprintf(stderr, " %s", isa_at(i)->name);
            fputc('\n', stderr);
            return -1;
        }
    } else {
        s->isa = isa_probe(&s->img);
        if (!s->isa) {
            if (s->img.fmt == LD_ELF)
                fprintf(stderr, "xpusim: %s: no ISA recognises ELF e_machine %u (flags 0x%x); use --isa NAME\n",
                        a->program, s->img.machine, s->img.eflags);
            else
                fprintf(stderr, "xpusim: %s: cannot tell the ISA of a %s file; use --isa NAME\n", a->program,
                        ld_format_name(s->img.fmt));
            return -1;
        }
    }
    if (a->trace_cosim) {
        int has = 0;
        for (const opt_desc *o = s->isa->options; o && o->name; o++)
            has |= strcmp(o->name, "cosim") == 0;
        if (!has) {
            fprintf(stderr, "xpusim: --trace-cosim: ISA %s has no cosimulation stream\n", s->isa->name);
            return -1;
        }
        opt_set(&a->opts, "cosim", a->trace_cosim);
    }
    if (cli_ff_prepare(a, s->isa))
        return -1;
    if (isa_check_options(s->isa, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    if (sim_create(&s->m, s->isa, &a->opts, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    s->have_machine = 1;
    s->m.image = &s->img;
    if (s->isa->load(&s->m, &s->img, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    return session_after_load(s, a);
}

void cli_session_close(cli_session *s)
{
    free(s->csyms);
    s->csyms = NULL;
    if (s->have_machine)
        sim_destroy(&s->m);
    for (int i = 0; i < s->nuimgs; i++) /* after the machine, which points at them */
        ld_free(&s->uimgs[i]);
    free(s->uimgs);
    s->uimgs = NULL;
    s->nuimgs = 0;
    ld_free(&s->img);
    s->have_machine = 0;
}

/* "SPACE:ADDR" -> space and address; rest points after ADDR. */
static int parse_space_addr(cli_session *s, const char *spec, char *rest_sep, mem_space **sp, uint64_t *addr,
                            const char **rest)
{
    const char *colon = strchr(spec, ':');
    if (!colon) {
        fprintf(stderr, "xpusim: '%s': expected SPACE:ADDRESS\n", spec);
        return -1;
    }
    char name[32];
    size_t n = (size_t)(colon - spec);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, spec, n);
    name[n] = 0;
    *sp = sim_space(&s->m, name);
    if (!*sp) {
        fprintf(stderr, "xpusim: '%s': no address space '%s'; this machine has:", spec, name);
        for (int i = 0; i < s->m.nspaces; i++)
            fprintf(stderr, " %s", s->m.spaces[i]->name);
        fputc('\n', stderr);
        return -1;
    }
    const char *a = colon + 1;
    const char *end = a + strcspn(a, rest_sep);
    char num[40];
    if ((size_t)(end - a) >= sizeof num || end == a) {
        fprintf(stderr, "xpusim: '%s': bad address\n", spec);
        return -1;
    }
    memcpy(num, a, (size_t)(end - a));
    num[end - a] = 0;
    if (cli_parse_u64(num, addr)) {
        fprintf(stderr, "xpusim: '%s': address '%s' is not a number\n", spec, num);
        return -1;
    }
    *rest = end;
    return 0;
}

static int host_write(const char *what, mem_space *sp, uint64_t addr, const uint8_t *buf, size_t len)
{
    int rc = mem_host_write(sp, addr, buf, len);
    if (rc) {
        fprintf(stderr, "xpusim: %s: %zu bytes at %s:0x%llx do not fit in the space's memory (%s)\n", what, len,
                sp->name, (unsigned long long)addr, mem_fault_str(rc));
        return -1;
    }
    return 0;
}

/* Optional "@UNIT:" prefix of a host transfer, UNIT an index or a unit's path
 * ("@ipu0.tile5:"); *unit stays as given when absent. */
static const char *strip_unit(cli_session *s, const char *spec, int *unit)
{
    if (spec[0] != '@')
        return spec;
    const char *colon = strchr(spec + 1, ':');
    char path[256];
    size_t n = colon ? (size_t)(colon - spec - 1) : 0;
    if (n && n < sizeof path) {
        memcpy(path, spec + 1, n);
        path[n] = 0;
    }
    int u = n && n < sizeof path ? sim_find_unit(&s->m, path) : -1;
    if (u < 0) {
        fprintf(stderr, "xpusim: '%s': expected @UNIT: with UNIT in [0, %d) or a unit's path (ipu0.tile5)\n", spec,
                s->m.nunits);
        return NULL;
    }
    *unit = u;
    return colon + 1;
}

const ld_image *cli_unit_image(const cli_session *s, int unit)
{
    const ld_image *img = sim_unit_image(&s->m, unit < 0 ? 0 : unit);
    return img ? img : &s->img;
}
static const ld_image *unit_symbols(const cli_session *s, int unit) { return cli_unit_image(s, unit); }

/* PATH=FILE of option opt (--image, --symbols): load FILE (a program of the machine's ISA;
 * an ELF with symbols if need_syms) into the next of s->uimgs and copy PATH to path; NULL after an error (reported). */
static ld_image *unit_file(cli_session *s, const char *opt, const char *spec, char *path, size_t pathlen, int need_syms)
{
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : 0;
    if (!eq || !eq[1] || !n || n >= pathlen) {
        fprintf(stderr, "xpusim: %s '%s': expected PATH=FILE (a unit's or group's path, e.g. ipu0.tile5)\n", opt, spec);
        return NULL;
    }
    memcpy(path, spec, n);
    path[n] = 0;
    char err[512];
    ld_image *img = &s->uimgs[s->nuimgs];
    if (ld_load(eq + 1, img, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s '%s': %s\n", opt, spec, err);
        return NULL;
    }
    s->nuimgs++;
    if (need_syms && (img->fmt != LD_ELF || !img->nsyms)) {
        fprintf(stderr, "xpusim: %s '%s': %s has no symbol table (an ELF file is expected)\n", opt, spec, eq + 1);
        return NULL;
    }
    if (s->isa->probe && !s->isa->probe(img)) {
        fprintf(stderr, "xpusim: %s '%s': %s is not a %s program\n", opt, spec, eq + 1, s->isa->name);
        return NULL;
    }
    return img;
}

/* --image PATH=FILE (issue 11 pt 1): FILE is the program of unit PATH, or of every unit of
 * group PATH: the ISA places it there (isa_ops.load_unit) after the machine's program, and
 * its symbols name those units' addresses (sim_set_image), as --symbols gives them. */
static int apply_images(cli_session *s)
{
    const cli_list *l = &s->args->images;
    for (int i = 0; i < l->n; i++) {
        const char *spec = l->v[i];
        char path[256], err[512];
        if (!s->isa->load_unit) {
            fprintf(stderr, "xpusim: --image '%s': ISA %s runs one program on every unit (it cannot place a program "
                            "in one unit)\n", spec, s->isa->name);
            return -1;
        }
        const ld_image *img = unit_file(s, "--image", spec, path, sizeof path, 0);
        if (!img)
            return -1;
        const sim_group *g = sim_find_group(&s->m, path);
        int unit = g ? -1 : sim_find_unit(&s->m, path), n = 0;
        if (!g && unit < 0) {
            fprintf(stderr, "xpusim: --image '%s': no unit or group '%s' (`xpusim debug`'s `info units` lists them)\n",
                    spec, path);
            return -1;
        }
        for (int u = 0; u < s->m.nunits; u++) {
            if (g ? !sim_unit_in_group(&s->m, u, g->index) : u != unit)
                continue;
            if (s->isa->load_unit(&s->m, u, img, err, sizeof err)) {
                char up[256];
                fprintf(stderr, "xpusim: --image '%s': %s: %s\n", spec, sim_unit_path(&s->m, u, up, sizeof up), err);
                return -1;
            }
            n++;
        }
        if (!n) {
            fprintf(stderr, "xpusim: --image '%s': group '%s' has no unit\n", spec, path);
            return -1;
        }
        sim_set_image(&s->m, path, img); /* found above: it cannot fail */
    }
    return 0;
}

/* --symbols PATH=FILE: load FILE (an ELF of the machine's ISA) and give its symbols to the
 * unit or group PATH (sim_set_image): --set/--get @U:SYMBOL then look there first. */
static int apply_symbols(cli_session *s)
{
    const cli_list *l = &s->args->symbols;
    for (int i = 0; i < l->n; i++) {
        const char *spec = l->v[i];
        char path[256];
        const ld_image *img = unit_file(s, "--symbols", spec, path, sizeof path, 1);
        if (!img)
            return -1;
        if (sim_set_image(&s->m, path, img)) {
            fprintf(stderr, "xpusim: --symbols '%s': no unit or group '%s' (`xpusim debug`'s `info units` lists them)\n",
                    spec, path);
            return -1;
        }
    }
    return 0;
}

/* The per-unit files (--image, then --symbols: a --symbols file for the same path names its
 * addresses instead), each kept in s->uimgs until the session closes. */
static int apply_unit_files(cli_session *s)
{
    int n = s->args->images.n + s->args->symbols.n;
    if (!n)
        return 0;
    s->uimgs = calloc((size_t)n, sizeof *s->uimgs);
    if (!s->uimgs) {
        fprintf(stderr, "xpusim: out of memory\n");
        return -1;
    }
    return apply_images(s) || apply_symbols(s) ? -1 : 0;
}

/* SYMBOL[+OFF][:LEN] -> space, address (and LEN if present). need: the bytes the caller
 * will transfer (0: *len, from :LEN or the rest of the symbol). A symbol with a size bounds
 * OFF and the transfer (writing past it would silently change the next variable), and every
 * sum is checked: a huge OFF must not wrap around to a small address. */
static int resolve_symbol(cli_session *s, const char *spec, int unit, mem_space **sp, uint64_t *addr, uint64_t *len,
                          const char **file, uint64_t need)
{
    char name[256];
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : strlen(spec);
    if (n >= sizeof name) {
        fprintf(stderr, "xpusim: '%s': symbol too long\n", spec);
        return -1;
    }
    memcpy(name, spec, n);
    name[n] = 0;
    *file = eq ? eq + 1 : NULL;
    char *colon = strchr(name, ':');
    *len = 0;
    if (colon) {
        *colon = 0;
        if (cli_parse_u64(colon + 1, len) || *len == 0) {
            fprintf(stderr, "xpusim: '%s': length '%s' is not a positive number\n", spec, colon + 1);
            return -1;
        }
    }
    uint64_t off = 0;
    char *plus = strchr(name, '+');
    if (plus) {
        *plus = 0;
        if (cli_parse_u64(plus + 1, &off)) {
            fprintf(stderr, "xpusim: '%s': offset '%s' is not a number\n", spec, plus + 1);
            return -1;
        }
    }
    const ld_image *simg = unit_symbols(s, unit);
    const ld_symbol *sym = ld_symbol_find(simg, name);
    if (!sym) {
        fprintf(stderr, "xpusim: '%s': no symbol '%s' in %s\n", spec, name, simg->path);
        return -1;
    }
    if (sym->size && off > sym->size) {
        fprintf(stderr, "xpusim: '%s': offset %llu is past the end of '%s' (%llu bytes)\n", spec,
                (unsigned long long)off, name, (unsigned long long)sym->size);
        return -1;
    }
    if (!*len)
        *len = sym->size > off ? sym->size - off : 0;
    uint64_t moved = need ? need : *len;
    if (sym->size && moved > sym->size - off) {
        fprintf(stderr, "xpusim: '%s': %llu bytes at offset %llu do not fit in '%s' (%llu bytes)\n", spec,
                (unsigned long long)moved, (unsigned long long)off, name, (unsigned long long)sym->size);
        return -1;
    }
    if (s->isa->symbol_location) {
        if (s->isa->symbol_location(&s->m, unit, sym, sp, addr)) {
            fprintf(stderr, "xpusim: '%s': symbol '%s' (0x%llx) is not in any memory of this machine\n", spec, name,
                    (unsigned long long)sym->value);
            return -1;
        }
    } else {
        /* the first space, as the unit sees it: a tile's own memory when units have their
         * own (the IPU's tmem of tile U), else the shared one */
        *sp = sim_unit_space(&s->m, unit < 0 ? 0 : unit, s->m.spaces[0]->name);
        if (!*sp)
            *sp = s->m.spaces[0];
        *addr = sym->value;
    }
    if (__builtin_add_overflow(*addr, off / (*sp)->addr_unit, addr)) {
        fprintf(stderr, "xpusim: '%s': offset %llu wraps around the address space\n", spec, (unsigned long long)off);
        return -1;
    }
    return 0;
}

int cli_apply_loads(cli_session *s)
{
    cli_args *a = s->args;
    char err[512];
    for (int i = 0; i < a->loads.n; i++) {
        mem_space *sp;
        uint64_t addr;
        const char *rest;
        if (parse_space_addr(s, a->loads.v[i], "=", &sp, &addr, &rest))
            return -1;
        if (*rest != '=' || !rest[1]) {
            fprintf(stderr, "xpusim: --load '%s': expected SPACE:ADDR=FILE\n", a->loads.v[i]);
            return -1;
        }
        uint8_t *buf;
        size_t len;
        if (ld_read_data(rest + 1, &buf, &len, err, sizeof err)) {
            fprintf(stderr, "xpusim: --load: %s\n", err);
            return -1;
        }
        int rc = host_write(a->loads.v[i], sp, addr, buf, len);
        free(buf);
        if (rc)
            return -1;
    }
    for (int i = 0; i < a->sets.n; i++) {
        int only = -1;
        const char *spec = strip_unit(s, a->sets.v[i], &only);
        if (!spec)
            return -1;
        uint8_t *buf;
        size_t len;
        const char *file;
        mem_space *sp;
        uint64_t addr, slen;
        if (resolve_symbol(s, spec, only < 0 ? 0 : only, &sp, &addr, &slen, &file, 1))
            return -1;
        if (!file || !*file) {
            fprintf(stderr, "xpusim: --set '%s': expected [@UNIT:]SYMBOL[+OFFSET]=FILE\n", a->sets.v[i]);
            return -1;
        }
        if (ld_read_data(file, &buf, &len, err, sizeof err)) {
            fprintf(stderr, "xpusim: --set: %s\n", err);
            return -1;
        }
        /* the same program runs on every unit: the host writes each unit's copy (units
         * sharing one memory are written once) */
        int rc = 0;
        mem_space *prev = NULL;
        for (int u = only < 0 ? 0 : only; u < (only < 0 ? s->m.nunits : only + 1) && !rc; u++) {
            if (resolve_symbol(s, spec, u, &sp, &addr, &slen, &file, len)) {
                rc = -1;
                break;
            }
            if (sp != prev)
                rc = host_write(a->sets.v[i], sp, addr, buf, len);
            prev = sp;
        }
        free(buf);
        if (rc)
            return -1;
    }
    for (int i = 0; i < a->scatters.n; i++) {
        const char *spec = a->scatters.v[i], *file;
        mem_space *sp;
        uint64_t addr, slen, chunk = 0;
        if (resolve_symbol(s, spec, 0, &sp, &addr, &slen, &file, 1))
            return -1;
        if (!file || !*file) {
            fprintf(stderr, "xpusim: --scatter '%s': expected SYMBOL[+OFFSET]=FILE[:CHUNK]\n", spec);
            return -1;
        }
        char path[512];
        snprintf(path, sizeof path, "%s", file);
        char *colon = strrchr(path, ':');
        if (colon) {
            *colon = 0;
            if (cli_parse_u64(colon + 1, &chunk) || chunk == 0) {
                fprintf(stderr, "xpusim: --scatter '%s': chunk '%s' is not a positive number\n", spec, colon + 1);
                return -1;
            }
        }
        uint8_t *buf;
        size_t len;
        if (ld_read_data(path, &buf, &len, err, sizeof err)) {
            fprintf(stderr, "xpusim: --scatter: %s\n", err);
            return -1;
        }
        uint64_t n = (uint64_t)s->m.nunits;
        if (!chunk) {
            if (len % n) {
                fprintf(stderr, "xpusim: --scatter '%s': %zu bytes do not split evenly over %llu units; give :CHUNK\n",
                        spec, len, (unsigned long long)n);
                free(buf);
                return -1;
            }
            chunk = len / n;
        }
        uint64_t total;
        if (__builtin_mul_overflow(chunk, n, &total) || total != len) {
            fprintf(stderr, "xpusim: --scatter '%s': %zu bytes are not %llu chunks of %llu bytes (one per unit)\n", spec,
                    len, (unsigned long long)n, (unsigned long long)chunk);
            free(buf);
            return -1;
        }
        int rc = 0;
        for (int u = 0; u < s->m.nunits && !rc; u++) {
            rc = resolve_symbol(s, spec, u, &sp, &addr, &slen, &file, chunk);
            if (!rc)
                rc = host_write(spec, sp, addr, buf + (size_t)(chunk * (uint64_t)u), (size_t)chunk);
        }
        free(buf);
        if (rc)
            return -1;
    }
    return 0;
}

static void print_words(mem_space *sp, uint64_t addr, const uint8_t *buf, size_t nwords, FILE *out)
{
    unsigned wb = sp->word_bytes;
    unsigned per_line = wb >= 8 ? 4 : 8;
    uint64_t step = wb >= sp->addr_unit ? wb / sp->addr_unit : 1;
    for (size_t i = 0; i < nwords; i++) {
        if (i % per_line == 0)
            fprintf(out, "%s%s[0x%llx]:", i ? "\n" : "", sp->name, (unsigned long long)(addr + i * step));
        uint64_t v = 0;
        for (unsigned b = 0; b < wb; b++)
            v |= (uint64_t)buf[i * wb + (sp->big_endian ? wb - 1 - b : b)] << (8 * b);
        fprintf(out, " %0*llx", (int)(2 * wb), (unsigned long long)v);
    }
    fputc('\n', out);
}

int cli_close_out(FILE *f, const char *path)
{
    char err[600];
    if (file_close_out(f, path, err, sizeof err)) {
        fprintf(stderr, "xpusim: %s\n", err);
        return -1;
    }
    return 0;
}

FILE *cli_open_out(const char *path, const char *what)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fprintf(stderr, "xpusim: %s %s: %s\n", what, path, strerror(errno));
    return f;
}

static int write_raw(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = cli_open_out(path, "cannot write");
    if (!f)
        return -1;
    fwrite(buf, 1, len, f);
    return cli_close_out(f, path);
}

/* Read a symbol's bytes of one unit: into 'raw' if given (appending), else to its =FILE,
 * else printed in hex to 'out' (prefixed with the unit's name when there are several). */
static int read_symbol(cli_session *s, const char *spec, int unit, const char *what, FILE *raw, FILE *out)
{
    mem_space *sp;
    uint64_t addr, len;
    const char *file;
    if (resolve_symbol(s, spec, unit, &sp, &addr, &len, &file, 0))
        return -1;
    if (!len) {
        fprintf(stderr, "xpusim: '%s': the symbol has size 0; give :LEN\n", what);
        return -1;
    }
    if (len > CLI_MAX_TRANSFER) {
        fprintf(stderr, "xpusim: '%s': %llu bytes is over the %llu-byte limit of one transfer\n", what,
                (unsigned long long)len, (unsigned long long)CLI_MAX_TRANSFER);
        return -1;
    }
    uint8_t *buf = malloc(len);
    if (!buf || mem_host_read(sp, addr, buf, len)) {
        fprintf(stderr, "xpusim: '%s': %llu bytes at %s:0x%llx are not all in memory\n", what, (unsigned long long)len,
                sp->name, (unsigned long long)addr);
        free(buf);
        return -1;
    }
    int rc = 0;
    if (raw) {
        rc = fwrite(buf, 1, len, raw) == len ? 0 : -1;
    } else if (file && *file) {
        rc = write_raw(file, buf, len);
    } else {
        char head[300];
        snprintf(head, sizeof head, "%.*s", (int)strcspn(spec, "="), spec);
        if (s->m.nunits > 1)
            fprintf(out, "%s: ", s->m.units[unit].name);
        fprintf(out, "%s:", head);
        for (uint64_t k = 0; k < len; k++)
            fprintf(out, "%s%02x", k % 16 == 0 ? "\n" : " ", buf[k]);
        fputc('\n', out);
    }
    free(buf);
    return rc;
}

int cli_apply_outputs(cli_session *s)
{
    cli_args *a = s->args;
    int rc = 0;
    for (int i = 0; i < a->dumps.n; i++) {
        mem_space *sp;
        uint64_t addr, count;
        const char *rest;
        if (parse_space_addr(s, a->dumps.v[i], ":", &sp, &addr, &rest)) {
            rc = -1;
            continue;
        }
        char cnt[40];
        const char *eq = strchr(rest, '=');
        size_t n = eq ? (size_t)(eq - rest) : strlen(rest);
        if (*rest != ':' || n < 2 || n >= sizeof cnt) {
            fprintf(stderr, "xpusim: --dump '%s': expected SPACE:ADDR:COUNT[=FILE]\n", a->dumps.v[i]);
            rc = -1;
            continue;
        }
        memcpy(cnt, rest + 1, n - 1);
        cnt[n - 1] = 0;
        if (cli_parse_u64(cnt, &count) || count == 0 || count > (1u << 28)) {
            fprintf(stderr, "xpusim: --dump '%s': count '%s' is not a positive number\n", a->dumps.v[i], cnt);
            rc = -1;
            continue;
        }
        size_t len = (size_t)count * sp->word_bytes;
        uint8_t *buf = malloc(len);
        if (!buf || mem_host_read(sp, addr, buf, len)) {
            fprintf(stderr, "xpusim: --dump '%s': %llu words at %s:0x%llx are not all in memory\n", a->dumps.v[i],
                    (unsigned long long)count, sp->name, (unsigned long long)addr);
            free(buf);
            rc = -1;
            continue;
        }
        if (eq && eq[1]) {
            /* raw little-endian words */
            if (sp->big_endian)
                for (size_t w = 0; w < count; w++)
                    for (unsigned b = 0; b < sp->word_bytes / 2; b++) {
                        uint8_t *p = buf + w * sp->word_bytes, t = p[b];
                        p[b] = p[sp->word_bytes - 1 - b];
                        p[sp->word_bytes - 1 - b] = t;
                    }
            rc |= write_raw(eq + 1, buf, len);
        } else {
            print_words(sp, addr, buf, count, stdout);
        }
        free(buf);
    }
    for (int i = 0; i < a->gets.n; i++) {
        int unit = 0;
        const char *spec = strip_unit(s, a->gets.v[i], &unit);
        if (!spec || read_symbol(s, spec, unit, a->gets.v[i], NULL, stdout))
            rc = -1;
    }
    for (int i = 0; i < a->gathers.n; i++) {
        const char *spec = a->gathers.v[i];
        const char *eq = strchr(spec, '=');
        FILE *f = NULL;
        if (!strchr(spec, ':') || (eq && strchr(spec, ':') > eq)) {
            fprintf(stderr, "xpusim: --gather '%s': expected SYMBOL[+OFFSET]:LEN[=FILE]\n", spec);
            rc = -1;
            continue;
        }
        if (eq && eq[1] && !(f = cli_open_out(eq + 1, "--gather"))) {
            rc = -1;
            continue;
        }
        char head[300];
        snprintf(head, sizeof head, "%.*s", (int)(eq ? eq - spec : (long)strlen(spec)), spec);
        for (int u = 0; u < s->m.nunits; u++)
            if (read_symbol(s, head, u, spec, f, stdout)) {
                rc = -1;
                break;
            }
        if (f && cli_close_out(f, eq + 1))
            rc = -1;
    }
    return rc;
}

int cli_write_frame(sim_machine *m, const char *path)
{
    isa_framebuffer fb;
    if (!m->isa->framebuffer || m->isa->framebuffer(m, &fb)) {
        fprintf(stderr, "xpusim: --frame-dump: ISA %s has no framebuffer\n", m->isa->name);
        return -1;
    }
    FILE *f = cli_open_out(path, "--frame-dump");
    if (!f)
        return -1;
    fprintf(f, "P6\n%u %u\n255\n", fb.width, fb.height);
    for (unsigned y = 0; y < fb.height; y++)
        for (unsigned x = 0; x < fb.width; x++) {
            uint32_t p = fb.pixels[(size_t)y * fb.stride + x];
            uint8_t rgb[3] = {(uint8_t)(p >> 16), (uint8_t)(p >> 8), (uint8_t)p};
            fwrite(rgb, 1, 3, f);
        }
    return cli_close_out(f, path);
}

int cli_write_mem_hash(const sim_machine *m, const char *path)
{
    FILE *f = cli_open_out(path, "--mem-hash");
    if (!f)
        return -1;
    for (int i = 0; i < m->nspaces; i++) {
        const mem_space *sp = m->spaces[i];
        for (int r = 0; r < sp->nregions; r++) {
            const mem_region *rg = &sp->regions[r];
            if (!rg->data)
                continue; /* MMIO: reading it could have side effects */
            uint64_t h = 0xcbf29ce484222325ull;
            size_t n = (size_t)rg->size * sp->addr_unit;
            for (size_t k = 0; k < n; k++)
                h = (h ^ rg->data[k]) * 0x100000001b3ull;
            fprintf(f, "%s %s 0x%llx 0x%llx %016llx\n", sp->name, rg->name, (unsigned long long)rg->base,
                    (unsigned long long)rg->size, (unsigned long long)h);
        }
    }
    return cli_close_out(f, path);
}

/* After a run that did not end by itself: what each thread still running was doing or
 * waiting for, so a deadlock, a livelock or a limit says why (at most 32 lines). */
int cli_report(cli_session *s)
{
    cli_args *a = s->args;
    sim_machine *m = &s->m;
    FILE *f = stderr;
    /* stderr is unbuffered: the statistics of thousands of threads would cost a write per
     * line (176,000 for 2,560 DPUs x 16 tasklets), so without a file they go through a
     * buffered stream of their own on the same file descriptor. */
    int fd = -1;
    if (a->stats_file) {
        f = cli_open_out(a->stats_file, "--stats-file");
        if (!f)
            return -1;
    } else if ((fd = dup(STDERR_FILENO)) >= 0 && (f = fdopen(fd, "w"))) {
        setvbuf(f, NULL, _IOFBF, 1 << 16); /* (if it cannot: the default buffer) */
    } else {
        if (fd >= 0)
            close(fd);
        f = stderr;
    }
    if (a->stats_json) {
        stats_write_json(m, f);
    } else if (!a->quiet || a->stats_file) {
        stats_write_text(m, f);
        stats_write_speed(m, f);
    }
    /* (a failed stderr: its message fails too, the exit status says it) */
    int out_rc = f != stderr ? cli_close_out(f, a->stats_file ? a->stats_file : "stderr") : 0;
    runctl_stop st; /* the stop as the run control reports it to every frontend */
    runctl_stop_get(cli_runctl(s), &st);
    if (st.kind != SIM_STOP_HALT) {
        fprintf(stderr, "xpusim: stopped: %s", sim_stop_name(st.kind));
        if (st.unit >= 0 && st.thread >= 0)
            fprintf(stderr, " in %s thread %d at pc 0x%llx", m->units[st.unit].name, st.thread,
                    (unsigned long long)st.pc);
        else if (st.unit >= 0) /* a unit's stop that no one thread caused (a livelock) */
            fprintf(stderr, " in %s", m->units[st.unit].name);
        fprintf(stderr, " (cycle %llu): %s\n", (unsigned long long)st.cycle, st.msg);
        if (st.kind == SIM_STOP_DEADLOCK || st.kind == SIM_STOP_LIMIT || st.kind == SIM_STOP_USER)
            runctl_waiting(m, stderr, "  ", 32);
    } else if (!a->quiet && (a->stats_json || a->stats_file)) {
        stats_write_speed(m, stderr);
    }
    return out_rc;
}

static int resolve_in(const ld_image *img, const char *text, uint64_t *addr, char *err, size_t errlen);

int cli_resolve_addr(cli_session *s, const char *text, uint64_t *addr, char *err, size_t errlen)
{
    return resolve_in(&s->img, text, addr, err, errlen);
}

int cli_unit_resolve_addr(cli_session *s, int unit, const char *text, uint64_t *addr, char *err, size_t errlen)
{
    return resolve_in(cli_unit_image(s, unit), text, addr, err, errlen);
}

const char *cli_unit_code_symbol_at(const cli_session *s, int unit, uint64_t addr, uint64_t *off)
{
    const ld_image *img = cli_unit_image(s, unit);
    if (img == &s->img) /* the program's: its code symbols as the ISA places them */
        return cli_code_symbol_at(s, addr, off);
    const ld_symbol *sym = img->nsyms ? ld_symbol_at(img, addr, off) : NULL;
    return sym ? sym->name : NULL;
}

static int resolve_in(const ld_image *img, const char *text, uint64_t *addr, char *err, size_t errlen)
{
    if (cli_parse_u64(text, addr) == 0)
        return 0;
    char name[256];
    snprintf(name, sizeof name, "%s", text);
    uint64_t off = 0;
    char *plus = strchr(name, '+');
    if (plus) {
        *plus = 0;
        if (cli_parse_u64(plus + 1, &off)) {
            snprintf(err, errlen, "'%s': offset is not a number", text);
            return -1;
        }
    }
    const ld_symbol *sym = ld_symbol_find(img, name);
    if (!sym) {
        snprintf(err, errlen, "'%s': not a number and no such symbol", text);
        return -1;
    }
    *addr = sym->value + off;
    return 0;
}

int cli_code_symbols(cli_session *s)
{
    const ld_image *img = &s->img;
    const char *code = s->isa->code_space;
    if (s->csyms || !s->isa->symbol_location || !code || !img->nsyms)
        return 0;
    s->csyms = calloc((size_t)img->nsyms, sizeof *s->csyms);
    if (!s->csyms)
        return -1;
    size_t cl = strlen(code);
    for (int i = 0; i < img->nsyms; i++) {
        const ld_symbol *sym = &img->syms[i];
        mem_space *sp;
        uint64_t addr;
        if (!sym->name || !*sym->name || sym->shndx == 0 || sym->type > 2 ||
            s->isa->symbol_location(&s->m, 0, sym, &sp, &addr) || !sp)
            continue;
        if (strncmp(sp->name, code, cl) || (sp->name[cl] && sp->name[cl] != '.'))
            continue; /* data symbols never name code */
        s->csyms[s->ncsyms++] = (cli_csym){sym->name, addr};
    }
    return 0;
}

const char *cli_code_symbol_at(const cli_session *s, uint64_t addr, uint64_t *off)
{
    if (!s->csyms) {
        const ld_symbol *sym = s->img.nsyms ? ld_symbol_at(&s->img, addr, off) : NULL;
        return sym ? sym->name : NULL;
    }
    const cli_csym *best = NULL;
    for (int i = 0; i < s->ncsyms; i++)
        if (s->csyms[i].addr <= addr && (!best || s->csyms[i].addr > best->addr))
            best = &s->csyms[i];
    if (best)
        *off = addr - best->addr;
    return best ? best->name : NULL;
}
