/* isa/dpu/asm.c: assembler and linker for the SDK assembly syntax (what
 * `dpu-upmem-dpurte-clang -S` emits). All source files are read into statements, laid out
 * with the SDK linker-script order (dpu.lds: .text.__bootstrap first at 0x80000000; WRAM
 * from 0: .data.__sys_zero, .data.immediate_memory*, .rodata*, .bss*, .data.__sys_keep,
 * other .data*, .dpu_host, then the tasklet stacks; MRAM at 0x08000000: .mram*, the section
 * defining __sys_used_mram_end last; .atomic at 0xF0000000), then encoded in a second pass
 * once every symbol has its final value, so no relocation records are needed. Output: an
 * ELF32 e_machine 0xF5 file with LOAD segments and symbols, as the SDK produces.
 * In instruction operands IRAM symbols count in instructions (the PC unit); in data they do
 * too, so code pointers stored in data can be called (docs/isa/dpu.md). Built on the shared
 * framework (core/asm/, docs/assembler.md): this file holds the SDK's comment syntax, the
 * DPU's directive rows and data rules, its sections' regions, linking, layout and ELF
 * layout; asmline.c encodes one instruction through the table. */
#include <ctype.h>
#include <elf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpu.h"
#include "../isa.h"
#include "../../core/asm/data.h"
#include "../../core/asm/directive.h"
#include "../../core/asm/elf_write.h"
#include "../../core/asm/limits.h"
#include "../../core/asm/section.h"
#include "../../core/asm/source.h"
#include "../../core/asm/macro.h"
#include "../../core/asm/symtab.h"
#include "../../core/asm/text.h"

enum { RG_TEXT, RG_WRAM, RG_MRAM, RG_ATOMIC, RG_DROP };

/* sections: core/asm/section.c's, per source file (scope) as in object files; the DPU's
 * fields: tag = memory region (RG_*), rank = order inside it, flags = SEC_SYS_END when the
 * section defines __sys_used_mram_end */
typedef asm_section asm_sec;
#define SEC_SYS_END 1u

/* symbols: core/asm/symtab.c; scope is the defining file (-1: linker-defined) */
typedef asm_symbol asm_sym;

/* statements: core/asm/section.c's; DPU_ST_INSN is an instruction (8 bytes, its text) */
enum { DPU_ST_INSN = 1 };

typedef struct asm_ctx {
    const char *const *srcs;
    asm_sections secs;
    asm_symtab syms;
    asm_stmts stmts;
    int cur_file, cur_line, cur_col, cur_sec, prev_sec;  /* cur_col: of the statement, 1-based */
    asm_macros macros;
    char *err; size_t errlen;
    int ntasklets;
    uint32_t stack_size;
    uint32_t text_size, wram_end, mram_end, atomic_size;
    uint8_t *text, *wram, *mram, *atomic;
    int pass2_file;      /* file whose local symbols apply */
} asm_ctx;

static int fail(asm_ctx *c, int file, int line, const char *fmt, const char *a)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a);
    if (file >= 0)
        snprintf(c->err, c->errlen, "%s:%d:%d: %s", c->srcs[file], line, c->cur_col > 0 ? c->cur_col : 1, msg);
    else
        snprintf(c->err, c->errlen, "%s", msg);
    return -1;
}

static int region_of(const char *n, int *rank)
{
    *rank = 50;
    if (!strncmp(n, ".text", 5)) { *rank = !strcmp(n, ".text.__bootstrap") ? 0 : 10; return RG_TEXT; }
    if (!strncmp(n, ".mram", 5)) { *rank = !strncmp(n, ".mram.noinit", 12) ? 10 : 20; return RG_MRAM; }
    if (!strcmp(n, ".atomic")) return RG_ATOMIC;
    if (!strcmp(n, ".data.__sys_zero")) { *rank = 0; return RG_WRAM; }
    if (!strncmp(n, ".data.immediate_memory", 22)) { *rank = 10; return RG_WRAM; }
    if (!strncmp(n, ".rodata", 7)) { *rank = 20; return RG_WRAM; }
    if (!strncmp(n, ".bss", 4)) { *rank = 30; return RG_WRAM; }
    if (!strcmp(n, ".data.__sys_keep")) { *rank = 40; return RG_WRAM; }
    if (!strncmp(n, ".data", 5)) { *rank = 50; return RG_WRAM; }
    if (!strcmp(n, ".dpu_host")) { *rank = 60; return RG_WRAM; }
    return RG_DROP;
}

