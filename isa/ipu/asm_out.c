/* isa/ipu/asm_out.c: pass 2 and the output of the IPU assembler (asm.c). Each statement is
 * encoded through the table (asm_enc.c): single instructions, ldconst (setzi plus `or ...,
 * iz` for bits 31..20), code padding (nops, as llvm-mc's writeNopData), and bundles, which
 * are checked as llvm-mc checks them (main-pipe first, aux second, both co-issuable, no
 * register written twice, pairs and quads overlapping their halves) and get the co-issue
 * bit on both words. rpt bodies are checked as llvm-mc's finishLayout does: 8-byte aligned
 * in an 8-byte aligned section, bundles only, no control or system instruction. Then the
 * symbols and relocations go to asm_elf.c. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "asm.h"
#include "../../core/asm/text.h"
#include "../../core/mem.h"

/* ---- pass 2 ---- */
uint8_t *ipu_place_stmt(void *ctx, const asm_stmt *st)
{
    actx *a = ctx;
    a->u.sec = st->sec;
    a->u.dot = (uint32_t)a->u.secs.v[st->sec].base + st->off;
    a->u.cur_file = st->file, a->u.cur_line = st->line, a->u.cur_col = st->col;
    return a->u.secs.v[st->sec].bytes ? a->u.secs.v[st->sec].bytes + st->off : NULL;
}

static int encode_one(actx *a, const asm_stmt *st, const char *text, ipu_enc *e)
{
    char tmp[RENAMED], mn[64];
    snprintf(tmp, sizeof tmp, "%s", text);
    char *rest = asm_first_word(tmp, mn, sizeof mn);
    char *ops[IPU_MAX_OPS + 2];
    int n = asm_split_operands(rest, ops, IPU_MAX_OPS + 2);
    if (n > IPU_MAX_OPS + 1)
        return asm_unit_fail(&a->u, "too many operands for '%s'", mn);
    ipu_asm_env env = {a->arch, (st->kind & IPU_ST_SUP) ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER, a->u.object,
                       a->tmem_base, ipu_lookup, a};
    char err[300];
    if (ipu_asm_encode(&env, mn, ops, n, e, err, sizeof err))
        return asm_unit_fail(&a->u, "%s", err);
    return 0;
}

static int add_fixup(actx *a, const asm_stmt *st, uint32_t at, const ipu_fixup *fx)
{
    if (!fx->type)
        return 0;
    asm_reloc r = {st->sec, st->off + at, (uint32_t)fx->type, fx->base, fx->addend};
    if (asm_reloc_add(&a->u.relocs, &r))
        return asm_unit_fail(&a->u, "out of memory");
    return 0;
}

/* rpt: the body (count + 1 bundles) must start 8-byte aligned; remember where it ends. */
static int rpt_open(actx *a, const asm_stmt *st, const ipu_enc *e)
{
    uint32_t next = st->off + st->size;
    if (a->u.secs.v[st->sec].align < 8 || (next & 7))
        return asm_unit_fail(&a->u, st->size == 8 ? "code following rpt instruction is misaligned. Please add a nop before the "
                                       "bundled rpt instruction to ensure the rpt body is 8 byte aligned"
                                     : "code following rpt instruction is misaligned. Please bundle the rpt "
                                       "instruction with fnop to ensure the rpt body is 8 byte aligned");
    if (e->fx.type) /* a count the linker decides: the body's end is not known here */
        return 0;
    a->rpt_sec = st->sec;
    a->rpt_end = next + ((e->word & 0xff) + 1) * 8;
    return 0;
}

/* sendpicp W-1, A, C, S, XPIC, PIC (ipu21): the prefix from its first four operands, then the
 * payload word XPIC << 18 | PIC; the pair must start at an 8-byte boundary (the document). */
static int encode_wide(actx *a, const asm_stmt *st, uint8_t *out)
{
    char tmp[RENAMED], *ops[8], line[RENAMED + 80];
    snprintf(tmp, sizeof tmp, "%s", st->text);
    if (asm_split_operands(tmp, ops, 8) != 6)
        return asm_unit_fail(&a->u, "sendpicp takes 6 operands: words - 1, source word address, send control, PIC selector, "
                           "XPIC value (14 bits), PIC value (18 bits)");
    if (a->u.secs.v[st->sec].align < 8 || ((a->u.secs.v[st->sec].base + st->off) & 7))
        return asm_unit_fail(&a->u, "sendpicp must start at an 8-byte boundary (it is two words; add .align 8 or a nop)");
    int64_t xp, pc;
    if (ipu_eval_now(a, ops[4], &xp, NULL, 1) || ipu_eval_now(a, ops[5], &pc, NULL, 1))
        return -1;
    if (xp < 0 || xp > 0x3fff)
        return asm_unit_fail(&a->u, "sendpicp: XPIC value %lld does not fit in 14 bits", (long long)xp);
    if (pc < 0 || pc > 0x3ffff)
        return asm_unit_fail(&a->u, "sendpicp: PIC value %lld does not fit in 18 bits", (long long)pc);
    snprintf(line, sizeof line, "sendpicp %s, %s, %s, %s", ops[0], ops[1], ops[2], ops[3]);
    ipu_enc e;
    if (encode_one(a, st, line, &e))
        return -1;
    mem_st32le(out, e.word);
    mem_st32le(out + 4, (uint32_t)xp << 18 | (uint32_t)pc);
    return 0;
}

