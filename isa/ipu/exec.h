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
/* $FP_CLR writes (bit 3 ZAACC zeroes the accumulators, bits 0-2 clear $FP_STS flags). */
void ipu_fp_clear(ipu_ctx *c, uint32_t v);

#endif
