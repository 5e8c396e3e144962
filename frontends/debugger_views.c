/* frontends/debugger_views.c: the debugger commands that show or check machine state.
 * Registers come from the ISA's register table (scalars packed four to a line, vectors as
 * 32-bit lanes), memory through the spaces' host accessors (no watchpoint or MMIO side
 * effects), code through the ISA's disassembler, thread states from the core's thread
 * records plus the ISA's own description, and `print`/`assert` evaluate small operands
 * (numbers, symbols, registers, memory words, cycle, pc) so scripts can check results. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "debugger.h"
#include "../core/debug.h"
#include "../core/stats.h"
#include "../core/task.h"

/* ---- registers and memory ---- */

static int dbg_reg_bytes(const isa_reg *r) { return (int)((r->bits + 7) / 8); }

static uint64_t dbg_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n > 8 ? 8 : n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* One register. 'col' >= 0 packs registers of up to 32 bits four to a line (the full
 * listing); it returns the next column, -1 after a line of its own. */
static int dbg_print_reg(dbg_cli *c, int i, int col)
{
    const isa_reg *r = &c->isa->regs[i];
    uint8_t buf[256] = {0};
    int readable = (size_t)dbg_reg_bytes(r) <= sizeof buf && c->isa->reg_read(c->m, c->unit, c->thread, i, buf) == 0;
    if (col >= 0 && r->bits <= 32 && readable) {
        printf("%s%-6s 0x%0*llx%s", col ? "   " : "", r->name, (int)(r->bits + 3) / 4,
               (unsigned long long)dbg_le(buf, dbg_reg_bytes(r)), col == 3 ? "\n" : "");
        return (col + 1) % 4;
    }
    if (col > 0)
        printf("\n");
    if (!readable)
        printf("%-8s (unreadable)\n", r->name);
    else if (r->bits <= 64) {
        uint64_t v = dbg_le(buf, dbg_reg_bytes(r));
        printf("%-8s 0x%0*llx  %llu\n", r->name, (int)(r->bits + 3) / 4, (unsigned long long)v, (unsigned long long)v);
    } else {
        int lanes = dbg_reg_bytes(r) / 4;
        printf("%-8s", r->name);
        for (int l = 0; l < lanes; l++)
            printf("%s %08llx", l && l % 8 == 0 ? "\n        " : "", (unsigned long long)dbg_le(buf + 4 * l, 4));
        printf("\n");
    }
    return col >= 0 ? 0 : -1;
}

int dbg_cmd_regs(dbg_cli *c, int argc, char **argv)
{
    if (!c->isa->reg_read || !c->isa->nregs)
        return dbg_err(c, "ISA %s exposes no registers", c->isa->name);
    printf("%s thread %d:\n", c->m->units[c->unit].name, c->thread);
    const char *group = NULL;
    int shown = 0, col = 0, vectors = 0, one = argc > 1 && isa_reg_find(c->isa, argv[1]) >= 0;
    for (int i = 0; i < c->isa->nregs; i++) {
        const isa_reg *r = &c->isa->regs[i];
        if (argc > 1 && strcasecmp(argv[1], r->name) && (!r->group || strcasecmp(argv[1], r->group)))
            continue;
        if (r->group && (!group || strcmp(group, r->group)) && argc < 2) {
            printf("%s[%s]\n", col > 0 ? "\n" : "", r->group);
            col = 0;
        }
        group = r->group;
        col = dbg_print_reg(c, i, one ? -1 : col);
        vectors |= r->bits > 64;
        shown++;
    }
    if (col > 0)
        printf("\n");
    if (vectors)
        printf("(vectors in 32-bit lanes, lane 0 first)\n");
    return shown ? 0 : dbg_err(c, "regs: no register or group '%s'", argv[1]);
}

