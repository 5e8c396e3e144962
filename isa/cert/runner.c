/* isa/cert/runner.c: the CERT job-runner, one per uC (a sim_unit). Pages come in
 * ping-pong: page k+1's fetch starts when page k starts, a page starts when its fetch is
 * done and the page before has ended (all its jobs ended, EOF parsed). A page's parser
 * creates a job-table entry per START_JOB (START_JOB_DEFERRED: unscheduled until LAUNCH_JOB;
 * START_COND_JOB_PREEMPT: only with -o preempt=1) up to EOF; a job whose first opcode is a
 * LOAD_PDI / LOAD_CORES / LOAD_LAST_PDI / PREEMPT runs alone (earlier jobs end first, later
 * ones are parsed after it), and its target page runs as a nested sequence. Scheduling is
 * round-robin over the job table: a dispatched job runs until it blocks, yields or ends,
 * every opcode costing its class's firmware cycles (timing.c). Blocking and yielding follow
 * the reference's table: WAIT_TCTS, barriers, WAIT_UC_DMA, a full uC-DMA queue and the
 * implicit multi-uC sync after loads park the job until an event wakes it; polls are
 * re-tried on later passes. Every AXI-MM access goes to the array model (array.h) through
 * runner_io.c, whose task completions come back as an event and whose tokens reach a uC
 * (-o tct_route) after tct_latency. A uC runs ahead of the event loop only up to its horizon; whenever it
 * schedules an event or wakes another uC earlier, it lowers the horizon so that causality
 * between uCs holds to the cycle. */
#include <stdlib.h>
#include <string.h>
#include "runner.h"
#include "../../core/debug.h"
#include "../../core/task.h"

const char *const cert_stall_names[] = {"tct", "barrier", "remote_barrier", "ucdma", "poll", "page_fetch",
                                        "axi", "load", "ucdma_full", "uc_busy", NULL};
const char *const cert_counter_names[] = {"pages", "jobs", "dispatches", "yields", "axi_reads", "axi_writes",
                                          "poll_retries", "tokens", "ucdma_transfers", "ucdma_bytes",
                                          "page_wait_cycles", "unmodelled_accesses", "dropped_tasks", "records",
                                          "loads"};
const char *const cert_job_counter_names[] = {"tokens", "ucdma_bytes", "axi_accesses"};

enum { EX_NEXT, EX_BLOCK, EX_YIELD, EX_END, EX_STOP };

uint64_t cert_pc(uint32_t page, uint32_t off) { return (uint64_t)page * CERT_PAGE_SIZE + off; }

int cert_insn_at(const cert_uc *c, uint32_t page, uint32_t off, int spec, cert_insn *in)
{
    if (!c->code || page >= c->code->npages || off >= CERT_PAGE_SIZE)
        return -3;
    const uint8_t *p = c->code->buf + (size_t)page * CERT_PAGE_SIZE + off;
    int r = cert_decode(p, CERT_PAGE_SIZE - off, spec, in);
    return r > 0 ? 0 : r == 0 ? -3 : r;
}

/* ---- pages and the parser ---- */

static uint32_t page_len(const cert_uc *c, uint32_t page)
{
    return c->code->hdr && page < c->code->npages ? c->code->hdr[page].cur_len : CERT_PAGE_SIZE;
}

static void ctx_enter(cert_machine *cm, cert_uc *c, uint32_t page, uint64_t t, int ret_job)
{
    cert_ctx *x = &c->ctx[c->depth];
    memset(x, 0, sizeof *x);
    x->page = page;
    x->fetch_done = t + cert_fetch_cycles(&cm->tm, page_len(c, page));
    x->ret_job = ret_job;
    x->fence = -1;
}

void cert_uc_start(sim_machine *m, cert_uc *c)
{
    ctx_enter(cert_m(m), c, 0, 0, -1); /* page 0's fetch starts at cycle 0 */
    c->idle = 1;
    sim_unit_wake(m, &m->units[c->index], c->ctx[0].fetch_done);
}

static void page_start(sim_machine *m, cert_uc *c, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    cert_ctx *x = &c->ctx[c->depth];
    x->started = 1;
    x->parse = CERT_PAGE_HDR;
    c->cnt[CN_PAGES].value++;
    if (c->idle) {
        c->cnt[CN_PAGE_WAIT].value += t - c->idle_since;
        c->idle = 0;
    }
    if (x->ret_job >= 0) { /* the loading job stops waiting for the fetch, now for the page */
        cert_job *j = &c->job[x->ret_job];
        cert_th(m, c, x->ret_job)->stalls[j->stall] += t - j->since;
        j->since = t;
        j->stall = CS_LOAD;
    }
    /* the next page of this sequence comes into the other sDM buffer meanwhile */
    const cert_page_hdr *h = c->code->hdr ? &c->code->hdr[x->page] : NULL;
    x->next_valid = 0;
    if (h && h->next_len && x->page + 1 < c->code->npages) {
        x->next_valid = 1;
        x->next_page = x->page + 1;
        x->next_fetch_done = t + cert_fetch_cycles(&cm->tm, h->next_len);
    }
}

