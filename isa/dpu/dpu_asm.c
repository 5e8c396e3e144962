/* isa/dpu/dpu_asm.c: assembler and linker for the SDK assembly syntax (placeholder until
 * the full two-pass linker lands; see notes/dpu-status.md). */
#include <stdio.h>
#include "dpu_isa.h"
#include "../isa.h"

int dpu_assemble_files(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                       size_t errlen);
int dpu_assemble_files(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err,
                       size_t errlen)
{
    (void)nsrc; (void)srcs; (void)out; (void)opts;
    snprintf(err, errlen, "dpu: the assembler/linker is not implemented yet");
    return -1;
}
