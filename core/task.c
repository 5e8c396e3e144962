/* core/task.c: tasks bound to thread slots (core/task.h). A task keeps a copy of its
 * thread's counters from its begin; its end turns the copy into the deltas and moves the
 * task to its unit's ended list (the first SIM_TASKS_KEEP, then a running sum). Only the
 * unit whose burst is running touches its list, so units on several host threads need no
 * lock. The trace gets a marker line at each begin and end, and a frontend's timeline the
 * events "task begin" / "task end" (dbg_note's observer), both only while the debugger's
 * hooks are on (m->slow, so sequential). Of the core it calls only sim_unit_image (sim.c,
 * a name's symbol); the machine frees the lists through m->tasks_free, as it frees the
 * debugger through dbg_free, so sim.c does not call this file and the core's files still
 * depend on each other one way only. */
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "file.h"
#include "task.h"
#include "debug.h"
#include "../isa/isa.h"
#include "../loaders/loader.h"

static void tasks_free_all(sim_machine *m)
{
    for (int i = 0; i < m->nunits; i++)
        sim_task_list_free(&m->units[i]);
}

void sim_task_list_free(sim_unit *u)
{
    sim_task_list *l = u->tasks;
    if (!l)
        return;
    free(l->bound);
    free(l->done);
    free(l);
    u->tasks = NULL;
}

/* how many of the unit's thread counters a task counts */
static int task_ncounters(const sim_unit *u)
{
    return u->nthread_counters < SIM_TASK_COUNTERS ? u->nthread_counters : SIM_TASK_COUNTERS;
}

size_t sim_tasks_keep(int nunits)
{
    size_t per = SIM_TASKS_BUDGET / (size_t)(nunits > 0 ? nunits : 1);
    return per >= SIM_TASKS_KEEP ? SIM_TASKS_KEEP : per >= SIM_TASKS_MIN ? per : SIM_TASKS_MIN;
}

static sim_task_list *list_of(sim_machine *m, sim_unit *u)
{
    if (u->tasks)
        return u->tasks;
    sim_task_list *l = calloc(1, sizeof *l);
    if (!l || !(l->bound = calloc((size_t)u->nthreads, sizeof *l->bound))) {
        free(l);
        return NULL;
    }
    l->nthreads = u->nthreads;
    l->ncounters = task_ncounters(u);
    /* many units share one budget (the units are all made before any task begins) */
    l->keep = sim_tasks_keep(m->nunits);
    u->tasks = l;
    /* several units may get their first task at once (-o jobs=N): an atomic store of the
     * one value this ever holds */
    __atomic_store_n(&m->tasks_free, tasks_free_all, __ATOMIC_RELAXED);
    return l;
}

/* The end of the run so far for a unit's threads (sim_end_cycle for one unit). */
static uint64_t unit_now(const sim_machine *m, const sim_unit *u)
{
    return sim_unit_end_cycle(m, u);
}

static uint64_t minus(uint64_t v, uint64_t base)
{
    return v > base ? v - base : 0;
}

/* Add ended task t's counts to the sum s (s->id counts the tasks summed). */
static void sum_into(sim_task *s, const sim_task *t)
{
    if (!s->id++)
        s->begin = t->begin;
    s->end = t->end > s->end ? t->end : s->end;
    s->cycles += t->cycles;
    s->instructions += t->instructions;
    s->issue_cycles += t->issue_cycles;
    for (int k = 0; k < SIM_MAX_STALLS; k++)
        s->stalls[k] += t->stalls[k];
    for (int k = 0; k < SIM_TASK_COUNTERS; k++)
        s->counters[k] += t->counters[k];
}