static int sec_get(asm_ctx *c, const char *name)
{
    int created, i = asm_section_get(&c->secs, name, c->cur_file, &created);
    if (i >= 0 && created) {
        asm_sec *x = &c->secs.v[i];
        x->tag = region_of(name, &x->rank);
        x->align = x->tag == RG_TEXT ? 8 : 1;
    }
    return i;
}

/* The definition file sees for name: its own, else a global one (a strong definition wins
 * over a weak one), else its own undefined reference. */
static asm_sym *sym_find(asm_ctx *c, const char *name, int file)
{
    asm_sym *own = NULL, *g = NULL;
    for (int i = asm_sym_first(&c->syms, name); i >= 0; i = c->syms.v[i].next_same) {
        asm_sym *s = &c->syms.v[i];
        if (s->scope == file)
            own = s;
        else if ((s->global || s->scope < 0) && s->defined && (!g || (g->weak && !s->weak)))
            g = s;
    }
    if (own && (own->defined || !own->global))
        return own->defined || !g ? own : g;
    return g ? g : own;
}

static asm_sym *sym_get(asm_ctx *c, const char *name, int file)
{
    return asm_sym_get(&c->syms, name, file);
}

/* ---- pass 1: statements, sections, label offsets ---- */
/* SDK assembly: `//` comments anywhere, `#` at the line start or after a blank */
static const asm_comment_syntax dpu_comments = {{"//"}, {"#"}};

/* A statement at the end of the current section, which grows by size. */
static int add_stmt(asm_ctx *c, int kind, uint32_t size, const char *text, const asm_data *d)
{
    asm_stmt proto = {.kind = kind, .file = c->cur_file, .line = c->cur_line, .col = c->cur_col, .size = size};
    if (d)
        proto.data = *d;
    int too_big;
    if (asm_stmt_add(&c->stmts, &c->secs, c->cur_sec, &proto, NULL, text, &too_big))
        return 0;
    return too_big ? fail(c, c->cur_file, c->cur_line, "section grows past 256 MiB at '%s'", text)
                   : fail(c, c->cur_file, c->cur_line, "out of memory%s", "");
}

/* SDK data: `.align N` is 2^N bytes, values are cut to their width as the R_DPU_8/16/32
 * relocations do, alignments go up to 4 KiB. */
static const asm_data_rules dpu_data_rules = {1, 4096, 1u << 26, 0, 0, {0} /* links at once: no object files */};

/* A value needed in pass 1 (sizes, fills, alignments): numbers only, as SDK output has. */
static int dpu_const(void *ctx, const char *text, int64_t *v, char *err, size_t errlen)
{
    (void)ctx;
    return dpu_eval_expr(text, NULL, v, err, errlen);
}

/* A data value in pass 2, with every symbol's final value. */
static int dpu_value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen);


/* ---- directives: the DPU's own rows; data, alignment and annotations are shared ---- */
#define DFAIL(...) fail(c, c->cur_file, c->cur_line, __VA_ARGS__)

static int dir_section(void *ctx, const char *d, char *args)
{
    asm_ctx *c = ctx;
    char name[ASM_MAX_IDENT + 1];
    if (!strcmp(d, ".section")) {
        size_t k = strcspn(args, ", \t\r\v\f");
        if (!k)
            return DFAIL("expected a section name after .section%s", "");
        if (k > ASM_MAX_IDENT)
            return DFAIL("section name longer than %s characters", "255");
        memcpy(name, args, k);
        name[k] = 0;
    } else
        snprintf(name, sizeof name, "%s", d);
    int sec = sec_get(c, name);
    if (sec < 0)
        return DFAIL("out of memory%s", "");
    c->prev_sec = c->cur_sec;
    c->cur_sec = sec;
    return 0;
}

static int dir_previous(void *ctx, const char *d, char *args)
{
    asm_ctx *c = ctx;
    (void)d, (void)args;
    int t = c->cur_sec;
    c->cur_sec = c->prev_sec;
    c->prev_sec = t;
    return 0;
}

static int dir_global(void *ctx, const char *d, char *args)
{
    asm_ctx *c = ctx;
    char *names[ASM_MAX_OPERANDS];
    int n = asm_split_operands(args, names, ASM_MAX_OPERANDS);
    for (int i = 0; i < n; i++) {
        asm_sym *y = sym_get(c, names[i], c->cur_file);
        if (!y)
            return DFAIL("out of memory%s", "");
        y->global = 1;
        y->weak |= !strcmp(d, ".weak");
    }
    return 0;
}

