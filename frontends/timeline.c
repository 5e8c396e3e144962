/* frontends/timeline.c: `--timeline FILE.json`, the run as Chrome/Perfetto trace events
 * (the JSON that ui.perfetto.dev and chrome://tracing open): one process per unit, one track
 * per hardware thread, and on each track slices that cover the thread's cycles from 0 to
 * its end: "not started", "running" (issuing; gaps under TL_MIN_GAP cycles, such as the
 * DPU's revolver distance, stay inside it) and "stall: CAUSE" for longer gaps, the cause
 * being the ISA's stall counter that grew most over the gap. Each slice carries its exact
 * cycles in args (ts and dur are microseconds at the unit's clock). The run's stop is an
 * instant event. Each unit also has counter tracks, sampled every `sample` cycles: its
 * instructions per cycle, and how much each of the ISA's unit counters (DMA bytes, cache
 * misses, RAM transactions...) grew. A window [from, to) keeps only what falls inside it
 * (slices are clipped to it). Events an ISA notes (Nyuzi's traps, interrupts and syscalls)
 * are instants on their thread's track. A thread's time after its last issue is a gap like
 * any other ("stopped" when no stall counter grew: a DPU tasklet after its `stop`, waiting
 * for the others). Slices carry a "cname" from chrome://tracing's reserved palette (running
 * green, each stall cause its own colour) so that the picture reads without hovering;
 * Perfetto ignores it. It observes every executed instruction (core/debug.h
 * dbg_observe), so it runs on the slow path, like --trace. Events are written as they come
 * (no buffer grows); past TL_MAX_EVENTS the rest is dropped and the file says so. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "timeline.h"
#include "../core/debug.h"
#include "../core/stats.h"
#include "../isa/isa.h"

#define TL_MIN_GAP 32
#define TL_MAX_EVENTS 2000000ull

typedef struct tl_thread {
    uint64_t start, last;       /* open slice's start; the last issue cycle */
    int open;
    /* the thread's stall counters before the last issue: an ISA may count a wait when it
     * begins (the DPU, at the DMA instruction) or when it ends, so a gap's cause is what
     * grew across the last instruction and the gap together */
    uint64_t stalls[SIM_MAX_STALLS], before[SIM_MAX_STALLS];
} tl_thread;

/* A unit's counter sampling: the bucket being filled and the counters at its start. */
typedef struct tl_unit {
    uint64_t bucket, insns;     /* bucket index (cycle / sample), instructions in it */
    uint64_t *base;             /* the unit's counters when the bucket began */
    int started;
} tl_unit;

struct timeline {
    FILE *f;
    char path[512];
    sim_machine *m;
    tl_thread *th;              /* all threads, unit after unit */
    int *first;                 /* index in th of each unit's thread 0 */
    tl_unit *units;
    uint64_t from, to, sample;  /* the window [from, to) and the sampling period, in cycles */
    uint64_t events;
    int truncated;
};

static double us(const sim_unit *u, uint64_t cycle)
{
    double hz = u->clock_hz > 0 ? u->clock_hz : 1e6;
    return (double)cycle * 1e6 / hz;
}

static int room(timeline *t)
{
    if (t->events < TL_MAX_EVENTS)
        return 1;
    t->truncated = 1;
    return 0;
}

/* chrome://tracing's reserved colour names (catapult's color_scheme.html): "running" green,
 * the ISA's stall causes by index in an order that keeps the first causes (the DPU's dma,
 * Nyuzi's arbitration) apart, gaps no counter explains grey. */
static const char *const tl_stall_colours[] = {"terrible", "thread_state_iowait", "rail_response",
                                               "thread_state_uninterruptible", "olive", "thread_state_runnable",
                                               "rail_animation", "yellow", "thread_state_unknown", "cq_build_failed"};
#define TL_NCOLOURS (sizeof tl_stall_colours / sizeof tl_stall_colours[0])

