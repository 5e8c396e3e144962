/* isa/mccp/exec.c: what one MCCP core does at the save edge of each instruction.
 * Conditions and the ALU follow MCCP/core/instr_decoder.v and alu.v exactly in RTL mode
 * (le always true, ls = !C || !Z, V from the 31-bit add/sub selected by opcode bit 1, cmp
 * unconditional, load/store ignore their condition, movf's condition is {0, register});
 * MCCP_SEM_DOC gives the documented behaviour. mccp_core_run executes a core's instructions
 * back to back, 4 cycles each, until a load/store hands the core to the arbiter (arbiter.c)
 * or `int` ends its run. Timing lives in the cycle arithmetic here and in arbiter.c only. */
#include <string.h>
#include "mccp.h"
#include "../../core/sched.h"
#include "../../core/debug.h"

int mccp_cond(int sem, int cond, unsigned f)
{
    int z = !!(f & MCCP_FL_Z), s = !!(f & MCCP_FL_S), v = !!(f & MCCP_FL_V), c = !!(f & MCCP_FL_C);
    switch (cond & 15) {
    case 0: return z;
    case 1: return !z;
    case 2: return !z && s == v;
    case 3: return s != v;
    case 4: return s == v;
    case 5: return sem == MCCP_SEM_DOC ? (z || s != v) : 1; /* RTL compares S with the constant 2 */
    case 6: return c;
    case 7: return !c;
    case 8: return s;
    case 9: return !s;
    case 10: return 1;
    case 11: return 0;
    case 12: return v;
    case 13: return !v;
    case 14: return c && !z;
    default: return sem == MCCP_SEM_DOC ? (!c || z) : (!c || !z); /* RTL: !Z, not ARM's Z */
    }
}

/* Jumps carry their own (correct) formulas in the decoder, in both modes. */
int mccp_jump_taken(int op, unsigned f)
{
    int z = !!(f & MCCP_FL_Z), s = !!(f & MCCP_FL_S), v = !!(f & MCCP_FL_V);
    switch (op) {
    case MCCP_JE: return z;
    case MCCP_JNE: return !z;
    case MCCP_JGT: return !z && s == v;
    case MCCP_JGE: return s == v;
    case MCCP_JLT: return s != v;
    case MCCP_JLE: return z || s != v;
    default: return 1;
    }
}

/* alu.v (mccp_alu_op, mccp.h), with V as the documented semantics name it in doc mode */
static inline uint32_t alu(int sem, int op, uint32_t a, uint32_t b, unsigned *flags)
{
    unsigned c, t, v;
    uint32_t r = mccp_alu_op(op, a, b, *flags & MCCP_FL_C, &c, &t);
    if (sem == MCCP_SEM_DOC) {
        /* signed overflow of the operation the doc names; logic, mul and div clear V */
        switch (op) {
        case MCCP_ADD: case MCCP_ADDC: v = ((a ^ r) & (b ^ r)) >> 31; break;
        case MCCP_INC: v = ((a ^ r) & (1u ^ r)) >> 31; break;
        case MCCP_SUB: case MCCP_SUBC: case MCCP_CMP: v = ((a ^ b) & (a ^ r)) >> 31; break;
        case MCCP_DEC: v = ((a ^ 1u) & (a ^ r)) >> 31; break;
        default: v = 0; break;
        }
    } else {
        /* alu.v: V = C ^ tmp[31]; op2 is the register field's value even for not/inc/dec
         * (reg0 as assembled) */
        v = c ^ t;
    }
    *flags = (c ? MCCP_FL_C : 0) | (r >> 31 ? MCCP_FL_S : 0) | (v ? MCCP_FL_V : 0) | (r == 0 ? MCCP_FL_Z : 0);
    return r;
}

static void stop_at(sim_machine *m, sim_stop_kind kind, int core, uint64_t pc, uint64_t cycle, const char *msg)
{
    sim_set_stop(m, kind, core, 0, pc, "%s", msg);
    if (m->stop.kind == kind && m->stop.unit == core)
        m->stop.cycle = cycle;
}

uint32_t mccp_alu(int sem, int op, uint32_t a, uint32_t b, unsigned *flags) { return alu(sem, op, a, b, flags); }

