/* isa/dpu/dpu.h: internal interface of the UPMEM DPU model.
 * The instruction table (table.inc, 1,080 forms) drives decoding, disassembly and
 * assembly; exec.c turns decoded words into predecoded records and executes them;
 * machine.c holds the DPU state (IRAM/WRAM/MRAM, atomic bits, RUN bits, the DMA engine)
 * and the revolver scheduler. Names are prefixed dpu_. */
#ifndef XPUSIM_DPU_ISA_H
#define XPUSIM_DPU_ISA_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../../core/sim.h"
#include "../../core/mem.h"

#define DPU_NFIELDS 36
#define DPU_NFORMS 1080
/* Condition classes and operations: the lists of ops.inc. */
enum dpu_cls {
    DPU_CLS_NONE = -1,
#define DPU_CLS(n) DPU_CLS_##n,
#include "ops.inc"
#undef DPU_CLS
    DPU_NCLASSES
};
enum dpu_op {
#define DPU_OP(n) DPU_OP_##n,
#include "ops.inc"
#undef DPU_OP
    DPU_NOPS
};

/* Operand roles of a field. */
enum dpu_role { DPU_R_RA, DPU_R_RB, DPU_R_RC, DPU_R_DC, DPU_R_DB, DPU_R_IMM, DPU_R_CC, DPU_R_PC,
                DPU_R_OFF, DPU_R_SHIFT, DPU_R_ENDIAN, DPU_R_IMMDMA };

typedef struct dpu_slice { uint8_t src, width, dst; } dpu_slice;
typedef struct dpu_field {
    uint8_t role;
    uint8_t nslices;
    uint64_t mask;     /* instruction bits the field occupies */
    dpu_slice s[17];
} dpu_field;

typedef struct dpu_cc_entry { int8_t value; const char *name; } dpu_cc_entry;
typedef struct dpu_cc_class {
    const char *name;
    dpu_cc_entry v[32];  /* terminated by name == NULL */
} dpu_cc_class;

enum {
    DPU_F_ZDEST = 1,   /* z form: "zero" written as the destination operand */
    DPU_F_FALSE = 2,   /* f form: "false" written as the last operand */
    DPU_F_ALIAS = 4,   /* assembler alias; executes as form 'exec' */
    DPU_F_DOC = 8,     /* listed in the SDK builtins (documented instruction) */
    DPU_F_DS = 16,     /* .s: 64-bit sign-extended destination pair */
    DPU_F_DU = 32,     /* .u: 64-bit zero-extended destination pair */
    DPU_F_KREG = 64    /* "rki": ra must be a constant register (zero..id8); with r0..r23 the
                          same bits are the 32-bit "and rri" real code uses (docs/isa/dpu.md) */
};

typedef struct dpu_form {
    const char *mnem;
    const char *form;
    uint64_t base;
    uint8_t op;        /* enum dpu_op */
    uint8_t nops;
    uint8_t ops[6];    /* field indices, assembly order */
    int8_t cls;        /* enum dpu_cls of the cc operand */
    uint8_t flags;
    uint16_t exec;     /* form that executes this one (itself unless an alias) */
    uint8_t smask;     /* operands written as stack registers sN */
    uint64_t fixed;    /* bits fixed by the form: (w & fixed) == base */
} dpu_form;