static int find_job(const cert_uc *c, int depth, uint16_t id, int state)
{
    for (int s = 0; s < c->nslots; s++)
        if (c->job[s].state == state && c->job[s].depth == depth && c->job[s].id == id)
            return s;
    return -1;
}

static int live_jobs(const cert_uc *c, int depth)
{
    int n = 0;
    for (int s = 0; s < c->nslots; s++)
        n += c->job[s].state != CJ_FREE && c->job[s].depth == depth;
    return n;
}

static void make_ready(sim_machine *m, cert_uc *c, int s, uint64_t t)
{
    cert_job *j = &c->job[s];
    j->state = CJ_READY;
    j->ready_at = t;
    j->since = t;
    j->stall = CS_READY;
    cert_th(m, c, s)->state = SIM_T_READY;
    cert_th(m, c, s)->ready_at = t;
}

/* Create the page's jobs from the parser's position up to EOF, a LOAD-type job (which runs
 * alone) or a full job table. 0 ok, -1 stopped. */
static int parse(sim_machine *m, cert_uc *c, uint64_t *tp)
{
    cert_machine *cm = cert_m(m);
    cert_ctx *x = &c->ctx[c->depth];
    const uint8_t *pg = c->code->buf + (size_t)x->page * CERT_PAGE_SIZE;
    while (!x->eof && x->fence < 0) {
        while (x->parse < CERT_PAGE_SIZE && pg[x->parse] == CERT_ALIGN_FILL)
            x->parse++;
        cert_insn in;
        int r = x->parse < CERT_PAGE_SIZE ? cert_decode(pg + x->parse, CERT_PAGE_SIZE - x->parse, cm->tm.spec, &in) : 0;
        if (r <= 0 || (in.op->code != CERT_OP_EOF && in.op->cls != CC_JOB) || in.op->code == 0x07 ||
            in.op->code == 0x18) {
            sim_set_stop_at(m, SIM_STOP_ILLEGAL, c->index, -1, cert_pc(x->page, x->parse), *tp,
                            "uc%d page %u offset 0x%x: %s", c->index, x->page, x->parse,
                            r == -1 ? "unknown opcode where START_JOB or EOF was expected"
                            : r == -2 ? "non-zero pad byte"
                            : r == 0 ? "page ends without EOF"
                                     : "expected START_JOB or EOF");
            return -1;
        }
        if (in.op->code == CERT_OP_EOF) {
            x->eof = 1;
            *tp += cm->tm.cost[CC_JOB];
            break;
        }
        uint32_t size = cert_arg_value(&in, "size", 0);
        if (size < (uint32_t)in.size + 4 || x->parse + size > CERT_PAGE_SIZE) {
            sim_set_stop_at(m, SIM_STOP_ILLEGAL, c->index, -1, cert_pc(x->page, x->parse), *tp,
                            "uc%d page %u offset 0x%x: job size %u does not fit the page", c->index, x->page, x->parse,
                            size);
            return -1;
        }
        if (in.op->code == 0x1f && !cm->tm.preempt) {
            x->parse += size; /* no preemption requested: the job does not exist */
            continue;
        }
        /* a job that loads (PDI, cores, preemption point) runs alone */
        cert_insn first;
        int fence = cert_decode(pg + x->parse + in.size, CERT_PAGE_SIZE - x->parse - in.size, cm->tm.spec, &first) > 0 &&
                    first.op->cls == CC_LOAD && first.op->code != 0x20;
        if (fence && live_jobs(c, c->depth))
            break;
        int s = -1;
        for (int k = 0; k < c->nslots && s < 0; k++)
            if (c->job[k].state == CJ_FREE)
                s = k;
        if (s < 0)
            break; /* job table full: parse on when a job ends */
        sim_unit *u = &m->units[c->index];
        if (m->slow) { /* a breakpoint on a START_JOB stops before the job exists */
            u->last_issue = *tp;
            if (dbg_before_insn(m, u, s, cert_pc(x->page, x->parse)))
                return -1;
        }
        uint64_t t0 = *tp;
        cert_job *j = &c->job[s];
        memset(j, 0, sizeof *j);
        /* the job is a task on its slot from its START_JOB (counted in it) to its END_JOB
         * (core/task.h): its counts are the slot thread's from here */
        char tname[32];
        snprintf(tname, sizeof tname, "job %u page %u", (unsigned)cert_arg_value(&in, "job_id", 0), x->page);
        sim_task_begin(m, c->index, s, tname, cert_arg_value(&in, "job_id", 0), t0);
        j->id = (uint16_t)cert_arg_value(&in, "job_id", 0);
        j->page = x->page;
        j->start_off = x->parse;
        j->off = x->parse + in.size;
        j->depth = (uint8_t)c->depth;
        *tp += cm->tm.cost[CC_JOB];
        sim_thread *t = cert_th(m, c, s);
        t->started = 1;
        t->instructions++;
        t->issue_cycles += cm->tm.cost[CC_JOB];
        c->cnt[CN_JOBS].value++;
        if (in.op->code == 0x17) {
            j->state = CJ_DEFERRED;
            t->state = SIM_T_SLEEP;
            t->ready_at = SIM_NEVER;
            for (int k = 0; k < x->nlaunch; k++)
                if (x->launch[k] == j->id) {
                    x->launch[k] = x->launch[--x->nlaunch];
                    make_ready(m, c, s, *tp);
                    break;
                }
        } else {
            make_ready(m, c, s, *tp);
        }
        if (m->slow) {
            u->last_issue = t0;
            dbg_after_insn(m, u, s, cert_pc(x->page, x->parse));
        }
        x->parse += size;
        if (fence) {
            x->fence = s;
            break;
        }
        if (sim_stopped(m)) /* a step or watchpoint ended on this START_JOB */
            return -1;
    }
    return 0;
}

