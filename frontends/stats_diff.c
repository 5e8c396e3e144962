/* frontends/stats_diff.c: `xpusim stats diff A.json B.json`, what changed between two runs'
 * JSON statistics (docs/stats-schema.md): the model options that differ, then every count
 * that differs (machine totals, each unit's cycles, instructions and counters, each
 * thread's cycles, instructions, issue cycles and stalls by cause) with its change and
 * percentage, then each group's subtotals (schema 3's "groups", by path) and each task's
 * counts ("tasks", by unit, thread and number). Units are matched by name and threads by
 * index, so runs with other options still compare; after a fast-forward (schema 2) the functional parts are compared first and
 * the counts are the timed parts'. Host timings are left out: they are not simulated results. Exit status as
 * diff(1): 0 identical, 1 differences, 2 trouble. The JSON is read with jansson (Debian's
 * libjansson: a well-kept parser with line and column in its errors, rather than ours). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "stats_diff.h"

typedef struct diff_ctx {
    FILE *out;
    int changes;
} diff_ctx;

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        fprintf(stderr, "xpusim stats diff: %s:%d:%d: %s\n", path, e.line, e.column, e.text);
        return NULL;
    }
    if (!json_is_object(j) || !json_is_string(json_object_get(j, "isa")) || !json_is_array(json_object_get(j, "units"))) {
        fprintf(stderr, "xpusim stats diff: %s: not xpusim statistics (no \"isa\" and \"units\"; write them with "
                        "--stats=json --stats-file FILE)\n", path);
        json_decref(j);
        return NULL;
    }
    return j;
}

/* A number of the statistics as a double (integers are exact up to 2^53 cycles). */
static int number(const json_t *v, double *out)
{
    if (!json_is_number(v))
        return 0;
    *out = json_number_value(v);
    return 1;
}

/* One count: printed only when it differs (or is missing on one side). */
static void count(diff_ctx *d, const char *indent, const char *name, const json_t *a, const json_t *b)
{
    double x, y;
    int ha = number(a, &x), hb = number(b, &y);
    if (!ha && !hb)
        return;
    if (ha != hb) {
        d->changes++;
        fprintf(d->out, "%s%s: only in %s\n", indent, name, ha ? "A" : "B");
        return;
    }
    if (x == y)
        return;
    d->changes++;
    fprintf(d->out, "%s%s: %.15g -> %.15g (%+.15g", indent, name, x, y, y - x);
    if (x != 0)
        fprintf(d->out, ", %+.2f%%", (y - x) / x * 100.0);
    fprintf(d->out, ")\n");
}

/* Every numeric member of two objects (counters, stalls), in A's order, then B's extras. */
static void counts_of(diff_ctx *d, const char *indent, const char *prefix, const json_t *a, const json_t *b)
{
    const char *k;
    json_t *v;
    char name[160];
    json_object_foreach((json_t *)a, k, v) {
        snprintf(name, sizeof name, "%s%s", prefix, k);
        count(d, indent, name, v, json_object_get(b, k));
    }
    json_object_foreach((json_t *)b, k, v) {
        if (json_object_get(a, k))
            continue;
        snprintf(name, sizeof name, "%s%s", prefix, k);
        count(d, indent, name, NULL, v);
    }
}

static const json_t *find_by(const json_t *arr, const char *key, const json_t *want)
{
    size_t i;
    json_t *e;
    json_array_foreach((json_t *)arr, i, e)
        if (json_equal(json_object_get(e, key), (json_t *)want))
            return e;
    return NULL;
}

static void thread_diff(diff_ctx *d, const json_t *ta, const json_t *tb)
{
    static const char *const fields[] = {"cycles", "instructions", "issue_cycles", NULL};
    char head[64];
    snprintf(head, sizeof head, "    thread %lld ", (long long)json_integer_value(json_object_get(ta, "index")));
    for (int i = 0; fields[i]; i++)
        count(d, head, fields[i], json_object_get(ta, fields[i]), json_object_get(tb, fields[i]));
    counts_of(d, head, "stall ", json_object_get(ta, "stalls"), json_object_get(tb, "stalls"));
    counts_of(d, head, "", json_object_get(ta, "counters"), json_object_get(tb, "counters"));
}