/* The trace's marker line and the timeline's event (debugger hooks on only). */
static void mark(sim_machine *m, const sim_task *t, int begin, uint64_t cycle)
{
    dbg_state *d = m->dbg;
    if (!m->slow || !d)
        return;
    if (d->note)
        d->note(d->observe_ctx, m, t->unit, t->thread, cycle, begin ? "task begin" : "task end");
    if (!d->trace || cycle < d->trace_from || cycle >= d->trace_to)
        return;
    char name[SIM_TASK_NAME + 24], label[96];
    sim_task_name(m, t, name, sizeof name);
    /* named as the trace's instruction lines name the unit (its path on a grouped machine) */
    fprintf(d->trace, "%10llu %s t%-2d -- task %llu %s %s", (unsigned long long)cycle,
            sim_unit_path(m, t->unit, label, sizeof label),
            t->thread, (unsigned long long)t->seq, begin ? "begins:" : "ends:", name);
    if (!begin)
        fprintf(d->trace, " (%llu instructions, %llu cycles)", (unsigned long long)t->instructions,
                (unsigned long long)t->cycles);
    fputc('\n', d->trace);
}

int sim_task_begin(sim_machine *m, int unit, int thread, const char *name, uint64_t id, uint64_t cycle)
{
    if (unit < 0 || unit >= m->nunits || thread < 0 || thread >= m->units[unit].nthreads)
        return -1;
    sim_unit *u = &m->units[unit];
    sim_task_list *l = list_of(m, u);
    if (!l)
        return -1;
    sim_task *t = &l->bound[thread];
    if (t->state == SIM_TASK_RUNNING)
        sim_task_end(m, unit, thread, cycle);
    const sim_thread *th = &u->threads[thread];
    /* every field set here (no memset, no printf: a vertex run may be a few instructions) */
    size_t n = name ? strnlen(name, SIM_TASK_NAME - 1) : 0;
    memcpy(t->name, name ? name : "", n);
    t->name[n] = 0;
    t->id = id;
    t->seq = l->begun++;
    t->unit = unit;
    t->thread = thread;
    t->state = SIM_TASK_RUNNING;
    t->begin = cycle;
    t->end = t->cycles = 0;
    t->instructions = th->instructions;
    t->issue_cycles = th->issue_cycles;
    memcpy(t->stalls, th->stalls, sizeof t->stalls);
    /* (a unit without thread counters has none: no pointer arithmetic on NULL) */
    const uint64_t *c = u->thread_counters ? u->thread_counters + (size_t)thread * (size_t)u->nthread_counters : NULL;
    for (int k = 0; k < SIM_TASK_COUNTERS; k++)
        t->counters[k] = c && k < l->ncounters ? c[k] : 0;
    if (m->slow)
        mark(m, t, 1, cycle);
    return 0;
}

/* The counts of a running task t up to now, from its thread's counters. After a
 * fast-forward's switch (m->ff) a task begun before it counts from the switch, as the
 * statistics count the thread (the copy of its counters at the switch), and begins there. */
static void deltas(const sim_machine *m, const sim_unit *u, const sim_task *t, sim_task *out)
{
    const sim_task_list *l = u->tasks;
    const sim_thread *th = &u->threads[t->thread];
    const size_t at = (size_t)t->thread * (size_t)u->nthread_counters;
    const uint64_t sw = sim_ff_unit_cycle(m, u); /* the switch in the unit's own cycles */
    const sim_ff_unit *f = m->ff && t->begin < sw ? &m->ff->units[t->unit] : NULL;
    /* the base: the task's copy from its begin, or the thread's at the switch. A thread's
     * counters only grow during a run (a restart forgets the tasks), so plain differences */
    const sim_thread *fb = f ? &f->threads[t->thread] : NULL;
    const uint64_t bi = fb ? fb->instructions : t->instructions, bc = fb ? fb->issue_cycles : t->issue_cycles;
    uint64_t bs[SIM_MAX_STALLS], bk[SIM_TASK_COUNTERS];
    memcpy(bs, fb ? fb->stalls : t->stalls, sizeof bs);
    for (int k = 0; k < l->ncounters; k++)
        bk[k] = f ? f->thread_counters[at + (size_t)k] : t->counters[k];
    out->instructions = th->instructions - bi;
    out->issue_cycles = th->issue_cycles - bc;
    for (int s = 0; s < SIM_MAX_STALLS; s++)
        out->stalls[s] = th->stalls[s] - bs[s];
    for (int k = 0; k < l->ncounters; k++)
        out->counters[k] = u->thread_counters[at + (size_t)k] - bk[k];
    if (f)
        out->begin = sw;
}

