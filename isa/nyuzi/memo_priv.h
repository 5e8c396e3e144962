/* isa/nyuzi/memo_priv.h: the memoized periods' record (memo.c), shared with the parts that
 * serve the debugger and the profile (memo_dbg.c): a period's steps, the profile's stall
 * reports, the memo's state. Private to those files. */
#ifndef XPUSIM_NYUZI_MEMO_PRIV_H
#define XPUSIM_NYUZI_MEMO_PRIV_H
#include "memo.h"
#include "../../core/profile.h"

enum {
    MAX_STEPS = 16384, /* issues in a period */
    MAX_SETS = 128,    /* cache sets a period touches, per cache */
    MAX_CODE = 512,    /* instruction words whose content a period depends on */
    /* An issued instruction is followed by at most RB_MEM (4) squashed issues of the words
     * after it, whose decoded content (registers, pipe) the scoreboard and writeback port
     * read: a period depends on its executed words and the 4 after each (other fetched
     * words are dropped unread). */
    CODE_AFTER = 4,
    BACKOFF_MAX = 16384, /* hooks skipped after a failure, at most (a recording attempt with
                         * its copy of the caches costs some 30,000 host instructions) */
    MAX_PEV = 2 * MAX_STEPS, /* the profile's stall reports of a period (memo_pev) */
    CODE_HASH = 4 * MAX_CODE, /* slots of the recording's table of code words */
};

/* what a step writes, for its undo */
enum { SV_NONE, SV_S, SV_RA, SV_V, SV_MEM };

typedef struct memo_step {
    nyz_insn in;                 /* as decoded (the words are checked at a chain's start) */
    uint32_t pc, raw, paddr, npc;
    uint32_t rel;                /* cycle of the issue less the period's start */
    uint32_t amask;              /* address bits the replay must find as recorded */
    uint32_t align;              /* ... and the alignment it needs (no trap) */
    uint32_t gap;                /* the stall cycles before the issue (cause gcause), which
                                  * the profile charges to this instruction */
    uint32_t pre;                /* its first stall report before the issue (memo_pev) */
    uint8_t tid, mem, save, dst, memk, wide, gcause, npre;
} memo_step;

/* A stall the profile charges to a thread's open row (its last executed instruction): the
 * gaps of the issues that executed nothing (squashed, replayed, rolled back) between two
 * executed ones, which the cycle model reports one by one with prof_stall. */
typedef struct memo_pev {
    uint32_t n;
    uint8_t cause, tid;
} memo_pev;

typedef struct memo_log {        /* what step j overwrote */
    uint32_t pc, line;           /* (line: a store's) */
    uint32_t w[16];              /* the register(s), or the line's 64 bytes */
} memo_log;

/* Statistics a period adds (not part of the key). */
typedef struct memo_counts {
    uint64_t insns[NYZ_MAX_THREADS], issues[NYZ_MAX_THREADS];
    uint64_t stalls[NYZ_MAX_THREADS][NYZ_ST_ISSUE + 1];
    uint64_t events[NYZ_NPERF];
    uint64_t hits[3], misses[3];
    uint32_t serial;
} memo_counts;

struct nyz_memo {
    nyz_memo_hot h;              /* first: the inline hook's (memo.h) */
    int mode;
    uint64_t backoff;
    /* the recording or the record */
    uint64_t base, horizon, insn0, len;
    memo_step *steps;
    unsigned nsteps;
    uint16_t sets[3][MAX_SETS];
    unsigned nsets[3];
    uint32_t code[MAX_CODE], code_word[MAX_CODE]; /* addresses and contents */
    unsigned ncode;
    /* recording: the code words and sets seen (memo.c add_code, add_set): a slot or set is
     * in when it holds the generation gen; chash: the word's address, bit 0 set when the
     * words after it were added too */
    uint32_t gen, cgen[CODE_HASH], chash[CODE_HASH];
    uint32_t *sgen[3];
    unsigned nsgen[3];
    uint32_t tpc[NYZ_MAX_THREADS]; /* recording: each thread's pc after its last issue */
    uint32_t spc[NYZ_MAX_THREADS]; /* ... and at the start (ready threads; else ~0) */
    uint64_t sprev[NYZ_MAX_THREADS][NYZ_ST_ISSUE + 1]; /* recording: stalls at the last step */
    uint64_t iprev[NYZ_MAX_THREADS]; /* ... and issues */
    memo_pev *pev;               /* the profile's stall reports: steps' (memo_step.pre) */
    unsigned npev, tail;         /* ... and from tail on, those after the period's last step */
    struct memo_pd { uint64_t *w, d; } *pd; /* --profile, steady periods: what each adds */
    unsigned npd, cpd;
    uint32_t bp_gen;             /* the breakpoint filter the record was checked against (0:
                                  * none yet), and whether one of its pcs is flagged */
    int bp_hit;
    unsigned *umap;              /* created undo record k (serial start + k + 1): its step */
    unsigned nu;
    unsigned ci;                 /* check mode: the next step of the period being checked, */
    unsigned dry_stop;           /* ... where a replay of it stops (nsteps: none), */
    uint64_t dry_hash;           /* ... and what that replay leaves (memo.c arch_hash) */
    unsigned aocc, miss;         /* the anchor's issues in a period; at it, keys not matched */
    unsigned zero;               /* chains in a row that stopped in their first period */
    uint32_t serial0;
    memo_counts c0, delta;
    uint64_t *k0, *key, *tmp;    /* start key (generic part), the period's key, scratch */
    size_t nk0, nkey;
    nyz_memo_view start[3];              /* the caches at the recording's start */
    memo_log *log;
    struct nyz_undo *usave;
    struct {                     /* what it did (check mode reports it) */
        uint64_t recorded, replayed, checked, insns, fails;
    } st;
};

enum { S_IDLE = NYZ_MEMO_IDLE, S_REC = NYZ_MEMO_REC, S_CHECK = NYZ_MEMO_CHECKING };

/* memo_dbg.c */
/* May the record be replayed (or checked) with the debugger's breakpoints and watchpoints
 * as they are? */
int nyz_memo_dbg_allows(nyz_memo *mo, nyz_machine *nm, const sim_unit *u);
/* --profile: feed one replayed period from base (ins: each thread's retired count at it). */
void nyz_memo_feed(const nyz_memo *mo, prof_thread *const *pt, uint64_t base, const uint64_t *ins);
/* --profile: 1 if the next period is steady; then mo->pd is what each such period adds. */
int nyz_memo_pd_build(nyz_memo *mo, prof_thread *const *pt, int nt);

#endif
