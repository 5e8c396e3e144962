/* isa/ipu/ipu.h: the Graphcore Colossus IPU tile ISA (ipu1 = Mk1 GC2, ipu2 = Mk2 GC200,
 * ipu21 = Bow/C600) as xpusim decodes it. One instruction table (table.c, rows in
 * table.inc) gives, per encoding, its mnemonic, the architectures and contexts that decode
 * it, its pipe, its flags and its operand fields in printing order; decode.c turns a word
 * (or a co-issued pair of words) into a row and operand values for a given architecture
 * and context, and disasm.c prints it the way llvm-mc prints it. Every instruction is one
 * little-endian 32-bit word; bit 31 set on a co-issuable main-pipe instruction makes the
 * next word the aux half of a 64-bit bundle. Worker and supervisor decode spaces differ, so
 * every decode names the context. encode.c goes the other way (ipu_encode). Execution is
 * in tile.h and its files. */
#ifndef XPUSIM_IPU_H
#define XPUSIM_IPU_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../../core/opts.h"

/* Architectures, as a mask so one row can name several. */
enum { IPU_ARCH_IPU1 = 1, IPU_ARCH_IPU2 = 2, IPU_ARCH_IPU21 = 4, IPU_ARCH_ALL = 7 };
/* Contexts that decode a row: the six workers, the supervisor, or both. */
enum { IPU_CTX_WORKER = 1, IPU_CTX_SUPERVISOR = 2, IPU_CTX_BOTH = 3 };
/* Pipes: main (MRF, load/store, branch, system) and aux (ARF, floating point). */
enum { IPU_PIPE_MAIN = 0, IPU_PIPE_AUX = 1 };
/* Row flags (LLVM TSFlags 25, 23, 24): may be co-issued in a bundle; control
 * (branch, rpt, exit); system (CSR access, run, sync, exchange). Neither control nor system
 * instructions may sit in an rpt body. */
enum { IPU_F_COISSUE = 1, IPU_F_CONTROL = 2, IPU_F_SYSTEM = 4, IPU_F_WIDE = 8 };
/* IPU_F_WIDE (no LLVM flag): an 8-byte-aligned instruction of two words whose second is an
 * inline payload, never decoded on its own (ipu21's sendpicp); the decode keeps the payload
 * in ipu_insn.v[IPU_MAX_OPS - 1]. */

/* Operand kinds. Register operands hold the 4-bit register field as encoded. */
typedef enum ipu_kind {
    IPU_K_NONE = 0,
    IPU_K_MR,    /* $m0..$m15 */
    IPU_K_AR,    /* $a0..$a15 */
    IPU_K_MRP,   /* $m0:1..$m10:11 (even field < 12) */
    IPU_K_ARP,   /* $a0:1..$a12:13, field 14 = $a14:15 ($azeros) */
    IPU_K_ARQ,   /* $a0:3, $a4:7, $a8:11, $a12:15 (field multiple of 4) */
    IPU_K_ARBL,  /* $aN:BL, lower half broadcast */
    IPU_K_ARBU,  /* $aN:BU, upper half broadcast */
    IPU_K_ARB,   /* $aN:B, broadcast */
    IPU_K_UIMM,  /* zero-extended immediate */
    IPU_K_SIMM,  /* sign-extended immediate */
    IPU_K_IZ,    /* immediate placed in the top bits (value << (32 - width)) */
    IPU_K_BR     /* branch/call target: a word address, printed as value * 4 */
} ipu_kind;

/* Register suffixes the printer adds (LLVM operand modifiers 1-4). */
typedef enum ipu_mod {
    IPU_M_NONE = 0,
    IPU_M_INC,      /* "++" */
    IPU_M_INCOFF,   /* "+=" post-increment by the offset operand */
    IPU_M_INCDELTA, /* ">>" */
    IPU_M_POSTMOD   /* "@" */
} ipu_mod;

#define IPU_MAX_OPS 5
#define IPU_MAX_PIECES 3

/* One piece of an operand: word bits [lo, lo + width) hold value bits [shift, shift + width). */
typedef struct ipu_piece {
    uint8_t lo, width, shift;
} ipu_piece;

typedef struct ipu_operand {
    uint8_t kind;    /* ipu_kind */
    uint8_t mod;     /* ipu_mod */
    uint8_t npieces;
    ipu_piece p[IPU_MAX_PIECES];
} ipu_operand;

typedef struct ipu_opdef {
    const char *mnemonic;
    const char *name;    /* the encoding's name in the LLVM tables (inst_<name>) */
    const char *format;  /* encoding format name (FMXMN, FAXAB, ...) */
    uint32_t match, mask;
    uint8_t arch;        /* IPU_ARCH_* mask */
    uint8_t ctx;         /* IPU_CTX_* */
    uint8_t pipe;        /* IPU_PIPE_* */
    uint8_t flags;       /* IPU_F_* */
    uint8_t nops;
    ipu_operand op[IPU_MAX_OPS]; /* in printing order */
} ipu_opdef;