static void unit_diff(diff_ctx *d, const json_t *ua, const json_t *ub)
{
    const char *name = json_string_value(json_object_get(ua, "name"));
    char head[96];
    snprintf(head, sizeof head, "  %s ", name ? name : "?");
    count(d, head, "cycles", json_object_get(ua, "cycles"), json_object_get(ub, "cycles"));
    count(d, head, "instructions", json_object_get(ua, "instructions"), json_object_get(ub, "instructions"));
    counts_of(d, head, "counter ", json_object_get(ua, "counters"), json_object_get(ub, "counters"));
    size_t i;
    json_t *ta;
    json_array_foreach(json_object_get(ua, "threads"), i, ta) {
        const json_t *tb = find_by(json_object_get(ub, "threads"), "index", json_object_get(ta, "index"));
        if (tb)
            thread_diff(d, ta, tb);
        else {
            d->changes++;
            fprintf(d->out, "%sthread %lld: only in A\n", head, (long long)json_integer_value(json_object_get(ta, "index")));
        }
    }
    json_array_foreach(json_object_get(ub, "threads"), i, ta)
        if (!find_by(json_object_get(ua, "threads"), "index", json_object_get(ta, "index"))) {
            d->changes++;
            fprintf(d->out, "%sthread %lld: only in B\n", head, (long long)json_integer_value(json_object_get(ta, "index")));
        }
}

static void options_diff(diff_ctx *d, const json_t *a, const json_t *b)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)a, k, v) {
        const json_t *w = json_object_get(b, k);
        const char *x = json_string_value(v), *y = json_string_value(w);
        if (!w || !x || !y || strcmp(x, y)) {
            d->changes++;
            fprintf(d->out, "  option %s: %s -> %s\n", k, x ? x : "?", y ? y : "(not set)");
        }
    }
    json_object_foreach((json_t *)b, k, v) {
        if (!json_object_get(a, k)) {
            d->changes++;
            fprintf(d->out, "  option %s: (not set) -> %s\n", k, json_string_value(v) ? json_string_value(v) : "?");
        }
    }
}

/* The functional parts of fast-forwarded runs (schema 2's "fast_forward"; a schema 1 file,
 * or a run without one, has none): the marker, whether it was reached, the switch and the
 * functional instructions, in all and per unit. */
static void ff_diff(diff_ctx *d, const json_t *a, const json_t *b)
{
    const json_t *fa = json_object_get(a, "fast_forward"), *fb = json_object_get(b, "fast_forward");
    if (!fa && !fb)
        return;
    if (!fa || !fb) {
        const char *mk = json_string_value(json_object_get(fa ? fa : fb, "marker"));
        d->changes++;
        fprintf(d->out, "  fast-forward (to %s): only in %s; the counts below are its timed part\n", mk ? mk : "?",
                fa ? "A" : "B");
        return;
    }
    const json_t *ma = json_object_get(fa, "marker"), *mb = json_object_get(fb, "marker");
    if (!json_equal((json_t *)ma, (json_t *)mb)) {
        d->changes++;
        fprintf(d->out, "  fast-forward marker: %s -> %s\n", json_string_value(ma) ? json_string_value(ma) : "?",
                json_string_value(mb) ? json_string_value(mb) : "?");
    }
    const json_t *ra = json_object_get(fa, "reached"), *rb = json_object_get(fb, "reached");
    if (!json_equal((json_t *)ra, (json_t *)rb)) {
        d->changes++;
        fprintf(d->out, "  fast-forward reached: %s -> %s\n", json_is_true(ra) ? "yes" : "no", json_is_true(rb) ? "yes" : "no");
    }
    count(d, "  fast-forward ", "switch_cycle", json_object_get(fa, "switch_cycle"), json_object_get(fb, "switch_cycle"));
    count(d, "  fast-forward ", "instructions", json_object_get(fa, "instructions"), json_object_get(fb, "instructions"));
    size_t i;
    json_t *ua;
    json_array_foreach(json_object_get(fa, "units"), i, ua) {
        const json_t *ub = find_by(json_object_get(fb, "units"), "name", json_object_get(ua, "name"));
        char head[96];
        const char *name = json_string_value(json_object_get(ua, "name"));
        snprintf(head, sizeof head, "  fast-forward %s ", name ? name : "?");
        if (ub)
            count(d, head, "instructions", json_object_get(ua, "instructions"), json_object_get(ub, "instructions"));
    }
}

