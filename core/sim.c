/* core/sim.c: the machine's life cycle and topology: creating and destroying a machine,
 * groups, units, threads, counters and address spaces (shared ones and units' own),
 * restarting a run with memory kept, the fast-forward switch, stops and halts. The run loop itself is in core/run.c; the two share
 * only what core/run.h declares. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "run.h"
#include "clock.h"
#include "../isa/isa.h"
#include "grow.h"

/* Watchdog: UINT64_MAX / 4 at most, so that adding it to a cycle count cannot wrap. */
const opt_desc sim_core_options[] = {
    OPT_U("jobs", "1", 1, 1024, "host threads for units that run independently or event-coupled, and for their set-up (results identical to jobs=1)"),
    OPT_U("watchdog", "100000000", 0, UINT64_MAX / 4,
          "stop as a livelock after this many cycles in which no thread retires an instruction (0 = off)"),
    OPT_C("timing", "cycle", ((const char *const[]){"cycle", "none", NULL}),
          "cycle: the cycle model; none: functional (same architectural results, no timing; cycles then count issue steps, not time)"),
    OPT_END};


static void ff_free(sim_machine *m);
static mem_space *sim_space_registered(const sim_machine *m, const char *name);


int sim_create(sim_machine *m, const isa_ops *isa, const sim_opts *opts, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->isa = isa;
    if (opts)
        m->opts = *opts;
    else
        opt_init(&m->opts);
    ev_queue_init(&m->q);
    m->limit = SIM_NEVER;
    m->out = stdout;
    m->err = stderr;
    m->stop.unit = m->stop.thread = -1;
    pthread_mutex_t *lk = malloc(sizeof *lk);
    if (!lk) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pthread_mutex_init(lk, NULL);
    m->lock = lk;
    uint64_t jobs;
    if (opt_uint(&m->opts, sim_core_options, "jobs", &jobs, err, errlen)) {
        sim_destroy(m);
        return -1;
    }
    m->jobs = (int)jobs;
    int timing;
    if (opt_choice(&m->opts, sim_core_options, "timing", &timing, err, errlen)) {
        sim_destroy(m);
        return -1;
    }
    m->functional = (uint8_t)timing;
    if (m->functional && !isa->functional) {
        snprintf(err, errlen, "-o timing=none: the %s model has no functional mode yet", isa->name);
        sim_destroy(m);
        return -1;
    }
    if (opt_uint(&m->opts, sim_core_options, "watchdog", &m->watchdog, err, errlen)) {
        sim_destroy(m);
        return -1;
    }
    if (isa->create(m, err, errlen) || sim_clock_setup(m, err, errlen)) {
        sim_destroy(m);
        return -1;
    }
    for (int i = 0; i < m->nunits; i++)
        m->units[i].wd_next = m->watchdog;
    if (m->watchdog && !isa->independent_units) {
        if (sim_register_event(m, &m->wd_ev, "watchdog", sim_run_watchdog_event, m, INT32_MAX)) {
            snprintf(err, errlen, "out of memory");
            sim_destroy(m);
            return -1;
        }
        sim_schedule(m, &m->wd_ev, sim_watchdog_ticks(m));
    }
    return 0;
}

void sim_restart(sim_machine *m, const uint8_t *sel)
{
    ff_free(m); /* a new run: no functional part to report apart */
    if (m->tasks_free)
        m->tasks_free(m);
    m->now = 0;
    m->stop = (sim_stop){.kind = SIM_STOP_NONE, .unit = -1, .thread = -1};
    m->host_seconds = 0;
    m->nhalted = 0;
    m->wd_insns = 0;
    if (m->watchdog && !m->isa->independent_units)
        sim_schedule(m, &m->wd_ev, sim_watchdog_ticks(m));
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        ev_cancel(&m->q, &u->ev);
        if (!u->enabled)
            continue;
        if (sel && !sel[i]) {
            u->halted = 1; /* not part of this run: it counts as done */
            m->nhalted++;
            continue;
        }
        u->halted = 0;
        u->halted_at = 0;
        u->reached = 0;
        u->rr = 0;
        u->last_issue = SIM_NEVER;
        u->wd_next = m->watchdog;
        u->wd_insns = 0;
        u->wd_stale = 0;
        memset(u->threads, 0, sizeof *u->threads * (size_t)u->nthreads);
        for (int k = 0; k < u->ncounters; k++)
            u->counters[k].value = 0;
        if (u->thread_counters)
            memset(u->thread_counters, 0, sizeof *u->thread_counters * (size_t)u->nthreads * (size_t)u->nthread_counters);
    }
}

