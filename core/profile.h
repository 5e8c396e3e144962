/* core/profile.h: per-PC, per-hardware-thread instruction, cycle and stall counts for
 * performance tuning, and the call edges between them (--profile). Two feeds, one set of
 * rules: the hook path (dbg_before_insn/dbg_after_insn call prof_before/prof_record) or, for
 * an ISA that declares isa_ops.profile_fast, its own fast path calling prof_issue once per
 * issue (the contract: notes/profile-api.md).
 * Attribution. Everything a thread does from one issue to its next issue belongs to the
 * instruction issued first: the cycles between the two issues (its latency plus every stall
 * that followed it), the increase of each of the thread's stall counters (sim_thread.stalls[])
 * over that interval, whether the ISA counted it while the instruction executed (a DPU DMA's
 * wait) or later, and the increase of its retired count (sim_thread.instructions: a Nyuzi
 * issue rolled back and replayed counts once, as in the statistics). So the cycles of all PCs
 * add up to the threads' active time and the stalls to the threads' stall counters. A
 * thread's last instruction is charged up to its halt (or the end of the run) by
 * prof_finish; what a thread counted before its first instruction (after the profile started)
 * goes to that first instruction.
 * Call edges, where the ISA classifies its instructions (isa_ops.insn_flow, asked once per
 * new (thread, PC) row): each hardware thread keeps a shadow call stack. When the
 * instruction after a call is not the call's own fall-through, a frame is pushed (the return
 * address and the edge (thread, call site, callee entry)) and the edge is charged minus the
 * thread's totals (instructions, cycles, stalls) at the callee's first issue; the first issue
 * at the frame's return address pops it (after an ISA_FLOW_RETURN, also a frame below the
 * top, as a longjmp does) and charges the edge plus the totals then, so that the edge holds
 * the growth as inclusive cost: everything charged from the callee's first instruction to
 * its return, calls included. Frames still open when the profile is written count up to
 * then (prof_edges adds the totals at the end).
 * Storage (why prof_issue is cheap): a row per (thread, PC) of uint64_t counters that never
 * moves (allocated in chunks); each thread maps the PCs of a window over its code space
 * (the code region holding its first PC, at most PROF_WINDOW addresses) straight to their
 * rows, so a plain instruction's issue is an index, a compare and a few adds. PCs outside the
 * window, call and return instructions, the first issue and the issues at an open call's
 * return address (its slot is emptied while the call is open) take prof_issue_slow: the
 * rows of calls and returns in the window are in a second direct map (fmap), every other
 * row outside the window in a hash keyed by (thread, PC); then the call stack. A thread fed
 * by prof_issue_stall_th maps its calls and returns too (prof_thread.fm): they issue on the
 * fast path, and only the issue after one (the callee's first, the return address) is slow. */
#ifndef XPUSIM_PROFILE_H
#define XPUSIM_PROFILE_H
#include <stdint.h>
#include "sim.h"

/* A row: [PROF_INSNS], [PROF_CYCLES], [PROF_LIM], the PC, the meta word (thread, flow, return
 * delta, a call's last edge), then the stalls from [PROF_STALLS] (nstalls of them); stride
 * PROF_STALLS + nstalls rounded up to 8 (a cache line). Every word the slow path reads at a
 * fixed offset (no load of the stride). PROF_LIM: the window size of the row's thread for a plain instruction's row, 0 for
 * a call's or a return's (and in prof_thread.pre): the next issue after this row's may take
 * the fast path only at a window offset below it (prof_issue_stall_th's test, see
 * prof_thread.fm). */
enum { PROF_INSNS = 0, PROF_CYCLES = 1, PROF_LIM = 2, PROF_PC = 3, PROF_META = 4, PROF_STALLS = 5 };
/* An edge's charge at a push and a pop copies at least this many stall words, so that for an
 * ISA with at most as many causes it is a fixed count (the words past the ISA's causes stay
 * 0). */
#define PROF_FRAME_STALLS 4
/* Most code-space addresses a thread's window maps directly (8 bytes each, allocated
 * zeroed, so only the pages of PCs that run take memory). */
