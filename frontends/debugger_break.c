/* frontends/debugger_break.c: the debugger's breakpoint and watchpoint commands (break,
 * tbreak, watch, delete, info break); a breakpoint may be narrowed to a unit, a hardware
 * group (its units and its groups' units), a hardware thread and a register condition. Breakpoints live in the core (core/debug.h), watchpoints
 * in the memory spaces (core/mem.h), including the spaces an ISA makes per unit on demand
 * (wram.7 of DPU 7), which the listing and deletion must find too. */
#include <stdlib.h>
#include <string.h>
#include "debugger.h"
#include "../core/debug.h"

/* "[UNIT|GROUP] [thread N] [if REG OP VALUE]" from argv[i] on, as break and watch take them:
 * unit, group and thread -1 when not given (a unit's path or name first, then a group's:
 * `ipu0`, `col1`), cond->op 0 without a condition. -1 after an error. */
static int dbg_parse_filter(dbg_cli *c, int argc, char **argv, int i, int *unit, int *group, int *thread,
                            dbg_cond *cond)
{
    char err[256];
    *unit = *group = *thread = -1;
    memset(cond, 0, sizeof *cond);
    if (i < argc && strcmp(argv[i], "thread") && strcmp(argv[i], "if")) {
        const sim_group *g = NULL;
        if ((*unit = dbg_parse_unit(c->m, argv[i])) < 0 && !(g = sim_find_group(c->m, argv[i])))
            return dbg_err(c, "%s: no unit or group '%s' (0..%d, a unit's name or path, a group's path: `info units`)",
                           argv[0], argv[i], c->m->nunits - 1);
        *group = g ? g->index : -1;
        i++;
    }
    if (i < argc && !strcmp(argv[i], "thread")) {
        uint64_t t;
        int most = 0; /* the most threads any unit it may stop on has */
        for (int u = 0; u < c->m->nunits; u++)
            if ((*unit < 0 || u == *unit) && sim_unit_in_group(c->m, u, *group))
                most = c->m->units[u].nthreads > most ? c->m->units[u].nthreads : most;
        if (i + 1 >= argc || cli_parse_u64(argv[i + 1], &t) || t >= (uint64_t)most)
            return dbg_err(c, "%s: thread needs a thread number 0..%d", argv[0], most - 1);
        *thread = (int)t;
        i += 2;
    }
    if (i < argc && !strcmp(argv[i], "if")) {
        char text[128] = "";
        size_t len = 0;
        for (int k = i + 1; k < argc; k++) /* the condition may be written with blanks */
            len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%s", k > i + 1 ? " " : "",
                                    argv[k]);
        if (len >= sizeof text)
            return dbg_err(c, "%s: condition longer than %zu characters", argv[0], sizeof text - 1);
        if (dbg_cond_parse(c->m, text, cond, err, sizeof err))
            return dbg_err(c, "%s: %s", argv[0], err);
        i = argc;
    }
    if (i < argc)
        return dbg_err(c, "%s: unexpected '%s' (usage: %s %s [UNIT] [thread N] [if REG OP VALUE])", argv[0], argv[i],
                       argv[0], argv[0][0] == 'w' ? "[SPACE:]ADDR[,LEN] [r|w|rw]" : "ADDRESS");
    return 0;
}

/* The unit or the group that img, the selected unit's program, was given to (sim_set_image:
 * --image or --symbols), so that a breakpoint set by one of its symbols stops only where
 * that program runs; both -1 for the machine's program. */
static void dbg_image_owner(dbg_cli *c, int *unit, int *group)
{
    const sim_machine *m = c->m;
    const ld_image *img = cli_unit_image(c->s, c->unit);
    *unit = *group = -1;
    if (img == &c->s->img || img == m->image)
        return;
    if (m->units[c->unit].image == img) {
        *unit = c->unit;
        return;
    }
    for (int g = m->units[c->unit].group; g >= 0; g = m->groups[g].parent)
        if (m->groups[g].image == img) {
            *group = g;
            return;
        }
}

/* break|tbreak ADDRESS [UNIT|GROUP] [thread N] [if REG OP VALUE] */
int dbg_cmd_break(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "%s: give an ADDRESS or SYMBOL[+OFF]", argv[0]);
    uint64_t addr;
    char err[256];
    if (dbg_resolve_code(c, argv[1], &addr, err, sizeof err))
        return dbg_err(c, "%s: %s", argv[0], err);
    int unit, group, thread;
    dbg_cond cond;
    if (dbg_parse_filter(c, argc, argv, 2, &unit, &group, &thread, &cond))
        return -1;
    int temp = argv[0][0] == 't';
    uint64_t num;
    int by_symbol = cli_parse_u64(argv[1], &num) != 0;
    if (by_symbol && unit < 0 && group < 0) /* a symbol of a unit's own program: where it runs */
        dbg_image_owner(c, &unit, &group);
    int id = dbg_break_add(c->m, addr, unit, temp, by_symbol ? argv[1] : "");
    if (id < 0)
        return dbg_err(c, "%s: too many breakpoints (at most %d)", argv[0], DBG_MAX_BREAK);
    dbg_break_filter(c->m, id, thread, cond.op ? &cond : NULL);
    dbg_break_group(c->m, id, group);
    char where[240];
    dbg_break_where(c, &c->m->dbg->brk[c->m->dbg->nbrk - 1], where, sizeof where);
    printf("%s %d at %s\n", temp ? "temporary breakpoint" : "breakpoint", id, where);
    return 0;
}

