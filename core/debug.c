/* core/debug.c: breakpoints, step/until targets, the instruction history ring, the trace
 * sink and watchpoint reporting. Everything here runs only when m->slow is set, which
 * dbg_update_slow() keeps equal to "some feature is on", so a plain run pays nothing. It
 * also derives what a fast path needs to stay on while only breakpoints and watchpoints are
 * set (d->hooks, the breakpoint filter d->bpmap). The trace formats its lines by hand from a
 * per-pc cache of disassembled text (no allocation and no instruction-form scan per traced
 * instruction), filtered by a cycle window and a pc range. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "debug.h"
#include "profile.h"
#include "../isa/isa.h"
#include "../loaders/loader.h"

int dbg_profile_on(sim_machine *m)
{
    if (dbg_attach(m))
        return -1;
    if (!m->dbg->prof && !(m->dbg->prof = prof_new(m)))
        return -1;
    dbg_update_slow(m);
    return 0;
}

static void dbg_trace_close(dbg_state *d)
{
    if (d->trace_held) {
        d->trace = d->trace_held;
        d->trace_held = NULL;
    }
    if (d->trace && d->trace != stdout && d->trace != stderr)
        fclose(d->trace);
    else if (d->trace)
        fflush(d->trace);
    d->trace = NULL;
}

int dbg_attach(sim_machine *m)
{
    if (m->dbg)
        return 0;
    dbg_state *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    d->hist = calloc(DBG_HISTORY, sizeof *d->hist);
    if (!d->hist) {
        free(d);
        return -1;
    }
    d->next_id = 1;
    d->trace_to = d->trace_hi = UINT64_MAX;
    for (int k = 0; k < 64; k++)
        d->cspace[k].unit = -1;
    m->dbg_free = dbg_detach;
    d->step_unit = d->step_thread = -1;
    m->dbg = d;
    return 0;
}

void dbg_detach(sim_machine *m)
{
    dbg_state *d = m->dbg;
    if (!d)
        return;
    dbg_trace_close(d);
    prof_free(d->prof);
    free(d->dis);
    free(d->hist);
    free(d);
    m->dbg = NULL;
    m->slow = 0;
}

static void bp_mark(dbg_state *d, uint64_t pc)
{
    d->bpmap[dbg_bp_slot(pc)] = 1;
}

void dbg_update_slow(sim_machine *m)
{
    dbg_state *d = m->dbg;
    int watches = 0;
    for (int i = 0; i < m->nspaces; i++)
        watches += m->spaces[i]->nwatch;
    if (d)
        watches += d->nwatch; /* (units' own spaces an ISA makes on demand are not in m->spaces) */
    m->slow = d && (d->nbrk || d->step_left || d->until_active || d->trace || d->history_on || watches ||
                    d->nskip || d->prof || d->observe);
    if (!d)
        return;
    /* breakpoints, until and resume marks are all decided at one pc: a fast path asks at
     * the pcs the filter flags; stepping, tracing, history, profile and observer see every
     * instruction (the profile through the ISA's fast path when it declares profile_fast) */
    d->hooks = d->step_left || d->trace || d->history_on || (d->prof && !(m->isa && m->isa->profile_fast)) ||
               d->observe;
    d->watching = watches > 0;
    memset(d->bpmap, 0, sizeof d->bpmap);
    d->bp_gen = d->bp_gen + 1 ? d->bp_gen + 1 : 1;
    for (int i = 0; i < d->nbrk; i++)
        bp_mark(d, d->brk[i].addr);
    for (int i = 0; i < d->nskip; i++)
        bp_mark(d, d->skip[i].pc);
    if (d->until_active)
        bp_mark(d, d->until_pc);
}

int dbg_break_add(sim_machine *m, uint64_t addr, int unit, int temporary, const char *label)
{
    if (dbg_attach(m))
        return -1;
    dbg_state *d = m->dbg;
    if (d->nbrk >= DBG_MAX_BREAK)
        return -1;
    dbg_break *b = &d->brk[d->nbrk++];
    memset(b, 0, sizeof *b);
    b->id = d->next_id++;
    b->addr = addr;
    b->unit = unit;
    b->group = -1;
    b->thread = -1;
    b->temporary = temporary;
    snprintf(b->label, sizeof b->label, "%s", label ? label : "");
    dbg_update_slow(m);
    return b->id;
}

