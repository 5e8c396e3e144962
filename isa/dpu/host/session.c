/* isa/dpu/host/session.c: host-session files, `xpusim run|debug SESSION.dpuhost`: what a
 * UPMEM host program does (load, copies, scatters, launches with memory kept, reads, logs),
 * as lines executed in order through libxpusim-dpu's own functions on the command line's
 * machine (-o dpus=N...). The whole file is parsed first, so a typo never costs a run. Every
 * launch but the last runs while the program is loaded (a line "launch N: C cycles, I
 * instructions" each); the last is left to the command line's run, so its limits, trace,
 * profile, statistics, debugger and exit status apply to it, and the lines after it run
 * when it has ended cleanly. Format: docs/isa/dpu.md "Host-session files". */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include "host.h"
#include "../../isa.h"
#include "../../../core/file.h"

#define SESS_MAXTOK 8

typedef struct sess_line {
    int lineno;
    int ntok;
    char *tok[SESS_MAXTOK];
} sess_line;

typedef struct dpu_session {
    char *path, *dir;
    char *text;             /* the file, cut into tokens in place */
    sess_line *lines;
    int nlines, next;       /* lines run so far */
    int last_launch;        /* index of the last launch line */
    int finished;           /* the last launch has been reported (finish may come twice) */
    struct dpu_set_t set;
    xdpu_system *sys;
} dpu_session;

static int fail(const dpu_session *s, const sess_line *l, char *err, size_t n, const char *fmt, const char *a,
                const char *b)
{
    char what[1200];
    snprintf(what, sizeof what, fmt, a ? a : "", b ? b : "");
    if (l)
        snprintf(err, n, "%s:%d: %.*s", s->path, l->lineno, (int)(n > 40 ? n - 40 : 1), what);
    else
        snprintf(err, n, "%s: %.*s", s->path, (int)(n > 40 ? n - 40 : 1), what);
    return -1;
}

static int api_fail(const dpu_session *s, const sess_line *l, char *err, size_t n, dpu_error_t e)
{
    char *t = dpu_error_to_string(e);
    int rc = fail(s, l, err, n, "%s: %s", l->tok[0], t);
    free(t);
    return rc;
}

void dpu_session_free(void *state)
{
    dpu_session *s = state;
    if (!s)
        return;
    if (s->sys) {
        ld_free(&s->sys->img); /* a wrapped system's image is ours to free */
        xdpu_system_free(s->sys);
    }
    free(s->path);
    free(s->dir);
    free(s->text);
    free(s->lines);
    free(s);
}

/* A path in the file is relative to the file's directory. */
static char *rel_path(const dpu_session *s, const char *p)
{
    size_t n = strlen(s->dir) + strlen(p) + 2;
    char *r = malloc(n);
    if (r)
        snprintf(r, n, "%s%s", p[0] == '/' ? "" : s->dir, p);
    return r;
}

/* "SYMBOL" or "SYMBOL+OFF". */
static int parse_sym(char *t, uint32_t *off)
{
    char *plus = strchr(t, '+');
    uint64_t v = 0;
    *off = 0;
    if (plus) {
        *plus = 0;
        if (opt_parse_u64(plus + 1, &v) || v > UINT32_MAX)
            return -1;
        *off = (uint32_t)v;
    }
    return *t ? 0 : -1;
}

/* "@K" in [0, ndpus). */
static int parse_dpu(const dpu_session *s, const char *t, uint32_t *k)
{
    uint64_t v;
    if (t[0] != '@' || opt_parse_u64(t + 1, &v) || v >= s->sys->ndpus)
        return -1;
    *k = (uint32_t)v;
    return 0;
}