static void sim_task_keep(sim_task_list *l, const sim_task *tp);

void sim_task_end(sim_machine *m, int unit, int thread, uint64_t cycle)
{
    if (unit < 0 || unit >= m->nunits)
        return;
    sim_unit *u = &m->units[unit];
    sim_task_list *l = u->tasks;
    if (!l || thread < 0 || thread >= l->nthreads || l->bound[thread].state != SIM_TASK_RUNNING)
        return;
    sim_task *b = &l->bound[thread];
    deltas(m, u, b, b);
    b->state = SIM_TASK_DONE;
    b->end = cycle > b->begin ? cycle : b->begin;
    b->cycles = b->end - b->begin;
    if (m->slow)
        mark(m, b, 0, cycle);
    sim_task_keep(l, b);
    b->state = SIM_TASK_NONE;
}

/* Keep ended task t in l's list, or add it to the sum past the kept ones. */
static void sim_task_keep(sim_task_list *l, const sim_task *tp)
{
    const sim_task t = *tp;
    if (l->ndone < l->keep) {
        if (l->ndone == l->cap) {
            size_t n = l->cap ? 2 * l->cap : 16;
            sim_task *v = realloc(l->done, n * sizeof *v);
            if (v) {
                l->done = v;
                l->cap = n;
            }
        }
        if (l->ndone < l->cap) {
            l->done[l->ndone++] = t;
            return;
        }
    }
    /* past the kept ones (or out of memory for them): summed */
    sim_task *s = &l->more;
    if (s->state != SIM_TASK_DONE) {
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "(more)");
        s->unit = t.unit;
        s->thread = -1;
        s->state = SIM_TASK_DONE;
        s->seq = t.seq;
    }
    sum_into(s, &t);
}

const sim_task *sim_task_bound(const sim_machine *m, int unit, int thread)
{
    if (unit < 0 || unit >= m->nunits)
        return NULL;
    const sim_task_list *l = m->units[unit].tasks;
    if (!l || thread < 0 || thread >= l->nthreads || l->bound[thread].state != SIM_TASK_RUNNING)
        return NULL;
    return &l->bound[thread];
}

int sim_task_functional(const sim_machine *m, const sim_task *t)
{
    return m->ff && t->state == SIM_TASK_DONE && t->end <= sim_ff_unit_cycle(m, &m->units[t->unit]);
}

sim_task sim_task_view(const sim_machine *m, const sim_task *t)
{
    sim_task v = *t;
    if (t->state == SIM_TASK_RUNNING) {
        const sim_unit *u = &m->units[t->unit];
        deltas(m, u, t, &v);
        uint64_t now = unit_now(m, u);
        v.end = now > v.begin ? now : v.begin;
        v.cycles = v.end - v.begin;
    }
    if (m->ff) { /* cycles from the switch, as every count of the statistics */
        uint64_t sw = sim_ff_unit_cycle(m, &m->units[t->unit]), b = minus(v.begin, sw), e = minus(v.end, sw);
        if (t->thread >= 0) /* a sum keeps the sum of its tasks' cycles */
            v.cycles = e - b;
        v.begin = b;
        v.end = e;
    }
    return v;
}

const char *sim_task_name(const sim_machine *m, const sim_task *t, char *buf, size_t n)
{
    if (t->name[0]) {
        snprintf(buf, n, "%s", t->name);
        return buf;
    }
    /* the symbol at the entry (read from the image here: the core calls no loader code) */
    const ld_image *img = sim_unit_image(m, t->unit); /* its own, its group's, or the machine's */
    for (int i = 0; img && i < img->nsyms; i++) {
        const ld_symbol *s = &img->syms[i];
        if (s->value == t->id && s->shndx && (s->type == 0 || s->type == 1 || s->type == 2) && s->name[0]) {
            snprintf(buf, n, "%s", s->name);
            return buf;
        }
    }
    snprintf(buf, n, "0x%llx", (unsigned long long)t->id);
    return buf;
}

int sim_tasks_any(const sim_machine *m)
{
    for (int i = 0; i < m->nunits; i++)
        if (m->units[i].tasks && m->units[i].tasks->begun)
            return 1;
    return 0;
}