static int dir_set(void *ctx, const char *d, char *args)
{
    asm_ctx *c = ctx;
    char *comma = strchr(args, ',');
    if (!comma)
        return DFAIL("expected '%s NAME, VALUE'", d);
    *comma = 0;
    asm_sym *y = sym_get(c, asm_trim(args), c->cur_file);
    if (!y || (y->defined = 1, y->section = -1, asm_sym_set_expr(y, asm_trim(comma + 1))))
        return DFAIL("out of memory%s", "");
    return 0;
}

static int dir_size(void *ctx, const char *d, char *args)
{
    asm_ctx *c = ctx;
    (void)d;
    char *comma = strchr(args, ',');
    if (comma) { /* .size NAME, EXPR: kept when EXPR is a number (`.-NAME` sizes are not needed) */
        *comma = 0;
        int64_t v;
        char e[200];
        asm_sym *y = sym_get(c, asm_trim(args), c->cur_file);
        if (y && !dpu_eval_expr(asm_trim(comma + 1), NULL, &v, e, sizeof e))
            y->size = (uint32_t)v;
    }
    return 0;
}

static int dir_local(void *ctx, const char *d, char *args)
{
    (void)ctx, (void)d, (void)args; /* symbols are local unless .globl */
    return 0;
}

static int dir_data(void *ctx, const char *d, char *args, const asm_data *given)
{
    asm_ctx *c = ctx;
    asm_sec *S = &c->secs.v[c->cur_sec];
    asm_data data = *given;
    uint32_t size = data.size;
    if (data.kind == ASM_DATA_ALIGN) {
        if (S->tag == RG_TEXT && data.align < 8)
            data.align = 8; /* instructions stay 8-byte aligned */
        if (data.align > S->align)
            S->align = data.align;
        size = asm_data_pad(&data, S->size);
    }
    (void)d;
    return add_stmt(c, ASM_STMT_DATA, size, args, &data);
}

static const asm_directive dpu_directive_rows[] = {
    {".section", dir_section}, {".text", dir_section}, {".data", dir_section}, {".bss", dir_section},
    {".rodata", dir_section},  {".previous", dir_previous}, {".globl", dir_global}, {".global", dir_global},
    {".weak", dir_global},     {".set", dir_set},        {".equ", dir_set},       {".size", dir_size},
    {".local", dir_local},     {NULL, NULL},
};
static const asm_directives dpu_directives = {dpu_directive_rows, &dpu_data_rules, dpu_const, dir_data};

static int pass1_line(asm_ctx *c, char *raw);
static int pass1_line_cb(void *ctx, char *line) { return pass1_line(ctx, line); }

/* One source line, or one line of a macro expansion, in pass 1: labels, then a directive, a
 * macro use or an instruction. The current section lives in c (a macro may switch it). */
static int pass1_line(asm_ctx *c, char *raw)
{
    if (c->macros.defining >= 0)
        return asm_macro_record(&c->macros, raw) ? fail(c, c->cur_file, c->cur_line, "out of memory%s", "") : 0;
    int sec = c->cur_sec;
    asm_strip_comment(raw, &dpu_comments);
    char *s = asm_trim(raw);
    c->cur_col = (int)(s - raw) + 1;
    /* labels (possibly several) at the start of the line, or NAME = EXPR */
    for (;;) {
        char *name;
        int k = asm_take_label(&s, &name);
        if (k < 0)
            return fail(c, c->cur_file, c->cur_line, "label longer than %s characters", "255");
        if (k == 2) {
            char set[ASM_MAX_LINE + 8];
            snprintf(set, sizeof set, "%s, %s", name, s);
            return dir_set(c, ".set", set);
        }
        if (k == 0)
            break;
        asm_sym *y = sym_get(c, name, c->cur_file);
        if (!y) { return fail(c, c->cur_file, c->cur_line, "out of memory%s", ""); }
        if (y->defined) { return fail(c, c->cur_file, c->cur_line, "symbol '%s' defined twice", name); }
        y->defined = 1;
        y->section = sec;
        y->value = c->secs.v[sec].size;
        if (!strcmp(name, "__sys_used_mram_end"))
            c->secs.v[sec].flags |= SEC_SYS_END;
        s = asm_trim(s);
    }
    if (!*s)
        return 0;
    c->cur_col = (int)(s - raw) + 1;
    char word[64];
    char *args = asm_first_word(s, word, sizeof word);
    asm_sec *S = &c->secs.v[sec];
    if (!strcmp(word, ".macro")) {
        char e[300];
        return asm_macro_begin(&c->macros, args, e, sizeof e) ? fail(c, c->cur_file, c->cur_line, "%s", e) : 0;
    }
    int mi = asm_macro_find(&c->macros, word);
    if (mi >= 0) {
        char e[300];
        int line = c->cur_line;
        int rc = asm_macro_expand(&c->macros, mi, args, pass1_line_cb, c, e, sizeof e);
        if (rc && e[0])
            return fail(c, c->cur_file, line, "%s", e);
        return rc;
    }
    if (word[0] != '.') {
        if (S->tag != RG_TEXT) { return fail(c, c->cur_file, c->cur_line, "instruction outside a text section: %s", s); }
        return add_stmt(c, DPU_ST_INSN, 8, s, NULL);
    }
    char e[300];
    int rc = asm_directive_run(&dpu_directives, c, word, args, e, sizeof e);
    if (rc && e[0])
        return fail(c, c->cur_file, c->cur_line, "%s", e);
    return rc;
}

