/* isa/ipu/exec_amp.c: semantics of the AMP (accumulating matrix product) and SLIC (slim
 * convolution) instructions, the supervisor's weight loads into the common compute
 * configuration space, and the accumulator operations around them. exec.c maps each table
 * row to an id here by its LLVM name (ipu_amp_sem) and calls ipu_exec_amp for it. Until a
 * row has an id it keeps stopping the run as "not modelled yet". */
#include "exec.h"

int ipu_amp_sem(const char *llvm_name)
{
    (void)llvm_name;
    return 0;
}

uint32_t ipu_amp_arf_writes(const ipu_insn *in, int asem)
{
    (void)in;
    (void)asem;
    return 0;
}

int ipu_exec_amp(ipu_xs *x, const ipu_insn *in, int asem)
{
    (void)asem;
    return ipu_not_modelled(x, in, NULL);
}
