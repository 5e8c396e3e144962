/* frontends/report.c: `xpusim report STATS.json [-o OUT.html] [--profile FILE]`, one
 * self-contained HTML page that shows where a run's cycles went: the stop and the model's
 * options, then per unit a table of its hardware threads with, for each, a stacked bar of
 * its cycles (issuing, each stall cause, the rest) drawn as inline SVG to one scale for the
 * whole run, its IPC, and the
 * legend; the groups' subtotals and the tasks when the statistics have them; with a profile (`--profile` output, callgrind format) the top functions by cycles,
 * with their cycles including their calls (when the profile has call edges), instructions
 * and each stall cause the profile charged to them.
 * No script and nothing fetched from a network: the page is complete in one file. Every
 * text from the inputs is HTML-escaped. The statistics are read with libjansson
 * (docs/stats-schema.md). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "cli.h"

#define BAR_W 480
#define TOP_FUNCS 12

static const char *const palette[] = {"#d9534f", "#f0ad4e", "#5bc0de", "#9b59b6", "#e67e22", "#1abc9c",
                                      "#34495e", "#c0392b", "#8e44ad", "#16a085", "#d35400", "#7f8c8d"};

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : 0;
}

/* One thread's bar: issue cycles, then each stall cause, then what is left (waiting,
 * not started, latency the ISA does not count as a stall). The longest thread of the run
 * fills BAR_W pixels and the others are drawn to the same scale, so a thread that finished
 * early has a shorter bar; data-cycles on each rect keeps the exact number. */
static void bar(FILE *f, const json_t *th, const json_t *names, double longest)
{
    double cycles = num(th, "cycles"), issue = num(th, "issue_cycles"), x = 0;
    fprintf(f, "<svg width=\"%d\" height=\"16\" role=\"img\">", BAR_W);
    if (cycles <= 0 || longest <= 0) {
        fprintf(f, "</svg>");
        return;
    }
    const double scale = (double)BAR_W / longest; /* pixels per cycle */
    double used = 0;
    fprintf(f, "<rect class=\"issue\" data-cycles=\"%.0f\" x=\"0\" y=\"0\" width=\"%.3f\" height=\"16\" fill=\"#5cb85c\"/>",
            issue, issue * scale);
    x += issue * scale;
    used += issue;
    size_t i;
    json_t *name;
    json_array_foreach((json_t *)names, i, name) {
        double v = num(json_object_get(th, "stalls"), json_string_value(name));
        if (v <= 0)
            continue;
        fprintf(f, "<rect class=\"stall\" data-cause=\"");
        esc(f, json_string_value(name));
        fprintf(f, "\" data-cycles=\"%.0f\" x=\"%.3f\" y=\"0\" width=\"%.3f\" height=\"16\" fill=\"%s\"/>", v, x,
                v * scale, palette[i % (sizeof palette / sizeof palette[0])]);
        x += v * scale;
        used += v;
    }
    if (used < cycles)
        fprintf(f, "<rect class=\"other\" data-cycles=\"%.0f\" x=\"%.3f\" y=\"0\" width=\"%.3f\" height=\"16\" fill=\"#cccccc\"/>",
                cycles - used, x, (cycles - used) * scale);
    fprintf(f, "</svg>");
}

/* The stall causes that appear anywhere, in first-seen order (the ISA's order). */
static json_t *cause_names(const json_t *units)
{
    json_t *names = json_array();
    size_t i, k;
    json_t *u, *th;
    json_array_foreach((json_t *)units, i, u)
        json_array_foreach(json_object_get(u, "threads"), k, th) {
            const char *key;
            json_t *v;
            json_object_foreach(json_object_get(th, "stalls"), key, v) {
                int seen = 0;
                size_t j;
                json_t *n;
                json_array_foreach(names, j, n)
                    seen |= !strcmp(json_string_value(n), key);
                if (!seen)
                    json_array_append_new(names, json_string(key));
            }
        }
    return names;
}

#define MAX_EVENTS 32

