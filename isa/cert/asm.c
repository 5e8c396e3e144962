/* isa/cert/asm.c: `xpusim asm --isa cert`: aiebu assembly (the syntax aiebu-asm -t aie2ps
 * and -t aie4 read) to an aiebu control-code ELF, byte for byte what aiebu-asm writes: the
 * newest release (e811334f) or Feb-2025 (ab3802ac), chosen by -o aiebu= (the cert_writers
 * rows below hold every difference). This file reads the source: `;` comment lines,
 * `name:` labels, instructions (mnemonics from the one table, isa/cert/table.c,
 * case-insensitive), data (`.long`, `.align`, `UC_DMA_BD`) and the directives, and sorts
 * the statements the way aiebu's parser does, because its pager and label numbering depend
 * on that order: per column (`.attach_to_group`), per label scope (a label in code opens a
 * scope that `.endl` closes; each scope is paged on its own, scopes in name order for
 * Feb-2025, in first-use order for the newest), code before `EOF`, data after it.
 * asm_page.c pages and encodes, asm_elf.c writes the file. Where aiebu would silently do
 * something else than the source says (drop a column written twice, misread an unknown
 * line) we stop with file:line. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "asm.h"
#include "../../core/asm/source.h"
#include "../../core/file.h"

#define MAX_INCLUDE_DEPTH 16
#define MAX_STATE_DEPTH 65536 /* aiebu grows its stack without bound; fused programs push thousands */
#define MAX_COLS 128

static const char *const spec_choices[] = {"2025.02", "latest", NULL};
static const char *const writer_choices[] = {"2025.02", "latest", NULL};
static const char *const bool_choices[] = {"0", "1", NULL};

/* The aiebu-asm releases, in writer_choices order. Facts from their sources (Feb-2025:
 * Xilinx/aiebu ab3802ac; latest: e811334f) and checked on their output files. */
const cert_writer cert_writers[] = {
    {.name = "2025.02", .spec = CERT_SPEC_2502, .group_osabi = 0, .running_addr = 0, .uid_raw = 0,
     .dyn_alloc = 1, .ooo_header = 1, .ffffffff_zero = 1, .scope_first_use = 0, .scope_state = 0,
     .eof_any_case = 0, .eof_in_label = 1, .jobs_per_eop = 0, .launch_closure = 0, .labels_shared = 0,
     .ao57_entries = 0, .actor_map = 0, .preempt_injects = 0, .reattach_appends = 0},
    {.name = "latest", .spec = CERT_SPEC_LATEST, .group_osabi = 0x46, .running_addr = 1, .uid_raw = 1,
     .dyn_alloc = 0, .ooo_header = 0, .ffffffff_zero = 0, .scope_first_use = 1, .scope_state = 1,
     .eof_any_case = 1, .eof_in_label = 0, .jobs_per_eop = 1, .launch_closure = 1, .labels_shared = 1,
     .ao57_entries = 1, .actor_map = 1, .preempt_injects = 1, .reattach_appends = 1},
};
static const char *const target_choices[] = {"aie2ps", "aie4", "aie4-a", "aie4-z", NULL};

/* `xpusim asm --isa cert -o` options, declared once (core/opts.h). */
const opt_desc cert_asm_options[] = {
    OPT_C("aiebu", "latest", writer_choices,
          "which aiebu-asm to reproduce byte for byte: latest (aiebu e811334f: OSABI 0x46, newest opcodes) "
          "or 2025.02 (ab3802ac)"),
    OPT_C("spec", NULL, spec_choices,
          "opcode table: 2025.02 (LOAD_PDI 6 bytes) or latest; default: the one of -o aiebu"),
    OPT_C("target", "aie2ps", target_choices, "device family (ELF OSABI, actor names); .target in the source overrides it"),
    OPT_T("include", NULL, "one more directory for .include and .setpad files (the source's own is searched first)"),
    OPT_C("symbols", "0", bool_choices,
          "1: add a .symtab with one symbol per label (value = page*8192 + offset, the pc) for the debugger; "
          "not byte-identical to aiebu-asm, which writes none"),
    OPT_T("preempt_asm", NULL,
          "directory holding aiebu's specification/aie4/preemption_asm/*.asm: on aie4, PREEMPT then gets "
          "the save/restore programs the newest aiebu-asm inserts (read from there at assembly time)"),
    OPT_END,
};

