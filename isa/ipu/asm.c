/* isa/ipu/asm.c: the IPU assembler driver (xpusim asm --isa ipu), for Graphcore assembly as
 * PopLibs' hand-written codelets write it. Sources go through cpp (-D__IPU__ and
 * -D__IPU_ARCH_VERSION__ as popc defines them; isa/ipu/include/ is searched for our own
 * poplar/ headers of tile constants), then two passes on the shared framework (core/asm/):
 * pass 1 follows GNU conditionals (.if/.ifc/.ifnc/.ifeq/.ifdef/.elseif/.else/.endif, which
 * PopLibs' macros need, including `.if (. - LABEL) & 7` on section offsets), expands macros,
 * renames numeric local labels, collects `{ main ; aux }` bundles (one line or several, `;`
 * or newlines between the halves), tracks `.worker` / `.supervisor` mode and sizes every
 * statement; pass 2 encodes through the instruction table (asm_enc.c), checks bundles (main
 * then aux, both co-issuable, no register written twice) and rpt bodies (8-byte aligned,
 * bundles only, no control or system instruction: llvm-mc's rules and messages), and leaves
 * symbol values to the linker as RELA relocations in an object file. Output: `-o X.o` (or
 * -o object=1) is a relocatable object; anything else is a single-tile executable linked at
 * the tile memory base of -o arch (asm_elf.c). Objects among the inputs hand the whole
 * invocation to the linker (link.c), which assembles each source alone first. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include "asm.h"
#include "link.h"
#include "../../core/asm/data.h"
#include "../../core/asm/directive.h"
#include "../../core/asm/limits.h"
#include "../../core/asm/macro.h"
#include "../../core/asm/reloc.h"
#include "../../core/asm/section.h"
#include "../../core/asm/source.h"
#include "../../core/asm/symtab.h"
#include "../../core/asm/text.h"
#include "../../core/mem.h"

/* statement kinds (core/asm/section.h); IPU_ST_SUP marks supervisor-mode code */
/* the context (actx) and statement kinds are in asm.h, shared with asm_cond.c and asm_out.c */

int ipu_skipping(const actx *a) { return a->ncond && !a->cond[a->ncond - 1].taken; }

/* ---- symbols ---- */
int ipu_lookup(void *ctx, const char *name, int64_t *val, int *base)
{
    actx *a = ctx;
    *base = 0;
    if (!strcmp(name, ".")) {
        *val = (a->u.pass == 2 ? a->u.dot : a->u.secs.v[a->u.sec].size);
        if (a->u.pass == 2 && !a->u.object)
            return 0;
        if (a->u.pass == 2)
            *val -= (int64_t)a->u.secs.v[a->u.sec].base;
        *base = 1 + a->u.sec;
        return 0;
    }
    const asm_symbol *s;
    int r = asm_unit_symbol(&a->u, name, val, base, &s);
    if (r != 1)
        return r;
    /* labels: section offsets with their section as base (pass 1, object files), or
     * addresses in a linked image */
    if (a->u.pass == 2 && !a->u.object) {
        *val = (int64_t)a->u.secs.v[s->section].base + s->value;
        return 0;
    }
    *val = s->value;
    *base = 1 + s->section;
    return 0;
}

/* A `.set` symbol's expression (asm_unit_symbol); the unit is the context's first member. */
static int sym_eval(asm_unit *u, const char *text, int64_t *v, int *base, int *unresolved)
{
    char e[200];
    return ipu_asm_eval(text, ipu_lookup, (actx *)u, v, base, unresolved, e, sizeof e);
}

/* A value now; base NULL: must be absolute. 0 known, 1 unresolved (need 0), -1 error. */
int ipu_eval_now(actx *a, const char *text, int64_t *v, int *base, int need)
{
    int unres, b;
    char e[200];
    if (ipu_asm_eval(text, ipu_lookup, a, v, &b, &unres, e, sizeof e) < 0)
        return asm_unit_fail(&a->u, "bad expression '%s': %s", text, e);
    if (unres)
        return need ? asm_unit_fail(&a->u, "'%s': undefined symbol %s", text, a->u.pass == 1 ? "(must be known here)" : "")
                    : 1;
    if (base)
        *base = b;
    else if (b)
        return asm_unit_fail(&a->u, "'%s' must be a constant", text);
    return 0;
}

