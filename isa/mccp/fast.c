/* isa/mccp/fast.c: the MCCP core's fast loop, used whenever no debugger hook watches each
 * instruction (plain runs, breakpoints alone, watchpoints, the functional mode).
 * Every ROM slot gets a record (mccp_rec) on its first execution: a handler number, the
 * register fields, the immediate and the slots to the next instruction, with the condition
 * folded in where it is constant (al and, in RTL mode, le always hold; nv never does). The
 * loop dispatches on the record with one computed goto and keeps pc as a pointer into the
 * records, ip's bits above the ROM index apart (a sentinel record after the last slot
 * carries the wrap), the flags in a local and the cycle as the count of issues (4 cycles
 * each: the loop never leaves the core's CPI of 4 without RAM). RAM accesses, the stack
 * and core instructions, int, anything that reads or writes ip, the documented semantics'
 * ALU and a division by zero go through mccp_exec_one (exec.c), which is the reference
 * loop's executor, so both loops share those semantics. The records follow the ROM: the
 * words they were made from are kept (rom_seen) and compared with the ROM at each call
 * (the debugger and the host write the ROM only between runs), and they are remade when
 * the debugger's breakpoint filter changes (flagged slots call the debugger first). */
#include <stdlib.h>
#include <string.h>
#include "mccp.h"
#include "../../core/sched.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

enum {
    K_DECODE, K_WRAP, K_GEN, K_BP, K_NOP, K_COND,
    /* the 16 ALU opcodes in opcode order (mccp_op: K_ADD + op) */
    K_ADD, K_ADDC, K_SUB, K_SUBC, K_MUL, K_DIV, K_AND, K_OR, K_XOR, K_LSH, K_RSH, K_NOT, K_CMP, K_INC, K_DEC, K_A15,
    K_MOV, K_MOVL, K_MOVH, K_JUMP, K_JMP, K_JE, K_JNE, K_MARK, K_LOAD, K_STORE,
    K_MOVI, /* movl then movh of one register (both unconditional): see build_word */
    K_NOPMOVI, /* a low-half no-op, then a K_MOVI: see build_word */
    K_COUNT
};

_Static_assert(K_CMP - K_ADD == MCCP_CMP - MCCP_ADD && K_A15 - K_ADD == MCCP_ALU15 - MCCP_ADD,
               "the ALU handlers follow the opcodes");

#define SLOTS (2 * MCCP_ROM_WORDS)

int mccp_fast_init(mccp_state *s)
{
    s->rec = calloc(SLOTS + 1, sizeof *s->rec);
    s->rom_seen = calloc(MCCP_ROM_WORDS, 4);
    s->prof_none = calloc(SLOTS, sizeof *s->prof_none);
    /* flow words, stamps (MCCP_PROF_STRIDE per core each) and the sink, 2 KiB past the
     * block's start (calloc's large blocks start 16 bytes into a page, as the records do) */
    size_t nw = 2 * (size_t)MCCP_CORES * MCCP_PROF_STRIDE + MCCP_PROF_STRIDE + 256;
    s->prof_mem = calloc(nw, sizeof *s->prof_mem);
    if (s->prof_mem) {
        s->prof_cnt = s->prof_mem + 256;
        s->prof_stamp = (uint64_t *)(s->prof_cnt + (size_t)MCCP_CORES * MCCP_PROF_STRIDE);
        s->prof_sink = s->prof_cnt + 2 * (size_t)MCCP_CORES * MCCP_PROF_STRIDE;
    }
    if (!s->rec || !s->rom_seen || !s->prof_none || !s->prof_mem)
        return -1;
    for (int op = MCCP_JE; op <= MCCP_JMP; op++)
        for (unsigned f = 0; f < 16; f++)
            if (mccp_jump_taken(op, f))
                s->jump_mask[op - MCCP_JE] |= (uint16_t)(1u << f);
    mccp_fast_reset(s);
    return 0;
}