void mccp_cond_masks(int sem, uint16_t mask[16])
{
    for (int c = 0; c < 16; c++) {
        mask[c] = 0;
        for (unsigned f = 0; f < 16; f++)
            if (mccp_cond(sem, c, f))
                mask[c] |= (uint16_t)(1u << f);
    }
}

/* A load or store at save edge t: check the stack window and set up the request (or the
 * first dump write after a stack fault). */
static void mem_insn(sim_machine *m, mccp_state *s, mccp_core *c, int core, const mccp_insn *in, uint64_t t, uint64_t pc)
{
    uint32_t addr = c->r[in->r2];
    c->mem_save = t;
    c->mem_slot = pc;
    c->waiting = 1;
    if (addr >= c->stack_begin && !(addr >= c->my_stack_begin && addr < c->my_stack_end)) {
        /* stack protection fault: 9 writes at sp.. (the first one of stale data), ip never
         * saved, then continue at stack_exc_addr; wren_exception stays set (RTL bug) */
        c->dump_left = 8;
        c->dumping = 1;
        c->wren_sticky = 1;
        c->req_write = 1;
        c->req_addr = c->r[6];
        c->req_data = c->wdata;
        m->units[core].counters[MCCP_CNT_STACK_FAULTS].value++;
        if (s->fault_stop && !s->fault_stopped) {
            char msg[200];
            s->fault_stopped = 1;
            snprintf(msg, sizeof msg,
                     "stack protection fault: core %d %s address 0x%08x (stack_begin 0x%x, own stack [0x%x, 0x%x)); "
                     "continuing dumps registers at sp=0x%x and jumps to 0x%x",
                     core, in->op == MCCP_STORE ? "store to" : "load from", addr, c->stack_begin,
                     c->my_stack_begin, c->my_stack_end, c->r[6], c->stack_exc_addr);
            stop_at(m, SIM_STOP_FAULT, core, pc, t, msg);
        }
    } else {
        c->dump_left = 0;
        c->dumping = 0;
        c->req_addr = addr;
        c->req_rd = in->r1;
        if (in->op == MCCP_STORE || c->wren_sticky) {
            c->req_write = 1;
            c->wdata = c->req_data = c->r[in->r1]; /* a load after a fault stores its register */
        } else {
            c->req_write = 0;
        }
    }
    c->req_visible = t + 1;
}

/* Functional mode: the request's transactions (one, or the 9 writes of a fault dump) are
 * performed at once, in order, at the instruction's own cycle. */
static void mem_now(sim_machine *m, mccp_state *s, mccp_core *c, int core, uint64_t t)
{
    do {
        mccp_transact(m, core, t);
        s->arb_fresh = 0;
    } while (mccp_dump_next(s, c));
    c->waiting = 0;
}

/* The decoded instruction at word ipw, half (the cache is checked against the ROM word). */
static const mccp_insn *decoded(mccp_state *s, uint32_t ipw, int half, uint32_t *word)
{
    uint32_t w = mem_ld32be(s->rom + ipw * 4);
    mccp_pd *p = &s->pd[ipw];
    if (__builtin_expect(!p->valid || p->word != w, 0)) {
        p->word = w;
        mccp_decode(w, 0, &p->in[0]);
        mccp_decode(w, 1, &p->in[1]);
        p->valid = 1;
    }
    *word = w;
    return &p->in[(w >> 31) ? 0 : half];
}