/* ---- statements ---- */
static asm_stmt *add_stmt(actx *a, int kind, uint32_t size, const char *mn, const char *text, const asm_data *d)
{
    /* data statements keep the shared kind (core/asm/section.c writes them itself) */
    int sup = kind != ST_DATA && a->ctx == IPU_CTX_SUPERVISOR;
    asm_stmt proto = {.kind = kind | (sup ? IPU_ST_SUP : 0), .size = size};
    if (d)
        proto.data = *d;
    if ((kind & ST_KIND) != ST_DATA) {
        if (a->ctx == IPU_CTX_SUPERVISOR)
            a->si[a->u.sec].sup = 1;
        else
            a->si[a->u.sec].wrk = 1;
    }
    return asm_unit_add(&a->u, &proto, mn, text);
}

/* Section by name; flags from a `.section` flag string ("ax", "aw"...), or by name. */
static int switch_section(actx *a, const char *name, const char *flags, const char *type)
{
    int created;
    int i = asm_section_get(&a->u.secs, name, -1, &created);
    if (i < 0)
        return asm_unit_fail(&a->u, "out of memory");
    if (created) {
        ipu_secinfo *si = realloc(a->si, sizeof *si * (size_t)a->u.secs.cap);
        if (!si)
            return asm_unit_fail(&a->u, "out of memory");
        a->si = si;
        uint32_t f = SHF_ALLOC, t = SHT_PROGBITS;
        if (!strncmp(name, ".text", 5))
            f |= SHF_EXECINSTR;
        else if (!strncmp(name, ".bss", 4))
            f |= SHF_WRITE, t = SHT_NOBITS;
        else if (!strncmp(name, ".data", 5))
            f |= SHF_WRITE;
        if (flags) {
            f = 0;
            for (const char *p = flags; *p; p++)
                f |= *p == 'a' ? SHF_ALLOC : *p == 'x' ? SHF_EXECINSTR : *p == 'w' ? SHF_WRITE : 0;
        }
        if (type && strstr(type, "nobits"))
            t = SHT_NOBITS;
        a->si[i] = (ipu_secinfo){f, t, 0, 0};
    }
    a->u.sec = i;
    return 0;
}

void ipu_unquote(char *s)
{
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        memmove(s, s + 1, n - 2);
        s[n - 2] = 0;
    }
}

static int process_line(actx *a, char *line);
/* An expanded macro line: `\@` becomes the expansion's number (the shared macro layer
 * leaves it). */
static int process_line_cb(void *ctx, char *line)
{
    actx *a = ctx;
    if (!strstr(line, "\\@") || !a->nexp)
        return process_line(a, line);
    char buf[ASM_MAX_LINE + 64];
    size_t o = 0;
    for (const char *p = line; *p && o + 16 < sizeof buf; p++) {
        if (p[0] == '\\' && p[1] == '@') {
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%d", a->exp[a->nexp - 1]);
            p++;
        } else
            buf[o++] = *p;
    }
    buf[o] = 0;
    return process_line(a, buf);
}

/* ---- directives ---- */
static int dir_section(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    if (strcmp(d, ".section"))
        return switch_section(a, d, NULL, NULL);
    char *ops[4];
    int n = asm_split_operands(rest, ops, 4);
    if (n < 1 || !ops[0][0])
        return asm_unit_fail(&a->u, ".section needs a name");
    ipu_unquote(ops[0]);
    /* llvm-mc wants the flags as a string; a bare name is an undefined macro (PopLibs'
     * FUNCTION_IS_WORKER without its header) and would leave the code unallocated */
    if (n > 1 && ops[1][0] != '"')
        return asm_unit_fail(&a->u, "expected the section flags as a string, got '%s'", ops[1]);
    if (n > 1)
        ipu_unquote(ops[1]);
    return switch_section(a, ops[0], n > 1 ? ops[1] : NULL, n > 2 ? ops[2] : NULL);
}

