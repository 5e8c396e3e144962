/* isa/cert/runner_io.c: the job-runner's links to the world outside a uC's job table:
 * every AXI-MM access goes to the array model (array.h) and its outcome becomes a warning
 * (unmodelled register, once per address; task dropped by a full queue, counted) or a stop
 * (-o strict=1, an address outside the partition); the array's task completions are an
 * event whose tokens reach a uC tct_latency later and wake its WAIT_TCTS; the uC-DMA
 * engine walks a descriptor chain (16-byte UC_DMA_BD: length in words, flags, local
 * pointer relative to the BD, array address) and writes its words to the array when the
 * transfer ends, completing its wait handle. Also the block / wake / stop primitives the
 * scheduler (runner.c) shares with these events, and the rule that keeps causality
 * between uCs: whoever schedules an event or wakes another uC earlier than the running
 * uC's horizon lowers that horizon. */
#include <stdlib.h>
#include <string.h>
#include "runner.h"
#include "../../core/debug.h"

/* ---- events, wakes and the horizon ---- */

void cert_arm(sim_machine *m, ev_event *e, uint64_t when)
{
    cert_machine *cm = cert_m(m);
    if (when < m->now)
        when = m->now;
    if (!ev_pending(e) || e->when != when)
        sim_schedule(m, e, when);
    if (cm->horizon && when < *cm->horizon)
        *cm->horizon = when;
}

void cert_wake_unit(sim_machine *m, int uc, uint64_t when)
{
    cert_machine *cm = cert_m(m);
    if (when < m->now)
        when = m->now;
    sim_unit_wake(m, &m->units[uc], when);
    if (cm->running >= 0 && cm->running != uc && cm->horizon && when < *cm->horizon)
        *cm->horizon = when;
}


void cert_job_block(sim_machine *m, cert_uc *c, int s, int wait, int stall, uint64_t t)
{
    cert_job *j = &c->job[s];
    j->state = CJ_BLOCKED;
    j->wait = (uint8_t)wait;
    j->stall = (uint8_t)stall;
    j->since = t;
    cert_th(m, c, s)->state = SIM_T_SLEEP;
    cert_th(m, c, s)->ready_at = SIM_NEVER;
}

/* A blocked job may run again at t; resumed: its blocking opcode has completed. */
void cert_job_wake(sim_machine *m, cert_uc *c, int s, uint64_t t, int resumed)
{
    cert_job *j = &c->job[s];
    if (j->state != CJ_BLOCKED)
        return;
    if (t > j->since)
        cert_th(m, c, s)->stalls[j->stall] += t - j->since;
    j->state = CJ_READY;
    j->wait = CW_NONE;
    j->resumed = (uint8_t)resumed;
    j->ready_at = t;
    j->since = t;
    j->stall = CS_READY;
    cert_th(m, c, s)->state = SIM_T_READY;
    cert_th(m, c, s)->ready_at = t;
    cert_wake_unit(m, c->index, t);
}

/* ---- stops and warnings ---- */

void cert_job_stop(sim_machine *m, cert_uc *c, int s, sim_stop_kind k, uint64_t t, const char *what)
{
    const cert_job *j = &c->job[s];
    sim_set_stop_at(m, k, c->index, s, cert_pc(j->page, j->off), t, "uc%d page %u offset 0x%x (job %u): %s",
                    c->index, j->page, j->off, j->id, what);
}

int cert_warned(cert_machine *cm, uint32_t addr)
{
    for (int i = 0; i < cm->nwarned; i++)
        if (cm->warned[i] == addr)
            return 1;
    if (cm->nwarned == cm->cwarned) {
        int n = cm->cwarned ? 2 * cm->cwarned : 32;
        uint32_t *w = realloc(cm->warned, (size_t)n * sizeof *w);
        if (!w)
            return 1;
        cm->warned = w;
        cm->cwarned = n;
    }
    cm->warned[cm->nwarned++] = addr;
    return 0;
}