/* All jobs of the top context ended and its EOF was parsed: the uC moves on (to its next
 * page, back from a sub-sequence or to its end) when it next runs. */
int cert_ctx_over(const cert_uc *c)
{
    const cert_ctx *x = &c->ctx[c->depth];
    return x->started && x->eof && !live_jobs(c, c->depth);
}

static void sync_check(sim_machine *m, uint64_t t);

/* The top context's page ended: go to its next page, or return from a sub-sequence, or
 * finish the uC. 0 moved on, 1 waits for its uC-DMA to drain, 2 the uC is done. */
static int ctx_advance(sim_machine *m, cert_uc *c, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    cert_ctx *x = &c->ctx[c->depth];
    /* (a deferred job never launched keeps its page from ending: a hang the report names) */
    if (x->next_valid) {
        x->page = x->next_page;
        x->fetch_done = x->next_fetch_done;
        x->started = x->eof = 0;
        x->nlaunch = 0;
        x->fence = -1;
        x->next_valid = 0;
        return 0;
    }
    if (x->has_then) {
        uint32_t p = x->then_page;
        int ret = x->ret_job;
        ctx_enter(cm, c, p, t, ret);
        return 0;
    }
    if (c->depth == 0) {
        if (c->qn)
            return 1; /* the uC is done when its uC-DMA drained (ucdma_done wakes it) */
        c->done = 1;
        for (int s = 0; s < c->nslots; s++)
            if (cert_th(m, c, s)->started && cert_th(m, c, s)->state != SIM_T_HALTED) {
                cert_th(m, c, s)->state = SIM_T_HALTED;
                cert_th(m, c, s)->halted_at = t;
            }
        sim_unit_halt(m, &m->units[c->index], t);
        return 2;
    }
    int s = x->ret_job;
    c->depth--;
    if (cm->npresent > 1) {
        cert_job *j = &c->job[s];
        cert_th(m, c, s)->stalls[j->stall] += t - j->since;
        j->since = t;
        j->wait = CW_SYNC;
        j->stall = CS_LOAD;
        j->w_sync = ++c->sync_count;
        sync_check(m, t);
    } else {
        cert_job_wake(m, c, s, t, 1);
    }
    return 0;
}

/* Release every job waiting for an implicit sync that all uCs have reached. */
static void sync_check(sim_machine *m, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    uint32_t low = UINT32_MAX;
    for (int i = 0; i < cm->nuc; i++)
        if (cm->uc[i].present && cm->uc[i].sync_count < low)
            low = cm->uc[i].sync_count;
    for (int i = 0; i < cm->nuc; i++) {
        cert_uc *c = &cm->uc[i];
        for (int s = 0; c->present && s < c->nslots; s++)
            if (c->job[s].state == CJ_BLOCKED && c->job[s].wait == CW_SYNC && c->job[s].w_sync <= low)
                cert_job_wake(m, c, s, t, 1);
    }
}

/* Run the page at page as a nested sequence for the job in slot s. */
static int ctx_push(sim_machine *m, cert_uc *c, int s, uint32_t page, uint64_t t, int has_then, uint32_t then)
{
    cert_machine *cm = cert_m(m);
    if (page >= c->code->npages) {
        char why[96];
        snprintf(why, sizeof why, "target page %u does not exist (the uC has %u pages)", page, c->code->npages);
        cert_job_stop(m, c, s, SIM_STOP_FAULT, t, why);
        return -1;
    }
    if (c->depth + 1 >= CERT_MAX_DEPTH) {
        cert_job_stop(m, c, s, SIM_STOP_FAULT, t, "out-of-order pages nested too deep");
        return -1;
    }
    c->depth++;
    ctx_enter(cm, c, page, t, s);
    c->ctx[c->depth].has_then = (uint8_t)has_then;
    c->ctx[c->depth].then_page = then;
    c->cnt[CN_LOADS].value++;
    cert_job_block(m, c, s, CW_LOAD, CS_PAGE_FETCH, t);
    return 0;
}

/* A load that does nothing (a repeated LOAD_PDI, PREEMPT without preemption) still ends in
 * the implicit multi-uC sync. */