/* The group at path in a "groups" tree (schema 3), or NULL. */
static const json_t *group_find(const json_t *groups, const char *path)
{
    size_t i;
    json_t *g;
    json_array_foreach((json_t *)groups, i, g) {
        const char *p = json_string_value(json_object_get(g, "path"));
        if (p && !strcmp(p, path))
            return g;
        const json_t *in = group_find(json_object_get(g, "groups"), path);
        if (in)
            return in;
    }
    return NULL;
}

/* Each group of A's tree against B's group of the same path (its subtotals: cycles,
 * instructions, issue cycles, stalls, counters), then the groups of B only (other_only). */
static void groups_diff(diff_ctx *d, const json_t *ga, const json_t *gb_all, int other_only, const char *side)
{
    static const char *const fields[] = {"enabled_units", "cycles", "instructions", "issue_cycles", NULL};
    size_t i;
    json_t *g;
    json_array_foreach((json_t *)ga, i, g) {
        const char *path = json_string_value(json_object_get(g, "path"));
        const json_t *h = path ? group_find(gb_all, path) : NULL;
        char head[96];
        snprintf(head, sizeof head, "  group %s ", path ? path : "?");
        if (!h) {
            d->changes++;
            fprintf(d->out, "  group %s: only in %s\n", path ? path : "?", side);
        } else if (!other_only) {
            for (int k = 0; fields[k]; k++)
                count(d, head, fields[k], json_object_get(g, fields[k]), json_object_get(h, fields[k]));
            counts_of(d, head, "stall ", json_object_get(g, "stalls"), json_object_get(h, "stalls"));
            counts_of(d, head, "counter ", json_object_get(g, "counters"), json_object_get(h, "counters"));
        }
        groups_diff(d, json_object_get(g, "groups"), gb_all, other_only, side);
    }
}

/* A task's key: "UNIT.THREAD #SEQ" (its unit by name, so runs with other units still
 * compare), or "UNIT summary" for the sum of a unit's tasks past the kept ones. */
static void task_key(const json_t *root, const json_t *t, char *buf, size_t n)
{
    const json_t *u = json_array_get(json_object_get(root, "units"), (size_t)json_integer_value(json_object_get(t, "unit")));
    const char *name = json_string_value(json_object_get(u, "name"));
    if (json_object_get(t, "summed"))
        snprintf(buf, n, "%s summary", name ? name : "?");
    else
        snprintf(buf, n, "%s.%lld #%lld", name ? name : "?", (long long)json_integer_value(json_object_get(t, "thread")),
                 (long long)json_integer_value(json_object_get(t, "seq")));
}

static const json_t *task_find(const json_t *root, const char *key)
{
    size_t i;
    json_t *t;
    char k[160];
    json_array_foreach(json_object_get(root, "tasks"), i, t) {
        task_key(root, t, k, sizeof k);
        if (!strcmp(k, key))
            return t;
    }
    return NULL;
}

/* The tasks (CERT jobs, IPU vertex runs; docs/stats-schema.md "tasks"), matched by unit,
 * thread and number: what they are (name, state) and their counts. */