void mccp_fast_reset(mccp_state *s)
{
    memset(s->rec, 0, SLOTS * sizeof *s->rec); /* K_DECODE */
    s->rec[SLOTS].k = K_WRAP;
    s->rec_nr = 0;
    s->rec_bp_gen = 0;
}

/* Handler of an instruction whose fields read or write ip, or that the loop does not run
 * itself: the reference executor. */
static uint8_t classify(const mccp_state *s, const mccp_insn *in, mccp_rec *r)
{
    const int rtl = s->sem == MCCP_SEM_RTL;
    switch (in->op) {
    case MCCP_ADD: case MCCP_ADDC: case MCCP_SUB: case MCCP_SUBC: case MCCP_MUL: case MCCP_DIV:
    case MCCP_AND: case MCCP_OR: case MCCP_XOR: case MCCP_LSH: case MCCP_RSH: case MCCP_NOT:
    case MCCP_INC: case MCCP_DEC: case MCCP_ALU15:
        /* in->op is the 4-bit ALU opcode: the handlers K_ADD.. are in the same order */
        return rtl && in->r1 != 7 && in->r2 != 7 ? (uint8_t)(K_ADD + in->op - MCCP_ADD) : K_GEN;
    case MCCP_CMP:
        /* RTL: the suffix is forced off, flags always written */
        return rtl && in->r1 != 7 && in->r2 != 7 ? K_CMP : K_GEN;
    case MCCP_MOV:
        return in->r1 != 7 && in->r2 != 7 ? K_MOV : K_GEN;
    case MCCP_MOVL: case MCCP_MOVH:
        if (in->r1 == 7)
            return K_NOP; /* movl/movh cannot write ip */
        return in->op == MCCP_MOVL ? K_MOVL : K_MOVH;
    case MCCP_JE: case MCCP_JNE: case MCCP_JGT: case MCCP_JGE: case MCCP_JLT: case MCCP_JLE: case MCCP_JMP:
        if (in->r1 == 7)
            return K_GEN;
        r->cond = (uint8_t)(in->op - MCCP_JE);
        /* je and jne read Z only: no C or V to compute */
        return in->op == MCCP_JMP ? K_JMP : in->op == MCCP_JE ? K_JE : in->op == MCCP_JNE ? K_JNE : K_JUMP;
    case MCCP_NOOP:
        return K_NOP;
    case MCCP_MARKER:
        return K_MARK;
    case MCCP_LOAD: case MCCP_STORE: /* RTL: the condition is never looked at */
        if (!rtl || in->r1 == 7 || in->r2 == 7)
            return K_GEN;
        return in->op == MCCP_LOAD ? K_LOAD : K_STORE;
    default:
        return K_GEN;
    }
}

/* Word w gets records: add it to the ranges the per-call check compares. A few ranges keep
 * the check small when code lies far apart (a warm restart runs ROM word 8191 first): a
 * word joins a range it is near, else a new one, else the range it widens least. */
static void note_word(mccp_state *s, uint32_t w)
{
    int best = -1;
    uint32_t grow = UINT32_MAX;
    for (int i = 0; i < s->rec_nr; i++) {
        uint32_t g = w < s->rec_lo[i] ? s->rec_lo[i] - w : w >= s->rec_hi[i] ? w + 1 - s->rec_hi[i] : 0;
        if (g < grow) {
            grow = g;
            best = i;
        }
    }
    if ((best < 0 || grow > 64) && s->rec_nr < 4) {
        best = s->rec_nr++;
        s->rec_lo[best] = w;
        s->rec_hi[best] = w + 1;
        return;
    }
    if (w < s->rec_lo[best])
        s->rec_lo[best] = w;
    if (w + 1 > s->rec_hi[best])
        s->rec_hi[best] = w + 1;
}

