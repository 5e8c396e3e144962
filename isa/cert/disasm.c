/* isa/cert/disasm.c: placeholder (being written). */
#include "cert.h"
int cert_disasm_one(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{ (void)addr; (void)p; (void)avail; (void)buf; (void)n; return 0; }
int cert_disasm_program(const ld_image *img, FILE *out, char *err, size_t errlen)
{ (void)img; (void)out; snprintf(err, errlen, "not yet"); return -1; }