int dbg_break_filter(sim_machine *m, int id, int thread, const dbg_cond *cond)
{
    dbg_state *d = m->dbg;
    for (int i = 0; d && i < d->nbrk; i++)
        if (d->brk[i].id == id) {
            d->brk[i].thread = thread;
            if (cond)
                d->brk[i].cond = *cond;
            else
                memset(&d->brk[i].cond, 0, sizeof d->brk[i].cond);
            return 0;
        }
    return -1;
}

int dbg_break_group(sim_machine *m, int id, int group)
{
    dbg_state *d = m->dbg;
    for (int i = 0; d && i < d->nbrk; i++)
        if (d->brk[i].id == id) {
            d->brk[i].group = group >= 0 && group < m->ngroups ? group : -1;
            return 0;
        }
    return -1;
}

int dbg_cond_parse(const sim_machine *m, const char *text, dbg_cond *c, char *err, size_t errlen)
{
    static const struct { const char *s; int op; } ops[] = {
        {"==", DBG_COND_EQ}, {"!=", DBG_COND_NE}, {"<=", DBG_COND_LE}, {">=", DBG_COND_GE},
        {"<", DBG_COND_LT}, {">", DBG_COND_GT}};
    memset(c, 0, sizeof *c);
    const char *p = text;
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " =!<>");
    char name[32];
    if (!n || n >= sizeof name) {
        snprintf(err, errlen, "condition '%s': expected REGISTER OP VALUE (OP: == != < <= > >=)", text);
        return -1;
    }
    memcpy(name, p, n);
    name[n] = 0;
    p += n;
    while (*p == ' ')
        p++;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0] && !c->op; i++)
        if (!strncmp(p, ops[i].s, strlen(ops[i].s))) {
            c->op = ops[i].op;
            p += strlen(ops[i].s);
        }
    if (!c->op) {
        snprintf(err, errlen, "condition '%s': expected == != < <= > or >= after '%s'", text, name);
        return -1;
    }
    while (*p == ' ')
        p++;
    int reg = isa_reg_find(m->isa, name);
    if (reg < 0) {
        snprintf(err, errlen, "condition '%s': no register '%s' (`info registers` lists them)", text, name);
        return -1;
    }
    if (m->isa->regs[reg].bits > 64 || m->isa->regs[reg].scope != ISA_REG_THREAD || !m->isa->reg_read) {
        snprintf(err, errlen, "condition '%s': '%s' is not a thread register of at most 64 bits", text, name);
        return -1;
    }
    char *end;
    errno = 0;
    int neg = *p == '-';
    unsigned long long v = strtoull(p + neg, &end, 0);
    if (errno || end == p + neg || *end) {
        snprintf(err, errlen, "condition '%s': expected a number after the operator", text);
        return -1;
    }
    c->reg = reg;
    c->value = neg ? (uint64_t)0 - v : v;
    unsigned bits = m->isa->regs[reg].bits;
    if (bits < 64) /* -1 means all ones in the register's width */
        c->value &= (1ull << bits) - 1;
    snprintf(c->text, sizeof c->text, "%s", text);
    return 0;
}

/* Does the condition hold for this thread now? A register that cannot be read holds no
 * condition true. */
static int cond_holds(sim_machine *m, const sim_unit *u, int thread, const dbg_cond *c)
{
    uint8_t buf[64] = {0};
    if (m->isa->reg_read(m, u->index, thread, c->reg, buf))
        return 0;
    uint64_t v = 0;
    unsigned bytes = (m->isa->regs[c->reg].bits + 7) / 8;
    for (unsigned i = 0; i < bytes && i < 8; i++)
        v |= (uint64_t)buf[i] << (8 * i);
    switch (c->op) {
    case DBG_COND_EQ: return v == c->value;
    case DBG_COND_NE: return v != c->value;
    case DBG_COND_LT: return v < c->value;
    case DBG_COND_LE: return v <= c->value;
    case DBG_COND_GT: return v > c->value;
    case DBG_COND_GE: return v >= c->value;
    }
    return 1;
}

