/* isa/cert/hang.c: what the job-runner's jobs wait for, in words. A run in which no job on
 * any uC can make progress (no runnable job, no page fetch, no pending array completion,
 * token or uC-DMA transfer, no poll that could read something new) stops as a deadlock
 * with one line per uC: uc, page, offset, the opcode and its operands, and what it waits
 * for (tokens expected and received per (tile, actor), barrier participants arrived and
 * missing, the uC-DMA handle) -- the (uc, page, offset) triple the driver's context
 * health report gives on a CERT opcode timeout. The opcode watchdog (-o opcode_timeout)
 * stops with the same report. The debugger views (info jobs, barriers, dma, tokens,
 * records) print the same state on demand. */
#include <stdlib.h>
#include <string.h>
#include "runner.h"

void cert_wait_text(const sim_machine *m, const cert_uc *c, int s, char *buf, size_t n)
{
    const cert_machine *cm = cert_m(m);
    const cert_job *j = &c->job[s];
    char tn[24], an[24];
    buf[0] = 0;
    if (j->state == CJ_FREE)
        return;
    if (j->state == CJ_DEFERRED) {
        snprintf(buf, n, "deferred: waits for LAUNCH_JOB %u", j->id);
        return;
    }
    if (j->state == CJ_READY) {
        if (c->cur == s)
            snprintf(buf, n, "running");
        else if (j->ready_at > c->t)
            snprintf(buf, n, "ready from cycle %llu", (unsigned long long)j->ready_at);
        else
            snprintf(buf, n, "ready, waits for the uC");
        return;
    }
    switch (j->wait) {
    case CW_TCT: {
        cert_tile_name(j->w_tile, tn, sizeof tn);
        cert_actor_name(j->w_actor, an, sizeof an);
        uint32_t got = 0;
        for (int i = 0; i < c->ntct; i++)
            if (c->tct[i].tile == j->w_tile && c->tct[i].actor == j->w_actor)
                got = c->tct[i].received;
        snprintf(buf, n, "TCTs from %s %s: expected %u, received %u%s", tn, an, j->w_count, got,
                 cert_m(c->m)->opaque_array ? " (this target's array is not modelled: no task issues tokens)" : "");
        break;
    }
    case CW_LB: {
        size_t len = (size_t)snprintf(buf, n, "local barrier $lb%u: %u of %u participants arrived (jobs", j->w_barrier,
                                      c->lb_arrived[j->w_barrier], j->w_need);
        for (int k = 0; k < c->nslots && len < n; k++)
            if (c->job[k].state == CJ_BLOCKED && c->job[k].wait == CW_LB && c->job[k].w_barrier == j->w_barrier)
                len += (size_t)snprintf(buf + len, n - len, " %u", c->job[k].id);
        if (len < n)
            snprintf(buf + len, n - len, "), %u missing", j->w_need - c->lb_arrived[j->w_barrier]);
        break;
    }
    case CW_RB: {
        uint64_t arrived = cm->rb_arrived[j->w_barrier];
        size_t len = (size_t)snprintf(buf, n, "remote barrier $rb%u (party_mask 0x%X): arrived uC", j->w_barrier - 1,
                                      j->w_need);
        for (int i = 0; i < 32 && len < n; i++)
            if (arrived >> i & 1)
                len += (size_t)snprintf(buf + len, n - len, " %d", i);
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "; missing uC");
        for (int i = 0; i < 32 && len < n; i++)
            if ((j->w_need >> i & 1) && !(arrived >> i & 1))
                len += (size_t)snprintf(buf + len, n - len, " %d", i);
        break;
    }
    case CW_UCDMA: {
        int ahead = 0;
        uint64_t done = 0;
        for (int k = 0; k < c->qn; k++) {
            const cert_ucdma_xfer *x = &c->q[(c->qhead + k) % c->qcap];
            if (x->handle < j->w_handle)
                ahead++;
            if (x->handle == j->w_handle)
                done = x->done;
        }
        if (done)
            snprintf(buf, n, "uC-DMA handle %u: %d transfer(s) ahead, done at cycle %llu", j->w_handle, ahead,
                     (unsigned long long)done);
        else
            snprintf(buf, n, "uC-DMA handle %u", j->w_handle);
        break;
    }
    case CW_UCDMA_FULL:
        snprintf(buf, n, "a free uC-DMA queue entry (%d of %d in use)", c->qn, cm->tm.ucdma_queue);
        break;
    case CW_POLL:
        if (j->w_mask)
            snprintf(buf, n, "poll of 0x%08X: (value & 0x%X) == 0x%X, last read 0x%X; next attempt at cycle %llu",
                     j->w_addr, j->w_mask, j->w_value, j->w_count, (unsigned long long)j->ready_at);
        else
            snprintf(buf, n, "acquire of lock 0x%08X: value >= 1, last read %u", j->w_addr, j->w_count);
        break;
    case CW_LOAD: {
        int d = j->depth + 1 <= c->depth ? j->depth + 1 : c->depth;
        snprintf(buf, n, "out-of-order page %u to run (its fetch done at cycle %llu)", c->ctx[d].page,
                 (unsigned long long)c->ctx[d].fetch_done);
        break;
    }
    case CW_SYNC: {
        size_t len = (size_t)snprintf(buf, n, "implicit multi-uC sync #%u after a load: behind:", j->w_sync);
        for (int i = 0; i < cm->nuc && len < n; i++)
            if (cm->uc[i].present && cm->uc[i].sync_count < j->w_sync)
                len += (size_t)snprintf(buf + len, n - len, " uc%d (%u)", i, cm->uc[i].sync_count);
        break;
    }
    default: snprintf(buf, n, "?"); break;
    }
}

