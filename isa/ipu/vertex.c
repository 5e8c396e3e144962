/* isa/ipu/vertex.c: the IPU's host protocol, `xpusim run|debug|gdbserver --vertex FILE`
 * (isa_ops.host_file). A vertex file is plain text, one `key = value`, `tensor`, `state` or
 * `output` line each (docs/isa/ipu.md "Running a vertex"): it names a codelet (a .S source,
 * assembled here, or a linked ELF), the vertex's entry symbol, whether it is a worker or a
 * supervisor vertex and on how many workers it runs, the tensors to place in tile memory
 * (zeros, values, a fill, a ramp or a raw file) and the vertex state's fields in order (the
 * ABI: each field aligned to its size; pointers to tensors, spans, counts, numbers). This
 * file loads the codelet, lays out after its image the supervisor stub (worker vertices:
 * setzi + runall, or one run per worker), the workers' scratch, the state and the tensors,
 * adds the tensors as symbols, and after the run prints the output tensors and the cycles
 * of every context. Parsing is strict: every error names file:line, every number is bounded
 * before it sizes anything, no text from the file is used as a format. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vertex.h"

#define V_MAX_FILE (16u << 20)   /* the vertex file itself */

const ipu_vtype ipu_vtypes[T_NTYPES] = {
    {"f32", 4, 'f'}, {"f16", 2, 'h'}, {"i32", 4, 'i'}, {"u32", 4, 'u'},
    {"i16", 2, 'i'}, {"u16", 2, 'u'}, {"i8", 1, 'i'},  {"u8", 1, 'u'}};
#define v_types ipu_vtypes

void ipu_vertex_free(ipu_machine *im)
{
    ipu_vertex *v = im ? im->vertex : NULL;
    if (!v)
        return;
    for (int i = 0; i < v->nt; i++) {
        free(v->t[i].init);
        free(v->t[i].out_path);
    }
    free(v->t);
    ipu_vstate_free(v);
    free(v->names);
    free(v);
    im->vertex = NULL;
}

