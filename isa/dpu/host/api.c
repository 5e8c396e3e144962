/* isa/dpu/host/api.c: libxpusim-dpu, the UPMEM SDK host API on the xpusim DPU model:
 * allocation (one xpusim machine per allocation, DPUs in ranks of 64, the profile string
 * read as xpusim -o options), iteration over DPUs and ranks, program load, launches with
 * memory kept between them (dpu_relaunch in ../machine.c: each launch starts at cycle 0
 * and has its own statistics), asynchronous launches run in order before the next call,
 * and the error strings. Transfers and logs are in xfer.c. Written for xpusim from the
 * public SDK documentation; docs/isa/dpu.md "Host API library". */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "host.h"
#include "xpusim_dpu.h"
#include "../../isa.h"
#include "../../../core/stats.h"

extern const isa_ops isa_dpu;

/* ---- sets ---- */

xdpu_system *xdpu_system_of(struct dpu_set_t set)
{
    if (set.kind == DPU_SET_DPU)
        return set.dpu && set.dpu->rank ? set.dpu->rank->sys : NULL;
    if (set.kind != DPU_SET_RANKS || !set.list.nr_ranks || !set.list.ranks || !set.list.ranks[0])
        return NULL;
    return set.list.ranks[0]->sys;
}

dpu_error_t xdpu_each(struct dpu_set_t set, dpu_error_t (*f)(xdpu_system *s, struct dpu_t *d, void *ctx), void *ctx)
{
    xdpu_system *s = xdpu_system_of(set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    if (set.kind == DPU_SET_DPU)
        return f(s, set.dpu, ctx);
    for (uint32_t r = 0; r < set.list.nr_ranks; r++) {
        const struct dpu_rank_t *rk = set.list.ranks[r];
        if (!rk || rk->sys != s)
            return DPU_ERR_INVALID_DPU_SET;
        for (uint32_t k = 0; k < rk->n; k++) {
            dpu_error_t e = f(s, &s->dpus[rk->first + k], ctx);
            if (e != DPU_OK)
                return e;
        }
    }
    return DPU_OK;
}

static dpu_error_t count_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    (void)s;
    (void)d;
    ++*(uint32_t *)ctx;
    return DPU_OK;
}

dpu_error_t dpu_get_nr_dpus(struct dpu_set_t dpu_set, uint32_t *nr_dpus)
{
    uint32_t n = 0;
    dpu_error_t e = xdpu_each(dpu_set, count_one, &n);
    if (e == DPU_OK && nr_dpus)
        *nr_dpus = n;
    return e;
}

dpu_error_t dpu_get_nr_ranks(struct dpu_set_t dpu_set, uint32_t *nr_ranks)
{
    if (!xdpu_system_of(dpu_set))
        return DPU_ERR_INVALID_DPU_SET;
    if (nr_ranks)
        *nr_ranks = dpu_set.kind == DPU_SET_DPU ? 1 : dpu_set.list.nr_ranks;
    return DPU_OK;
}

/* The iterators behind DPU_FOREACH and DPU_RANK_FOREACH: `count` is the index of `next`
 * among the set's DPUs (ranks), `pos` where the walk is (rank << 16 | DPU in rank). */
static void dpu_iter_load(struct dpu_set_iterator_t *it)
{
    const struct dpu_set_t *set = &it->set;
    it->has_next = false;
    if (set->kind == DPU_SET_DPU) {
        if (it->pos == 0 && set->dpu) {
            it->next = *set;
            it->has_next = true;
        }
        return;
    }
    if (set->kind != DPU_SET_RANKS || !set->list.ranks)
        return;
    for (uint32_t r = it->pos >> 16, k = it->pos & 0xFFFF; r < set->list.nr_ranks; r++, k = 0) {
        struct dpu_rank_t *rk = set->list.ranks[r];
        if (rk && k < rk->n) {
            it->pos = r << 16 | k;
            it->next = (struct dpu_set_t){.kind = DPU_SET_DPU, .dpu = &rk->sys->dpus[rk->first + k]};
            it->has_next = true;
            return;
        }
    }
}

struct dpu_set_iterator_t dpu_set_dpu_iterator_from(const struct dpu_set_t *set)
{
    struct dpu_set_iterator_t it = {.set = *set};
    dpu_iter_load(&it);
    return it;
}