static int dir_global(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[ASM_MAX_OPERANDS];
    int n = asm_split_operands(rest, ops, ASM_MAX_OPERANDS);
    for (int i = 0; i < n && a->u.pass == 1; i++) {
        asm_symbol *y = asm_unit_sym(&a->u, ops[i]);
        if (!y)
            return -1;
        if (!strcmp(d, ".weak"))
            y->weak = 1, y->global = 1;
        else if (strcmp(d, ".local"))
            y->global = 1;
    }
    return 0;
}

static int dir_type(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[3];
    (void)d;
    if (asm_split_operands(rest, ops, 3) < 2)
        return asm_unit_fail(&a->u, ".type needs NAME, @TYPE");
    asm_symbol *y = asm_unit_sym(&a->u, ops[0]);
    if (!y)
        return -1;
    int idx = (int)(y - a->u.syms.v);
    if (idx >= a->capfunc) {
        int cap = a->u.syms.cap > idx ? a->u.syms.cap : idx + 64;
        uint8_t *f = realloc(a->symfunc, (size_t)cap);
        if (!f)
            return asm_unit_fail(&a->u, "out of memory");
        memset(f + a->capfunc, 0, (size_t)(cap - a->capfunc));
        a->symfunc = f, a->capfunc = cap;
    }
    a->symfunc[idx] = strstr(ops[1], "function") != NULL;
    return 0;
}

static int dir_size(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[3];
    (void)d;
    if (asm_split_operands(rest, ops, 3) != 2)
        return asm_unit_fail(&a->u, ".size needs NAME, SIZE");
    int64_t v;
    int base;
    /* `. - start` is known once the function is sized: evaluate at this point of pass 1. A
     * size that names a symbol never defined (PopLibs has one) is left 0, not an error: it
     * changes no byte of the code */
    int r = a->u.pass == 1 ? ipu_eval_now(a, ops[1], &v, &base, 0) : 1;
    if (r)
        return r < 0 ? -1 : 0;
    asm_symbol *y = asm_unit_sym(&a->u, ops[0]);
    if (!y)
        return -1;
    if (base)
        return asm_unit_fail(&a->u, ".size of %s is not a constant", ops[0]);
    y->size = (uint32_t)v;
    return 0;
}

/* A `.set`/`.equ` symbol with a number for value means, in an instruction, the value it has
 * there: it may be given another later (`.equ SHIFT, ...` in a macro used twice, PopLibs'
 * workDivision.h.S; llvm-mc clones a redefinable variable at its use). Pass 2 encodes the
 * text recorded now, so the value is written into it. */
static int subst_sets(actx *a, const char *in, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = in; *p;) {
        if ((isalpha((unsigned char)*p) || *p == '_') && (p == in || !(isalnum((unsigned char)p[-1]) ||
                                                                         p[-1] == '_' || p[-1] == '.' || p[-1] == '$'))) {
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '$')
                q++;
            char name[ASM_MAX_IDENT + 1];
            size_t l = (size_t)(q - p);
            if (l < sizeof name) {
                memcpy(name, p, l);
                name[l] = 0;
                asm_symbol *s = asm_sym_find(&a->u.syms, name, 0);
                char *end;
                long long v = s && s->defined && s->expr ? strtoll(s->expr, &end, 10) : 0;
                if (s && s->defined && s->expr && s->expr[0] && !*end) {
                    int w = snprintf(out + o, n - o, "(%lld)", v);
                    if (w < 0 || (size_t)w >= n - o)
                        return asm_unit_fail(&a->u, "instruction line too long");
                    o += (size_t)w;
                    p = q;
                    continue;
                }
            }
            if (o + l >= n)
                return asm_unit_fail(&a->u, "instruction line too long");
            memcpy(out + o, p, l);
            o += l;
            p = q;
            continue;
        }
        if (o + 1 >= n)
            return asm_unit_fail(&a->u, "instruction line too long");
        out[o++] = *p++;
    }
    out[o] = 0;
    return 0;
}

