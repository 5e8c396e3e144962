/* isa/ipu/exec_misc.h: what the exec_misc*.c files share and nothing else includes: the
 * semantic ids exec_misc.c gives table rows, and the entry points of its two companions
 * (exec_misc_prng.c: the PRNG and what draws from it; exec_misc_mem.c: the three-access
 * loads, ldb8, stm32). */
#ifndef XPUSIM_IPU_EXEC_MISC_H
#define XPUSIM_IPU_EXEC_MISC_H
#include "exec.h"

enum {
    M_NONE = 0,
    /* PRNG (exec_misc_prng.c) */
    M_URAND32, M_URAND64, M_F16V2GRAND, M_F32V2GRAND, M_F16V4RMASK, M_F32V2RMASK,
    M_F32SUFROMUI, M_F32V2SUFROMUI, M_F16V2SUFROMUI, M_F16V4SUFROMUI,
    /* classification, lateral maximum */
    M_F32CLASS, M_F32V2CLASS, M_F16V2CLASS, M_F16V4CLASS, M_F8V4CLASS, M_F16V2MAXC, M_F16V4MAXC,
    /* permutations */
    M_ROLL8L, M_ROLL8R, M_ROLL16, M_ROLL32, M_SHUF8X8LO, M_SHUF8X8HI, M_SORT8X8LO, M_SORT8X8HI,
    M_SORT4X16LO, M_SORT4X16HI, M_SORT4X32LO, M_SORT4X32HI, M_SORT8, M_SWAP8,
    /* fp8 (ipu21) */
    M_F8V2TOF16, M_F8V4TOF16, M_F16V2TOF8, M_F16V8TOF8,
    /* memory (exec_misc_mem.c) */
    M_LD64A32, M_LD64A32PACE, M_LD64B16PACE, M_LDD16A32, M_LDD16A64, M_LDD16B16, M_LDD16V2A32, M_LDB16B16,
    M_LDB8, M_LDB8STEP, M_STM32, M_STM32STEP,
    /* exchange and sync (supervisor) */
    M_SYNC, M_SANS, M_DELAY, M_SEND,
    /* ipu21's exchange instructions (rows *_ipu21) */
    M_DELAYPIC, M_DELAYXPIC, M_SENDOFF, M_SENDPIC, M_SENDPICP
};

/* exec_misc_prng.c */
int ipu_misc_prng_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v);
int ipu_misc_urand(ipu_xs *x, const ipu_insn *in, int is64);
int ipu_misc_grand(ipu_xs *x, const ipu_insn *in, int half);
int ipu_misc_rmask(ipu_xs *x, const ipu_insn *in, int half);
int ipu_misc_sufromui(ipu_xs *x, const ipu_insn *in, int half, int lanes);
/* exec_misc_mem.c */
int ipu_misc_mem(ipu_xs *x, const ipu_insn *in, int msem);

#endif