int mccp_exec_one(sim_machine *m, sim_unit *u, uint64_t t)
{
    mccp_state *s = mccp_st(m);
    int core = u->index;
    mccp_core *c = &s->core[core];
    sim_thread *th = &u->threads[0];
    const int sem = s->sem;
    uint32_t ipw = c->r[7] & (MCCP_ROM_WORDS - 1), w;
    uint64_t pc = (uint64_t)ipw * 2 + c->half;
    const mccp_insn *in = decoded(s, ipw, c->half, &w);
    int ok = (s->cond_mask[in->cond] >> c->flags) & 1;
    int rc = MCCP_X_NEXT;
    switch (in->op) {
    case MCCP_ADD: case MCCP_ADDC: case MCCP_SUB: case MCCP_SUBC: case MCCP_MUL: case MCCP_DIV:
    case MCCP_AND: case MCCP_OR: case MCCP_XOR: case MCCP_LSH: case MCCP_RSH: case MCCP_NOT:
    case MCCP_INC: case MCCP_DEC: case MCCP_ALU15:
        if (ok) {
            unsigned f = c->flags;
            uint32_t b = c->r[in->r2];
            if (in->op == MCCP_DIV && b == 0) {
                u->counters[MCCP_CNT_DIV0].value++;
                if (!c->warned_div0) { /* once per core (a counter wrapped: every 256th again) */
                    c->warned_div0 = 1;
                    fprintf(m->err, "mccp: warning: core %d: division by zero at slot 0x%llx (cycle %llu); result 0xffffffff\n",
                            core, (unsigned long long)pc, (unsigned long long)t);
                }
            }
            c->r[in->r1] = alu(sem, in->op, c->r[in->r1], b, &f);
            c->flags = (uint8_t)f;
        }
        break;
    case MCCP_CMP:
        if (ok || sem == MCCP_SEM_RTL) { /* RTL: suffix forced off, flags always written */
            unsigned f = c->flags;
            alu(sem, MCCP_CMP, c->r[in->r1], c->r[in->r2], &f);
            c->flags = (uint8_t)f;
        }
        break;
    case MCCP_LOAD: case MCCP_STORE:
        if (ok || sem == MCCP_SEM_RTL) { /* core.v never looks at the condition */
            mem_insn(m, s, c, core, in, t, pc);
            rc = MCCP_X_SLEEP;
        }
        break;
    case MCCP_MOV:
        if (ok)
            c->r[in->r1] = c->r[in->r2];
        break;
    case MCCP_MOVL:
        if (ok && in->r1 != 7)
            c->r[in->r1] = (c->r[in->r1] & 0xFFFF0000u) | in->imm;
        break;
    case MCCP_MOVH:
        if (ok && in->r1 != 7)
            c->r[in->r1] = (c->r[in->r1] & 0xFFFFu) | (uint32_t)in->imm << 16;
        break;
    case MCCP_MOVF:
        if ((ok || sem == MCCP_SEM_DOC) && in->r1 != 7)
            c->r[in->r1] = c->flags;
        break;
    case MCCP_JE: case MCCP_JNE: case MCCP_JGT: case MCCP_JGE: case MCCP_JLT: case MCCP_JLE: case MCCP_JMP:
        if (mccp_jump_taken(in->op, c->flags)) {
            c->r[7] = c->r[in->r1] - 1; /* ip = reg - 1, instr_choose = 1: ends at reg, high half */
            c->half = 1;
        }
        break;
    case MCCP_COREIDX:
        if (ok && in->r1 != 7)
            c->r[in->r1] = sem == MCCP_SEM_DOC ? (uint32_t)core : (c->r[in->r1] & 0xFFFF0000u) | (uint32_t)core;
        break;
    case MCCP_INT:
        if (ok) {
            if (sem == MCCP_SEM_DOC && in->r1 != 1) {
                char msg[120];
                snprintf(msg, sizeof msg, "int %u: only int 1 (job finished) is documented", (unsigned)in->r1);
                stop_at(m, SIM_STOP_ILLEGAL, core, pc, t, msg);
                return MCCP_X_STOP; /* not executed: the core stays at the int */
            }
            memset(c->r, 0, 6 * sizeof c->r[0]);
            c->r[6] = 0;
            c->r[7] = 0xFFFFFFFFu;
            rc = MCCP_X_HALT;
        }
        break;
    case MCCP_MSB:
        if (ok) {
            c->my_stack_begin = c->r[in->r1];
            c->r[6] = c->r[in->r1];
        }
        break;
    case MCCP_MSE:
        if (ok)
            c->my_stack_end = c->r[in->r1];
        break;
    case MCCP_SB:
        if (ok)
            c->stack_begin = c->r[in->r1];
        break;
    case MCCP_EXCL:
        if (ok)
            c->stack_exc_addr = c->r[in->r1];
        break;
    default: /* decoder no-ops, the marker (below) */
        break;
    }
    /* end of the save state: next word after a 32-bit word or a low half */
    if (c->half || (w >> 31)) {
        c->r[7]++;
        c->half = 0;
    } else {
        c->half = 1;
    }
    th->instructions++;
    th->issue_cycles += 4;
    u->last_issue = t;
    if (in->op == MCCP_MARKER)
        sim_marker(m, core, 0, pc); /* a stop there ends the run after the marker */
    /* functional mode: the access now, after the advance as at the grant (a load may set ip,
     * a fault dump ends at stack_exc_addr); a fault that stopped the run is left to the
     * arbiter, so that the stop shows the state before the dump, as in the cycle model */
    if (rc == MCCP_X_SLEEP && m->functional && !sim_stopped(m)) {
        mem_now(m, s, c, core, t);
        rc = MCCP_X_NEXT;
    }
    return rc;
}

