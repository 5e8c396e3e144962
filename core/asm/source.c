/* core/asm/source.c: the assemblers' line reader (see source.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "source.h"
#include "../file.h"
#include "../grow.h"

int asm_source_open(asm_source *s, const char *path, const char *const *cpp_args, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    FILE *f = file_open_read(path, FILE_MAX_INPUT, err, errlen);
    if (!f)
        return -1;
    snprintf(s->file, sizeof s->file, "%s", path);
    if (!cpp_args) {
        s->f = f;
        return 0;
    }
    fclose(f); /* checked (kind, size); cpp reads it */
    if (asm_cpp_open(&s->cpp, path, cpp_args, err, errlen))
        return -1;
    s->use_cpp = 1;
    s->f = s->cpp.out;
    return 0;
}

int asm_source_next(asm_source *s, char **line, char *err, size_t errlen)
{
    for (;;) {
        if (!fgets(s->buf, sizeof s->buf, s->f))
            return 0;
        size_t l = strlen(s->buf);
        s->line++;
        if (l > ASM_MAX_LINE && s->buf[l - 1] != '\n') {
            snprintf(err, errlen, "line longer than %d characters", ASM_MAX_LINE);
            return -1;
        }
        if (l && s->buf[l - 1] == '\n')
            s->buf[--l] = 0;
        if (s->use_cpp) {
            int ln;
            char fn[sizeof s->file];
            if (s->buf[0] == '#' && sscanf(s->buf, "# %d \"%4095[^\"]\"", &ln, fn) == 2) {
                s->file_changed = strcmp(fn, s->file) != 0;
                snprintf(s->file, sizeof s->file, "%s", fn);
                s->line = ln - 1;
                continue;
            }
            if (!s->cpp_error[0] && strstr(s->buf, "error:"))
                snprintf(s->cpp_error, sizeof s->cpp_error, "%.500s", s->buf);
        }
        *line = s->buf;
        return 1;
    }
}

int asm_source_close(asm_source *s, char *err, size_t errlen)
{
    if (!s->f)
        return 0;
    if (!s->use_cpp) {
        fclose(s->f);
        s->f = NULL;
        return 0;
    }
    /* read cpp's output to its end (it may still be writing, and its messages come last) */
    while (fgets(s->buf, sizeof s->buf, s->f))
        if (!s->cpp_error[0] && strstr(s->buf, "error:") && strncmp(s->buf, "# ", 2) != 0)
            snprintf(s->cpp_error, sizeof s->cpp_error, "%.500s", s->buf);
    s->f = NULL;
    if (asm_cpp_close(&s->cpp)) {
        size_t l = strlen(s->cpp_error);
        while (l && isspace((unsigned char)s->cpp_error[l - 1]))
            s->cpp_error[--l] = 0;
        snprintf(err, errlen, "%s", s->cpp_error[0] ? s->cpp_error : "C preprocessor failed");
        return -1;
    }
    return 0;
}

int asm_source_read(const char *path, const char *const *cpp_args, asm_source_line_fn fn, void *ctx, char *err,
                    size_t errlen)
{
    asm_source src;
    if (asm_source_open(&src, path, cpp_args, err, errlen))
        return -1;
    int rc = 0, r;
    char *line, e[200];
    while (rc == 0 && (r = asm_source_next(&src, &line, e, sizeof e)) != 0)
        rc = fn(ctx, src.file, src.line, r < 0 ? NULL : line, r < 0 ? e : NULL);
    char cpperr[512];
    if (asm_source_close(&src, cpperr, sizeof cpperr)) {
        if (!err[0] || src.cpp_error[0])
            snprintf(err, errlen, "%s", cpperr);
        return -1;
    }
    return rc;
}

int asm_cpp_args_build(asm_cpp_args *a, const char *src, const char *const *fixed, const char *defines,
                       const char *include, char *err, size_t errlen)
{
    int n = 0;
    for (int i = 0; fixed && fixed[i]; i++)
        if (n < ASM_CPP_MAX_ARGS - 3)
            a->argv[n++] = fixed[i];
    for (const char *d = defines; d && *d;) { /* NAME[=VALUE][,NAME[=VALUE]...] -> -DNAME=VALUE ... */
        size_t k = strcspn(d, ",");
        if (k == 0 || k > 200 || n >= ASM_CPP_MAX_ARGS - 3 ||
            strspn(d, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_=.-+x") < k ||
            !(isalpha((unsigned char)d[0]) || d[0] == '_')) {
            snprintf(err, errlen, "-o define=%s: expected NAME or NAME=VALUE (letters, digits, _ . - +), separated by "
                     "commas", defines);
            return -1;
        }
        snprintf(a->store[n], sizeof a->store[n], "-D%.*s", (int)k, d);
        a->argv[n] = a->store[n];
        n++;
        d += k + (d[k] == ',');
    }
    /* the source's own directory first, as cpp does for #include "..." */
    if (snprintf(a->srcdir, sizeof a->srcdir, "-I%s", src) >= (int)sizeof a->srcdir) {
        snprintf(err, errlen, "%.200s...: path too long", src);
        return -1;
    }
    char *slash = strrchr(a->srcdir, '/');
    if (slash == a->srcdir + 2)
        slash[1] = 0; /* a source in / */
    else if (slash)
        *slash = 0;
    else
        snprintf(a->srcdir, sizeof a->srcdir, "-I.");
    a->argv[n++] = a->srcdir;
    if (include && include[0]) {
        if (snprintf(a->incdir, sizeof a->incdir, "-I%s", include) >= (int)sizeof a->incdir) {
            snprintf(err, errlen, "-o include=%.200s...: path too long", include);
            return -1;
        }
        a->argv[n++] = a->incdir;
    }
    a->argv[n] = NULL;
    return 0;
}

int asm_files_index(asm_files *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->v[i], name))
            return i;
    char **v = grow_array_int(t->v, &t->cap, t->n + 1, sizeof *v, 16);
    if (!v)
        return -1;
    t->v = v;
    if (!(t->v[t->n] = strdup(name)))
        return -1;
    return t->n++;
}

const char *asm_files_name(const asm_files *t, int i) { return i >= 0 && i < t->n ? t->v[i] : "?"; }

void asm_files_free(asm_files *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    *t = (asm_files){0};
}