static int load_skip(sim_machine *m, cert_uc *c, int s, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    if (cm->npresent <= 1)
        return EX_NEXT;
    cert_job_block(m, c, s, CW_SYNC, CS_LOAD, t);
    c->job[s].w_sync = ++c->sync_count;
    sync_check(m, t);
    return c->job[s].state == CJ_READY ? (c->job[s].resumed = 0, EX_NEXT) : EX_BLOCK;
}

/* ---- opcodes ---- */

static uint32_t *reg_ptr(cert_uc *c, cert_job *j, uint32_t r)
{
    return r < CERT_NLOCAL_REG ? &j->r[r] : r < CERT_NREG ? &c->g[r - CERT_NLOCAL_REG] : NULL;
}

/* A register operand that names no register: an illegal instruction. */
static int bad_reg(sim_machine *m, cert_uc *c, int s, uint64_t t, uint32_t r)
{
    char why[64];
    snprintf(why, sizeof why, "register operand %u (only 0..23: r0-r7, g0-g15)", r);
    cert_job_stop(m, c, s, SIM_STOP_ILLEGAL, t, why);
    return EX_STOP;
}

/* One poll attempt of (addr & mask) == value, the read landing at *tp + latency. */
static int poll_once(sim_machine *m, cert_uc *c, int s, uint64_t start, uint64_t *tp, uint32_t addr, uint32_t mask,
                     uint32_t value, uint64_t extra)
{
    cert_machine *cm = cert_m(m);
    cert_job *j = &c->job[s];
    uint64_t lat = cm->tm.axi_read + extra;
    *tp += lat;
    cert_th(m, c, s)->stalls[CS_POLL] += lat;
    uint32_t v;
    if (cert_ax_read(m, c, s, *tp, addr, &v))
        return EX_STOP;
    if ((v & mask) == value)
        return EX_NEXT;
    c->cnt[CN_POLL_RETRIES].value++;
    j->w_addr = addr;
    j->w_mask = mask;
    j->w_value = value;
    j->w_count = v;
    j->poll_seq = cm->change_seq;
    cert_job_block(m, c, s, CW_POLL, CS_POLL, *tp);
    /* re-tried on a later scheduling pass, not before poll_retry after this attempt */
    j->ready_at = cert_max64(*tp, start + cm->tm.poll_retry);
    return EX_BLOCK;
}

static void add_record(cert_uc *c, const cert_job *j, int kind, uint32_t id, uint64_t value)
{
    if (c->nrec == c->crec) {
        int n = c->crec ? 2 * c->crec : 16;
        cert_record *r = realloc(c->rec, (size_t)n * sizeof *r);
        if (!r)
            return;
        c->rec = r;
        c->crec = n;
    }
    c->rec[c->nrec++] = (cert_record){id, (uint8_t)kind, j->page, j->off, value};
    c->cnt[CN_RECORDS].value++;
}

#define V(name) cert_arg_value(in, name, 0)

static int exec_load(sim_machine *m, cert_uc *c, int s, const cert_insn *in, uint64_t t)
{
    cert_machine *cm = cert_m(m);
    switch (in->op->code) {
    case 0x1a: { /* LOAD_PDI: a repeat of the PDI loaded last is skipped */
        uint32_t id = V("pdi_id"), pg = V("pdi_host_addr_offset");
        if (c->have_pdi && c->last_pdi_id == id)
            return load_skip(m, c, s, t);
        c->have_pdi = 1;
        c->last_pdi_id = id;
        c->last_pdi_page = pg;
        return ctx_push(m, c, s, pg, t, 0, 0) ? EX_STOP : EX_BLOCK;
    }
    case 0x04: { /* LOAD_CORES: as LOAD_PDI, its own "last" slot */
        uint32_t id = V("core_elf_id"), pg = V("core_elf_host_addr_offset");
        if (c->have_cores && c->last_cores_id == id)
            return load_skip(m, c, s, t);
        c->have_cores = 1;
        c->last_cores_id = id;
        return ctx_push(m, c, s, pg, t, 0, 0) ? EX_STOP : EX_BLOCK;
    }
    case 0x1b: /* LOAD_LAST_PDI */
        if (!c->have_pdi) {
            if (m->err)
                fprintf(m->err, "xpusim: warning: uc%d page %u offset 0x%x: LOAD_LAST_PDI before any LOAD_PDI: nothing "
                                "loaded\n", c->index, c->job[s].page, c->job[s].off);
            return load_skip(m, c, s, t);
        }
        return ctx_push(m, c, s, c->last_pdi_page, t, 0, 0) ? EX_STOP : EX_BLOCK;
    case 0x19: /* PREEMPT: with the host's preemption flag, save then restore */
        if (!cm->tm.preempt)
            return load_skip(m, c, s, t);
        return ctx_push(m, c, s, V("save_control_code_offset"), t, 1, V("restore_control_code_offset")) ? EX_STOP
                                                                                                        : EX_BLOCK;
    default: /* LOAD_CORES_CP: control packets the array model does not see */
        return EX_NEXT;
    }
}