/* The opcode of job s in "MNEMONIC operands" form, or a note why it cannot be decoded. */
static void op_text(const sim_machine *m, const cert_uc *c, int s, char *buf, size_t n)
{
    cert_insn in;
    const cert_job *j = &c->job[s];
    if (cert_insn_at(c, j->page, j->off, cert_m(m)->tm.spec, &in))
        snprintf(buf, n, "(undecodable)");
    else
        cert_format(&in, buf, n);
}

/* One line about uC c (without the newline). */
static void uc_line(const sim_machine *m, const cert_uc *c, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "uc%d:", c->index);
    if (!c->present) {
        snprintf(buf + len, n - len, " no control code");
        return;
    }
    if (c->done) {
        snprintf(buf + len, n - len, " done at cycle %llu", (unsigned long long)m->units[c->index].halted_at);
        return;
    }
    int first = 1;
    for (int s = 0; s < c->nslots && len < n; s++) {
        const cert_job *j = &c->job[s];
        if (j->state != CJ_BLOCKED && j->state != CJ_DEFERRED)
            continue;
        char op[160], w[400];
        op_text(m, c, s, op, sizeof op);
        cert_wait_text(m, c, s, w, sizeof w);
        len += (size_t)snprintf(buf + len, n - len, "%s page %u offset 0x%x: %s: job %u waits for %s",
                                first ? "" : ";", j->page, j->off, op, j->id, w);
        first = 0;
    }
    if (first) {
        const cert_ctx *x = &c->ctx[c->depth];
        if (!x->started)
            snprintf(buf + len, n - len, " page %u not started (fetch done at cycle %llu)", x->page,
                     (unsigned long long)x->fetch_done);
        else if (c->qn)
            snprintf(buf + len, n - len, " page %u ended; %d uC-DMA transfer(s) to drain", x->page, c->qn);
        else
            snprintf(buf + len, n - len, " page %u offset 0x%x: no job waits", x->page, x->parse);
    }
}

int cert_quiet(const sim_machine *m)
{
    const cert_machine *cm = cert_m(m);
    if (cm->ptct_n || cert_array_next_event(cm->array) != UINT64_MAX)
        return 0;
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if (!c->present || c->done)
            continue;
        if (c->qn || c->cur >= 0 || !c->ctx[c->depth].started || cert_ctx_over(c))
            return 0;
        for (int s = 0; s < c->nslots; s++) {
            const cert_job *j = &c->job[s];
            if (j->state == CJ_READY)
                return 0;
            /* a poll whose last failed attempt came before some change may succeed now */
            if (j->state == CJ_BLOCKED && j->wait == CW_POLL && j->poll_seq != cm->change_seq)
                return 0;
        }
    }
    return 1;
}

void cert_hang_report(sim_machine *m, FILE *f)
{
    cert_machine *cm = cert_m(m);
    size_t cap = 0, len = 0;
    char *rep = NULL, line[1600];
    FILE *mf = open_memstream(&rep, &cap);
    for (int i = 0; mf && i < cm->nuc; i++) {
        uc_line(m, &cm->uc[i], line, sizeof line);
        fprintf(mf, "%s\n", line);
    }
    if (mf)
        fclose(mf);
    len = rep ? strlen(rep) : 0;
    if (f && rep)
        fwrite(rep, 1, len, f);
    free(cm->last_report);
    cm->last_report = rep;
}