static int in_rpt(const actx *a, const asm_stmt *st) { return a->rpt_sec == st->sec && st->off < a->rpt_end; }

int ipu_encode_stmt(void *ctx, const asm_stmt *st, uint8_t *out, char *err, size_t errlen)
{
    actx *a = ctx;
    (void)errlen;
    err[0] = 0;
    int kind = st->kind & ST_KIND;
    if (kind != ST_BUNDLE && in_rpt(a, st))
        return asm_unit_fail(&a->u, "repeat blocks must only contain instruction bundles");
    ipu_enc e[2];
    switch (kind) {
    case ST_NOPS: /* llvm-mc pads code with zeros to a word, then with nops */
        memset(out, 0, st->size);
        for (uint32_t i = st->size % 4; i + 4 <= st->size; i += 4)
            mem_st32le(out + i, 0x19e00000u);
        return 0;
    case ST_INSN: {
        char line[RENAMED + 80];
        snprintf(line, sizeof line, "%s %s", st->mn, st->text);
        if (st->size == 8) /* sendpicp */
            return encode_wide(a, st, out);
        if (encode_one(a, st, line, &e[0]))
            return -1;
        if (add_fixup(a, st, 0, &e[0].fx))
            return -1;
        mem_st32le(out, e[0].word);
        if (!strcmp(e[0].row->mnemonic, "rpt"))
            return rpt_open(a, st, &e[0]);
        return 0;
    }
    case ST_LDCONST: {
        char tmp[RENAMED], *ops[3], line[RENAMED + 64];
        snprintf(tmp, sizeof tmp, "%s", st->text);
        asm_split_operands(tmp, ops, 3);
        int64_t v;
        if (ipu_eval_now(a, ops[1], &v, NULL, 1))
            return -1;
        if (v < -0x80000000ll || v > 0xffffffffll)
            return asm_unit_fail(&a->u, "ldconst value %lld does not fit in 32 bits", (long long)v);
        uint32_t u = (uint32_t)v;
        snprintf(line, sizeof line, "setzi %s, %u", ops[0], u & 0xfffffu);
        if (encode_one(a, st, line, &e[0]))
            return -1;
        mem_st32le(out, e[0].word);
        if (st->size == 8) {
            snprintf(line, sizeof line, "or %s, %s, %u", ops[0], ops[0], u & 0xfff00000u);
            if (encode_one(a, st, line, &e[1]))
                return -1;
            mem_st32le(out + 4, e[1].word);
        } else if (u & 0xfff00000u)
            return asm_unit_fail(&a->u, "internal: ldconst sized as one word");
        return 0;
    }
    case ST_BUNDLE: {
        const char *nl = strchr(st->text, '\n');
        char first[RENAMED];
        snprintf(first, sizeof first, "%.*s", (int)(nl - st->text), st->text);
        if (encode_one(a, st, first, &e[0]) || encode_one(a, st, nl + 1, &e[1]))
            return -1;
        if (e[0].row->pipe != IPU_PIPE_MAIN || e[1].row->pipe != IPU_PIPE_AUX)
            return asm_unit_fail(&a->u, "invalid instruction in bundle (the main-pipe instruction first, then the aux one)");
        if (!(e[0].row->flags & IPU_F_COISSUE) || !(e[1].row->flags & IPU_F_COISSUE))
            return asm_unit_fail(&a->u, "instruction within bundle cannot be dual issued");
        if ((e[0].mwrites & e[1].mwrites) || (e[0].awrites & e[1].awrites))
            return asm_unit_fail(&a->u, "bundle instructions cannot write to the same operand");
        if (in_rpt(a, st))
            for (int i = 0; i < 2; i++)
                if (e[i].row->flags & (IPU_F_CONTROL | IPU_F_SYSTEM))
                    return asm_unit_fail(&a->u, "repeat blocks cannot contain %s instructions",
                                (e[i].row->flags & IPU_F_CONTROL) ? "control" : "system");
        for (int i = 0; i < 2; i++) {
            if (add_fixup(a, st, 4u * (uint32_t)i, &e[i].fx))
                return -1;
            mem_st32le(out + 4 * i, e[i].word | 0x80000000u); /* both halves carry the co-issue bit */
        }
        if (!strcmp(e[0].row->mnemonic, "rpt"))
            return rpt_open(a, st, &e[0]);
        return 0;
    }
    }
    return 0;
}