static int exec_op(sim_machine *m, cert_uc *c, int s, const cert_insn *in, uint64_t *tp)
{
    cert_machine *cm = cert_m(m);
    const cert_timing *tm = &cm->tm;
    cert_job *j = &c->job[s];
    sim_thread *tt = cert_th(m, c, s);
    if (j->resumed) { /* its blocking opcode completed while it was parked */
        j->resumed = 0;
        return EX_NEXT;
    }
    uint64_t start = *tp, cost = tm->cost[in->op->cls];
    if (!j->op_begun) { /* the watchdog times an opcode from its first attempt */
        j->op_begun = 1;
        j->op_since = start;
    }
    *tp += cost;
    tt->issue_cycles += cost;
    uint64_t t = *tp;
    uint32_t *rp, *ap, v, h;
    switch (in->op->code) {
    case 0x00: case 0x17: case 0x1f: case 0xff:
        cert_job_stop(m, c, s, SIM_STOP_ILLEGAL, t, "START_JOB or EOF inside a job (END_JOB missing)");
        return EX_STOP;
    case 0x07: { /* END_JOB */
        cert_ctx *x = &c->ctx[j->depth];
        if (x->fence == s)
            x->fence = -1;
        j->state = CJ_FREE;
        tt->state = SIM_T_HALTED;
        tt->halted_at = t;
        return EX_END;
    }
    case 0x08: return EX_YIELD;
    case 0x16: case 0x15: case 0x0e: case 0x23: return EX_NEXT; /* NOP, TRACE, APPLY_OFFSET_*: time only */
    case 0x1d: { /* SLEEP: busy-waits without yielding */
        uint64_t d = cert_sleep_cycles(tm, V("target"));
        *tp += d;
        tt->issue_cycles += d;
        return EX_NEXT;
    }
    case 0x10: case 0x0f: /* MOV, ADD */
        if (!(rp = reg_ptr(c, j, V("dest"))))
            return bad_reg(m, c, s, t, V("dest"));
        *rp = in->op->code == 0x10 ? V("value") : *rp + V("value");
        return EX_NEXT;
    case 0x05: /* WRITE_32: synchronous, through the uC's store port */
        *tp += tm->axi_write;
        tt->stalls[CS_AXI] += tm->axi_write;
        return cert_ax_write(m, c, s, *tp, V("address"), V("value")) ? EX_STOP : EX_NEXT;
    case 0x0b: { /* WRITE_32_D: each of address and value immediate or a register number */
        uint32_t f = V("flags"), a = V("address"), val = V("value");
        int addr_imm = tm->w32d_mlir ? (f >> 1) & 1 : f & 1, val_imm = tm->w32d_mlir ? f & 1 : (f >> 1) & 1;
        if (!addr_imm) {
            if (!(ap = reg_ptr(c, j, a)))
                return bad_reg(m, c, s, t, a);
            a = *ap;
        }
        if (!val_imm) {
            if (!(rp = reg_ptr(c, j, val)))
                return bad_reg(m, c, s, t, val);
            val = *rp;
        }
        *tp += tm->axi_write;
        tt->stalls[CS_AXI] += tm->axi_write;
        return cert_ax_write(m, c, s, *tp, a, val) ? EX_STOP : EX_NEXT;
    }
    case 0x03: { /* MASK_WRITE_32: read, merge, write (not atomic) */
        uint32_t a = V("address"), mask = V("mask");
        *tp += tm->axi_read;
        if (cert_ax_read(m, c, s, *tp, a, &v))
            return EX_STOP;
        *tp += tm->axi_write;
        tt->stalls[CS_AXI] += tm->axi_read + tm->axi_write;
        return cert_ax_write(m, c, s, *tp, a, (v & ~mask) | (V("value") & mask)) ? EX_STOP : EX_NEXT;
    }
    case 0x0c: case 0x0d: case 0x1e: { /* READ_32, READ_32_D, SAVE_REGISTER */
        uint32_t a = V("address");
        if (in->op->code == 0x0d) {
            if (!(ap = reg_ptr(c, j, a)))
                return bad_reg(m, c, s, t, a);
            a = *ap;
        }
        rp = NULL;
        if (in->op->code != 0x1e && !(rp = reg_ptr(c, j, V("value"))))
            return bad_reg(m, c, s, t, V("value"));
        *tp += tm->axi_read;
        tt->stalls[CS_AXI] += tm->axi_read;
        if (cert_ax_read(m, c, s, *tp, a, &v))
            return EX_STOP;
        if (rp)
            *rp = v;
        else
            add_record(c, j, 1, V("unq_id"), v);
        return EX_NEXT;
    }
    case 0x1c: /* SAVE_TIMESTAMPS: the cycle the opcode started */
        add_record(c, j, 0, V("unq_id"), start);
        return EX_NEXT;
    case 0x13: return poll_once(m, c, s, start, tp, V("address"), 0xFFFFFFFFu, V("value"), 0);
    case 0x14: return poll_once(m, c, s, start, tp, V("address"), V("mask"), V("value"), 0);
    case 0x22: /* UC_DMA_MASK_POLL_EXT: a poll through the uC-DMA (MM2DM) */
        if (V("address_high")) {
            c->cnt[CN_UNMODELLED].value++;
            if (tm->strict) {
                cert_job_stop(m, c, s, SIM_STOP_FAULT, t, "UC_DMA_MASK_POLL_EXT of an address outside the array (-o strict=1)");
                return EX_STOP;
            }
            if (m->err && !cert_warned(cm, V("address_low")))
                fprintf(m->err, "xpusim: warning: uc%d: UC_DMA_MASK_POLL_EXT of external address 0x%x_%08X not "
                                "modelled: taken as satisfied\n", c->index, V("address_high"), V("address_low"));
            return EX_NEXT;
        }
        return poll_once(m, c, s, start, tp, V("address_low"), V("mask"), V("value"), tm->ucdma_setup);
    case 0x21: { /* REL_ACQ_SYNC: a read of the release request address (a lock release),
                  * then reads of the acquire request address until one succeeds (bit 0);
                  * the array model gives lock requests these read semantics */
        uint32_t rel = V("rel_address"), acq = V("acq_address");
        if (!j->phase) {
            *tp += tm->axi_read;
            tt->stalls[CS_AXI] += tm->axi_read;
            if (cert_ax_read(m, c, s, *tp, rel, &v))
                return EX_STOP;
            cm->change_seq++; /* a release may let another uC's acquire succeed */
            j->phase = 1;
        }
        int r = poll_once(m, c, s, start, tp, acq, 1, 1, 0);
        if (r == EX_NEXT)
            j->phase = 0;
        return r;
    }
    case 0x06: { /* WAIT_TCTS */
        uint32_t tile = V("tile_id"), actor = V("actor_id"), n = V("target_tcts");
        cert_tct *e = cert_tct_entry(c, tile, actor);
        if (!e || e->received >= n) {
            if (e) {
                e->received -= n;
                e->consumed += n;
                CERT_JOB_CNT(m, c, s, CJC_TOKENS) += n;
            }
            return EX_NEXT;
        }
        j->w_tile = tile;
        j->w_actor = actor;
        j->w_count = n;
        cert_job_block(m, c, s, CW_TCT, CS_TCT, t);
        return EX_BLOCK;
    }
    case 0x11: { /* LOCAL_BARRIER */
        uint32_t lb = V("local_barrier_id"), n = V("num_participants");
        if (lb >= CERT_MAX_LB) {
            cert_job_stop(m, c, s, SIM_STOP_ILLEGAL, t, "local barrier id above $lb15");
            return EX_STOP;
        }
        if (++c->lb_arrived[lb] >= n) {
            c->lb_arrived[lb] = 0;
            for (int k = 0; k < c->nslots; k++)
                if (c->job[k].state == CJ_BLOCKED && c->job[k].wait == CW_LB && c->job[k].w_barrier == lb)
                    cert_job_wake(m, c, k, t, 1);
            return EX_NEXT;
        }
        j->w_barrier = lb;
        j->w_need = n;
        cert_job_block(m, c, s, CW_LB, CS_BARRIER, t);
        return EX_BLOCK;
    }
    case 0x12: { /* REMOTE_BARRIER: party_mask bit i = uC i */
        uint32_t rb = V("remote_barrier_id"), mask = V("party_mask");
        char why[160] = "";
        if (!rb || rb > CERT_MAX_RB)
            snprintf(why, sizeof why, "remote barrier encoding %u (1..64 = $rb0..$rb63)", rb);
        else if (c->index >= 32 || !(mask >> c->index & 1))
            snprintf(why, sizeof why, "party_mask 0x%X does not include this uC (bit %d)", mask, c->index);
        for (int i = 0; !why[0] && i < 32; i++)
            if (mask >> i & 1 && (i >= cm->nuc || !cm->uc[i].present))
                snprintf(why, sizeof why, "party_mask 0x%X names uC %d, which runs no control code", mask, i);
        if (!why[0] && cm->rb_arrived[rb] >> c->index & 1)
            snprintf(why, sizeof why, "a second job of this uC reached $rb%u before it matured", rb - 1);
        if (!why[0] && cm->rb_arrived[rb] && cm->rb_mask[rb] != mask)
            snprintf(why, sizeof why, "party_mask 0x%X differs from 0x%X of the uCs already waiting at $rb%u", mask,
                     (unsigned)cm->rb_mask[rb], rb - 1);
        if (why[0]) {
            cert_job_stop(m, c, s, SIM_STOP_FAULT, t, why);
            return EX_STOP;
        }
        cm->rb_mask[rb] = mask;
        cm->rb_arrived[rb] |= 1ull << c->index;
        if (cm->rb_arrived[rb] == mask) {
            cm->rb_arrived[rb] = cm->rb_mask[rb] = 0;
            for (int i = 0; i < 32; i++) {
                cert_uc *o = &cm->uc[i < cm->nuc ? i : 0];
                for (int k = 0; mask >> i & 1 && k < o->nslots; k++)
                    if (o->job[k].state == CJ_BLOCKED && o->job[k].wait == CW_RB && o->job[k].w_barrier == rb)
                        cert_job_wake(m, o, k, t, 1);
            }
            return EX_NEXT;
        }
        j->w_barrier = rb;
        j->w_need = mask;
        cert_job_block(m, c, s, CW_RB, CS_REMOTE_BARRIER, t);
        return EX_BLOCK;
    }
    case 0x18: { /* LAUNCH_JOB: scheduled from the next pass; the launcher runs on */
        uint16_t id = (uint16_t)V("job_id");
        int k = find_job(c, j->depth, id, CJ_DEFERRED);
        cert_ctx *x = &c->ctx[j->depth];
        if (k >= 0)
            make_ready(m, c, k, t);
        else if (x->nlaunch < 16)
            x->launch[x->nlaunch++] = id;
        else {
            cert_job_stop(m, c, s, SIM_STOP_FAULT, t, "more than 16 LAUNCH_JOBs of jobs not parsed yet");
            return EX_STOP;
        }
        return EX_NEXT;
    }
    case 0x01: case 0x09: { /* UC_DMA_WRITE_DES(_SYNC) */
        rp = NULL;
        if (in->op->code == 0x01 && !(rp = reg_ptr(c, j, V("wait_handle"))))
            return bad_reg(m, c, s, t, V("wait_handle"));
        int r = cert_ucdma_enqueue(m, c, s, V("descriptor_ptr"), t, &h);
        if (r < 0)
            return EX_STOP;
        if (!r) { /* queue full: pre-empted, retried when a transfer ends */
            cert_job_block(m, c, s, CW_UCDMA_FULL, CS_UCDMA_FULL, t);
            return EX_BLOCK;
        }
        if (rp) {
            *rp = h;
            return EX_NEXT;
        }
        j->w_handle = h;
        cert_job_block(m, c, s, CW_UCDMA, CS_UCDMA, t);
        return EX_BLOCK;
    }
    case 0x02: /* WAIT_UC_DMA */
        if (!(rp = reg_ptr(c, j, V("wait_handle"))))
            return bad_reg(m, c, s, t, V("wait_handle"));
        h = *rp;
        if (!h || h > c->next_handle) {
            char why[96];
            snprintf(why, sizeof why, "WAIT_UC_DMA on handle %u, which no UC_DMA_WRITE_DES returned", h);
            cert_job_stop(m, c, s, SIM_STOP_FAULT, t, why);
            return EX_STOP;
        }
        if (c->done_handle >= h)
            return EX_NEXT;
        j->w_handle = h;
        cert_job_block(m, c, s, CW_UCDMA, CS_UCDMA, t);
        return EX_BLOCK;
    default:
        if (in->op->cls == CC_LOAD)
            return exec_load(m, c, s, in, t);
        cert_job_stop(m, c, s, SIM_STOP_ILLEGAL, t, "opcode not implemented by the job-runner");
        return EX_STOP;
    }
}
#undef V

