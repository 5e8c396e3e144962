/* isa/cert/asm.c: placeholder until the aiebu-syntax assembler lands. */
#include <stdio.h>
#include "cert.h"
#include "../../core/opts.h"

const opt_desc cert_asm_options[] = {OPT_END};

int cert_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts,
                  char *err, size_t errlen)
{
    (void)nsrc, (void)srcs, (void)out, (void)opts;
    snprintf(err, errlen, "the CERT assembler is not built yet");
    return -1;
}