#define PROF_WINDOW (1u << 18)
/* Entries of a thread's cache of calls in word mode (prof_thread.wcc; a power of 2). */
#define PROF_WCC 64

/* One (thread, PC), as the writers read it (prof_sorted). */
typedef struct prof_entry {
    uint64_t pc;      /* code-space address */
    int32_t thread;   /* global hardware thread: unit * threads-per-unit + thread */
    uint64_t insns, cycles;
    uint64_t stalls[SIM_MAX_STALLS]; /* by the ISA's stall_names */
} prof_entry;

/* A call edge: calls from the instruction at site to the callee entering at target, on one
 * hardware thread, with the inclusive cost of the returned calls. (What a push and a pop
 * charge first: in the profile's own store, prof_edge_slot, a cache line holds the count and
 * up to 5 causes.) */
typedef struct prof_edge {
    uint64_t calls, insns, cycles;
    uint64_t stalls[SIM_MAX_STALLS];
    uint64_t site, target;
    int32_t thread;
} prof_edge;
/* An edge as the profile keeps it: at a cache line, so that a push's and a pop's charge
 * (calls, insns, cycles, the first causes) touches one line (3 lines, 144 bytes unaligned, before
 * session 33: 16 DPU tasklets' edges missed L1 on the DMA row). */
typedef struct prof_edge_slot {
    _Alignas(64) prof_edge e;
} prof_edge_slot;

/* An open call: where it returns and its edge (which holds minus the thread's totals at the
 * callee's entry until the pop adds the totals at the return); saved: the row of ret that
 * this frame took out of the thread's window map, so that the issue at ret takes the slow
 * path (which pops the frame and puts the row back), or NULL. 24 bytes: a push writes three
 * words, a pop reads them (no snapshot of the totals to copy and subtract). lazy: pushed in
 * word mode, which keeps ret's row in the map (saved NULL; ret's word dropped sends its issue
 * to the slow path): word mode's end takes it out (prof_word_sync), so that the row form
 * never sees a lazy frame (session 33: map[ret] was an L1 miss in 1 push of 10). */
typedef struct prof_frame {
    uint64_t ret;
    uint64_t *saved;
    uint32_t edge;
    uint32_t lazy;
} prof_frame;

struct prof_state;

/* Word mode's calls: a thread's small direct-mapped cache by the call's pc (its low bits) of
 * the taken calls seen, so that the callee's first issue finds its edge without the call's
 * row (prof_issue_word_slow; filled from the row's remembered edge). */
typedef struct prof_wcc {
    uint32_t site1;  /* the call's pc + 1 (0: empty) */
    uint32_t target; /* the callee's entry */
    uint32_t edge;   /* the edge (site, target)'s index */
    uint32_t rd;     /* the return address minus the call's pc */
} prof_wcc;

