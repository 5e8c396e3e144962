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
    s->prof_cnt = calloc((size_t)MCCP_CORES * SLOTS, sizeof *s->prof_cnt);
    s->prof_touched = calloc((size_t)MCCP_CORES * SLOTS, sizeof *s->prof_touched);
    s->prof_scratch = calloc(PROF_STALLS + SIM_MAX_STALLS + 2, sizeof *s->prof_scratch);
    if (!s->rec || !s->rom_seen || !s->prof_none || !s->prof_cnt || !s->prof_touched || !s->prof_scratch)
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

/* The profiled loop's counters (fast_loop.inc): a slot's counter is 0 until it is counted
 * since the last real issue, then PROF_SAFE less the issues counted. */
#define PROF_SAFE ((int64_t)1 << 62)

/* Make the profile what prof_issue would have made of the plain issues since the last real
 * one (its row pt->row, at retired count i_f and cycle c_f), the last of them at slot sl,
 * count i and cycle cy. Each counted issue opened its slot's row at 1 instruction and 4
 * cycles after the issue before it, which that issue's row gets: so every slot's row gets
 * its count times (1, 4), but the last issue's row is still open (it holds minus its own
 * count and cycle instead), and the real issue's row closes at the first counted one. The
 * counters go back to 0 (the touched slots, in the order they were first counted). */
/* Add the counted issues of the touched slots to their rows (4 cycles each) and clear the
 * counters: the part prof_fold_closed and prof_fold share. */
static inline void prof_fold_counts(prof_thread *pt, int64_t *cnt, const uint16_t *touched, unsigned nt)
{
    for (unsigned k = 0; k < nt; k++) {
        uint16_t x = touched[k];
        uint64_t c = (uint64_t)(PROF_SAFE - cnt[x]);
        uint64_t *row = pt->map[x];
        row[PROF_INSNS] += c;
        row[PROF_CYCLES] += 4 * c;
        cnt[x] = 0;
    }
}

/* Before a real issue 1 instruction and 4 cycles after the last counted one: every counted
 * issue's row closes at (1, 4), the last one's too, and the real issue's row at the first
 * counted one; the real prof_issue then closes a scratch row (flow none) instead of the
 * last one's, whose slot the loop does not keep. */
static __attribute__((noinline)) void prof_fold_closed(prof_thread *pt, int64_t *cnt, const uint16_t *touched,
                                                       unsigned nt, uint64_t i_f, uint64_t c_f, uint64_t *scratch)
{
    if (!nt)
        return; /* no counted issue: the real one's row is the open one */
    prof_fold_counts(pt, cnt, touched, nt);
    pt->row[PROF_INSNS] += i_f + 1;
    pt->row[PROF_CYCLES] += c_f + 4;
    pt->row = scratch;
}

static __attribute__((noinline)) void prof_fold(prof_thread *pt, int64_t *cnt, const uint16_t *touched, unsigned nt,
                                                uint64_t sl, uint64_t i, uint64_t cy, uint64_t i_f, uint64_t c_f)
{
    prof_fold_counts(pt, cnt, touched, nt);
    if (i == i_f)
        return; /* no counted issue: the real one's row is the open one */
    uint64_t *rf = pt->row, *rl = pt->map[sl];
    rf[PROF_INSNS] += i_f + 1;
    rf[PROF_CYCLES] += c_f + 4;
    rl[PROF_INSNS] -= i + 1;
    rl[PROF_CYCLES] -= cy + 4;
    pt->row = rl;
}

/* The loop, three times: plain, and feeding --profile at each issue (notes/profile-api.md)
 * in two ways (fast_loop.inc): with the open row relative (two adds into the previous row
 * per issue: cheap to enter and leave, for the short runs between RAM accesses) and with
 * counters per slot (one per issue, but a count to fold per slot and call: for long runs). */
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
 * compute run) with counters. Splitting a burst changes nothing simulated (the loop keeps
 * its whole state in the core between calls) nor the profile (the second call's first
 * issue is a real prof_issue, which is what the plain feed stands for). */
#define PROF_ROW_ISSUES 4096u
static uint64_t run_prof(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim, const uint8_t *bpm)
{
    uint64_t cap = t + 4 * (uint64_t)PROF_ROW_ISSUES;
    /* the counting copy keeps no breakpoint filter, and its real issues follow a counted one
     * by 1 and 4 only where the executor never refuses an instruction (RTL semantics) */
    if (lim <= cap || bpm || mccp_st(m)->sem != MCCP_SEM_RTL)
        return run_prof_row(m, u, t, lim, bpm);
    uint64_t r = run_prof_row(m, u, t, cap, bpm);
    if (r != cap || sim_stopped(m))
        return r; /* asleep, halted, stopped, or short of the cap (a breakpoint's veto) */
    return run_prof_cnt(m, u, r, lim, bpm);
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