/* "0xADDR SYMBOL on UNIT thread N if COND", the parts that apply. */
void dbg_break_where(dbg_cli *c, const dbg_break *b, char *buf, size_t n)
{
    char sym[160], thr[24] = "", on[96] = "", path[64];
    /* named by the program of the unit it is on (the first of its group), else the selected one's */
    int su = b->unit;
    for (int u = 0; su < 0 && b->group >= 0 && u < c->m->nunits; u++)
        if (sim_unit_in_group(c->m, u, b->group))
            su = u;
    dbg_symbolize_unit(c, su >= 0 ? su : c->unit, b->addr, sym, sizeof sym);
    if (b->thread >= 0)
        snprintf(thr, sizeof thr, " thread %d", b->thread);
    if (b->unit >= 0)
        snprintf(on, sizeof on, " on %s", c->m->units[b->unit].name);
    else if (b->group >= 0)
        snprintf(on, sizeof on, " on %s", sim_group_path(c->m, b->group, path, sizeof path));
    snprintf(buf, n, "0x%llx%s%s%s%s%s%s", (unsigned long long)b->addr, *sym ? " " : "", sym, on, thr,
             b->cond.op ? " if " : "", b->cond.op ? b->cond.text : "");
}

static const char *dbg_kind_name(unsigned k)
{
    return k == MEM_RW ? "rw" : k == MEM_R ? "r" : "w";
}

/* " on UNIT thread N if COND": the filter of a watch, the parts that apply ("" if none). */
static void dbg_watch_where(dbg_cli *c, const dbg_watch *w, char *buf, size_t n)
{
    char thr[24] = "", on[96] = "", path[64];
    if (w && w->thread >= 0)
        snprintf(thr, sizeof thr, " thread %d", w->thread);
    if (w && w->unit >= 0)
        snprintf(on, sizeof on, " on %s", c->m->units[w->unit].name);
    else if (w && w->group >= 0)
        snprintf(on, sizeof on, " on %s", sim_group_path(c->m, w->group, path, sizeof path));
    snprintf(buf, n, "%s%s%s%s", on, thr, w && w->cond.op ? " if " : "", w && w->cond.op ? w->cond.text : "");
}

int dbg_cmd_watch(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "watch: give [SPACE:]ADDR[,LEN] [r|w|rw]");
    char text[160];
    snprintf(text, sizeof text, "%s", argv[1]);
    uint64_t len = 0, addr;
    char *comma = strchr(text, ',');
    if (comma) {
        *comma = 0;
        if (cli_parse_u64(comma + 1, &len) || len == 0)
            return dbg_err(c, "watch: bad length '%s'", comma + 1);
    }
    unsigned kind = MEM_W;
    int i = 2;
    if (argc > 2 && (!strcmp(argv[2], "r") || !strcmp(argv[2], "w") || !strcmp(argv[2], "rw"))) {
        kind = !strcmp(argv[2], "r") ? MEM_R : !strcmp(argv[2], "w") ? MEM_W : MEM_RW;
        i = 3;
    } else if (argc > 2 && strcmp(argv[2], "thread") && strcmp(argv[2], "if") && dbg_parse_unit(c->m, argv[2]) < 0 &&
               !sim_find_group(c->m, argv[2])) {
        return dbg_err(c, "watch: access kind must be r, w or rw, not '%s'", argv[2]);
    }
    int unit, group, thread;
    dbg_cond cond;
    if (dbg_parse_filter(c, argc, argv, i, &unit, &group, &thread, &cond))
        return -1;
    mem_space *sp;
    if (dbg_resolve_mem(c, text, &sp, &addr))
        return -1;
    if (!len) /* one word of the space by default */
        len = sp->word_bytes > sp->addr_unit ? sp->word_bytes / sp->addr_unit : 1;
    if (!mem_find(sp, addr) || !mem_find(sp, addr + len - 1))
        return dbg_err(c, "watch: %s:0x%llx,%llu is not all mapped memory", sp->name, (unsigned long long)addr,
                       (unsigned long long)len);
    /* the spaces number their watches independently; starting each new watch at the
     * debugger's counter keeps ids unique, so `delete wN` and the stop messages agree */
    if (c->next_watch_id > sp->next_watch_id)
        sp->next_watch_id = c->next_watch_id;
    int id = dbg_watch_add(c->m, sp, addr, len, kind, unit, thread, cond.op ? &cond : NULL);
    if (id < 0)
        return dbg_err(c, "watch: too many watchpoints (at most %d in a space, %d in all)", MEM_MAX_WATCH,
                       DBG_MAX_WATCH);
    c->next_watch_id = id + 1;
    dbg_watch_group(c->m, sp, id, group);
    char filt[200];
    dbg_watch_where(c, dbg_watch_find(c->m, sp, id), filt, sizeof filt);
    printf("watchpoint %d: %s:0x%llx,%llu %s%s\n", id, sp->name, (unsigned long long)addr, (unsigned long long)len,
           dbg_kind_name(kind), filt);
    return 0;
}