int dbg_break_delete(sim_machine *m, int id)
{
    dbg_state *d = m->dbg;
    if (!d)
        return -1;
    int found = -1;
    for (int i = 0; i < d->nbrk; i++)
        if (id < 0 || d->brk[i].id == id) {
            memmove(&d->brk[i], &d->brk[i + 1], (size_t)(d->nbrk - i - 1) * sizeof d->brk[0]);
            d->nbrk--;
            i--;
            found = 0;
        }
    dbg_update_slow(m);
    return id < 0 ? 0 : found;
}

void dbg_step(sim_machine *m, int unit, int thread, uint64_t n)
{
    if (dbg_attach(m))
        return;
    m->dbg->step_unit = unit;
    m->dbg->step_thread = thread;
    m->dbg->step_left = n;
    dbg_update_slow(m);
}

void dbg_until(sim_machine *m, uint64_t pc)
{
    if (dbg_attach(m))
        return;
    m->dbg->until_active = 1;
    m->dbg->until_pc = pc;
    dbg_update_slow(m);
}

void dbg_clear_run_targets(sim_machine *m)
{
    if (!m->dbg)
        return;
    m->dbg->step_left = 0;
    m->dbg->until_active = 0;
    dbg_update_slow(m);
}

void dbg_trace_pause(sim_machine *m, int paused)
{
    dbg_state *d = m->dbg;
    if (!d)
        return;
    if (paused && d->trace) {
        d->trace_held = d->trace;
        d->trace = NULL;
    } else if (!paused && d->trace_held) {
        d->trace = d->trace_held;
        d->trace_held = NULL;
    }
    dbg_update_slow(m);
}

int dbg_trace_end(sim_machine *m)
{
    dbg_state *d = m->dbg;
    if (d)
        dbg_trace_pause(m, 0);
    if (!d || !d->trace)
        return 0;
    FILE *f = d->trace;
    d->trace = NULL;
    dbg_update_slow(m);
    int e = 0;
    if (fflush(f))
        e = errno;
    if (!e && ferror(f))
        e = EIO;
    if (f != stdout && f != stderr && fclose(f) && !e)
        e = errno;
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
}

int dbg_trace_open(sim_machine *m, const char *path)
{
    if (dbg_attach(m))
        return -1;
    /* open the new sink first, so a failed open keeps the old trace */
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return -1;
    dbg_trace_close(m->dbg);
    m->dbg->trace = f;
    dbg_update_slow(m);
    return 0;
}

void dbg_skip_once(sim_machine *m, int unit, int thread, uint64_t pc)
{
    if (dbg_attach(m))
        return;
    dbg_state *d = m->dbg;
    int i = 0;
    while (i < d->nskip && !(d->skip[i].unit == unit && d->skip[i].thread == thread))
        i++;
    if (i == d->nskip) {
        if (d->nskip == DBG_MAX_SKIP)
            return; /* more stopped threads than marks: the extra one stops again */
        d->nskip++;
    }
    uint64_t retired = unit >= 0 && unit < m->nunits && thread >= 0 && thread < m->units[unit].nthreads
                           ? m->units[unit].threads[thread].instructions
                           : 0;
    d->skip[i] = (dbg_skip){unit, thread, pc, retired};
    dbg_update_slow(m);
}

/* Consume (unit, thread)'s mark: 1 if it was for pc and the thread has retired nothing
 * since it was marked. A mark for another pc, or one the thread has run past (a fast path
 * asks only at the flagged pcs, so the thread may come back to pc much later), is stale. */
static int dbg_take_skip(dbg_state *d, const sim_unit *u, int thread, uint64_t pc)
{
    for (int i = 0; i < d->nskip; i++)
        if (d->skip[i].unit == u->index && d->skip[i].thread == thread) {
            int hit = d->skip[i].pc == pc && d->skip[i].retired == u->threads[thread].instructions;
            d->skip[i] = d->skip[--d->nskip];
            return hit;
        }
    return 0;
}

int dbg_disasm(sim_machine *m, int unit, int thread, uint64_t addr, char *buf, size_t n)
{
    const isa_ops *isa = m->isa;
    mem_space *cs = isa->code_space ? sim_unit_space(m, unit, isa->code_space) : NULL;
    uint8_t bytes[16];
    size_t avail = sizeof bytes;
    while (cs && avail && mem_host_read(cs, addr, bytes, avail))
        avail /= 2;
    if (!cs || !avail || !isa->disasm) {
        snprintf(buf, n, "(no code at this address)");
        return 0;
    }
    int len = isa->disasm_thread && thread >= 0 ? isa->disasm_thread(m, unit, thread, addr, bytes, avail, buf, n)
                                                : isa->disasm(addr, bytes, avail, buf, n);
    if (len <= 0)
        snprintf(buf, n, "(truncated instruction)");
    return len;
}

