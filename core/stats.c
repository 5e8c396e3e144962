/* core/stats.c: text and JSON statistics, read from the counters the machine keeps.
 * Thread and unit "cycles" are the cycles from the start to their halt (or to the end of the
 * run if still active); "seconds" converts with the unit's clock. After a fast-forward
 * (m->ff, sim_ff_switch) every count is the timed part's: the counter minus its value at the
 * switch, cycles from the switch; the functional part is reported apart (its instructions
 * per unit and thread), so the region of interest reads like a run of its own. A machine
 * with groups (sim_add_group) also gets each group's subtotals over its units and its
 * descendants' (text: "group PATH:" lines after the units; JSON: the "groups" tree). */
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "file.h"
#include "stats.h"
#include "task.h"
#include "../isa/isa.h"

/* The machine's end (sim_end_cycle, in ticks) in u's own cycles: those begun by then
 * (core/clock.h; on a machine of one clock ticks are cycles). */
static uint64_t unit_at_end(const sim_machine *m, const sim_unit *u)
{
    uint64_t e = sim_end_cycle(m);
    return u->period > 1 ? e / u->period : e;
}

static uint64_t unit_thread_cycles(const sim_machine *m, const sim_unit *u, const sim_thread *t)
{
    return t->state == SIM_T_HALTED ? t->halted_at : (t->started ? unit_at_end(m, u) : 0);
}

uint64_t stats_thread_cycles(const sim_machine *m, const sim_thread *t)
{
    const sim_unit *u = NULL; /* the thread's unit, for its clock (found only with several) */
    for (int i = 0; m->max_period > 1 && i < m->nunits && !u; i++)
        if (t >= m->units[i].threads && t < m->units[i].threads + m->units[i].nthreads)
            u = &m->units[i];
    if (!u)
        return t->state == SIM_T_HALTED ? t->halted_at : (t->started ? sim_end_cycle(m) : 0);
    return unit_thread_cycles(m, u, t);
}

uint64_t stats_unit_cycles(const sim_machine *m, const sim_unit *u)
{
    return u->halted ? u->halted_at : (u->enabled ? unit_at_end(m, u) : 0);
}

static uint64_t minus(uint64_t v, uint64_t base) { return v > base ? v - base : 0; }
/* the switch of a fast-forward in machine ticks (0 without one); a unit's own counts use
 * its own cycle of the switch (sim_ff_unit_cycle) */
static uint64_t ff_base(const sim_machine *m) { return m->ff ? m->ff->cycle : 0; }
/* the functional part's copy of unit i's thread t, NULL without a fast-forward */
static const sim_thread *ff_thread(const sim_machine *m, int i, int t)
{
    return m->ff ? &m->ff->units[i].threads[t] : NULL;
}

static uint64_t unit_insns(const sim_machine *m, int i)
{
    const sim_unit *u = &m->units[i];
    uint64_t n = 0;
    for (int t = 0; t < u->nthreads; t++)
        n += u->threads[t].instructions;
    return minus(n, m->ff ? m->ff->units[i].instructions : 0);
}

/* The timed part's counts of a thread (all of them without a fast-forward). */
typedef struct th_view {
    uint64_t cycles, instructions, issue_cycles, halted_at;
    uint64_t stalls[SIM_MAX_STALLS];
} th_view;

static th_view thread_view(const sim_machine *m, int i, int t)
{
    const sim_thread *th = &m->units[i].threads[t], *f = ff_thread(m, i, t);
    uint64_t b = sim_ff_unit_cycle(m, &m->units[i]);
    th_view v = {minus(unit_thread_cycles(m, &m->units[i], th), b), minus(th->instructions, f ? f->instructions : 0),
                 minus(th->issue_cycles, f ? f->issue_cycles : 0), minus(th->halted_at, b), {0}};
    for (int s = 0; s < SIM_MAX_STALLS; s++)
        v.stalls[s] = minus(th->stalls[s], f ? f->stalls[s] : 0);
    return v;
}

static uint64_t unit_counter(const sim_machine *m, int i, int c)
{
    return minus(m->units[i].counters[c].value, m->ff ? m->ff->units[i].counters[c] : 0);
}