static const char *colour(const sim_machine *m, const char *name)
{
    if (!strcmp(name, "running"))
        return "thread_state_running";
    if (strncmp(name, "stall: ", 7))
        return "grey"; /* not started, stopped */
    const char *const *names = m->isa->stall_names;
    for (int i = 0; names && names[i] && i < SIM_MAX_STALLS; i++)
        if (!strcmp(names[i], name + 7))
            return tl_stall_colours[(size_t)i % TL_NCOLOURS];
    return "generic_work"; /* stall: waiting */
}

/* s as a JSON string (quotes included): the ISA's free text, a stop's message. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A slice [from, to) on the thread's track; state, when not NULL, is the ISA's word on what
 * the thread waits for (in args, for the viewer's details pane). */
static void slice(timeline *t, const sim_unit *u, int thread, const char *name, uint64_t from, uint64_t to,
                  const char *state)
{
    from = from > t->from ? from : t->from; /* clipped to the window */
    to = to < t->to ? to : t->to;
    if (to <= from || !room(t))
        return;
    /* names are ours or the ISA's stall names: no characters that need escaping */
    fprintf(t->f, ",\n{\"name\":\"%s\",\"cat\":\"thread\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.6f,\"dur\":%.6f,"
                  "\"cname\":\"%s\",\"args\":{\"from\":%llu,\"cycles\":%llu",
            name, u->index, thread, us(u, from), us(u, to) - us(u, from), colour(t->m, name),
            (unsigned long long)from, (unsigned long long)(to - from));
    if (state) {
        fprintf(t->f, ",\"state\":");
        json_str(t->f, state);
    }
    fprintf(t->f, "}}");
    t->events++;
}

/* Close unit u's bucket: its IPC and each counter's growth, at the bucket's start. */
static void sample_out(timeline *t, const sim_unit *u, tl_unit *s)
{
    uint64_t at = s->bucket * t->sample;
    if (at < t->from || at >= t->to || !room(t))
        return;
    fprintf(t->f, ",\n{\"name\":\"ipc\",\"ph\":\"C\",\"pid\":%d,\"ts\":%.6f,\"args\":{\"ipc\":%.4f}}", u->index,
            us(u, at), (double)s->insns / (double)t->sample);
    t->events++;
    if (!u->ncounters || !room(t))
        return;
    fprintf(t->f, ",\n{\"name\":\"counters\",\"ph\":\"C\",\"pid\":%d,\"ts\":%.6f,\"args\":{", u->index,
            us(u, at));
    for (int i = 0; i < u->ncounters; i++)
        fprintf(t->f, "%s\"%s\":%llu", i ? "," : "", u->counters[i].name,
                (unsigned long long)(u->counters[i].value - s->base[i]));
    fprintf(t->f, "}}");
    t->events++;
}

/* The instruction count of the bucket that cycle c falls in; buckets left behind close. */
static void sample(timeline *t, const sim_unit *u, uint64_t c)
{
    tl_unit *s = &t->units[u->index];
    uint64_t b = c / t->sample;
    if (!s->started || b != s->bucket) {
        if (s->started)
            sample_out(t, u, s);
        if (s->started && b > s->bucket + 1) { /* an idle stretch: one zero sample */
            s->bucket++;
            s->insns = 0;
            sample_out(t, u, s);
        }
        for (int i = 0; i < u->ncounters; i++)
            s->base[i] = u->counters[i].value;
        s->bucket = b;
        s->insns = 0;
        s->started = 1;
    }
    s->insns++;
}

/* The stall cause that grew most across the last instruction and the gap, or NULL when
 * none grew by at least `least` cycles. */
static const char *cause(const sim_machine *m, const sim_thread *th, const tl_thread *s, uint64_t least)
{
    const char *const *names = m->isa->stall_names;
    uint64_t best = least ? least - 1 : 0;
    const char *name = NULL;
    for (int i = 0; names && names[i] && i < SIM_MAX_STALLS; i++)
        if (th->stalls[i] - s->before[i] > best) {
            best = th->stalls[i] - s->before[i];
            name = names[i];
        }
    return name;
}