typedef struct func_total {
    char name[128];
    unsigned long long ev[MAX_EVENTS]; /* by the profile's events: Instructions, Cycles, Stall_... */
    unsigned long long call_cycles;    /* the inclusive Cycles of the calls it made */
} func_total;

/* The profile's events (names) and the functions' sums. */
typedef struct prof_table {
    char names[MAX_EVENTS][48];
    int nev, ins, cyc;          /* event count; indices of Instructions and Cycles */
    int calls;                  /* the profile has call edges */
    func_total *fn;
    int nfn;
} prof_table;

static int by_cycles(const void *a, const void *b, void *ctx)
{
    const func_total *x = a, *y = b;
    int c = *(const int *)ctx;
    return x->ev[c] < y->ev[c] ? 1 : x->ev[c] > y->ev[c] ? -1 : strcmp(x->name, y->name);
}

/* Sum a callgrind profile (xpusim's own: `events:` and `positions:` headers, fn= lines, then
 * "ADDR [LINE] EVENTS...") by function; a call's inclusive cost (the line after calls=) is
 * the callee's, not the caller's, so it is skipped. 0 ok, -1 with a message. */
static int read_profile(const char *path, prof_table *t)
{
    FILE *f = fopen(path, "r");
    memset(t, 0, sizeof *t);
    t->ins = 0;
    t->cyc = 1;
    t->nev = 2;
    if (!f) {
        fprintf(stderr, "xpusim report: %s: cannot open\n", path);
        return -1;
    }
    int cap = 0, cur = -1, line = 0, bad = 0, npos = 1, call = 0;
    char buf[1024];
    while (fgets(buf, sizeof buf, f)) {
        line++;
        buf[strcspn(buf, "\n")] = 0;
        if (!strncmp(buf, "events:", 7)) {
            t->nev = 0;
            for (char *tok = strtok(buf + 7, " \t"); tok && t->nev < MAX_EVENTS; tok = strtok(NULL, " \t")) {
                snprintf(t->names[t->nev], sizeof t->names[0], "%.47s", tok);
                if (!strcmp(tok, "Instructions"))
                    t->ins = t->nev;
                if (!strcmp(tok, "Cycles"))
                    t->cyc = t->nev;
                t->nev++;
            }
        } else if (!strncmp(buf, "positions:", 10)) {
            npos = 0;
            for (char *tok = strtok(buf + 10, " \t"); tok; tok = strtok(NULL, " \t"))
                npos++;
            if (npos < 1 || npos > 2) {
                fprintf(stderr, "xpusim report: %s:%d: expected positions: instr [line]\n", path, line);
                bad = 1;
                break;
            }
        } else if (!strncmp(buf, "calls=", 6)) {
            call = 1;
        } else if (!strncmp(buf, "fn=", 3)) {
            cur = -1;
            for (int i = 0; i < t->nfn; i++)
                if (!strcmp(t->fn[i].name, buf + 3))
                    cur = i;
            if (cur < 0) {
                if (t->nfn == cap) {
                    cap = cap ? 2 * cap : 64;
                    func_total *nv = realloc(t->fn, sizeof *nv * (size_t)cap);
                    if (!nv) {
                        fprintf(stderr, "xpusim report: out of memory\n");
                        bad = 1;
                        break;
                    }
                    t->fn = nv;
                }
                memset(&t->fn[t->nfn], 0, sizeof t->fn[0]);
                snprintf(t->fn[t->nfn].name, sizeof t->fn[0].name, "%.127s", buf + 3); /* a longer name is cut for the table */
                cur = t->nfn++;
            }
        } else if (!strncmp(buf, "0x", 2)) {
            unsigned long long v[MAX_EVENTS + 2];
            int k = 0;
            char *p = buf, *e;
            while (k < MAX_EVENTS + 2) {
                while (*p == ' ' || *p == '\t')
                    p++;
                if (!*p)
                    break;
                v[k] = strtoull(p, &e, k == 0 ? 16 : 10);
                if (e == p || (*e && *e != ' ' && *e != '\t'))
                    break;
                k++;
                p = e;
            }
            while (*p == ' ' || *p == '\t')
                p++;
            if (cur < 0 || *p || k < npos + 2) {
                fprintf(stderr, "xpusim report: %s:%d: expected ADDRESS INSTRUCTIONS CYCLES after fn=\n", path, line);
                bad = 1;
                break;
            }
            if (call) { /* the inclusive cost of the call above: the callee's, not this function's */
                call = 0;
                t->calls = 1;
                if (t->cyc + npos < k)
                    t->fn[cur].call_cycles += v[t->cyc + npos];
                continue;
            }
            for (int i = 0; i + npos < k && i < t->nev; i++)
                t->fn[cur].ev[i] += v[i + npos];
        }
    }
    fclose(f);
    if (bad) {
        free(t->fn);
        t->fn = NULL;
        return -1;
    }
    qsort_r(t->fn, (size_t)t->nfn, sizeof *t->fn, by_cycles, &t->cyc);
    return 0;
}

