/* core/opts.h: machine options (-o KEY=VALUE).
 * A flat list of key/value strings given on the command line or by a test. Each ISA declares
 * the keys it understands (isa_option tables); the frontend rejects unknown keys before a
 * machine is built, so a typo never silently falls back to a default. */
#ifndef XPUSIM_OPTS_H
#define XPUSIM_OPTS_H
#include <stdint.h>
#include <stddef.h>

#define OPT_MAX 64
typedef struct sim_opts {
    int n;
    char key[OPT_MAX][32];
    char val[OPT_MAX][128];
} sim_opts;

void opt_init(sim_opts *o);
/* "key=value"; later settings of a key replace earlier ones. 0 ok, -1 malformed or full. */
int opt_parse(sim_opts *o, const char *kv);
int opt_set(sim_opts *o, const char *key, const char *val);
/* Parse a whole string as decimal or 0x hex (never octal); -1 if malformed. */
int opt_parse_u64(const char *s, uint64_t *out);
const char *opt_get(const sim_opts *o, const char *key, const char *def);
/* Integer option (decimal or 0x hex). Returns 0 ok, -1 if present but not an integer in
 * [lo, hi]; *out gets def when the key is absent. err gets a readable message. */
int opt_get_u64(const sim_opts *o, const char *key, uint64_t def, uint64_t lo, uint64_t hi,
                uint64_t *out, char *err, size_t errlen);
int opt_get_double(const sim_opts *o, const char *key, double def, double *out, char *err, size_t errlen);
/* Choice among a NULL-terminated list; returns the index or -1 (err filled). */
int opt_get_choice(const sim_opts *o, const char *key, const char *const *choices, int def,
                   char *err, size_t errlen);
/* Comma-separated list of integers in [0, max): sets bits in *mask. -1 on error. */
int opt_get_list(const sim_opts *o, const char *key, uint64_t defmask, unsigned max,
                 uint64_t *mask, char *err, size_t errlen);

#endif