static void ff_free(sim_machine *m)
{
    sim_ff_part *p = m->ff;
    if (!p)
        return;
    for (int i = 0; p->units && i < m->nunits; i++) {
        free(p->units[i].counters);
        free(p->units[i].threads);
        free(p->units[i].thread_counters);
    }
    free(p->units);
    free(p);
    m->ff = NULL;
}

int sim_marker_hit(sim_machine *m, int unit, int thread, uint64_t pc)
{
    if (!m->ff_magic)
        return 0;
    m->ff_magic = 0;
    sim_set_stop(m, SIM_STOP_MARKER, unit, thread, pc, "magic marker reached by %s thread %d at pc 0x%llx",
                 unit >= 0 && unit < m->nunits ? m->units[unit].name : "?", thread, (unsigned long long)pc);
    return 1;
}

int sim_ff_switch(sim_machine *m, const char *marker, int reached)
{
    ff_free(m);
    sim_ff_part *p = calloc(1, sizeof *p);
    if (!p || !(p->units = calloc((size_t)(m->nunits ? m->nunits : 1), sizeof *p->units))) {
        free(p);
        return -1;
    }
    m->ff = p;
    /* the switch: the first cycle no unit has simulated yet (each unit has run through
     * `reached`), where the cycle model takes over; so the region's first instruction
     * issues at the switch or later, as in a full run from a quiescent state. With every
     * unit halted: the end. */
    p->cycle = 0;
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        uint64_t next = sim_unit_tick(u, u->reached + 1); /* in ticks: units of other clocks */
        if (u->enabled && !u->halted && next > p->cycle)
            p->cycle = next;
    }
    if (!p->cycle)
        p->cycle = sim_end_cycle(m);
    p->instructions = sim_total_instructions(m);
    p->reached = reached;
    snprintf(p->marker, sizeof p->marker, "%s", marker ? marker : "");
    sim_counters_sync(m);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        sim_ff_unit *fu = &p->units[i];
        size_t ntc = (size_t)u->nthreads * (size_t)u->nthread_counters;
        fu->counters = calloc((size_t)(u->ncounters ? u->ncounters : 1), sizeof *fu->counters);
        fu->threads = malloc(sizeof *fu->threads * (size_t)(u->nthreads ? u->nthreads : 1));
        fu->thread_counters = calloc(ntc ? ntc : 1, sizeof *fu->thread_counters);
        if (!fu->counters || !fu->threads || !fu->thread_counters) {
            ff_free(m);
            return -1;
        }
        for (int k = 0; k < u->ncounters; k++)
            fu->counters[k] = u->counters[k].value;
        memcpy(fu->threads, u->threads, sizeof *fu->threads * (size_t)u->nthreads);
        if (ntc)
            memcpy(fu->thread_counters, u->thread_counters, sizeof *fu->thread_counters * ntc);
        for (int t = 0; t < u->nthreads; t++)
            fu->instructions += u->threads[t].instructions;
        fu->halted = u->halted;
    }
    m->ff_magic = 0;
    m->ff_insns = 0;
    m->ff_armed = 0;
    if (!reached)
        return 0;
    /* the cycle model takes over from the architectural state at the next unit_run */
    m->functional = 0;
    if (m->isa->timing_resume)
        m->isa->timing_resume(m);
    m->stop = (sim_stop){.kind = SIM_STOP_NONE, .unit = -1, .thread = -1};
    return 0;
}