int cert_asm_fail(cert_asm *a, int file, int line, const char *fmt, ...)
{
    if (a->err[0])
        return -1;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(a->err, sizeof a->err, "%s:%d: %s", asm_files_name(&a->files, file), line, msg);
    return -1;
}

/* The reader's position: column, label scope path, the data/code state stack (aiebu pushes
 * a state at EOF, .section, .attach_to_group and .include, and pops only after an include). */
typedef struct cert_reader reader;
struct cert_reader {
    cert_asm *a;
    int col;                    /* -1 until the first statement or .attach_to_group */
    char *scope;                /* "default[:label...]" */
    unsigned char state[MAX_STATE_DEPTH];
    int nstate;
    int depth;
    const char *srcdir;
    int target_set;
    int annotation;             /* lines still to read of an annotation (id:, name:, description:) */
};

static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap * 2 : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int push_state(reader *r, int data, int file, int line)
{
    if (r->nstate >= MAX_STATE_DEPTH)
        return cert_asm_fail(r->a, file, line, "more than %d EOF/.section/.attach_to_group statements", MAX_STATE_DEPTH);
    r->state[r->nstate++] = (unsigned char)data;
    return 0;
}

static cert_col *get_col(cert_asm *a, int col)
{
    for (int i = 0; i < a->ncols; i++)
        if (a->cols[i].col == col)
            return &a->cols[i];
    if (grow((void **)&a->cols, &a->capcols, a->ncols + 1, sizeof *a->cols))
        return NULL;
    cert_col *c = &a->cols[a->ncols++];
    memset(c, 0, sizeof *c);
    c->col = col;
    return c;
}

static void free_scope(cert_scope *s)
{
    free(s->path);
    free(s->text);
    free(s->data);
}

static void clear_col(cert_col *c)
{
    for (int i = 0; i < c->nscopes; i++)
        free_scope(&c->scopes[i]);
    free(c->scopes);
    for (int i = 0; i < c->npads; i++) {
        free(c->pads[i].name);
        free(c->pads[i].content);
    }
    free(c->pads);
    for (int i = 0; i < c->npages; i++) {
        free(c->pages[i].text);
        free(c->pages[i].data);
        for (int k = 0; k < c->pages[i].nooo; k++)
            free(c->pages[i].ooo[k]);
        free(c->pages[i].ooo);
        if (c->text)
            free(c->text[i]);
        if (c->data)
            free(c->data[i]);
    }
    free(c->pages);
    free(c->text);
    free(c->data);
    free(c->text_len);
    free(c->data_len);
    for (int i = 0; i < c->nsyms; i++)
        free(c->syms[i].name);
    free(c->syms);
    free(c->lsyms);
    asm_symtab_free(&c->page_of);
    int col = c->col;
    memset(c, 0, sizeof *c);
    c->col = col;
}

/* Add a statement to the current column, scope and state. */
static int insert(reader *r, cert_item *it)
{
    cert_asm *a = r->a;
    if (r->col < 0)
        r->col = 0;
    cert_col *c = get_col(a, r->col);
    if (!c)
        return cert_asm_fail(a, it->file, it->line, "out of memory");
    if (!(it->kind == CI_OP && it->is_eof && it->line == 0))
        c->used = 1;
    cert_scope *s = NULL;
    for (int i = 0; i < c->nscopes && !s; i++)
        if (!strcmp(c->scopes[i].path, r->scope))
            s = &c->scopes[i];
    if (!s) {
        if (grow((void **)&c->scopes, &c->capscopes, c->nscopes + 1, sizeof *c->scopes))
            return cert_asm_fail(a, it->file, it->line, "out of memory");
        s = &c->scopes[c->nscopes++];
        memset(s, 0, sizeof *s);
        if (!(s->path = strdup(r->scope)))
            return cert_asm_fail(a, it->file, it->line, "out of memory");
    }
    int data = r->state[r->nstate - 1];
    if (data ? grow((void **)&s->data, &s->capdata, s->ndata + 1, sizeof *s->data)
             : grow((void **)&s->text, &s->captext, s->ntext + 1, sizeof *s->text))
        return cert_asm_fail(a, it->file, it->line, "out of memory");
    if (data)
        s->data[s->ndata++] = it;
    else
        s->text[s->ntext++] = it;
    return 0;
}