/* table.c */
const dpu_form *dpu_form_at(int i);
const dpu_field *dpu_field_at(int i);
const dpu_cc_class *dpu_class_at(int i);
uint64_t dpu_field_mask(int f);
uint64_t dpu_form_fixed(int i);     /* bits fixed by the form (complement of its fields) */
uint32_t dpu_field_get(int f, uint64_t w);
uint64_t dpu_field_put(int f, uint32_t v);
/* Value width in bits of a field and whether it is sign-extended when decoded. */
int dpu_field_bits(int f);
int dpu_field_signed(int f);
int32_t dpu_field_value(int f, uint64_t w); /* extracted and sign-extended as the ISA reads it */
const char *dpu_cc_name(int cls, int v);
int dpu_cc_value(int cls, const char *name);   /* -1 if not in the class */
/* Does word w satisfy form i (fixed bits, register ranges, condition class)? */
int dpu_form_matches(int i, uint64_t w);
/* Decode: display form (most specific, aliases allowed) or -1. */
int dpu_decode(uint64_t w);
/* Execution form (aliases excluded) or -1. */
int dpu_decode_exec(uint64_t w);
/* Encode form i with operand values (in assembly order); 0 ok, -1 value out of range. */
int dpu_encode(int form, const int64_t *vals, uint64_t *w, char *err, size_t errlen);

/* printf.c: format the runtime's printf records (guest data: never a host format) */
void dpu_printf_buffer(FILE *out, const uint8_t *buf, size_t len);

/* disasm.c */
int dpu_disasm_word(uint64_t w, char *buf, size_t n);
extern const char *const dpu_reg_names[32];

/* asmline.c: one instruction line to a word (labels already resolved to numbers). */
typedef struct dpu_sym_resolver {
    /* 0 and *val if name is known (IRAM symbols count in instructions, not bytes) */
    int (*lookup)(void *ctx, const char *name, int64_t *val);
    void *ctx;
} dpu_sym_resolver;
/* Evaluate an expression (core/asm/expr.c); a symbol res does not know is an error. */
int dpu_eval_expr(const char *s, const dpu_sym_resolver *res, int64_t *val, char *err, size_t errlen);
/* The DPU assembler's and linker's -o options (asm.c). */
extern const opt_desc dpu_asm_options[];
int dpu_assemble_line(const char *text, const dpu_sym_resolver *res, uint64_t *w, char *err, size_t errlen);

/* ---- execution ---- */
enum { DPU_NTHREADS_MAX = 24, DPU_IRAM_WORDS = 4096 };

/* Predecoded instruction record: 32 bytes, so the run loop indexes it with a shift. */
typedef struct dpu_insn {
    uint8_t op;        /* enum dpu_op of the execution form */
    uint8_t fast;      /* DPU_FAST_*: a specialised path in the run loop, 0 = generic */
    uint8_t dk;        /* destination: DPU_D_* */
    uint8_t rc;        /* destination register (pair: even index) */
    uint8_t ra, rb;    /* sources (ra may be 24..31) */
    uint8_t cond;      /* canonical condition DPU_C_* */
    uint8_t bimm;      /* second operand is the immediate */
    uint8_t shift;
    uint8_t msize;     /* load/store width in bytes */
    unsigned kind : 1;    /* 1: the operands are imm - ra */
    unsigned setf : 1;    /* set form: rc gets the condition as 0/1 */
    unsigned endian : 1;  /* 1 = big-endian load/store */
    unsigned illegal : 1; /* word matched no form */
    int32_t imm;       /* immediate, store data or DMA length field */
    int32_t off;       /* address offset */
    uint16_t pc;       /* branch target */
    uint16_t form;     /* display form */
    uint32_t rmask;    /* work registers read (bank-penalty option) */
    uint32_t wmask;    /* work registers written */
} dpu_insn;
_Static_assert(sizeof(dpu_insn) == 32, "dpu_insn is indexed per instruction: keep it 32 bytes");

enum { DPU_D_NONE, DPU_D_R, DPU_D_DS, DPU_D_DU, DPU_D_D64 };

/* Predecoded records in an IRAM copy the fast loop (fast.c) runs: one for every 16-bit pc,
 * so that its fetch needs no bounds check. Those past the program's guard record (index
 * iram_words, the illegal word 0) are zero: DPU_FAST_NONE, so the generic executor runs
 * them, which clamps the pc and reports the jump past IRAM (their pages are never written:
 * the allocation costs address space, not memory). */
enum { DPU_IRAM_RECS = 65536 };

