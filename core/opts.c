/* core/opts.c: the -o KEY=VALUE option list, the declared (typed) options and their
 * getters. One parser per type serves the checks before a run and the getters during it;
 * a value that does not parse, or is out of range, is reported instead of guessed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

void opt_init(sim_opts *o) { o->n = 0; }

int opt_set(sim_opts *o, const char *key, const char *val)
{
    if (strlen(key) >= sizeof o->key[0] || strlen(val) >= sizeof o->val[0] || !*key)
        return -1;
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->key[i], key) == 0) {
            strcpy(o->val[i], val);
            return 0;
        }
    if (o->n >= OPT_MAX)
        return -1;
    strcpy(o->key[o->n], key);
    strcpy(o->val[o->n], val);
    o->n++;
    return 0;
}

int opt_parse(sim_opts *o, const char *kv)
{
    const char *eq = strchr(kv, '=');
    char key[64];
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key)
        return -1;
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = 0;
    return opt_set(o, key, eq + 1);
}

const char *opt_get(const sim_opts *o, const char *key, const char *def)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->key[i], key) == 0)
            return o->val[i];
    return def;
}

int opt_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    /* decimal or 0x hex; never octal, so "010" means ten */
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    errno = 0;
    unsigned long long v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
    if (errno || *end || end == (hex ? s + 2 : s))
        return -1;
    *out = v;
    return 0;
}

/* ---- parsing a value of each type (err names the key and the value) ---- */