/* ---- scheduling ---- */

/* Run job s from *tp until it blocks, yields, ends or reaches the horizon. -1: stopped
 * (an error, a breakpoint). */
static int run_job(sim_machine *m, cert_uc *c, int s, uint64_t *tp, const uint64_t *h)
{
    cert_machine *cm = cert_m(m);
    sim_unit *u = &m->units[c->index];
    for (;;) {
        cert_job *j = &c->job[s];
        if (j->state != CJ_READY)
            return 0;
        if (*tp >= *h || sim_stopped(m)) {
            c->cur = s; /* go on without a new dispatch */
            return 0;
        }
        const uint8_t *pg = c->code->buf + (size_t)j->page * CERT_PAGE_SIZE;
        while (j->off < CERT_PAGE_SIZE && pg[j->off] == CERT_ALIGN_FILL)
            j->off++;
        cert_insn in;
        int r = cert_insn_at(c, j->page, j->off, cm->tm.spec, &in);
        if (r) {
            char why[96];
            if (r == -1)
                snprintf(why, sizeof why, "unknown opcode 0x%02X", j->off < CERT_PAGE_SIZE ? pg[j->off] : 0);
            else
                snprintf(why, sizeof why, r == -2 ? "non-zero pad byte" : "opcode runs past the end of the page");
            cert_job_stop(m, c, s, SIM_STOP_ILLEGAL, *tp, why);
            return -1;
        }
        uint64_t pc = cert_pc(j->page, j->off);
        if (m->slow && !j->resumed) {
            u->last_issue = *tp;
            if (dbg_before_insn(m, u, s, pc)) {
                c->cur = s;
                return -1;
            }
        }
        uint64_t t0 = *tp;
        int ex = exec_op(m, c, s, &in, tp);
        if (ex == EX_STOP)
            return -1;
        if (ex == EX_BLOCK)
            return 0;
        cert_th(m, c, s)->instructions++;
        if (m->slow) {
            u->last_issue = t0;
            dbg_after_insn(m, u, s, pc);
        }
        if (ex == EX_END) { /* the job's task ends with its END_JOB, counted in it */
            sim_task_end(m, c->index, s, *tp);
            return 0;
        }
        j->off += in.size;
        j->op_begun = 0;
        if (ex == EX_YIELD) { /* back to the scheduler: re-scheduled on the next pass */
            j->ready_at = j->since = *tp;
            j->stall = CS_READY;
            c->cnt[CN_YIELDS].value++;
            return 0;
        }
    }
}