static int dir_set(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    char *ops[2];
    if (asm_split_operands(rest, ops, 2) != 2)
        return asm_unit_fail(&a->u, "%s needs NAME, VALUE", d);
    asm_symbol *s = asm_unit_sym(&a->u, ops[0]);
    if (!s)
        return -1;
    if (!strcmp(d, ".equiv") && s->defined)
        return asm_unit_fail(&a->u, "'%s' is already defined", ops[0]);
    /* `.equ X, . - L` and friends: freeze values that depend on where we are now */
    int64_t v;
    int base, r = ipu_eval_now(a, ops[1], &v, &base, 0);
    if (r < 0)
        return -1;
    char buf[64];
    const char *expr = ops[1];
    if (r == 0 && !base) {
        snprintf(buf, sizeof buf, "%lld", (long long)v);
        expr = buf;
    }
    if (asm_sym_set_expr(s, expr))
        return asm_unit_fail(&a->u, "out of memory");
    s->defined = 1;
    return 0;
}

static int dir_mode(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    (void)rest;
    a->ctx = !strcmp(d, ".supervisor") ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
    return 0;
}

static int dir_ignore(void *ctx, const char *d, char *rest)
{
    (void)ctx, (void)d, (void)rest; /* llvm-mc's Colossus switches (.allow_optimizations ...) */
    return 0;
}

static int dir_error(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    if (!strcmp(d, ".error"))
        return asm_unit_fail(&a->u, ".error: %s", rest);
    return 0; /* .warning / .print: nothing to stop for */
}

static int dir_purgem(void *ctx, const char *d, char *rest)
{
    actx *a = ctx;
    (void)d;
    int mi = asm_macro_find(&a->u.macros, asm_trim(rest));
    if (mi < 0)
        return asm_unit_fail(&a->u, ".purgem: no macro '%s'", rest);
    a->u.macros.v[mi].name[0] = 0; /* unreachable by name; freed with the table */
    return 0;
}

const asm_data_rules ipu_data_rules = {
    0, 1u << 16, 1u << 24, 1, 0,
    {[1] = R_COLOSSUS_8, [2] = R_COLOSSUS_16, [4] = R_COLOSSUS_32, [8] = R_COLOSSUS_64}};

static int dir_data(void *ctx, const char *d, char *rest, const asm_data *data)
{
    actx *a = ctx;
    uint32_t size = data->size;
    if (data->kind == ASM_DATA_ALIGN) {
        if (data->align > a->u.secs.v[a->u.sec].align)
            a->u.secs.v[a->u.sec].align = data->align;
        size = asm_data_pad(data, a->u.secs.v[a->u.sec].size);
        /* code alignment is filled with nops, as llvm-mc's writeNopData does */
        if ((a->si[a->u.sec].flags & SHF_EXECINSTR) && !strchr(rest, ','))
            return add_stmt(a, ST_NOPS, size, d, "", NULL) ? 0 : -1;
    }
    if (a->si[a->u.sec].type == SHT_NOBITS && data->kind != ASM_DATA_ALIGN && data->kind != ASM_DATA_FILL)
        return asm_unit_fail(&a->u, "data in a no-bits section");
    const char *text = rest;
    char ren[RENAMED];
    if (data->kind == ASM_DATA_VALUES) {
        if (asm_unit_rename(&a->u, rest, ren, RENAMED))
            return -1;
        text = ren;
    }
    return add_stmt(a, ST_DATA, size, d, text, data) ? 0 : -1;
}

static int ipu_const(void *ctx, const char *text, int64_t *v, char *err, size_t errlen)
{
    actx *a = ctx;
    int unres, base;
    char e[200];
    if (ipu_asm_eval(text, ipu_lookup, a, v, &base, &unres, e, sizeof e) < 0 || unres || base) {
        snprintf(err, errlen, "'%s' must be a constant known here%s%s", text, e[0] ? ": " : "", e);
        return -1;
    }
    return 0;
}

int ipu_data_value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    actx *a = ctx;
    int unres, b;
    char e[200];
    if (ipu_asm_eval(text, ipu_lookup, a, v, &b, &unres, e, sizeof e) < 0) {
        snprintf(err, errlen, "bad expression '%s': %s", text, e);
        return -1;
    }
    if (unres) {
        snprintf(err, errlen, "undefined symbol in '%s'", text);
        return -1;
    }
    if (!base && b) {
        snprintf(err, errlen, "'%s' must be a constant", text);
        return -1;
    }
    if (base)
        *base = b;
    return 0;
}