void sim_destroy(sim_machine *m)
{
    ff_free(m);
    sim_run_free(m);
    if (m->isa && m->isa->destroy && m->isa_state)
        m->isa->destroy(m);
    if (m->dbg_free)
        m->dbg_free(m);
    if (m->tasks_free)
        m->tasks_free(m);
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        free(u->threads);
        free(u->counters);
        free(u->thread_counters);
        for (int k = 0; k < u->nspaces; k++) {
            mem_space_free(u->spaces[k]);
            free(u->spaces[k]);
        }
        free(u->spaces);
    }
    free(m->units);
    free(m->groups);
    for (int i = 0; i < m->nspaces; i++) {
        mem_space_free(m->spaces[i]);
        free(m->spaces[i]);
    }
    free(m->spaces);
    ev_queue_free(&m->q);
    if (m->lock) {
        pthread_mutex_destroy(m->lock);
        free(m->lock);
    }
    memset(m, 0, sizeof *m);
}

int sim_register_event(sim_machine *m, ev_event *e, const char *name, ev_fn fn, void *ctx, int prio)
{
    ev_init(e, name, fn, ctx, prio);
    return ev_register(&m->q);
}

int sim_add_units(sim_machine *m, int nunits, int threads_per_unit, const char *name_fmt, double clock_hz)
{
    return sim_add_units_in(m, NULL, nunits, threads_per_unit, name_fmt, clock_hz);
}

/* Names of groups: what a path can carry ('.' separates, ':' ends a unit path in a space
 * name, spaces end a debugger argument). */
static int group_name_ok(const char *name)
{
    size_t n = strlen(name);
    return n && n < sizeof ((sim_group *)0)->name && !strpbrk(name, ".: \t");
}

sim_group *sim_add_group(sim_machine *m, const char *name, const sim_group *parent)
{
    int pi = parent ? parent->index : -1;
    if (!name || !group_name_ok(name) || pi >= m->ngroups)
        return NULL;
    for (int i = 0; i < m->ngroups; i++)
        if (m->groups[i].parent == pi && !strcmp(m->groups[i].name, name))
            return NULL; /* the path would name two groups */
    sim_group *gs = realloc(m->groups, sizeof *gs * (size_t)(m->ngroups + 1));
    if (!gs)
        return NULL;
    m->groups = gs;
    sim_group *g = &gs[m->ngroups];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->index = m->ngroups++;
    g->parent = pi;
    g->depth = pi < 0 ? 0 : gs[pi].depth + 1;
    return g;
}

/* The units array moved (realloc): what points into it is the units' own run events (the
 * event's context, and the heap slot of a queued one). */
static void units_moved(sim_machine *m)
{
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        u->ev.ctx = u;
        if (u->ev.heap_index >= 0)
            m->q.heap[u->ev.heap_index] = &u->ev;
    }
}

/* What sim_add_units_in's units are made with (unit_init). */
typedef struct {
    sim_machine *m;
    int first, group, nthreads;
    const char *name_fmt;
    double clock_hz;
} units_init;

/* Unit first + i of a sim_add_units_in call, its threads asleep (a sim_par_fn: thousands of
 * DPUs' threads are megabytes whose first touch is set-up time, issue 9 pt 5). */
static int unit_init(void *ctx, int i, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const units_init *c = ctx;
    sim_machine *m = c->m;
    sim_unit *u = &m->units[c->first + i];
    snprintf(u->name, sizeof u->name, c->name_fmt, i);
    u->index = c->first + i;
    u->group = c->group;
    u->m = m;
    u->enabled = 1;
    u->clock_hz = c->clock_hz;
    u->last_issue = SIM_NEVER;
    u->ev.heap_index = -1;
    /* the contract (isa/isa.h): DPUs declare theirs machine-wide; else cycle-coupled
     * until the ISA says otherwise (sim_unit_set_coupling) */
    u->coupling = m->isa && m->isa->independent_units ? SIM_COUPLE_INDEPENDENT : SIM_COUPLE_CYCLE;
    u->nthreads = c->nthreads;
    u->threads = calloc((size_t)c->nthreads, sizeof *u->threads);
    if (!u->threads)
        return -1;
    for (int t = 0; t < c->nthreads; t++) {
        u->threads[t].state = SIM_T_SLEEP;
        u->threads[t].ready_at = SIM_NEVER;
    }
    return 0;
}