typedef struct prof_thread {
    /* what prof_issue reads, first (each thread's state starts a cache line) */
    _Alignas(64) uint64_t base; /* the direct window [base, base + lim); lim 0: the next issue */
    uint64_t lim;        /* takes the slow path (first issue, after a call or a return, word
                            mode) */
    uint64_t **map;      /* the row of PC base + i, NULL: none yet, a call or a return (unless
                            fm), or an open call's return address (prof_frame.saved holds its
                            row) */
    uint64_t *row;       /* the row of the thread's last issue (before the first issue: pre),
                            still open: its Instructions and Cycles hold minus the values at
                            that issue, and the next issue (or prof_finish) adds its own; in
                            word mode wrow (PROF_LIM 0: every other feed's issue is slow) */
    /* word mode (prof_issue_word_th; what its fast path reads and writes, on this line) */
    int64_t *wd;         /* a word per window offset below nwd, PROF_W_*; NULL: none */
    int64_t *pw;         /* word mode: the word of the open issue (its row not opened); &wnone:
                            row form (t->row open as above) */
    uint64_t tl;         /* word mode: the open issue's cycle, and */
    uint64_t in;         /* its retired count + 1 (the next issue's): kept by the slow path, told
                            by the feed's caller after its fast issues (prof_word_at) */
    /* (the next line: what the pushes and pops of calls read besides the above and stalls) */
    struct prof_state *p;
    prof_frame *stack;   /* the shadow call stack: depth frames */
    int64_t *bat;        /* the batch counters (prof_bat): a word per window offset below nbat,
                            NULL: none */
    struct prof_wcc *wcc; /* word mode's cache of calls: slot s is wcc[s * wccs] (the unit's
                            threads' entries of a slot side by side, prof_state.wcc) */
    uint32_t depth, cap;
    uint32_t nbat;
    uint32_t wccs;       /* the threads per unit (prof_state.tpu) */
    int nstalls;         /* the ISA's stall causes */
    int wcause;          /* the stall cause wd's words derive (their cycles minus their count) */
    int wflow;           /* word mode's: wcause if its pushes and pops have their own ways
                            (at most PROF_FRAME_STALLS causes), else INT32_MIN
                            (prof_issue_word_slow's one test; set by prof_word_enter) */
    uint32_t nlazy;      /* the lazy frames on the stack (prof_frame.lazy) */
    /* (the next line: the counters a push and a pop charge) */
    uint64_t stalls[SIM_MAX_STALLS]; /* the thread's counters as last charged (in word mode the
                                        words' cause's in prof_word_enter's form) */
    uint64_t nmap;       /* the window's size (lim when no slow issue is forced) */
    uint64_t nwd;        /* words in wd (prof_word_span's) */
    int g;               /* this thread's global index */
    /* the slow path's */
    uint64_t **fmap;     /* over the same window: the rows of calls and returns, which the
                            slow path finds here instead of in the hash (NULL: none yet) */
    uint64_t pre[PROF_STALLS + SIM_MAX_STALLS]; /* charged before the first issue */
    int stride;          /* the state's row stride (prof_state.stride) */
    uint64_t hook_insns; /* the hook path: the retired count at prof_before */
    uint64_t end_cycle, end_insns; /* prof_finish: where the open row closes */
    uint8_t valid;       /* issued since the profile started */
    uint8_t mapped;      /* the window was set up (at the first issue) */
    uint8_t ended;       /* prof_finish saw it */
    uint8_t fm;          /* flows mapped (set at the first issue when it comes through
                            prof_issue_stall_th): the map holds the rows of calls and returns
                            too, so their issues take the fast path, and the issue after one
                            is sent to the slow path by the open row's PROF_LIM (0) instead of
                            by lim, which stays 0 (every prof_issue_th takes the slow path,
                            and loops that test lim before batching do not batch) */
    /* the batch counters (prof_bat; bat and nbat above) */
    uint64_t bspan;      /* the cycles the batches spanned since the last fold */
    uint32_t *btl;       /* the offsets whose pair ever counted (prof_bat_fold visits them) */
    uint32_t nbtl, cbtl;
    int bder;            /* the stall cause the words derive (prof_bat_derive), -1: none */
    uint16_t *blen;      /* prof_bat_blocks: per offset below nblen, the run its word counts */
    uint32_t nblen;
    uint64_t bkey;       /* the table blen was copied from (0: none) */
    /* word mode's slow path */
    int64_t *wmem;       /* their allocation (wd a few cache lines into it), or NULL */
    uint64_t **mapmem;   /* map's allocation (map a few cache lines into it) */
    uint32_t *wtl;       /* the offsets whose word ever counted (prof_word_fold visits them) */
    uint32_t nwtl, cwtl;
    uint64_t wrow[PROF_STALLS + SIM_MAX_STALLS]; /* t->row in word mode (PROF_LIM 0) */
    int64_t wnone;       /* pw in the row form: PROF_W_CALL (the next word feed's issue is slow) */
} prof_thread;

