/* core/asm/directive.c: the directive dispatcher (see directive.h). */
#include <stdio.h>
#include <string.h>
#include "directive.h"
#include "text.h"

static int row_matches(const char *row, const char *name)
{
    size_t l = strlen(row);
    if (l && row[l - 1] == '*')
        return strncmp(row, name, l - 1) == 0;
    return strcmp(row, name) == 0;
}

int asm_directive_run(const asm_directives *d, void *ctx, const char *name, char *args, char *msg, size_t msglen)
{
    msg[0] = 0;
    for (const asm_directive *r = d->table; r && r->name; r++)
        if (row_matches(r->name, name))
            return r->fn(ctx, name, args) ? -1 : 0;
    if (d->rules && d->data) {
        asm_data data;
        int rc = asm_data_size(d->rules, name, args, d->const_value, ctx, &data, msg, msglen);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return d->data(ctx, name, args, &data) ? -1 : 0;
    }
    if (asm_is_annotation(name))
        return 0;
    snprintf(msg, msglen, "unknown directive '%s'", name);
    return -1;
}