static void observe(void *ctx, sim_machine *m, sim_unit *u, int thread, uint64_t pc)
{
    (void)pc;
    timeline *t = ctx;
    tl_thread *s = &t->th[t->first[u->index] + thread];
    const sim_thread *th = &u->threads[thread];
    uint64_t c = u->last_issue;
    sample(t, u, c);
    if (!s->open) {
        slice(t, u, thread, "not started", 0, c, NULL);
        s->open = 1;
        s->start = c;
        memcpy(s->stalls, th->stalls, sizeof s->stalls);
    } else if (c > s->last + TL_MIN_GAP) {
        char name[64];
        const char *why = cause(m, th, s, 0);
        snprintf(name, sizeof name, "stall: %s", why ? why : "waiting");
        slice(t, u, thread, "running", s->start, s->last + 1, NULL);
        slice(t, u, thread, name, s->last + 1, c, NULL);
        s->start = c;
    }
    s->last = c;
    memcpy(s->before, s->stalls, sizeof s->before);
    memcpy(s->stalls, th->stalls, sizeof s->stalls);
}

/* An event an ISA noted (a trap, an interrupt, a syscall): an instant on the thread's track. */
static void note(void *ctx, sim_machine *m, int unit, int thread, uint64_t cycle, const char *what)
{
    timeline *t = ctx;
    if (unit < 0 || unit >= m->nunits || cycle < t->from || cycle >= t->to || !room(t))
        return;
    fprintf(t->f, ",\n{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%.6f,\"args\":{\"cycle\":%llu}}",
            what, unit, thread, us(&m->units[unit], cycle), (unsigned long long)cycle);
    t->events++;
}

timeline *timeline_open(sim_machine *m, const char *path, uint64_t from, uint64_t to, uint64_t every, char *err,
                        size_t errlen)
{
    timeline *t = calloc(1, sizeof *t);
    int total = 0, ok = t != NULL;
    if (ok)
        t->m = m;
    if (ok)
        ok = (t->first = calloc((size_t)m->nunits + 1, sizeof *t->first)) &&
             (t->units = calloc((size_t)m->nunits + 1, sizeof *t->units));
    for (int i = 0; ok && i < m->nunits; i++) {
        t->first[i] = total;
        total += m->units[i].nthreads;
        ok = (t->units[i].base = calloc((size_t)m->units[i].ncounters + 1, sizeof *t->units[i].base)) != NULL;
    }
    if (!ok || !(t->th = calloc((size_t)total + 1, sizeof *t->th))) {
        snprintf(err, errlen, "--timeline: out of memory");
        timeline_discard(t);
        return NULL;
    }
    t->from = from;
    t->to = to;
    t->sample = every ? every : 1;
    snprintf(t->path, sizeof t->path, "%s", path);
    if (!(t->f = fopen(path, "w"))) {
        snprintf(err, errlen, "--timeline: %s: %s", path, strerror(errno));
        timeline_discard(t);
        return NULL;
    }
    fprintf(t->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                  "{\"name\":\"xpusim\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"isa\":\"%s\"",
            m->isa->name);
    if (m->build) { /* the build that made it, as the statistics' host.xpusim */
        fprintf(t->f, ",\"build\":");
        json_str(t->f, m->build);
    }
    fprintf(t->f, "}}");
    for (int i = 0; i < m->nunits; i++) {
        fprintf(t->f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"%s\"}}", i, m->units[i].name);
        /* sort indexes keep the tracks in thread order (chrome://tracing sorts by name
         * otherwise: thread 0, 1, 10, 11...) */
        fprintf(t->f, ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}", i,
                i);
        for (int k = 0; k < m->units[i].nthreads; k++) {
            char name[64] = "";
            if (m->isa->thread_name)
                m->isa->thread_name(m, i, k, name, sizeof name);
            if (!name[0])
                snprintf(name, sizeof name, "thread %d", k);
            fprintf(t->f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", i, k);
            json_str(t->f, name);
            fprintf(t->f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                    i, k, k);
        }
    }
    if (dbg_observe(m, observe, note, t)) {
        snprintf(err, errlen, "--timeline: out of memory");
        fclose(t->f);
        timeline_discard(t);
        return NULL;
    }
    return t;
}