/* ---- small helpers ---- */
int ipu_verr(char *err, size_t n, const ipu_vertex *v, int line, const char *fmt, ...)
{
    int k = line > 0 ? snprintf(err, n, "%s:%d: ", v->path, line) : snprintf(err, n, "%s: ", v->path);
    if (k >= 0 && (size_t)k < n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, n - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

char *ipu_vskip_ws(char *s) { while (*s == ' ' || *s == '\t') s++; return s; }
static void trim_end(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
}
/* Take one whitespace-delimited word from *p (NUL-terminated in place); "" at the end. */
char *ipu_vword(char **p)
{
    char *s = ipu_vskip_ws(*p), *e = s;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    if (*e)
        *e++ = 0;
    *p = e;
    return s;
}
/* A symbol: letters, digits, _ . $, not starting with a digit; max bytes long at most. */
static int is_symbol(const char *s, size_t max)
{
    if (!*s || strlen(s) > max || !(*s == '_' || *s == '.' || ((*s | 32) >= 'a' && (*s | 32) <= 'z')))
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || *s == '.' || *s == '$' || (*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z')))
            return 0;
    return 1;
}
int ipu_vis_name(const char *s) { return is_symbol(s, V_NAME - 1); }
int ipu_vparse_u32(const char *s, uint32_t max, uint32_t *out)
{
    uint64_t x;
    if (opt_parse_u64(s, &x) || x > max)
        return -1;
    *out = (uint32_t)x;
    return 0;
}
int ipu_vtype_of(const char *s)
{
    for (int i = 0; i < T_NTYPES; i++)
        if (!strcmp(s, v_types[i].name))
            return i;
    return -1;
}

/* IEEE binary16 from a double, round to nearest even (the host's default mode). */
static uint16_t half_from(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x))
        return 0x7e00;
    if (a >= 65520.0)
        return sign | 0x7c00;
    if (a < 0x1p-14)
        return sign | (uint16_t)nearbyint(a * 0x1p24); /* 1024 is the smallest normal: right */
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int ex = e - 1;
    double mant = nearbyint((f * 2.0 - 1.0) * 1024.0);
    if (mant >= 1024.0) {
        mant = 0;
        ex++;
    }
    if (ex > 15)
        return sign | 0x7c00;
    return sign | (uint16_t)((ex + 15) << 10) | (uint16_t)mant;
}
static double half_to(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

/* One number of type ty into its little-endian bits. */
int ipu_vparse_value(const char *s, int ty, uint64_t *bits)
{
    char *end;
    errno = 0;
    if (v_types[ty].kind == 'f' || v_types[ty].kind == 'h') {
        double d = strtod(s, &end);
        if (end == s || *end)
            return -1;
        if (ty == T_F16) {
            *bits = half_from(d);
        } else {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        }
        return 0;
    }
    unsigned sz = v_types[ty].size * 8;
    if (v_types[ty].kind == 'i') {
        long long x = strtoll(s, &end, 0);
        long long lo = -(1LL << (sz - 1)), hi = (1LL << (sz - 1)) - 1;
        if (end == s || *end || errno || x < lo || x > hi)
            return -1;
        *bits = (uint64_t)x & (sz == 32 ? 0xffffffffu : (1u << sz) - 1);
        return 0;
    }
    if (*s == '-')
        return -1;
    unsigned long long x = strtoull(s, &end, 0);
    if (end == s || *end || errno || x > (sz == 32 ? 0xffffffffull : (1ull << sz) - 1))
        return -1;
    *bits = x;
    return 0;
}
void ipu_vput_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A path from the file, relative to the vertex file's directory unless absolute. */
static int rel_path(const ipu_vertex *v, const char *p, char *out, size_t n)
{
    int k = p[0] == '/' || !v->dir[0] ? snprintf(out, n, "%s", p) : snprintf(out, n, "%s/%s", v->dir, p);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int ipu_vfind_tensor(const ipu_vertex *v, const char *name)
{
    for (int i = 0; i < v->nt; i++)
        if (!strcmp(v->t[i].name, name))
            return i;
    return -1;
}

/* ---- the lines ---- */
static int parse_tensor(ipu_vertex *v, char *s, int line, char *err, size_t n)
{
    char *name = ipu_vword(&s);
    if (!ipu_vis_name(name))
        return ipu_verr(err, n, v, line, "tensor: expected a name (letters, digits, _ . $), got '%.40s'", name);
    if (ipu_vfind_tensor(v, name) >= 0)
        return ipu_verr(err, n, v, line, "tensor %s is defined twice", name);
    if (v->nt >= V_MAX_TENSORS)
        return ipu_verr(err, n, v, line, "more than %d tensors", V_MAX_TENSORS);
    if (strcmp(ipu_vword(&s), "="))
        return ipu_verr(err, n, v, line, "tensor %s: expected '=' after the name", name);
    char *spec = ipu_vword(&s), *br = strchr(spec, '[');
    size_t sl = strlen(spec);
    if (!br || sl < 3 || spec[sl - 1] != ']')
        return ipu_verr(err, n, v, line, "tensor %s: expected TYPE[COUNT] (f32, f16, i32, u32, i16, u16, i8, u8)", name);
    *br = 0;
    spec[sl - 1] = 0;
    ipu_vtensor t = {.line = line, .align = 8};
    snprintf(t.name, sizeof t.name, "%s", name);
    if ((t.type = ipu_vtype_of(spec)) < 0)
        return ipu_verr(err, n, v, line, "tensor %s: unknown type '%.20s' (f32, f16, i32, u32, i16, u16, i8, u8)", name, spec);
    if (ipu_vparse_u32(br + 1, V_MAX_COUNT, &t.count) || !t.count)
        return ipu_verr(err, n, v, line, "tensor %s: COUNT must be 1..%u", name, V_MAX_COUNT);
    unsigned es = v_types[t.type].size;
    size_t bytes = (size_t)t.count * es; /* <= 4 MiB: bounded above */
    for (;;) {
        s = ipu_vskip_ws(s);
        if (!*s)
            break;
        if (!strncmp(s, "align ", 6)) {
            ipu_vword(&s);
            if (ipu_vparse_u32(ipu_vword(&s), 4096, &t.align) || t.align < 8 || (t.align & (t.align - 1)))
                return ipu_verr(err, n, v, line, "tensor %s: align must be a power of two, 8..4096", name);
        } else if (!strcmp(s, "interleaved") || !strncmp(s, "interleaved ", 12)) {
            ipu_vword(&s);
            t.interleaved = 1;
        } else if (t.init) {
            return ipu_verr(err, n, v, line, "tensor %s: more than one initial value ('%.40s')", name, s);
        } else if (s[0] == '@') {
            s++;
            char *file = ipu_vword(&s), path[1024];
            if (!*file || rel_path(v, file, path, sizeof path))
                return ipu_verr(err, n, v, line, "tensor %s: expected @ FILE", name);
            FILE *fp = fopen(path, "rb");
            if (!fp)
                return ipu_verr(err, n, v, line, "tensor %s: %s: %s", name, path, strerror(errno));
            t.init = malloc(bytes + 1);
            size_t got = t.init ? fread(t.init, 1, bytes + 1, fp) : 0;
            fclose(fp);
            if (!t.init)
                return ipu_verr(err, n, v, line, "out of memory");
            if (got != bytes) {
                free(t.init);
                return ipu_verr(err, n, v, line, "tensor %s: %s holds %s%zu bytes; %s[%u] needs exactly %zu", name, path,
                            got > bytes ? "more than " : "", got > bytes ? bytes : got, v_types[t.type].name, t.count,
                            bytes);
            }
        } else {
            /* fill V | ramp START STEP | V, V, ... (exactly COUNT values) */
            int fill = !strncmp(s, "fill ", 5), ramp = !strncmp(s, "ramp ", 5);
            if (!(t.init = malloc(bytes)))
                return ipu_verr(err, n, v, line, "out of memory");
            uint64_t bits;
            if (fill) {
                ipu_vword(&s);
                char *x = ipu_vword(&s);
                if (ipu_vparse_value(x, t.type, &bits))
                    goto bad_value;
                for (uint32_t i = 0; i < t.count; i++)
                    ipu_vput_le(t.init + (size_t)i * es, bits, es);
            } else if (ramp) {
                ipu_vword(&s);
                char *a = ipu_vword(&s), *b = ipu_vword(&s), *e1, *e2;
                double start = strtod(a, &e1), step = strtod(b, &e2);
                if (!*a || !*b || *e1 || *e2) {
                    free(t.init);
                    return ipu_verr(err, n, v, line, "tensor %s: expected ramp START STEP", name);
                }
                for (uint32_t i = 0; i < t.count; i++) {
                    char num[64];
                    double x = start + step * i;
                    snprintf(num, sizeof num, v_types[t.type].kind == 'f' || v_types[t.type].kind == 'h' ? "%.17g" : "%.0f", x);
                    if (ipu_vparse_value(num, t.type, &bits)) {
                        free(t.init);
                        return ipu_verr(err, n, v, line, "tensor %s: ramp element %u (%g) does not fit %s", name, i, x,
                                    v_types[t.type].name);
                    }
                    ipu_vput_le(t.init + (size_t)i * es, bits, es);
                }
            } else {
                uint32_t i = 0;
                for (char *tok = s;; i++) {
                    char *comma = strchr(tok, ',');
                    if (comma)
                        *comma = 0;
                    char *x = ipu_vskip_ws(tok);
                    trim_end(x);
                    if (i >= t.count) {
                        free(t.init);
                        return ipu_verr(err, n, v, line, "tensor %s: more than %u values", name, t.count);
                    }
                    if (ipu_vparse_value(x, t.type, &bits)) {
                        s = x;
                        goto bad_value;
                    }
                    ipu_vput_le(t.init + (size_t)i * es, bits, es);
                    if (!comma)
                        break;
                    tok = comma + 1;
                }
                if (i + 1 != t.count) {
                    free(t.init);
                    return ipu_verr(err, n, v, line, "tensor %s: %u value(s) for %s[%u] (give all, or fill V, or ramp A B)",
                                name, i + 1, v_types[t.type].name, t.count);
                }
            }
            s = ipu_vskip_ws(s);
            if (*s && (fill || ramp)) {
                free(t.init);
                return ipu_verr(err, n, v, line, "tensor %s: unexpected '%.40s'", name, s);
            }
            break;
        bad_value:
            free(t.init);
            return ipu_verr(err, n, v, line, "tensor %s: '%.40s' is not a %s value", name, s, v_types[t.type].name);
        }
    }
    ipu_vtensor *nt = realloc(v->t, (size_t)(v->nt + 1) * sizeof *nt);
    if (!nt) {
        free(t.init);
        return ipu_verr(err, n, v, line, "out of memory");
    }
    v->t = nt;
    v->t[v->nt++] = t;
    return 0;
}

static int parse_key(ipu_vertex *v, const char *key, char *val, int line, char *err, size_t n)
{
    char *x = ipu_vskip_ws(val);
    trim_end(x);
    if (!*x)
        return ipu_verr(err, n, v, line, "%s: missing value", key);
    if (!strcmp(key, "codelet")) {
        if (rel_path(v, x, v->codelet, sizeof v->codelet))
            return ipu_verr(err, n, v, line, "codelet: path too long");
        v->line_codelet = line;
    } else if (!strcmp(key, "entry")) {
        if (!is_symbol(x, sizeof v->entry - 1) && strncmp(x, "0x", 2))
            return ipu_verr(err, n, v, line, "entry: expected a symbol or an address, got '%.40s'", x);
        if (strlen(x) >= sizeof v->entry)
            return ipu_verr(err, n, v, line, "entry: too long");
        snprintf(v->entry, sizeof v->entry, "%s", x);
        v->line_entry = line;
    } else if (!strcmp(key, "kind")) {
        if (strcmp(x, "worker") && strcmp(x, "supervisor"))
            return ipu_verr(err, n, v, line, "kind: expected worker or supervisor, got '%.20s'", x);
        v->supervisor = x[0] == 's';
    } else if (!strcmp(key, "workers")) {
        uint32_t w;
        if (ipu_vparse_u32(x, IPU_NSLOTS, &w) || !w)
            return ipu_verr(err, n, v, line, "workers: expected 1..6, got '%.20s'", x);
        v->workers = (int)w;
    } else if (!strcmp(key, "scratch")) {
        if (ipu_vparse_u32(x, 65536, &v->scratch))
            return ipu_verr(err, n, v, line, "scratch: expected bytes per worker, 0..65536");
    } else if (!strcmp(key, "include")) { /* one more include directory for the codelet's cpp */
        if (rel_path(v, x, v->include, sizeof v->include))
            return ipu_verr(err, n, v, line, "include: path too long");
    } else if (!strcmp(key, "define")) {
        size_t have = strlen(v->defines);
        if (have + strlen(x) + 2 > sizeof v->defines)
            return ipu_verr(err, n, v, line, "define: all defines together must fit in %zu characters",
                        sizeof v->defines - 1);
        snprintf(v->defines + have, sizeof v->defines - have, "%s%s", have ? "," : "", x);
    } else {
        return ipu_verr(err, n, v, line, "unknown key '%.30s' (codelet, entry, kind, workers, scratch, define, include; or a "
                    "tensor, state or output line)", key);
    }
    return 0;
}

static int parse_output(ipu_vertex *v, char *s, int line, char *err, size_t n)
{
    char *name = ipu_vword(&s);
    int i = ipu_vfind_tensor(v, name);
    if (i < 0)
        return ipu_verr(err, n, v, line, "output: no tensor '%.40s' (define it first)", name);
    if (v->t[i].output)
        return ipu_verr(err, n, v, line, "output %s: given twice", name);
    v->t[i].output = 1;
    s = ipu_vskip_ws(s);
    if (*s == '@') {
        s++;
        char *file = ipu_vword(&s), path[1024];
        if (!*file || rel_path(v, file, path, sizeof path) || !(v->t[i].out_path = strdup(path)))
            return ipu_verr(err, n, v, line, "output %s: expected @ FILE", name);
    }
    if (*ipu_vskip_ws(s))
        return ipu_verr(err, n, v, line, "output %s: unexpected '%.40s'", name, ipu_vskip_ws(s));
    return 0;
}

/* The whole file: logical lines (a line ending in ',' continues on the next), '#' comments. */
static int parse_file(ipu_vertex *v, char *text, char *err, size_t n)
{
    int line = 0;
    for (char *p = text; *p;) {
        int start = ++line;
        char *nl = strchr(p, '\n'), *l = p;
        p = nl ? nl + 1 : p + strlen(p);
        if (nl)
            *nl = 0;
        char *hash = strchr(l, '#');
        if (hash)
            *hash = 0;
        trim_end(l);
        while (*l && l[strlen(l) - 1] == ',' && *p) { /* join the continuation in place */
            char *nl2 = strchr(p, '\n'), *c = p;
            p = nl2 ? nl2 + 1 : p + strlen(p);
            if (nl2)
                *nl2 = 0;
            if ((hash = strchr(c, '#')))
                *hash = 0;
            trim_end(c);
            line++;
            memmove(l + strlen(l), c, strlen(c) + 1); /* c lies after l's end: moving left is safe */
        }
        l = ipu_vskip_ws(l);
        if (!*l)
            continue;
        char *rest = l, *first = ipu_vword(&rest);
        int r;
        if (!strcmp(first, "tensor"))
            r = parse_tensor(v, rest, start, err, n);
        else if (!strcmp(first, "state"))
            r = ipu_vstate_parse(v, rest, start, err, n);
        else if (!strcmp(first, "output"))
            r = parse_output(v, rest, start, err, n);
        else {
            char *eq = strchr(first, '=');
            if (eq) { /* key=value without spaces */
                *eq = 0;
                r = parse_key(v, first, eq + 1, start, err, n);
            } else {
                rest = ipu_vskip_ws(rest);
                if (*rest != '=')
                    return ipu_verr(err, n, v, start, "expected KEY = VALUE, tensor, state or output; got '%.40s'", first);
                r = parse_key(v, first, rest + 1, start, err, n);
            }
        }
        if (r)
            return r;
    }
    if (!v->codelet[0])
        return ipu_verr(err, n, v, 0, "no `codelet = FILE` line");
    if (!v->entry[0])
        return ipu_verr(err, n, v, 0, "no `entry = SYMBOL` line");
    return ipu_vstate_resolve(v, err, n);
}

/* ---- loading and layout ---- */
static int load_codelet(sim_machine *m, ipu_vertex *v, ld_image *img, char *err, size_t n)
{
    size_t L = strlen(v->codelet);
    int is_src = L > 2 && v->codelet[L - 2] == '.' && (v->codelet[L - 1] == 'S' || v->codelet[L - 1] == 's');
    char e2[512];
    if (!is_src) {
        if (ld_load(v->codelet, img, e2, sizeof e2))
            return ipu_verr(err, n, v, v->line_codelet, "codelet: %s", e2);
        return 0;
    }
    const char *td = getenv("TMPDIR");
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s/xpusim-vertex-XXXXXX", td && td[0] ? td : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return ipu_verr(err, n, v, v->line_codelet, "codelet: cannot make a temporary file: %s", strerror(errno));
    close(fd);
    sim_opts o;
    opt_init(&o);
    opt_set(&o, "arch", ipu_arch_name(ipu_m(m)->arch));
    opt_set(&o, "object", "0");
    if (v->defines[0])
        opt_set(&o, "define", v->defines);
    if (v->include[0] && opt_set(&o, "include", v->include)) {
        unlink(tmp);
        return ipu_verr(err, n, v, v->line_codelet, "include: path longer than %zu characters", sizeof o.val[0] - 1);
    }
    const char *src = v->codelet;
    int r = ipu_assemble(1, &src, tmp, &o, e2, sizeof e2);
    if (!r && ld_load(tmp, img, e2, sizeof e2))
        r = -1;
    unlink(tmp);
    if (r)
        return ipu_verr(err, n, v, v->line_codelet, "codelet: %s", e2);
    snprintf(img->path, sizeof img->path, "%s", v->codelet);
    return 0;
}

static int place(ipu_vertex *v, const ipu_machine *im, uint64_t *cur, uint64_t size, uint32_t align, uint32_t *addr,
                 const char *what, int line, char *err, size_t n)
{
    uint64_t a = (*cur + align - 1) & ~(uint64_t)(align - 1);
    if (a + size > (uint64_t)im->mem_base + im->mem_size)
        return ipu_verr(err, n, v, line, "%s (%llu bytes) does not fit in tile memory (ends at 0x%llx)", what,
                    (unsigned long long)size, (unsigned long long)((uint64_t)im->mem_base + im->mem_size));
    *addr = (uint32_t)a;
    *cur = a + size;
    return 0;
}

static int enc(const char *name, int64_t a, int64_t b, int64_t c, uint32_t *w)
{
    const int64_t ops[3] = {a, b, c};
    return ipu_encode(name, ops, w);
}

/* The supervisor stub of a worker vertex (docs/isa/ipu.md "Running a vertex"). */
static int build_stub(ipu_vertex *v, const ipu_machine *im, uint32_t *w)
{
    int k = 0;
    uint32_t off = v->state - im->mem_base;
    if (v->workers == IPU_NSLOTS) {
        if (enc("setzi_mmmn_zi", 1, v->state, 0, &w[k++]) || enc("setzi_mmmn_zi", 0, v->entry_addr, 0, &w[k++]) ||
            enc("runall_mmmn_zi", 0, 1, 0, &w[k++]))
            return -1;
    } else if (off / 4 <= 0xffff) {
        if (enc("setzi_mmmn_zi", 0, v->entry_addr, 0, &w[k++]))
            return -1;
        for (int i = 0; i < v->workers; i++)
            if (enc("run_mmmn_zi", 0, 15, off / 4, &w[k++]))
                return -1;
    } else {
        if (enc("setzi_mmmn_zi", 1, off, 0, &w[k++]) || enc("setzi_mmmn_zi", 0, v->entry_addr, 0, &w[k++]))
            return -1;
        for (int i = 0; i < v->workers; i++)
            if (enc("run_mmmn_zi", 0, 1, 0, &w[k++]))
                return -1;
    }
    if (enc("br_mmmn", 10, 0, 0, &w[k++]))
        return -1;
    return k;
}

/* Append the tensors, the state and the stub to the image's symbols (names owned by v). */
static int add_symbols(ipu_vertex *v, ld_image *img)
{
    int extra = v->nt + 2;
    size_t len = sizeof "vertex_state" + sizeof "vertex_stub";
    for (int i = 0; i < v->nt; i++)
        len += strlen(v->t[i].name) + 1;
    ld_symbol *s = realloc(img->syms, (size_t)(img->nsyms + extra) * sizeof *s);
    if (!s)
        return -1;
    img->syms = s;
    if (!(v->names = malloc(len)))
        return -1;
    char *p = v->names;
    for (int i = 0; i < extra; i++) {
        const char *nm = i < v->nt ? v->t[i].name : i == v->nt ? "vertex_state" : "vertex_stub";
        uint64_t addr = i < v->nt ? v->t[i].addr : i == v->nt ? v->state : v->stub;
        uint64_t size = i < v->nt ? (uint64_t)v->t[i].count * v_types[v->t[i].type].size
                                  : i == v->nt ? v->state_size : v->stub_words * 4u;
        if (i == v->nt + 1 && !v->stub_words)
            continue;
        strcpy(p, nm);
        img->syms[img->nsyms++] = (ld_symbol){.name = p, .value = addr, .size = size, .type = i > v->nt ? 2 : 1,
                                              .bind = 1, .shndx = 0xfff1};
        p += strlen(nm) + 1;
    }
    return 0;
}

int ipu_vertex_host_file(sim_machine *m, const char *path, ld_image *img, char *err, size_t n)
{
    ipu_machine *im = ipu_m(m);
    ipu_vertex *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    im->vertex = v;
    v->workers = IPU_NSLOTS;
    snprintf(v->path, sizeof v->path, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(v->dir, sizeof v->dir, "%.*s", (int)(slash - path), path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return ipu_verr(err, n, v, 0, "%s", strerror(errno));
    char *text = malloc(V_MAX_FILE + 1);
    size_t got = text ? fread(text, 1, V_MAX_FILE + 1, fp) : 0;
    fclose(fp);
    if (!text)
        return ipu_verr(err, n, v, 0, "out of memory");
    if (got > V_MAX_FILE || memchr(text, 0, got)) {
        free(text);
        return ipu_verr(err, n, v, 0, got > V_MAX_FILE ? "larger than 16 MiB" : "a NUL byte: not a text file");
    }
    text[got] = 0;
    int r = parse_file(v, text, err, n);
    free(text);
    if (r || load_codelet(m, v, img, err, n))
        return -1;
    char e2[512];
    if (ipu_machine_load(m, img, e2, sizeof e2))
        return ipu_verr(err, n, v, v->line_codelet, "codelet: %s", e2);
    const ld_symbol *es = ld_symbol_find(img, v->entry);
    uint64_t ea;
    if (es)
        ea = es->value;
    else if (opt_parse_u64(v->entry, &ea))
        return ipu_verr(err, n, v, v->line_entry, "entry: no symbol '%s' in %s", v->entry, img->path);
    if (ea > 0xffffffffu || !ipu_in_mem(im, (uint32_t)ea, 4) || (ea & 3))
        return ipu_verr(err, n, v, v->line_entry, "entry %s = 0x%llx: not a 4-byte-aligned address in tile memory", v->entry,
                    (unsigned long long)ea);
    v->entry_addr = (uint32_t)ea;

    /* layout after the image: stub, scratch, state, tensors (interleaved ones last) */
    uint64_t cur = im->mem_base;
    for (int s = 0; s < img->nsegs; s++)
        if (img->segs[s].type == 1 && img->segs[s].memsz && img->segs[s].vaddr + img->segs[s].memsz > cur)
            cur = img->segs[s].vaddr + img->segs[s].memsz; /* bounded by ipu_machine_load */
    uint32_t words[16];
    if (!v->supervisor && place(v, im, &cur, 4 * (2 + IPU_NSLOTS + 1), 8, &v->stub, "the supervisor stub", 0, err, n))
        return -1;
    uint32_t scr = (v->scratch + 7) & ~7u;
    if (scr && place(v, im, &cur, (uint64_t)scr * IPU_NSLOTS, 8, &v->scratch_base, "the workers' scratch", 0, err, n))
        return -1;
    if (ipu_vstate_layout(v, err, n))
        return -1;
    if (place(v, im, &cur, v->state_size ? v->state_size : 4, 8, &v->state, "the vertex state", 0, err, n))
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass && cur < im->interleaved_base)
            cur = im->interleaved_base;
        for (int i = 0; i < v->nt; i++) {
            ipu_vtensor *t = &v->t[i];
            char what[100];
            snprintf(what, sizeof what, "tensor %s", t->name);
            if (t->interleaved == pass &&
                place(v, im, &cur, (uint64_t)t->count * v_types[t->type].size, t->align, &t->addr, what, t->line, err, n))
                return -1;
        }
    }
    v->end = (uint32_t)cur;
    int nw = 0;
    if (!v->supervisor && (nw = build_stub(v, im, words)) < 0)
        return ipu_verr(err, n, v, 0, "cannot encode the supervisor stub (entry 0x%x, state 0x%x)", v->entry_addr, v->state);
    v->stub_words = (uint32_t)nw;

    /* write everything into every tile and set the contexts */
    uint8_t *state = calloc(1, v->state_size + 8);
    if (!state)
        return ipu_verr(err, n, v, 0, "out of memory");
    if (ipu_vstate_write(v, im, state, err, n)) {
        free(state);
        return -1;
    }
    for (int k = 0; k < im->ntiles; k++) {
        ipu_tile *tl = &im->tiles[k];
        uint8_t *mem = tl->mem;
        memcpy(mem + (v->state - im->mem_base), state, v->state_size);
        for (int i = 0; i < nw; i++)
            ipu_vput_le(mem + (v->stub - im->mem_base) + 4 * i, words[i], 4);
        for (int i = 0; i < v->nt; i++) {
            const ipu_vtensor *t = &v->t[i];
            size_t b = (size_t)t->count * v_types[t->type].size;
            if (t->init)
                memcpy(mem + (t->addr - im->mem_base), t->init, b);
            else
                memset(mem + (t->addr - im->mem_base), 0, b);
        }
        for (int w = 0; scr && w < IPU_NSLOTS; w++)
            tl->worker_base_csr[w] = v->scratch_base + (uint32_t)w * scr;
        ipu_ctx *s = &tl->ctx[IPU_SUP];
        if (v->supervisor) {
            s->pc = v->entry_addr;
            s->m[13] = v->state; /* $mvertex_base */
            s->vertex_base = v->state;
        } else {
            s->pc = v->stub;
        }
    }
    free(state);
    im->entry = v->supervisor ? v->entry_addr : v->stub;
    if (add_symbols(v, img))
        return ipu_verr(err, n, v, 0, "out of memory");
    return 0;
}

/* ---- after the run ---- */
static void print_tensor(const ipu_vertex *v, const ipu_tile *tl, const ipu_vtensor *t, FILE *out)
{
    (void)v;
    const ipu_machine *im = tl->im;
    unsigned es = v_types[t->type].size;
    const uint8_t *p = tl->mem + (t->addr - im->mem_base);
    fprintf(out, "tensor %s = %s[%u] at 0x%x:\n", t->name, v_types[t->type].name, t->count, t->addr);
    for (uint32_t i = 0; i < t->count; i++) {
        uint64_t b = get_le(p + (size_t)i * es, es);
        if (i % 8 == 0)
            fprintf(out, "  [%u]", i);
        char k = v_types[t->type].kind;
        if (k == 'f') {
            float f;
            uint32_t u = (uint32_t)b;
            memcpy(&f, &u, 4);
            fprintf(out, " %.9g", f);
        } else if (k == 'h') {
            fprintf(out, " %.5g", half_to((uint16_t)b));
        } else if (k == 'i') {
            int64_t x = (int64_t)(b << (64 - 8 * es)) >> (64 - 8 * es);
            fprintf(out, " %lld", (long long)x);
        } else {
            fprintf(out, " %llu", (unsigned long long)b);
        }
        if (i % 8 == 7 || i + 1 == t->count)
            fputc('\n', out);
    }
}

int ipu_vertex_report(sim_machine *m, int unit, FILE *out, int write_files)
{
    ipu_machine *im = ipu_m(m);
    ipu_vertex *v = im ? im->vertex : NULL;
    if (!v || unit < 0 || unit >= im->ntiles)
        return -1;
    const ipu_tile *tl = &im->tiles[unit];
    const sim_unit *u = &m->units[unit];
    int rc = 0;
    fprintf(out, "vertex %s: %s vertex %s at 0x%x", v->path, v->supervisor ? "supervisor" : "worker", v->entry,
            v->entry_addr);
    if (!v->supervisor)
        fprintf(out, " on %d worker(s) (%s)", v->workers, v->workers == IPU_NSLOTS ? "runall" : "run");
    fprintf(out, ", state at 0x%x (%u bytes)\n", v->state, v->state_size);
    for (int i = 0; i < v->nt; i++) {
        const ipu_vtensor *t = &v->t[i];
        if (!t->output)
            continue;
        if (t->out_path && write_files) {
            FILE *f = fopen(t->out_path, "wb");
            size_t b = (size_t)t->count * v_types[t->type].size;
            if (!f || fwrite(tl->mem + (t->addr - im->mem_base), 1, b, f) != b || fclose(f)) {
                fprintf(stderr, "xpusim: output %s: %s: %s\n", t->name, t->out_path, strerror(errno));
                rc = -1;
            } else {
                fprintf(out, "tensor %s = %s[%u] at 0x%x: written to %s\n", t->name, v_types[t->type].name, t->count,
                        t->addr, t->out_path);
            }
        } else {
            print_tensor(v, tl, t, out);
        }
    }
    uint64_t tc = u->halted ? u->halted_at : m->now;
    fprintf(out, "cycles: tile %llu%s\n", (unsigned long long)tc, u->halted ? "" : " (not halted)");
    for (int c = 0; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        const sim_thread *th = &u->threads[c];
        if (c != IPU_SUP && !x->launches)
            continue;
        fprintf(out, "  %-10s %llu bundle(s), %llu instruction(s)", ipu_ctx_name(c), (unsigned long long)th->issue_cycles,
                (unsigned long long)th->instructions);
        if (c == IPU_SUP) {
            fprintf(out, ", stalls: barrel %llu, dependency %llu, branch %llu",
                    (unsigned long long)th->stalls[IPU_STALL_BARREL], (unsigned long long)th->stalls[IPU_STALL_DEP],
                    (unsigned long long)th->stalls[IPU_STALL_BRANCH]);
            if (x->state == IPU_CS_RETURNED)
                fprintf(out, "; returned to the host at cycle %llu", (unsigned long long)(x->exited_at - 1));
        } else if (x->state == IPU_CS_EXITED && th->issue_cycles && m->functional) {
            /* -o timing=none: no barrel turns; the exit's issue step only */
            fprintf(out, ", exited at step %llu, exit status %u", (unsigned long long)(x->exited_at - 1),
                    x->exit_status);
        } else if (x->state == IPU_CS_EXITED && th->issue_cycles) {
            /* a worker issues once per barrel turn and never stalls: its first bundle was
             * 6 (bundles - 1) cycles before the exit */
            uint64_t last = x->exited_at - 1, first = last - 6 * (th->issue_cycles - 1);
            fprintf(out, " = thread cycles, tile cycles %llu-%llu, exit status %u", (unsigned long long)first,
                    (unsigned long long)last, x->exit_status);
        } else if (x->state == IPU_CS_ACTIVE) {
            fprintf(out, ", still running at pc 0x%x", x->pc);
        }
        if (x->state == IPU_CS_EXCEPTED)
            fprintf(out, "; excepted at pc 0x%x: %s, cause %u", x->pc, ipu_etype_name(x->etype), x->cause);
        fputc('\n', out);
    }
    return rc;
}