static int dir_half(void *ctx, const char *d, char *rest);

static const asm_directive ipu_directive_rows[] = {
    {".text", dir_section}, {".data", dir_section}, {".rodata", dir_section}, {".bss", dir_section},
    {".section", dir_section}, {".globl", dir_global}, {".global", dir_global}, {".weak", dir_global},
    {".local", dir_global}, {".type", dir_type}, {".size", dir_size}, {".set", dir_set}, {".equ", dir_set},
    {".equiv", dir_set}, {".worker", dir_mode}, {".supervisor", dir_mode}, {".allow_*", dir_ignore},
    {".warn_on_invalid_bundles", dir_ignore}, {".error_on_invalid_*", dir_ignore}, {".error", dir_error},
    {".warning", dir_error}, {".print", dir_error}, {".purgem", dir_purgem}, {".half", dir_half},
    {".extern", dir_ignore}, {NULL, NULL},
};
static const asm_directives ipu_directives = {ipu_directive_rows, &ipu_data_rules, ipu_const, dir_data};

static int directive(actx *a, const char *d, char *rest)
{
    char e[300];
    int rc = asm_directive_run(&ipu_directives, a, d, rest, e, sizeof e);
    if (rc && e[0])
        return asm_unit_fail(&a->u, "%s", e);
    return rc;
}

static int dir_half(void *ctx, const char *d, char *rest)
{
    (void)d; /* llvm-mc's Colossus `.half`: a 16-bit value */
    return directive(ctx, ".short", rest);
}

/* ---- instructions and bundles ---- */
static int instruction(actx *a, const char *mn, char *rest)
{
    char ren[RENAMED];
    if (asm_unit_rename(&a->u, rest, ren, RENAMED))
        return -1;
    char sub[RENAMED];
    if (subst_sets(a, ren, sub, sizeof sub))
        return -1;
    memcpy(ren, sub, sizeof ren);
    if (a->in_bundle) {
        if (a->nbundle == 2)
            return asm_unit_fail(&a->u, "too many instructions in bundle");
        if (!strcmp(mn, "ldconst"))
            return asm_unit_fail(&a->u, "macro instruction in bundle");
        if (strlen(ren) + strlen(mn) + 2 > RENAMED)
            return asm_unit_fail(&a->u, "bundle line too long");
        snprintf(a->bundle[a->nbundle++], sizeof a->bundle[0], "%s %s", mn, ren);
        return 0;
    }
    uint32_t size = !strcmp(mn, "sendpicp") ? 8 : 4; /* ipu21: the prefix and its inline payload */
    if (!strcmp(mn, "ldconst")) { /* setzi, plus `or ..., iz` when bits 31..20 are set */
        char tmp[RENAMED], *ops[3];
        snprintf(tmp, sizeof tmp, "%s", ren);
        int64_t v;
        if (asm_split_operands(tmp, ops, 3) != 2)
            return asm_unit_fail(&a->u, "ldconst needs a register and a value");
        int r = ipu_eval_now(a, ops[1], &v, NULL, 0);
        if (r < 0)
            return -1;
        size = r == 0 && !((uint64_t)v & 0xfff00000u) ? 4 : 8;
        return add_stmt(a, ST_LDCONST, size, mn, ren, NULL) ? 0 : -1;
    }
    return add_stmt(a, ST_INSN, size, mn, ren, NULL) ? 0 : -1;
}

static int end_bundle(actx *a)
{
    if (!a->in_bundle)
        return asm_unit_fail(&a->u, "end of instruction bundle without start");
    a->in_bundle = 0;
    if (a->nbundle == 0)
        return asm_unit_fail(&a->u, "empty instruction bundle");
    if (a->nbundle == 1)
        return asm_unit_fail(&a->u, "too few instructions in bundle");
    /* no padding: llvm-mc places a bundle wherever it falls. PopLibs' Fill.S runs a bundle
     * at 4 mod 8 whatever its entry nop, and with a nop before every such bundle 21 PopLibs
     * files would break llvm-mc's rpt-body alignment check (docs/isa/ipu.md "Assembler") */
    char text[2 * (RENAMED + 80) + 2];
    snprintf(text, sizeof text, "%s\n%s", a->bundle[0], a->bundle[1]);
    return add_stmt(a, ST_BUNDLE, 8, NULL, text, NULL) ? 0 : -1;
}

