/* isa/nyuzi/asm.c: the Nyuzi assembler driver (xpusim asm --isa nyuzi). Sources go
 * through the host C preprocessor (cpp -x assembler-with-cpp, so #include/#define work and
 * line markers keep file:line in messages), then two passes: the first expands .macro
 * bodies, renames numeric local labels (1: ... 1b/1f), sizes every statement and places
 * labels; the second evaluates expressions and encodes through the instruction table
 * (asm_enc.c). Sections .text, .data (and .rodata), .bss are laid out in that order from
 * address 0x1000 (as ld.lld links Nyuzi programs) and written as an ELF executable (asm_elf.c); the entry is _start if defined.
 * Pseudo-ops: li (move, or movehi + or), lea (add_i, or movehi + or for a symbol). Built on
 * the shared framework (core/asm/, docs/assembler.md): this file holds Nyuzi's comment
 * syntax, directive rows, data rules, section placement and pseudo-instructions. */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"
#include "asm.h"
#include "../../core/asm/cpp.h"
#include "../../core/asm/data.h"
#include "../../core/asm/directive.h"
#include "../../core/asm/limits.h"
#include "../../core/asm/section.h"
#include "../../core/asm/source.h"
#include "../../core/asm/macro.h"
#include "../../core/asm/reloc.h"
#include "../../core/asm/symtab.h"
#include "../../core/asm/text.h"
#include "../../core/asm/unit.h"
#include "../../core/file.h"

enum { SEC_TEXT, SEC_DATA, SEC_BSS, NSEC };
/* statements: core/asm/section.c's; data statements are the shared kind */
enum { ST_DATA = ASM_STMT_DATA, ST_INSN, ST_LI };
typedef asm_stmt stmt;
/* symbols: core/asm/symtab.c, one scope (0); section is a SEC_*, value the offset in it */
typedef asm_symbol sym;

/* the run's state: the shared unit (core/asm/unit.h) is all the Nyuzi driver needs */
typedef asm_unit actx;

/* Relocatable bases in an object file (core/asm/expr.h): 1 + SEC_* for a value in one of
 * the sections (labels, local or global: a static link resolves both alike), EXT_BASE + i for
 * the i-th undefined symbol. */
#define EXT_BASE 16

static int lookup(void *ctx, const char *name, int64_t *val, int *base)
{
    actx *a = ctx;
    *base = 0;
    if (strcmp(name, ".") == 0 && a->pass == 2) {
        *val = a->dot;
        *base = a->object ? 1 + a->sec : 0;
        return 0;
    }
    const sym *s;
    int r = asm_unit_symbol(a, name, val, base, &s);
    if (r != 1)
        return r;
    if (a->pass < 2)
        return -1; /* label addresses are final only in pass 2 */
    *val = (int64_t)a->secs.v[s->section].base + s->value;
    *base = a->object ? 1 + s->section : 0;
    return 0;
}

/* A `.set` symbol's expression (asm_unit_symbol). */
static int sym_eval(asm_unit *u, const char *text, int64_t *v, int *base, int *unresolved)
{
    char e[200];
    return nyz_asm_eval(text, lookup, u, v, base, unresolved, e, sizeof e);
}

static int const_lookup(void *ctx, const char *name, int64_t *val, int *base)
{
    actx *a = ctx;
    sym *s = asm_sym_find(&a->syms, name, 0);
    *base = 0;
    if (s && s->defined && s->expr)
        return lookup(ctx, name, val, base);
    return -1;
}

/* A section may not grow past this (the image must fit Nyuzi's 32-bit address space with
 * room to spare); checked before the addition, so a size can never wrap around. */
#define NYZ_ASM_MAX_SECTION (1u << 30)

static stmt *add_stmt(actx *a, int kind, uint32_t size, const char *mn, const char *ops, const asm_data *d)
{
    int fills = kind == ST_DATA && (d->kind == ASM_DATA_FILL || d->kind == ASM_DATA_ALIGN);
    if (a->sec == SEC_BSS && !fills) {
        asm_unit_fail(a, "code or data in .bss");
        return NULL;
    }
    stmt proto = {.kind = kind, .size = size};
    if (d)
        proto.data = *d;
    return asm_unit_add(a, &proto, mn, ops);
}