void dpu_set_dpu_iterator_next(struct dpu_set_iterator_t *it)
{
    it->count++;
    it->pos = it->set.kind == DPU_SET_DPU ? 1 : it->pos + 1;
    dpu_iter_load(it);
}

static void rank_iter_load(struct dpu_set_iterator_t *it)
{
    const struct dpu_set_t *set = &it->set;
    it->has_next = false;
    if (set->kind == DPU_SET_DPU) {
        /* one DPU: its rank holds it, but the set is the DPU itself */
        if (it->pos == 0 && set->dpu) {
            it->next = *set;
            it->has_next = true;
        }
        return;
    }
    if (set->kind == DPU_SET_RANKS && set->list.ranks && it->pos < set->list.nr_ranks) {
        it->next = (struct dpu_set_t){.kind = DPU_SET_RANKS, .list = {1, &set->list.ranks[it->pos]}};
        it->has_next = true;
    }
}

struct dpu_set_iterator_t dpu_set_rank_iterator_from(const struct dpu_set_t *set)
{
    struct dpu_set_iterator_t it = {.set = *set};
    rank_iter_load(&it);
    return it;
}

void dpu_set_rank_iterator_next(struct dpu_set_iterator_t *it)
{
    it->count++;
    it->pos++;
    rank_iter_load(it);
}

/* ---- allocation ---- */

/* Keys of the SDK's profile strings that mean nothing to a simulator: accepted, ignored. */
static const char *const sdk_profile_keys[] = {"backend", "cycleAccurate", "nrThreadPerPool", "nrJobsPerRank",
                                               "dispatchOnAllRanks", "ignoreVpd", "disableSafeChecks",
                                               "disableMuxSwitch", "chipId", "rankPath", "regionMode",
                                               "clockDivision", "poolThreshold", "nrDpusPerRank", NULL};

static int known_key(const char *k)
{
    for (const opt_desc *o = isa_dpu.options; o && o->name; o++)
        if (!strcmp(o->name, k))
            return 1;
    for (const opt_desc *o = sim_core_options; o && o->name; o++)
        if (!strcmp(o->name, k))
            return 1;
    return 0;
}

/* Read "k=v,k=v" into opts; -1 with a message on an unknown key or a bad item. */
static int parse_profile(const char *text, const char *what, sim_opts *opts)
{
    if (!text)
        return 0;
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, ",");
        char item[256];
        if (n >= sizeof item) {
            fprintf(stderr, "xpusim-dpu: %s: item too long in '%s'\n", what, text);
            return -1;
        }
        memcpy(item, p, n);
        item[n] = 0;
        p += n + (p[n] == ',');
        char *s = item;
        while (*s == ' ')
            s++;
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            fprintf(stderr, "xpusim-dpu: %s: '%s' is not key=value\n", what, s);
            return -1;
        }
        *eq = 0;
        int sdk = 0;
        for (int i = 0; sdk_profile_keys[i]; i++)
            sdk |= !strcmp(sdk_profile_keys[i], s);
        if (sdk)
            continue;
        if (!known_key(s)) {
            fprintf(stderr, "xpusim-dpu: %s: unknown key '%s' (xpusim isas lists the DPU options)\n", what, s);
            return -1;
        }
        *eq = '=';
        if (opt_parse(opts, s)) {
            fprintf(stderr, "xpusim-dpu: %s: too many options\n", what);
            return -1;
        }
    }
    return 0;
}