int dbg_cmd_set(dbg_cli *c, int argc, char **argv)
{
    if (argc < 3)
        return dbg_err(c, "set: give REGISTER VALUE (vectors: one value per 32-bit lane, or one for all)");
    int i = isa_reg_find(c->isa, argv[1][0] == '$' ? argv[1] + 1 : argv[1]);
    if (i < 0 || !c->isa->reg_write)
        return dbg_err(c, "set: no register '%s'", argv[1]);
    const isa_reg *r = &c->isa->regs[i];
    if (r->flags & ISA_REG_RO)
        return dbg_err(c, "set: %s is read-only", r->name);
    uint8_t buf[256] = {0};
    int nb = dbg_reg_bytes(r);
    if (nb > (int)sizeof buf)
        return dbg_err(c, "set: %s is too wide", r->name);
    int lanes = r->bits <= 64 ? 1 : nb / 4, lb = r->bits <= 64 ? nb : 4;
    char list[512];
    snprintf(list, sizeof list, "%s", argv[2]);
    for (int k = 3; k < argc; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), ",%s", argv[k]);
    uint64_t v[64];
    int nv = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (nv >= 64 || dbg_parse_s64(tok, &v[nv]))
            return dbg_err(c, "set: bad value '%s'", tok);
        nv++;
    }
    if (nv != 1 && nv != lanes)
        return dbg_err(c, "set: %s has %d lanes; give 1 or %d values", r->name, lanes, lanes);
    for (int l = 0; l < lanes; l++)
        for (int b = 0; b < lb; b++)
            buf[l * lb + b] = (uint8_t)(v[nv == 1 ? 0 : l] >> (8 * (b < 8 ? b : 7)));
    if (c->isa->reg_write(c->m, c->unit, c->thread, i, buf))
        return dbg_err(c, "set: the ISA refused to write %s", r->name);
    dbg_print_reg(c, i, -1);
    return 0;
}

static int dbg_read_word(const mem_space *sp, uint64_t addr, uint64_t *v)
{
    uint8_t b[8];
    unsigned n = sp->word_bytes > 8 ? 8 : sp->word_bytes;
    if (mem_host_read(sp, addr, b, n))
        return -1;
    *v = 0;
    for (unsigned i = 0; i < n; i++)
        *v = sp->big_endian ? *v << 8 | b[i] : *v | (uint64_t)b[i] << (8 * i);
    return 0;
}

int dbg_cmd_x(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "x: give [SPACE:]ADDR [COUNT]");
    mem_space *sp;
    uint64_t addr, count = 8;
    if (dbg_resolve_mem(c, argv[1], &sp, &addr))
        return -1;
    if (argc > 2 && (cli_parse_u64(argv[2], &count) || count == 0 || count > 65536))
        return dbg_err(c, "x: bad count '%s' (1..65536)", argv[2]);
    unsigned step = sp->word_bytes / sp->addr_unit ? sp->word_bytes / sp->addr_unit : 1;
    int digits = (int)(sp->word_bytes > 8 ? 8 : sp->word_bytes) * 2;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t a = addr + i * step, v;
        if (i % 4 == 0)
            printf("%s%s:0x%08llx:", i ? "\n" : "", sp->name, (unsigned long long)a);
        if (dbg_read_word(sp, a, &v)) {
            printf("\n");
            return dbg_err(c, "x: %s:0x%llx is not readable memory", sp->name, (unsigned long long)a);
        }
        printf(" 0x%0*llx", digits, (unsigned long long)v);
    }
    printf("\n");
    return 0;
}

int dbg_cmd_disasm(dbg_cli *c, int argc, char **argv)
{
    uint64_t pc = dbg_pc(c, c->unit, c->thread), addr = pc, count = 8;
    char err[256];
    if (argc > 1 && dbg_resolve_code(c, argv[1], &addr, err, sizeof err))
        return dbg_err(c, "disasm: %s", err);
    if (argc > 2 && (cli_parse_u64(argv[2], &count) || count == 0 || count > 100000))
        return dbg_err(c, "disasm: bad count '%s'", argv[2]);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t off = 1;
        const char *label = dbg_code_symbol_at(c, addr, &off);
        if (label && off == 0)
            printf("%s:\n", label);
        int len = dbg_print_insn(c, c->unit, addr, pc);
        if (len <= 0)
            break;
        addr += (uint64_t)len;
    }
    return 0;
}