/* Operand text with numeric local labels (1b, 2f) renamed: ASM_RENAMED bytes. */
#define ASM_RENAMED (4 * ASM_MAX_LINE)

/* A value now (base: NULL if it must be absolute). 0 known, 1 not yet (need 0), -1 error. */
static int eval_now(actx *a, const char *text, int64_t *v, int *base, int need)
{
    int unres, b;
    char e[200];
    if (nyz_asm_eval(text, a->pass == 2 ? lookup : const_lookup, a, v, base ? base : &b, &unres, e, sizeof e) < 0)
        return asm_unit_fail(a, "bad expression '%s': %s", text, e);
    if (!base && b)
        return asm_unit_fail(a, "'%s' must be a constant, not an address the linker decides", text);
    if (unres && need)
        return a->pass == 2 ? asm_unit_fail(a, "undefined symbol in '%s'", text)
                            : asm_unit_fail(a, "'%s' must be a constant known at this point", text);
    return unres ? 1 : 0;
}

static int process_line(actx *a, char *line);

static int process_line_cb(void *ctx, char *line) { return process_line(ctx, line); }

static int expand_macro(actx *a, int mi, char *args)
{
    char e[300];
    int rc = asm_macro_expand(&a->macros, mi, args, process_line_cb, a, e, sizeof e);
    if (rc && e[0])
        return asm_unit_fail(a, "%s", e);
    return rc;
}

/* Nyuzi data: `.align N` is N bytes (LLVM's Nyuzi target), values must fit their width, and
 * `.float nan` is the canonical NaN the FP pipeline produces. */
static const asm_data_rules nyz_data_rules = {0, 65536, 1u << 28, 1, 0x7fffffffu, {[4] = R_NYUZI_ABS32}};

/* A value for a data directive: known symbols only in pass 1 (.set constants), every symbol
 * in pass 2; relocatable only where base is given (pass-2 data in an object file). */
static int value_of(actx *a, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    int unres, b;
    char e[200];
    if (nyz_asm_eval(text, a->pass == 2 ? lookup : const_lookup, a, v, base ? base : &b, &unres, e, sizeof e) < 0) {
        snprintf(err, errlen, "bad expression '%s': %s", text, e);
        return -1;
    }
    if (unres) {
        if (a->pass == 2)
            snprintf(err, errlen, "undefined symbol in '%s'", text);
        else
            snprintf(err, errlen, "'%s' must be a constant known at this point", text);
        return -1;
    }
    if (!base && b) {
        snprintf(err, errlen, "'%s' must be a constant, not an address the linker decides", text);
        return -1;
    }
    return 0;
}

static int nyz_value(void *ctx, const char *text, int64_t *v, char *err, size_t errlen)
{
    return value_of(ctx, text, v, NULL, err, errlen);
}

static int nyz_data_value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    return value_of(ctx, text, v, base, err, errlen);
}

/* ---- directives: Nyuzi's own rows; data, alignment and annotations are shared ---- */
static int dir_section(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    if (!strcmp(d, ".text"))
        a->sec = SEC_TEXT;
    else if (!strcmp(d, ".data") || !strcmp(d, ".rodata"))
        a->sec = SEC_DATA;
    else if (!strcmp(d, ".bss"))
        a->sec = SEC_BSS;
    else { /* .section NAME[, flags]: placed by its prefix, as the Nyuzi linker script does */
        char *nm = asm_trim(rest);
        size_t k = strcspn(nm, ", \t");
        if (!k)
            return asm_unit_fail(a, ".section needs a name");
        a->sec = !strncmp(nm, ".text", 5) ? SEC_TEXT : !strncmp(nm, ".bss", 4) ? SEC_BSS : SEC_DATA;
    }
    return 0;
}

static int dir_global(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[ASM_MAX_OPERANDS];
    (void)d;
    int n = asm_split_operands(rest, ops, ASM_MAX_OPERANDS);
    for (int i = 0; i < n; i++) {
        sym *y = asm_unit_sym(a, ops[i]);
        if (!y)
            return -1;
        y->global = 1;
    }
    return 0;
}

static int dir_ignore(void *ctx, const char *d, char *rest)
{
    (void)ctx, (void)d, (void)rest; /* .size .local .weak: one image, nothing to link */
    return 0;
}