static char *lower_dup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    for (size_t i = 0; i < n; i++)
        d[i] = (char)tolower((unsigned char)s[i]);
    d[n] = 0;
    return d;
}

static cert_item *new_item(cert_asm *a, int kind, const char *name, size_t nlen, int file, int line)
{
    if (grow((void **)&a->items, &a->capitems, a->nitems + 1, sizeof *a->items))
        return NULL;
    cert_item *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    if (!(it->name = lower_dup(name, nlen))) {
        free(it);
        return NULL;
    }
    it->kind = kind;
    it->file = file;
    it->line = line;
    a->items[a->nitems++] = it;
    return it;
}

/* Operands: aiebu separates them with blanks and drops trailing commas; we accept commas
 * and blanks in any mix, which reads every source aiebu reads the same way. */
static int split_args(cert_item *it, const char *s)
{
    int n = 0;
    for (const char *p = s; *p;) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ',' && !isspace((unsigned char)*q))
            q++;
        char **v = realloc(it->args, sizeof *v * (size_t)(n + 1));
        if (!v)
            return -1;
        it->args = v;
        if (!(v[n] = lower_dup(p, (size_t)(q - p))))
            return -1;
        it->nargs = ++n;
        p = q;
    }
    return 0;
}

static int read_file(reader *r, const char *path, const char *as_name);

/* Find a file for .include / .setpad: absolute, else the source's directory, else -o include. */
static int find_file(reader *r, const char *name, char *out, size_t n)
{
    if (name[0] == '/') {
        snprintf(out, n, "%s", name);
        return 0;
    }
    const char *dirs[2] = {r->srcdir, r->a->include_dir};
    for (int i = 0; i < 2; i++) {
        if (!dirs[i])
            continue;
        if ((size_t)snprintf(out, n, "%s/%s", dirs[i], name) >= n)
            continue;
        FILE *f = fopen(out, "rb");
        if (f) {
            fclose(f);
            return 0;
        }
    }
    return -1;
}

static void unquote(char *s)
{
    size_t l = strlen(s);
    if (l >= 2 && s[0] == '"' && s[l - 1] == '"') {
        memmove(s, s + 1, l - 2);
        s[l - 2] = 0;
    }
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t l = strlen(s);
    while (l && isspace((unsigned char)s[l - 1]))
        s[--l] = 0;
    return s;
}