/* The outcome of an array access: 0 go on, -1 the run stopped. */
static int ax_result(sim_machine *m, cert_uc *c, int s, int r, uint32_t addr, const char *msg, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    char what[300];
    if (r == CERT_AX_OK)
        return 0;
    if (r == CERT_AX_UNMODELLED) {
        c->cnt[CN_UNMODELLED].value++;
        snprintf(what, sizeof what, "%s", msg && msg[0] ? msg : "register not modelled");
        if (cm->tm.strict) {
            char full[340];
            snprintf(full, sizeof full, "address 0x%08X: %s (-o strict=1)", addr, what);
            cert_job_stop(m, c, s, SIM_STOP_FAULT, t, full);
            return -1;
        }
        if (!cert_warned(cm, addr) && m->err)
            fprintf(m->err, "xpusim: warning: uc%d cycle %llu: address 0x%08X: %s\n", c->index,
                    (unsigned long long)t, addr, what);
        return 0;
    }
    if (r == CERT_AX_OPAQUE) {
        /* AIE4's array register map is not public (reference Risks 4): every access is
         * counted as unmodelled, warned about once, reads give 0; -o strict=1 stops at the
         * first. */
        c->cnt[CN_UNMODELLED].value++;
        if (cm->tm.strict) {
            char full[340];
            snprintf(full, sizeof full, "address 0x%08X: %s (-o strict=1)", addr, msg);
            cert_job_stop(m, c, s, SIM_STOP_FAULT, t, full);
            return -1;
        }
        if (!cert_warned(cm, 0xFFFFFFFFu) && m->err)
            fprintf(m->err, "xpusim: warning: uc%d cycle %llu: address 0x%08X: %s; array accesses are counted "
                    "(unmodelled_accesses), not modelled, and reads give 0\n", c->index, (unsigned long long)t, addr, msg);
        return 0;
    }
    if (r == CERT_AX_DROPPED) {
        c->cnt[CN_DROPPED].value++;
        cm->dropped++;
        if (m->err && cm->nwarn_drop < 20)
            fprintf(m->err, "xpusim: warning: uc%d cycle %llu: address 0x%08X: %s\n", c->index, (unsigned long long)t,
                    addr, msg && msg[0] ? msg : "task dropped: queue full");
        if (m->err && ++cm->nwarn_drop == 20)
            fprintf(m->err, "xpusim: warning: further dropped-task warnings not shown (see dropped_tasks)\n");
        return 0;
    }
    if (msg && msg[0])
        snprintf(what, sizeof what, "AXI-MM %s%s", msg,
                 strstr(msg, "column") ? " (-o columns=N sets the partition's width)" : "");
    else
        snprintf(what, sizeof what, "AXI-MM address 0x%08X refused by the array model", addr);
    cert_job_stop(m, c, s, SIM_STOP_FAULT, t, what);
    return -1;
}

/* ---- the array and its tokens ---- */

static void tct_arm(sim_machine *m)
{
    cert_machine *cm = cert_m(m);
    if (cm->ptct_n)
        cert_arm(m, &cm->tct_ev, cm->ptct[0].at);
    else
        ev_cancel(&m->q, &cm->tct_ev);
}

static void emit_token(void *ctx, const cert_token *tok)
{
    sim_machine *m = ctx;
    cert_machine *cm = cert_m(m);
    /* -o tct_route: the channel's Controller_ID names the uC (timing.c says why), or the
     * uC of the token's column (aie4: two uCs per column and the A/B encoding is not
     * public, so A = 2 * col) */
    int upc = cert_target_ucs_per_column(cm->prog.target);
    int uc = cm->tm.tct_by_column ? (int)tok->col * upc : (int)tok->controller;
    cert_pending_tct p = {uc, (tok->col & 0x7F) << 5 | (tok->row & 0x1F), tok->actor, tok->cycle + cm->tm.tct_latency};
    if (cm->ptct_n == cm->ptct_cap) {
        int n = cm->ptct_cap ? 2 * cm->ptct_cap : 16;
        cert_pending_tct *q = realloc(cm->ptct, (size_t)n * sizeof *q);
        if (!q)
            return;
        cm->ptct = q;
        cm->ptct_cap = n;
    }
    /* kept sorted by arrival (stable: equal times keep emission order) */
    int i = cm->ptct_n++;
    while (i > 0 && cm->ptct[i - 1].at > p.at) {
        cm->ptct[i] = cm->ptct[i - 1];
        i--;
    }
    cm->ptct[i] = p;
}

/* Complete every array task due by t and re-arm the array's event. */
static void array_sync(sim_machine *m, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    if (cert_array_next_event(cm->array) <= t) {
        cert_array_advance(cm->array, t, emit_token, m);
        cm->change_seq++;
        tct_arm(m);
    }
    uint64_t nx = cert_array_next_event(cm->array);
    if (nx == UINT64_MAX)
        ev_cancel(&m->q, &cm->array_ev);
    else
        cert_arm(m, &cm->array_ev, nx);
}

