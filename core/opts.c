/* core/opts.c: the -o KEY=VALUE option list and its typed getters. Getters report a value
 * that does not parse, or is out of range, instead of guessing. */
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

int opt_get_u64(const sim_opts *o, const char *key, uint64_t def, uint64_t lo, uint64_t hi,
                uint64_t *out, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    uint64_t v;
    if (opt_parse_u64(s, &v) || v < lo || v > hi) {
        snprintf(err, errlen, "option %s=%s: expected an integer in [%llu, %llu]", key, s,
                 (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

int opt_get_double(const sim_opts *o, const char *key, double def, double *out, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0) {
        snprintf(err, errlen, "option %s=%s: expected a non-negative number", key, s);
        return -1;
    }
    *out = v;
    return 0;
}

int opt_get_choice(const sim_opts *o, const char *key, const char *const *choices, int def,
                   char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s)
        return def;
    for (int i = 0; choices[i]; i++)
        if (strcmp(s, choices[i]) == 0)
            return i;
    int len = snprintf(err, errlen, "option %s=%s: expected one of", key, s);
    for (int i = 0; choices[i] && len > 0 && (size_t)len < errlen; i++)
        len += snprintf(err + len, errlen - (size_t)len, "%s%s", i ? "|" : " ", choices[i]);
    return -1;
}

int opt_get_list(const sim_opts *o, const char *key, uint64_t defmask, unsigned max,
                 uint64_t *mask, char *err, size_t errlen)
{
    const char *s = opt_get(o, key, NULL);
    if (!s) {
        *mask = defmask;
        return 0;
    }
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