void mccp_sleep(sim_machine *m, sim_unit *u)
{
    mccp_st(m)->core[u->index].next_save = SIM_NEVER;
    sched_sleep(u, 0);
    mccp_arb_request(m, u->index);
}

/* The reference loop: one instruction at a time with the debugger's hooks around each. */
static uint64_t run_hooked(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim)
{
    mccp_core *c = &mccp_st(m)->core[u->index];
    while (t < lim && !sim_stopped(m)) {
        uint64_t pc = mccp_slot(c);
        u->last_issue = t;
        if (dbg_before_insn(m, u, 0, pc))
            break;
        int rc = mccp_exec_one(m, u, t);
        if (rc == MCCP_X_STOP)
            break;
        dbg_after_insn(m, u, 0, pc); /* watchpoints: the arbiter reports them (arbiter.c) */
        if (rc == MCCP_X_SLEEP) {
            mccp_sleep(m, u);
            return SIM_NEVER;
        }
        if (rc == MCCP_X_HALT) {
            c->next_save = SIM_NEVER;
            mccp_core_done(m, u, t);
            return SIM_NEVER;
        }
        t += 4;
    }
    c->next_save = t;
    u->threads[0].ready_at = t;
    return t;
}

uint64_t mccp_core_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    /* plain runs (a profile alone only records): the cores and the arbiter in one loop
     * (cluster.c) */
    int plain = !m->slow || (!dbg_hooks(m) && !dbg_bp_map(m) && !(m->dbg && m->dbg->watching) && dbg_profile(m));
    if (plain && !m->functional && !m->max_instructions && !m->ff_insns && !m->ff_armed && !m->progress_fn)
        return mccp_cluster_run(m, u, now, horizon);
    return mccp_core_burst(m, u, now, horizon);
}

uint64_t mccp_core_burst(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    mccp_core *c = &mccp_st(m)->core[u->index];
    uint64_t t = c->next_save > now ? c->next_save : now;
    /* Cores interact only through the arbiter, whose grants are events: a core may run past
     * other units' events (not past the run limit) as long as nobody watches each
     * instruction and no instruction limit is set; bursts are bounded so Ctrl-C is seen. */
    uint64_t lim = horizon;
    /* a profile alone only records: the cores need not stop in step for it */
    int ahead = !m->slow || (!dbg_hooks(m) && !dbg_bp_map(m) && !(m->dbg && m->dbg->watching) && dbg_profile(m));
    if (ahead) {
        /* functional bursts are shorter: a core spinning on a flag in RAM runs alone for a
         * whole burst before the others can set it */
        uint64_t burst = m->functional ? (1u << 16) : (1u << 22);
        lim = m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1;
        if (lim - t > burst)
            lim = t + burst;
        /* instruction limits and a fast-forward's count are checked between events, with
         * bursts that shrink as the count nears (core/run.c horizon_for): stay in step */
        if (m->max_instructions || m->ff_insns)
            lim = horizon;
        if (lim < horizon)
            lim = horizon;
    }
    /* the per-instruction hooks (trace, history, step, profile) need the reference loop;
     * breakpoints alone go through the fast loop's filter */
    if (dbg_hooks(m))
        return run_hooked(m, u, t, lim);
    return mccp_fast_run(m, u, t, lim, dbg_bp_map(m));
}