/* Make the records of ROM word w (both slots) from the ROM as it is now. */
static void build_word(mccp_state *s, uint32_t w, const uint8_t *bpm)
{
    uint32_t word = mem_ld32be(s->rom + 4 * w);
    memcpy(s->rom_seen + 4 * w, s->rom + 4 * w, 4);
    note_word(s, w);
    for (int h = 0; h < 2; h++) {
        mccp_insn in;
        mccp_decode(word, h, &in);
        mccp_rec *r = &s->rec[2 * w + (unsigned)h];
        memset(r, 0, sizeof *r);
        r->r1 = in.r1;
        r->r2 = in.r2;
        r->imm = in.imm;
        r->cond = in.cond;
        r->step = in.len == 2 && h == 0 ? 2 : 1;
        if (bpm && dbg_bp_maybe(bpm, 2 * w + (unsigned)h)) {
            r->k = K_BP;
            continue;
        }
        uint8_t k = classify(s, &in, r);
        if (k >= K_ADD && k <= K_MOVH && k != K_CMP) {
            /* conditional: folded when constant */
            uint16_t cm = s->cond_mask[in.cond];
            if (cm == 0)
                k = K_NOP;
            else if (cm != 0xFFFF) {
                r->k2 = k;
                k = K_COND;
            }
        }
        r->k = k;
    }
    /* movl and movh of one register in words w and w + 1 (how the assembler writes a 32-bit
     * constant) become one record, K_MOVI, that issues both with one 32-bit store: the
     * loop's one dispatch instead of two, and no 16-bit store that the next 32-bit read of
     * the register would wait for. The record stays a valid K_MOVL record (the last issue
     * before a limit runs it as the movl alone); the movh's immediate goes in k2 and cond,
     * unused by a movl that always executes. Word w + 1
     * gets its records too (sync invalidates word w with word w + 1). */
    mccp_rec *r = &s->rec[2 * w];
    if (r->k == K_MOVL && r->step == 2 && w + 1 < MCCP_ROM_WORDS && !(bpm && dbg_bp_maybe(bpm, 2 * w + 2))) {
        mccp_insn in;
        mccp_decode(mem_ld32be(s->rom + 4 * (w + 1)), 0, &in);
        if (in.op == MCCP_MOVH && in.len == 2 && in.r1 == r->r1 && s->cond_mask[in.cond] == 0xFFFF) {
            if (s->rec[2 * w + 2].k == K_DECODE) /* the profiled copies feed the movh's issue at */
                build_word(s, w + 1, bpm);        /* its record: it must be built (once: no movl) */
            r->k = K_MOVI;
            r->k2 = (uint8_t)in.imm;
            r->cond = (uint8_t)(in.imm >> 8);
        }
    }
    /* The assembler pads a 16-bit instruction in a high half before a 32-bit word with a
     * no-op (addnv reg0 reg0): a no-op in the low half followed by a K_MOVI record is one
     * record too, K_NOPMOVI (three issues, one store): the K_MOVI record's fields with the
     * no-op's step (the copies that feed the profile, and a limit with fewer than three
     * issues left, run it as the no-op alone). Words w + 1 and w + 2 get their records
     * (sync invalidates word w with either). */
    mccp_rec *z = &s->rec[2 * w + 1];
    if (z->k == K_NOP && z->step == 1 && w + 1 < MCCP_ROM_WORDS) {
        mccp_insn in;
        mccp_decode(mem_ld32be(s->rom + 4 * (w + 1)), 0, &in);
        if (in.op == MCCP_MOVL) {
            if (s->rec[2 * w + 2].k == K_DECODE) /* a movl word: builds at most word w + 2 */
                build_word(s, w + 1, bpm);
            if (s->rec[2 * w + 2].k == K_MOVI) {
                *z = s->rec[2 * w + 2];
                z->k = K_NOPMOVI;
                z->step = 1;
            }
        }
    }
}

