/* isa/ipu/exec.h: what the IPU semantics files (exec.c: integer, control, memory, rpt;
 * exec_float.c: f32/f16 and the accumulators) share, and nothing else includes. One bundle
 * executes with an ipu_xs: the machine, tile and context, the issue cycle, and the register
 * values the bundle found (for a two-instruction bundle a copy taken before either half
 * ran, so the halves see the same old values; for one instruction the context's own
 * registers, which the instruction reads before it writes). The register accessors apply
 * the ISA's fixed registers: $m15/$a15 read 0 and take no writes, the pair $a14:15
 * ($azeros) reads 0 and takes no writes. */
#ifndef XPUSIM_IPU_EXEC_H
#define XPUSIM_IPU_EXEC_H
#include "tile.h"

typedef struct ipu_xs {
    sim_machine *m;
    sim_unit *u;
    ipu_tile *tl;
    ipu_machine *im;
    ipu_ctx *c;
    int tid;
    uint64_t t;
    uint32_t next_pc;
    const uint32_t *sm, *sa; /* registers as the bundle found them */
    ipu_issue *is;
    uint32_t payload; /* an IPU_F_WIDE instruction's second word (sendpicp) */
} ipu_xs;

/* Raise an exception (etype/cause 0: a stop that is no exception, e.g. not modelled) and
 * return -1, the value every semantic routine returns when it stopped the run. */
int ipu_xfail(ipu_xs *x, int kind, uint32_t etype, uint32_t cause, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* "not modelled yet: MNEMONIC [why]": the hardware result is not public or not written. */
int ipu_not_modelled(ipu_xs *x, const ipu_insn *in, const char *why);

static inline uint32_t ipu_rm(const ipu_xs *x, uint32_t r) { return r == 15 ? 0 : x->sm[r]; }
static inline uint32_t ipu_ra(const ipu_xs *x, uint32_t r) { return r == 15 ? 0 : x->sa[r]; }
static inline uint64_t ipu_rap(const ipu_xs *x, uint32_t r)
{
    return r >= 14 ? 0 : (uint64_t)x->sa[r + 1] << 32 | x->sa[r];
}
static inline void ipu_wm(ipu_xs *x, uint32_t r, uint32_t v)
{
    if (r != 15) {
        x->c->m[r] = v;
        x->is->wmask |= 1u << r;
    }
}
static inline void ipu_wa(ipu_xs *x, uint32_t r, uint32_t v)
{
    if (r < 15)
        x->c->a[r] = v;
}
static inline void ipu_wap(ipu_xs *x, uint32_t r, uint64_t v)
{
    if (r < 14) {
        x->c->a[r] = (uint32_t)v;
        x->c->a[r + 1] = (uint32_t)(v >> 32);
    }
}

/* exec_float.c: the floating-point semantic of an LLVM row name (0: none here), whether
 * that semantic writes its first operand (bundle pairing check), and its execution. */
int ipu_float_sem(const char *llvm_name);
int ipu_float_writes_op0(int fsem);
int ipu_exec_float(ipu_xs *x, const ipu_insn *in, int fsem);
/* AMP and SLIC, their weight loads and the accumulator operations around them
 * (exec_amp.c): the row's AMP semantic id from its LLVM name (0: not one of them), the ARF
 * registers it writes (mask, bundle pairing check) and its execution. */
int ipu_amp_sem(const char *llvm_name);
uint32_t ipu_amp_arf_writes(const ipu_insn *in, int asem);
int ipu_exec_amp(ipu_xs *x, const ipu_insn *in, int asem);
/* The CSRs exec_amp.c owns ($CCCSLOAD, $CR.ZCWEI): 1 handled (for get: *v set), 0 not one
 * of them, -1 raised (the run stopped). */
int ipu_amp_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v);
/* f16 <-> double for exec_amp.c (exec_float.c's conversions): exact widening, and one
 * rounding by mode (0-3, $FP_CTL.RND) with NANOO; *fl gets the FL bits (1 INV, 4 OFLO). */
double ipu_f16_to_d(uint32_t h, int flush);
uint32_t ipu_f16_from_d(double v, int mode, int nanoo, int flush, uint32_t *fl);
/* The remaining groups (exec_misc.c): PRNG, class, permutations, the other three-access
 * loads, stm32, fp8, sync and the rest; same three entry points. */