/* The array space's region: what the debugger reads there is not the array's (a read of a
 * lock request address acquires the lock), so host reads fault and nothing is written. */
static int aspace_read(void *ctx, uint64_t offset, unsigned nbytes, uint64_t *val)
{
    (void)ctx, (void)offset, (void)nbytes;
    *val = 0;
    return MEM_FAULT_DEVICE;
}

static int aspace_write(void *ctx, uint64_t offset, unsigned nbytes, uint64_t val)
{
    (void)ctx, (void)offset, (void)nbytes, (void)val;
    return MEM_FAULT_DEVICE;
}

int cert_array_space(sim_machine *m, unsigned columns)
{
    cert_machine *cm = cert_m(m);
    cm->aspace = sim_add_space(m, "array", 1, 4, 0);
    return cm->aspace && mem_add_mmio(cm->aspace, "axi", 0, (uint64_t)columns << 25, MEM_RW, aspace_read,
                                      aspace_write, cm)
               ? 0
               : -1;
}

/* An opcode's AXI access of addr: a watch on it stops after the opcode (dbg_after_insn
 * reports it as the instruction's access). */
static inline void ax_watch(cert_machine *cm, uint32_t addr, unsigned kind)
{
    if (cm->aspace && cm->aspace->nwatch)
        mem_watch_check(cm->aspace, addr, 4, kind);
}

int cert_ax_write(sim_machine *m, cert_uc *c, int s, uint64_t t, uint32_t addr, uint32_t v)
{
    cert_machine *cm = cert_m(m);
    char msg[200] = "";
    ax_watch(cm, addr, MEM_W);
    if (s >= 0)
        CERT_JOB_CNT(m, c, s, CJC_AXI)++;
    array_sync(m, t);
    int r = cert_array_write(cm->array, t, addr, v, msg, sizeof msg);
    c->cnt[CN_AXI_WRITES].value++;
    if (r != CERT_AX_OPAQUE) { /* an opaque array changes nothing a poll could see */
        cm->change_seq++;
        array_sync(m, t); /* a pushed task may complete later: arm its event */
    }
    return ax_result(m, c, s, r, addr, msg, t);
}

int cert_ax_read(sim_machine *m, cert_uc *c, int s, uint64_t t, uint32_t addr, uint32_t *v)
{
    cert_machine *cm = cert_m(m);
    char msg[200] = "";
    if (s >= 0)
        CERT_JOB_CNT(m, c, s, CJC_AXI)++;
    *v = 0;
    ax_watch(cm, addr, MEM_R);
    array_sync(m, t);
    int r = cert_array_read(cm->array, t, addr, v, msg, sizeof msg);
    c->cnt[CN_AXI_READS].value++;
    return ax_result(m, c, s, r, addr, msg, t);
}

cert_tct *cert_tct_entry(cert_uc *c, uint32_t tile, uint32_t actor)
{
    for (int i = 0; i < c->ntct; i++)
        if (c->tct[i].tile == tile && c->tct[i].actor == actor)
            return &c->tct[i];
    if (c->ntct == c->ctct) {
        int n = c->ctct ? 2 * c->ctct : 8;
        cert_tct *q = realloc(c->tct, (size_t)n * sizeof *q);
        if (!q)
            return NULL;
        c->tct = q;
        c->ctct = n;
    }
    cert_tct *e = &c->tct[c->ntct++];
    memset(e, 0, sizeof *e);
    e->tile = tile;
    e->actor = actor;
    return e;
}

/* A token reached uC c at t: count it and wake a WAIT_TCTS it completes. */
static void tct_deliver(sim_machine *m, cert_uc *c, uint32_t tile, uint32_t actor, uint64_t t)
{
    cert_tct *e = cert_tct_entry(c, tile, actor);
    if (!e)
        return;
    e->received++;
    e->total++;
    c->cnt[CN_TOKENS].value++;
    for (int s = 0; s < c->nslots; s++) {
        cert_job *j = &c->job[s];
        if (j->state == CJ_BLOCKED && j->wait == CW_TCT && j->w_tile == tile && j->w_actor == actor &&
            e->received >= j->w_count) {
            e->received -= j->w_count;
            e->consumed += j->w_count;
            CERT_JOB_CNT(m, c, s, CJC_TOKENS) += j->w_count;
            cert_job_wake(m, c, s, t, 1);
        }
    }
}