/* .setpad NAME, SIZE|FILE: SIZE counts 32-bit words (decimal, 0 octal or 0x hex). */
static int do_setpad(reader *r, char *args, int file, int line)
{
    cert_asm *a = r->a;
    char *comma = strchr(args, ',');
    if (!comma)
        return cert_asm_fail(a, file, line, ".setpad: expected NAME, SIZE or NAME, FILE");
    *comma = 0;
    char *name = trim(args), *val = trim(comma + 1);
    if (!*name || !*val)
        return cert_asm_fail(a, file, line, ".setpad: expected NAME, SIZE or NAME, FILE");
    uint32_t size = 0;
    uint8_t *content = NULL;
    char *end;
    if (isdigit((unsigned char)val[0])) {
        unsigned long long v = strtoull(val, &end, 0);
        if (*end)
            return cert_asm_fail(a, file, line, ".setpad: expected a size in words, got '%s'", val);
        /* the pads of a uC follow its pages in one host buffer; the loader takes at most
         * CERT_MAX_PAGES pages' worth (32 MiB), and so do we, before any allocation */
        if (v > (unsigned long long)CERT_PAGE_SIZE * CERT_MAX_PAGES / 4)
            return cert_asm_fail(a, file, line, ".setpad: %llu words is more than a uC's pads may hold (%u words)", v,
                                 CERT_PAGE_SIZE * CERT_MAX_PAGES / 4);
        size = (uint32_t)v * 4;
    } else {
        unquote(val);
        char path[4200];
        if (find_file(r, val, path, sizeof path))
            return cert_asm_fail(a, file, line, ".setpad: file '%s' not found", val);
        char e[300];
        size_t len;
        if (file_read_all(path, FILE_MAX_INPUT, &content, &len, e, sizeof e))
            return cert_asm_fail(a, file, line, ".setpad: %s", e);
        size = (uint32_t)len;
        /* aiebu (both releases) pushes the code state when it reads a pad file and never pops
         * it: what follows goes to code */
        if (push_state(r, 0, file, line)) {
            free(content);
            return -1;
        }
    }
    if (r->col < 0)
        r->col = 0;
    cert_col *c = get_col(a, r->col);
    if (!c) {
        free(content);
        return cert_asm_fail(a, file, line, "out of memory");
    }
    uint64_t total = size;
    for (int i = 0; i < c->npads; i++)
        total += strcmp(c->pads[i].name, name) ? c->pads[i].size : 0;
    if (total > (uint64_t)CERT_PAGE_SIZE * CERT_MAX_PAGES) {
        free(content);
        return cert_asm_fail(a, file, line, ".setpad: the pads of uC %d would take %llu bytes, more than %u", r->col,
                             (unsigned long long)total, CERT_PAGE_SIZE * CERT_MAX_PAGES);
    }
    for (int i = 0; i < c->npads; i++)
        if (!strcmp(c->pads[i].name, name)) { /* a later .setpad of a name replaces it */
            free(c->pads[i].content);
            c->pads[i].content = content;
            c->pads[i].size = size;
            return 0;
        }
    cert_pad *p = realloc(c->pads, sizeof *p * (size_t)(c->npads + 1));
    if (!p) {
        free(content);
        return cert_asm_fail(a, file, line, "out of memory");
    }
    c->pads = p;
    p[c->npads] = (cert_pad){strdup(name), size, 0, 0, content};
    if (!p[c->npads].name)
        return cert_asm_fail(a, file, line, "out of memory");
    c->npads++;
    return 0;
}