static int dir_set(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[2];
    if (asm_split_operands(rest, ops, 2) != 2)
        return asm_unit_fail(a, "%s needs NAME, VALUE", d);
    if (a->pass == 1) {
        sym *s = asm_unit_sym(a, ops[0]);
        if (!s)
            return -1;
        if (asm_sym_set_expr(s, ops[1]))
            return asm_unit_fail(a, "out of memory");
        s->defined = 1;
    }
    return 0;
}

static int dir_data(void *ctx, const char *d, char *rest, const asm_data *data)
{
    actx *a = ctx;
    uint32_t size = data->size;
    if (data->kind == ASM_DATA_ALIGN) {
        if (data->align > a->secs.v[a->sec].align)
            a->secs.v[a->sec].align = data->align;
        size = asm_data_pad(data, a->secs.v[a->sec].size);
    }
    const char *text = rest;
    char ren[ASM_RENAMED];
    if (data->kind == ASM_DATA_VALUES) { /* local-label references resolve in pass-1 order */
        if (asm_unit_rename(a, rest, ren, sizeof ren))
            return -1;
        text = ren;
    }
    return add_stmt(a, ST_DATA, size, d, text, data) ? 0 : -1;
}

static const asm_directive nyz_directive_rows[] = {
    {".text", dir_section}, {".data", dir_section}, {".rodata", dir_section}, {".bss", dir_section},
    {".section", dir_section}, {".globl", dir_global}, {".global", dir_global}, {".set", dir_set},
    {".equ", dir_set}, {".equiv", dir_set}, {".size", dir_ignore}, {".local", dir_ignore},
    {".weak", dir_ignore}, {NULL, NULL},
};
static const asm_directives nyz_directives = {nyz_directive_rows, &nyz_data_rules, nyz_value, dir_data};

static int directive(actx *a, const char *d, char *rest)
{
    char e[300];
    int rc = asm_directive_run(&nyz_directives, a, d, rest, e, sizeof e);
    if (rc && e[0])
        return asm_unit_fail(a, "%s", e);
    return rc;
}

static int instruction(actx *a, const char *mn, char *rest);

/* One statement: a directive, a macro use or an instruction. Kept free of large buffers:
 * macro expansion recurses through here (ASM_MACRO_MAX_DEPTH levels). */
static int statement(actx *a, char *s)
{
    char mn[64];
    char *rest = asm_first_word(s, mn, sizeof mn);
    if (!mn[0])
        return 0;
    if (!strcmp(mn, ".macro")) {
        char e[300];
        if (asm_macro_begin(&a->macros, rest, e, sizeof e))
            return asm_unit_fail(a, "%s", e);
        return 0;
    }
    if (mn[0] == '.')
        return directive(a, mn, rest);
    int mi = asm_macro_find(&a->macros, mn);
    if (mi >= 0)
        return expand_macro(a, mi, rest);
    return instruction(a, mn, rest);
}

/* An instruction or pseudo-instruction: sized now, encoded in pass 2. */
__attribute__((noinline)) static int instruction(actx *a, const char *mn, char *rest)
{
    char ren[ASM_RENAMED];
    if (asm_unit_rename(a, rest, ren, sizeof ren))
        return -1;
    if (!strcmp(mn, "li") || !strcmp(mn, "lea")) {
        char tmp[ASM_RENAMED];
        char *ops[4];
        snprintf(tmp, sizeof tmp, "%s", ren);
        int n = asm_split_operands(tmp, ops, 4);
        if (n != 2)
            return asm_unit_fail(a, "%s needs a register and a value", mn);
        nyz_operand o;
        nyz_asm_operand(ops[1], &o);
        if (!strcmp(mn, "lea") && o.kind == OPK_SMEM) {
            return add_stmt(a, ST_INSN, 4, mn, ren, NULL) ? 0 : -1;
        }
        int64_t v;
        int unres;
        char e[200];
        if (o.kind != OPK_EXPR)
            return asm_unit_fail(a, "%s: expected a value, got '%s'", mn, ops[1]);
        int base;
        if (nyz_asm_eval(o.text, const_lookup, a, &v, &base, &unres, e, sizeof e) < 0)
            return asm_unit_fail(a, "bad expression '%s': %s", o.text, e);
        uint32_t size = 8;
        if (!unres && !strcmp(mn, "li")) {
            if (v < -0x80000000ll || v > 0xffffffffll)
                return asm_unit_fail(a, "li value %lld does not fit in 32 bits", (long long)v);
            int32_t x = (int32_t)v;
            size = (x >= -8192 && x <= 8191) || (x & 0x1fff) == 0 ? 4 : 8;
        }
        return add_stmt(a, ST_LI, size, mn, ren, NULL) ? 0 : -1;
    }
    return add_stmt(a, ST_INSN, 4, mn, ren, NULL) ? 0 : -1;
}

