#include "nyuzi.h"
int nyz_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err, size_t errlen)
{ (void)nsrc; (void)srcs; (void)out; (void)opts; snprintf(err, errlen, "todo"); return -1; }