/* ---- reports ---- */

static void text_line(const sim_machine *m, FILE *f, const sim_task *t, const char *indent)
{
    const char *const *stalls = m->isa->stall_names;
    char name[SIM_TASK_NAME + 24];
    sim_task v = sim_task_view(m, t);
    if (t->thread >= 0)
        fprintf(f, "%stask %llu %s (id %llu) thread %d: ", indent, (unsigned long long)t->seq,
                sim_task_name(m, t, name, sizeof name), (unsigned long long)t->id, t->thread);
    else
        fprintf(f, "%s%llu more tasks: ", indent, (unsigned long long)t->id);
    fprintf(f, "cycles %llu (%llu-%llu%s), instructions %llu, issue cycles %llu", (unsigned long long)v.cycles,
            (unsigned long long)v.begin, (unsigned long long)v.end, t->state == SIM_TASK_RUNNING ? ", running" : "",
            (unsigned long long)v.instructions, (unsigned long long)v.issue_cycles);
    file_text_counts(f, ", stall ", stalls, v.stalls, SIM_MAX_STALLS);
    const sim_unit *u = &m->units[t->unit];
    for (int k = 0; k < task_ncounters(u); k++)
        if (v.counters[k])
            fprintf(f, ", %s %llu", u->thread_counter_names[k], (unsigned long long)v.counters[k]);
    fputc('\n', f);
}

void sim_tasks_write_text(const sim_machine *m, FILE *f, int max)
{
    if (!sim_tasks_any(m))
        return;
    fprintf(f, "tasks:\n");
    for (int i = 0; i < m->nunits; i++) {
        const sim_task_list *l = m->units[i].tasks;
        if (!l || !l->begun)
            continue;
        size_t nrun = 0, first = 0;
        for (int t = 0; t < l->nthreads; t++)
            nrun += l->bound[t].state == SIM_TASK_RUNNING;
        while (first < l->ndone && sim_task_functional(m, &l->done[first]))
            first++; /* ended in a fast-forward's functional part (they end in order) */
        fprintf(f, "  %s: %llu tasks (%zu running", m->units[i].name, (unsigned long long)l->begun, nrun);
        if (first)
            fprintf(f, ", %zu ended before the fast-forward's switch, not listed", first);
        fprintf(f, ")\n");
        size_t shown = l->ndone;
        if (max > 0 && shown > first + (size_t)max)
            shown = first + (size_t)max;
        for (size_t k = first; k < shown; k++)
            text_line(m, f, &l->done[k], "    ");
        if (shown < l->ndone) { /* the kept ones not shown, summed with the rest */
            sim_task sum = {.unit = i, .thread = -1, .state = SIM_TASK_DONE};
            for (size_t k = shown; k < l->ndone; k++)
                sum_into(&sum, &l->done[k]);
            if (l->more.state == SIM_TASK_DONE) {
                uint64_t n = sum.id;
                sum_into(&sum, &l->more);
                sum.id = n + l->more.id;
            }
            text_line(m, f, &sum, "    ");
        } else if (l->more.state == SIM_TASK_DONE) {
            text_line(m, f, &l->more, "    ");
        }
        for (int t = 0; t < l->nthreads; t++)
            if (l->bound[t].state == SIM_TASK_RUNNING)
                text_line(m, f, &l->bound[t], "    ");
    }
}