/* after cpp: `#` and `//` start a comment anywhere outside a string */
static const asm_comment_syntax nyz_comments = {{"#", "//"}, {NULL}};

static int process_line(actx *a, char *line)
{
    if (a->macros.defining >= 0) {
        if (asm_macro_record(&a->macros, line))
            return asm_unit_fail(a, "out of memory");
        return 0;
    }
    asm_strip_comment(line, &nyz_comments);
    /* statements separated by ';' */
    char *p = line;
    while (p) {
        char *semi = strchr(p, ';');
        if (semi)
            *semi = 0;
        a->cur_col = (int)(p + strspn(p, " \t") - line) + 1;
        /* labels, or NAME = EXPR */
        char *set;
        int k = asm_unit_labels(a, &p, &set);
        if (k < 0)
            return -1;
        if (k == 1) { /* the rest of this statement is the expression */
            char setline[ASM_MAX_LINE + 8];
            snprintf(setline, sizeof setline, ".set %s, %s", set, p);
            if (statement(a, setline) < 0)
                return -1;
            p = NULL;
        }
        if (p) {
            while (isspace((unsigned char)*p))
                p++;
            a->cur_col = (int)(p - line) + 1;
        }
        if (p && statement(a, p) < 0)
            return -1;
        p = semi ? semi + 1 : NULL;
    }
    return 0;
}



static int reg_operand(actx *a, const char *text, int *reg)
{
    int vec;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%s", text);
    *reg = nyz_asm_reg(tmp, &vec);
    if (*reg < 0 || vec)
        return asm_unit_fail(a, "expected a scalar register, got '%s'", text);
    return 0;
}

/* Pass 2: where a statement's bytes go (nowhere in .bss); "." is its address meanwhile. */
static uint8_t *place(void *ctx, const stmt *st)
{
    actx *a = ctx;
    a->dot = (uint32_t)a->secs.v[st->sec].base + st->off;
    a->sec = st->sec;
    a->cur_file = st->file;
    a->cur_line = st->line;
    a->cur_col = st->col;
    return st->sec == SEC_BSS ? NULL : a->secs.v[st->sec].bytes + st->off;
}

/* An instruction field at byte at of statement st left to the linker (fx->type 0: none). */
static int add_fixup(actx *a, const stmt *st, uint32_t at, const nyz_fixup *fx)
{
    if (!fx->type)
        return 0;
    asm_reloc r = {st->sec, st->off + at, (uint32_t)fx->type, fx->base, fx->addend};
    if (!a->object || asm_reloc_add(&a->relocs, &r))
        return asm_unit_fail(a, a->object ? "out of memory" : "internal: a relocation in a linked image");
    return 0;
}