static uint64_t thread_counter(const sim_machine *m, int i, int t, int k)
{
    const sim_unit *u = &m->units[i];
    size_t at = (size_t)t * (size_t)u->nthread_counters + (size_t)k;
    return minus(u->thread_counters[at], m->ff ? m->ff->units[i].thread_counters[at] : 0);
}

static uint64_t run_cycles(const sim_machine *m) { return minus(sim_end_cycle(m), ff_base(m)); }
static uint64_t run_insns(const sim_machine *m)
{
    return minus(sim_total_instructions(m), m->ff ? m->ff->instructions : 0);
}

/* The machine's time base: its clock, or with units of several clocks the ticks' rate
 * (core/clock.h): the machine's "cycles" are then ticks, each unit's its own cycles. */
static double machine_clock(const sim_machine *m)
{
    return m->tick_hz > 0 ? m->tick_hz : m->nunits ? m->units[0].clock_hz : 0;
}

void stats_write_speed(const sim_machine *m, FILE *f)
{
    double s = m->host_seconds > 1e-9 ? m->host_seconds : 1e-9;
    fprintf(f, "host: %.3f s, %.2f MIPS, %.2f Mcycles/s\n", m->host_seconds,
            (double)sim_total_instructions(m) / s / 1e6, (double)sim_end_cycle(m) / s / 1e6);
}

/* The model's options as this run used them (given, or the default), so that every cycle
 * count names its assumptions. `jobs` is left out: it changes host threads, not results. */

static void write_options(const sim_machine *m, FILE *f, int json)
{
    char wd[32], buf[64];
    snprintf(wd, sizeof wd, "%llu", (unsigned long long)m->watchdog);
    /* timing=none only when the counts are functional (issue steps, not time): a cycle-model
     * run lists what it always did */
    const opt_desc core_model[] = {OPT_T("watchdog", wd, ""), OPT_T("timing", "none", ""), OPT_END};
    const opt_desc *core_end = m->functional ? NULL : &core_model[1];
    const opt_desc *tables[2] = {m->isa->options, core_model};
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (const opt_desc *o = tables[k]; o && o->name && o != core_end; o++) {
            const char *v = k == 0 && m->isa->option_value ? m->isa->option_value(m, o->name, buf, sizeof buf) : NULL;
            if (!v)
                v = k == 1 ? o->def : opt_get(&m->opts, o->name, o->def);
            if (json) {
                fprintf(f, "%s", n ? ", " : "");
                file_json_str(f, o->name);
                fprintf(f, ": ");
                file_json_str(f, v ? v : "");
            } else
                fprintf(f, "%s%s=%s", n ? " " : "", o->name, v ? v : "");
            n++;
        }
}

/* The functional part of a fast-forward, in text: the marker, the switch, and the
 * instructions per unit and thread. */
static void ff_write_text(const sim_machine *m, FILE *f)
{
    const sim_ff_part *p = m->ff;
    fprintf(f, "fast-forward to %s: %s; functional part: %llu instructions, %llu issue steps\n", p->marker,
            p->reached ? "reached, the counts below are the timed part's (from the switch)"
                       : "NOT reached, the whole run was functional (no timed part)",
            (unsigned long long)p->instructions, (unsigned long long)p->cycle);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled)
            continue;
        fprintf(f, "  functional %s: instructions %llu%s", u->name, (unsigned long long)p->units[i].instructions,
                p->units[i].halted ? " (halted)" : "");
        int last = u->nthreads - 1; /* threads that never ran (DPU tasklets above NR_TASKLETS) left out */
        while (last > 0 && !p->units[i].threads[last].instructions)
            last--;
        if (u->nthreads > 1) {
            fprintf(f, ", by thread");
            for (int t = 0; t <= last; t++)
                fprintf(f, " %llu", (unsigned long long)p->units[i].threads[t].instructions);
        }
        fputc('\n', f);
    }
}

/* A group's subtotals over the enabled units in it and in its descendants, from the same
 * timed views as the units' lines (so they add up to them): cycles is the last unit's end,
 * the rest are sums. Counters add up by name, those of the group's first unit. */
typedef struct grp_view {
    int units, first;       /* enabled units counted; the first one (-1: none) */
    uint64_t cycles, instructions, issue_cycles;
    uint64_t stalls[SIM_MAX_STALLS];
} grp_view;