int dbg_before_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc)
{
    dbg_state *d = m->dbg;
    if (!d)
        return 0;
    if (d->prof && d->hooks) /* (else the ISA's fast path feeds it: isa_ops.profile_fast) */
        prof_before(d->prof, u->index, thread, &u->threads[thread]);
    if (d->nskip) {
        int hit = dbg_take_skip(d, u, thread, pc);
        dbg_update_slow(m);
        if (hit)
            return 0; /* resuming from a stop here: execute it once */
    }
    for (int i = 0; i < d->nbrk; i++) {
        dbg_break *b = &d->brk[i];
        if (b->addr != pc || (b->unit >= 0 && b->unit != u->index) || (b->thread >= 0 && b->thread != thread))
            continue;
        if (b->group >= 0 && !sim_unit_in_group(m, u->index, b->group))
            continue;
        if (b->cond.op && !cond_holds(m, u, thread, &b->cond))
            continue;
        b->hits++;
        int id = b->id, temp = b->temporary;
        char label[64];
        snprintf(label, sizeof label, "%s", b->label);
        if (temp)
            dbg_break_delete(m, id);
        dbg_skip_once(m, u->index, thread, pc);
        sim_set_stop(m, SIM_STOP_BREAK, u->index, thread, pc, "%sbreakpoint %d at 0x%llx%s%s%s", temp ? "temporary " : "",
                     id, (unsigned long long)pc, *label ? " (" : "", label, *label ? ")" : "");
        dbg_update_slow(m);
        return 1;
    }
    if (d->until_active && pc == d->until_pc &&
        (d->step_unit < 0 || d->step_unit == u->index)) {
        d->until_active = 0;
        dbg_skip_once(m, u->index, thread, pc);
        sim_set_stop(m, SIM_STOP_STEP, u->index, thread, pc, "reached 0x%llx", (unsigned long long)pc);
        dbg_update_slow(m);
        return 1;
    }
    return 0;
}

int dbg_observe(sim_machine *m, void (*fn)(void *ctx, sim_machine *m, sim_unit *u, int thread, uint64_t pc),
                void (*note)(void *ctx, sim_machine *m, int unit, int thread, uint64_t cycle, const char *what),
                void *ctx)
{
    if (dbg_attach(m))
        return -1;
    m->dbg->observe = fn;
    m->dbg->note = fn ? note : NULL;
    m->dbg->observe_ctx = ctx;
    dbg_update_slow(m);
    return 0;
}

void dbg_note(sim_machine *m, int unit, int thread, uint64_t cycle, const char *what)
{
    dbg_state *d = m->dbg;
    if (d && d->note)
        d->note(d->observe_ctx, m, unit, thread, cycle, what);
}

void dbg_trace_limit(sim_machine *m, uint64_t from, uint64_t to, uint64_t lo, uint64_t hi)
{
    if (dbg_attach(m))
        return;
    m->dbg->trace_from = from;
    m->dbg->trace_to = to;
    m->dbg->trace_lo = lo;
    m->dbg->trace_hi = hi;
}

void dbg_hist_gap(sim_machine *m, uint64_t n)
{
    dbg_state *d = m->dbg;
    if (!d || !n)
        return;
    dbg_hist *last = d->nhist ? &d->hist[(d->nhist - 1) % DBG_HISTORY] : NULL;
    if (last && last->unit < 0) { /* two runs in a row without history: one gap */
        last->pc += n;
        return;
    }
    dbg_hist *h = &d->hist[d->nhist++ % DBG_HISTORY];
    h->cycle = SIM_NEVER;
    h->pc = n;
    h->unit = h->thread = -1;
}