void cert_tct_event(ev_event *ev, void *ctx)
{
    (void)ev;
    sim_machine *m = ctx;
    cert_machine *cm = cert_m(m);
    int n = 0;
    while (n < cm->ptct_n && cm->ptct[n].at <= m->now) {
        cert_pending_tct *p = &cm->ptct[n++];
        if (p->uc >= cm->nuc || !cm->uc[p->uc].present) {
            char tn[24], an[24];
            cert_tile_name(p->tile, tn, sizeof tn);
            cert_actor_name(p->actor, an, sizeof an);
            if (m->err && !cert_warned(cm, 0x80000000u | p->tile << 8 | p->actor))
                fprintf(m->err, "xpusim: warning: cycle %llu: token from %s %s for uc%d, which runs no control code: lost\n",
                        (unsigned long long)m->now, tn, an, p->uc);
            continue;
        }
        tct_deliver(m, &cm->uc[p->uc], p->tile, p->actor, p->at);
    }
    memmove(cm->ptct, cm->ptct + n, (size_t)(cm->ptct_n - n) * sizeof *cm->ptct);
    cm->ptct_n -= n;
    cm->change_seq++;
    tct_arm(m);
    if (cert_quiet(m))
        cert_hang_stop(m, -1, -1, "no job can make progress");
}

void cert_array_event(ev_event *ev, void *ctx)
{
    (void)ev;
    sim_machine *m = ctx;
    array_sync(m, m->now);
    if (cert_quiet(m))
        cert_hang_stop(m, -1, -1, "no job can make progress");
}

/* ---- uC-DMA ---- */

/* Walk the BD chain at byte offset bd of c's buffer: count BDs and words, check bounds. */
static int ucdma_chain(const cert_uc *c, uint32_t bd, uint32_t *nbd, uint64_t *words, char *why, size_t n)
{
    *nbd = 0;
    *words = 0;
    for (;;) {
        if ((size_t)bd + CERT_BD_SIZE > c->code->len || bd % 4) {
            snprintf(why, n, "uC-DMA descriptor at buffer offset 0x%x is outside the control code", bd);
            return -1;
        }
        const uint8_t *p = c->code->buf + bd;
        uint32_t len = p[0] | (uint32_t)(p[1] & 0x7F) << 8;
        int64_t local = (int64_t)bd + (int32_t)mem_ld32le(p + 4);
        if (local < 0 || local % 4 || (uint64_t)local + 4ull * len > c->code->len) {
            snprintf(why, n, "uC-DMA descriptor at 0x%x: local data at %lld (+%u words) is outside the control code", bd,
                     (long long)local, len);
            return -1;
        }
        ++*nbd;
        *words += len;
        if (!(p[2] & 1))
            return 0;
        if (*nbd >= 4096) {
            snprintf(why, n, "uC-DMA chain at 0x%x does not end within 4096 descriptors", bd);
            return -1;
        }
        bd += CERT_BD_SIZE;
    }
}

/* Enqueue the chain whose first BD is at desc (relative to page + 16). 1 queued (handle in
 * *handle), 0 queue full, -1 stopped. */
int cert_ucdma_enqueue(sim_machine *m, cert_uc *c, int s, uint32_t desc, uint64_t t, uint32_t *handle)
{
    cert_machine *cm = cert_m(m);
    cert_job *j = &c->job[s];
    if (c->qn >= cm->tm.ucdma_queue)
        return 0;
    uint32_t bd = j->page * CERT_PAGE_SIZE + CERT_PAGE_HDR + desc, nbd;
    uint64_t words;
    char why[160];
    if (ucdma_chain(c, bd, &nbd, &words, why, sizeof why)) {
        cert_job_stop(m, c, s, SIM_STOP_FAULT, t, why);
        return -1;
    }
    if (c->qn == c->qcap) {
        int n = c->qcap ? 2 * c->qcap : 8;
        cert_ucdma_xfer *q = malloc((size_t)n * sizeof *q);
        if (!q)
            return 0;
        for (int i = 0; i < c->qn; i++)
            q[i] = c->q[(c->qhead + i) % (c->qcap ? c->qcap : 1)];
        free(c->q);
        c->q = q;
        c->qcap = n;
        c->qhead = 0;
    }
    cert_ucdma_xfer *x = &c->q[(c->qhead + c->qn++) % c->qcap];
    x->handle = ++c->next_handle;
    x->bd = bd;
    x->nbd = nbd;
    x->words = words;
    x->start = cert_max64(t, c->engine_free);
    x->done = x->start + cert_ucdma_cycles(&cm->tm, nbd, words);
    x->sync_job = s;
    c->engine_free = x->done;
    c->cnt[CN_UCDMA_XFERS].value++;
    c->cnt[CN_UCDMA_BYTES].value += 4 * words;
    CERT_JOB_CNT(m, c, s, CJC_UCDMA_BYTES) += 4 * words;
    if (c->qn == 1)
        cert_arm(m, &c->dma_ev, x->done);
    *handle = x->handle;
    return 1;
}