/* Common instructions get a specialised path in dpu_run_fast (fast.c); everything else
 * (and any access that faults or may hit a watchpoint) goes through the generic executor.
 * ALU forms: 32-bit destination, no condition (or "false"), operands not reversed. Every
 * value needs its case in fast.c (checked there with -Wswitch-enum). */
#define DPU_FAST_KINDS(X) X(NONE) X(ADD) X(SUB) X(AND) X(OR) X(XOR)                                      \
       X(LSL) X(LSR) X(ASR) X(ADDC) X(SUBC) X(LSLADD)                                                  \
       X(LW) X(LBU) X(LBS) X(LHU) X(LHS) X(SW) X(SB) X(SH) X(LD) X(SD)                                 \
       /* sub without destination (compare and branch), by condition; JSUB: the others */            \
       X(JEQ) X(JNEQ) X(JLTU) X(JGEU) X(JLEU) X(JGTU) X(JLTS) X(JGES) X(JLES) X(JGTS) X(JSUB)          \
       /* add/sub with destination and a branch condition: z, nz, or any other */                    \
       X(ADDZ) X(ADDNZ) X(SUBZ) X(SUBNZ) X(ADDBR) X(SUBBR)                                             \
       X(CALL)                                                                                         \
       /* acquire/release without destination, condition none, z or nz (or their acquire            \
        * forms), true or false */                                                                   \
       X(ACQREL)                                                                                       \
       /* what compiled code adds (issue 16): and/or/xor with any destination kind (32-bit,          \
        * .s/.u pair) and any branch condition; the runtime's multiply and divide steps              \
        * (__mulsi3, __udivsi3); clz/clo with any condition; movd; __mulsi3's own step (the pair     \
        * both source and destination, condition z, shift below 32: no branch on the data) */        \
       X(LOGX) X(MULSTEP) X(DIVSTEP) X(CLZ) X(CLO) X(MOVD) X(MULSTEPZ)                                 \
       /* ldma/sdma (MRAM pointer access): started in the run loop, landed there */                  \
       X(DMA)
/* (the list is also fast.c's threaded dispatch: a jump to each value's handler) */
#define DPU_FAST_ENUM(name) DPU_FAST_##name,
enum dpu_fast { DPU_FAST_KINDS(DPU_FAST_ENUM) };
#undef DPU_FAST_ENUM

enum dpu_cond {
    DPU_C_NONE, DPU_C_FALSE, DPU_C_TRUE, DPU_C_Z, DPU_C_NZ, DPU_C_XZ, DPU_C_XNZ, DPU_C_PL, DPU_C_MI,
    DPU_C_SZ, DPU_C_SNZ, DPU_C_SPL, DPU_C_SMI, DPU_C_OV, DPU_C_NOV, DPU_C_C, DPU_C_NC,
    DPU_C_NC5, DPU_C_NC6, DPU_C_NC7, DPU_C_NC8, DPU_C_NC9, DPU_C_NC10, DPU_C_NC11, DPU_C_NC12,
    DPU_C_NC13, DPU_C_NC14, DPU_C_LTU, DPU_C_GEU, DPU_C_LTS, DPU_C_GES, DPU_C_LES, DPU_C_GTS,
    DPU_C_LEU, DPU_C_GTU, DPU_C_XLES, DPU_C_XGTS, DPU_C_XLEU, DPU_C_XGTU, DPU_C_E, DPU_C_O,
    DPU_C_NSH32, DPU_C_SH32, DPU_C_SE, DPU_C_SO, DPU_C_SMALL, DPU_C_LARGE, DPU_C_MAX, DPU_C_NMAX,
    DPU_C_ACQ_Z, DPU_C_ACQ_NZ
};

void dpu_predecode(uint64_t w, dpu_insn *in);

