/* core/opts.h: machine options (-o KEY=VALUE).
 * A flat list of key/value strings given on the command line or by a test, and the typed
 * option declarations that give them meaning: each ISA (and the core) declares every option
 * once in an opt_desc table: name, type, range or choices, default and help. The frontend
 * checks every key and value against the table before a machine is built (a typo or an
 * out-of-range value is an error, never a silent default), the model reads its values
 * through the same table (opt_uint and friends: no second copy of a default or a range),
 * `xpusim isas` prints the table, and the statistics print the values a run used. */
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

/* A declared option. def is the default as it would be written after `-o NAME=` (NULL: the
 * model decides, and help says how, e.g. from the chip or the program). */
enum { OPT_UINT = 1, OPT_REAL, OPT_CHOICE, OPT_LIST, OPT_TEXT };
typedef struct opt_desc {
    const char *name;
    int type;                   /* OPT_* */
    const char *def;
    uint64_t lo, hi;            /* UINT, REAL: inclusive range; LIST: indices in [0, hi) */
    const char *const *choices; /* CHOICE: NULL-terminated */
    const char *help;
} opt_desc;
#define OPT_U(name, def, lo, hi, help) {name, OPT_UINT, def, lo, hi, NULL, help}
#define OPT_R(name, def, lo, hi, help) {name, OPT_REAL, def, lo, hi, NULL, help}
#define OPT_C(name, def, choices, help) {name, OPT_CHOICE, def, 0, 0, choices, help}
#define OPT_L(name, def, max, help) {name, OPT_LIST, def, 0, max, NULL, help}
#define OPT_T(name, def, help) {name, OPT_TEXT, def, 0, 0, NULL, help}
#define OPT_END {NULL, 0, NULL, 0, 0, NULL, NULL}

/* The declaration of name in t (NULL-terminated by name == NULL), or NULL. */
const opt_desc *opt_desc_find(const opt_desc *t, const char *name);
/* Does val parse as d's type, in its range? 0 yes; -1 with err "-o NAME=VAL: expected ...". */
int opt_value_check(const opt_desc *d, const char *val, char *err, size_t errlen);
/* "integer 1..16", "number 0..1000", "v1a|v1b", "list of 0..3", "text" */
void opt_describe(const opt_desc *d, char *buf, size_t n);
/* The value of declared option name in o (given, else the declared default). 0 ok; 1 when
 * it is neither given nor has a default (*out untouched: the model decides); -1 err (not
 * declared, or a value that does not parse or is out of range). */
int opt_uint(const sim_opts *o, const opt_desc *t, const char *name, uint64_t *out, char *err, size_t errlen);
int opt_real(const sim_opts *o, const opt_desc *t, const char *name, double *out, char *err, size_t errlen);
/* CHOICE: *out is the index in choices. */
int opt_choice(const sim_opts *o, const opt_desc *t, const char *name, int *out, char *err, size_t errlen);
int opt_list(const sim_opts *o, const opt_desc *t, const char *name, uint64_t *mask, char *err, size_t errlen);
/* TEXT (or any type, as written): the given value, else the default (may be NULL). */
const char *opt_text(const sim_opts *o, const opt_desc *t, const char *name);

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