/* The directives that steer the reader rather than make statements. 1: not one of them. */
static int directive(reader *r, const char *name, size_t nlen, char *args, int file, int line)
{
    cert_asm *a = r->a;
#define IS(s) (nlen == sizeof(s) - 1 && !strncasecmp(name, s, nlen))
    if (IS(".attach_to_group")) {
        char *end;
        long col = strtol(args, &end, 0);
        if (!*args || *trim(end) || col < 0 || col >= MAX_COLS)
            return cert_asm_fail(a, file, line, ".attach_to_group: expected a uC index 0..%d", MAX_COLS - 1);
        /* aiebu ends the previous column with an EOF of its own (line 0 marks it) */
        cert_item *eof = new_item(a, CI_OP, "eof", 3, 0, 0);
        if (!eof || !(eof->op = cert_op_by_name("EOF", 3, a->spec)))
            return cert_asm_fail(a, file, line, "out of memory");
        eof->is_eof = 1;
        if (insert(r, eof))
            return -1;
        cert_col *c = get_col(a, (int)col);
        if (!c)
            return cert_asm_fail(a, file, line, "out of memory");
        if (!a->w->reattach_appends) { /* Feb-2025 aiebu silently discards the code already there */
            if (c->used)
                return cert_asm_fail(a, file, line, ".attach_to_group %ld: that uC already has code", col);
            clear_col(c);
        }
        r->col = (int)col;
        return push_state(r, 0, file, line);
    }
    if (IS(".section")) {
        char *comma = strchr(args, ',');
        if (comma)
            *comma = 0;
        args = trim(args);
        if (!strncmp(args, ".ctrltext", 9))
            return push_state(r, 0, file, line);
        if (!strncmp(args, ".ctrldata", 9))
            return push_state(r, 1, file, line);
        if (!strncmp(args, "annotation", 10)) { /* debug text for aiebu's dump: nothing to encode */
            r->annotation = 3;
            return 0;
        }
        return cert_asm_fail(a, file, line, ".section: expected .ctrltext or .ctrldata, got '%s'", args);
    }
    if (IS(".include")) {
        unquote(args);
        char path[4200];
        if (!*args || find_file(r, args, path, sizeof path))
            return cert_asm_fail(a, file, line, ".include: file '%s' not found", args);
        if (r->depth >= MAX_INCLUDE_DEPTH)
            return cert_asm_fail(a, file, line, ".include: nested more than %d deep", MAX_INCLUDE_DEPTH);
        if (push_state(r, 0, file, line))
            return -1;
        if (read_file(r, path, path))
            return -1;
        r->nstate--;
        return 0;
    }
    if (IS(".endl")) {
        char *comma = strchr(args, ',');
        if (comma)
            *comma = 0;
        args = trim(args);
        char *colon = strrchr(r->scope, ':');
        const char *top = colon ? colon + 1 : r->scope;
        if (strcmp(top, args))
            return cert_asm_fail(a, file, line, ".endl %s: the open label scope is %s", args, top);
        if (colon)
            *colon = 0;
        if (a->w->scope_state && r->nstate > 1) /* back to the state the label interrupted */
            r->nstate--;
        return 0;
    }
    if (IS(".setpad"))
        return do_setpad(r, args, file, line);
    if (IS(".target")) {
        args = trim(args);
        for (int i = 0; target_choices[i]; i++)
            if (!strcasecmp(args, target_choices[i])) {
                a->target = i;
                return 0;
            }
        return cert_asm_fail(a, file, line, ".target: expected aie2ps, aie4, aie4-a or aie4-z");
    }
    if (IS(".partition")) { /* `Ncolumn` picks aiebu's save/restore programs; nothing to encode */
        char *end;
        long n = strtol(args, &end, 10);
        if (end != args && !strcmp(trim(end), "column") && n >= 0 && n < 1000)
            a->partition_cols = (int)n;
        return 0;
    }
    if (IS(".aie_row_topology"))
        return 0; /* how many rows the code was built for: nothing to encode */
#undef IS
    return 1;
}

static int is_label_line(const char *s, size_t n)
{
    if (n < 2 || s[n - 1] != ':')
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return 0;
    return 1;
}