/* Ranks, DPU handles and the XPUSIM_DPU_STATS file of a system whose machine exists. */
static dpu_error_t build_system(xdpu_system *s, struct dpu_set_t *set)
{
    s->ndpus = (uint32_t)s->m->nunits;
    s->nranks = (s->ndpus + XDPU_RANK_SIZE - 1) / XDPU_RANK_SIZE;
    s->dpus = calloc(s->ndpus, sizeof *s->dpus);
    s->ranks = calloc(s->nranks, sizeof *s->ranks);
    s->rank_ptrs = calloc(s->nranks, sizeof *s->rank_ptrs);
    s->sel = calloc(s->ndpus, 1);
    if (!s->dpus || !s->ranks || !s->rank_ptrs || !s->sel)
        return DPU_ERR_ALLOCATION;
    for (uint32_t r = 0; r < s->nranks; r++) {
        s->ranks[r] = (struct dpu_rank_t){s, r * XDPU_RANK_SIZE, 0};
        s->ranks[r].n = s->ndpus - s->ranks[r].first < XDPU_RANK_SIZE ? s->ndpus - s->ranks[r].first : XDPU_RANK_SIZE;
        s->rank_ptrs[r] = &s->ranks[r];
    }
    for (uint32_t i = 0; i < s->ndpus; i++)
        s->dpus[i] = (struct dpu_t){&s->ranks[i / XDPU_RANK_SIZE], i, NULL};
    const char *st = getenv("XPUSIM_DPU_STATS");
    if (st && *st) {
        s->stats = fopen(st, "a");
        if (!s->stats) {
            fprintf(stderr, "xpusim-dpu: XPUSIM_DPU_STATS=%s: %s\n", st, strerror(errno));
            return DPU_ERR_SYSTEM;
        }
        size_t n = strlen(st);
        s->stats_json = n > 5 && !strcmp(st + n - 5, ".json");
    }
    *set = (struct dpu_set_t){.kind = DPU_SET_RANKS, .list = {s->nranks, s->rank_ptrs}};
    return DPU_OK;
}

void xdpu_system_free(xdpu_system *s)
{
    if (!s)
        return;
    if (s->owns_machine && s->m)
        sim_destroy(s->m);
    if (s->owns_machine)
        ld_free(&s->img);
    if (s->stats)
        fclose(s->stats);
    free(s->program);
    free(s->dpus);
    free(s->ranks);
    free(s->rank_ptrs);
    free(s->sel);
    free(s);
}

dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set)
{
    if (!dpu_set)
        return DPU_ERR_INTERNAL;
    sim_opts opts;
    opt_init(&opts);
    if (parse_profile(getenv("XPUSIM_DPU_PROFILE"), "XPUSIM_DPU_PROFILE", &opts) ||
        parse_profile(profile, "dpu_alloc profile", &opts))
        return DPU_ERR_INVALID_PROFILE;
    char n[32];
    if (nr_dpus == DPU_ALLOCATE_ALL) {
        if (!opt_get(&opts, "dpus", NULL))
            opt_set(&opts, "dpus", "64");
    } else {
        if (nr_dpus == 0 || nr_dpus > 2560) {
            fprintf(stderr, "xpusim-dpu: dpu_alloc: %u DPUs asked for; the simulated system has 1 to 2560\n", nr_dpus);
            return DPU_ERR_ALLOCATION;
        }
        snprintf(n, sizeof n, "%u", nr_dpus);
        opt_set(&opts, "dpus", n);
    }
    xdpu_system *s = calloc(1, sizeof *s);
    if (!s)
        return DPU_ERR_ALLOCATION;
    char err[512];
    if (sim_create(&s->own, &isa_dpu, &opts, err, sizeof err)) {
        fprintf(stderr, "xpusim-dpu: dpu_alloc: %s\n", err);
        free(s);
        return strstr(err, "memory") ? DPU_ERR_ALLOCATION : DPU_ERR_INVALID_PROFILE;
    }
    s->m = &s->own;
    s->owns_machine = 1;
    dpu_error_t e = build_system(s, dpu_set);
    if (e != DPU_OK)
        xdpu_system_free(s);
    return e;
}

dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set)
{
    if (nr_ranks == 0 || nr_ranks > 2560 / XDPU_RANK_SIZE)
        return DPU_ERR_ALLOCATION;
    return dpu_alloc(nr_ranks * XDPU_RANK_SIZE, profile, dpu_set);
}

dpu_error_t xdpu_wrap(sim_machine *m, struct dpu_set_t *set)
{
    xdpu_system *s = calloc(1, sizeof *s);
    if (!s)
        return DPU_ERR_ALLOCATION;
    s->m = m;
    dpu_error_t e = build_system(s, set);
    if (e != DPU_OK)
        xdpu_system_free(s);
    return e;
}