/* One tasklet's architectural state. */
typedef struct dpu_tasklet {
    uint32_t r[32];        /* r0..r23, then the read-only zero, one, lneg, mneg, id, id2, id4, id8 */
    uint16_t pc;
    uint8_t zf, cf;        /* Zero and Carry flags */
    uint8_t wait;          /* DPU_W_*: why it is not issuing */
    uint64_t last_issue;   /* cycle of its last issue */
    /* revolver-stall accounting without per-issue work: over a running stretch (boot or
     * resume to stop) the cycles between issues sum to (last issue - start) - issues,
     * minus the DMA and bank waits, counted apart */
    uint64_t seg_start, seg_insns, seg_shift, shift_sum, rev_acc;
    uint8_t seg_open;
    uint32_t prev_wmask;   /* registers its previous instruction wrote (bank penalty) */
    uint64_t dma_until;    /* end of its DMA transfer */
    struct prof_thread *prof; /* --profile's state of this tasklet, set by the fast loop
                                 (fast.c) when it feeds the profile, so that the feed per
                                 issue needs no index; unused otherwise */
} dpu_tasklet;
enum { DPU_W_NONE, DPU_W_DMA, DPU_W_STOPPED };

/* One DMA transfer on a DPU's engine (for "info dma"). */
typedef struct dpu_dma_rec {
    uint64_t issue, start, done;
    uint32_t wram, mram, bytes;
    uint8_t tasklet, dir;  /* dir: 0 MRAM->WRAM, 1 WRAM->MRAM, 2 MRAM->IRAM */
} dpu_dma_rec;
#define DPU_DMA_LOG 32

struct dpu_machine;
/* One DPU. */
typedef struct dpu_unit {
    struct dpu_machine *dm;
    int index;
    dpu_insn *iram;        /* predecoded, iram_words (+1 guard): the machine's shared copy, or
                              this DPU's own once its IRAM differs (ldmai, host writes) */
    int iram_own;
    int iram_full;         /* its own copy has DPU_IRAM_RECS records (dpu_iram_widen) */
    uint8_t *iram_seen;    /* the raw IRAM its predecoded copy was made from (own copies) */
    mem_space *wram, *mram, *iram_space; /* owned by the core when registered by name */
    mem_space atomic_space;
    uint8_t *wram_p, *mram_p, *iram_p;
    uint32_t mram_mask;
    uint8_t atomic[256];
    uint32_t run;          /* RUN bits */
    dpu_tasklet t[DPU_NTHREADS_MAX];
    int ntasklets;
    uint64_t dma_free;     /* cycle the DMA engine becomes free */
    dpu_dma_rec dma_log[DPU_DMA_LOG];
    unsigned dma_nlog;
    /* transfers in flight, in engine order: their data lands when they are done */
    dpu_dma_rec pend[DPU_NTHREADS_MAX];
    unsigned pend_head, pend_n;
    uint64_t pend_next;    /* done cycle of the oldest transfer in flight, or SIM_NEVER */
    uint64_t time_base;    /* performance counter reset point */
    int time_mode;         /* 1 cycles, 2 instructions, 3 none */
    int faulted;
    uint32_t fault_code;
    char space_names[4][24];
} dpu_unit;

typedef struct dpu_machine {
    dpu_unit *units;
    int ndpus, ntasklets;
    int v1b;
    double dma_ra, dma_rb, dma_wa, dma_wb; /* read/write alpha (cycles), beta (cycles/byte) */
    uint64_t dma_lat[2][256]; /* dpu_dma_cycles of a read (0) or write (1) of 8 (k + 1) bytes,
                                 once (the transfer's start reads it instead of the
                                 floating-point formula) */
    int bank_penalty;
    uint32_t mram_size, wram_size, iram_words;
    dpu_insn *shared_iram; /* predecoded program, shared by every DPU that runs it unchanged */
    uint8_t *shared_raw;   /* the raw words it was made from */
    int stdout_drained;
    int exit_pc;           /* IRAM index of the runtime's __sys_end (a clean tasklet stops
                              there), -1 if the program has none */
    int built_tasklets;    /* the program's NR_TASKLETS, 0 if it has none */
    void *session;         /* a host-session file being run (host/session.c), or NULL */
    struct dpu_fn_state *fn; /* the functional records (func_rec.h), which the cycle model's
                                round replay (fast_round.c) runs too; NULL: none */
} dpu_machine;