/* One row per group of a "groups" tree (schema 3), children below their parent, indented by
 * depth: the group's subtotals over its units. */
static void group_rows(FILE *f, const json_t *groups, const json_t *names, int depth)
{
    size_t i, k;
    json_t *g, *name;
    json_array_foreach((json_t *)groups, i, g) {
        double c = num(g, "cycles"), n = num(g, "instructions");
        fprintf(f, "<tr><td class=\"l\" style=\"padding-left:%dem\">", 1 + 2 * depth);
        esc(f, json_string_value(json_object_get(g, "path")));
        fprintf(f, "</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td>", num(g, "enabled_units"), c, n,
                num(g, "issue_cycles"));
        json_array_foreach((json_t *)names, k, name)
            fprintf(f, "<td>%.0f</td>", num(json_object_get(g, "stalls"), json_string_value(name)));
        fprintf(f, "</tr>\n");
        group_rows(f, json_object_get(g, "groups"), names, depth + 1);
    }
}

/* The groups' subtotals (machines with groups only: an IPU's tiles, CERT's columns). */
static void groups_table(FILE *f, const json_t *s, const json_t *names)
{
    const json_t *groups = json_object_get(s, "groups");
    if (!json_array_size(groups))
        return;
    fprintf(f, "<h2>Groups</h2>\n<table class=\"groups\"><tr><th class=\"l\">group</th><th>units</th><th>cycles</th>"
               "<th>instructions</th><th>issue cycles</th>");
    size_t k;
    json_t *name;
    json_array_foreach((json_t *)names, k, name) {
        fprintf(f, "<th class=\"stall\">stall: ");
        esc(f, json_string_value(name));
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    group_rows(f, groups, names, 0);
    fprintf(f, "</table>\n");
}

#define REPORT_TASKS 200 /* rows of the tasks table: a 1,472-tile run may keep 65,536 */

/* The tasks (CERT jobs, IPU vertex runs; "tasks" in docs/stats-schema.md): where each ran,
 * when, and its counts; the summaries of tasks past the kept ones as one row each. */
static void tasks_table(FILE *f, const json_t *s)
{
    const json_t *tasks = json_object_get(s, "tasks"), *units = json_object_get(s, "units");
    size_t n = json_array_size(tasks), i;
    if (!n)
        return;
    fprintf(f, "<h2>Tasks</h2>\n<table class=\"tasks\"><tr><th class=\"l\">unit</th><th>thread</th><th>#</th>"
               "<th class=\"l\">task</th><th class=\"l\">state</th><th>begin</th><th>end</th><th>cycles</th>"
               "<th>instructions</th><th>issue cycles</th></tr>\n");
    json_t *t;
    json_array_foreach((json_t *)tasks, i, t) {
        if (i == REPORT_TASKS) {
            fprintf(f, "<tr><td class=\"l\" colspan=\"10\">... %zu more (the statistics file lists them)</td></tr>\n",
                    n - i);
            break;
        }
        /* (an integer member, read as one: a hostile file's -1 or 1e300 must not be cast from a double) */
        const json_t *u = json_array_get(units, (size_t)json_integer_value(json_object_get(t, "unit")));
        fprintf(f, "<tr class=\"task\"><td class=\"l\">");
        esc(f, json_string_value(json_object_get(u, "name")));
        if (json_object_get(t, "summed"))
            fprintf(f, "</td><td></td><td></td><td class=\"l\">%.0f more tasks, summed</td><td class=\"l\"></td>",
                    num(t, "summed"));
        else {
            fprintf(f, "</td><td>%.0f</td><td>%.0f</td><td class=\"l\">", num(t, "thread"), num(t, "seq"));
            esc(f, json_string_value(json_object_get(t, "name")));
            fprintf(f, "</td><td class=\"l\">");
            esc(f, json_string_value(json_object_get(t, "state")));
            fprintf(f, "</td>");
        }
        fprintf(f, "<td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td></tr>\n", num(t, "begin"),
                num(t, "end"), num(t, "cycles"), num(t, "instructions"), num(t, "issue_cycles"));
    }
    fprintf(f, "</table>\n");
}

static void page(FILE *f, const json_t *s, const char *stats_path, const prof_table *pt)
{
    const json_t *units = json_object_get(s, "units");
    json_t *names = cause_names(units);
    double longest = 0;
    size_t ui, ti;
    json_t *uu, *tt;
    json_array_foreach((json_t *)units, ui, uu)
        json_array_foreach(json_object_get(uu, "threads"), ti, tt)
            if (num(tt, "cycles") > longest)
                longest = num(tt, "cycles");
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>xpusim report: ");
    esc(f, stats_path);
    fprintf(f, "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
               "td,th{padding:2px 8px;text-align:right}th{background:#eee}td.l,th.l{text-align:left}"
               ".key{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}.item{white-space:nowrap}"
               "</style></head><body>\n");
    fprintf(f, "<h1>Where the cycles go</h1>\n<p>");
    esc(f, stats_path);
    fprintf(f, ": stopped: ");
    esc(f, json_string_value(json_object_get(json_object_get(s, "stop"), "kind")));
    fprintf(f, " (");
    esc(f, json_string_value(json_object_get(json_object_get(s, "stop"), "message")));
    fprintf(f, "). ISA <b>");
    esc(f, json_string_value(json_object_get(s, "isa")));
    fprintf(f, "</b>, %.0f cycles, %.0f instructions, %.6g s at the model's clock.</p>\n", num(s, "cycles"),
            num(s, "instructions"), num(s, "seconds"));
    /* schema 2: a fast-forwarded run's counts are its timed part; say so and what came before */
    const json_t *ff = json_object_get(s, "fast_forward");
    if (ff) {
        fprintf(f, "<p>Fast-forward to <b>");
        esc(f, json_string_value(json_object_get(ff, "marker")));
        if (json_is_true(json_object_get(ff, "reached")))
            fprintf(f, "</b>: %.0f instructions ran functionally before it; everything on this page is the timed part "
                       "after it (cycles count from the switch).</p>\n", num(ff, "instructions"));
        else
            fprintf(f, "</b>: never reached; the whole run (%.0f instructions) was functional, so there is no timed "
                       "part.</p>\n", num(ff, "instructions"));
    }
    /* legend */
    /* each key stays with its label when the legend wraps */
    fprintf(f, "<p><span class=\"item\"><span class=\"key\" style=\"background:#5cb85c\"></span>issuing</span>");
    size_t i;
    json_t *name;
    json_array_foreach(names, i, name) {
        fprintf(f, "<span class=\"item\"><span class=\"key\" style=\"background:%s\"></span>stall: ",
                palette[i % (sizeof palette / sizeof palette[0])]);
        esc(f, json_string_value(name));
        fprintf(f, "</span>");
    }
    fprintf(f, "<span class=\"item\"><span class=\"key\" style=\"background:#cccccc\"></span>other (waiting, not started, "
               "latency)</span></p>\n");
    groups_table(f, s, names);
    json_t *u;
    json_array_foreach((json_t *)units, i, u) {
        fprintf(f, "<h2>");
        esc(f, json_string_value(json_object_get(u, "name")));
        fprintf(f, "</h2>\n<table class=\"unit\"><tr><th>thread</th><th>cycles</th><th>instructions</th><th>IPC</th>"
                   "<th class=\"l\">cycles by use</th></tr>\n");
        size_t k;
        json_t *th;
        json_array_foreach(json_object_get(u, "threads"), k, th) {
            double c = num(th, "cycles"), n = num(th, "instructions");
            fprintf(f, "<tr class=\"thread\"><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.3f</td><td class=\"l\">",
                    num(th, "index"), c, n, c > 0 ? n / c : 0.0);
            bar(f, th, names, longest);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    tasks_table(f, s);
    if (pt && pt->nfn > 0) {
        /* the stall events of the profile that any shown function has */
        int show[MAX_EVENTS] = {0};
        for (int j = 0; j < pt->nfn && j < TOP_FUNCS; j++)
            for (int e = 0; e < pt->nev; e++)
                show[e] |= !strncmp(pt->names[e], "Stall_", 6) && pt->fn[j].ev[e];
        fprintf(f, "<h2>Top functions by cycles</h2>\n<table class=\"funcs\"><tr><th class=\"l\">function</th>"
                   "<th>cycles</th>");
        if (pt->calls) /* with what it called, as callgrind_annotate --inclusive=yes */
            fprintf(f, "<th>cycles with calls</th>");
        fprintf(f, "<th>instructions</th>");
        for (int e = 0; e < pt->nev; e++)
            if (show[e]) {
                fprintf(f, "<th class=\"stall\">stall: ");
                esc(f, pt->names[e] + 6);
                fprintf(f, "</th>");
            }
        fprintf(f, "</tr>\n");
        for (int j = 0; j < pt->nfn && j < TOP_FUNCS; j++) {
            fprintf(f, "<tr><td class=\"l\">");
            esc(f, pt->fn[j].name);
            fprintf(f, "</td><td>%llu</td>", pt->fn[j].ev[pt->cyc]);
            if (pt->calls)
                fprintf(f, "<td>%llu</td>", pt->fn[j].ev[pt->cyc] + pt->fn[j].call_cycles);
            fprintf(f, "<td>%llu</td>", pt->fn[j].ev[pt->ins]);
            for (int e = 0; e < pt->nev; e++)
                if (show[e])
                    fprintf(f, "<td>%llu</td>", pt->fn[j].ev[e]);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    fprintf(f, "<h2>Model options</h2>\n<table class=\"options\">\n");
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(s, "options"), key, v) {
        fprintf(f, "<tr><td class=\"l\">");
        esc(f, key);
        fprintf(f, "</td><td class=\"l\">");
        esc(f, json_string_value(v));
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    const char *build = json_string_value(json_object_get(json_object_get(s, "host"), "xpusim"));
    if (build) { /* which simulator made these numbers */
        fprintf(f, "<p>Simulated by xpusim ");
        esc(f, build);
        fprintf(f, ".</p>\n");
    }
    fprintf(f, "</body></html>\n");
    json_decref(names);
}

int report_write(const char *stats_path, const char *profile_path, const char *out_path)
{
    json_error_t e;
    json_t *s = json_load_file(stats_path, JSON_REJECT_DUPLICATES, &e);
    if (!s) {
        fprintf(stderr, "xpusim report: %s:%d:%d: %s\n", stats_path, e.line, e.column, e.text);
        return 1;
    }
    if (!json_is_object(s) || !json_is_array(json_object_get(s, "units"))) {
        fprintf(stderr, "xpusim report: %s: not xpusim statistics (write them with --stats=json --stats-file FILE)\n",
                stats_path);
        json_decref(s);
        return 1;
    }
    prof_table pt;
    if (profile_path && read_profile(profile_path, &pt)) {
        json_decref(s);
        return 1;
    }
    FILE *f = out_path ? cli_open_out(out_path, "report -o") : stdout;
    int rc = 1;
    if (f) {
        page(f, s, stats_path, profile_path ? &pt : NULL);
        rc = out_path ? (cli_close_out(f, out_path) ? 1 : 0) : 0;
    }
    if (profile_path)
        free(pt.fn);
    json_decref(s);
    return rc;
}