/* The whole allocation (what dpu_alloc returned), not a rank or a DPU of it. */
static int whole(const xdpu_system *s, struct dpu_set_t set)
{
    return set.kind == DPU_SET_RANKS && set.list.ranks == s->rank_ptrs && set.list.nr_ranks == s->nranks;
}

dpu_error_t dpu_free(struct dpu_set_t dpu_set)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s || !whole(s, dpu_set) || !s->owns_machine)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    xdpu_system_free(s);
    return e;
}

/* ---- program ---- */

dpu_error_t dpu_load(struct dpu_set_t dpu_set, const char *binary_path, struct dpu_program_t **program)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    if (e != DPU_OK)
        return e;
    if (!binary_path)
        return DPU_ERR_ELF_NO_SUCH_FILE;
    if (!whole(s, dpu_set)) {
        /* one machine holds one program: a part of the allocation can only be given the
         * program it already runs */
        if (s->loaded && !strcmp(s->program, binary_path)) {
            if (program)
                *program = (struct dpu_program_t *)s;
            return DPU_OK;
        }
        fprintf(stderr, "xpusim-dpu: dpu_load %s: xpusim loads a program into a whole allocation only\n", binary_path);
        return DPU_ERR_DIFFERENT_DPU_PROGRAMS;
    }
    struct stat sb;
    if (stat(binary_path, &sb)) {
        fprintf(stderr, "xpusim-dpu: dpu_load %s: %s\n", binary_path, strerror(errno));
        return DPU_ERR_ELF_NO_SUCH_FILE;
    }
    ld_image img;
    char err[512];
    if (ld_load(binary_path, &img, err, sizeof err)) {
        fprintf(stderr, "xpusim-dpu: dpu_load: %s\n", err);
        return DPU_ERR_ELF_INVALID_FILE;
    }
    if (img.fmt != LD_ELF || img.machine != 0xF5) {
        fprintf(stderr, "xpusim-dpu: dpu_load: %s is not a DPU ELF (e_machine 0xF5)\n", binary_path);
        ld_free(&img);
        return DPU_ERR_ELF_INVALID_FILE;
    }
    char *path = strdup(binary_path);
    if (!path) {
        ld_free(&img);
        return DPU_ERR_ALLOCATION;
    }
    if (isa_dpu.load(s->m, &img, err, sizeof err)) {
        fprintf(stderr, "xpusim-dpu: dpu_load: %s\n", err);
        ld_free(&img);
        free(path);
        return DPU_ERR_ELF_INVALID_FILE;
    }
    if (s->loaded)
        ld_free(&s->img);
    s->img = img;
    s->m->image = &s->img;
    s->loaded = 1;
    free(s->program);
    s->program = path;
    for (uint32_t i = 0; i < s->ndpus; i++)
        s->dpus[i].xfer_buf = NULL;
    if (program)
        *program = (struct dpu_program_t *)s;
    return DPU_OK;
}

dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *symbol_name, struct dpu_symbol_t *symbol)
{
    xdpu_system *s = (xdpu_system *)program;
    if (!s || !s->loaded)
        return DPU_ERR_NO_PROGRAM_LOADED;
    const ld_symbol *y = symbol_name ? ld_symbol_find(&s->img, symbol_name) : NULL;
    if (!y)
        return DPU_ERR_UNKNOWN_SYMBOL;
    if (symbol)
        *symbol = (struct dpu_symbol_t){(uint32_t)y->value, (uint32_t)y->size};
    return DPU_OK;
}

/* ---- launches ---- */

static dpu_error_t select_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    (void)ctx;
    s->sel[d->index] = 1;
    return DPU_OK;
}