/* Next job in round-robin order that can run at t: ready, or polling and due for a new
 * attempt. -1 if none; *wake: when the first one can. */
static int pick(cert_uc *c, uint64_t t, uint64_t *wake)
{
    *wake = SIM_NEVER;
    for (int k = 0; k < c->nslots; k++) {
        int i = (c->rr + k) % c->nslots;
        const cert_job *j = &c->job[i];
        if (j->state != CJ_READY && !(j->state == CJ_BLOCKED && j->wait == CW_POLL))
            continue;
        if (j->ready_at <= t) {
            c->rr = (i + 1) % c->nslots;
            return i;
        }
        if (j->ready_at < *wake)
            *wake = j->ready_at;
    }
    return -1;
}

/* The firmware's opcode watchdog: 1 if it fired; *deadline: when it next could. */
static int opcode_watchdog(sim_machine *m, cert_uc *c, uint64_t t, uint64_t *deadline)
{
    uint64_t to = cert_m(m)->tm.opcode_timeout;
    for (int s = 0; to && s < c->nslots; s++) {
        const cert_job *j = &c->job[s];
        if (j->state != CJ_BLOCKED)
            continue;
        if (t >= j->op_since + to) {
            char why[80];
            snprintf(why, sizeof why, "opcode timeout (%llu cycles, -o opcode_timeout)", (unsigned long long)to);
            c->t = t;
            cert_hang_stop(m, c->index, s, why);
            return 1;
        }
        if (j->op_since + to < *deadline)
            *deadline = j->op_since + to;
    }
    return 0;
}