/* The records must describe the ROM and the breakpoint filter as they are now. */
static void sync(sim_machine *m, mccp_state *s, const uint8_t *bpm)
{
    uint32_t gen = bpm ? m->dbg->bp_gen : 0;
    if (gen != s->rec_bp_gen) {
        for (int i = 0; i < s->rec_nr; i++)
            for (uint32_t w = s->rec_lo[i]; w < s->rec_hi[i]; w++)
                s->rec[2 * w].k = s->rec[2 * w + 1].k = K_DECODE;
        s->rec_bp_gen = gen;
        return;
    }
    for (int i = 0; i < s->rec_nr; i++) {
        size_t off = 4 * (size_t)s->rec_lo[i], n = 4 * (size_t)(s->rec_hi[i] - s->rec_lo[i]);
        if (!memcmp(s->rom + off, s->rom_seen + off, n))
            continue;
        for (uint32_t w = s->rec_lo[i]; w < s->rec_hi[i]; w++)
            if (memcmp(s->rom + 4 * w, s->rom_seen + 4 * w, 4)) {
                s->rec[2 * w].k = s->rec[2 * w + 1].k = K_DECODE;
                /* a K_MOVI record of word w - 1 holds word w's movh, a K_NOPMOVI record
                 * of word w - 1 or w - 2 word w's movl or movh */
                for (uint32_t d = 1; d <= 2 && d <= w; d++)
                    s->rec[2 * (w - d)].k = s->rec[2 * (w - d) + 1].k = K_DECODE;
            }
    }
}

/* The flags live in locals: fres, whose sign is S and whose zero is Z (the result of the
 * last ALU operation), and C and V as the last ALU operation's opcode fop, operands fa and
 * fb and carry in fci (addc, subc), computed only when read (conditions, jumps other than
 * je and jne, the end of a run: most ALU results are never tested for C or V). fop FL_LIT:
 * C and V are fa's bits. A state with both S and Z set (the debugger's) has no fres: it
 * runs through the executor until an ALU operation writes the flags. */
enum { FL_LIT = 16 };
static __attribute__((noinline)) unsigned lazy_cv(int op, uint32_t a, uint32_t b, unsigned cin)
{
    unsigned c, t;
    if (op == FL_LIT)
        return a;
    mccp_alu_op(op, a, b, cin, &c, &t);
    return c | (c ^ t) << 2;
}
#define FL_CV() lazy_cv(fop, fa, fb, fci)
#define FL_GET() (FL_CV() | (fres >> 31) << 1 | (unsigned)(fres == 0) << 3)
#define FL_PUT(fl)                                                                                     \
    (fop = FL_LIT, fa = (fl) & (MCCP_FL_C | MCCP_FL_V), fb = 0, fci = 0,                              \
     fres = ((fl) & MCCP_FL_Z) ? 0 : ((fl) & MCCP_FL_S) ? 0x80000000u : 1u)
#define FL_ODD(fl) (((fl) & (MCCP_FL_S | MCCP_FL_Z)) == (MCCP_FL_S | MCCP_FL_Z))

/* The profiled loop's real issue (fast_loop.inc): at slot sl, cycle cy, retired count i,
 * after the relative open row rw (NULL: none) is made absolute (its issue was the previous
 * one, i - 1 and cy - 4). Returns the new open row made relative, or NULL when the next
 * issue must be real too (after a call or a return, pt->lim is 0) or the thread's window
 * does not cover every slot. Out of line: one call site per copy. */
static __attribute__((noinline)) uint64_t *prof_real(prof_thread *pt, uint64_t *rw, uint64_t sl, uint64_t cy,
                                                     uint64_t i, const uint64_t *stl)
{
    if (rw) {
        pt->row = rw;
        rw[PROF_INSNS] -= i - 1;
        rw[PROF_CYCLES] -= cy - 4;
    }
    prof_issue_gen(pt, sl, cy, i, stl, -1, 0);
    if (pt->lim < SLOTS || pt->base != 0)
        return NULL;
    rw = pt->row;
    rw[PROF_INSNS] += i;
    rw[PROF_CYCLES] += cy;
    return rw;
}