int ipu_misc_sem(const char *llvm_name);
uint32_t ipu_misc_arf_writes(const ipu_insn *in, int msem);
int ipu_exec_misc(ipu_xs *x, const ipu_insn *in, int msem);
/* exec_misc.c: the CSRs it owns ($PRNG_0_0..$PRNG_1_1, $PRNG_SEED; ipu21 $FP_NFMT,
 * $FP_SCL): 1 handled (get: *v set), 0 not one of them, -1 raised; and whether a row reads
 * its first operand (stm32, stm32step: supervisor dependencies). */
int ipu_misc_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v);
int ipu_misc_reads_op0(const ipu_insn *in, int msem);
/* exec_misc.c, for the fp8 AMP/SLIC (exec_amp.c): an fp8 byte's value in the format
 * $FP_NFMT gives the weights (bit 0) or the ARF inputs (bit 1), unscaled (NaN for 0x80),
 * and the signed $FP_SCL. */
double ipu_f8_value(const ipu_xs *x, uint32_t byte, int weights);
int ipu_f8_scl(const ipu_xs *x);
/* exec_misc_prng.c: the context's next 64 PRNG bits (-o prng), seeding it first if it never
 * was. exec_float.c: v rounded once to f16, stochastically when sr (r16: 16 random bits,
 * docs/isa/ipu.md "PRNG"), else to nearest even; *fl gets FL bits (4 OFLO). */
uint64_t ipu_prng_next(ipu_xs *x);
uint32_t ipu_h16_round_sr(double v, int sr, uint32_t r16, int nanoo, int flush, uint32_t *fl);
/* exec.c, shared with exec_misc*.c: a checked data access (NULL: raised), the packed
 * address triple of the pace forms, and the SRAM element of an address. */
uint8_t *ipu_data_ptr(ipu_xs *x, uint32_t ea, unsigned n, unsigned kind);
void ipu_ta_unpack(uint32_t lo, uint32_t hi, uint32_t a[3]);
void ipu_ta_pack(const uint32_t a[3], uint32_t *lo, uint32_t *hi);
uint32_t ipu_mem_elem(const ipu_machine *im, uint32_t ea);
/* $FP_CLR writes (bit 3 ZAACC zeroes the accumulators, bits 0-2 clear $FP_STS flags). */
void ipu_fp_clear(ipu_ctx *c, uint32_t v);

/* The fast-forward marker (docs/isa/ipu.md "Fast-forward marker"): `setzi $mzero, 0xff0ff`,
 * a write to the register that ignores writes, so a no-op in any context; compilers never
 * write $m15. Its executor calls sim_marker after it; the fast records leave it to the
 * generic executor (frec.c), so every loop sees it. */
#define IPU_MARKER_IMM 0xff0ffu

/* The fast path's form of an instruction (exec.c builds it, fast.c runs it). Register
 * operands are indices into ipu_ctx.r[] (tile.h): sources of $m15/$a15/$a14:15 point at
 * its zero words, discarded writes at its sink words, so no operand needs a test. */