static int dbg_select(dbg_cli *c, int unit, int thread)
{
    c->unit = unit;
    c->thread = thread;
    printf("thread #%d: %s thread %d\n", dbg_flat_index(c->m, unit, thread), c->m->units[unit].name, thread);
    dbg_print_where(c);
    return 0;
}

int dbg_cmd_thread(dbg_cli *c, int argc, char **argv)
{
    sim_machine *m = c->m;
    if (argc < 2)
        return dbg_select(c, c->unit, c->thread);
    const char *dot = strrchr(argv[1], '.'); /* the unit may be a path: ipu0.tile5.3 */
    uint64_t u, t;
    if (dot) {
        char ut[256];
        snprintf(ut, sizeof ut, "%.*s", (int)(dot - argv[1]), argv[1]);
        int unit = dbg_parse_unit(m, ut);
        if (unit < 0 || cli_parse_u64(dot + 1, &t) || t >= (uint64_t)m->units[unit].nthreads)
            return dbg_err(c, "thread: no thread '%s' (UNIT.THREAD)", argv[1]);
        return dbg_select(c, unit, (int)t);
    }
    if (cli_parse_u64(argv[1], &u) || u >= (uint64_t)dbg_flat_count(m))
        return dbg_err(c, "thread: no thread '%s' (0..%d, or UNIT.THREAD)", argv[1], dbg_flat_count(m) - 1);
    int unit = 0;
    while (u >= (uint64_t)m->units[unit].nthreads)
        u -= (uint64_t)m->units[unit++].nthreads;
    return dbg_select(c, unit, (int)u);
}

/* `unit [PATH]`: select a unit (thread 0) by path, name or index; alone, say which. */
int dbg_cmd_unit(dbg_cli *c, int argc, char **argv)
{
    char path[256];
    if (argc < 2) {
        printf("unit %s (#%d), thread %d\n", sim_unit_path(c->m, c->unit, path, sizeof path), c->unit, c->thread);
        return 0;
    }
    int unit = dbg_parse_unit(c->m, argv[1]);
    if (unit < 0)
        return dbg_err(c, "unit: no unit '%s' (a path such as %s, a name, or 0..%d; `info units` lists them)", argv[1],
                       sim_unit_path(c->m, c->m->nunits - 1, path, sizeof path), c->m->nunits - 1);
    return dbg_select(c, unit, 0);
}

/* One group of `info units` and what it holds, indented by depth: its units (runs of
 * adjacent units summed up as "tile0..tile1471" when there are many), then its children. */
static void units_tree(const sim_machine *m, FILE *f, int g, int depth)
{
    char path[256];
    if (g >= 0) {
        const sim_group *gr = &m->groups[g];
        fprintf(f, "%*sgroup %s: %d unit(s) of %d thread(s)", 2 * depth, "", sim_group_path(m, g, path, sizeof path),
                gr->nunits, gr->threads);
        if (gr->clock_hz > 0)
            fprintf(f, " at %.0f MHz", gr->clock_hz / 1e6);
        fprintf(f, "\n");
        depth++;
    }
    int listed = 0, n = 0;
    for (int i = 0; i < m->nunits; i++)
        n += m->units[i].group == g;
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (u->group != g)
            continue;
        if (n > 16 && listed == 8) { /* thousands of tiles: the first eight, then the rest in one line */
            int last = i;
            for (int k = i; k < m->nunits; k++)
                if (m->units[k].group == g)
                    last = k;
            fprintf(f, "%*s... %d more, #%d..#%d (to %s)\n", 2 * depth, "", n - listed, i, last,
                    sim_unit_path(m, last, path, sizeof path));
            break;
        }
        listed++;
        fprintf(f, "%*sunit %s (#%d): %d thread(s)", 2 * depth, "", sim_unit_path(m, i, path, sizeof path), i,
                u->nthreads);
        if (u->clock_hz > 0)
            fprintf(f, " at %.0f MHz", u->clock_hz / 1e6);
        fprintf(f, "%s\n", !u->enabled ? ", disabled" : u->halted ? ", halted" : "");
    }
    for (int k = 0; k < m->ngroups; k++)
        if (m->groups[k].parent == g)
            units_tree(m, f, k, depth);
}