/* Pass 2: an instruction or pseudo-instruction into out (errors recorded with fail). */
static int encode_stmt(void *ctx, const stmt *st, uint8_t *out, char *err, size_t errlen)
{
    actx *a = ctx;
    char tmp[ASM_RENAMED];
    char *ops[ASM_MAX_OPERANDS];
    uint32_t pc = a->dot;
    err[0] = 0;
    (void)errlen;
    switch (st->kind) {
    case ST_LI: {
        snprintf(tmp, sizeof tmp, "%s", st->text);
        int n = asm_split_operands(tmp, ops, 4), rd;
        (void)n;
        if (reg_operand(a, ops[0], &rd) < 0)
            return -1;
        int64_t v;
        int base;
        if (eval_now(a, ops[1], &v, &base, 1))
            return -1;
        /* an address the linker decides: movehi hi(x) + or lo(x), both left to it (the
         * fields hold 0), as llvm-mc expands lea and li of a symbol */
        uint32_t x = base ? 0 : (uint32_t)v, w[2];
        char e[256];
        nyz_operand o[3];
        nyz_fixup fx;
        char num[32];
        o[0].kind = OPK_SREG; o[0].reg = rd;
        o[1].kind = OPK_EXPR; o[1].text = num;
        int nw = 0;
        if (st->size == 4 && (int32_t)x >= -8192 && (int32_t)x <= 8191 && !base) {
            snprintf(num, sizeof num, "%d", (int32_t)x);
            if (nyz_encode("move", o, 2, pc, 0, lookup, a, &w[nw++], &fx, e, sizeof e) < 0)
                return asm_unit_fail(a, "%s", e);
        } else {
            snprintf(num, sizeof num, "%u", x >> 13);
            if (nyz_encode("movehi", o, 2, pc, 0, lookup, a, &w[nw++], &fx, e, sizeof e) < 0)
                return asm_unit_fail(a, "%s", e);
            if (base && add_fixup(a, st, 0, &(nyz_fixup){R_NYUZI_HI19, base, v}))
                return -1;
            if (st->size == 8) {
                o[1].kind = OPK_SREG; o[1].reg = rd;
                o[2].kind = OPK_EXPR; o[2].text = num;
                snprintf(num, sizeof num, "%u", x & 0x1fff);
                if (nyz_encode("or", o, 3, pc + 4, 0, lookup, a, &w[nw++], &fx, e, sizeof e) < 0)
                    return asm_unit_fail(a, "%s", e);
                if (base && add_fixup(a, st, 4, &(nyz_fixup){R_NYUZI_IMM_LO13, base, v}))
                    return -1;
            } else if (base)
                return asm_unit_fail(a, "internal: a relocated li/lea sized as one word");
        }
        for (int i = 0; i < nw; i++)
            mem_st32le(out + 4 * i, w[i]);
        return 0;
    }
    case ST_INSN: {
        snprintf(tmp, sizeof tmp, "%s", st->text);
        int n = asm_split_operands(tmp, ops, 8);
        if (n > 6)
            return asm_unit_fail(a, "too many operands");
        nyz_operand o[8];
        for (int i = 0; i < n; i++)
            nyz_asm_operand(ops[i], &o[i]);
        const char *mn = st->mn;
        if (!strcmp(mn, "lea")) { /* lea sD, off(sB) = add_i sD, sB, off */
            if (n != 2 || o[0].kind != OPK_SREG || o[1].kind != OPK_SMEM)
                return asm_unit_fail(a, "lea needs sD, offset(sB) or sD, symbol");
            o[2].kind = OPK_EXPR;
            o[2].text = o[1].has_off ? o[1].text : (char *)"0";
            o[1].kind = OPK_SREG;
            mn = "add_i";
            n = 3;
        }
        uint32_t w;
        char e[256];
        nyz_fixup fx;
        if (nyz_encode(mn, o, n, pc, a->object ? 1 + st->sec : 0, lookup, a, &w, &fx, e, sizeof e) < 0)
            return asm_unit_fail(a, "%s", e);
        if (add_fixup(a, st, 0, &fx))
            return -1;
        mem_st32le(out, w);
        return 0;
    }
    }
    return 0;
}

/* One source through cpp (`#include`, `#define`; -o include=DIR, -o define=NAME=VALUE,...). */
static int read_source(actx *a, const char *path, const sim_opts *opts)
{
    static const char *const fixed[] = {"-D__NYUZI__=1", NULL};
    asm_cpp_args args;
    if (asm_cpp_args_build(&args, path, fixed, opts ? opt_text(opts, nyz_asm_options, "define") : NULL,
                           opts ? opt_text(opts, nyz_asm_options, "include") : NULL, a->err, sizeof a->err))
        return -1;
    if ((a->cur_file = asm_files_index(&a->files, path)) < 0) {
        snprintf(a->err, sizeof a->err, "out of memory");
        return -1;
    }
    return asm_source_read(path, args.argv, asm_unit_source_line, a, a->err, sizeof a->err);
}

static uint32_t align_up(uint32_t v, uint32_t al) { return (v + al - 1) & ~(al - 1); }