int dbg_watch_add(sim_machine *m, mem_space *space, uint64_t addr, uint64_t len, unsigned kind, int unit, int thread,
                  const dbg_cond *cond)
{
    if (dbg_attach(m) || m->dbg->nwatch >= DBG_MAX_WATCH)
        return -1;
    int id = mem_watch_add(space, addr, len, kind);
    if (id < 0)
        return -1;
    dbg_watch *w = &m->dbg->watch[m->dbg->nwatch++];
    memset(w, 0, sizeof *w);
    w->space = space;
    w->id = id;
    w->unit = unit;
    w->group = -1;
    w->thread = thread;
    if (cond)
        w->cond = *cond;
    dbg_update_slow(m);
    return id;
}

int dbg_watch_remove(sim_machine *m, mem_space *space, int id)
{
    dbg_state *d = m->dbg;
    for (int i = 0; d && i < d->nwatch; i++)
        if (d->watch[i].space == space && (id < 0 || d->watch[i].id == id))
            d->watch[i--] = d->watch[--d->nwatch];
    int rc = mem_watch_remove(space, id);
    dbg_update_slow(m);
    return rc;
}

int dbg_watch_group(sim_machine *m, const mem_space *space, int id, int group)
{
    dbg_state *d = m->dbg;
    for (int i = 0; d && i < d->nwatch; i++)
        if (d->watch[i].space == space && d->watch[i].id == id) {
            d->watch[i].group = group >= 0 && group < m->ngroups ? group : -1;
            return 0;
        }
    return -1;
}

const dbg_watch *dbg_watch_find(const sim_machine *m, const mem_space *space, int id)
{
    const dbg_state *d = m->dbg;
    for (int i = 0; d && i < d->nwatch; i++)
        if (d->watch[i].space == space && d->watch[i].id == id)
            return &d->watch[i];
    return NULL;
}

static const mem_watch *space_watch(const mem_space *s, int id)
{
    for (int i = 0; i < s->nwatch; i++)
        if (s->watches[i].id == id)
            return &s->watches[i];
    return NULL;
}

int dbg_watch_wanted(sim_machine *m)
{
    dbg_state *d = m->dbg;
    sim_stop *st = &m->stop;
    int pass = 0, fail = 0, named_fails = 0, first_pass = 0, named = 0;
    sscanf(st->msg, "watchpoint %d", &named); /* every ISA's watch stop names its watch so */
    for (int i = 0; d && i < d->nwatch; i++) {
        dbg_watch *w = &d->watch[i];
        const mem_watch *mw = space_watch(w->space, w->id);
        if (!mw || mw->hits == w->hits)
            continue;
        w->hits = mw->hits;
        int ok = (w->unit < 0 || w->unit == st->unit) && (w->thread < 0 || w->thread == st->thread) &&
                 (w->group < 0 || sim_unit_in_group(m, st->unit, w->group));
        if (ok && w->cond.op)
            ok = st->unit >= 0 && st->unit < m->nunits && st->thread >= 0 &&
                 st->thread < m->units[st->unit].nthreads && cond_holds(m, &m->units[st->unit], st->thread, &w->cond);
        if (ok && !pass)
            first_pass = w->id;
        pass |= ok;
        fail |= !ok;
        named_fails |= !ok && w->id == named;
    }
    /* the access also matched the watch the stop names, whose filter rejected it: name the
     * one that stops instead (ids are unique across spaces: dbg_watch_add's callers) */
    if (pass && named_fails) {
        char id[24];
        char *p = st->msg + strlen("watchpoint ");
        size_t digits = strspn(p, "0123456789"), n = (size_t)snprintf(id, sizeof id, "%d", first_pass);
        size_t tail = strlen(p + digits) + 1, room = sizeof st->msg - (size_t)(p - st->msg);
        if (n + tail <= room) { /* the message with the other id, cut nowhere */
            memmove(p + n, p + digits, tail);
            memcpy(p, id, n);
        }
    }
    /* a stop no filtered watch explains (a watch without a filter) stands */
    return pass || !fail;
}

int dbg_watch_device(sim_machine *m, mem_space *space, uint64_t addr, uint64_t len, unsigned kind, int unit,
                     int thread, uint64_t pc, uint64_t cycle, const char *source)
{
    if (!space->nwatch || !mem_watch_check(space, addr, len, kind))
        return 0;
    char who[64] = "";
    if (unit >= 0 && unit < m->nunits)
        snprintf(who, sizeof who, " for %s thread %d", m->units[unit].name, thread);
    sim_set_stop_at(m, SIM_STOP_WATCH, unit, thread, pc, cycle, "watchpoint %d: %s %s of %s:0x%llx (%llu units)%s",
                    space->watch_hit_id, source, kind == MEM_W ? "write" : "read", space->name,
                    (unsigned long long)space->watch_hit_addr, (unsigned long long)len, who);
    space->watch_hit_id = 0; /* reported here: no instruction made this access */
    return 1;
}