void dbg_write_units(const sim_machine *m, FILE *f)
{
    fprintf(f, "machine (%s): %d group(s), %d unit(s)\n", m->isa->name, m->ngroups, m->nunits);
    units_tree(m, f, -1, 1);
}

/* `info units` (also `info groups`): the machine's groups > units > threads. */
int dbg_cmd_units(dbg_cli *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    dbg_write_units(c->m, stdout);
    return 0;
}

static const char *dbg_state_name(const sim_thread *t)
{
    switch (t->state) {
    case SIM_T_READY: return "ready";
    case SIM_T_SLEEP: return t->started ? "sleeping" : "idle";
    case SIM_T_HALTED: return "halted";
    default: return "disabled";
    }
}

int dbg_cmd_threads(dbg_cli *c, int argc, char **argv)
{
    sim_machine *m = c->m;
    /* `threads PATH`: only a group's (with its descendants') or a unit's threads */
    const sim_group *g = argc > 1 ? sim_find_group(m, argv[1]) : NULL;
    int only = argc > 1 && !g ? dbg_parse_unit(m, argv[1]) : -1;
    if (argc > 1 && !g && only < 0)
        return dbg_err(c, "threads: no group or unit '%s' (`info units` lists them)", argv[1]);
    printf("   #    unit        thr  state     pc          instructions  details\n");
    for (int u = 0; u < m->nunits; u++)
        for (int t = 0; t < m->units[u].nthreads; t++) {
            if ((g && !sim_unit_in_group(m, u, g->index)) || (only >= 0 && u != only))
                break;
            const sim_thread *th = &m->units[u].threads[t];
            char info[160] = "";
            if (m->isa->thread_state)
                m->isa->thread_state(m, u, t, info, sizeof info);
            printf("%c  %-4d %-11s %-4d %-9s 0x%08llx  %-12llu  %s\n", u == c->unit && t == c->thread ? '*' : ' ',
                   dbg_flat_index(m, u, t), m->units[u].name, t, dbg_state_name(th), (unsigned long long)dbg_pc(c, u, t),
                   (unsigned long long)th->instructions, info);
        }
    return 0;
}

int dbg_cmd_cycle(dbg_cli *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    printf("cycle %llu, %llu instructions retired\n", (unsigned long long)dbg_now(c->m),
           (unsigned long long)sim_total_instructions(c->m));
    return 0;
}

int dbg_cmd_stats(dbg_cli *c, int argc, char **argv)
{
    (void)argc, (void)argv;
    stats_write_text(c->m, stdout);
    return 0;
}