void cert_hang_stop(sim_machine *m, int uc, int slot, const char *why)
{
    cert_machine *cm = cert_m(m);
    if (sim_stopped(m))
        return;
    uint64_t t = m->now;
    for (int i = 0; i < cm->nuc; i++)
        if (cm->uc[i].present && !cm->uc[i].done && cm->uc[i].t > t)
            t = cm->uc[i].t;
    /* the stop names the first waiting job: of the watchdog's job, else the first uC's */
    int su = uc, ss = slot;
    for (int pass = 0; pass < 2 && ss < 0; pass++)
        for (int i = 0; ss < 0 && i < cm->nuc; i++) {
            const cert_uc *c = &cm->uc[i];
            if (pass == 0 && i != uc)
                continue;
            for (int s = 0; c->present && ss < 0 && s < c->nslots; s++)
                if (c->job[s].state == CJ_BLOCKED) {
                    su = i;
                    ss = s;
                }
        }
    if (su >= 0 && ss >= 0) {
        const cert_uc *c = &cm->uc[su];
        const cert_job *j = &c->job[ss];
        char op[160], w[400];
        op_text(m, c, ss, op, sizeof op);
        cert_wait_text(m, c, ss, w, sizeof w);
        /* the debugger reports a thread's stop at its unit's last issue cycle: the hang is
         * found at t, so that is where the stopped uC stands (as `xpusim run` says) */
        m->units[su].last_issue = t;
        sim_set_stop_at(m, SIM_STOP_DEADLOCK, su, ss, cert_pc(j->page, j->off), t,
                        "%s: uc%d page %u offset 0x%x %s: job %u waits for %s", why, su, j->page, j->off, op, j->id, w);
    } else {
        sim_set_stop_at(m, SIM_STOP_DEADLOCK, -1, -1, 0, t, "%s", why);
    }
    if (m->err)
        fprintf(m->err, "xpusim: %s at cycle %llu: what each uC waits for:\n", why, (unsigned long long)t);
    cert_hang_report(m, m->err);
    cm->hang_printed = 1;
}

/* ---- debugger views ---- */

static int view_jobs(sim_machine *m, int unit, FILE *out)
{
    cert_machine *cm = cert_m(m);
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if ((unit >= 0 && unit != i) || !c->present)
            continue;
        const cert_ctx *x = &c->ctx[c->depth];
        fprintf(out, "uc%d: page %u%s%s, parser at 0x%x%s, time %llu\n", i, x->page, c->depth ? " (out of order)" : "",
                c->done ? ", done" : x->started ? "" : ", being fetched", x->parse, x->eof ? " (EOF)" : "",
                (unsigned long long)c->t);
        for (int s = 0; s < c->nslots; s++) {
            const cert_job *j = &c->job[s];
            if (j->state == CJ_FREE)
                continue;
            char op[160], w[400];
            op_text(m, c, s, op, sizeof op);
            cert_wait_text(m, c, s, w, sizeof w);
            fprintf(out, "  slot %2d job %-4u page %u offset 0x%04x %-40s %s\n", s, j->id, j->page, j->off, op, w);
        }
    }
    return 0;
}

static int view_barriers(sim_machine *m, int unit, FILE *out)
{
    cert_machine *cm = cert_m(m);
    int any = 0;
    char w[400];
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if ((unit >= 0 && unit != i) || !c->present)
            continue;
        for (int lb = 0; lb < CERT_MAX_LB; lb++)
            for (int s = 0; c->lb_arrived[lb] && s < c->nslots; s++)
                if (c->job[s].state == CJ_BLOCKED && c->job[s].wait == CW_LB && c->job[s].w_barrier == (uint32_t)lb) {
                    cert_wait_text(m, c, s, w, sizeof w);
                    fprintf(out, "uc%d: %s\n", i, w);
                    any = 1;
                    break;
                }
    }
    for (int rb = 1; rb <= CERT_MAX_RB; rb++)
        if (cm->rb_arrived[rb]) {
            fprintf(out, "$rb%d: party_mask 0x%llX, arrived 0x%llX\n", rb - 1, (unsigned long long)cm->rb_mask[rb],
                    (unsigned long long)cm->rb_arrived[rb]);
            any = 1;
        }
    if (!any)
        fprintf(out, "no barrier has waiting participants\n");
    return 0;
}