void dbg_watch_report(sim_machine *m, sim_unit *u, int thread, uint64_t pc)
{
    for (int i = 0; i < m->nspaces; i++) {
        mem_space *s = m->spaces[i];
        if (s->watch_hit_id) {
            sim_set_stop(m, SIM_STOP_WATCH, u->index, thread, pc, "watchpoint %d: %s of %s:0x%llx by the instruction at 0x%llx",
                         s->watch_hit_id, s->watch_hit_kind == MEM_W ? "write" : "read", s->name,
                         (unsigned long long)s->watch_hit_addr, (unsigned long long)pc);
            s->watch_hit_id = 0;
        }
    }
}

/* v in decimal, right-aligned in at least width characters, at p; returns the end */
static char *put_dec(char *p, uint64_t v, int width)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int k = n; k < width; k++)
        *p++ = ' ';
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* v in lower-case hex, zero-padded to at least width digits, at p; returns the end */
static char *put_hex(char *p, uint64_t v, int width)
{
    int n = 1;
    while (n < 16 && v >> (4 * n))
        n++;
    if (n < width)
        n = width;
    for (int k = n - 1; k >= 0; k--)
        *p++ = "0123456789abcdef"[(v >> (4 * k)) & 15];
    return p;
}

/* Unit u's entry of the trace's cache: its code space and its label (finding them formats
 * and compares names, so they are looked up when the unit changes, not per line). */
static const struct dbg_cspace *trace_unit(dbg_state *d, const sim_machine *m, const sim_unit *u)
{
    struct dbg_cspace *c = &d->cspace[u->index & 63];
    if (c->unit != u->index) {
        c->unit = u->index;
        c->space = m->isa->code_space ? sim_unit_space(m, u->index, m->isa->code_space) : NULL;
        sim_unit_path(m, u->index, c->name, sizeof c->name);
    }
    return c;
}

/* The end of the trace line of the instruction at pc of u's code space ("%08llx  TEXT\n"),
 * from the cache when the bytes there are those it was made from (so code written since is
 * disassembled again). An entry keeps where its bytes are in the space's memory, so a hit
 * reads them from there without looking the address up again (regions keep their memory
 * while the machine lives). */
static const char *trace_text(dbg_state *d, const sim_machine *m, const sim_unit *u, int thread, uint64_t pc,
                              size_t *len)
{
    const isa_ops *isa = m->isa;
    mem_space *cs = trace_unit(d, m, u)->space;
    if (!d->dis && !d->trace_err && !(d->dis = calloc(DBG_DIS_ENTRIES, sizeof *d->dis)))
        d->trace_err = 1; /* no cache: correct, only slower */
    /* an ISA whose threads decode differently keys its entries by thread too */
    int who = isa->disasm_thread ? thread : -1;
    dbg_dis *e = d->dis ? &d->dis[(unsigned)(pc ^ (pc >> 12) ^ ((uintptr_t)cs >> 6) ^ (unsigned)(who + 1) * 0x9e5u) &
                                  (DBG_DIS_ENTRIES - 1)]
                        : NULL;
    if (e && cs && e->space == cs && e->pc == pc && e->thread == who && e->src && !memcmp(e->src, e->bytes, e->nbytes)) {
        *len = e->len;
        return e->text;
    }
    uint8_t bytes[16];
    size_t avail = sizeof bytes;
    while (cs && avail && mem_host_read(cs, pc, bytes, avail))
        avail /= 2;
    char text[160] = "?";
    if (cs && avail && isa->disasm_thread)
        isa->disasm_thread((sim_machine *)m, u->index, thread, pc, bytes, avail, text, sizeof text);
    else if (cs && avail && isa->disasm)
        isa->disasm(pc, bytes, avail, text, sizeof text);
    char *out = d->dis_long;
    char *p = put_hex(out, pc, 8);
    *p++ = ' ';
    *p++ = ' ';
    size_t n = strlen(text);
    memcpy(p, text, n);
    p += n;
    *p++ = '\n';
    n = (size_t)(p - out);
    *len = n;
    if (!e || !cs || !avail || n > sizeof e->text)
        return out; /* not cached (too long for an entry: no ISA's text is, today) */
    /* the bytes in one piece of memory (else the entry is never a hit: src NULL) */
    e->src = mem_ptr(cs, pc, avail);
    e->space = cs;
    e->thread = who;
    e->pc = pc;
    e->nbytes = (uint8_t)avail;
    memcpy(e->bytes, bytes, avail);
    memcpy(e->text, out, n);
    e->len = (uint8_t)n;
    return e->text;
}

