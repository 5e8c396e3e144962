/* isa/ipu/exec_misc.c: semantics of the instruction groups the other exec files do not
 * cover: the PRNG, the class instructions, the permutations, the remaining three-access
 * loads, stm32, the fp8 conversions and the exchange/sync instructions of a single tile.
 * exec.c maps each table row to an id here by its LLVM name (ipu_misc_sem) and calls
 * ipu_exec_misc for it. Until a row has an id it keeps stopping the run as "not modelled
 * yet". */
#include "exec.h"

int ipu_misc_sem(const char *llvm_name)
{
    (void)llvm_name;
    return 0;
}

uint32_t ipu_misc_arf_writes(const ipu_insn *in, int msem)
{
    (void)in;
    (void)msem;
    return 0;
}

int ipu_exec_misc(ipu_xs *x, const ipu_insn *in, int msem)
{
    (void)msem;
    return ipu_not_modelled(x, in, NULL);
}