enum {
    IPU_FOP_ADD = 1, IPU_FOP_SUB, IPU_FOP_MUL, IPU_FOP_AND, IPU_FOP_ANDC, IPU_FOP_OR, IPU_FOP_XOR,
    IPU_FOP_XNOR, IPU_FOP_MIN, IPU_FOP_MAX, IPU_FOP_SHL, IPU_FOP_SHR, IPU_FOP_SHRS, IPU_FOP_CMPEQ,
    IPU_FOP_CMPNE, IPU_FOP_CMPSLT, IPU_FOP_CMPULT, IPU_FOP_ABS, IPU_FOP_CLZ, IPU_FOP_CMS, IPU_FOP_POPC,
    IPU_FOP_BITREV8, IPU_FOP_MOV, IPU_FOP_NOT,
    IPU_FOP_AND64, IPU_FOP_ANDC64, IPU_FOP_OR64, IPU_FOP_NOT64,
    IPU_FOP_LD32, IPU_FOP_LDZ8, IPU_FOP_LDS8, IPU_FOP_LDZ16, IPU_FOP_LDS16, IPU_FOP_LDB16, IPU_FOP_LD64,
    IPU_FOP_ST32, IPU_FOP_ST64,
    IPU_FOP_BR, IPU_FOP_BRZ, IPU_FOP_BRNZ, IPU_FOP_BRNEG, IPU_FOP_BRPOS, IPU_FOP_BRNZDEC, IPU_FOP_CALL,
    IPU_FOP_MOVZ, IPU_FOP_RPT
};
typedef struct ipu_fop {
    uint8_t op;       /* IPU_FOP_* */
    uint8_t d;        /* destination (memory: the data register) */
    uint8_t a, b;     /* sources (memory: base, delta); b unused when bimm */
    uint8_t c;        /* memory: the offset/stride register when !bimm */
    uint8_t e;        /* memory step forms: where the new delta goes */
    uint8_t bimm;     /* b (memory: the offset) is imm */
    uint8_t step;     /* memory: a step form (ea = base + delta, delta += offset) */
    uint8_t shift;    /* memory: log2 of the access size (a register offset is scaled by it) */
    uint8_t mayfail;  /* may leave to the generic executor at run time (before any change) */
    uint32_t imm;     /* b's value (memory: the offset in bytes; rpt: the count) */
    uint32_t imm2;    /* branch target; rpt: the body's bytes */
    uint64_t rmask, wmask; /* r[] indices read and written (bundle hazard check) */
} ipu_fop;

/* A worker bundle, built from the words it was built from (w0, and w1 for a pair). kind
 * IPU_FR_GENERIC: it runs through ipu_exec_bundle (anything not specialised, and anything
 * that would raise at fetch, pairing or rpt checks, so its stop is the reference's). */
enum { IPU_FR_NONE = 0, IPU_FR_GENERIC, IPU_FR_FAST };
typedef struct ipu_frec {
    uint32_t w0, w1;
    uint8_t kind, n, rpt_ok; /* rpt_ok: may run inside an rpt body */
    ipu_fop f[2];
} ipu_frec;
/* Build the record of the worker bundle at pc (4-byte aligned, in tile memory). */
void ipu_frec_build(const ipu_tile *tl, uint32_t pc, ipu_frec *r);

/* ---- semantics ids (exec.c), shared with the fast path's record builder (frec.c) ---- */
enum {
    S_NONE = 0,
    /* MRF ALU, dst = op0, sources op1 (and op2) in printing order */
    S_ADD, S_SUB, S_MUL, S_AND, S_ANDC, S_OR, S_XOR, S_XNOR, S_MIN, S_MAX, S_SHL, S_SHR, S_SHRS,
    S_CMPEQ, S_CMPNE, S_CMPSLT, S_CMPULT, S_ABS, S_CLZ, S_CMS, S_POPC, S_BITREV8, S_SETZI,
    /* ARF bitwise (aux) */
    S_AAND, S_AANDC, S_AOR, S_ANOT, S_AAND64, S_AANDC64, S_AOR64, S_ANOT64, S_ASETZI,
    /* control and system */
    S_BR, S_BRI, S_BRZ, S_BRNZ, S_BRNEG, S_BRPOS, S_BRNZDEC, S_CALL, S_TRAP,
    S_EXITZ, S_EXITNZ, S_EXITNEG, S_EXITPOS, S_RUN, S_RUNALL, S_GET, S_PUT, S_UGET, S_UPUT, S_ATOM,
    /* memory: size and extension come from the row name */
    S_LOAD, S_STORE,
    /* rpt (both forms), movz; f32/f16 and the accumulators (exec_float.c, row_fsem) */
    S_RPT, S_MOVZ, S_FLOAT,
    /* tapack and the pace loads/stores (ld2x64pace, ldst64pace, ld2xst64pace, st64pace) */
    S_TAPACK, S_PACE,
    /* AMP/SLIC and the accumulators around them (exec_amp.c, row_asem); the rest
     * (exec_misc.c, row_msem) */
    S_AMP, S_MISC
};
enum { X_ZERO = 0, X_SIGN, X_BCAST16 };
/* The semantic id of a decoded instruction's row (S_*); ARF registers it writes (mask). */
int ipu_sem_of(const ipu_insn *in);
uint32_t ipu_arf_writes(const ipu_insn *in);
/* A memory row's access size in bytes and its extension (X_*), by row index. */
unsigned ipu_row_size(int row);
int ipu_row_ext(int row);

#endif
