/* isa/cert/program.c: placeholder (being written). */
#include <string.h>
#include "cert.h"
int cert_probe_image(const ld_image *img) { (void)img; return 0; }
int cert_program_load(const ld_image *img, int spec, cert_program *p, char *err, size_t errlen)
{ (void)img; (void)spec; memset(p, 0, sizeof *p); snprintf(err, errlen, "not yet"); return -1; }
void cert_program_free(cert_program *p) { (void)p; }
int cert_page_hdr_parse(const uint8_t *p, cert_page_hdr *h) { (void)p; (void)h; return -1; }
const char *cert_target_name(int target) { (void)target; return "aie2ps"; }
int cert_target_ucs_per_column(int target) { return target == CERT_T_AIE2PS ? 1 : 2; }