int dbg_cmd_history(dbg_cli *c, int argc, char **argv)
{
    uint64_t n = 10;
    dbg_state *d = c->m->dbg;
    if (argc > 1 && d && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off"))) {
        d->history_on = !strcmp(argv[1], "on");
        dbg_update_slow(c->m);
        printf("history %s\n", d->history_on ? "on: every instruction is recorded (runs take the slow path)"
                                              : "off: recorded while stepping only");
        return 0;
    }
    if (argc > 1 && (cli_parse_u64(argv[1], &n) || n == 0))
        return dbg_err(c, "history: bad count '%s' (a number, on or off)", argv[1]);
    uint64_t have = d ? (d->nhist < DBG_HISTORY ? d->nhist : DBG_HISTORY) : 0;
    if (n > have)
        n = have;
    if (!n) {
        printf("no instructions executed yet\n");
        return 0;
    }
    for (uint64_t k = d->nhist - n; k < d->nhist; k++) {
        const dbg_hist *h = &d->hist[k % DBG_HISTORY];
        if (h->unit < 0) { /* dbg_hist_gap */
            printf("%10s ... %llu instruction(s) not recorded (`history on` records them)\n", "",
                   (unsigned long long)h->pc);
            continue;
        }
        char sym[160], text[200];
        dbg_symbolize_unit(c, h->unit, h->pc, sym, sizeof sym);
        dbg_disasm_one(c, h->unit, h->thread, h->pc, text, sizeof text);
        char cyc[24] = "?"; /* an ISA that does not set last_issue leaves SIM_NEVER */
        if (h->cycle != SIM_NEVER)
            snprintf(cyc, sizeof cyc, "%llu", (unsigned long long)h->cycle);
        printf("%10s %s.%d 0x%08llx %-16s %s\n", cyc, c->m->units[h->unit].name, h->thread, (unsigned long long)h->pc,
               sym, text);
    }
    return 0;
}

/* info symbol ADDR | NAME: the symbol at or below an address, or a symbol's value, in the
 * selected unit's program (its own with --image or --symbols, else the machine's), and
 * which program that is. */
static int dbg_info_symbol(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2)
        return dbg_err(c, "info symbol: give an ADDRESS or a NAME");
    const ld_image *img = cli_unit_image(c->s, c->unit);
    char path[256], whose[300];
    if (img == &c->s->img)
        snprintf(whose, sizeof whose, "the machine's program");
    else
        snprintf(whose, sizeof whose, "the program of %s", sim_unit_path(c->m, c->unit, path, sizeof path));
    uint64_t addr, off = 0;
    char err[256];
    if (cli_parse_u64(argv[1], &addr) == 0) {
        const char *name = dbg_code_symbol_at(c, addr, &off);
        if (!name)
            printf("no symbol at or below 0x%llx in %s (%s)\n", (unsigned long long)addr, img->path, whose);
        else
            printf("0x%llx is %s+%llu in %s (%s)\n", (unsigned long long)addr, name, (unsigned long long)off, img->path,
                   whose);
        return 0;
    }
    if (dbg_resolve_code(c, argv[1], &addr, err, sizeof err) &&
        cli_unit_resolve_addr(c->s, c->unit, argv[1], &addr, err, sizeof err))
        return dbg_err(c, "info symbol: %s in %s (%s)", err, img->path, whose);
    printf("%s = 0x%llx in %s (%s)\n", argv[1], (unsigned long long)addr, img->path, whose);
    return 0;
}