/* One statement (no `;`, `{`, `}`): labels, an assignment, a directive, a macro use or an
 * instruction. */
static int statement(actx *a, char *p)
{
    char *set;
    int k = asm_unit_labels(&a->u, &p, &set);
    if (k < 0)
        return -1;
    if (k == 1) {
        char setline[ASM_MAX_LINE + 8];
        snprintf(setline, sizeof setline, "%s, %s", set, p);
        return dir_set(a, ".set", setline);
    }
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || !strcmp(p, "\"\"")) /* an empty macro argument such as OPTIONAL_NOP="" */
        return 0;
    char mn[64];
    char *rest = asm_first_word(p, mn, sizeof mn);
    if (!strcmp(mn, ".macro")) {
        char e[300];
        if (asm_macro_begin(&a->u.macros, rest, e, sizeof e))
            return asm_unit_fail(&a->u, "%s", e);
        return 0;
    }
    if (mn[0] == '.')
        return directive(a, mn, rest);
    int mi = asm_macro_find(&a->u.macros, mn);
    if (mi >= 0) {
        char e[300];
        if (a->nexp == IPU_MAX_COND)
            return asm_unit_fail(&a->u, "macro expansion too deep");
        a->exp[a->nexp++] = a->nexpansions++;
        int rc = asm_macro_expand(&a->u.macros, mi, rest, process_line_cb, a, e, sizeof e);
        a->nexp--;
        if (rc && e[0])
            return asm_unit_fail(&a->u, "%s", e);
        return rc;
    }
    return instruction(a, mn, rest);
}

/* after cpp: `//` anywhere and `#` at a line start or after a blank start a comment */
static const asm_comment_syntax ipu_comments = {{"//", NULL}, {"#", NULL}};

/* Where the statement starting at p ends: at `;`, `}` or the end, outside strings and
 * parentheses. */
static char *statement_end(char *p)
{
    int depth = 0, str = 0;
    for (; *p; p++) {
        if (str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                str = 0;
        } else if (*p == '"')
            str = 1;
        else if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (depth <= 0 && (*p == ';' || *p == '}' || *p == '{'))
            return p;
    }
    return p;
}

static int process_line(actx *a, char *line)
{
    if (a->u.macros.defining >= 0) {
        if (asm_macro_record(&a->u.macros, line))
            return asm_unit_fail(&a->u, "out of memory");
        return 0;
    }
    asm_strip_comment(line, &ipu_comments);
    {   /* conditionals first: they decide whether the rest of the line counts */
        char word[32], tmp[ASM_MAX_LINE + 1];
        snprintf(tmp, sizeof tmp, "%s", line);
        char *rest = asm_first_word(asm_trim(tmp), word, sizeof word);
        if (word[0] == '.' && (!strncmp(word, ".if", 3) || !strcmp(word, ".else") || !strcmp(word, ".elseif") ||
                               !strcmp(word, ".endif"))) {
            a->u.cur_col = 1;
            return ipu_conditional(a, word, rest) < 0 ? -1 : 0;
        }
        if (ipu_skipping(a))
            return 0;
    }
    char *p = line;
    while (p && *p) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '{') {
            if (a->in_bundle)
                return asm_unit_fail(&a->u, "start of instruction bundle without end");
            a->in_bundle = 1, a->nbundle = 0;
            p++;
            continue;
        }
        char *end = statement_end(p);
        char sep = *end;
        *end = 0;
        a->u.cur_col = (int)(p - line) + 1;
        if (*p && statement(a, p) < 0)
            return -1;
        if (sep == '}' && end_bundle(a) < 0)
            return -1;
        if (sep == '{') {
            *end = '{';
            p = end;
        } else
            p = sep ? end + 1 : NULL;
    }
    return 0;
}