/* Copy 2 of the profiled loop (fast_loop.inc) counts flows, not issues: a flow enters a
 * slot (the slot after the call's first issue, a taken jump's target) and goes on along
 * the records' steps, one issue per slot it passes, until it leaves (a taken jump, the end
 * of the call): fl[x] counts the flows that enter slot x less those that leave before it.
 * A flow may only enter where every slot it can then pass up to a jump, an access or the
 * executor has a plain row (its issue is then what prof_issue makes of a counted issue):
 * prof_walk checks that chain once per call (a phase: the slots' stamps), builds its
 * records and notes its slots [lo, hi] among the call's walks wk (kept in order of lo).
 * Returns 0 when a slot has no plain row (a first issue, a call, a return, an open call's
 * return address: those must be real), the chain reaches the ROM's end (the wrap), or the
 * walks are full: the caller ends the call there and copy 1 goes on. */
_Static_assert(K_JUMP + 1 == K_JMP && K_JMP + 1 == K_JE && K_JE + 1 == K_JNE, "the jumps together");
static __attribute__((noinline)) int prof_walk(mccp_state *s, const prof_thread *pt, uint64_t *stamp,
                                               uint16_t (*wk)[2], unsigned *nw, uint32_t x, uint64_t phase,
                                               int functional)
{
    if (*nw == MCCP_PROF_WALKS)
        return 0;
    uint32_t z = x, last = x;
    for (;;) {
        if (z >= SLOTS)
            return 0;
        if (stamp[z] == phase)
            break; /* a walk of this phase goes on from here */
        if (s->rec[z].k == K_DECODE)
            build_word(s, z >> 1, NULL);
        const mccp_rec *r = &s->rec[z];
        if (r->k == K_BP || !pt->map[z])
            return 0;
        stamp[z] = phase;
        last = z;
        if ((r->k >= K_JUMP && r->k <= K_JNE) || r->k == K_GEN ||
            (!functional && (r->k == K_LOAD || r->k == K_STORE)))
            break; /* the flow goes on only where the handler says (a jump not taken: the
                    * slot after it, walked then: it may not have issued yet) */
        z += r->step;
    }
    unsigned k = (*nw)++;
    for (; k > 0 && wk[k - 1][0] > x; k--) {
        wk[k][0] = wk[k - 1][0];
        wk[k][1] = wk[k - 1][1];
    }
    wk[k][0] = (uint16_t)x;
    wk[k][1] = (uint16_t)last;
    return 1;
}

/* The issues the flows stand for, added to the slots' rows (1 and 4 cycles each: every
 * counted issue's row closes at the next issue), in increasing slot order over the walks
 * (a slot's flows include all of those from the slots before it that step into it); the
 * flow words go back to 0. Returns the issues counted. */
static uint64_t prof_flows(prof_thread *pt, const mccp_rec *rec, int64_t *fl, uint16_t (*wk)[2], unsigned nw)
{
    uint64_t total = 0;
    for (unsigned k = 0; k < nw;) {
        uint32_t lo = wk[k][0], hi = wk[k][1];
        for (k++; k < nw && wk[k][0] <= hi + 2; k++)
            if (wk[k][1] > hi)
                hi = wk[k][1];
        for (uint32_t z = lo; z <= hi; z++) {
            int64_t c = fl[z];
            if (!c)
                continue;
            fl[z] = 0;
            uint64_t *row = pt->map[z]; /* (checked by the walk; never NULL here) */
            if (row && c > 0) {
                row[PROF_INSNS] += (uint64_t)c;
                row[PROF_CYCLES] += 4 * (uint64_t)c;
                total += (uint64_t)c;
            }
            fl[z + rec[z].step] += c;
        }
        fl[hi + 1] = fl[hi + 2] = 0; /* the flows that left after the last slot: 0 left */
    }
    return total;
}