/* A transfer's latency on the engine: alpha + beta x bytes, rounded up (write: dir 1; the
 * reads, ldma and ldmai, use the read parameters). */
static inline uint64_t dpu_dma_cycles(const dpu_machine *dm, int dir, uint32_t bytes)
{
    const double alpha = dir == 1 ? dm->dma_wa : dm->dma_ra;
    const double beta = dir == 1 ? dm->dma_wb : dm->dma_rb;
    return (uint64_t)(alpha + beta * bytes + 0.999999);
}

enum { DPU_STALL_DMA = 0, DPU_STALL_REVOLVER = 1, DPU_STALL_BANK = 2 };
enum { DPU_CNT_DMA_RD = 0, DPU_CNT_DMA_WR = 1, DPU_CNT_DMA_N = 2 };

/* exec.c: execute one predecoded instruction of tasklet tid at cycle now.
 * Returns 0 normally, 1 when the tasklet stopped/slept (the caller handles scheduling). */
int dpu_execute(sim_machine *m, sim_unit *u, dpu_unit *d, int tid, uint64_t now);
/* Run the unit's tasklets for cycles in [now, horizon) (isa_ops.unit_run): the reference
 * loop while the debugger or an instruction limit is on, else dpu_run_fast. */
uint64_t dpu_run(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon);
/* fast.c: the same revolver without the debugger hooks, O(1) pick, specialised paths. */
uint64_t dpu_run_fast(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon);
/* Publish the per-stretch statistics (issue cycles, revolver stalls), the round-robin cursor
 * and the last issue cycle to the core's thread records. */
void dpu_sync_stats(sim_unit *u, uint64_t last, int rr);
/* Halt the unit at cycle t (every tasklet stopped). */
void dpu_halt_unit(sim_machine *m, sim_unit *u, uint64_t t);
/* Make sure d's predecoded IRAM matches its raw IRAM bytes (after host writes or ldmai). */
void dpu_iram_sync(dpu_unit *d);
/* machine.c: give d's own predecoded copy DPU_IRAM_RECS records (the shared one has them);
 * 0, or -1 when the host is out of memory. */
int dpu_iram_widen(dpu_unit *d);
/* Start a checked transfer of tasklet tid on the DPU's engine at cycle now (dir: 0
 * MRAM->WRAM, 1 WRAM->MRAM, 2 MRAM->IRAM): the tasklet waits until its data lands. */
void dpu_dma_start(sim_unit *u, dpu_unit *d, int tid, int dir, uint32_t wram, uint32_t mram, uint32_t bytes,
                   uint64_t now);
/* Land the DMA transfers done by cycle t. */
void dpu_dma_complete(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t t);
/* Clear r0..r23 and set the constant registers of tasklet tid. */
void dpu_reset_regs(dpu_tasklet *t, int tid);

/* machine.c, for the host API library (isa/dpu/host/): boot the DPUs sel[] selects (NULL:
 * all) again with their memories kept, time and their statistics back at cycle 0, the
 * others left halted; and print one DPU's printf buffer (0 ok, -1 no buffer in the
 * program, -2 buffer state out of range). */
int dpu_relaunch(sim_machine *m, const uint8_t *sel);
int dpu_log_print(sim_machine *m, int unit, FILE *out);
/* host/session.c: a host-session file (`xpusim run FILE.dpuhost`): start runs it up to its
 * last launch, which it prepares for the command line's run; finish runs the lines after
 * it. *state is set even on failure and freed with dpu_session_free. */
int dpu_session_start(sim_machine *m, const char *path, void **state, char *err, size_t errlen);
void dpu_session_finish(sim_machine *m, void *state);
void dpu_session_free(void *state);

#endif