/* DATA: u8:/u16:/u32:/u64:V,V,... little-endian values, or a file (.txt: decimal words). */
static int read_data(const dpu_session *s, const sess_line *l, const char *t, uint8_t **buf, size_t *len, char *err,
                     size_t n)
{
    static const struct { const char *pfx; unsigned w; } kinds[] = {{"u8:", 1}, {"u16:", 2}, {"u32:", 4}, {"u64:", 8}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t pl = strlen(kinds[k].pfx);
        if (strncmp(t, kinds[k].pfx, pl))
            continue;
        size_t cnt = 1;
        for (const char *p = t + pl; *p; p++)
            cnt += *p == ',';
        *buf = calloc(cnt, kinds[k].w);
        *len = cnt * kinds[k].w;
        if (!*buf)
            return fail(s, l, err, n, "out of memory%s%s", NULL, NULL);
        const char *p = t + pl;
        for (size_t i = 0; i < cnt; i++) {
            char num[32];
            size_t m = strcspn(p, ",");
            uint64_t v;
            int neg = p[0] == '-';
            if (m - (size_t)neg >= sizeof num || m == (size_t)neg) {
                free(*buf);
                return fail(s, l, err, n, "bad value list '%s'%s", t, NULL);
            }
            memcpy(num, p + neg, m - (size_t)neg);
            num[m - (size_t)neg] = 0;
            if (opt_parse_u64(num, &v) || (kinds[k].w < 8 && !neg && v >> (8 * kinds[k].w))) {
                free(*buf);
                return fail(s, l, err, n, "'%s' is not a %s value", num, kinds[k].pfx);
            }
            if (neg)
                v = (uint64_t)0 - v;
            for (unsigned b = 0; b < kinds[k].w; b++)
                (*buf)[i * kinds[k].w + b] = (uint8_t)(v >> (8 * b));
            p += m + (p[m] == ',');
        }
        return 0;
    }
    char *path = rel_path(s, t), e2[512];
    if (!path)
        return fail(s, l, err, n, "out of memory%s%s", NULL, NULL);
    int rc = ld_read_data(path, buf, len, e2, sizeof e2);
    free(path);
    return rc ? fail(s, l, err, n, "%s%s", e2, NULL) : 0;
}

/* Print or write LEN bytes of DPU k read at SYMBOL: hex (default), u32, i32 or u64. */
static int emit(const dpu_session *s, const sess_line *l, const uint8_t *b, size_t len, const char *fmt,
                const char *head, FILE *out, char *err, size_t n)
{
    unsigned w = !strcmp(fmt, "u64") ? 8 : !strcmp(fmt, "u32") || !strcmp(fmt, "i32") ? 4 : 1;
    if (strcmp(fmt, "hex") && w == 1)
        return fail(s, l, err, n, "unknown format '%s' (hex, u32, i32, u64)%s", fmt, NULL);
    fprintf(out, "%s:", head);
    for (size_t i = 0; i + w <= len; i += w) {
        uint64_t v = 0;
        for (unsigned k = 0; k < w; k++)
            v |= (uint64_t)b[i + k] << (8 * k);
        if (w == 1)
            fprintf(out, "%s%02x", i % 16 ? " " : (i ? "\n  " : " "), (unsigned)v);
        else if (!strcmp(fmt, "i32"))
            fprintf(out, " %d", (int32_t)(uint32_t)v);
        else
            fprintf(out, " %llu", (unsigned long long)v);
    }
    fputc('\n', out);
    return 0;
}

static int write_file(const dpu_session *s, const sess_line *l, const char *name, const uint8_t *b, size_t len,
                      char *err, size_t n)
{
    char *path = rel_path(s, name);
    FILE *f = path ? fopen(path, "wb") : NULL;
    int rc = 0;
    if (!f)
        rc = fail(s, l, err, n, "cannot write %s: %s", name, strerror(errno));
    else {
        fwrite(b, 1, len, f);
        if (fclose(f))
            rc = fail(s, l, err, n, "cannot write %s: %s", name, strerror(errno));
    }
    free(path);
    return rc;
}