int timeline_close(timeline *t, char *err, size_t errlen)
{
    sim_machine *m = t->m;
    dbg_observe(m, NULL, NULL, NULL);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (t->units[i].started)
            sample_out(t, u, &t->units[i]);
        for (int k = 0; k < u->nthreads; k++) {
            const tl_thread *s = &t->th[t->first[i] + k];
            uint64_t end = stats_thread_cycles(m, &u->threads[k]);
            if (!s->open) {
                slice(t, u, k, "not started", 0, end, NULL);
            } else if (end > s->last + TL_MIN_GAP) {
                /* the time from the last issue to the thread's end is a gap like the others,
                 * but a cause must cover half of it to name it: a halted thread's last
                 * instruction is often the halt itself (the DPU's stop), and a thread still
                 * waiting at the end (a deadlock, a limit) is in a wait its ISA may count
                 * only when it ends (CERT's), so the few cycles counted at the last
                 * instruction say nothing of the time after it. Such a thread's slice also
                 * carries what the ISA says it waits for. */
                char name[64], state[512] = "";
                int halted = u->threads[k].state == SIM_T_HALTED;
                const char *why = cause(m, &u->threads[k], s, (end - s->last) / 2);
                snprintf(name, sizeof name, "stall: %s", why ? why : "waiting");
                if (!halted && m->isa->thread_state) /* a hang: what the thread waits for */
                    m->isa->thread_state(m, i, k, state, sizeof state);
                slice(t, u, k, "running", s->start, s->last + 1, NULL);
                slice(t, u, k, why || !halted ? name : "stopped", s->last + 1, end, *state ? state : NULL);
            } else {
                slice(t, u, k, "running", s->start, end > s->start ? end : s->last + 1, NULL);
            }
        }
    }
    /* a halt happens when the last unit halts: the end of the run (the stop's own cycle is
     * where the event loop was, which units that run ahead of it have left behind) */
    uint64_t at = m->stop.kind == SIM_STOP_HALT ? sim_end_cycle(m) : m->stop.cycle;
    int su = m->stop.unit >= 0 && m->stop.unit < m->nunits ? m->stop.unit : 0;
    if (m->nunits && at >= t->from && at <= t->to)
    {
        fprintf(t->f, ",\n{\"name\":\"stop: %s\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":%.6f,"
                      "\"args\":{\"cycle\":%llu,\"message\":",
                sim_stop_name(m->stop.kind), us(&m->units[su], at), (unsigned long long)at);
        json_str(t->f, m->stop.msg);
        fprintf(t->f, "}}");
    }
    if (t->truncated)
        fprintf(t->f, ",\n{\"name\":\"truncated\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"events\":%llu}}",
                (unsigned long long)t->events);
    fprintf(t->f, "\n]}\n");
    int bad = ferror(t->f);
    if (fclose(t->f) || bad) {
        snprintf(err, errlen, "--timeline: %s: %s", t->path, strerror(errno ? errno : EIO));
        t->f = NULL;
        timeline_discard(t);
        return -1;
    }
    t->f = NULL;
    if (t->truncated)
        fprintf(stderr, "xpusim: --timeline: %s: stopped after %llu slices (the rest of the run is not in it)\n", t->path,
                (unsigned long long)t->events);
    timeline_discard(t);
    return 0;
}

void timeline_discard(timeline *t)
{
    if (!t)
        return;
    if (t->f)
        fclose(t->f);
    for (int i = 0; t->units && t->m && i < t->m->nunits; i++)
        free(t->units[i].base);
    free(t->units);
    free(t->th);
    free(t->first);
    free(t);
}