typedef struct prof_state {
    prof_thread *th;  /* per (unit, thread): global thread g = unit * tpu + thread */
    int nth, tpu;     /* total threads, threads per unit */
    int nstalls;      /* the ISA's stall causes (stall_names) */
    int stride;       /* uint64_t per row */
    sim_machine *m;   /* for insn_flow, the code space, and stops */
    int (*flow)(sim_machine *m, int unit, uint64_t pc, uint64_t *ret); /* NULL: no call edges */
    uint64_t **chunks; /* rows, PROF_CHUNK per chunk, never moved */
    uint32_t nchunks, chunk_cap, chunk_used; /* rows used in the last chunk */
    uint64_t nrows;
    uint64_t **hash;  /* rows outside a window, and calls and returns: open addressing */
    uint32_t hcap, hn;
    uint64_t map_bytes; /* the windows' maps together (capped: then hash only) */
    prof_edge_slot *edges; /* in creation order (prof_edge_at); eidx: open addressing of index + 1 */
    uint32_t nedges, edge_cap, *eidx, eidx_cap;
    int64_t *poison;  /* prof_bat_poison: npoison words that never count */
    int64_t *wzero;   /* PROF_WINDOW words that never count (prof_word_span short of memory) */
    prof_wcc *wcc;    /* the threads' caches of calls, per unit: slot by slot, the unit's threads
                         side by side (a DPU's 16 tasklets calling one site read 4 lines, not
                         16: the DMA row's pushes missed L1 on it, session 33) */
    uint32_t npoison;
} prof_state;

static inline prof_thread *prof_th(struct prof_state *p, int g) { return &p->th[g]; }

prof_state *prof_new(sim_machine *m);
void prof_free(prof_state *p);

/* The fast feed (isa_ops.profile_fast; notes/profile-api.md). Once per issue of global
 * thread g (unit * p->tpu + thread) at pc in cycle, in issue order per thread, with insns the
 * thread's retired count before this instruction retires, and stalls its stall counters as at
 * this issue (everything counted up to the issue, nothing this instruction counts itself), or
 * NULL when they did not change since the thread's previous prof_issue or when the ISA
 * reports the growth with prof_stall (the two mix freely). Never fails: out of memory
 * stops the machine (SIM_STOP_ERROR). prof_th(p, g) is the thread's state, which a hot loop
 * may keep per hardware thread and pass to prof_issue_th. */
void prof_issue_slow(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, const uint64_t *stalls);

/* Charge the growth of the stall counters (now, against seen) to acc (a counter that went
 * down, reset by hand, charges nothing). Unrolled by the count: a loop over a count read
 * from memory cost an ISA's profiled loop 32 host instructions per instruction for 3 causes. */
#define PROF_DELTA(k)                                                                              \
    case (k) + 1:                                                                                  \
        if (now[k] != seen[k]) {                                                                   \
            if (now[k] > seen[k])                                                                  \
                acc[k] += now[k] - seen[k];                                                        \
            seen[k] = now[k];                                                                      \
        }                                                                                          \
        __attribute__((fallthrough));
static inline __attribute__((always_inline)) void prof_stall_delta(int n, uint64_t *restrict acc, uint64_t *restrict seen,
                                    const uint64_t *restrict now)
{
    _Static_assert(SIM_MAX_STALLS == 12, "one PROF_DELTA per possible cause");
    switch (n) {
        PROF_DELTA(11) PROF_DELTA(10) PROF_DELTA(9) PROF_DELTA(8) PROF_DELTA(7) PROF_DELTA(6)
        PROF_DELTA(5) PROF_DELTA(4) PROF_DELTA(3) PROF_DELTA(2) PROF_DELTA(1) PROF_DELTA(0)
    default:
        break;
    }
}
#undef PROF_DELTA

/* (the feeds below; cause < 0: none) The issue closes the previous row (adds this issue's
 * retired count and cycle: the growth since that row's issue) and opens the new one
 * (subtracts them). */