int dbg_cmd_info(dbg_cli *c, int argc, char **argv)
{
    if (argc < 2) {
        printf("info topics: break (breakpoints and watchpoints), threads, regs, stats, units (groups > units)\n");
        printf("             tasks [all|UNIT] (what each thread slot runs now: CERT jobs, IPU vertex runs)\n");
        printf("             symbol ADDR|NAME (in the selected unit's program: its own with --image)\n");
        if (c->isa->views && c->isa->views->name)
            printf("%s topics:\n", c->isa->name);
        for (const isa_view *v = c->isa->views; v && v->name; v++)
            printf("%-8s %s\n", v->name, v->help);
        return 0;
    }
    if (strcmp(argv[1], "break") == 0 || strcmp(argv[1], "breakpoints") == 0 || strcmp(argv[1], "watch") == 0) {
        dbg_info_break(c);
        return 0;
    }
    if (strcmp(argv[1], "tasks") == 0) { /* core/task.h: the bound tasks, then the last ended ones */
        int unit = -1; /* every unit of a small machine, else the selected one; `all` or a UNIT says which */
        if (argc > 2 && strcmp(argv[2], "all") && (unit = dbg_parse_unit(c->m, argv[2])) < 0)
            return dbg_err(c, "info tasks: no unit '%s' (`info tasks all` lists every unit's)", argv[2]);
        if (argc <= 2 && c->m->nunits > 8)
            unit = c->unit;
        if (!sim_tasks_write_list(c->m, stdout, unit, 16))
            printf("no task has begun%s (CERT binds jobs, the IPU vertex runs)\n", unit >= 0 ? " on this unit" : "");
        return 0;
    }
    if (strcmp(argv[1], "symbol") == 0)
        return dbg_info_symbol(c, argc - 1, argv + 1);
    if (strcmp(argv[1], "threads") == 0)
        return dbg_cmd_threads(c, argc - 1, argv + 1);
    if (strcmp(argv[1], "units") == 0 || strcmp(argv[1], "groups") == 0)
        return dbg_cmd_units(c, 1, argv);
    if (strcmp(argv[1], "regs") == 0 || strcmp(argv[1], "registers") == 0)
        return dbg_cmd_regs(c, argc - 1, argv + 1);
    if (strcmp(argv[1], "stats") == 0)
        return dbg_cmd_stats(c, 1, argv);
    const isa_view *v = isa_view_find(c->isa, argv[1]);
    if (!v)
        return dbg_err(c, "info: unknown topic '%s' (`info` lists them)", argv[1]);
    if (v->show(c->m, c->unit, stdout) < 0)
        return dbg_err(c, "info %s: nothing to show for unit %d", argv[1], c->unit);
    return 0;
}

/* ---- expressions for print and assert ---- */

/* OPERAND: NUMBER | SYMBOL | reg NAME | $NAME[LANE] | mem [SPACE:]ADDR | cycle | pc |
 * instructions. Consumes 1 or 2 words; *bits is the operand's width (64 for literals). */
static int dbg_operand(dbg_cli *c, int argc, char **argv, int *i, uint64_t *v, unsigned *bits)
{
    if (*i >= argc)
        return dbg_err(c, "missing operand");
    const char *w = argv[(*i)++];
    *bits = 64;
    if (strcmp(w, "cycle") == 0) {
        *v = dbg_now(c->m);
        return 0;
    }
    if (strcmp(w, "pc") == 0) {
        *v = dbg_pc(c, c->unit, c->thread);
        return 0;
    }
    if (strcmp(w, "instructions") == 0 || strcmp(w, "insns") == 0) {
        *v = c->m->units[c->unit].threads[c->thread].instructions;
        return 0;
    }
    if (strcmp(w, "mem") == 0) {
        mem_space *sp;
        uint64_t addr;
        if (*i >= argc)
            return dbg_err(c, "mem: give [SPACE:]ADDR");
        if (dbg_resolve_mem(c, argv[(*i)++], &sp, &addr))
            return -1;
        if (dbg_read_word(sp, addr, v))
            return dbg_err(c, "%s:0x%llx is not readable memory", sp->name, (unsigned long long)addr);
        *bits = sp->word_bytes >= 8 ? 64 : sp->word_bytes * 8;
        return 0;
    }
    if (strcmp(w, "reg") == 0 || w[0] == '$') {
        if (w[0] != '$' && *i >= argc)
            return dbg_err(c, "reg: give a register name");
        char name[64];
        snprintf(name, sizeof name, "%s", w[0] == '$' ? w + 1 : argv[(*i)++]);
        int lane = -1;
        char *br = strchr(name, '[');
        if (br) {
            lane = atoi(br + 1);
            *br = 0;
        }
        int r = isa_reg_find(c->isa, name);
        uint8_t buf[256] = {0};
        if (r < 0 || !c->isa->reg_read)
            return dbg_err(c, "no register '%s'", name);
        const isa_reg *ri = &c->isa->regs[r];
        int nb = dbg_reg_bytes(ri);
        if (nb > (int)sizeof buf || c->isa->reg_read(c->m, c->unit, c->thread, r, buf))
            return dbg_err(c, "cannot read register %s", name);
        if (ri->bits > 64) {
            if (lane < 0 || lane >= nb / 4)
                return dbg_err(c, "%s is a vector: name a 32-bit lane, %s[0..%d]", ri->name, ri->name, nb / 4 - 1);
            *v = dbg_le(buf + 4 * lane, 4);
            *bits = 32;
        } else {
            *v = dbg_le(buf, nb);
            *bits = ri->bits;
        }
        return 0;
    }
    if (dbg_parse_s64(w, v) == 0)
        return 0;
    char err[256];
    if (dbg_resolve_code(c, w, v, err, sizeof err) == 0 || cli_resolve_addr(c->s, w, v, err, sizeof err) == 0)
        return 0;
    return dbg_err(c, "'%s' is not a number, symbol, register ($NAME), mem ADDR, cycle, pc or instructions", w);
}