/* The head transfer finished: its words reach the array (each at the cycle its beat
 * leaves the engine), its handle completes, waiting jobs wake. */
void cert_ucdma_done(ev_event *ev, void *ctx)
{
    (void)ev;
    cert_uc *c = ctx;
    sim_machine *m = c->m;
    cert_machine *cm = cert_m(m);
    if (!c->qn)
        return;
    while (c->qn && c->q[c->qhead].done <= m->now && !sim_stopped(m)) {
        cert_ucdma_xfer x = c->q[c->qhead];
        c->qhead = (c->qhead + 1) % c->qcap;
        c->qn--;
        uint32_t bd = x.bd;
        uint64_t beat = 0;
        /* a watch on a word it writes stops the run at that word's cycle, naming the uC-DMA
         * and the job slot that queued the chain; the transfer still completes (as the
         * DPU's DMA does), so nothing is left half written when the run resumes */
        int watched = 0;
        for (uint32_t b = 0; b < x.nbd && (!sim_stopped(m) || watched); b++, bd += CERT_BD_SIZE) {
            const uint8_t *p = c->code->buf + bd;
            uint32_t len = p[0] | (uint32_t)(p[1] & 0x7F) << 8;
            uint32_t local = bd + (uint32_t)(int32_t)mem_ld32le(p + 4);
            uint32_t lo = mem_ld32le(p + 8), hi = mem_ld32le(p + 12) & 0x1FFFFFFFu;
            int external = (p[2] >> 1) & 1;
            if (external || hi) {
                /* NoC / PL targets are outside the array model */
                c->cnt[CN_UNMODELLED].value++;
                if (cm->tm.strict) {
                    sim_set_stop_at(m, SIM_STOP_FAULT, c->index, -1, 0, m->now,
                                    "uc%d: uC-DMA descriptor at 0x%x targets external address 0x%x_%08X (not modelled; "
                                    "-o strict=1)", c->index, bd, hi, lo);
                    return;
                }
                if (m->err && !cert_warned(cm, lo))
                    fprintf(m->err, "xpusim: warning: uc%d: uC-DMA to external address 0x%x_%08X not modelled: "
                                    "skipped\n", c->index, hi, lo);
                beat += len;
                continue;
            }
            for (uint32_t i = 0; i < len; i++) {
                uint64_t tw = x.start + cm->tm.ucdma_setup * (b + 1) + (uint64_t)(cm->tm.ucdma_word * (double)++beat);
                if (tw > m->now)
                    tw = m->now;
                char msg[200] = "";
                c->cnt[CN_AXI_WRITES].value++;
                array_sync(m, tw);
                if (cm->aspace && cm->aspace->nwatch && !watched)
                    watched = dbg_watch_device(m, cm->aspace, lo + 4 * i, 4, MEM_W, c->index, x.sync_job, 0, tw,
                                               "uC-DMA");
                int r = cert_array_write(cm->array, tw, lo + 4 * i, mem_ld32le(c->code->buf + local + 4 * i), msg,
                                         sizeof msg);
                if (r != CERT_AX_OK) {
                    /* attribute the access to the job that enqueued it (if still there) */
                    int s = x.sync_job;
                    if (ax_result(m, c, s, r, lo + 4 * i, msg, tw))
                        return;
                }
            }
        }
        cm->change_seq++;
        array_sync(m, m->now);
        c->done_handle = x.handle;
        for (int s = 0; s < c->nslots; s++) {
            cert_job *j = &c->job[s];
            if (j->state != CJ_BLOCKED)
                continue;
            if (j->wait == CW_UCDMA && j->w_handle <= c->done_handle)
                cert_job_wake(m, c, s, x.done, 1);
            else if (j->wait == CW_UCDMA_FULL)
                cert_job_wake(m, c, s, x.done, 0);
        }
        cert_wake_unit(m, c->index, x.done); /* the page may end once its DMA drained */
    }
    if (c->qn)
        cert_arm(m, &c->dma_ev, c->q[c->qhead].done);
    if (cert_quiet(m))
        cert_hang_stop(m, -1, -1, "no job can make progress");
}