static inline __attribute__((always_inline)) void prof_issue_gen(prof_thread *t, uint64_t pc, uint64_t cycle,
                                                                 uint64_t insns, const uint64_t *stalls, int cause,
                                                                 uint64_t n)
{
    uint64_t off = pc - t->base, *row;
    if (cause >= 0)
        t->stalls[cause] += n;
    if (__builtin_expect(off < t->lim && (row = t->map[off]) != NULL, 1)) {
        uint64_t *prev = t->row;
        prev[PROF_INSNS] += insns;
        row[PROF_INSNS] -= insns;
        /* (the pointers "change": GCC's SLP vectoriser would pair each row's two updates
         * into a 16-byte load, add and store, which took more time than the scalar adds in
         * the Nyuzi functional loop for fewer instructions) */
        __asm__("" : "+r"(prev), "+r"(row));
        prev[PROF_CYCLES] += cycle;
        row[PROF_CYCLES] -= cycle;
        if (cause >= 0)
            prev[PROF_STALLS + cause] += n;
        if (stalls)
            prof_stall_delta(t->nstalls, prev + PROF_STALLS, t->stalls, stalls);
        t->row = row;
    } else {
        if (cause >= 0)
            t->row[PROF_STALLS + cause] += n;
        prof_issue_slow(t, pc, cycle, insns, stalls);
    }
}

static inline void prof_issue_th(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, const uint64_t *stalls)
{
    prof_issue_gen(t, pc, cycle, insns, stalls, -1, 0);
}

static inline void prof_issue(struct prof_state *p, int g, uint64_t pc, uint64_t cycle, uint64_t insns,
                              const uint64_t *stalls)
{
    prof_issue_gen(prof_th(p, g), pc, cycle, insns, stalls, -1, 0);
}

/* The same as prof_stall(p, g, cause, n) then prof_issue(p, g, pc, cycle, insns, NULL), in
 * one step: for an ISA that knows at each issue the stall the thread counted since its
 * previous one (a DPU tasklet's revolver wait). */
void prof_issue_slow_fm(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns);
static inline __attribute__((always_inline)) void prof_issue_stall_th(prof_thread *t, uint64_t pc, uint64_t cycle,
                                                                      uint64_t insns, int cause, uint64_t n)
{
    /* the window test against the open row's PROF_LIM (the same value lim holds without fm,
     * as the slow path sets it): so with fm the rows of calls and returns can be in the map
     * and issue here; the issue after one (its PROF_LIM 0) goes to the slow path, which
     * pushes or pops the frame */
    uint64_t off = pc - t->base, *row, *prev = t->row;
    t->stalls[cause] += n;
    prev[PROF_STALLS + cause] += n;
    if (__builtin_expect(off < prev[PROF_LIM] && (row = t->map[off]) != NULL, 1)) {
        prev[PROF_INSNS] += insns;
        row[PROF_INSNS] -= insns;
        __asm__("" : "+r"(prev), "+r"(row)); /* (as in prof_issue_gen) */
        prev[PROF_CYCLES] += cycle;
        row[PROF_CYCLES] -= cycle;
        t->row = row;
    } else
        prof_issue_slow_fm(t, pc, cycle, insns);
}

static inline void prof_issue_stall(struct prof_state *p, int g, uint64_t pc, uint64_t cycle, uint64_t insns,
                                    int cause, uint64_t n)
{
    prof_issue_stall_th(prof_th(p, g), pc, cycle, insns, cause, n);
}

/* The word feed (word mode), for a loop like prof_issue_stall_th's whose stall before each
 * issue is the cycles since the thread's previous issue beyond one (a DPU tasklet's revolver
 * wait): the same as prof_issue_stall_th(t, pc, cycle, insns, cause, n), but the common issue
 * (pc's word counting, the previous one not a call's or a return's) touches no row and tests
 * nothing of the thread's past: it adds one issue and its n + 1 cycles to the word of the
 * previous issue's pc (PROF_W_ONE), whose fold charges the row with them and cause with their
 * cycles minus their count (so n is the cause's). The rows of 16 tasklets x 127 pcs (64 bytes
 * each) do not stay in L1; their words (8 bytes) do. The caller's contract (which the feed
 * does not test, session 29): while the thread is in word mode, every issue of it comes
 * through this feed, one instruction retired since its previous issue, and its previous
 * issue was at cycle - n - 1 in the same running stretch: where a new stretch starts (the
 * DPU's resume) the caller says so with prof_word_resume before the next issue. The common
 * issue does not even keep the thread's last cycle and count: the caller tells them with
 * prof_word_at (its last issue's cycle, its retired count after it) before anything else
 * reads the thread (another feed, prof_word_resume or _end, prof_finish), e.g. where its
 * burst of issues ends. Everything else comes to prof_issue_word_slow: the
 * push and the pop after a call's and a return's word, in words; any other issue the row
 * form's, then word mode again at pc when its row is a mapped one. One cause per thread; n
 * below 2^28; outside the thread's window every issue is prof_issue_stall_th's
 * (notes/profile-api.md "Word mode"). */