static void json_task(const sim_machine *m, FILE *f, const sim_task *t, int *first)
{
    const char *const *stalls = m->isa->stall_names;
    char name[SIM_TASK_NAME + 24];
    sim_task v = sim_task_view(m, t);
    fprintf(f, "%s\n    {\"unit\": %d, ", *first ? "" : ",", t->unit);
    *first = 0;
    if (t->thread >= 0) {
        fprintf(f, "\"thread\": %d, \"seq\": %llu, \"name\": ", t->thread, (unsigned long long)t->seq);
        file_json_str(f, sim_task_name(m, t, name, sizeof name));
        fprintf(f, ", \"id\": %llu, \"state\": \"%s\", ", (unsigned long long)t->id,
                t->state == SIM_TASK_RUNNING ? "running" : "ended");
    } else {
        fprintf(f, "\"summed\": %llu, ", (unsigned long long)t->id);
    }
    fprintf(f,
            "\"begin\": %llu, \"end\": %llu, \"cycles\": %llu, \"instructions\": %llu, \"issue_cycles\": %llu, "
            "\"stalls\": {",
            (unsigned long long)v.begin, (unsigned long long)v.end, (unsigned long long)v.cycles,
            (unsigned long long)v.instructions, (unsigned long long)v.issue_cycles);
    file_json_counts(f, stalls, v.stalls, SIM_MAX_STALLS);
    fprintf(f, "}");
    const sim_unit *u = &m->units[t->unit];
    if (task_ncounters(u)) { /* the ISA's per-thread counters, over the task */
        fprintf(f, ", \"counters\": {");
        for (int k = 0; k < task_ncounters(u); k++) {
            fprintf(f, "%s", k ? ", " : "");
            file_json_str(f, u->thread_counter_names[k]);
            fprintf(f, ": %llu", (unsigned long long)v.counters[k]);
        }
        fprintf(f, "}");
    }
    fprintf(f, "}");
}

void sim_tasks_write_json(const sim_machine *m, FILE *f)
{
    if (!sim_tasks_any(m))
        return;
    int first = 1;
    fprintf(f, "  \"tasks\": [");
    for (int i = 0; i < m->nunits; i++) {
        const sim_task_list *l = m->units[i].tasks;
        if (!l)
            continue;
        for (size_t k = 0; k < l->ndone; k++)
            if (!sim_task_functional(m, &l->done[k]))
                json_task(m, f, &l->done[k], &first);
        for (int t = 0; t < l->nthreads; t++)
            if (l->bound[t].state == SIM_TASK_RUNNING)
                json_task(m, f, &l->bound[t], &first);
        if (l->more.state == SIM_TASK_DONE && !sim_task_functional(m, &l->more))
            json_task(m, f, &l->more, &first);
    }
    fprintf(f, "\n  ],\n");
}

int sim_tasks_write_list(const sim_machine *m, FILE *f, int unit, int max)
{
    int lines = 0;
    char name[SIM_TASK_NAME + 24];
    for (int i = 0; i < m->nunits; i++) {
        const sim_task_list *l = m->units[i].tasks;
        if ((unit >= 0 && i != unit) || !l || !l->begun)
            continue;
        const sim_unit *u = &m->units[i];
        /* the bound tasks first (what each thread runs now), then the latest ended ones */
        for (int t = 0; t < l->nthreads; t++) {
            const sim_task *b = &l->bound[t];
            if (b->state != SIM_TASK_RUNNING)
                continue;
            sim_task v = sim_task_view(m, b);
            fprintf(
                f, "%-10s thread %-2d task %-4llu %-24s id %-7llu running since %llu: %llu instructions, %llu cycles\n",
                u->name, t, (unsigned long long)b->seq, sim_task_name(m, b, name, sizeof name),
                (unsigned long long)b->id, (unsigned long long)b->begin, (unsigned long long)v.instructions,
                (unsigned long long)v.cycles);
            lines++;
        }
        size_t from = max > 0 && l->ndone > (size_t)max ? l->ndone - (size_t)max : 0;
        if (from || l->more.state == SIM_TASK_DONE) {
            fprintf(f, "%-10s (%llu other ended tasks not listed)\n", u->name,
                    (unsigned long long)(from + (l->more.state == SIM_TASK_DONE ? l->more.id : 0)));
            lines++;
        }
        for (size_t k = from; k < l->ndone; k++) {
            const sim_task *d = &l->done[k];
            fprintf(f,
                    "%-10s thread %-2d task %-4llu %-24s id %-7llu ended   %llu-%llu: %llu instructions, %llu cycles\n",
                    u->name, d->thread, (unsigned long long)d->seq, sim_task_name(m, d, name, sizeof name),
                    (unsigned long long)d->id, (unsigned long long)d->begin, (unsigned long long)d->end,
                    (unsigned long long)d->instructions, (unsigned long long)d->cycles);
            lines++;
        }
    }
    return lines;
}
