/* isa/ipu/asm.h: the Graphcore IPU assembler (xpusim asm --isa ipu), for Graphcore assembly
 * as PopLibs' hand-written codelets use it. asm.c is the driver on the shared framework
 * (core/asm/): cpp, two passes, GNU conditionals and macros, sections, `.worker` /
 * `.supervisor` mode, `{ main ; aux }` bundles and the rpt rules; asm_enc.c encodes one
 * instruction from the one instruction table (table.inc) and says which fields the linker
 * must finish (R_COLOSSUS_* relocations); asm_elf.c writes a relocatable object (ET_REL,
 * EM 248, RELA) or a single-tile executable linked at the tile memory base. The entry
 * points for the ISA table are ipu_assemble and ipu_asm_options. */
#ifndef XPUSIM_IPU_ASM_H
#define XPUSIM_IPU_ASM_H
#include <stddef.h>
#include <stdint.h>
#include "../../core/opts.h"
#include "ipu.h"

/* `xpusim asm --isa ipu` and its -o options. */

/* ELF relocation types of the Colossus target (LLVM BinaryFormat, cross-checked with
 * osmarks/ipu-stack's ipu-elf). */
enum {
    R_COLOSSUS_NONE = 0, R_COLOSSUS_8 = 1, R_COLOSSUS_16 = 2, R_COLOSSUS_20 = 3, R_COLOSSUS_32 = 4,
    R_COLOSSUS_64 = 5, R_COLOSSUS_RELATIVE_16_S2 = 6, R_COLOSSUS_18_S2 = 7, R_COLOSSUS_19_S2 = 8,
    R_COLOSSUS_RUN = 9, R_COLOSSUS_16_S3 = 14, R_COLOSSUS_16_S4 = 15, R_COLOSSUS_16_S5 = 16, R_COLOSSUS_21 = 17
};

/* A symbol's value for the encoder: 0 and *val and *base (base 0: absolute; otherwise the
 * relocatable base, asm.c's numbering, core/asm/expr.h), non-zero if unknown. */
typedef int (*ipu_asm_lookup_fn)(void *ctx, const char *name, int64_t *val, int *base);

/* How the encoder sees the program around one instruction. */
typedef struct ipu_asm_env {
    int arch;               /* IPU_ARCH_* (one bit) */
    int ctx;                /* IPU_CTX_WORKER or IPU_CTX_SUPERVISOR: `.worker` / `.supervisor` */
    int object;             /* relocatable output: symbol values become relocations */
    uint32_t tmem_base;     /* TMEM_REGION0_BASE_ADDR: what R_COLOSSUS_RUN values are relative to */
    ipu_asm_lookup_fn look;
    void *look_ctx;
} ipu_asm_env;

/* A field left to the linker (type 0: none). */
typedef struct ipu_fixup {
    int type, base;
    int64_t addend;
} ipu_fixup;

/* One encoded instruction: its row, word and the registers it writes (bundle checks). */
typedef struct ipu_enc {
    const ipu_opdef *row;
    uint32_t word;
    uint16_t mwrites, awrites;  /* bit i: $mi / $ai written */
    ipu_fixup fx;
} ipu_enc;

/* Encode `mn ops...` (operands as text, already split at commas). 0 ok; -1 with err. Aliases
 * (nop, fnop, zero, mov, get/put of upper CSRs) are resolved here; `sub $d, $s, imm` is
 * add with -imm, as llvm-mc expands it. */
int ipu_asm_encode(const ipu_asm_env *env, const char *mn, char **ops, int nops, ipu_enc *out, char *err,
                   size_t errlen);
/* A CSR named `$NAME` in context ctx for arch: its index, or -1. */
int ipu_asm_csr(const char *name, int arch, int ctx);
/* Is name a register or CSR spelling (reserved in expressions)? */
int ipu_asm_is_reserved(const char *name);
/* Evaluate an expression with the shared evaluator (registers reserved). */
int ipu_asm_eval(const char *text, ipu_asm_lookup_fn look, void *ctx, int64_t *v, int *base, int *unresolved,
                 char *err, size_t errlen);