/* Run the launch dpu_relaunch prepared; its statistics; the SDK status of how it ended. */
static dpu_error_t run_launch(xdpu_system *s)
{
    sim_machine *m = s->m;
    s->pending = 0;
    sim_run(m, SIM_NEVER);
    s->launches++;
    s->last_cycles = sim_end_cycle(m);
    s->last_insns = sim_total_instructions(m);
    if (s->stats) {
        if (s->stats_json) {
            /* one object per line: the core's JSON with its line breaks taken out */
            char *buf = NULL;
            size_t n = 0;
            FILE *mf = open_memstream(&buf, &n);
            if (mf) {
                stats_write_json(m, mf);
                fclose(mf);
                for (size_t i = 0; i < n; i++)
                    if (buf[i] == '\n')
                        buf[i] = ' ';
                while (n && buf[n - 1] == ' ')
                    buf[--n] = 0;
                fprintf(s->stats, "%s\n", buf);
                free(buf);
            }
        } else {
            fprintf(s->stats, "== launch %u ==\n", s->launches);
            stats_write_text(m, s->stats);
            stats_write_speed(m, s->stats);
        }
        fflush(s->stats);
    }
    switch (m->stop.kind) {
    case SIM_STOP_HALT:
        return DPU_OK;
    case SIM_STOP_FAULT:
    case SIM_STOP_ILLEGAL:
        fprintf(stderr, "xpusim-dpu: launch %u: %s: %s\n", s->launches, sim_stop_name(m->stop.kind), m->stop.msg);
        return DPU_ERR_DPU_FAULT;
    default:
        /* a deadlock (tasklets parked in a barrier), a livelock (the watchdog): on hardware the
         * host would wait for ever or read half-done results */
        fprintf(stderr, "xpusim-dpu: launch %u: %s: %s\n", s->launches, sim_stop_name(m->stop.kind), m->stop.msg);
        return DPU_ERR_TIMEOUT;
    }
}

dpu_error_t xdpu_settle(xdpu_system *s)
{
    return s->pending ? run_launch(s) : DPU_OK;
}

dpu_error_t dpu_launch(struct dpu_set_t dpu_set, dpu_launch_policy_t policy)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    if (policy != DPU_SYNCHRONOUS && policy != DPU_ASYNCHRONOUS)
        return DPU_ERR_INVALID_LAUNCH_POLICY;
    dpu_error_t e = xdpu_settle(s);
    if (e != DPU_OK)
        return e;
    if (!s->loaded)
        return DPU_ERR_NO_PROGRAM_LOADED;
    memset(s->sel, 0, s->ndpus);
    if ((e = xdpu_each(dpu_set, select_one, NULL)) != DPU_OK)
        return e;
    if (dpu_relaunch(s->m, s->sel))
        return DPU_ERR_INTERNAL;
    s->pending = 1;
    return policy == DPU_SYNCHRONOUS ? run_launch(s) : DPU_OK;
}

dpu_error_t dpu_sync(struct dpu_set_t dpu_set)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    return s ? xdpu_settle(s) : DPU_ERR_INVALID_DPU_SET;
}

typedef struct status_acc {
    bool done, fault;
} status_acc;

static dpu_error_t status_one(xdpu_system *s, struct dpu_t *d, void *ctx)
{
    status_acc *a = ctx;
    const dpu_machine *dm = s->m->isa_state;
    if (!s->m->units[d->index].halted)
        a->done = false;
    if (dm->units[d->index].faulted)
        a->fault = true;
    return DPU_OK;
}

dpu_error_t dpu_status(struct dpu_set_t dpu_set, bool *done, bool *fault)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    xdpu_settle(s); /* its status is the launch's, asked for with dpu_sync; here the DPUs' */
    status_acc a = {true, false};
    dpu_error_t e = xdpu_each(dpu_set, status_one, &a);
    if (done)
        *done = a.done;
    if (fault)
        *fault = a.fault;
    return e;
}

/* ---- xpusim's additions ---- */

dpu_error_t xpusim_dpu_last_launch(struct dpu_set_t dpu_set, uint64_t *cycles, uint64_t *instructions,
                                   uint32_t *launch)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    if (cycles)
        *cycles = s->last_cycles;
    if (instructions)
        *instructions = s->last_insns;
    if (launch)
        *launch = s->launches;
    return e;
}

dpu_error_t xpusim_dpu_stats(struct dpu_set_t dpu_set, FILE *out, int json)
{
    xdpu_system *s = xdpu_system_of(dpu_set);
    if (!s || !out)
        return DPU_ERR_INVALID_DPU_SET;
    dpu_error_t e = xdpu_settle(s);
    if (json)
        stats_write_json(s->m, out);
    else
        stats_write_text(s->m, out);
    return e;
}

/* ---- errors ---- */