static grp_view group_view(const sim_machine *m, int g)
{
    grp_view v = {0, -1, 0, 0, 0, {0}};
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled || !sim_unit_in_group(m, i, g))
            continue;
        if (v.first < 0)
            v.first = i;
        v.units++;
        uint64_t uc = minus(stats_unit_cycles(m, u), sim_ff_unit_cycle(m, u));
        v.cycles = uc > v.cycles ? uc : v.cycles;
        v.instructions += unit_insns(m, i);
        for (int t = 0; t < u->nthreads; t++) {
            th_view tv = thread_view(m, i, t);
            v.issue_cycles += tv.issue_cycles;
            for (int s = 0; s < SIM_MAX_STALLS; s++)
                v.stalls[s] += tv.stalls[s];
        }
    }
    return v;
}

/* Counter c of the group's first unit, summed over the group's units that count it. */
static uint64_t group_counter(const sim_machine *m, int g, const grp_view *v, int c)
{
    const char *name = m->units[v->first].counters[c].name;
    uint64_t n = 0;
    for (int i = v->first; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled || !sim_unit_in_group(m, i, g))
            continue;
        for (int k = 0; k < u->ncounters; k++)
            if (u->counters[k].name == name || !strcmp(u->counters[k].name, name)) {
                n += unit_counter(m, i, k);
                break;
            }
    }
    return n;
}

static void group_write_text(const sim_machine *m, FILE *f, int g)
{
    const char *const *stalls = m->isa->stall_names;
    const sim_group *gr = &m->groups[g];
    char path[256];
    grp_view v = group_view(m, g);
    fprintf(f, "%*sgroup %s: units %d", 2 * gr->depth, "", sim_group_path(m, g, path, sizeof path), v.units);
    if (gr->threads) /* a group of groups has no units of its own */
        fprintf(f, " (%d threads each, %.0f MHz)", gr->threads, gr->clock_hz / 1e6);
    fprintf(f, ", cycles %llu", (unsigned long long)v.cycles);
    if (gr->clock_hz > 0)
        fprintf(f, " (%.6f s)", (double)v.cycles / gr->clock_hz);
    fprintf(f, ", instructions %llu, issue cycles %llu", (unsigned long long)v.instructions,
            (unsigned long long)v.issue_cycles);
    file_text_counts(f, ", stall ", stalls, v.stalls, SIM_MAX_STALLS);
    fputc('\n', f);
    for (int c = 0; v.first >= 0 && c < m->units[v.first].ncounters; c++)
        fprintf(f, "%*s  %s: %llu\n", 2 * gr->depth, "", m->units[v.first].counters[c].name,
                (unsigned long long)group_counter(m, g, &v, c));
    for (int k = g + 1; k < m->ngroups; k++) /* children come after their parent */
        if (m->groups[k].parent == g)
            group_write_text(m, f, k);
}

/* Unit i's lines of the text statistics. */
static void unit_write_text(const sim_machine *m, FILE *f, int i)
{
    const char *const *stalls = m->isa->stall_names;
    const sim_unit *u = &m->units[i];
    if (!u->enabled) {
        fprintf(f, "%s: disabled\n", u->name);
        return;
    }
    uint64_t ub = sim_ff_unit_cycle(m, u), ui = unit_insns(m, i), uc = minus(stats_unit_cycles(m, u), ub);
    fprintf(f, "%s: cycles %llu, instructions %llu, IPC %.3f, %s", u->name, (unsigned long long)uc,
            (unsigned long long)ui, uc ? (double)ui / (double)uc : 0.0, u->halted ? "halted at " : "running");
    if (u->halted)
        fprintf(f, "%llu", (unsigned long long)minus(u->halted_at, ub));
    fputc('\n', f);
    file_line l = {.f = f}; /* the lines of thousands of units: see file.h */
    for (int c = 0; c < u->ncounters; c++) {
        file_line_put(&l, "  ");
        file_line_put(&l, u->counters[c].name);
        file_line_put(&l, ": ");
        file_line_u64(&l, unit_counter(m, i, c));
        file_line_put(&l, "\n");
    }
    if (u->nthreads == 1 && !stalls) {
        file_line_flush(&l);
        return;
    }
    for (int t = 0; t < u->nthreads; t++) {
        const sim_thread *th = &u->threads[t];
        if (!th->started && !th->instructions)
            continue;
        th_view v = thread_view(m, i, t);
        file_line_put(&l, "  thread ");
        file_line_u64(&l, (uint64_t)t);
        file_line_put(&l, ": cycles ");
        file_line_u64(&l, v.cycles);
        file_line_put(&l, ", instructions ");
        file_line_u64(&l, v.instructions);
        file_line_put(&l, ", issue cycles ");
        file_line_u64(&l, v.issue_cycles);
        if (th->state == SIM_T_HALTED) {
            file_line_put(&l, ", halted at ");
            file_line_u64(&l, v.halted_at);
        }
        file_line_counts(&l, ", stall ", stalls, v.stalls, SIM_MAX_STALLS);
        for (int k = 0; k < u->nthread_counters; k++)
            if (thread_counter(m, i, t, k)) {
                file_line_put(&l, ", ");
                file_line_put(&l, u->thread_counter_names[k]);
                file_line_put(&l, " ");
                file_line_u64(&l, thread_counter(m, i, t, k));
            }
        file_line_put(&l, "\n");
    }
    file_line_flush(&l);
}