/* ---- ELF output (asm_elf.c) ---- */
typedef struct ipu_elf_sec {
    const char *name;
    uint32_t type, flags, align, size, addr;
    const uint8_t *data;    /* NULL for SHT_NOBITS */
} ipu_elf_sec;
typedef struct ipu_elf_sym {
    const char *name;
    uint32_t value, size;
    int sec;                /* index into secs, -1 undefined, -2 absolute */
    int global, weak, func;
} ipu_elf_sym;
typedef struct ipu_elf_rela {
    int sec;                /* the section the field is in */
    uint32_t off, type;
    int sym;                /* index into syms, or -(1 + section) for a section symbol */
    int32_t addend;
} ipu_elf_rela;
typedef struct ipu_elf_out {
    int object;
    uint32_t entry;
    const ipu_elf_sec *secs; int nsecs;
    const ipu_elf_sym *syms; int nsyms;
    const ipu_elf_rela *relas; int nrelas;
} ipu_elf_out;
int ipu_write_elf(const char *path, const ipu_elf_out *o, char *err, size_t errlen);


/* ---- the assembler's state, shared by asm.c, asm_cond.c and asm_out.c ---- */
#include "../../core/asm/data.h"
#include "../../core/asm/limits.h"
#include "../../core/asm/macro.h"
#include "../../core/asm/reloc.h"
#include "../../core/asm/section.h"
#include "../../core/asm/source.h"
#include "../../core/asm/symtab.h"
#include "../../core/asm/unit.h"

/* statement kinds (core/asm/section.h); IPU_ST_SUP marks supervisor-mode code */
enum { ST_DATA = ASM_STMT_DATA, ST_INSN, ST_BUNDLE, ST_NOPS, ST_LDCONST, ST_KIND = 0xff, IPU_ST_SUP = 0x100 };
#define EXT_BASE 100000     /* relocatable bases: 1 + section, or EXT_BASE + undefined symbol */
#define IPU_MAX_SECTION (1u << 24)
#define IPU_MAX_COND 64
#define RENAMED (4 * ASM_MAX_LINE)

typedef struct ipu_secinfo { uint32_t flags, type; int sup, wrk; } ipu_secinfo;
/* one level of .if: this branch is taken, a branch was, the enclosing level is live */
typedef struct ipu_cond { unsigned taken : 1, done : 1, outer : 1; } ipu_cond;

typedef struct ipu_actx {
    asm_unit u;             /* first: the shared run state (core/asm/unit.h) */
    ipu_secinfo *si;
    uint8_t *symfunc; int capfunc;
    int ctx, arch;
    uint32_t tmem_base;
    /* conditionals: per level, whether this branch is taken and whether one was */
    ipu_cond cond[IPU_MAX_COND];
    int ncond;
    /* `\@` in a macro body: the number of this expansion (GNU as), innermost last */
    int exp[IPU_MAX_COND], nexp, nexpansions;
    /* the bundle being collected */
    int in_bundle, nbundle;
    char bundle[2][RENAMED + 80];
    /* pass 2: the open rpt body */
    int rpt_sec;
    uint32_t rpt_end;
} actx;

int ipu_skipping(const actx *a);
int ipu_lookup(void *ctx, const char *name, int64_t *val, int *base);
/* A value now (base NULL: must be absolute): 0 known, 1 unresolved (need 0), -1 error. */
int ipu_eval_now(actx *a, const char *text, int64_t *v, int *base, int need);
void ipu_unquote(char *s);
uint32_t ipu_align_up(uint32_t v, uint32_t al);
extern const asm_data_rules ipu_data_rules;
int ipu_data_value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen);
/* asm_cond.c: 1 a conditional directive (handled), 0 not one, -1 error */
int ipu_conditional(actx *a, const char *d, char *rest);
/* asm_out.c: pass 2 callbacks and the output file */
uint8_t *ipu_place_stmt(void *ctx, const asm_stmt *st);
int ipu_encode_stmt(void *ctx, const asm_stmt *st, uint8_t *out, char *err, size_t errlen);
int ipu_write_output(actx *a, const char *out, const sim_opts *opts, char *err, size_t errlen);

#endif
