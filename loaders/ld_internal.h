/* loaders/ld_internal.h: helpers shared by the loader files only. */
#ifndef XPUSIM_LD_INTERNAL_H
#define XPUSIM_LD_INTERNAL_H
#include <stddef.h>
#include "loader.h"

/* Format a message into err and return -1, so error paths read "return ld_err(...)". */
int ld_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ld_elf_parse(ld_image *img, char *err, size_t errlen);
#endif