/* The three sections, in SEC_* order. */
static int make_sections(actx *a)
{
    static const char *const names[NSEC] = {".text", ".data", ".bss"};
    a->secs.max_size = NYZ_ASM_MAX_SECTION;
    for (int i = 0; i < NSEC; i++)
        if (asm_section_get(&a->secs, names[i], -1, NULL) != i)
            return asm_unit_fail(a, "out of memory");
    return 0;
}

/* A run's state, empty; NULL when out of memory. */
static actx *actx_new(void)
{
    actx *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    asm_macros_init(&a->macros);
    a->ext_base = EXT_BASE;
    a->line = process_line;
    a->eval = sym_eval;
    return a;
}

/* `xpusim asm -o` options of the Nyuzi assembler, declared once (core/opts.h). */
const opt_desc nyz_asm_options[] = {
    OPT_T("define", NULL, "NAME[=VALUE],... for the C preprocessor"),
    OPT_T("include", NULL, "one more include directory for the C preprocessor"),
    OPT_U("object", "0", 0, 1, "1: write a relocatable object file (ET_REL, .rela sections) instead of linking (same as -c)"),
    OPT_END,
};

/* The object file: named symbols (labels; .L* and .set constants stay inside), then the
 * undefined ones, and each relocation against its symbol or its section's. */
static int write_object(actx *a, const char *out, char *err, size_t errlen)
{
    size_t cap = (size_t)a->syms.n + (size_t)a->ext.n + 1;
    nyz_elf_sym *syms = calloc(cap, sizeof *syms);
    int *ext_index = calloc((size_t)a->ext.n + 1, sizeof *ext_index);
    nyz_obj_rela *relas = calloc((size_t)a->relocs.n + 1, sizeof *relas);
    int ns = 0, rc = -1;
    if (!syms || !ext_index || !relas) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < a->syms.n; i++) {
        sym *y = &a->syms.v[i];
        if (y->defined && !y->expr && strncmp(y->name, ".L", 2))
            syms[ns++] = (nyz_elf_sym){y->name, (uint32_t)y->value, y->section + 1, y->global};
        else if (!y->defined && y->global && !asm_sym_find(&a->ext, y->name, 0)) /* .globl only */
            syms[ns++] = (nyz_elf_sym){y->name, 0, -1, 1};
    }
    for (int i = 0; i < a->ext.n; i++) {
        ext_index[i] = ns;
        syms[ns++] = (nyz_elf_sym){a->ext.v[i].name, 0, -1, 1};
    }
    for (int i = 0; i < a->relocs.n; i++) {
        const asm_reloc *r = &a->relocs.v[i];
        if (r->addend < INT32_MIN || r->addend > INT32_MAX) {
            snprintf(err, errlen, "%s: relocation at %s+0x%x: addend %lld does not fit in 32 bits", out,
                     a->secs.v[r->sec].name, r->off, (long long)r->addend);
            goto out;
        }
        relas[i] = (nyz_obj_rela){r->sec + 1, r->off, r->type,
                                  r->base >= EXT_BASE ? ext_index[r->base - EXT_BASE] : -r->base, (int32_t)r->addend};
    }
    nyz_obj_out o = {a->secs.v[SEC_TEXT].bytes, a->secs.v[SEC_TEXT].size, a->secs.v[SEC_TEXT].align,
                     a->secs.v[SEC_DATA].bytes, a->secs.v[SEC_DATA].size, a->secs.v[SEC_DATA].align,
                     a->secs.v[SEC_BSS].size, a->secs.v[SEC_BSS].align, syms, ns, relas, a->relocs.n};
    rc = nyz_write_object(out, &o, err, errlen);
out:
    free(syms);
    free(ext_index);
    free(relas);
    return rc;
}