int sim_add_units_in(sim_machine *m, const sim_group *g, int nunits, int threads_per_unit, const char *name_fmt,
                     double clock_hz)
{
    int gi = g ? g->index : -1;
    if (nunits <= 0 || threads_per_unit <= 0 || gi >= m->ngroups || nunits > INT32_MAX - m->nunits)
        return -1;
    sim_unit *us = realloc(m->units, sizeof *us * (size_t)(m->nunits + nunits));
    if (!us)
        return -1;
    int first = m->nunits;
    memset(us + first, 0, sizeof *us * (size_t)nunits);
    m->units = us;
    if (first)
        units_moved(m);
    m->nunits += nunits; /* counted at once: sim_destroy frees what a failed call made */
    m->nenabled += nunits;
    units_init ui = {m, first, gi, threads_per_unit, name_fmt, clock_hz};
    if (sim_par_for(m, 0, nunits, unit_init, &ui, NULL, 0))
        return -1;
    for (int i = first; i < m->nunits; i++) /* (the queue: on this thread, in order) */
        if (sim_register_event(m, &m->units[i].ev, m->units[i].name, sim_run_unit_event, &m->units[i], 0))
            return -1;
    if (gi >= 0) {
        sim_group *gr = &m->groups[gi];
        gr->nunits += nunits;
        gr->threads = threads_per_unit;
        gr->clock_hz = clock_hz;
    }
    /* each unit's period from the clocks so far (sim_create reports clocks without a common
     * time base), so that what the ISA schedules while it adds units is in the right ticks */
    sim_clock_setup(m, NULL, 0);
    return 0;
}

void sim_unit_enable(sim_machine *m, sim_unit *u)
{
    if (u->enabled)
        return;
    u->enabled = 1;
    m->nenabled++;
}

int sim_group_take_units(sim_machine *m, const sim_group *g, int first, int n)
{
    if (!g || g->index >= m->ngroups || first < 0 || n <= 0 || first > m->nunits - n)
        return -1;
    for (int i = first; i < first + n; i++)
        if (m->units[i].group >= 0)
            return -1; /* already placed: a unit is in one group */
    sim_group *gr = &m->groups[g->index];
    for (int i = first; i < first + n; i++) {
        m->units[i].group = gr->index;
        gr->threads = m->units[i].nthreads;
        gr->clock_hz = m->units[i].clock_hz;
    }
    gr->nunits += n;
    return 0;
}

