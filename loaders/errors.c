/* loaders/errors.c: the loaders' error messages. Both the ELF reader (elf.c) and the word
 * formats (image.c) report through ld_err; it lives apart so that image.c, which calls the
 * ELF reader, and elf.c depend on each other in one direction only. */
#include <stdarg.h>
#include <stdio.h>
#include "ld_internal.h"

int ld_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