/* The units' lines of the text statistics, on -o jobs=N host threads for a machine of many
 * units (2,560 DPUs: ~50,000 lines, written after the parallel part of the run, issue 9
 * pt 5): each thread writes slices of units into memory, this one writes the slices in
 * order, so the text is the one a single thread writes. */
#define STATS_PAR_MIN 256 /* units below which one thread writes them all */
#define STATS_SLICE 64    /* units per slice */
typedef struct {
    const sim_machine *m;
    char **text;
    size_t *len;
} stats_slices;

static int slice_text(void *ctx, int k, char *err, size_t errlen)
{
    const stats_slices *sl = ctx;
    FILE *f = open_memstream(&sl->text[k], &sl->len[k]);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int end = (k + 1) * STATS_SLICE < sl->m->nunits ? (k + 1) * STATS_SLICE : sl->m->nunits;
    for (int i = k * STATS_SLICE; i < end; i++)
        unit_write_text(sl->m, f, i);
    return fclose(f) ? -1 : 0;
}

static void units_write_text(const sim_machine *m, FILE *f)
{
    int n = (m->nunits + STATS_SLICE - 1) / STATS_SLICE;
    stats_slices sl = {m, NULL, NULL};
    if (m->jobs > 1 && m->nunits >= STATS_PAR_MIN) {
        sl.text = calloc((size_t)n, sizeof *sl.text);
        sl.len = calloc((size_t)n, sizeof *sl.len);
    }
    char err[64];
    if (sl.text && sl.len && !sim_par_for(m, 0, n, slice_text, &sl, err, sizeof err)) {
        for (int k = 0; k < n; k++)
            fwrite(sl.text[k], 1, sl.len[k], f); /* (a failed write: the stream's error, file_close_out) */
    } else { /* one thread (or no memory for the slices) */
        for (int i = 0; i < m->nunits; i++)
            unit_write_text(m, f, i);
    }
    for (int k = 0; sl.text && k < n; k++)
        free(sl.text[k]);
    free(sl.text);
    free(sl.len);
}

void stats_write_text(const sim_machine *m, FILE *f)
{
    uint64_t cyc = run_cycles(m);
    double hz = machine_clock(m);
    fprintf(f, "== statistics (%s) ==\n", m->isa->name);
    fprintf(f, "stop: %s%s%s\n", sim_stop_name(m->stop.kind), m->stop.msg[0] ? ": " : "", m->stop.msg);
    fprintf(f, "model: ");
    write_options(m, f, 0);
    fputc('\n', f);
    if (m->ff)
        ff_write_text(m, f);
    fprintf(f, "cycles: %llu", (unsigned long long)cyc);
    if (hz > 0 && m->max_period > 1)
        fprintf(f, " (%.6f s in ticks of %.0f MHz, the units' clocks' common base; each unit counts its own cycles)",
                (double)cyc / hz, hz / 1e6);
    else if (hz > 0)
        fprintf(f, " (%.6f s at %.0f MHz)", (double)cyc / hz, hz / 1e6);
    fprintf(f, "\ninstructions: %llu\n", (unsigned long long)run_insns(m));
    units_write_text(m, f);
    for (int g = 0; g < m->ngroups; g++) /* the groups' subtotals, top-level ones first */
        if (m->groups[g].parent < 0)
            group_write_text(m, f, g);
    /* tasks (core/task.h): the first 64 per unit one by one, the rest summed (the JSON has
     * every kept one) */
    sim_tasks_write_text(m, f, 64);
}