/* The output: symbols and relocations in asm_elf.c's terms. */
int ipu_write_output(actx *a, const char *out, const sim_opts *opts, char *err, size_t errlen)
{
    int ns = a->u.secs.n;
    ipu_elf_sec *secs = calloc((size_t)ns + 1, sizeof *secs);
    ipu_elf_sym *syms = calloc((size_t)a->u.syms.n + (size_t)a->u.ext.n + 1, sizeof *syms);
    int *extidx = calloc((size_t)a->u.ext.n + 1, sizeof *extidx);
    ipu_elf_rela *rel = calloc((size_t)a->u.relocs.n + 1, sizeof *rel);
    int nsym = 0, rc = -1;
    uint32_t entry = 0;
    if (!secs || !syms || !extidx || !rel) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < ns; i++) {
        const asm_section *s = &a->u.secs.v[i];
        uint32_t flags = a->si[i].flags;
        if (a->si[i].sup && !a->si[i].wrk)
            flags |= IPU_SHF_SUPERVISOR;
        secs[i] = (ipu_elf_sec){s->name, a->si[i].type, flags, s->align, s->size, (uint32_t)s->base,
                                a->si[i].type == SHT_NOBITS ? NULL : s->bytes};
        if (!entry && !a->u.object && (flags & SHF_EXECINSTR) && s->size)
            entry = (uint32_t)s->base;
    }
    const char *want = opts ? opt_text(opts, ipu_asm_options, "entry") : NULL;
    for (int i = 0; i < a->u.syms.n; i++) {
        const asm_symbol *y = &a->u.syms.v[i];
        int func = i < a->capfunc && a->symfunc[i];
        if (!y->defined) {
            if (y->global && !asm_sym_find(&a->u.ext, y->name, 0))
                syms[nsym++] = (ipu_elf_sym){y->name, 0, 0, -1, 1, y->weak, func};
            continue;
        }
        if (!strncmp(y->name, ".L", 2) || !y->name[0])
            continue;
        if (y->expr) { /* .set constants: only the global ones are exported (absolute) */
            int64_t v;
            int base;
            if (!y->global || ipu_eval_now(a, y->name, &v, &base, 1) || base)
                continue;
            syms[nsym++] = (ipu_elf_sym){y->name, (uint32_t)v, 0, -2, 1, y->weak, 0};
            continue;
        }
        uint32_t v = (uint32_t)y->value + (a->u.object ? 0 : (uint32_t)a->u.secs.v[y->section].base);
        syms[nsym++] = (ipu_elf_sym){y->name, v, y->size, y->section, y->global, y->weak, func};
        if (!a->u.object && ((want && !strcmp(want, y->name)) || (!want && !strcmp(y->name, "_start"))))
            entry = v;
    }
    if (want && !a->u.object && !asm_sym_find(&a->u.syms, want, 0)) {
        snprintf(err, errlen, "%s: entry symbol '%s' is not defined", out, want);
        goto done;
    }
    for (int i = 0; i < a->u.ext.n; i++) {
        extidx[i] = nsym;
        syms[nsym++] = (ipu_elf_sym){a->u.ext.v[i].name, 0, 0, -1, 1, 0, 0};
    }
    for (int i = 0; i < a->u.relocs.n; i++) {
        const asm_reloc *r = &a->u.relocs.v[i];
        if (r->addend < INT32_MIN || r->addend > INT32_MAX) {
            snprintf(err, errlen, "%s: relocation addend %lld does not fit in 32 bits", out, (long long)r->addend);
            goto done;
        }
        rel[i] = (ipu_elf_rela){r->sec, r->off, r->type, r->base >= EXT_BASE ? extidx[r->base - EXT_BASE] : -r->base,
                                (int32_t)r->addend};
    }
    ipu_elf_out o = {a->u.object, entry, secs, ns, syms, nsym, rel, a->u.relocs.n};
    rc = ipu_write_elf(out, &o, err, errlen);
done:
    free(secs), free(syms), free(extidx), free(rel);
    return rc;
}