extern const ipu_opdef ipu_ops[];
extern const int ipu_nops;

/* Width in bits of an operand (sum of its pieces). */
unsigned ipu_operand_width(const ipu_operand *o);
/* "ipu1" etc. to IPU_ARCH_*, 0 if unknown; and back. */
int ipu_arch_parse(const char *s);
const char *ipu_arch_name(int arch);

/* ---- decode (decode.c) ---- */

typedef struct ipu_insn {
    const ipu_opdef *op;
    uint32_t word;
    uint32_t v[IPU_MAX_OPS]; /* raw operand values (immediates not yet sign-extended) */
    uint8_t ctx;             /* the context whose decode space matched */
} ipu_insn;

enum { IPU_DEC_OK = 0, IPU_DEC_UNKNOWN = -1, IPU_DEC_BADREG = -2 };

/* Decode one word in context ctx (IPU_CTX_WORKER or IPU_CTX_SUPERVISOR) for arch. Returns
 * IPU_DEC_OK, IPU_DEC_UNKNOWN (no row) or IPU_DEC_BADREG (a row matched but a register
 * field is not a valid pair/quad, which LLVM also rejects). */
int ipu_decode_word(uint32_t w, int arch, int ctx, ipu_insn *out);
/* Value of operand i as a signed/unsigned 32-bit number after sign extension or
 * shifting: the number the printer prints (BR: the byte address). */
int64_t ipu_operand_value(const ipu_insn *in, int i);

/* A bundle: one instruction, or a main-pipe instruction with bit 31 set and its aux half
 * (or one IPU_F_WIDE instruction: n = 1, 8 bytes). */
typedef struct ipu_bundle {
    int n;              /* 1 or 2 */
    ipu_insn insn[2];
} ipu_bundle;

/* Decode at p[0..avail). fallback: when the word is not valid in ctx, try the other
 * context (what llvm-objdump and llvm-mc do). An IPU_F_WIDE row takes the next word as its
 * payload (IPU_DEC_UNKNOWN when it is not there). Returns bytes used (4 or 8), 0 if avail is
 * too short, or a negative IPU_DEC_* code (the first word cannot be decoded). A bundle
 * whose second word does not decode returns the first word alone with n = 1. */
int ipu_decode(const uint8_t *p, size_t avail, int arch, int ctx, int fallback, ipu_bundle *b);

/* ---- encoding (encode.c) ---- */

/* The row whose LLVM encoding name is llvm_name ("add_mmmn_si"), or NULL. */
const ipu_opdef *ipu_row_by_name(const char *llvm_name);
/* Encode row llvm_name with ops[0..nops) in printing order, each the value the printer
 * shows: register numbers, signed/unsigned immediates, `iz` immediates as the full 32-bit
 * value, branch targets as byte addresses. 0 ok and *word set (bit 31 clear: the caller
 * sets the co-issue flag); -1 unknown name; -(2 + i) operand i does not fit its field. */
int ipu_encode(const char *llvm_name, const int64_t *ops, uint32_t *word);

/* ---- disassembly (disasm.c) ---- */

/* One instruction as llvm-mc prints it ("add $m1, $m2, $m3"; aliases such as nop, zero,
 * mov applied). */
void ipu_format_insn(const ipu_insn *in, char *buf, size_t n);
/* A bundle: "insn" or "{ main ; aux }". */
void ipu_format_bundle(const ipu_bundle *b, char *buf, size_t n);
/* One listing line at addr: bytes used (4 or 8, or 4 for an undecodable word printed as
 * ".long 0x..."), 0 if avail < 4. */
int ipu_disasm_at(uint64_t addr, const uint8_t *p, size_t avail, int arch, int ctx, char *buf, size_t n);
/* The same in context ctx only (no fallback to the other): what a thread of that context
 * executes (the supervisor: IPU_CTX_SUPERVISOR, a worker: IPU_CTX_WORKER). */
int ipu_disasm_context(const uint8_t *p, size_t avail, int arch, int ctx, char *buf, size_t n);

/* ---- assembler (asm*.c) ---- */

/* xpusim asm --isa ipu (see isa_ops.assemble) and its -o options. */
extern const opt_desc ipu_asm_options[];
int ipu_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err, size_t errlen);
/* IPU-specific section flag (SHF_MASKPROC range): every instruction in the section was
 * assembled in `.supervisor` mode. An xpusim convention (docs/isa/ipu.md "Assembler"). */
#define IPU_SHF_SUPERVISOR 0x10000000u

#endif