uint64_t cert_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    cert_machine *cm = cert_m(m);
    cert_uc *c = &cm->uc[u->index];
    if (c->done || !c->present)
        return SIM_NEVER;
    uint64_t h = horizon, t = cert_max64(now, c->t), next = SIM_NEVER;
    int waiting = 0;
    cm->horizon = &h;
    cm->running = c->index;
    while (!sim_stopped(m) && t < h) {
        uint64_t dl = SIM_NEVER;
        if (opcode_watchdog(m, c, t, &dl))
            break;
        if (dl < h) /* the watchdog is checked between opcodes: stop at its deadline */
            h = dl;
        if (dl < next)
            next = dl;
        if (c->cur >= 0) {
            int s = c->cur;
            c->cur = -1;
            if (c->job[s].state == CJ_READY) {
                run_job(m, c, s, &t, &h);
                continue;
            }
        }
        cert_ctx *x = &c->ctx[c->depth];
        if (!x->started) {
            if (x->fetch_done > t) { /* the page is still on its way into sDM */
                if (!c->idle) {
                    c->idle = 1;
                    c->idle_since = t;
                }
                next = x->fetch_done;
                waiting = 1;
                break;
            }
            page_start(m, c, t);
        }
        if (parse(m, c, &t))
            break;
        if (cert_ctx_over(c)) {
            int r = ctx_advance(m, c, t);
            if (r == 2)
                break;
            if (r == 1) {
                waiting = 1;
                break;
            }
            continue;
        }
        uint64_t wake;
        int s = pick(c, t, &wake);
        if (s < 0) {
            if (wake < next)
                next = wake;
            waiting = 1;
            break;
        }
        /* dispatch: readiness check and context switch */
        cert_job *j = &c->job[s];
        /* a poll that failed with nothing changed since, while nothing else can run or
         * complete anywhere, would fail for ever: the firmware spins, we report the hang */
        if (j->state == CJ_BLOCKED && j->wait == CW_POLL && j->poll_seq == cm->change_seq && cert_quiet(m)) {
            c->t = t;
            cert_hang_stop(m, c->index, s, "no job can make progress");
            break;
        }
        sim_thread *tt = cert_th(m, c, s);
        if (t > j->since)
            tt->stalls[j->state == CJ_READY ? CS_READY : CS_POLL] += t - j->since;
        j->state = CJ_READY;
        j->wait = CW_NONE;
        tt->state = SIM_T_READY;
        t += cm->tm.sched_pass;
        tt->issue_cycles += cm->tm.sched_pass;
        c->cnt[CN_SWITCHES].value++;
        run_job(m, c, s, &t, &h);
    }
    c->t = t;
    cm->horizon = NULL;
    cm->running = -1;
    if (c->done) {
        /* the last uC that could move may just have finished: a barrier partner left waiting */
        int others = 0;
        for (int i = 0; i < cm->nuc; i++)
            others += cm->uc[i].present && !cm->uc[i].done;
        if (others && !sim_stopped(m) && cert_quiet(m))
            cert_hang_stop(m, -1, -1, "no job can make progress");
        return SIM_NEVER;
    }
    if (sim_stopped(m) || !waiting)
        return t;
    if (cert_quiet(m)) {
        cert_hang_stop(m, c->index, -1, "no job can make progress");
        return SIM_NEVER;
    }
    return next;
}