/* At the end of a call of copy 2: the profile as prof_issue would have left it after the
 * counted issues since the anchor (its row pt->row, retired count i_f, cycle c_f), the last
 * of them at slot sl, count i and cycle cy: the anchor's row closes at the first counted
 * issue, and the last one's row stays open (minus its own count and cycle, i.e. the (1, 4)
 * prof_flows gave it less the next issue's count and cycle). */
static __attribute__((noinline)) void prof_flows_fold(prof_thread *pt, const mccp_rec *rec, int64_t *fl,
                                                      uint16_t (*wk)[2], unsigned nw, uint64_t sl, uint64_t i,
                                                      uint64_t cy, uint64_t i_f, uint64_t c_f)
{
    prof_flows(pt, rec, fl, wk, nw);
    if (i == i_f)
        return; /* no counted issue: the anchor's row is the open one */
    uint64_t *rf = pt->row, *rl = pt->map[sl];
    rf[PROF_INSNS] += i_f + 1;
    rf[PROF_CYCLES] += c_f + 4;
    rl[PROF_INSNS] -= i + 1;
    rl[PROF_CYCLES] -= cy + 4;
    pt->row = rl;
}

/* The loop, three times: plain, and feeding --profile (notes/profile-api.md) in two ways
 * (fast_loop.inc): with the open row relative (two adds into the previous row per issue:
 * cheap to enter and leave, for the short runs between RAM accesses) and by flows (nothing
 * per issue, a word or two per taken jump, a walk per jump target and call: for long runs). */
#define FAST_NAME run_plain
#define FAST_PROF 0
#include "fast_loop.inc"
#undef FAST_NAME
#undef FAST_PROF
#define FAST_NAME run_prof_row
#define FAST_PROF 1
#include "fast_loop.inc"
#undef FAST_NAME
#undef FAST_PROF
#define FAST_NAME run_prof_cnt
#define FAST_PROF 2
#include "fast_loop.inc"
#undef FAST_NAME
#undef FAST_PROF

/* A profiled burst: its first PROF_ROW_ISSUES issues with relative rows, the rest (a long
 * compute run) by flows, and when copy 2 stops short (a slot without a plain row ahead)
 * PROF_ROW_ISSUES more with relative rows, and so on. Splitting a burst changes nothing
 * simulated (the loop keeps its whole state in the core between calls) nor the profile (the
 * next call's first issue is a real prof_issue, which is what the plain feed stands for). */
#define PROF_ROW_ISSUES 4096u
static uint64_t run_prof(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim, const uint8_t *bpm)
{
    /* copy 2 keeps no breakpoint filter, and follows the executor's issues as counted ones
     * only where it never refuses an instruction (RTL semantics) */
    if (bpm || mccp_st(m)->sem != MCCP_SEM_RTL)
        return run_prof_row(m, u, t, lim, bpm);
    for (;;) {
        uint64_t cap = t + 4 * (uint64_t)PROF_ROW_ISSUES;
        if (lim <= cap)
            return run_prof_row(m, u, t, lim, bpm);
        uint64_t r = run_prof_row(m, u, t, cap, bpm);
        if (r != cap || sim_stopped(m))
            return r; /* asleep, halted, stopped, or short of the cap */
        t = run_prof_cnt(m, u, r, lim, bpm);
        if (t == SIM_NEVER || t >= lim || sim_stopped(m))
            return t;
    }
}

void mccp_fast_sync(sim_machine *m) { sync(m, mccp_st(m), NULL); }

mccp_fast_fn mccp_fast_loop(sim_machine *m) { return dbg_profile(m) ? run_prof : run_plain; }

uint64_t mccp_fast_run(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim, const uint8_t *bpm)
{
    if (!mccp_st(m)->in_cluster) /* cluster.c checked the ROM once for its whole call */
        sync(m, mccp_st(m), bpm);
    if (dbg_profile(m))
        return run_prof(m, u, t, lim, bpm);
    return run_plain(m, u, t, lim, bpm);
}