static void json_halted(FILE *f, int halted, uint64_t at)
{
    if (halted)
        fprintf(f, "%llu", (unsigned long long)at);
    else
        fputs("null", f);
}

/* The functional part of a fast-forward: one "fast_forward" member (docs/stats-schema.md). */
static void ff_write_json(const sim_machine *m, FILE *f)
{
    const sim_ff_part *p = m->ff;
    fprintf(f, "  \"fast_forward\": {\"marker\": ");
    file_json_str(f, p->marker);
    fprintf(f, ", \"reached\": %s, \"switch_cycle\": %llu, \"instructions\": %llu,\n    \"units\": [",
            p->reached ? "true" : "false", (unsigned long long)p->cycle, (unsigned long long)p->instructions);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        fprintf(f, "%s\n      {\"name\": ", i ? "," : "");
        file_json_str(f, u->name);
        fprintf(f, ", \"index\": %d, \"instructions\": %llu, \"halted\": %s, \"threads\": [", i,
                (unsigned long long)p->units[i].instructions, p->units[i].halted ? "true" : "false");
        for (int t = 0; t < u->nthreads; t++)
            fprintf(f, "%s{\"index\": %d, \"instructions\": %llu}", t ? ", " : "", t,
                    (unsigned long long)p->units[i].threads[t].instructions);
        fprintf(f, "]}");
    }
    fprintf(f, "\n    ]},\n");
}

/* Group g and its children as one JSON object, on one line (the "groups" member is one
 * line: a tool comparing whole files line by line can set it apart). */
static void group_write_json(const sim_machine *m, FILE *f, int g)
{
    const char *const *stalls = m->isa->stall_names;
    const sim_group *gr = &m->groups[g];
    char path[256];
    grp_view v = group_view(m, g);
    fprintf(f, "{\"name\": ");
    file_json_str(f, gr->name);
    fprintf(f, ", \"path\": ");
    file_json_str(f, sim_group_path(m, g, path, sizeof path));
    fprintf(f, ", \"index\": %d, \"threads_per_unit\": %d, \"clock_hz\": %.0f, \"units\": [", g, gr->threads,
            gr->clock_hz);
    int n = 0;
    for (int i = 0; i < m->nunits; i++)
        if (m->units[i].group == g)
            fprintf(f, "%s%d", n++ ? ", " : "", i);
    fprintf(f, "], \"enabled_units\": %d, \"cycles\": %llu, \"seconds\": %.9g, \"instructions\": %llu, "
               "\"issue_cycles\": %llu, \"stalls\": {",
            v.units, (unsigned long long)v.cycles, gr->clock_hz > 0 ? (double)v.cycles / gr->clock_hz : 0.0,
            (unsigned long long)v.instructions, (unsigned long long)v.issue_cycles);
    file_json_counts(f, stalls, v.stalls, SIM_MAX_STALLS);
    fprintf(f, "}, \"counters\": {");
    for (int c = 0; v.first >= 0 && c < m->units[v.first].ncounters; c++) {
        fprintf(f, "%s", c ? ", " : "");
        file_json_str(f, m->units[v.first].counters[c].name);
        fprintf(f, ": %llu", (unsigned long long)group_counter(m, g, &v, c));
    }
    fprintf(f, "}, \"groups\": [");
    n = 0;
    for (int k = g + 1; k < m->ngroups; k++)
        if (m->groups[k].parent == g) {
            fprintf(f, "%s", n++ ? ", " : "");
            group_write_json(m, f, k);
        }
    fprintf(f, "]}");
}