static int pass1_file(asm_ctx *c, int file)
{
    char e[400];
    asm_source src;
    if (asm_source_open(&src, c->srcs[file], NULL, e, sizeof e))
        return fail(c, -1, 0, "%s", e);
    c->cur_file = file;
    c->cur_sec = c->prev_sec = sec_get(c, ".text");
    int rc = c->cur_sec < 0 ? fail(c, -1, 0, "out of memory%s", "") : 0, r;
    char *line;
    while (rc == 0 && (r = asm_source_next(&src, &line, e, sizeof e)) != 0) {
        c->cur_line = src.line;
        c->cur_col = 1;
        rc = r < 0 ? fail(c, file, c->cur_line, "%s", e) : pass1_line(c, line);
    }
    asm_source_close(&src, e, sizeof e);
    c->cur_col = 1;
    if (rc == 0 && c->macros.defining >= 0)
        rc = fail(c, file, c->cur_line, "missing .endm for macro '%s'", c->macros.v[c->macros.defining].name);
    return rc;
}

/* ---- symbol values ---- */
static int sym_value(asm_ctx *c, asm_sym *y, int64_t *v);

static int lookup(void *ctx, const char *name, int64_t *val)
{
    asm_ctx *c = ctx;
    asm_sym *y = sym_find(c, name, c->pass2_file);
    if (!y || !y->defined)
        return -1;
    return sym_value(c, y, val);
}

static int sym_value(asm_ctx *c, asm_sym *y, int64_t *v)
{
    if (y->expr) {
        if (y->busy)
            return -1;
        y->busy = 1;
        dpu_sym_resolver r = {lookup, c};
        char e[200];
        int save = c->pass2_file;
        c->pass2_file = y->scope < 0 ? save : y->scope;
        int rc = dpu_eval_expr(y->expr, &r, v, e, sizeof e);
        c->pass2_file = save;
        y->busy = 0;
        return rc;
    }
    if (y->section < 0) {
        *v = y->value;
        return 0;
    }
    asm_sec *s = &c->secs.v[y->section];
    uint32_t addr = s->base + (uint32_t)y->value;
    if (s->tag == RG_TEXT)
        *v = (addr - 0x80000000u) / 8; /* IRAM symbols count in instructions */
    else if (s->tag == RG_ATOMIC)
        *v = addr - 0xF0000000u;      /* atomic bits are numbered from 0 (as in SDK binaries) */
    else
        *v = addr;
    return 0;
}

static asm_sym *define_abs(asm_ctx *c, const char *name, int64_t v)
{
    asm_sym *y = sym_find(c, name, -1);
    if (y && y->defined)
        return y;
    y = sym_get(c, name, -1);
    if (!y) return NULL;
    y->defined = 1;
    y->global = 1;
    y->section = -1;
    y->value = v;
    return y;
}