char *dpu_error_to_string(dpu_error_t status)
{
    static const char *const text[] = {
        [DPU_OK] = "success",
        [DPU_ERR_INTERNAL] = "internal error",
        [DPU_ERR_SYSTEM] = "system error (see the message on stderr)",
        [DPU_ERR_DRIVER] = "driver error",
        [DPU_ERR_ALLOCATION] = "cannot allocate the DPUs asked for",
        [DPU_ERR_INVALID_DPU_SET] = "invalid DPU set for this operation",
        [DPU_ERR_INVALID_THREAD_ID] = "invalid tasklet id",
        [DPU_ERR_INVALID_NOTIFY_ID] = "invalid notify id",
        [DPU_ERR_INVALID_WRAM_ACCESS] = "invalid WRAM access (out of range or not 4-byte aligned)",
        [DPU_ERR_INVALID_IRAM_ACCESS] = "invalid IRAM access (out of range or not 8-byte aligned)",
        [DPU_ERR_INVALID_MRAM_ACCESS] = "invalid MRAM access (out of range or not 8-byte aligned)",
        [DPU_ERR_INVALID_SYMBOL_ACCESS] = "access past the end of the symbol",
        [DPU_ERR_MRAM_BUSY] = "MRAM busy",
        [DPU_ERR_TRANSFER_ALREADY_SET] = "transfer already prepared",
        [DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER] = "invalid parallel memory transfer",
        [DPU_ERR_WRAM_FIFO_FULL] = "WRAM FIFO full",
        [DPU_ERR_NO_PROGRAM_LOADED] = "no program loaded",
        [DPU_ERR_DIFFERENT_DPU_PROGRAMS] = "different DPU programs in one set",
        [DPU_ERR_CORRUPTED_MEMORY] = "corrupted memory",
        [DPU_ERR_DPU_DISABLED] = "DPU disabled",
        [DPU_ERR_DPU_ALREADY_RUNNING] = "DPU already running",
        [DPU_ERR_INVALID_MEMORY_TRANSFER] = "invalid memory transfer",
        [DPU_ERR_INVALID_LAUNCH_POLICY] = "invalid launch policy",
        [DPU_ERR_DPU_FAULT] = "DPU fault (the simulator's message is on stderr)",
        [DPU_ERR_ELF_INVALID_FILE] = "invalid DPU ELF file",
        [DPU_ERR_ELF_NO_SUCH_FILE] = "no such DPU program file",
        [DPU_ERR_ELF_NO_SUCH_SECTION] = "no such ELF section",
        [DPU_ERR_TIMEOUT] = "the DPUs did not finish (deadlock or livelock; the simulator's message is on stderr)",
        [DPU_ERR_INVALID_PROFILE] = "invalid profile",
        [DPU_ERR_UNKNOWN_SYMBOL] = "unknown symbol",
        [DPU_ERR_LOG_FORMAT] = "malformed log buffer",
        [DPU_ERR_LOG_CONTEXT_MISSING] = "the program has no log buffer (__stdout_buffer)",
        [DPU_ERR_LOG_BUFFER_TOO_SMALL] = "log buffer too small",
        [DPU_ERR_VPD_INVALID_FILE] = "invalid VPD file",
        [DPU_ERR_VPD_NO_REPAIR] = "no VPD repair",
        [DPU_ERR_NO_THREAD_PER_RANK] = "no thread per rank",
        [DPU_ERR_INVALID_BUFFER_SIZE] = "invalid buffer size",
        [DPU_ERR_NONBLOCKING_SYNC_CALLBACK] = "non-blocking synchronous callback",
        [DPU_ERR_TOO_MANY_TASKLETS] = "too many tasklets",
        [DPU_ERR_SG_TOO_MANY_BLOCKS] = "too many scatter-gather blocks",
        [DPU_ERR_SG_LENGTH_MISMATCH] = "scatter-gather length mismatch",
        [DPU_ERR_SG_NOT_ACTIVATED] = "scatter-gather not activated",
        [DPU_ERR_SG_NOT_MRAM_SYMBOL] = "scatter-gather needs an MRAM symbol",
    };
    const char *t = (unsigned)status < sizeof text / sizeof text[0] && text[status] ? text[status] : NULL;
    char buf[64];
    if (!t) {
        snprintf(buf, sizeof buf, "unknown error %d", (int)status);
        t = buf;
    }
    return strdup(t);
}