static int64_t dbg_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (bits - 1), mask = (sign << 1) - 1;
    v &= mask;
    return (int64_t)((v ^ sign) - sign);
}

int dbg_cmd_print(dbg_cli *c, int argc, char **argv)
{
    int i = 1;
    uint64_t v;
    unsigned bits;
    if (dbg_operand(c, argc, argv, &i, &v, &bits))
        return -1;
    if (bits < 64)
        v &= ((uint64_t)1 << bits) - 1;
    printf("0x%llx  %llu  %lld\n", (unsigned long long)v, (unsigned long long)v, (long long)dbg_sext(v, bits));
    return 0;
}

int dbg_cmd_assert(dbg_cli *c, int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "stop") == 0) {
        const char *have = c->ran ? sim_stop_name(c->m->stop.kind) : "none";
        if (strncmp(have, argv[2], strlen(argv[2])) == 0 && argv[2][0]) {
            printf("assert ok: stop is %s\n", have);
            return 0;
        }
        c->assert_failed = 1;
        return dbg_err(c, "assert failed: stop is '%s', expected '%s'", have, argv[2]);
    }
    int i = 1;
    uint64_t a, b;
    unsigned ba, bb;
    if (dbg_operand(c, argc, argv, &i, &a, &ba))
        return -1;
    if (i >= argc)
        return dbg_err(c, "assert: give LHS OP RHS (OP one of == != < <= > >=) or `assert stop KIND`");
    const char *op = argv[i++];
    if (dbg_operand(c, argc, argv, &i, &b, &bb))
        return -1;
    if (i != argc)
        return dbg_err(c, "assert: unexpected '%s'", argv[i]);
    unsigned w = ba < bb ? ba : bb; /* compare at the narrower width: `$r1 == -1` on 32 bits */
    int64_t x = dbg_sext(a, w), y = dbg_sext(b, w);
    int ok;
    if (strcmp(op, "==") == 0) ok = x == y;
    else if (strcmp(op, "!=") == 0) ok = x != y;
    else if (strcmp(op, "<") == 0) ok = x < y;
    else if (strcmp(op, "<=") == 0) ok = x <= y;
    else if (strcmp(op, ">") == 0) ok = x > y;
    else if (strcmp(op, ">=") == 0) ok = x >= y;
    else return dbg_err(c, "assert: unknown operator '%s'", op);
    if (ok) {
        printf("assert ok: %lld %s %lld\n", (long long)x, op, (long long)y);
        return 0;
    }
    c->assert_failed = 1;
    return dbg_err(c, "assert failed: %lld (0x%llx) %s %lld (0x%llx) is false", (long long)x,
                   (unsigned long long)a, op, (long long)y, (unsigned long long)b);
}