/* Two files may not both define a global symbol, unless one of them is weak. */
static int check_duplicates(asm_ctx *c)
{
    for (int i = 0; i < c->syms.n; i++) {
        asm_sym *a = &c->syms.v[i];
        if (!a->defined || !a->global || a->weak || a->scope < 0)
            continue;
        for (int j = a->next_same; j >= 0; j = c->syms.v[j].next_same) {
            asm_sym *b = &c->syms.v[j];
            if (b->defined && b->global && !b->weak && b->scope >= 0 && b->scope != a->scope) {
                snprintf(c->err, c->errlen, "symbol '%s' is defined in %s and in %s", a->name, c->srcs[a->scope],
                         c->srcs[b->scope]);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- section garbage collection (as the SDK links with --gc-sections) ---- */

/* Mark the section defining name (as seen from file) and queue it. */
static void gc_ref(asm_ctx *c, const char *name, int file, char *mark, int *queue, int *nq)
{
    asm_sym *y = sym_find(c, name, file);
    if (!y || !y->defined)
        return;
    if (y->section >= 0 && !mark[y->section]) {
        mark[y->section] = 1;
        queue[(*nq)++] = y->section;
    }
    if (y->expr && !y->busy) {
        /* a .set alias keeps what its expression names */
        y->busy = 1;
        const char *p = y->expr;
        while (*p) {
            if (asm_is_ident_start((unsigned char)*p)) {
                char nm[ASM_MAX_LINE + 1];
                size_t n = 0;
                while (asm_is_ident_char((unsigned char)*p) && n + 1 < sizeof nm) nm[n++] = *p++;
                nm[n] = 0;
                gc_ref(c, nm, y->scope < 0 ? file : y->scope, mark, queue, nq);
            } else
                p++;
        }
        y->busy = 0;
    }
}

/* Keep the sections reachable from the bootstrap and from the sections the SDK linker
 * script keeps (KEEP: .data.__sys_zero, .data.__sys_keep, .dpu_host, .atomic, *.keep);
 * drop the others. Without a .text.__bootstrap nothing is dropped. */
static int gc_sections(asm_ctx *c)
{
    int boot = -1;
    for (int i = 0; i < c->secs.n; i++)
        if (!strcmp(c->secs.v[i].name, ".text.__bootstrap") && c->secs.v[i].size)
            boot = i;
    if (boot < 0)
        return 0;
    char *mark = calloc((size_t)c->secs.n + 1, 1);
    int *queue = malloc(sizeof(int) * ((size_t)c->secs.n + 1));
    if (!mark || !queue) {
        free(mark);
        free(queue);
        return fail(c, -1, 0, "out of memory%s", "");
    }
    int nq = 0;
    for (int i = 0; i < c->secs.n; i++) {
        const char *n = c->secs.v[i].name;
        if (i == boot || !strcmp(n, ".data.__sys_zero") || !strncmp(n, ".data.__sys_keep", 16) ||
            !strcmp(n, ".dpu_host") || !strcmp(n, ".atomic") || strstr(n, ".keep") || c->secs.v[i].flags) {
            mark[i] = 1;
            queue[nq++] = i;
        }
    }
    /* statements by section, scanned for the names they use */
    for (int qi = 0; qi < nq; qi++) {
        int sec = queue[qi];
        for (int k = 0; k < c->stmts.n; k++) {
            const asm_stmt *st = &c->stmts.v[k];
            if (st->sec != sec)
                continue;
            const char *p = st->text;
            if (st->kind == DPU_ST_INSN) /* skip the mnemonic; data statements hold operands only */
                while (*p && !isspace((unsigned char)*p)) p++;
            while (*p) {
                if (*p == '"') { /* strings name nothing */
                    p++;
                    while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
                    if (*p) p++;
                } else if (asm_is_ident_start((unsigned char)*p) && (p == st->text || !asm_is_ident_char((unsigned char)p[-1]))) {
                    char nm[ASM_MAX_LINE + 1];
                    size_t n = 0;
                    while (asm_is_ident_char((unsigned char)*p) && n + 1 < sizeof nm) nm[n++] = *p++;
                    nm[n] = 0;
                    gc_ref(c, nm, st->file, mark, queue, &nq);
                } else
                    p++;
            }
        }
    }
    for (int i = 0; i < c->secs.n; i++)
        if (!mark[i] && c->secs.v[i].tag != RG_DROP)
            c->secs.v[i].tag = RG_DROP;
    free(mark);
    free(queue);
    return 0;
}

/* ---- layout ---- */
static int cmp_rank(asm_ctx *c, int a, int b)
{
    asm_sec *x = &c->secs.v[a], *y = &c->secs.v[b];
    if (x->rank != y->rank) return x->rank - y->rank;
    if (x->flags != y->flags) return x->flags - y->flags;
    return a - b;
}

static int layout(asm_ctx *c)
{
    int *ord = malloc(sizeof(int) * (size_t)(c->secs.n + 1));
    if (!ord) return fail(c, -1, 0, "out of memory%s", "");
    uint32_t base[4] = {0x80000000u, 0, 0x08000000u, 0xF0000000u};
    for (int rg = 0; rg < 4; rg++) {
        int n = 0;
        for (int i = 0; i < c->secs.n; i++)
            if (c->secs.v[i].tag == rg && (c->secs.v[i].size || c->secs.v[i].flags))
                ord[n++] = i;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && cmp_rank(c, ord[j - 1], ord[j]) > 0; j--) {
                int t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t;
            }
        uint32_t at = base[rg];
        if (rg == RG_ATOMIC)
            at += 200; /* dpu.lds reserves the first 200 atomic bits (__atomic_start_addr) */
        for (int i = 0; i < n; i++) {
            asm_sec *s = &c->secs.v[ord[i]];
            at = (at + s->align - 1) & ~(s->align - 1);
            s->base = at;
            at += s->size;
        }
        if (rg == RG_WRAM) {
            /* dpu.lds: immediate memory must end below 2,048 (11-bit immediate addresses) */
            for (int i = 0; i < n; i++) {
                asm_sec *sx = &c->secs.v[ord[i]];
                if (sx->rank <= 10 && sx->base + sx->size > 2048) {
                    char what[ASM_MAX_IDENT + 40];
                    snprintf(what, sizeof what, "%s ends at %u", sx->name, (uint32_t)(sx->base + sx->size));
                    free(ord);
                    return fail(c, -1, 0, "immediate memory must end below 2048 bytes: %s", what);
                }
            }
        }
        if (rg == RG_TEXT) c->text_size = at - base[rg];
        if (rg == RG_WRAM) c->wram_end = at;
        if (rg == RG_MRAM) c->mram_end = at - base[rg];
        if (rg == RG_ATOMIC) c->atomic_size = at - base[rg];
        if (rg == RG_ATOMIC && c->atomic_size > 256) {
            free(ord);
            return fail(c, -1, 0, "too many atomic bits (%s)", "more than 56 after the 200 reserved");
        }
    }
    free(ord);
    /* tasklet stacks after the data (dpu.lds), 8-byte aligned, then the software cache */
    uint32_t at = (c->wram_end + 7) & ~7u;
    char nm[64];
    define_abs(c, "NR_TASKLETS", c->ntasklets);
    for (int t = 0; t < 24; t++) {
        snprintf(nm, sizeof nm, "STACK_SIZE_TASKLET_%d", t);
        define_abs(c, nm, t < c->ntasklets ? c->stack_size : 0);
        snprintf(nm, sizeof nm, "__sys_stack_thread_%d", t);
        define_abs(c, nm, at);
        if (t < c->ntasklets)
            at += c->stack_size;
    }
    define_abs(c, "__sw_cache_buffer", at);
    at += 8u * (uint32_t)c->ntasklets;
    define_abs(c, "__sys_heap_pointer_reset", at);
    define_abs(c, "__sys_heap_pointer", at);
    if (at > 65536)
        return fail(c, -1, 0, "WRAM overflow: data and stacks need %s bytes (64 KB available)", "more than 65536");
    c->wram_end = at;
    define_abs(c, "__atomic_start_addr", 0);
    define_abs(c, "__atomic_used_addr", 200);
    define_abs(c, "__atomic_end_addr", c->atomic_size);
    define_abs(c, "__sys_used_mram_end", 0x08000000u + c->mram_end);
    if (c->text_size > 4096 * 8)
        return fail(c, -1, 0, "IRAM overflow: the program has more than %s instructions", "4096");
    return 0;
}

/* ---- pass 2 ---- */

/* Data values: the DPU assembler links at once, so every value is absolute (base 0). */
static int dpu_value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    dpu_sym_resolver r = {lookup, ctx};
    *base = 0;
    return dpu_eval_expr(text, &r, v, err, errlen);
}

static uint8_t *region_buf(asm_ctx *c, int rg, uint32_t addr, uint32_t n)
{
    switch (rg) {
    case RG_TEXT: return addr - 0x80000000u + n <= c->text_size ? c->text + (addr - 0x80000000u) : NULL;
    case RG_WRAM: return addr + n <= c->wram_end ? c->wram + addr : NULL;
    case RG_MRAM: return addr - 0x08000000u + n <= c->mram_end ? c->mram + (addr - 0x08000000u) : NULL;
    case RG_ATOMIC: return addr - 0xF0000000u + n <= c->atomic_size ? c->atomic + (addr - 0xF0000000u) : NULL;
    }
    return NULL;
}

/* Where a statement's bytes go: its region's image at its final address; NULL if its
 * section was dropped (garbage collection) or it has no bytes. */
static uint8_t *place(void *ctx, const asm_stmt *st)
{
    asm_ctx *c = ctx;
    const asm_sec *S = &c->secs.v[st->sec];
    c->pass2_file = st->file;
    c->cur_col = st->col;
    if (S->tag == RG_DROP || !st->size)
        return NULL;
    return region_buf(c, S->tag, (uint32_t)S->base + st->off, st->size);
}

static int encode(void *ctx, const asm_stmt *st, uint8_t *out, char *err, size_t errlen)
{
    asm_ctx *c = ctx;
    if (c->secs.v[st->sec].tag == RG_DROP)
        return 0;
    if (!out) {
        snprintf(err, errlen, "internal: instruction outside the text image");
        return -1;
    }
    dpu_sym_resolver r = {lookup, c};
    uint64_t w;
    if (dpu_assemble_line(st->text, &r, &w, err, errlen) < 0)
        return -1;
    mem_st64le(out, w);
    return 0;
}

static int pass2(asm_ctx *c)
{
    c->text = calloc(1, c->text_size + 8);
    c->wram = calloc(1, c->wram_end + 8);
    c->mram = calloc(1, c->mram_end + 8);
    c->atomic = calloc(1, c->atomic_size + 8);
    if (!c->text || !c->wram || !c->mram || !c->atomic)
        return fail(c, -1, 0, "out of memory%s", "");
    const asm_stmt *bad;
    char e[300];
    if (asm_stmts_emit(&c->stmts, &dpu_data_rules, place, encode, dpu_value, c, NULL, &bad, e, sizeof e)) {
        c->cur_col = bad->col;
        return fail(c, bad->file, bad->line, "%s", e);
    }
    return 0;
}

/* ---- ELF32 output (the SDK linker's file layout; bytes by core/asm/elf_write.c) ---- */
static int write_elf(asm_ctx *c, const char *out)
{
    uint32_t mram_init = c->mram_end; /* .mram.noinit stays out of the file */
    for (int i = 0; i < c->secs.n; i++)
        if (c->secs.v[i].tag == RG_MRAM && strncmp(c->secs.v[i].name, ".mram.noinit", 12) && c->secs.v[i].size &&
            c->secs.v[i].base - 0x08000000u < mram_init)
            mram_init = c->secs.v[i].base - 0x08000000u;
    uint32_t mram_len = c->mram_end - mram_init;
    int nph = 2 + (mram_len > 0);
    uint32_t cur = asm_elf_headers_size(nph);
    uint32_t off_text = asm_elf_place(&cur, 8, c->text_size);
    uint32_t off_data = asm_elf_place(&cur, 8, c->wram_end);
    uint32_t off_mram = asm_elf_place(&cur, 8, mram_len);
    asm_elf_symbol *syms = calloc((size_t)c->syms.n + 1, sizeof *syms);
    if (!syms)
        return fail(c, -1, 0, "out of memory%s", "");
    int nsyms = 1;
    for (int i = 0; i < c->syms.n; i++) {
        asm_sym *y = &c->syms.v[i];
        int glob = y->global || y->scope < 0;
        if (!y->defined || !strncmp(y->name, ".L", 2))
            continue;
        int64_t v = 0;
        int rg = y->section >= 0 ? c->secs.v[y->section].tag : -1;
        if (rg == RG_DROP)
            continue;
        if (y->section >= 0) v = c->secs.v[y->section].base + y->value;
        else if (sym_value(c, y, &v)) continue;
        uint16_t shn = rg == RG_TEXT ? 1 : rg == RG_ATOMIC ? 2 : rg == RG_WRAM ? 3 : rg == RG_MRAM ? 5 : SHN_ABS;
        if (rg == RG_MRAM && (uint32_t)(v - 0x08000000u) < mram_init) shn = 4;
        syms[nsyms++] = (asm_elf_symbol){y->name, (uint32_t)v, y->size, glob ? STB_GLOBAL : STB_LOCAL,
                                         rg == RG_TEXT ? STT_FUNC : rg >= 0 ? STT_OBJECT : STT_NOTYPE, shn};
    }
    asm_elf_section secs[5] = {
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x80000000u, 8, 0, c->text, c->text_size, off_text, NULL, 0},
        {".atomic", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0xF0000000u, 1, 0, NULL, c->atomic_size, off_mram, NULL, 0},
        {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 8, 0, c->wram, c->wram_end, off_data, NULL, 0},
        {".mram.noinit", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x08000000u, 8, 0, NULL, mram_init, off_mram, NULL, 0},
        {".mram", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x08000000u + mram_init, 8, 0, c->mram + mram_init, mram_len,
         off_mram, NULL, 0},
    };
    asm_elf_phdr ph[3] = {
        {PT_LOAD, off_text, 0x80000000u, 0x80000000u, c->text_size, c->text_size, PF_R | PF_X, 8},
        {PT_LOAD, off_data, 0, 0, c->wram_end, c->wram_end, PF_R | PF_W, 8},
        {PT_LOAD, off_mram, 0x08000000u + mram_init, 0x08000000u + mram_init, mram_len, mram_len, PF_R | PF_W, 8},
    };
    /* entry: __bootstrap; flags: ABI version 2 (bit 23 + bits 24..31), as SDK binaries */
    asm_elf_image im = {ET_EXEC, 0xF5 /* EM_DPU */, 0x80000000u, 0x2800000u, ph, nph, secs, 5, syms, nsyms, cur};
    int rc = asm_elf_write(out, &im, c->err, c->errlen);
    free(syms);
    return rc;
}

/* `xpusim asm -o` options of the DPU assembler and linker, declared once (core/opts.h). */
const opt_desc dpu_asm_options[] = {
    OPT_U("tasklets", "16", 1, 24, "NR_TASKLETS: tasklets the runtime starts and stacks it lays out"),
    OPT_U("stack", "1024", 8, 65536, "stack bytes per tasklet, a multiple of 8"),
    OPT_U("gc", "1", 0, 1, "1: drop sections nothing references, 0: keep every section"),
    OPT_T("lib", NULL, "DIR[:DIR...]: every .s/.S file there is linked too (unused sections dropped)"),
    OPT_END,
};

int dpu_assemble_files(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                       size_t errlen);
int dpu_assemble_files(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                       size_t errlen)
{
    asm_ctx c;
    memset(&c, 0, sizeof c);
    asm_macros_init(&c.macros);
    c.secs.max_size = 1u << 28; /* 256 MiB: more than any DPU memory */
    c.srcs = srcs;
    c.err = err;
    c.errlen = errlen;
    uint64_t nt, ss, gc;
    sim_opts none;
    opt_init(&none);
    if (!opts)
        opts = &none;
    if (opt_uint(opts, dpu_asm_options, "tasklets", &nt, err, errlen) ||
        opt_uint(opts, dpu_asm_options, "stack", &ss, err, errlen) ||
        opt_uint(opts, dpu_asm_options, "gc", &gc, err, errlen))
        return -1;
    if (ss % 8) {
        snprintf(err, errlen, "-o stack=%llu: must be a multiple of 8", (unsigned long long)ss);
        return -1;
    }
    c.ntasklets = (int)nt;
    c.stack_size = (uint32_t)ss;
    /* -o lib=DIR[:DIR...]: every .s/.S file there is linked too (unused sections dropped) */
    char **all = NULL;
    int nall = 0, rc = 0;
    const char *lib = opt_text(opts, dpu_asm_options, "lib");
    if (lib && *lib) {
        char dirs[512];
        snprintf(dirs, sizeof dirs, "%s", lib);
        for (char *dir = strtok(dirs, ":"); dir && !rc; dir = strtok(NULL, ":")) {
            DIR *dp = opendir(dir);
            if (!dp) {
                snprintf(err, errlen, "-o lib: cannot open directory %s", dir);
                rc = -1;
                break;
            }
            struct dirent *de;
            while ((de = readdir(dp))) {
                size_t l = strlen(de->d_name);
                if (l < 3 || de->d_name[l - 2] != '.' || (de->d_name[l - 1] != 's' && de->d_name[l - 1] != 'S'))
                    continue;
                char **na = realloc(all, sizeof *all * (size_t)(nall + 1));
                size_t pl = strlen(dir) + l + 2;
                char *p = malloc(pl);
                if (!na || !p) {
                    free(p);
                    if (na) all = na;
                    rc = -1;
                    snprintf(err, errlen, "out of memory");
                    break;
                }
                all = na;
                snprintf(p, pl, "%s/%s", dir, de->d_name);
                all[nall++] = p;
            }
            closedir(dp);
        }
        /* directory order is arbitrary: sort for a deterministic layout */
        for (int i = 1; i < nall; i++)
            for (int j = i; j > 0 && strcmp(all[j - 1], all[j]) > 0; j--) {
                char *t = all[j]; all[j] = all[j - 1]; all[j - 1] = t;
            }
    }
    const char **srcv = malloc(sizeof *srcv * (size_t)(nsrc + nall + 1));
    if (!srcv && !rc) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (!rc) {
        for (int i = 0; i < nsrc; i++) srcv[i] = srcs[i];
        for (int i = 0; i < nall; i++) srcv[nsrc + i] = all[i];
        c.srcs = srcv;
    }
    for (int i = 0; i < nsrc + nall && !rc; i++)
        rc = pass1_file(&c, i);
    if (!rc) rc = check_duplicates(&c);
    if (!rc && gc) rc = gc_sections(&c);
    if (!rc) rc = layout(&c);
    if (!rc) rc = pass2(&c);
    if (!rc) rc = write_elf(&c, out);
    for (int i = 0; i < nall; i++) free(all[i]);
    free(all);
    free(srcv);
    asm_stmts_free(&c.stmts);
    asm_sections_free(&c.secs);
    asm_symtab_free(&c.syms);
    asm_macros_free(&c.macros);
    free(c.text); free(c.wram); free(c.mram); free(c.atomic);
    return rc;
}