static int view_dma(sim_machine *m, int unit, FILE *out)
{
    cert_machine *cm = cert_m(m);
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if ((unit >= 0 && unit != i) || !c->present)
            continue;
        fprintf(out, "uc%d uC-DMA: %u handle(s) issued, %u done, engine free at cycle %llu\n", i, c->next_handle,
                c->done_handle, (unsigned long long)c->engine_free);
        for (int k = 0; k < c->qn; k++) {
            const cert_ucdma_xfer *x = &c->q[(c->qhead + k) % c->qcap];
            fprintf(out, "  handle %u: %u BD(s) at 0x%x, %llu words, start %llu, done %llu\n", x->handle, x->nbd, x->bd,
                    (unsigned long long)x->words, (unsigned long long)x->start, (unsigned long long)x->done);
        }
    }
    char *buf = malloc(8192);
    if (buf) {
        buf[0] = 0;
        cert_array_describe(cm->array, buf, 8192);
        fprintf(out, "array DMA channels:\n%s%s", buf[0] ? buf : "  all idle\n",
                buf[0] && buf[strlen(buf) - 1] != '\n' ? "\n" : "");
        free(buf);
    }
    return 0;
}

static int view_tokens(sim_machine *m, int unit, FILE *out)
{
    cert_machine *cm = cert_m(m);
    char tn[24], an[24];
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if ((unit >= 0 && unit != i) || !c->present)
            continue;
        fprintf(out, "uc%d: %d (tile, actor) entr%s\n", i, c->ntct, c->ntct == 1 ? "y" : "ies");
        for (int k = 0; k < c->ntct; k++) {
            const cert_tct *e = &c->tct[k];
            uint32_t want = 0;
            for (int s = 0; s < c->nslots; s++)
                if (c->job[s].state == CJ_BLOCKED && c->job[s].wait == CW_TCT && c->job[s].w_tile == e->tile &&
                    c->job[s].w_actor == e->actor)
                    want += c->job[s].w_count;
            cert_tile_name(e->tile, tn, sizeof tn);
            cert_actor_name(e->actor, an, sizeof an);
            fprintf(out, "  %s %s: received %llu, consumed %llu, unconsumed %u, awaited %u\n", tn, an,
                    (unsigned long long)e->total, (unsigned long long)e->consumed, e->received, want);
        }
    }
    for (int k = 0; k < cm->ptct_n; k++) {
        cert_tile_name(cm->ptct[k].tile, tn, sizeof tn);
        cert_actor_name(cm->ptct[k].actor, an, sizeof an);
        fprintf(out, "in flight: %s %s to uc%d at cycle %llu\n", tn, an, cm->ptct[k].uc,
                (unsigned long long)cm->ptct[k].at);
    }
    return 0;
}

static int view_records(sim_machine *m, int unit, FILE *out)
{
    cert_machine *cm = cert_m(m);
    int any = 0;
    for (int i = 0; i < cm->nuc; i++) {
        const cert_uc *c = &cm->uc[i];
        if (unit >= 0 && unit != i)
            continue;
        for (int k = 0; k < c->nrec; k++) {
            const cert_record *r = &c->rec[k];
            fprintf(out, "uc%d page %u offset 0x%04x %s id %u: %s %llu (0x%llx)\n", i, r->page, r->off,
                    r->kind ? "SAVE_REGISTER" : "SAVE_TIMESTAMPS", r->id, r->kind ? "value" : "cycle",
                    (unsigned long long)r->value, (unsigned long long)r->value);
            any = 1;
        }
    }
    if (!any)
        fprintf(out, "no SAVE_TIMESTAMPS / SAVE_REGISTER record\n");
    return 0;
}

const isa_view cert_views[] = {
    {"jobs", "the job table of each uC: job id, pc, opcode, what it waits for", view_jobs},
    {"barriers", "local and remote barriers with waiting participants", view_barriers},
    {"dma", "uC-DMA queues (handles, descriptors, completion) and the array's DMA channels", view_dma},
    {"tokens", "task-completion tokens per (tile, actor) of each uC, and tokens in flight", view_tokens},
    {"records", "SAVE_TIMESTAMPS (id, cycle) and SAVE_REGISTER (id, value) records", view_records},
    {NULL, NULL, NULL}};