/* The cycle field of a trace line ("%10llu"), at p; returns the end. Consecutive lines are
 * mostly a few cycles apart: the last one's digits are counted up instead of formatted. */
static char *put_cycle(dbg_state *d, char *p, uint64_t v)
{
    uint64_t delta = v - d->tr_cycle;
    if (!d->tr_cyclen || v < d->tr_cycle || delta > 9) {
        d->tr_cyclen = (int)(put_dec(d->tr_cyc, v, 10) - d->tr_cyc);
    } else if (delta) {
        int k = d->tr_cyclen - 1, carry = (int)delta;
        while (carry && k >= 0 && d->tr_cyc[k] != ' ') {
            int digit = d->tr_cyc[k] - '0' + carry;
            d->tr_cyc[k--] = (char)('0' + digit % 10);
            carry = digit / 10;
        }
        if (carry) /* one digit more */
            d->tr_cyclen = (int)(put_dec(d->tr_cyc, v, 10) - d->tr_cyc);
    }
    d->tr_cycle = v;
    memcpy(p, d->tr_cyc, (size_t)d->tr_cyclen);
    return p + d->tr_cyclen;
}

/* One trace line, as "%10llu %s t%-2d %08llx  %s\n" would print it. */
static void trace_line(dbg_state *d, const sim_machine *m, const sim_unit *u, int thread, uint64_t pc)
{
    size_t tlen;
    const char *text = trace_text(d, m, u, thread, pc, &tlen);
    const char *name = trace_unit(d, m, u)->name;
    char line[64 + sizeof d->cspace[0].name + sizeof d->dis_long];
    char *p = put_cycle(d, line, u->last_issue);
    *p++ = ' ';
    size_t nl = strnlen(name, sizeof d->cspace[0].name);
    memcpy(p, name, nl);
    p += nl;
    *p++ = ' ';
    *p++ = 't';
    if (thread >= 0 && thread < 10) {
        *p++ = (char)('0' + thread);
        *p++ = ' ';
    } else {
        char *t0 = p;
        if (thread < 0) {
            *p++ = '-';
            p = put_dec(p, (uint64_t)-(int64_t)thread, 0);
        } else
            p = put_dec(p, (uint64_t)thread, 0);
        while (p - t0 < 2)
            *p++ = ' ';
    }
    *p++ = ' ';
    memcpy(p, text, tlen);
    p += tlen;
    fwrite_unlocked(line, 1, (size_t)(p - line), d->trace);
}

void dbg_after_insn(sim_machine *m, sim_unit *u, int thread, uint64_t pc)
{
    dbg_state *d = m->dbg;
    if (!d)
        return;
    if (d->observe)
        d->observe(d->observe_ctx, m, u, thread, pc);
    dbg_hist *h = &d->hist[d->nhist++ % DBG_HISTORY];
    h->cycle = u->last_issue;
    h->pc = pc;
    h->unit = (int16_t)u->index;
    h->thread = (int16_t)thread;
    if (d->prof && d->hooks)
        prof_record(d->prof, u->index, thread, pc, u->last_issue, &u->threads[thread]);
    if (d->trace && u->last_issue >= d->trace_from && u->last_issue < d->trace_to && pc >= d->trace_lo &&
        pc < d->trace_hi)
        trace_line(d, m, u, thread, pc);
    if (d->step_left && (d->step_unit < 0 || d->step_unit == u->index) &&
        (d->step_thread < 0 || d->step_thread == thread) && --d->step_left == 0) {
        sim_set_stop(m, SIM_STOP_STEP, u->index, thread, pc, "step done");
        dbg_update_slow(m);
    }
    if (d->watching)
        dbg_watch_report(m, u, thread, pc);
}
