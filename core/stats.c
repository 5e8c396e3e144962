/* core/stats.c: text and JSON statistics, read from the counters the machine keeps.
 * Thread and unit "cycles" are the cycles from the start to their halt (or to the end of the
 * run if still active); "seconds" converts with the unit's clock. After a fast-forward
 * (m->ff, sim_ff_switch) every count is the timed part's: the counter minus its value at the
 * switch, cycles from the switch; the functional part is reported apart (its instructions
 * per unit and thread), so the region of interest reads like a run of its own. */
#include <string.h>
#include "stats.h"
#include "task.h"
#include "../isa/isa.h"

uint64_t stats_thread_cycles(const sim_machine *m, const sim_thread *t)
{
    return t->state == SIM_T_HALTED ? t->halted_at : (t->started ? sim_end_cycle(m) : 0);
}

uint64_t stats_unit_cycles(const sim_machine *m, const sim_unit *u)
{
    return u->halted ? u->halted_at : (u->enabled ? sim_end_cycle(m) : 0);
}

static uint64_t minus(uint64_t v, uint64_t base) { return v > base ? v - base : 0; }
/* the switch cycle of a fast-forward (0 without one) */
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
    uint64_t b = ff_base(m);
    th_view v = {minus(stats_thread_cycles(m, th), b), minus(th->instructions, f ? f->instructions : 0),
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

static double machine_clock(const sim_machine *m)
{
    return m->nunits ? m->units[0].clock_hz : 0;
}

void stats_write_speed(const sim_machine *m, FILE *f)
{
    double s = m->host_seconds > 1e-9 ? m->host_seconds : 1e-9;
    fprintf(f, "host: %.3f s, %.2f MIPS, %.2f Mcycles/s\n", m->host_seconds,
            (double)sim_total_instructions(m) / s / 1e6, (double)sim_end_cycle(m) / s / 1e6);
}

/* The model's options as this run used them (given, or the default), so that every cycle
 * count names its assumptions. `jobs` is left out: it changes host threads, not results. */
static void json_str(FILE *f, const char *s);

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
                json_str(f, o->name);
                fprintf(f, ": ");
                json_str(f, v ? v : "");
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

void stats_write_text(const sim_machine *m, FILE *f)
{
    const char *const *stalls = m->isa->stall_names;
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
    if (hz > 0)
        fprintf(f, " (%.6f s at %.0f MHz)", (double)cyc / hz, hz / 1e6);
    fprintf(f, "\ninstructions: %llu\n", (unsigned long long)run_insns(m));
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled) {
            fprintf(f, "%s: disabled\n", u->name);
            continue;
        }
        uint64_t ui = unit_insns(m, i), uc = minus(stats_unit_cycles(m, u), ff_base(m));
        fprintf(f, "%s: cycles %llu, instructions %llu, IPC %.3f, %s", u->name, (unsigned long long)uc,
                (unsigned long long)ui, uc ? (double)ui / (double)uc : 0.0, u->halted ? "halted at " : "running");
        if (u->halted)
            fprintf(f, "%llu", (unsigned long long)minus(u->halted_at, ff_base(m)));
        fputc('\n', f);
        for (int c = 0; c < u->ncounters; c++)
            fprintf(f, "  %s: %llu\n", u->counters[c].name, (unsigned long long)unit_counter(m, i, c));
        if (u->nthreads == 1 && !stalls)
            continue;
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            if (!th->started && !th->instructions)
                continue;
            th_view v = thread_view(m, i, t);
            fprintf(f, "  thread %d: cycles %llu, instructions %llu, issue cycles %llu", t, (unsigned long long)v.cycles,
                    (unsigned long long)v.instructions, (unsigned long long)v.issue_cycles);
            if (th->state == SIM_T_HALTED)
                fprintf(f, ", halted at %llu", (unsigned long long)v.halted_at);
            for (int s = 0; stalls && stalls[s] && s < SIM_MAX_STALLS; s++)
                if (v.stalls[s])
                    fprintf(f, ", stall %s %llu", stalls[s], (unsigned long long)v.stalls[s]);
            for (int k = 0; k < u->nthread_counters; k++)
                if (thread_counter(m, i, t, k))
                    fprintf(f, ", %s %llu", u->thread_counter_names[k], (unsigned long long)thread_counter(m, i, t, k));
            fputc('\n', f);
        }
    }
    /* tasks (core/task.h): the first 64 per unit one by one, the rest summed (the JSON has
     * every kept one) */
    sim_tasks_write_text(m, f, 64);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
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
    json_str(f, p->marker);
    fprintf(f, ", \"reached\": %s, \"switch_cycle\": %llu, \"instructions\": %llu,\n    \"units\": [",
            p->reached ? "true" : "false", (unsigned long long)p->cycle, (unsigned long long)p->instructions);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        fprintf(f, "%s\n      {\"name\": ", i ? "," : "");
        json_str(f, u->name);
        fprintf(f, ", \"index\": %d, \"instructions\": %llu, \"halted\": %s, \"threads\": [", i,
                (unsigned long long)p->units[i].instructions, p->units[i].halted ? "true" : "false");
        for (int t = 0; t < u->nthreads; t++)
            fprintf(f, "%s{\"index\": %d, \"instructions\": %llu}", t ? ", " : "", t,
                    (unsigned long long)p->units[i].threads[t].instructions);
        fprintf(f, "]}");
    }
    fprintf(f, "\n    ]},\n");
}