#define PROF_W_ON INT64_MIN                      /* bit 63: the word counts (0: it never did) */
#define PROF_W_ONE(g) (4 + ((int64_t)(g) << 34)) /* count in bits 2-33, cycles 34-61 (62: their
                                                    carry, 63's next) */
#define PROF_W_CALL 1                            /* bits 0-1, set where the word starts: the */
#define PROF_W_RET 3                             /* row's flow (bit 0: the next issue is slow;
                                                    prof_thread.wnone, the row form's pw, has
                                                    it too) */
#define PROF_W_DROP ((int64_t)1 << 62)           /* with bit 63 clear: not counting, its row out
                                                    of the map (an open call's return address),
                                                    its counts kept; bits 62 and 63 clear (not
                                                    0): the cycles carried into bit 63 */
/* In word mode (pw one of the thread's words, not its wnone). */
static inline int prof_word_mode(const prof_thread *t) { return t->pw != &t->wnone; }
/* (cold: its call sites laid out and allocated as the rare ways they are; mul --profile
 * 78.31 -> 77.44 host insns per DPU insn in session 30; with the DPU's threaded copies
 * sharing one call (session 31) still dma 100.91 -> 96.13, mul 78.03 -> 76.97) */
__attribute__((cold)) void prof_issue_word_slow(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, int cause,
                                               uint64_t n);
/* prof_issue_word_th's common issue alone: 1 if it was one (counted), 0 if the issue must
 * go to prof_issue_word_slow (nothing done), so that a loop with many copies of the feed
 * can share one call of it. */
static inline __attribute__((always_inline)) int prof_issue_word_fast(prof_thread *t, uint64_t pc, uint64_t n)
{
    int64_t *const pw = t->pw, *const w = t->wd + pc; /* (prof_word_span's promise) */
    const int64_t x = *pw;
    if (__builtin_expect(*w < 0 && !(x & 1), 1)) {
        *pw = x + PROF_W_ONE(n + 1);
        t->pw = w;
        return 1;
    }
    return 0;
}
static inline __attribute__((always_inline)) void prof_issue_word_th(prof_thread *t, uint64_t pc, uint64_t cycle,
                                                                     uint64_t insns, int cause, uint64_t n)
{
    if (!prof_issue_word_fast(t, pc, n))
        prof_issue_word_slow(t, pc, cycle, insns, cause, n);
}
/* The word feed's pcs: every one below n (at most PROF_WINDOW), indexing the words directly
 * (no bound, no window base: word mode only in a window at 0). Call before the thread's
 * first word issue; the words come from the maps' budget, or, short of it, are words that
 * never count (every issue the row form's). Out of memory for even those stops the machine. */
void prof_word_span(prof_thread *t, uint64_t n);
/* The word feed's thread t issued last at cycle tl, with in instructions retired after it
 * (the contract above: before anything else reads t). */
static inline void prof_word_at(prof_thread *t, uint64_t tl, uint64_t in)
{
    t->tl = tl;
    t->in = in;
}
/* A new running stretch of thread t, whose last issue was at cycle last, begins at cycle r
 * (after a stop; its next issue's n counts from r): in word mode the time from last to r
 * goes to that issue's row as cycles, not as a stall (as prof_issue_stall_th charges it).
 * Nothing in the row form. */
void prof_word_resume_slow(prof_thread *t, uint64_t last, uint64_t r);
static inline void prof_word_resume(prof_thread *t, uint64_t last, uint64_t r)
{
    if (prof_word_mode(t))
        prof_word_resume_slow(t, last, r);
}
/* Word mode ends (the row form's state right again), e.g. where the caller cannot keep the
 * contract above. */
void prof_word_end(prof_thread *t);
/* prof_stall_th for a thread that may be in word mode (the open issue's row is its word's, in
 * the map while the word counts). */
static inline void prof_word_stall_th(prof_thread *t, int cause, uint64_t n)
{
    uint64_t *const r = __builtin_expect(prof_word_mode(t), 0) ? t->map[t->pw - t->wd] : t->row;
    r[PROF_STALLS + cause] += n;
    t->stalls[cause] += n;
}

/* For an ISA that passes stalls NULL: thread g's counter cause grew by n since the last time
 * it was charged, all of it since its previous issue (so the growth is that instruction's).
 * Call it before the next prof_issue of g (or before the run returns, for the last one). Not
 * in word mode (prof_word_stall_th). */
static inline void prof_stall_th(prof_thread *t, int cause, uint64_t n)
{
    t->row[PROF_STALLS + cause] += n;
    t->stalls[cause] += n;
}

static inline void prof_stall(struct prof_state *p, int g, int cause, uint64_t n)
{
    prof_stall_th(prof_th(p, g), cause, n);
}

/* Charge the growth of the stall counters (the thread's, absolute) since they were last
 * charged to the thread's last issue: for an ISA whose stalls grow only inside some
 * instructions (memory accesses through a generic executor), which calls this after those
 * and passes stalls NULL to every prof_issue. */
static inline void prof_stalls_th(prof_thread *t, const uint64_t *stalls)
{ /* (never in word mode: the ISAs that call this do not feed prof_issue_word_th) */
    prof_stall_delta(t->nstalls, t->row + PROF_STALLS, t->stalls, stalls);
}

static inline void prof_stalls(struct prof_state *p, int g, const uint64_t *stalls)
{
    prof_stalls_th(prof_th(p, g), stalls);
}

/* Batch counters, for a loop that knows each issue's cycles to the thread's next issue (a
 * DPU functional ring: its size) and wants to pay one subtraction per issue. prof_bat(t, n)
 * gives thread t a word per offset of its window below n: PROF_BAT_BIAS minus, for each
 * issue counted at pc base + off since the last fold, PROF_BAT_ONE(its cycles) (the count in
 * the low 32 bits, the cycles above), or 0 or PROF_BAT_OFF: not counting. Per issue the loop
 * subtracts PROF_BAT_ONE(cycles); when the word goes negative the pc is not counting (never
 * issued in a batch, its row not a plain mapped one, or an open call's return address,
 * which the slow path must see): the loop adds it back and calls prof_bat_touch, which
 * starts the pc counting (1: this issue counted) if its row is a plain mapped one, or says
 * no (0: the issue goes to prof_issue). The counts are additive like every other update of
 * a row, so they are folded into the rows only when the rows are read (prof_finish), where
 * the window's map drops a row (an open call's return address: the slow path does it), and
 * before the cycles could reach bit 62: the loop reports each batch's length in cycles
 * (prof_bat_span). The loop keeps closing and opening rows around its batches itself
 * (t->row). */
#define PROF_BAT_BIAS ((int64_t)1 << 62)
#define PROF_BAT_OFF (INT64_MIN / 2)
#define PROF_BAT_ONE(cycles) (1 + ((int64_t)(cycles) << 32))
/* Fold when the batches since the last fold spanned this many cycles (any pc's cycles are at
 * most that, and so is its count: 2^29 + 2^29 << 32 stays below the bias). */
#define PROF_BAT_SPAN ((uint64_t)1 << 29)
/* The words of t for offsets [0, n) (made or grown on first use), or NULL: no window, n past
 * it, or no memory (the loop feeds prof_issue instead). */
int64_t *prof_bat_grow(prof_thread *t, uint32_t n);
static inline int64_t *prof_bat(prof_thread *t, uint32_t n)
{
    return n <= t->nbat ? t->bat : prof_bat_grow(t, n);
}
/* n words that never count (for a loop's slot in no batch; the loop's transient updates are
 * taken back as above), or NULL: no memory. */
int64_t *prof_bat_poison(prof_state *p, uint32_t n);
/* Offset off of t's words, which went negative and was put back: 1 if it counts now (with
 * this issue, of PROF_BAT_ONE value one, counted), 0 if not. */
int prof_bat_touch(prof_thread *t, uint32_t off, int64_t one);
/* Every pending count of t into its rows. */
void prof_bat_fold(prof_thread *t);
/* Block words, for a loop that counts a pass through a straight run of offsets (a basic
 * block, entered at its first and left at its last) once, in its last offset's word:
 * blen[off] >= 1 at such an end is the run's length (offsets off - blen[off] + 1 .. off), and
 * the word's counts are each of the run's offsets' when it folds; 0 inside a run (the word
 * there takes only the loop's corrections: prof_bat_adjust). Thread t copies blen[0, n) under
 * key (a new key first folds what the words counted under the old table). An offset whose
 * row the map can drop (an open call's return address) must be a run of its own. 0: no
 * memory (then the words count offsets alone: the loop must not batch). */
int prof_bat_blocks_set(prof_thread *t, const uint16_t *blen, uint32_t n, uint64_t key);
static inline int prof_bat_blocks(prof_thread *t, const uint16_t *blen, uint32_t n, uint64_t key)
{
    return (t->bkey == key && t->nblen == n) || prof_bat_blocks_set(t, blen, n, key);
}
/* The run [first, last] of t starts counting (its last word went negative and was put back;
 * this pass, of value one per offset, counted there): 1, or 0 if some offset's row is not
 * a plain mapped one (then nothing counts). */
int prof_bat_touch_run(prof_thread *t, uint32_t first, uint32_t last, int64_t one);
/* Offset off's word takes v more (a multiple of PROF_BAT_ONE; negative: issues counted by a
 * run's pass that did not happen): 1, or 0 if its row is not a plain mapped one or no memory. */
int prof_bat_adjust(prof_thread *t, uint32_t off, int64_t v);
/* Derived stalls, for a loop whose every counted issue waited step - 1 cycles of one cause
 * before the thread's next issue (a DPU tasklet in a steady round of step tasklets: the
 * revolver): thread t's words charge cause (-1: none, the default) with their cycles minus
 * their count when they fold, so the loop's per-issue subtraction stays one. The loop keeps
 * the thread's counters right itself (prof_stall_total: (step - 1) for each counted issue
 * whose next issue came, at the batch's end, before any other feed of t) and charges the
 * stall before a batch's first issue to the row the batch closes, as prof_stall_th does.
 * Switching folds the words with the mode they counted in. */
void prof_bat_derive(prof_thread *t, int cause);
/* The thread's counter of cause grew by n, already charged to rows (a batch's derived stalls). */
static inline void prof_stall_total(prof_thread *t, int cause, uint64_t n) { t->stalls[cause] += n; }
/* A batch of t spanned n cycles: fold before the counts could overflow. */
static inline void prof_bat_span(prof_thread *t, uint64_t n)
{
    if ((t->bspan += n) >= PROF_BAT_SPAN)
        prof_bat_fold(t);
}

/* The hook path. Before an issue of (unit, thread): charge the thread's growth since its
 * previous record (th's counters now) to its previous instruction. After it executed: record
 * the issue at pc in cycle and charge what the instruction counted itself. Out of memory
 * stops the machine (SIM_STOP_ERROR). */
void prof_before(prof_state *p, int unit, int thread, const sim_thread *th);
void prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle, const sim_thread *th);
/* Charge every thread's last instruction up to its halt or the end of the run (the rows
 * read right only after it). */
void prof_finish(prof_state *p, const sim_machine *m);
/* Rows sorted by PC, then thread, into *out (malloc'd); returns the count or -1. With
 * thread >= 0 only that thread's rows. */
int prof_sorted(const prof_state *p, int thread, prof_entry **out);
/* Call edges (of thread, or all with thread < 0) with the calls still open counted up to
 * now, sorted by site, target, thread, into *out (malloc'd); the count or -1. */
int prof_edges(const prof_state *p, int thread, prof_edge **out);

#endif