static int process_line(reader *r, char *line, int file, int lineno)
{
    cert_asm *a = r->a;
    char *s = trim(line);
    if (r->annotation) { /* aiebu reads the three lines after `.section annotation` as they come */
        r->annotation--;
        if (strncmp(s, "id:", 3) && strncmp(s, "name:", 5) && strncmp(s, "description:", 12))
            return cert_asm_fail(a, file, lineno, "annotation: expected id:, name: or description:, got '%s'", s);
        return 0;
    }
    /* aiebu's trim drops a line of one character; comment lines start with ';' */
    if (strlen(s) <= 1 || s[0] == ';')
        return 0;
    char *semi = strchr(s, ';');
    if (semi) {
        *semi = 0;
        s = trim(s);
    }
    size_t n = strlen(s);
    if (is_label_line(s, n)) {
        if (!r->state[r->nstate - 1]) {
            /* a label in code opens a label scope, paged on its own (PDI / preemption code) */
            size_t l = strlen(r->scope);
            char *p = realloc(r->scope, l + n + 1);
            if (!p)
                return cert_asm_fail(a, file, lineno, "out of memory");
            r->scope = p;
            p[l] = ':';
            memcpy(p + l + 1, s, n - 1);
            p[l + n] = 0;
            return a->w->scope_state ? push_state(r, 0, file, lineno) : 0;
        }
        cert_item *it = new_item(a, CI_LABEL, s, n - 1, file, lineno);
        return it ? insert(r, it) : cert_asm_fail(a, file, lineno, "out of memory");
    }
    size_t wl = 0;
    while (s[wl] && (isalnum((unsigned char)s[wl]) || s[wl] == '_' || s[wl] == '.'))
        wl++;
    if (!wl || (s[wl] && !isspace((unsigned char)s[wl])))
        return cert_asm_fail(a, file, lineno, "expected a label, a directive or an instruction");
    char *args = trim(s + wl);
    int d = directive(r, s, wl, args, file, lineno);
    if (d <= 0)
        return d;
    int kind = CI_OP;
    const cert_opdef *op = NULL;
    if (wl == 5 && !strncasecmp(s, ".long", 5))
        kind = CI_LONG;
    else if (wl == 6 && !strncasecmp(s, ".align", 6))
        kind = CI_ALIGN;
    else if (wl == 9 && !strncasecmp(s, "uc_dma_bd", 9))
        kind = CI_BD;
    else if (wl == 4 && !strncasecmp(s, ".eop", 4))
        kind = CI_EOP;
    else if (!(op = cert_op_by_name(s, wl, a->spec)))
        return cert_asm_fail(a, file, lineno, "unknown instruction or directive '%.*s' (spec %s)", (int)wl, s,
                             cert_spec_name(a->spec));
    int preempt = op && op->code == 0x19 && a->w->preempt_injects;
    if (preempt && a->preempt_dir && a->target == 0)
        return cert_asm_fail(a, file, lineno, "PREEMPT: the newest aiebu-asm refuses it on aie2ps");
    if (preempt && !a->preempt_dir && !a->preempt_warned) {
        /* the newest aiebu-asm refuses PREEMPT on aie2ps and, on aie4, rewrites its operands
         * to save/restore programs it inserts from its own copy of its preemption_asm files,
         * which -o preempt_asm=DIR names (asm_preempt.c): without it we keep the operands as
         * written and say so */
        a->preempt_warned = 1;
        fprintf(stderr,
                "xpusim: warning: %s:%d: PREEMPT assembled with its operands as written; the newest aiebu-asm "
                "%s, so this file is not byte-identical to its output%s\n",
                asm_files_name(&a->files, file), lineno,
                a->target == 0 ? "refuses PREEMPT on aie2ps"
                               : "replaces them with save/restore code built into aiebu",
                a->target == 0 ? "" : " (-o preempt_asm=DIR, DIR holding aiebu's preemption_asm files, does that)");
    }
    cert_item *it = new_item(a, kind, s, wl, file, lineno);
    if (!it || split_args(it, args))
        return cert_asm_fail(a, file, lineno, "out of memory");
    it->op = op;
    if (preempt && a->preempt_dir && cert_preempt_note(a, it, r->col, r->scope))
        return -1;
    it->is_eof = op && op->code == CERT_OP_EOF;
    if (insert(r, it))
        return -1;
    /* Feb-2025 aiebu switches to data only after the upper-case spelling */
    if (wl == 3 && (a->w->eof_any_case ? !strncasecmp(s, "eof", 3) : !strncmp(s, "EOF", 3)))
        return push_state(r, 1, file, lineno);
    return 0;
}

/* One line of a source file (asm_source_read): its file index rides along with the reader. */
typedef struct line_ctx {
    reader *r;
    int file;
} line_ctx;

static int source_line(void *ctx, const char *file, int line, char *text, const char *lerr)
{
    line_ctx *lc = ctx;
    (void)file; /* no cpp: every line is the opened file's */
    return text ? process_line(lc->r, text, lc->file, line) : cert_asm_fail(lc->r->a, lc->file, line, "%s", lerr);
}

static int read_file(reader *r, const char *path, const char *as_name)
{
    cert_asm *a = r->a;
    line_ctx lc = {r, asm_files_index(&a->files, as_name)};
    if (lc.file < 0)
        return cert_asm_fail(a, 0, 0, "out of memory");
    r->depth++;
    int rc = asm_source_read(path, NULL, source_line, &lc, a->err, sizeof a->err);
    r->depth--;
    return rc;
}