void stats_write_json(const sim_machine *m, FILE *f)
{
    const char *const *stalls = m->isa->stall_names;
    uint64_t cyc = run_cycles(m), insns = run_insns(m), b = ff_base(m);
    double hz = machine_clock(m), hs = m->host_seconds > 1e-9 ? m->host_seconds : 1e-9;
    /* the schema's version: docs/stats-schema.md; raised when a field changes meaning or goes */
    fprintf(f, "{\n  \"schema\": %d,\n  \"isa\": ", STATS_SCHEMA_VERSION);
    json_str(f, m->isa->name);
    fprintf(f, ",\n  \"stop\": {\"kind\": ");
    json_str(f, sim_stop_name(m->stop.kind));
    fprintf(f, ", \"message\": ");
    json_str(f, m->stop.msg);
    fprintf(f, ", \"unit\": %d, \"thread\": %d, \"cycle\": %llu},\n", m->stop.unit, m->stop.thread,
            (unsigned long long)minus(m->stop.cycle, b));
    fprintf(f, "  \"options\": {");
    write_options(m, f, 1);
    fprintf(f, "},\n");
    if (m->ff)
        ff_write_json(m, f);
    fprintf(f, "  \"cycles\": %llu,\n  \"instructions\": %llu,\n", (unsigned long long)cyc, (unsigned long long)insns);
    fprintf(f, "  \"clock_hz\": %.0f,\n  \"seconds\": %.9g,\n", hz, hz > 0 ? (double)cyc / hz : 0.0);
    fprintf(f, "  \"units\": [");
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, u->name);
        fprintf(f, ", \"index\": %d, \"enabled\": %s, \"cycles\": %llu, \"instructions\": %llu, \"halted_at\": ", i,
                u->enabled ? "true" : "false", (unsigned long long)minus(stats_unit_cycles(m, u), b),
                (unsigned long long)unit_insns(m, i));
        json_halted(f, u->halted, minus(u->halted_at, b));
        fprintf(f, ",\n     \"counters\": {");
        for (int c = 0; c < u->ncounters; c++) {
            fprintf(f, "%s", c ? ", " : "");
            json_str(f, u->counters[c].name);
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
            for (int s = 0; stalls && stalls[s] && s < SIM_MAX_STALLS; s++) {
                fprintf(f, "%s", s ? ", " : "");
                json_str(f, stalls[s]);
                fprintf(f, ": %llu", (unsigned long long)v.stalls[s]);
            }
            fprintf(f, "}");
            if (u->nthread_counters) { /* the ISA's per-thread counts (CERT: per job) */
                fprintf(f, ", \"counters\": {");
                for (int k = 0; k < u->nthread_counters; k++) {
                    fprintf(f, "%s", k ? ", " : "");
                    json_str(f, u->thread_counter_names[k]);
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
    fprintf(f, "  \"host\": {\"seconds\": %.6f, \"mips\": %.3f, \"mcycles_per_s\": %.3f}\n}\n", m->host_seconds,
            (double)all_i / hs / 1e6, (double)all_c / hs / 1e6);
}