const char *sim_group_path(const sim_machine *m, int g, char *buf, size_t n)
{
    if (!n)
        return buf;
    buf[0] = 0;
    if (g < 0 || g >= m->ngroups)
        return buf;
    int chain[64], k = 0;
    for (int i = g; i >= 0 && k < 64; i = m->groups[i].parent)
        chain[k++] = i;
    size_t at = 0;
    while (k-- > 0 && at < n) {
        int w = snprintf(buf + at, n - at, "%s%s", at ? "." : "", m->groups[chain[k]].name);
        at += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const char *sim_unit_path(const sim_machine *m, int unit, char *buf, size_t n)
{
    if (!n)
        return buf;
    buf[0] = 0;
    if (unit < 0 || unit >= m->nunits)
        return buf;
    const sim_unit *u = &m->units[unit];
    sim_group_path(m, u->group, buf, n);
    size_t at = strlen(buf);
    if (at < n)
        snprintf(buf + at, n - at, "%s%s", at ? "." : "", u->name);
    return buf;
}

sim_group *sim_find_group(const sim_machine *m, const char *path)
{
    char buf[256];
    for (int i = 0; path && i < m->ngroups; i++)
        if (!strcmp(sim_group_path(m, i, buf, sizeof buf), path))
            return &m->groups[i];
    return NULL;
}

int sim_find_unit(const sim_machine *m, const char *path)
{
    if (!path || !*path)
        return -1;
    char *end;
    unsigned long v = strtoul(path, &end, 10);
    if (!*end && path[0] >= '0' && path[0] <= '9')
        return v < (unsigned long)m->nunits ? (int)v : -1;
    char buf[256];
    int bare = -1, nbare = 0;
    for (int i = 0; i < m->nunits; i++) {
        if (!strcmp(m->units[i].name, path)) {
            bare = i;
            nbare++;
        }
        if (m->ngroups && !strcmp(sim_unit_path(m, i, buf, sizeof buf), path))
            return i;
    }
    return nbare == 1 ? bare : -1; /* a bare name two groups share names neither */
}

int sim_unit_in_group(const sim_machine *m, int unit, int g)
{
    if (unit < 0 || unit >= m->nunits)
        return 0;
    if (g < 0)
        return 1;
    for (int i = m->units[unit].group; i >= 0; i = m->groups[i].parent)
        if (i == g)
            return 1;
    return 0;
}

int sim_unit_counters(sim_unit *u, const char *const *names, int n)
{
    free(u->counters);
    u->counters = calloc((size_t)n, sizeof *u->counters);
    if (!u->counters)
        return -1;
    for (int i = 0; i < n; i++)
        u->counters[i].name = names[i];
    u->ncounters = n;
    return 0;
}

int sim_unit_thread_counters(sim_unit *u, const char *const *names, int n)
{
    free(u->thread_counters);
    u->thread_counters = calloc((size_t)(n ? n : 1) * (size_t)(u->nthreads ? u->nthreads : 1), sizeof *u->thread_counters);
    if (!u->thread_counters)
        return -1;
    u->thread_counter_names = names;
    u->nthread_counters = n;
    return 0;
}

int sim_set_image(sim_machine *m, const char *path, const struct ld_image *img)
{
    if (!path || !*path) {
        m->image = img;
        return 0;
    }
    /* a path that names both a group and a unit (group chip.x, unit x in chip) means the group */
    sim_group *g = sim_find_group(m, path);
    if (g) {
        g->image = img;
        return 0;
    }
    int unit = sim_find_unit(m, path);
    if (unit < 0)
        return -1;
    m->units[unit].image = img;
    return 0;
}

const struct ld_image *sim_unit_image(const sim_machine *m, int unit)
{
    if (unit < 0 || unit >= m->nunits)
        return m->image;
    if (m->units[unit].image)
        return m->units[unit].image;
    for (int g = m->units[unit].group; g >= 0; g = m->groups[g].parent)
        if (m->groups[g].image)
            return m->groups[g].image;
    return m->image;
}

/* Append s to a growable array of spaces; -1 out of memory. */
static int spaces_push(mem_space ***arr, int *n, int *cap, mem_space *s)
{
    mem_space **a = grow_array_int(*arr, cap, *n + 1, sizeof *a, 8);
    if (!a)
        return -1;
    *arr = a;
    (*arr)[(*n)++] = s;
    return 0;
}

mem_space *sim_add_space(sim_machine *m, const char *name, unsigned addr_unit, unsigned word_bytes, int big_endian)
{
    if (sim_space_registered(m, name) || strlen(name) >= sizeof ((mem_space *)0)->name)
        return NULL; /* a name that does not fit could never be found again */
    mem_space *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    mem_space_init(s, name, addr_unit, word_bytes, big_endian);
    if (spaces_push(&m->spaces, &m->nspaces, &m->spaces_cap, s)) {
        free(s);
        return NULL;
    }
    return s;
}

/* A unit's own space called name, or NULL. The space's name is its label: the part before
 * a ".N" suffix is the name within the unit (labels "wram.7" and "tmem" both match). */
static mem_space *unit_own_space(const sim_unit *u, const char *name)
{
    size_t n = strlen(name);
    for (int k = 0; k < u->nspaces; k++) {
        const char *l = u->spaces[k]->name;
        if (!strncmp(l, name, n) && (l[n] == 0 || l[n] == '.'))
            return u->spaces[k];
    }
    return NULL;
}

mem_space *sim_unit_add_space(sim_machine *m, sim_unit *u, const char *name, const char *label, unsigned addr_unit,
                              unsigned word_bytes, int big_endian)
{
    const char *l = label ? label : name;
    size_t n = strlen(name);
    /* the label must begin with the name (so lookups by name find it) and fit */
    if (!u || u->m != m || !n || unit_own_space(u, name) || strlen(l) >= sizeof ((mem_space *)0)->name ||
        strncmp(l, name, n) || (l[n] && l[n] != '.'))
        return NULL;
    mem_space *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    mem_space_init(s, l, addr_unit, word_bytes, big_endian);
    if (spaces_push(&u->spaces, &u->nspaces, &u->spaces_cap, s)) {
        free(s);
        return NULL;
    }
    return s;
}

static mem_space *sim_space_registered(const sim_machine *m, const char *name)
{
    for (int i = 0; i < m->nspaces; i++)
        if (strcmp(m->spaces[i]->name, name) == 0)
            return m->spaces[i];
    return NULL;
}

mem_space *sim_space(const sim_machine *m, const char *name)
{
    mem_space *s = sim_space_registered(m, name);
    if (s)
        return s;
    const char *at = strrchr(name, '@');
    if (at) {
        /* "NAME@UNITPATH": the unit's own space ("tmem@ipu0.tile5") */
        char base[32];
        size_t n = (size_t)(at - name);
        if (!n || n >= sizeof base)
            return NULL;
        memcpy(base, name, n);
        base[n] = 0;
        int unit = sim_find_unit(m, at + 1);
        return unit < 0 ? NULL : sim_unit_space(m, unit, base);
    }
    const char *dot = strrchr(name, '.');
    if (!dot)
        return NULL;
    /* "NAME.UNIT": unit UNIT's own space */
    char base[32], *end;
    size_t n = (size_t)(dot - name);
    long unit = strtol(dot + 1, &end, 10);
    if (n == 0 || n >= sizeof base || *end || end == dot + 1 || unit < 0 || unit >= m->nunits)
        return NULL;
    memcpy(base, name, n);
    base[n] = 0;
    s = unit_own_space(&m->units[unit], base);
    if (s || !m->isa || !m->isa->unit_space)
        return s;
    return m->isa->unit_space((sim_machine *)m, (int)unit, base);
}

mem_space *sim_unit_space(const sim_machine *m, int unit, const char *name)
{
    if (unit >= 0 && unit < m->nunits) {
        mem_space *s = unit_own_space(&m->units[unit], name);
        if (s)
            return s;
    }
    if (m->isa && m->isa->unit_space) {
        mem_space *s = m->isa->unit_space((sim_machine *)m, unit, name);
        if (s)
            return s;
    }
    char buf[48];
    snprintf(buf, sizeof buf, "%s.%d", name, unit);
    mem_space *s = unit > 0 ? sim_space_registered(m, buf) : NULL;
    return s ? s : sim_space_registered(m, name);
}

const char *sim_stop_name(sim_stop_kind k)
{
    static const char *const names[] = {"none", "halted", "breakpoint", "watchpoint", "step", "fault",
                                        "illegal instruction", "limit", "deadlock", "interrupted", "error", "marker"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

int sim_stop_exit_code(sim_stop_kind k)
{
    switch (k) {
    case SIM_STOP_HALT: return 0;
    case SIM_STOP_FAULT:
    case SIM_STOP_ILLEGAL: return 2;
    case SIM_STOP_LIMIT:
    case SIM_STOP_DEADLOCK:
    case SIM_STOP_MARKER: return 3; /* a run left at its marker is not finished */
    default: return 1;
    }
}
