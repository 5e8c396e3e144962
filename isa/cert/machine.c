/* isa/cert/machine.c: the CERT job-runner machine as xpusim sees it (isa_ops isa_cert).
 * Placeholder: decode and listing work; running lands with runner.c. */
#include <stdio.h>
#include "cert.h"
#include "../isa.h"

static int cert_create(sim_machine *m, char *err, size_t errlen)
{
    (void)m;
    snprintf(err, errlen, "the CERT job-runner is not built yet");
    return -1;
}

static int cert_probe(const ld_image *img) { return cert_probe_image(img); }

const isa_ops isa_cert = {
    .name = "cert",
    .description = "AMD AIE CERT control-code job-runner (AIE2PS/AIE4 uController) with the array registers it drives",
    .probe = cert_probe,
    .create = cert_create,
    .code_space = "ctrl",
    .disasm = cert_disasm_one,
    .disasm_image = cert_disasm_program,
    .assemble = cert_assemble,
    .asm_options = cert_asm_options,
};