/* ---- sources ---- */
static const char *const arch_choices[] = {"ipu1", "ipu2", "ipu21", NULL};
static const char *const ctx_choices[] = {"worker", "supervisor", NULL};
static const char *const cpp_choices[] = {"auto", "clang", "gcc", NULL};

const opt_desc ipu_asm_options[] = {
    OPT_C("arch", "ipu2", arch_choices, "IPU generation: ipu1 (Mk1), ipu2 (Mk2), ipu21 (Bow); sets __IPU_ARCH_VERSION__ and the tile memory base"),
    OPT_C("context", "worker", ctx_choices, "mode at the start of each source, until .supervisor / .worker (llvm-mc starts in worker mode)"),
    OPT_U("object", "2", 0, 2, "1: relocatable object (ET_REL, RELA); 0: single-tile executable; 2: object when -o names a .o file"),
    OPT_T("define", NULL, "NAME[=VALUE],... for the C preprocessor"),
    OPT_T("include", NULL, "one more include directory for the C preprocessor (before isa/ipu/include)"),
    OPT_C("cpp", "auto", cpp_choices, "preprocessor: clang -E (as Graphcore's clang-based popc), gcc's cpp, or auto (clang if on PATH, else cpp); they differ on ## pastes that make no token"),
    OPT_T("entry", NULL, "executables: the entry symbol (default: _start, else the first code section)"),
    OPT_END,
};

/* Where our own tile-constant headers are: $XPUSIM_ROOT/isa/ipu/include when set; else next
 * to the running binary, in the source tree (build/xpusim -> isa/ipu/include) or where
 * `make install` puts them (bin/xpusim -> share/xpusim/ipu/include); else the working
 * directory's isa/ipu/include. */
static const char *header_dir(char *buf, size_t n)
{
    const char *root = getenv("XPUSIM_ROOT");
    if (root && root[0]) {
        snprintf(buf, n, "-I%s/isa/ipu/include", root);
        return buf;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            static const char *const rel[] = {"/../isa/ipu/include", "/../share/xpusim/ipu/include"};
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                struct stat st;
                int w = snprintf(buf, n, "-I%s%s", exe, rel[i]);
                if (w > 0 && (size_t)w < n && stat(buf + 2, &st) == 0 && S_ISDIR(st.st_mode))
                    return buf;
            }
        }
    }
    snprintf(buf, n, "-I./isa/ipu/include");
    return buf;
}

/* One line of a source (asm_unit_source_line): the unit is the context's first member. */
static int unit_line(asm_unit *u, char *text) { return process_line((actx *)u, text); }

static int read_source(actx *a, const char *path, const sim_opts *opts)
{
    char archdef[64], hdr[4200];
    snprintf(archdef, sizeof archdef, "-D__IPU_ARCH_VERSION__=%s",
             a->arch == IPU_ARCH_IPU1 ? "1" : a->arch == IPU_ARCH_IPU2 ? "2" : "21");
    const char *inc = opts ? opt_text(opts, ipu_asm_options, "include") : NULL;
    char incarg[4200];
    const char *fixed[7];
    int nf = 0;
    int cppi = 0;
    if (opts && opt_choice(opts, ipu_asm_options, "cpp", &cppi, a->u.err, sizeof a->u.err) < 0)
        return -1;
    if (cppi != 2) /* PopLibs pastes `_##\ARG` in macro names: clang keeps the pieces together */
        fixed[nf++] = cppi == 1 ? ASM_CPP_CLANG : ASM_CPP_CLANG_OR_CPP;
    fixed[nf++] = "-D__IPU__=1";
    fixed[nf++] = archdef;
    if (inc && inc[0]) { /* the user's directory first, then ours */
        snprintf(incarg, sizeof incarg, "-I%s", inc);
        fixed[nf++] = incarg;
    }
    fixed[nf++] = header_dir(hdr, sizeof hdr);
    fixed[nf] = NULL;
    asm_cpp_args args;
    if (asm_cpp_args_build(&args, path, fixed, opts ? opt_text(opts, ipu_asm_options, "define") : NULL, NULL,
                           a->u.err, sizeof a->u.err))
        return -1;
    if ((a->u.cur_file = asm_files_index(&a->u.files, path)) < 0) {
        snprintf(a->u.err, sizeof a->u.err, "out of memory");
        return -1;
    }
    int rc = asm_source_read(path, args.argv, asm_unit_source_line, &a->u, a->u.err, sizeof a->u.err);
    if (rc)
        return rc;
    if (rc == 0 && a->in_bundle)
        rc = asm_unit_fail(&a->u, "instruction bundle without end");
    if (rc == 0 && a->ncond)
        rc = asm_unit_fail(&a->u, "missing .endif");
    return rc;
}