/* Every memory space of the machine, the units' own copies included: an ISA may keep those
 * out of m->spaces (the DPU makes wram.7 on demand through isa_ops.unit_space), and a
 * watchpoint set there must still be listed and deleted. Returns the count; *out is
 * malloc'd (NULL and -1 if out of memory). */
static int dbg_all_spaces(sim_machine *m, mem_space ***out)
{
    size_t cap = (size_t)m->nspaces * ((size_t)m->nunits + 1) + 1;
    mem_space **v = malloc(sizeof *v * cap);
    int n = 0;
    if (!v)
        return *out = NULL, -1;
    for (int i = 0; i < m->nspaces; i++) {
        char base[sizeof m->spaces[0]->name];
        snprintf(base, sizeof base, "%s", m->spaces[i]->name);
        char *dot = strchr(base, '.');
        if (dot)
            *dot = 0;
        for (int u = -1; u < m->nunits; u++) {
            mem_space *sp = u < 0 ? m->spaces[i] : sim_unit_space(m, u, base);
            int seen = !sp;
            for (int k = 0; k < n && !seen; k++)
                seen = v[k] == sp;
            if (!seen && (size_t)n < cap)
                v[n++] = sp;
        }
    }
    *out = v;
    return n;
}

int dbg_cmd_delete(dbg_cli *c, int argc, char **argv)
{
    sim_machine *m = c->m;
    mem_space **all;
    int nall = dbg_all_spaces(m, &all);
    if (nall < 0)
        return dbg_err(c, "delete: out of memory");
    if (argc < 2) {
        dbg_break_delete(m, -1);
        for (int i = 0; i < nall; i++)
            dbg_watch_remove(m, all[i], -1);
        free(all);
        dbg_update_slow(m);
        printf("deleted all breakpoints and watchpoints\n");
        return 0;
    }
    uint64_t id;
    int watch_only = argv[1][0] == 'w';
    if (cli_parse_u64(argv[1] + watch_only, &id) || id > 1u << 30) {
        free(all);
        return dbg_err(c, "delete: '%s' is not a breakpoint id (N) or a watchpoint id (wN)", argv[1]);
    }
    if (!watch_only && dbg_break_delete(m, (int)id) == 0) {
        free(all);
        printf("deleted breakpoint %llu\n", (unsigned long long)id);
        return 0;
    }
    /* `watch` says "watchpoint N": `delete N` finds it when no breakpoint has that id */
    for (int i = 0; i < nall; i++)
        if (dbg_watch_remove(m, all[i], (int)id) == 0) {
            free(all);
            dbg_update_slow(m);
            printf("deleted watchpoint %llu\n", (unsigned long long)id);
            return 0;
        }
    free(all);
    return dbg_err(c, "delete: no %s %s (`info break` lists them)", watch_only ? "watchpoint" : "breakpoint or watchpoint",
                   argv[1]);
}

void dbg_info_break(dbg_cli *c)
{
    const dbg_state *d = c->m->dbg;
    int n = 0;
    for (int i = 0; d && i < d->nbrk; i++, n++) {
        const dbg_break *b = &d->brk[i];
        if (!n)
            printf("Id   Type        Where                      Hits\n");
        char where[240];
        dbg_break_where(c, b, where, sizeof where);
        printf("%-4d %-11s %-26s %llu\n", b->id, b->temporary ? "tbreak" : "breakpoint", where,
               (unsigned long long)b->hits);
    }
    mem_space **all;
    int nall = dbg_all_spaces(c->m, &all);
    for (int s = 0; s < nall; s++) {
        const mem_space *sp = all[s];
        for (int i = 0; i < sp->nwatch; i++, n++) {
            if (!n)
                printf("Id   Type        Where                      Hits\n");
            char where[200], filt[200];
            snprintf(where, sizeof where, "%s:0x%llx,%llu", sp->name, (unsigned long long)sp->watches[i].addr,
                     (unsigned long long)sp->watches[i].len);
            dbg_watch_where(c, dbg_watch_find(c->m, sp, sp->watches[i].id), filt, sizeof filt);
            printf("w%-3d watch %-5s %s%s\n", sp->watches[i].id, dbg_kind_name(sp->watches[i].kind), where, filt);
        }
    }
    free(all);
    if (!n)
        printf("no breakpoints or watchpoints\n");
}