/* One line. dry: only check its form (before anything runs). */
static int run_line(dpu_session *s, sess_line *l, int dry, FILE *out, char *err, size_t n)
{
    const char *cmd = l->tok[0];
    int nt = l->ntok;
    uint32_t k = 0, off = 0;
    int one = nt > 1 && l->tok[1][0] == '@';
    if (one && parse_dpu(s, l->tok[1], &k))
        return fail(s, l, err, n, "'%s': expected @DPU with DPU below the number of DPUs (-o dpus)%s", l->tok[1], NULL);
    struct dpu_set_t target = s->set;
    if (one)
        target = (struct dpu_set_t){.kind = DPU_SET_DPU, .dpu = &s->sys->dpus[k]};
    int a = 1 + one; /* first argument after the optional @DPU */
    dpu_error_t e = DPU_OK;
    if (!strcmp(cmd, "program")) {
        if (nt != 2 || one)
            return fail(s, l, err, n, "expected: program FILE%s%s", NULL, NULL);
        if (dry)
            return 0;
        char *path = rel_path(s, l->tok[1]);
        e = path ? dpu_load(s->set, path, NULL) : DPU_ERR_ALLOCATION;
        free(path);
    } else if (!strcmp(cmd, "copy") || !strcmp(cmd, "scatter")) {
        int scatter = cmd[0] == 's';
        if (nt != a + 3 || strcmp(l->tok[a + 1], "=") || (scatter && one))
            return fail(s, l, err, n, scatter ? "expected: scatter SYMBOL[+OFFSET] = DATA%s%s"
                                              : "expected: copy [@DPU] SYMBOL[+OFFSET] = DATA%s%s", NULL, NULL);
        char sym[256];
        snprintf(sym, sizeof sym, "%s", l->tok[a]);
        if (parse_sym(sym, &off))
            return fail(s, l, err, n, "'%s': expected SYMBOL or SYMBOL+OFFSET%s", l->tok[a], NULL);
        if (dry)
            return 0;
        uint8_t *buf;
        size_t len;
        if (read_data(s, l, l->tok[a + 2], &buf, &len, err, n))
            return -1;
        if (!scatter)
            e = dpu_copy_to(target, sym, off, buf, len);
        else if (len % s->sys->ndpus) {
            free(buf);
            char b1[64], b2[32];
            snprintf(b1, sizeof b1, "%zu", len);
            snprintf(b2, sizeof b2, "%u", s->sys->ndpus);
            return fail(s, l, err, n, "scatter: %s bytes do not split evenly over %s DPUs", b1, b2);
        } else {
            size_t chunk = len / s->sys->ndpus;
            struct dpu_set_t d;
            uint32_t i;
            DPU_FOREACH(s->set, d, i) {
                if ((e = dpu_prepare_xfer(d, buf + chunk * i)) != DPU_OK)
                    break;
            }
            if (e == DPU_OK)
                e = dpu_push_xfer(s->set, DPU_XFER_TO_DPU, sym, off, chunk, DPU_XFER_DEFAULT);
        }
        free(buf);
    } else if (!strcmp(cmd, "launch")) {
        if (nt != a)
            return fail(s, l, err, n, "expected: launch [@DPU]%s%s", NULL, NULL);
        if (dry)
            return 0;
        if (s->next == s->last_launch) {
            /* the command line's run is this launch */
            memset(s->sys->sel, 0, s->sys->ndpus);
            for (uint32_t i = 0; i < s->sys->ndpus; i++)
                s->sys->sel[i] = !one || i == k;
            if (!s->sys->loaded)
                e = DPU_ERR_NO_PROGRAM_LOADED;
            else if (dpu_relaunch(s->sys->m, s->sys->sel))
                e = DPU_ERR_INTERNAL;
        } else {
            e = dpu_launch(target, DPU_SYNCHRONOUS);
            if (e == DPU_OK || s->sys->launches)
                fprintf(out, "launch %u: %llu cycles, %llu instructions\n", s->sys->launches,
                        (unsigned long long)s->sys->last_cycles, (unsigned long long)s->sys->last_insns);
            if (e != DPU_OK) {
                char why[300];
                snprintf(why, sizeof why, "launch %u did not end cleanly: %s: %s", s->sys->launches,
                         sim_stop_name(s->sys->m->stop.kind), s->sys->m->stop.msg);
                return fail(s, l, err, n, "%s%s", why, NULL);
            }
        }
    } else if (!strcmp(cmd, "get") || !strcmp(cmd, "gather")) {
        int gather = cmd[1] == 'a';
        /* get [@DPU] SYMBOL[+OFF] LEN [FORMAT] [> FILE]; gather SYMBOL[+OFF] LEN [FORMAT] [> FILE] */
        int end = nt;
        const char *file = NULL;
        if (nt >= 2 && !strcmp(l->tok[nt - 2], ">")) {
            file = l->tok[nt - 1];
            end = nt - 2;
        }
        const char *fmt = end == a + 3 ? l->tok[a + 2] : "hex";
        uint64_t len;
        char sym[256];
        if ((gather && one) || end < a + 2 || end > a + 3 || opt_parse_u64(l->tok[a + 1], &len) || !len ||
            len > (1u << 30))
            return fail(s, l, err, n, gather ? "expected: gather SYMBOL[+OFFSET] LENGTH [hex|u32|i32|u64] [> FILE]%s%s"
                                             : "expected: get [@DPU] SYMBOL[+OFFSET] LENGTH [hex|u32|i32|u64] [> FILE]%s%s",
                        NULL, NULL);
        snprintf(sym, sizeof sym, "%s", l->tok[a]);
        if (parse_sym(sym, &off))
            return fail(s, l, err, n, "'%s': expected SYMBOL or SYMBOL+OFFSET%s", l->tok[a], NULL);
        if (strcmp(fmt, "hex") && strcmp(fmt, "u32") && strcmp(fmt, "i32") && strcmp(fmt, "u64"))
            return fail(s, l, err, n, "unknown format '%s' (hex, u32, i32, u64)%s", fmt, NULL);
        if (dry)
            return 0;
        uint32_t nd = gather ? s->sys->ndpus : 1;
        uint8_t *buf = malloc((size_t)len * nd);
        if (!buf)
            return fail(s, l, err, n, "out of memory%s%s", NULL, NULL);
        if (!gather) {
            target = (struct dpu_set_t){.kind = DPU_SET_DPU, .dpu = &s->sys->dpus[k]};
            e = dpu_copy_from(target, sym, off, buf, (size_t)len);
        } else {
            struct dpu_set_t d;
            uint32_t i;
            DPU_FOREACH(s->set, d, i) {
                if ((e = dpu_prepare_xfer(d, buf + (size_t)len * i)) != DPU_OK)
                    break;
            }
            if (e == DPU_OK)
                e = dpu_push_xfer(s->set, DPU_XFER_FROM_DPU, sym, off, (size_t)len, DPU_XFER_DEFAULT);
        }
        int rc = 0;
        if (e == DPU_OK && file)
            rc = write_file(s, l, file, buf, (size_t)len * nd, err, n);
        for (uint32_t i = 0; e == DPU_OK && !file && !rc && i < nd; i++) {
            char head[300];
            snprintf(head, sizeof head, "dpu%u %s", gather ? i : k, l->tok[a]);
            rc = emit(s, l, buf + (size_t)len * i, (size_t)len, fmt, head, out, err, n);
        }
        free(buf);
        if (rc)
            return -1;
    } else if (!strcmp(cmd, "log")) {
        if (nt != a)
            return fail(s, l, err, n, "expected: log [@DPU]%s%s", NULL, NULL);
        if (dry)
            return 0;
        for (uint32_t i = 0; i < s->sys->ndpus && e == DPU_OK; i++) {
            if (one && i != k)
                continue;
            if (s->sys->ndpus > 1)
                fprintf(out, "=== DPU %u ===\n", i);
            e = dpu_log_read((struct dpu_set_t){.kind = DPU_SET_DPU, .dpu = &s->sys->dpus[i]}, out);
        }
    } else {
        return fail(s, l, err, n, "unknown command '%s' (program, copy, scatter, launch, get, gather, log)%s", cmd,
                    NULL);
    }
    return e == DPU_OK ? 0 : api_fail(s, l, err, n, e);
}