int cert_read_text(reader *r, int col, char *text, const char *name)
{
    cert_asm *a = r->a;
    int file = asm_files_index(&a->files, name);
    if (file < 0)
        return cert_asm_fail(a, 0, 0, "out of memory");
    r->col = col;
    if (push_state(r, 0, file, 0))
        return -1;
    int lineno = 0;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        if (process_line(r, p, file, ++lineno))
            return -1;
        p = nl ? nl + 1 : NULL;
    }
    if (r->nstate > 1)
        r->nstate--;
    return 0;
}

static int cmp_col(const void *x, const void *y)
{
    const cert_col *a = x, *b = y;
    return (a->col > b->col) - (a->col < b->col);
}
static int cmp_scope(const void *x, const void *y)
{
    return strcmp(((const cert_scope *)x)->path, ((const cert_scope *)y)->path);
}
static int cmp_pad(const void *x, const void *y)
{
    return strcmp(((const cert_pad *)x)->name, ((const cert_pad *)y)->name);
}

static void free_asm(cert_asm *a)
{
    for (int i = 0; i < a->ncols; i++)
        clear_col(&a->cols[i]);
    free(a->cols);
    for (int i = 0; i < a->nitems; i++) {
        for (int k = 0; k < a->items[i]->nargs; k++)
            free(a->items[i]->args[k]);
        free(a->items[i]->args);
        free(a->items[i]->name);
        free(a->items[i]);
    }
    free(a->items);
    asm_files_free(&a->files);
    cert_preempt_free(a);
}

int cert_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                  size_t errlen)
{
    if (nsrc != 1) {
        snprintf(err, errlen, "the CERT assembler takes one source file (use .include for more)");
        return -1;
    }
    cert_asm a;
    memset(&a, 0, sizeof a);
    int spec = -1, target = 0, writer = 1, symbols = 0;
    if (opts && (opt_choice(opts, cert_asm_options, "aiebu", &writer, err, errlen) < 0 ||
                 opt_choice(opts, cert_asm_options, "spec", &spec, err, errlen) < 0 ||
                 opt_choice(opts, cert_asm_options, "target", &target, err, errlen) < 0 ||
                 opt_choice(opts, cert_asm_options, "symbols", &symbols, err, errlen) < 0))
        return -1;
    a.w = &cert_writers[writer];
    a.spec = spec >= 0 ? cert_spec_parse(spec_choices[spec]) : a.w->spec; /* the writer's unless given */
    a.target = target;
    a.symbols = symbols;
    a.include_dir = opts ? opt_text(opts, cert_asm_options, "include") : NULL;
    a.preempt_dir = opts ? opt_text(opts, cert_asm_options, "preempt_asm") : NULL;
    a.partition_cols = 4;
    reader r = {.a = &a, .col = -1};
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", srcs[0]);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    r.srcdir = dir;
    r.scope = strdup("default");
    int rc = -1;
    if (!r.scope) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    r.state[r.nstate++] = 0;
    /* file 0 is the main source ("default" to aiebu): labels and jobs are scoped by file */
    if (read_file(&r, srcs[0], srcs[0]) || cert_preempt_finish(&a, &r))
        goto fail;
    if (a.ncols) /* (qsort of NULL is undefined even for 0 elements) */
        qsort(a.cols, (size_t)a.ncols, sizeof *a.cols, cmp_col);
    for (int i = 0; i < a.ncols; i++) {
        if (a.cols[i].nscopes && !a.w->scope_first_use) /* Feb-2025: a std::map, by name */
            qsort(a.cols[i].scopes, (size_t)a.cols[i].nscopes, sizeof *a.cols[i].scopes, cmp_scope);
        if (a.cols[i].npads)
            qsort(a.cols[i].pads, (size_t)a.cols[i].npads, sizeof *a.cols[i].pads, cmp_pad);
    }
    if (!a.ncols) {
        snprintf(a.err, sizeof a.err, "%s: no instructions", srcs[0]);
        goto fail;
    }
    if (cert_asm_pages(&a) || cert_asm_write_elf(&a, out, a.err, sizeof a.err))
        goto fail;
    rc = 0;
    goto out;
fail:
    snprintf(err, errlen, "%s", a.err[0] ? a.err : "out of memory");
out:
    free(r.scope);
    free_asm(&a);
    return rc;
}