static void actx_free(actx *a)
{
    asm_unit_free(&a->u);
    free(a->si);
    free(a->symfunc);
}

uint32_t ipu_align_up(uint32_t v, uint32_t al) { return (v + al - 1) & ~(al - 1); }

int ipu_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err, size_t errlen)
{
    for (int i = 0; i < nsrc; i++) /* an object among the inputs: assemble the sources alone, link (link.c) */
        if (ipu_is_object(srcs[i]))
            return ipu_link_inputs(nsrc, srcs, out, opts, err, errlen);
    int archi = 1, ctxi = 0;
    uint64_t object = 2;
    if (opts && (opt_choice(opts, ipu_asm_options, "arch", &archi, err, errlen) ||
                 opt_choice(opts, ipu_asm_options, "context", &ctxi, err, errlen) ||
                 opt_uint(opts, ipu_asm_options, "object", &object, err, errlen)))
        return -1;
    actx *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t ol = strlen(out);
    asm_macros_init(&a->u.macros);
    a->u.ext_base = EXT_BASE;
    a->u.line = unit_line;
    a->u.eval = sym_eval;
    a->u.macros.strip_quotes = 1; /* llvm-mc: "" and "void" arguments lose their quotes */
    a->arch = 1 << archi;
    a->tmem_base = a->arch == IPU_ARCH_IPU1 ? 0x40000u : 0x4c000u; /* TMEM_REGION0_BASE_ADDR (ipuArchInfo.cpp) */
    a->u.object = object == 2 ? ol > 2 && !strcmp(out + ol - 2, ".o") : (int)object;
    a->u.pass = 1;
    a->rpt_sec = -1;
    a->u.secs.max_size = IPU_MAX_SECTION;
    int rc = 0;
    for (int i = 0; i < nsrc && rc == 0; i++) {
        a->ctx = ctxi ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
        rc = switch_section(a, ".text", NULL, NULL);
        if (rc == 0)
            rc = read_source(a, srcs[i], opts);
    }
    a->u.cur_col = 1;
    if (rc == 0 && a->u.macros.defining >= 0)
        rc = asm_unit_fail(&a->u, "missing .endm for macro '%s'", a->u.macros.v[a->u.macros.defining].name);
    uint32_t nobits = 0, cur = a->tmem_base;
    for (int i = 0; rc == 0 && i < a->u.secs.n; i++) {
        asm_section *s = &a->u.secs.v[i];
        if ((a->si[i].flags & SHF_EXECINSTR) && s->align < 4)
            s->align = 4;
        if (a->si[i].type == SHT_NOBITS && i < 32)
            nobits |= 1u << i;
        if (!a->u.object && (a->si[i].flags & SHF_ALLOC)) { /* one tile: sections in order from the base */
            cur = ipu_align_up(cur, s->align);
            s->base = cur;
            cur += s->size;
        }
    }
    const char *nomem;
    if (rc == 0 && asm_sections_alloc(&a->u.secs, nobits, &nomem))
        rc = asm_unit_fail(&a->u, "out of memory for the contents of %s", nomem);
    if (rc == 0) {
        a->u.pass = 2;
        const asm_stmt *bad;
        char e[300];
        if (asm_stmts_emit(&a->u.stmts, &ipu_data_rules, ipu_place_stmt, ipu_encode_stmt, ipu_data_value, a,
                           a->u.object ? &a->u.relocs : NULL, &bad, e, sizeof e)) {
            if (e[0])
                asm_unit_fail(&a->u, "%s", e);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = ipu_write_output(a, out, opts, err, errlen);
    else
        snprintf(err, errlen, "%s", a->u.err);
    actx_free(a);
    free(a);
    return rc;
}