void stats_write_json(const sim_machine *m, FILE *f)
{
    const char *const *stalls = m->isa->stall_names;
    uint64_t cyc = run_cycles(m), insns = run_insns(m);
    /* a unit's stop is in its own cycles, the machine's (a limit, a deadlock) in ticks */
    uint64_t b = m->stop.unit >= 0 && m->stop.unit < m->nunits ? sim_ff_unit_cycle(m, &m->units[m->stop.unit])
                                                                : ff_base(m);
    double hz = machine_clock(m), hs = m->host_seconds > 1e-9 ? m->host_seconds : 1e-9;
    /* the schema's version: docs/stats-schema.md; raised when a field changes meaning or goes */
    fprintf(f, "{\n  \"schema\": %d,\n  \"isa\": ", STATS_SCHEMA_VERSION);
    file_json_str(f, m->isa->name);
    fprintf(f, ",\n  \"stop\": {\"kind\": ");
    file_json_str(f, sim_stop_name(m->stop.kind));
    fprintf(f, ", \"message\": ");
    file_json_str(f, m->stop.msg);
    fprintf(f, ", \"unit\": %d, \"thread\": %d, \"cycle\": %llu},\n", m->stop.unit, m->stop.thread,
            (unsigned long long)minus(m->stop.cycle, b));
    fprintf(f, "  \"options\": {");
    write_options(m, f, 1);
    fprintf(f, "},\n");
    if (m->ff)
        ff_write_json(m, f);
    fprintf(f, "  \"cycles\": %llu,\n  \"instructions\": %llu,\n", (unsigned long long)cyc, (unsigned long long)insns);
    fprintf(f, "  \"clock_hz\": %.0f,\n  \"seconds\": %.9g,\n", hz, hz > 0 ? (double)cyc / hz : 0.0);
    if (m->ngroups) { /* schema 3: the groups tree, top-level groups with their children */
        fprintf(f, "  \"groups\": [");
        for (int g = 0, n = 0; g < m->ngroups; g++)
            if (m->groups[g].parent < 0) {
                fprintf(f, "%s", n++ ? ", " : "");
                group_write_json(m, f, g);
            }
        fprintf(f, "],\n");
    }
    fprintf(f, "  \"units\": [");
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        const uint64_t ub = sim_ff_unit_cycle(m, u);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        file_json_str(f, u->name);
        fprintf(f, ", \"index\": %d, \"enabled\": %s, \"cycles\": %llu, \"instructions\": %llu, \"halted_at\": ", i,
                u->enabled ? "true" : "false", (unsigned long long)minus(stats_unit_cycles(m, u), ub),
                (unsigned long long)unit_insns(m, i));
        json_halted(f, u->halted, minus(u->halted_at, ub));
        fprintf(f, ",\n     \"counters\": {");
        for (int c = 0; c < u->ncounters; c++) {
            fprintf(f, "%s", c ? ", " : "");
            file_json_str(f, u->counters[c].name);
            fprintf(f, ": %llu", (unsigned long long)unit_counter(m, i, c));
        }
        fprintf(f, "},\n     \"threads\": [");
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            th_view v = thread_view(m, i, t);
            fprintf(f, "%s\n       {\"index\": %d, \"cycles\": %llu, \"instructions\": %llu, \"issue_cycles\": %llu, \"halted_at\": ",
                    t ? "," : "", t, (unsigned long long)v.cycles, (unsigned long long)v.instructions,
                    (unsigned long long)v.issue_cycles);
            json_halted(f, th->state == SIM_T_HALTED, v.halted_at);
            fprintf(f, ", \"stalls\": {");
            file_json_counts(f, stalls, v.stalls, SIM_MAX_STALLS);
            fprintf(f, "}");
            if (u->nthread_counters) { /* the ISA's per-thread counts (CERT: per job) */
                fprintf(f, ", \"counters\": {");
                for (int k = 0; k < u->nthread_counters; k++) {
                    fprintf(f, "%s", k ? ", " : "");
                    file_json_str(f, u->thread_counter_names[k]);
                    fprintf(f, ": %llu", (unsigned long long)thread_counter(m, i, t, k));
                }
                fprintf(f, "}");
            }
            fprintf(f, "}");
        }
        fprintf(f, "]}");
    }
    /* the host's speed over the whole run (both parts of a fast-forward) */
    uint64_t all_i = sim_total_instructions(m), all_c = sim_end_cycle(m);
    fprintf(f, "\n  ],\n");
    sim_tasks_write_json(m, f); /* the "tasks" member, when the ISA bound any (core/task.h) */
    fprintf(f, "  \"host\": {\"seconds\": %.6f, \"mips\": %.3f, \"mcycles_per_s\": %.3f", m->host_seconds,
            (double)all_i / hs / 1e6, (double)all_c / hs / 1e6);
    if (m->build) {
        fprintf(f, ", \"xpusim\": ");
        file_json_str(f, m->build);
    }
    fprintf(f, "}\n}\n");
}