static void tasks_diff(diff_ctx *d, const json_t *a, const json_t *b)
{
    static const char *const fields[] = {"summed", "begin", "end", "cycles", "instructions", "issue_cycles", NULL};
    size_t i;
    json_t *t;
    char key[160], head[200];
    json_array_foreach(json_object_get(a, "tasks"), i, t) {
        task_key(a, t, key, sizeof key);
        const json_t *o = task_find(b, key);
        if (!o) {
            d->changes++;
            fprintf(d->out, "  task %s: only in A\n", key);
            continue;
        }
        const char *na = json_string_value(json_object_get(t, "name")), *nb = json_string_value(json_object_get(o, "name"));
        snprintf(head, sizeof head, "  task %s (%s) ", key, na ? na : "summary");
        if ((na || nb) && (!na || !nb || strcmp(na, nb))) {
            d->changes++;
            fprintf(d->out, "%sname: %s -> %s\n", head, na ? na : "?", nb ? nb : "?");
        }
        const char *sa = json_string_value(json_object_get(t, "state")), *sb = json_string_value(json_object_get(o, "state"));
        if ((sa || sb) && (!sa || !sb || strcmp(sa, sb))) {
            d->changes++;
            fprintf(d->out, "%sstate: %s -> %s\n", head, sa ? sa : "?", sb ? sb : "?");
        }
        for (int k = 0; fields[k]; k++)
            count(d, head, fields[k], json_object_get(t, fields[k]), json_object_get(o, fields[k]));
        counts_of(d, head, "stall ", json_object_get(t, "stalls"), json_object_get(o, "stalls"));
        counts_of(d, head, "counter ", json_object_get(t, "counters"), json_object_get(o, "counters"));
    }
    json_array_foreach(json_object_get(b, "tasks"), i, t) {
        task_key(b, t, key, sizeof key);
        if (!task_find(a, key)) {
            d->changes++;
            fprintf(d->out, "  task %s: only in B\n", key);
        }
    }
}

int stats_diff_files(const char *pa, const char *pb, FILE *out)
{
    json_t *a = load(pa), *b = a ? load(pb) : NULL;
    if (!a || !b) {
        json_decref(a);
        return 2;
    }
    const char *ia = json_string_value(json_object_get(a, "isa")), *ib = json_string_value(json_object_get(b, "isa"));
    if (strcmp(ia, ib)) {
        fprintf(stderr, "xpusim stats diff: %s is a %s run and %s a %s run: nothing to compare\n", pa, ia, pb, ib);
        json_decref(a);
        json_decref(b);
        return 2;
    }
    diff_ctx d = {out, 0};
    fprintf(out, "stats diff (%s): A = %s, B = %s\n", ia, pa, pb);
    /* the simulator that made each file (host.xpusim; older files have none): a note, not
     * a difference of the runs, but a count that moved may have moved for that reason */
    const char *va = json_string_value(json_object_get(json_object_get(a, "host"), "xpusim"));
    const char *vb = json_string_value(json_object_get(json_object_get(b, "host"), "xpusim"));
    if (va && vb && strcmp(va, vb))
        fprintf(out, "  note: made by xpusim %s (A) and %s (B)\n", va, vb);
    options_diff(&d, json_object_get(a, "options"), json_object_get(b, "options"));
    const json_t *sa = json_object_get(json_object_get(a, "stop"), "kind");
    const json_t *sb = json_object_get(json_object_get(b, "stop"), "kind");
    if (!json_equal((json_t *)sa, (json_t *)sb)) {
        d.changes++;
        fprintf(out, "  stop: %s -> %s\n", json_string_value(sa) ? json_string_value(sa) : "?",
                json_string_value(sb) ? json_string_value(sb) : "?");
    }
    ff_diff(&d, a, b);
    count(&d, "  ", "cycles", json_object_get(a, "cycles"), json_object_get(b, "cycles"));
    count(&d, "  ", "instructions", json_object_get(a, "instructions"), json_object_get(b, "instructions"));
    size_t i;
    json_t *ua;
    json_array_foreach(json_object_get(a, "units"), i, ua) {
        const json_t *ub = find_by(json_object_get(b, "units"), "name", json_object_get(ua, "name"));
        if (ub)
            unit_diff(&d, ua, ub);
        else {
            d.changes++;
            fprintf(out, "  %s: only in A\n", json_string_value(json_object_get(ua, "name")));
        }
    }
    json_array_foreach(json_object_get(b, "units"), i, ua)
        if (!find_by(json_object_get(a, "units"), "name", json_object_get(ua, "name"))) {
            d.changes++;
            fprintf(out, "  %s: only in B\n", json_string_value(json_object_get(ua, "name")));
        }
    groups_diff(&d, json_object_get(a, "groups"), json_object_get(b, "groups"), 0, "A");
    groups_diff(&d, json_object_get(b, "groups"), json_object_get(a, "groups"), 1, "B");
    tasks_diff(&d, a, b);
    if (!d.changes)
        fprintf(out, "  no differences (host timings are not compared)\n");
    json_decref(a);
    json_decref(b);
    return d.changes ? 1 : 0;
}
