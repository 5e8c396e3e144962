/* core/stats.c: text and JSON statistics, read from the counters the machine keeps.
 * Thread and unit "cycles" are the cycles from the start to their halt (or to the end of the
 * run if still active); "seconds" converts with the unit's clock. */
#include <string.h>
#include "stats.h"
#include "../isa/isa.h"

uint64_t stats_thread_cycles(const sim_machine *m, const sim_thread *t)
{
    return t->state == SIM_T_HALTED ? t->halted_at : (t->started ? sim_end_cycle(m) : 0);
}

uint64_t stats_unit_cycles(const sim_machine *m, const sim_unit *u)
{
    return u->halted ? u->halted_at : (u->enabled ? sim_end_cycle(m) : 0);
}

static uint64_t unit_insns(const sim_unit *u)
{
    uint64_t n = 0;
    for (int t = 0; t < u->nthreads; t++)
        n += u->threads[t].instructions;
    return n;
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
    const opt_desc core_model[] = {OPT_T("watchdog", wd, ""), OPT_END};
    const opt_desc *tables[2] = {m->isa->options, core_model};
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (const opt_desc *o = tables[k]; o && o->name; o++) {
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

void stats_write_text(const sim_machine *m, FILE *f)
{
    const char *const *stalls = m->isa->stall_names;
    uint64_t cyc = sim_end_cycle(m);
    double hz = machine_clock(m);
    fprintf(f, "== statistics (%s) ==\n", m->isa->name);
    fprintf(f, "stop: %s%s%s\n", sim_stop_name(m->stop.kind), m->stop.msg[0] ? ": " : "", m->stop.msg);
    fprintf(f, "model: ");
    write_options(m, f, 0);
    fprintf(f, "\ncycles: %llu", (unsigned long long)cyc);
    if (hz > 0)
        fprintf(f, " (%.6f s at %.0f MHz)", (double)cyc / hz, hz / 1e6);
    fprintf(f, "\ninstructions: %llu\n", (unsigned long long)sim_total_instructions(m));
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled) {
            fprintf(f, "%s: disabled\n", u->name);
            continue;
        }
        uint64_t ui = unit_insns(u), uc = stats_unit_cycles(m, u);
        fprintf(f, "%s: cycles %llu, instructions %llu, IPC %.3f, %s", u->name, (unsigned long long)uc,
                (unsigned long long)ui, uc ? (double)ui / (double)uc : 0.0, u->halted ? "halted at " : "running");
        if (u->halted)
            fprintf(f, "%llu", (unsigned long long)u->halted_at);
        fputc('\n', f);
        for (int c = 0; c < u->ncounters; c++)
            fprintf(f, "  %s: %llu\n", u->counters[c].name, (unsigned long long)u->counters[c].value);
        if (u->nthreads == 1 && !stalls)
            continue;
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            if (!th->started && !th->instructions)
                continue;
            fprintf(f, "  thread %d: cycles %llu, instructions %llu, issue cycles %llu", t,
                    (unsigned long long)stats_thread_cycles(m, th), (unsigned long long)th->instructions,
                    (unsigned long long)th->issue_cycles);
            if (th->state == SIM_T_HALTED)
                fprintf(f, ", halted at %llu", (unsigned long long)th->halted_at);
            for (int s = 0; stalls && stalls[s] && s < SIM_MAX_STALLS; s++)
                if (th->stalls[s])
                    fprintf(f, ", stall %s %llu", stalls[s], (unsigned long long)th->stalls[s]);
            for (int k = 0; k < u->nthread_counters; k++)
                if (u->thread_counters[t * u->nthread_counters + k])
                    fprintf(f, ", %s %llu", u->thread_counter_names[k],
                            (unsigned long long)u->thread_counters[t * u->nthread_counters + k]);
            fputc('\n', f);
        }
    }
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

void stats_write_json(const sim_machine *m, FILE *f)
{
    const char *const *stalls = m->isa->stall_names;
    uint64_t cyc = sim_end_cycle(m), insns = sim_total_instructions(m);
    double hz = machine_clock(m), hs = m->host_seconds > 1e-9 ? m->host_seconds : 1e-9;
    /* the schema's version: docs/stats-schema.md; raised when a field changes meaning or goes */
    fprintf(f, "{\n  \"schema\": %d,\n  \"isa\": ", STATS_SCHEMA_VERSION);
    json_str(f, m->isa->name);
    fprintf(f, ",\n  \"stop\": {\"kind\": ");
    json_str(f, sim_stop_name(m->stop.kind));
    fprintf(f, ", \"message\": ");
    json_str(f, m->stop.msg);
    fprintf(f, ", \"unit\": %d, \"thread\": %d, \"cycle\": %llu},\n", m->stop.unit, m->stop.thread,
            (unsigned long long)m->stop.cycle);
    fprintf(f, "  \"options\": {");
    write_options(m, f, 1);
    fprintf(f, "},\n");
    fprintf(f, "  \"cycles\": %llu,\n  \"instructions\": %llu,\n", (unsigned long long)cyc, (unsigned long long)insns);
    fprintf(f, "  \"clock_hz\": %.0f,\n  \"seconds\": %.9g,\n", hz, hz > 0 ? (double)cyc / hz : 0.0);
    fprintf(f, "  \"units\": [");
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, u->name);
        fprintf(f, ", \"index\": %d, \"enabled\": %s, \"cycles\": %llu, \"instructions\": %llu, \"halted_at\": ", i,
                u->enabled ? "true" : "false", (unsigned long long)stats_unit_cycles(m, u), (unsigned long long)unit_insns(u));
        json_halted(f, u->halted, u->halted_at);
        fprintf(f, ",\n     \"counters\": {");
        for (int c = 0; c < u->ncounters; c++) {
            fprintf(f, "%s", c ? ", " : "");
            json_str(f, u->counters[c].name);
            fprintf(f, ": %llu", (unsigned long long)u->counters[c].value);
        }
        fprintf(f, "},\n     \"threads\": [");
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            fprintf(f, "%s\n       {\"index\": %d, \"cycles\": %llu, \"instructions\": %llu, \"issue_cycles\": %llu, \"halted_at\": ",
                    t ? "," : "", t, (unsigned long long)stats_thread_cycles(m, th), (unsigned long long)th->instructions,
                    (unsigned long long)th->issue_cycles);
            json_halted(f, th->state == SIM_T_HALTED, th->halted_at);
            fprintf(f, ", \"stalls\": {");
            for (int s = 0; stalls && stalls[s] && s < SIM_MAX_STALLS; s++) {
                fprintf(f, "%s", s ? ", " : "");
                json_str(f, stalls[s]);
                fprintf(f, ": %llu", (unsigned long long)th->stalls[s]);
            }
            fprintf(f, "}");
            if (u->nthread_counters) { /* the ISA's per-thread counts (CERT: per job) */
                fprintf(f, ", \"counters\": {");
                for (int k = 0; k < u->nthread_counters; k++) {
                    fprintf(f, "%s", k ? ", " : "");
                    json_str(f, u->thread_counter_names[k]);
                    fprintf(f, ": %llu", (unsigned long long)u->thread_counters[t * u->nthread_counters + k]);
                }
                fprintf(f, "}");
            }
            fprintf(f, "}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n  \"host\": {\"seconds\": %.6f, \"mips\": %.3f, \"mcycles_per_s\": %.3f}\n}\n", m->host_seconds,
            (double)insns / hs / 1e6, (double)cyc / hs / 1e6);
}