int nyz_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts,
                 char *err, size_t errlen)
{
    uint64_t object = 0;
    if (opts && opt_uint(opts, nyz_asm_options, "object", &object, err, errlen))
        return -1;
    actx *a = actx_new();
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    a->pass = 1;
    a->object = (int)object;
    int rc = make_sections(a);
    for (int i = 0; i < nsrc && rc == 0; i++)
        rc = read_source(a, srcs[i], opts);
    a->cur_col = 1;
    if (rc == 0 && a->macros.defining >= 0)
        rc = asm_unit_fail(a, "missing .endm for macro '%s'", a->macros.v[a->macros.defining].name);
    if (rc == 0 && a->object) { /* every section at 0: the linker places them */
        if (a->secs.v[SEC_TEXT].align < 4)
            a->secs.v[SEC_TEXT].align = 4;
    } else if (rc == 0) {
        for (int s = 0; s < NSEC; s++)
            if (a->secs.v[s].align < 64)
                a->secs.v[s].align = 64;
        a->secs.v[SEC_TEXT].base = 0x1000; /* where ld.lld places .text for Nyuzi (image base 0, 4 KiB pages) */
        a->secs.v[SEC_DATA].base = align_up(a->secs.v[SEC_TEXT].base + a->secs.v[SEC_TEXT].size, a->secs.v[SEC_DATA].align);
        a->secs.v[SEC_BSS].base = align_up(a->secs.v[SEC_DATA].base + a->secs.v[SEC_DATA].size, a->secs.v[SEC_BSS].align);
    }
    const char *nomem;
    if (rc == 0 && asm_sections_alloc(&a->secs, 1u << SEC_BSS, &nomem))
        rc = asm_unit_fail(a, "out of memory for the contents of %s", nomem);
    if (rc == 0) {
        a->pass = 2;
        const stmt *bad;
        char e[300];
        if (asm_stmts_emit(&a->stmts, &nyz_data_rules, place, encode_stmt, nyz_data_value, a,
                           a->object ? &a->relocs : NULL, &bad, e, sizeof e)) {
            if (e[0]) /* a data statement's error; an instruction's is recorded already */
                asm_unit_fail(a, "%s", e);
            rc = -1;
        }
    }
    if (rc == 0 && a->object)
        rc = write_object(a, out, err, errlen);
    else if (rc == 0) {
        nyz_elf_sym *syms = calloc((size_t)a->syms.n + 1, sizeof *syms);
        int ns = 0;
        uint32_t entry = 0;
        for (int i = 0; i < a->syms.n; i++) {
            sym *y = &a->syms.v[i];
            if (!y->defined || y->expr || !strncmp(y->name, ".L", 2))
                continue;
            syms[ns].name = y->name;
            syms[ns].value = a->secs.v[y->section].base + (uint32_t)y->value;
            syms[ns].section = y->section + 1;
            syms[ns].global = y->global;
            if (!strcmp(y->name, "_start"))
                entry = syms[ns].value;
            ns++;
        }
        nyz_elf_out o = {a->secs.v[SEC_TEXT].bytes, a->secs.v[SEC_TEXT].base, a->secs.v[SEC_TEXT].size,
                         a->secs.v[SEC_DATA].bytes, a->secs.v[SEC_DATA].base, a->secs.v[SEC_DATA].size,
                         a->secs.v[SEC_BSS].base, a->secs.v[SEC_BSS].size, entry, syms, ns};
        rc = nyz_write_elf(out, &o, err, errlen);
        free(syms);
    } else
        snprintf(err, errlen, "%s", a->err);
    asm_unit_free(a);
    free(a);
    return rc;
}

int nyz_asm_line(const char *text, uint32_t pc, uint32_t *word, char *err, size_t errlen)
{
    actx *a = actx_new();
    if (!a)
        return -1;
    a->pass = 2;
    char buf[ASM_MAX_LINE + 1], mn[64];
    if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf) {
        snprintf(err, errlen, "line longer than %d characters", ASM_MAX_LINE);
        asm_unit_free(a);
        free(a);
        return -1;
    }
    asm_strip_comment(buf, &nyz_comments);
    char *s = asm_first_word(buf, mn, sizeof mn);
    stmt st = {.kind = ST_INSN, .sec = SEC_TEXT, .size = 4, .mn = mn, .text = s};
    uint8_t out[8] = {0};
    char e[8];
    a->sec = SEC_TEXT;
    a->dot = pc;
    int rc = encode_stmt(a, &st, out, e, sizeof e);
    if (rc == 0)
        *word = mem_ld32le(out);
    else
        snprintf(err, errlen, "%s", a->err);
    asm_unit_free(a);
    free(a);
    return rc;
}