static int parse_uint(const char *key, const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t errlen)
{
    uint64_t v;
    if (opt_parse_u64(s, &v) || v < lo || v > hi) {
        snprintf(err, errlen, "option %s=%s: expected an integer in [%llu, %llu]", key, s, (unsigned long long)lo,
                 (unsigned long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_real(const char *key, const char *s, double lo, double hi, double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi) {
        if (lo == 0 && hi >= 1e300)
            snprintf(err, errlen, "option %s=%s: expected a non-negative number", key, s);
        else
            snprintf(err, errlen, "option %s=%s: expected a number in [%g, %g]", key, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_choice(const char *key, const char *s, const char *const *choices, char *err, size_t errlen)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(s, choices[i]) == 0)
            return i;
    int len = snprintf(err, errlen, "option %s=%s: expected one of", key, s);
    for (int i = 0; choices[i] && len > 0 && (size_t)len < errlen; i++)
        len += snprintf(err + len, errlen - (size_t)len, "%s%s", i ? "|" : " ", choices[i]);
    return -1;
}

static int parse_list(const char *key, const char *s, unsigned max, uint64_t *mask, char *err, size_t errlen)
{
    uint64_t m = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v;
        if (opt_parse_u64(tok, &v) || v >= max || max > 64) {
            snprintf(err, errlen, "option %s=%s: '%s' is not an index in [0, %u)", key, s, tok, max);
            return -1;
        }
        m |= 1ull << v;
    }
    *mask = m;
    return 0;
}

/* ---- getters with the default and range given by the caller ---- */

int opt_get_u64(const sim_opts *o, const char *key, uint64_t def, uint64_t lo, uint64_t hi,
                uint64_t *out, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    return parse_uint(key, s, lo, hi, out, err, errlen);
}

int opt_get_double(const sim_opts *o, const char *key, double def, double *out, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    return parse_real(key, s, 0, HUGE_VAL, out, err, errlen);
}

int opt_get_choice(const sim_opts *o, const char *key, const char *const *choices, int def,
                   char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    return s ? parse_choice(key, s, choices, err, errlen) : def;
}

int opt_get_list(const sim_opts *o, const char *key, uint64_t defmask, unsigned max,
                 uint64_t *mask, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *mask = defmask;
        return 0;
    }
    return parse_list(key, s, max, mask, err, errlen);
}

/* ---- declared (typed) options ---- */

const opt_desc *opt_desc_find(const opt_desc *t, const char *name)
{
    for (; t && t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

int opt_value_check(const opt_desc *d, const char *val, char *err, size_t errlen)
{
    uint64_t u;
    double r;
    switch (d->type) {
    case OPT_UINT: return parse_uint(d->name, val, d->lo, d->hi, &u, err, errlen);
    case OPT_REAL: return parse_real(d->name, val, (double)d->lo, (double)d->hi, &r, err, errlen);
    case OPT_CHOICE: return parse_choice(d->name, val, d->choices, err, errlen) < 0 ? -1 : 0;
    case OPT_LIST: return parse_list(d->name, val, (unsigned)d->hi, &u, err, errlen);
    case OPT_TEXT: return 0;
    }
    snprintf(err, errlen, "option %s: internal: unknown type %d", d->name, d->type);
    return -1;
}

void opt_describe(const opt_desc *d, char *buf, size_t n)
{
    int len = 0;
    switch (d->type) {
    case OPT_UINT:
        snprintf(buf, n, "integer %llu..%llu", (unsigned long long)d->lo, (unsigned long long)d->hi);
        return;
    case OPT_REAL:
        snprintf(buf, n, "number %llu..%llu", (unsigned long long)d->lo, (unsigned long long)d->hi);
        return;
    case OPT_CHOICE:
        buf[0] = 0;
        for (int i = 0; d->choices[i] && len >= 0 && (size_t)len < n; i++)
            len += snprintf(buf + len, n - (size_t)len, "%s%s", i ? "|" : "", d->choices[i]);
        return;
    case OPT_LIST:
        snprintf(buf, n, "list of 0..%llu", (unsigned long long)(d->hi ? d->hi - 1 : 0));
        return;
    }
    snprintf(buf, n, "text");
}

/* The value text of a declared option: given, else its default; NULL with *rc set when it is
 * undeclared (-1, err) or has neither (1). */
static const char *value_of(const sim_opts *o, const opt_desc *t, const char *name, int type, const opt_desc **d,
                            int *rc, char *err, size_t errlen)
{
    *d = opt_desc_find(t, name);
    if (!*d || (*d)->type != type) {
        snprintf(err, errlen, "option %s: internal: not declared with this type", name);
        *rc = -1;
        return NULL;
    }
    const char *s = opt_get(o, name, (*d)->def);
    *rc = s ? 0 : 1;
    return s;
}

int opt_uint(const sim_opts *o, const opt_desc *t, const char *name, uint64_t *out, char *err, size_t errlen)
{
    const opt_desc *d;
    int rc;
    const char *s = value_of(o, t, name, OPT_UINT, &d, &rc, err, errlen);
    return s ? parse_uint(name, s, d->lo, d->hi, out, err, errlen) : rc;
}

int opt_real(const sim_opts *o, const opt_desc *t, const char *name, double *out, char *err, size_t errlen)
{
    const opt_desc *d;
    int rc;
    const char *s = value_of(o, t, name, OPT_REAL, &d, &rc, err, errlen);
    return s ? parse_real(name, s, (double)d->lo, (double)d->hi, out, err, errlen) : rc;
}

int opt_choice(const sim_opts *o, const opt_desc *t, const char *name, int *out, char *err, size_t errlen)
{
    const opt_desc *d;
    int rc;
    const char *s = value_of(o, t, name, OPT_CHOICE, &d, &rc, err, errlen);
    if (!s)
        return rc;
    int i = parse_choice(name, s, d->choices, err, errlen);
    if (i < 0)
        return -1;
    *out = i;
    return 0;
}

int opt_list(const sim_opts *o, const opt_desc *t, const char *name, uint64_t *mask, char *err, size_t errlen)
{
    const opt_desc *d;
    int rc;
    const char *s = value_of(o, t, name, OPT_LIST, &d, &rc, err, errlen);
    return s ? parse_list(name, s, (unsigned)d->hi, mask, err, errlen) : rc;
}

const char *opt_text(const sim_opts *o, const opt_desc *t, const char *name)
{
    const opt_desc *d = opt_desc_find(t, name);
    return opt_get(o, name, d ? d->def : NULL);
}