int dpu_session_start(sim_machine *m, const char *path, void **state, char *err, size_t n)
{
    *state = NULL;
    dpu_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    *state = s; /* freed by the caller (dpu_session_free) whatever happens */
    uint8_t *text;
    size_t len;
    s->path = strdup(path);
    const char *slash = strrchr(path, '/');
    s->dir = strndup(path, slash ? (size_t)(slash - path + 1) : 0);
    if (!s->path || !s->dir || file_read_all(path, 1u << 24, &text, &len, err, n))
        return s->path && s->dir ? -1 : (snprintf(err, n, "out of memory"), -1);
    s->text = realloc(text, len + 1);
    if (!s->text) {
        free(text);
        snprintf(err, n, "out of memory");
        return -1;
    }
    s->text[len] = 0;
    if (memchr(s->text, 0, len)) {
        snprintf(err, n, "%s: a host-session file is text; this one has a NUL byte", path);
        return -1;
    }
    size_t nl = 1;
    for (size_t i = 0; i < len; i++)
        nl += s->text[i] == '\n';
    s->lines = calloc(nl, sizeof *s->lines);
    if (!s->lines) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    s->last_launch = -1;
    char *p = s->text;
    for (int lineno = 1; p; lineno++) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = 0;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = 0;
        sess_line *l = &s->lines[s->nlines];
        l->lineno = lineno;
        for (char *t = strtok(p, " \t\r"); t; t = strtok(NULL, " \t\r")) {
            if (l->ntok == SESS_MAXTOK)
                return fail(s, l, err, n, "too many words on one line%s%s", NULL, NULL);
            l->tok[l->ntok++] = t;
        }
        if (l->ntok) {
            if (!strcmp(l->tok[0], "launch"))
                s->last_launch = s->nlines;
            s->nlines++;
        }
        p = eol ? eol + 1 : NULL;
    }
    if (s->nlines == 0 || strcmp(s->lines[0].tok[0], "program"))
        return fail(s, s->nlines ? &s->lines[0] : NULL, err, n, "the first line must be `program FILE` (the DPU ELF)%s%s",
                    NULL, NULL);
    if (s->last_launch < 0)
        return fail(s, NULL, err, n, "no `launch` line: nothing would run%s%s", NULL, NULL);
    dpu_error_t e = xdpu_wrap(m, &s->set);
    if (e != DPU_OK) {
        snprintf(err, n, "%s: cannot set up the DPUs (out of memory)", path);
        return -1;
    }
    s->sys = xdpu_system_of(s->set);
    for (int i = 0; i < s->nlines; i++)
        if (run_line(s, &s->lines[i], 1, m->out, err, n))
            return -1;
    for (; s->next <= s->last_launch; s->next++)
        if (run_line(s, &s->lines[s->next], 0, m->out, err, n))
            return -1;
    fflush(m->out);
    return 0;
}

void dpu_session_finish(sim_machine *m, void *state)
{
    dpu_session *s = state;
    if (!s || !s->sys || s->finished)
        return;
    s->finished = 1;
    xdpu_system *sys = s->sys;
    sys->launches++;
    fprintf(m->out, "launch %u: %llu cycles, %llu instructions\n", sys->launches,
            (unsigned long long)sim_end_cycle(m), (unsigned long long)sim_total_instructions(m));
    if (m->stop.kind != SIM_STOP_HALT)
        return; /* the run did not end cleanly: what follows would read half-done results */
    char err[600];
    for (; s->next < s->nlines; s->next++)
        if (run_line(s, &s->lines[s->next], 0, m->out, err, sizeof err)) {
            /* the command line reports a stop as an error (exit status 1) with this message */
            m->stop.kind = SIM_STOP_ERROR;
            m->stop.unit = m->stop.thread = -1;
            m->stop.cycle = sim_end_cycle(m);
            snprintf(m->stop.msg, sizeof m->stop.msg, "%.*s", (int)sizeof m->stop.msg - 1, err);
            break;
        }
    fflush(m->out);
}
