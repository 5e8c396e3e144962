/* isa/nyuzi/nyuzi.h: internal state and interfaces of the Nyuzi GPGPU model.
 * A machine has one physical memory (RAM from 0, devices at 0xFFFF0000), a shared L2 and
 * N cores; each core (an xpusim unit) has T hardware threads, TLBs, L1 caches and the
 * per-core control registers. Semantics (exec.c) are kept apart from timing (timing.c):
 * exec_insn() runs one predecoded instruction and reports what it did in a nyz_effect,
 * which the timing model turns into cycles. The instruction table (table.c) is the single
 * source of decode, disassembly and assembly. */
#ifndef XPUSIM_NYUZI_H
#define XPUSIM_NYUZI_H
#include <stdint.h>
#include <stdio.h>
#include "../isa.h"

#define NYZ_LANES 16
#define NYZ_LINE 64
#define NYZ_DEVICE_BASE 0xFFFF0000u
#define NYZ_PAGE 4096u
#define NYZ_MAX_THREADS 16
#define NYZ_MAX_CORES 16
/* The magic marker (sim_marker, fast-forward): `or ra, ra, ra`, a no-op that compilers
 * never emit (docs/isa/nyuzi.md "Functional mode and fast-forward") */
#define NYZ_MAGIC 0xc00f83ffu

/* Trap types (CR 3 bits 3:0). */
enum {
    NYZ_TT_RESET = 0, NYZ_TT_ILLEGAL, NYZ_TT_PRIVILEGED, NYZ_TT_INTERRUPT, NYZ_TT_SYSCALL,
    NYZ_TT_UNALIGNED, NYZ_TT_PAGE_FAULT, NYZ_TT_TLB_MISS, NYZ_TT_ILLEGAL_STORE,
    NYZ_TT_SUPERVISOR, NYZ_TT_NOT_EXEC, NYZ_TT_BREAKPOINT
};

/* ALU operations (6-bit op field). */
enum {
    NYZ_OP_OR = 0x00, NYZ_OP_AND = 0x01, NYZ_OP_SYSCALL = 0x02, NYZ_OP_XOR = 0x03,
    NYZ_OP_ADD_I = 0x05, NYZ_OP_SUB_I = 0x06, NYZ_OP_MULL_I = 0x07, NYZ_OP_MULH_U = 0x08,
    NYZ_OP_ASHR = 0x09, NYZ_OP_SHR = 0x0a, NYZ_OP_SHL = 0x0b, NYZ_OP_CLZ = 0x0c,
    NYZ_OP_SHUFFLE = 0x0d, NYZ_OP_CTZ = 0x0e, NYZ_OP_MOVE = 0x0f,
    NYZ_OP_CMPEQ_I = 0x10, NYZ_OP_CMPNE_I, NYZ_OP_CMPGT_I, NYZ_OP_CMPGE_I, NYZ_OP_CMPLT_I,
    NYZ_OP_CMPLE_I, NYZ_OP_CMPGT_U, NYZ_OP_CMPGE_U, NYZ_OP_CMPLT_U, NYZ_OP_CMPLE_U,
    NYZ_OP_GETLANE = 0x1a, NYZ_OP_FTOI = 0x1b, NYZ_OP_RECIPROCAL = 0x1c, NYZ_OP_SEXT8 = 0x1d,
    NYZ_OP_SEXT16 = 0x1e, NYZ_OP_MULH_I = 0x1f, NYZ_OP_ADD_F = 0x20, NYZ_OP_SUB_F = 0x21,
    NYZ_OP_MUL_F = 0x22, NYZ_OP_ITOF = 0x2a, NYZ_OP_CMPGT_F = 0x2c, NYZ_OP_CMPGE_F,
    NYZ_OP_CMPLT_F, NYZ_OP_CMPLE_F, NYZ_OP_CMPEQ_F = 0x30, NYZ_OP_CMPNE_F = 0x31,
    NYZ_OP_BREAK = 0x3e
};

/* Operand syntax of a table entry: decides field extraction, printing and parsing. */
typedef enum nyz_syn {
    SYN_NONE = 0,
    SYN_R_SSS, SYN_R_VVS, SYN_R_VSVS, SYN_R_VVV, SYN_R_VSVV,   /* two-source R forms */
    SYN_R1_SS, SYN_R1_VS, SYN_R1_VSS, SYN_R1_VV, SYN_R1_VSV,  /* one-source R forms (src2) */
    SYN_C_SSS, SYN_C_SVS, SYN_C_SVV,                          /* compares: scalar dest */
    SYN_I_SSI, SYN_I_VVI, SYN_I_VSVI,                         /* immediate forms */
    SYN_I_SI, SYN_I_VI, SYN_I_VSI,                            /* move immediate */
    SYN_C_SSI, SYN_C_SVI,                                     /* compare immediate */
    SYN_GL_SVS, SYN_GL_SVI,                                   /* getlane */
    SYN_MOVEHI, SYN_SYSCALL,
    SYN_M_S, SYN_M_V, SYN_M_VM, SYN_M_G, SYN_M_GM, SYN_M_CR,   /* memory */
    SYN_CC_PTR, SYN_CC_2REG,                                  /* cache control */
    SYN_B_REG, SYN_B_COND, SYN_B_OFF                          /* branches */
} nyz_syn;

/* What the executor does (predecoded dispatch). */
typedef enum nyz_kind {
    K_ILLEGAL = 0, K_NOP, K_ALU_SS, K_ALU_VS, K_ALU_VV, K_CMP_SS, K_CMP_VS, K_CMP_VV,
    K_ALU_SI, K_ALU_VI, K_CMP_SI, K_CMP_VI, K_GETLANE_R, K_GETLANE_I, K_SHUFFLE,
    K_SYSCALL, K_BREAK,
    K_LOAD, K_STORE, K_LOAD_SYNC, K_STORE_SYNC, K_GETCR, K_SETCR,
    K_LOAD_V, K_STORE_V, K_LOAD_GATH, K_STORE_SCAT,
    K_DTLBINSERT, K_ITLBINSERT, K_DINVALIDATE, K_DFLUSH, K_IINVALIDATE, K_MEMBAR,
    K_TLBINVAL, K_TLBINVALALL,
    K_B_REG, K_BZ, K_BNZ, K_B, K_CALL, K_CALL_REG, K_ERET
} nyz_kind;

/* Pipelines (issue rules and result latency). */
enum { NYZ_PIPE_INT = 0, NYZ_PIPE_MEM = 1, NYZ_PIPE_FP = 2 };

typedef struct nyz_opdef {
    const char *name;
    uint32_t match, mask;
    uint8_t syn;       /* nyz_syn */
    uint8_t kind;      /* nyz_kind */
    uint8_t alu;       /* ALU op / memory op / width code */
    uint8_t asm_ok;    /* 0: decode only (not produced by the assembler) */
} nyz_opdef;

extern const nyz_opdef nyz_optab[];
extern const int nyz_noptab;

/* Predecoded instruction. Register numbers 0-31 scalar, 32-63 vector in src/dst ids. */
typedef struct nyz_insn {
    uint32_t raw;
    uint8_t kind, alu, pipe, masked;
    uint8_t dst, s1, s2, mreg;   /* raw field values */
    int32_t imm;
    /* the RTL scoreboard's registers (table.c rtl_scoreboard): checked before issue (ids
     * 0..63, 0xff none) and made pending by it */
    uint8_t rd[4], wr;
    uint16_t def;                /* index into nyz_optab, for disassembly */
    uint8_t width;               /* memory access width in bytes (1,2,4) */
    uint8_t sext;
    uint16_t fop;                /* operation number (exec_ops.h; 0: nyz_decode alone) */
} nyz_insn;

int nyz_decode(uint32_t w, nyz_insn *out);             /* 0 ok, -1 illegal (out->kind K_ILLEGAL) */
void nyz_predecode(uint32_t w, nyz_insn *out);         /* nyz_decode and the operation number (exec.c) */
int nyz_disasm_word(uint32_t addr, uint32_t w, char *buf, size_t n);
int nyz_alu_is_fp_pipe(int op);

/* Saved trap state (two levels). */
typedef struct nyz_trapsave {
    uint32_t pc, cause, flags, subcycle, addr, syscall, scratch0, scratch1;
} nyz_trapsave;

enum { NYZ_F_I = 1, NYZ_F_M = 2, NYZ_F_S = 4 };

typedef struct nyz_thread {
    uint32_t s[32];
    uint32_t v[32][NYZ_LANES];
    uint32_t pc;
    uint32_t flags;
    uint32_t asid, page_dir, int_mask, latched;
    uint32_t subcycle;
    uint32_t sync_line;          /* line address of load_sync, or 1 (invalid: not aligned) */
    nyz_trapsave ts[2];
    int gid;                     /* global thread id */
    /* timing */
    /* cycle the register (0..63) may be read by a new issue; indexed by any nyz_insn rd/wr
     * byte so that the scoreboard needs no test for 0xff (none), whose entry is never
     * written and stays 0 */
    uint64_t reg_ready[256];
    uint64_t store_done;         /* first cycle a store-queue operation is taken: the pending
                                  * one's acknowledgement less NYZ_SQ_AHEAD (timing.c sq_done) */
    /* front end (pipeline.c): the instructions fetched and not yet issued, in order from
     * fe_pc; fe_vis is the cycle each can issue (fetch + 4), kept as a ring from fe_h */
    uint64_t fe_vis[8];
    const struct nyz_dcache_ent *fe_ent[8]; /* its decoded instruction (NULL: fetch faults) */
    uint32_t fe_pa[8];           /* its physical address (the decode entry may be reused) */
    uint32_t fe_pc, npc;         /* oldest fetched instruction; next pc to fetch */
    uint8_t fe_h, fe_n;          /* ring head; fetched, not yet dequeued (<= 8) */
    uint8_t fe_int;              /* ring bits: an interrupt was attached at decode */
    uint8_t fe_sync;             /* restart fetch at pc (reset, resume) */
    uint8_t fetch_full;          /* FIFO almost full: no fetch until an issue or flush */
    uint8_t sq_lanes;            /* lanes of a gather / scatter issued squashed (pipeline.c;
                                  * 0 whenever rb_at is: not in the memo key) */
    uint8_t ghost;               /* the next issue replays an access that was rolled back */
    uint8_t ghost_wr;            /* ... and makes this register ready load_lat after it */
    uint32_t ghost_pa;           /* ... or enters the store queue with this address */
    uint8_t ghost_full;          /* ... writing the whole line */
    uint8_t why, block_why;      /* first stall cause since the last issue; cause of blocked */
    uint64_t iwait;              /* waiting for an instruction line: fetch again from here */
    uint64_t waste_at;           /* a fetch for this thread in this cycle is dropped */
    uint64_t miss_at;            /* a fetch missed in L1I: the data stage sees it (0 none) */
    uint32_t miss_pc, miss_pa;
    uint8_t miss_fault;          /* ... and that fetch faults (it goes on as a trap) */
    uint64_t rb_at;              /* rollback due (writeback stage), 0 none */
    uint32_t rb_flags;           /* until then fetch goes on with these flags (MMU, mode) */
    uint32_t rb_pc;              /* where fetch restarts after it */
    uint64_t blocked;            /* suspended until (data miss, store queue, device, sync) */
    uint64_t last_issue;
    uint32_t undo;               /* its newest store's record's serial in nm->undo (0 none) */
    uint8_t rp_kind;             /* what its replay (ghost) is for timing.c: NYZ_RP_* */
    uint8_t sync_odd;            /* the RTL's dd_load_sync_pending: toggled by every load_sync
                                  * in the dcache data stage; set, a load_sync hits the L1D */
    uint32_t rp_pa;              /* ... and the address a replayed load reads */
    const struct nyz_dcache_ent *cur; /* fetched, not yet issued instruction (retry cache) */
    uint32_t cur_pc, cur_pa, cur_flags;
    uint32_t fl_old;             /* the flags before the last setcr of CR 4 ... */
    uint64_t fl_at;              /* ... which the fetch sees from this cycle (its issue + 3;
                                  * pipeline.c fetch_window) */
    uint64_t halt_at;            /* a setcr of CR 20 suspends it: its last fetch and issue
                                  * are at this cycle, the setcr's issue + 4 (0 none;
                                  * devices.c nyz_suspend_threads) */
} nyz_thread;

typedef struct nyz_tlb_entry {
    uint32_t va;                 /* page address; 1 = invalid */
    uint32_t pa_flags;
    uint32_t asid;
} nyz_tlb_entry;

/* What an L1 fill-list entry does when its cycle comes (nyz_cache.fill[].ack): a line read
 * takes the way the replacement flags point to; a store acknowledgement installs its line
 * (pseudo-LRU untouched); a dinvalidate's response drops the line. */
enum { NYZ_FILL_LINE = 0, NYZ_FILL_ACK = 1, NYZ_FILL_INVAL = 2 };

typedef struct nyz_cache {
    unsigned sets, ways, line_shift;
    uint32_t *tag;               /* sets*ways: line address, 0xffffffff invalid */
    uint64_t *lru;               /* last use stamp (ways other than 2, 4, 8) */
    uint8_t *plru;               /* pseudo-LRU flag bits per set (2, 4, 8 ways) */
    int plru_on;                 /* ways is 2, 4 or 8: plru and mru are kept */
    struct { uint32_t line, way; } *mru; /* per set: the line touched last (a repeat touch
                                             leaves the pseudo-LRU bits as they are) */
    uint8_t *dirty;
    uint64_t *ready;             /* cycle the line's fill completes (miss merging) */
    int last_way;                /* set*ways+way touched by the last access, -1 none */
    uint64_t stamp;
    uint64_t hits, misses;
    /* L1 caches: misses in flight; the line gets its way when the fill arrives (as
     * cache_lru.sv picks the victim on the fill), until then the old line stays */
    struct { uint32_t line; uint32_t ack; uint64_t at; } fill[16]; /* ack: NYZ_FILL_* */
    unsigned nfill;
    uint64_t next_fill;          /* earliest fill in flight (SIM_NEVER: none) */
    /* L1D: the last reads of the pseudo-LRU flags (cache_lru.sv's read port): the cycle,
     * the set and the flags read; a store acknowledgement installs its line in the way
     * the last read before it points to (timing.c l1_ack_install) */
    struct { uint64_t at; uint32_t set, flags; } lrd[16];
    unsigned lrd_n;
} nyz_cache;

/* Decoded-instruction cache entry keyed by physical address. */
typedef struct nyz_dcache_ent {
    uint32_t pa, raw;
    nyz_insn in;
} nyz_dcache_ent;

#define NYZ_NPERF 14
typedef struct nyz_core {
    int index;
    uint32_t trap_handler, tlb_miss_handler, level_trig;
    unsigned tlb_sets, tlb_ways;
    nyz_tlb_entry *itlb, *dtlb;
    nyz_tlb_entry *itlb_old;     /* the ITLB before the last TLB change (nyz_itlb_save) */
    uint64_t itlb_old_at;        /* the fetch cycle that still sees itlb_old (0: none) */
    unsigned next_itlb_way, next_dtlb_way;
    nyz_cache l1i, l1d;
    uint32_t perf_sel[2];
    uint64_t perf_count[2];
    uint64_t events[NYZ_NPERF];
    uint64_t wb_slot[8];         /* writeback port: cycle c's slot is taken if wb_slot[c & 7] == c */
    uint64_t due;                /* earliest rollback, fetch miss or restart to process */
    uint64_t halt_due;           /* earliest halt_at + 1 of its threads (0: none pending) */
    int frr;                     /* fetch arbiter: thread with priority next */
    uint64_t fetch_from, fetch_off; /* cycles the fetch leaves its plain path (pipeline.c):
                                  * a range holding tlb_from..tlb_off and the setcr windows
                                  * (fl_at) of the threads (none: 1, 0) */
    nyz_thread *t;
    int nthreads;
    uint64_t tlb_from, tlb_off;  /* cycles without fetch: a TLB change in the dcache tag
                                  * stage (one a cycle: back-to-back changes, a range; none:
                                  * 1, 0) */
} nyz_core;

typedef struct nyz_timing {
    unsigned int_lat, fp_lat, load_lat, l2_lat, mem_lat, store_lat;
    unsigned io_lat, sync_lat, mem_interval;
} nyz_timing;

/* What a thread's next replay is (nyz_thread.rp_kind; timing.c nyz_replay_timing). */
enum { NYZ_RP_NONE = 0, NYZ_RP_LOAD, NYZ_RP_SYNC, NYZ_RP_CODE, NYZ_RP_STORE /* (bus_log only) */ };

/* A load_sync or store_sync on its way to the L2 (l2_sync.c): decided when the L2's arbiter
 * grants it, in the arbiter's order. */
typedef struct nyz_sreq {
    uint64_t wake;               /* cycle its thread replays (moves with its grant until then) */
    uint64_t made;               /* cycle it issued (its entry in bus_log: nyz_bus_ent.issue) */
    uint32_t pa, va, pc, data;   /* addresses, the instruction's pc; a store_sync's data */
    uint8_t on, store, dst, width, sext, core, tid;
    uint8_t again;               /* a load_sync's second request (its result no cosim event) */
} nyz_sreq;

/* The memory bus and SDRAM state a line read changes (timing.c), and a data read that a
 * code line's request reaching the L2 earlier may still go before (timing.c bus_log). */
enum { NYZ_FQ = 32 };            /* fill FIFO entries kept (the RTL's has 8, l2_axi_bus_interface.sv) */
enum { NYZ_WBQ = 8 };            /* the write-back FIFO's entries (l2_axi_bus_interface.sv) */
typedef struct nyz_bus_state {
    uint64_t mem_free, fq_rst, sd_refresh, sd_idle, sd_wat;
    uint32_t sd_row[4], sd_wpa;
    uint64_t fq_e[NYZ_FQ], fq_r[NYZ_FQ]; /* the fill FIFO's entries: enqueue, restart */
    uint32_t fq_n;               /* entries ever queued */
    uint64_t bi_free, wr_free, wb_at[NYZ_WBQ]; /* l2_wb.c, timing.c nyz_bus_write */
    uint32_t wb_line[NYZ_WBQ], wb_n;
} nyz_bus_state;

typedef struct nyz_bus_ent {
    uint64_t b, done;            /* bus time (its grant + NYZ_FQ_REQ); the data's cycle for
                                  * its requester (0: not read yet) */
    uint64_t x;                  /* the cycle it reached the L2 (0: a grant fixed elsewhere) */
    uint32_t pa, victim;         /* line; the dirty L2 line its fill evicts, or ~0 */
    int l2way;
    uint8_t kind, core, tid, bus, lead; /* kind: NYZ_RP_LOAD, _SYNC, _CODE or _STORE */
    uint8_t coll;                /* a collided miss (no read of its own) */
    uint8_t used;                /* its grant's use of the L2 done (l2_fill.c nyz_l2_granted) */
    uint8_t whole;               /* NYZ_RP_STORE: a whole-line store */
    uint8_t st;                  /* NYZ_RP_STORE: 1 a store to a line the L2 holds, 2 a
                                  * whole-line store to one it lacks (nyz_store_restart),
                                  * NYZ_ST_MISS another store to one it lacks (a read);
                                  * NYZ_RP_SYNC: NYZ_ST_SYNC a store_sync (store queue) */
    uint8_t sqop;                /* NYZ_RP_STORE, st 1: 0 a store, else another store-queue
                                  * operation (timing.c sq_op_timing): NYZ_SQ_DINV a
                                  * dinvalidate, NYZ_SQ_OTHER a dflush or iinvalidate */
    uint32_t serial;             /* NYZ_RP_STORE: its record in nm->undo (l2_vis.c) */
    uint64_t issue;              /* the cycle its request was made (nm->cur_cycle) */
    uint64_t rst;                /* its own read's fill restart, as last read (0: none yet;
                                  * a collided miss of the line waits for it: nyz_l2_ready) */
} nyz_bus_ent;
/* A request reaches the L2 this many cycles before its bus time (timing.c FQ_REQ). */
enum { NYZ_FQ_REQ = 3 };
/* A store-queue operation issued this many cycles before the thread's pending one is
 * acknowledged is taken; one issued sooner rolls back and replays at the acknowledgement
 * (timing.c sq_done, pipeline.c). */
enum { NYZ_SQ_AHEAD = 4 };
/* A core's store queue may send its next operation this many cycles after one
 * (l1_store_queue.sv offers an entry every cycle; the sq_free spacing, nyz_arb_state.sqf). */
enum { NYZ_SQ_NEXT = 1 };
/* A store reaches the store queue (its data stage) this many cycles after it issues. */
enum { NYZ_SQ_COMBINE = 2 };
enum { NYZ_ST_SYNC = 3, NYZ_ST_MISS = 4, NYZ_ST_FLUSHW = 5 };
/* A dirty flush is acknowledged this many cycles after its write-back's bus time as a store
 * would be (timing.c). */
enum { NYZ_DFLUSH_EXTRA = 24 };
enum { NYZ_SQ_DINV = 1, NYZ_SQ_OTHER = 2 };

enum { NYZ_BUS_LOG = 24, NYZ_L2_SLOTS = 256, NYZ_ARB_MOVES = 64, NYZ_PLACED = 12, NYZ_PF = 16 };
enum { NYZ_WAY_PF = -2 }; /* nyz_bus_ent l2way: its fill is in nm->pf (l2_fill.c nyz_l2_settle) */
typedef struct nyz_placed {
    nyz_bus_ent e;
    nyz_bus_state before;
    uint64_t key;
} nyz_placed;
/* The L2 arbiter's state as it steps (bus_log.c nyz_arb_run): the cycle, the pointer
 * between cores, each core's load-miss queue's and store queue's pointers over its threads,
 * and the next cycle each core's store queue may send one (as sq_free). */
typedef struct nyz_arb_state {
    uint64_t y, sqf[NYZ_MAX_CORES];
    uint8_t cr, lq[NYZ_MAX_CORES], sq[NYZ_MAX_CORES];
} nyz_arb_state;
/* A change of that state in cycle y: a grant (the pointer between cores set to v; a
 * store's, NYZ_MV_GRANT_ST, also sets its core's queue's next cycle to sqf and its pointer
 * to sq, the one change for both) or core's store queue pointer set to v (NYZ_MV_SQ). (A
 * load-miss queue's pointer is not kept: a load offered is taken then or later, and no
 * settle continues while it is in the log.) */
enum { NYZ_MV_GRANT, NYZ_MV_GRANT_ST, NYZ_MV_SQ };
typedef struct nyz_arb_move {
    uint64_t y, sqf;
    uint8_t what, core, v, sq;
} nyz_arb_move;

typedef struct nyz_machine {
    sim_machine *m;
    mem_space *mem;
    uint8_t *ram;
    uint32_t ram_size;
    int ncores, nthreads;
    nyz_core *cores;
    nyz_cache l2;
    uint64_t mem_free;           /* next cycle the memory bus can start a line transfer */
    uint64_t fq_rst;             /* restart cycle of the L2 fill FIFO's last entry (timing.c) */
    uint64_t sd_refresh;         /* SDRAM: cycle the next auto refresh is due (0: not yet set) */
    uint64_t sd_idle;            /* SDRAM: first cycle its controller may refresh (timing.c SD_BURST) */
    uint32_t sd_row[4];          /* SDRAM: open row + 1 per bank, 0 = bank closed */
    uint64_t sd_wat;             /* SDRAM: the IDLE a write's second burst after a refresh waits at, */
    uint32_t sd_wpa;             /* and its line (0: none; mem_bus.c sd_wr_second) */
    uint64_t fq_e[NYZ_FQ], fq_r[NYZ_FQ]; /* the fill FIFO's entries: the cycle each was
                                  * queued and restarted (timing.c l2_accept) */
    uint32_t fq_n;               /* entries ever queued (the first fq_n of the arrays used) */
    uint64_t bi_free;            /* the first cycle the bus interface may restart a request
                                  * after the last write-back (timing.c nyz_bus_write) */
    uint64_t wr_free;            /* the first cycle the bus may start the next write (the same) */
    uint64_t wb_at[NYZ_WBQ];     /* write-backs waiting (l2_wb.c nyz_wb_push): their line, the */
    uint32_t wb_line[NYZ_WBQ], wb_n; /* first bus time the bus interface may take each */
    nyz_bus_ent *bus_log;        /* data reads a code line may still go before: bus_n from */
    unsigned bus_n;              /* here, in bus_mem (the final ones leave at the front: the
                                  * start moves on, the entries are moved back to bus_mem's
                                  * start only when fewer than NYZ_BUS_LOG slots are left) */
    nyz_bus_ent bus_mem[2 * NYZ_BUS_LOG];
    uint64_t sq_free[NYZ_MAX_CORES]; /* next cycle the L2 accepts a store from this core (timing.c) */
    uint64_t l2_slot[NYZ_L2_SLOTS]; /* cycles the L2's arbiter has taken a request in (by
                                  * cycle % NYZ_L2_SLOTS) */
    /* the L2's arbiter (bus_log.c nyz_arb_run): its grants before arb_y
     * are final; then its pointer between cores and each core's load-miss queue's */
    uint64_t arb_y;
    nyz_bus_state arb_before;    /* the bus state before bus_log's first entry's read */
    uint8_t arb_core, arb_lq[NYZ_MAX_CORES], arb_sq[NYZ_MAX_CORES]; /* (arb_sq: store queues') */
    /* where the last settle ended (arb_t), valid (arb_tok) while every entry it left
     * (arb_tn) is a store to a line the L2 holds and nothing else moved the bus: a new
     * entry is settled from the cycle it reaches the L2 on, the grants before it kept; the
     * state there and at a later final cycle is arb_y's with the changes after it (arb_mv:
     * a ring from arb_mv0) */
    nyz_arb_state arb_t;
    /* the fill FIFO's reads and restarts placed on several cores whose bus-interface IDLE
     * may still come after a flush's write-back (bus_log.c nyz_flush_write): each with the
     * bus state before it and that IDLE's cycle (nyz_bus_read etc. set bi_key) */
    nyz_placed placed[NYZ_PLACED];
    unsigned pl_n;
    /* fills whose grant is final, their L2 way taken at their restart (l2_fill.c
     * nyz_l2_settle): line, restart, whether a store writes it */
    struct { uint32_t line, pv; uint8_t write, uses; uint64_t rst; } pf[NYZ_PF]; /* (pv: the
                                  * dirty victim its read was placed with, or ~0) */
    unsigned pf_n;
    uint8_t pf_moved; /* (a fill's write-back placed final reads again: bus_log.c nyz_bus_replace) */
    uint64_t bi_key;
    unsigned flw_n; /* dirty flushes in bus_log (timing.c sq_op_timing) */
    uint8_t arb_tok, arb_full; /* arb_full: never continue (tests compare the two ways) */
    unsigned arb_tn, arb_mv0, arb_nmv;
    nyz_arb_move arb_mv[NYZ_ARB_MOVES];
    nyz_timing tm;
    uint64_t cur_cycle;          /* cycle of the instruction being executed */
    /* devices */
    uint32_t int_levels;         /* level-sensitive interrupt lines */
    uint32_t timer_count;
    ev_event timer_ev;
    ev_event flush_ev; /* a dirty flush's grant made final (bus_log.c nyz_flush_event) */
    uint32_t fb_base, vga_enable;
    uint32_t *fb_pixels;
    /* decode cache */
    nyz_dcache_ent *dc;
    uint32_t dc_mask;
    /* cosimulation event stream */
    FILE *cosim;
    int resched;                 /* an event or another unit changed: leave unit_run */
    int run_core;                /* the core unit_run runs (bus_log.c wakes the others) */
    /* stores that other threads do not see yet (l2_vis.c): memory holds every store from
     * its issue on; a load of another thread at a cycle before `vis` reads the old bytes */
    struct nyz_undo {
        uint64_t vis;            /* first cycle other threads see the store (MAX: unknown) */
        uint64_t l2vis;          /* ... and the L2's read stage (a load_sync): a store_sync's
                                  * grant, else vis */
        uint64_t bytes;          /* which of the 64 bytes of the line it wrote */
        uint32_t line;           /* line address */
        int gid;                 /* storing thread */
        uint32_t serial;         /* which store (nyz_thread.undo) */
        uint64_t made;           /* cycle of the store's issue */
        uint8_t old[64];         /* the line's bytes before the store */
    } undo[64];
    unsigned nundo;
    uint32_t undo_serial;        /* serial of the newest record */
    uint8_t undo_on;             /* a second thread was started: keep records */
    uint8_t sync_used;           /* a load_sync ran: stores must clear reservations */
    /* synchronized requests not decided yet (l2_sync.c; by global thread id; their grants
     * are bus_log's) */
    unsigned sa_npend;
    nyz_sreq sreq[32];
    /* functional mode (func.c): enter the lines the program touches in the L1/L2 tags even
     * when no fast-forward is armed (tests) */
    uint8_t warm;
    /* memoized periods of the cycle model (memo.c; -o nyuzi_memo), NULL when off */
    struct nyz_memo *memo;
} nyz_machine;

/* What one execution did (for timing, tracing and cosim). */
typedef struct nyz_effect {
    uint8_t trapped;             /* a trap was raised (PC already moved) */
    uint8_t taken;               /* control transfer: PC not PC+4 */
    uint8_t mem;                 /* 1 load, 2 store, 3 sync, 4 io, 5 cache op */
    uint8_t retired;             /* instruction completed (last subcycle of gathers) */
    uint8_t full_line;           /* a store that writes a whole cache line */
    uint32_t paddr;              /* physical address touched */
} nyz_effect;

/* exec.c */
void nyz_exec(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in, nyz_effect *ef);
void nyz_raise_trap(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, int type,
                    int is_store, int is_data, uint32_t addr, uint32_t syscall);
int nyz_translate(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t va, uint32_t *pa,
                  int is_store, int is_data, uint32_t pc);
int nyz_fetch_peek(const nyz_machine *nm, const nyz_core *c, const nyz_thread *t, uint32_t flags,
                   uint32_t pc, uint32_t *pa);
int nyz_fetch_peek_in(const nyz_machine *nm, const nyz_core *c, const nyz_tlb_entry *itlb,
                      const nyz_thread *t, uint32_t flags, uint32_t pc, uint32_t *pa);
void nyz_itlb_save(nyz_machine *nm, nyz_core *c);
void nyz_fetch_window(nyz_core *c, uint64_t now, uint64_t from, uint64_t off);
uint32_t nyz_pending_ints(nyz_machine *nm, nyz_core *c, nyz_thread *t);
void nyz_thread_reset(nyz_thread *t, int gid);
uint32_t nyz_read_cr(nyz_machine *nm, nyz_core *c, nyz_thread *t, int cr);
void nyz_write_cr(nyz_machine *nm, nyz_core *c, nyz_thread *t, int cr, uint32_t v);

/* devices.c */
int nyz_dev_read(nyz_machine *nm, uint32_t pa, uint32_t *val);
int nyz_dev_write(nyz_machine *nm, uint32_t pa, uint32_t val);
void nyz_raise_interrupt(nyz_machine *nm, uint32_t bits);
uint64_t nyz_now(nyz_machine *nm);
void nyz_resume_threads(nyz_machine *nm, uint32_t mask);
void nyz_suspend_threads(nyz_machine *nm, uint32_t mask);
void nyz_suspend_due(nyz_machine *nm, sim_unit *u, int tid);

/* Stall causes (the unit's stall_names order). */
enum { NYZ_ST_SCOREBOARD, NYZ_ST_ICACHE, NYZ_ST_DCACHE, NYZ_ST_STORE, NYZ_ST_ROLLBACK, NYZ_ST_WB,
       NYZ_ST_IO, NYZ_ST_ISSUE, NYZ_ST_NONE = 0xff };

/* timing.c: caches, memory, and the memory side of an executed instruction */
int nyz_cache_init(nyz_cache *c, unsigned size, unsigned ways, unsigned line);
void nyz_cache_free(nyz_cache *c);
int nyz_cache_access_slow(nyz_cache *c, uint32_t addr, int allocate, int write);
/* 1 hit, 0 miss (the line is filled when allocate). The set's last touch again changes no
 * replacement state: tested here, inline, as most accesses are that (cache.c does the rest). */
/* A hit in way index i (set * ways + way): its count, its dirty mark, the last way. */
static inline int nyz_cache_hit(nyz_cache *c, unsigned i, int write)
{
    if (write)
        c->dirty[i] = 1;
    c->hits++;
    c->last_way = (int)i;
    return 1;
}
static inline int nyz_cache_access(nyz_cache *c, uint32_t addr, int allocate, int write)
{
    const uint32_t line = addr >> c->line_shift;
    const unsigned set = line & (c->sets - 1);
    if (c->plru_on && c->mru[set].line == line)
        return nyz_cache_hit(c, set * c->ways + c->mru[set].way, write);
    return nyz_cache_access_slow(c, addr, allocate, write);
}
int nyz_cache_probe(const nyz_cache *c, uint32_t addr);
/* The slot (set * ways + way) holding addr's line, or -1; no use of the way. */
int nyz_cache_slot(const nyz_cache *c, uint32_t addr);
void nyz_cache_touch(nyz_cache *c, uint32_t addr);
uint32_t nyz_cache_dirty_victim(const nyz_cache *c, uint32_t pa);
uint32_t nyz_cache_victim_after(const nyz_cache *c, uint32_t addr, const uint32_t *ahead,
                                const uint8_t *dirty, unsigned n);
/* the way a miss in a set with pseudo-LRU flags f replaces (cache_lru.sv) */
unsigned nyz_plru_victim(unsigned f, unsigned ways);
void nyz_cache_invalidate(nyz_cache *c, uint32_t addr);
unsigned nyz_l1_access(nyz_machine *nm, nyz_cache *c, uint32_t pa, uint64_t now, unsigned lead);
unsigned nyz_fill_latency(nyz_machine *nm, uint32_t pa, int write, uint64_t now, unsigned lead,
                          int core);
/* The memory bus (timing.c) and the fill FIFO's order (bus_log.c). */
/* 1 if the L2 takes no request at cycle x (its fill FIFO almost full, or a restart). */
int nyz_l2_stalled(const nyz_machine *nm, uint64_t x);
uint64_t nyz_bus_read(nyz_machine *nm, uint32_t pa, uint32_t victim, uint64_t b, unsigned bus,
                      unsigned lead, uint64_t *rst);
uint64_t nyz_bus_collided(nyz_machine *nm, uint64_t rst, uint64_t now, unsigned bus,
                          unsigned lead);
void nyz_bus_fix(nyz_machine *nm);
/* bus_log entry e's L2 way and victim, taken if its grant is final (timing.c); the restart
 * of the fill of e's line if the L2 holds it or bus_log reads it, else 0. */
uint32_t nyz_l2_fill(nyz_machine *nm, nyz_bus_ent *e, int final, int *way);
uint64_t nyz_store_miss_ack(const nyz_machine *nm, uint64_t acc, uint64_t done);
uint64_t nyz_l2_ready(const nyz_machine *nm, const nyz_bus_ent *e);
uint64_t nyz_arb_run(nyz_machine *nm, uint64_t fin);
/* Thread tid of core may issue (tid < 0: one of its threads fetch) from cycle w on, sooner
 * than its core expected: its ready_at moves, and its core, if not the one running, wakes. */
void nyz_core_sooner(nyz_machine *nm, int core, int tid, uint64_t w);
/* A read of bus_log that answers at nd instead of e->done: its waiters and L1 fill moved; a
 * synchronized request's answer at done (bus_retime.c). */
void nyz_bus_retime(nyz_machine *nm, nyz_bus_ent *e, uint64_t nd);
void nyz_sync_move(nyz_machine *nm, const nyz_bus_ent *e, uint64_t done);
uint64_t nyz_store_restart(nyz_machine *nm, uint64_t acc, int way, int mine, uint32_t victim);
/* A line written to memory from bus cycle `from` on: its transfer's start (timing.c). */
uint64_t nyz_bus_write(nyz_machine *nm, uint32_t pa, uint64_t from);
uint64_t nyz_flush_write(nyz_machine *nm, uint32_t pa, uint64_t from);
/* The L2's write-backs waiting (l2_wb.c): queue the dirty victim of a fill restarted at rst;
 * write those the bus interface takes before a transfer at bus time b; the cycle a restart
 * due at r comes. */
void nyz_wb_push(nyz_machine *nm, uint32_t line, uint64_t rst);
void nyz_wb_drain(nyz_machine *nm, uint64_t b);
uint64_t nyz_bi_restart(nyz_machine *nm, uint64_t r);
uint64_t nyz_store_ack_moved(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t serial,
                             uint32_t pa, uint64_t od, uint64_t nd, uint64_t *nw);
uint64_t nyz_sqop_moved(nyz_machine *nm, const nyz_bus_ent *e, uint64_t od, uint64_t nd, uint64_t *nw);
uint64_t nyz_flush_final(nyz_machine *nm, const nyz_bus_ent *e);
uint64_t nyz_flush_place(nyz_machine *nm, uint32_t pa, uint64_t from);
void nyz_flush_arm(nyz_machine *nm);
void nyz_flush_event(ev_event *e, void *ctx);
void nyz_bus_save_first(nyz_machine *nm);
/* A new entry of bus_log (the bus state saved if it is the only one; the caller applies it
 * and sets done): inline, as it is made for every store on several cores. */
static inline nyz_bus_ent *nyz_bus_log_add(nyz_machine *nm, uint64_t b, uint32_t pa, uint32_t victim,
                                           int way, int kind, const nyz_core *c, const nyz_thread *t,
                                           unsigned bus, unsigned lead)
{
    if (!nm->bus_n)
        nyz_bus_save_first(nm);
    nyz_bus_ent *e = &nm->bus_log[nm->bus_n++];
    e->b = b;
    e->pa = pa;
    e->victim = victim;
    e->l2way = way;
    e->coll = 0;
    e->used = 0;
    e->whole = 0;
    e->kind = (uint8_t)kind;
    e->core = (uint8_t)c->index;
    e->tid = t ? (uint8_t)(t - c->t) : 0;
    e->bus = (uint8_t)bus;
    e->lead = (uint8_t)lead;
    e->x = 0;
    e->done = 0;
    e->st = 0;
    e->sqop = 0;
    e->serial = 0;
    e->issue = nm->cur_cycle;
    e->rst = 0;
    return e;
}
void nyz_l1_settle(nyz_cache *c, uint64_t now);
void nyz_l2_settle(nyz_machine *nm, uint64_t at);
void nyz_bus_replace(nyz_machine *nm, uint64_t rst, int after);
void nyz_l2_pend(nyz_machine *nm, nyz_bus_ent *e, uint64_t rst, uint32_t victim);
void nyz_l2_granted(nyz_machine *nm, nyz_bus_ent *e, int place);
void nyz_l2_use(nyz_machine *nm, uint32_t pa);
void nyz_wb_push_saved(nyz_bus_state *s, uint32_t line, uint64_t rst);
int nyz_wb_fix(uint64_t *at, uint32_t *line, uint32_t *n, uint32_t was, uint32_t now, uint64_t rst);
int nyz_l1_fill_pending(const nyz_cache *c, uint32_t pa, uint64_t *at);
void nyz_l1_fill_add(nyz_cache *c, uint32_t pa, uint64_t at);
int nyz_store_combine(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa, uint64_t now);
void nyz_store_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa, int full,
                      uint64_t now);
uint64_t nyz_mem_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in,
                        const nyz_effect *ef, uint64_t now, unsigned *lat, uint8_t *why);

uint64_t nyz_replay_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint64_t now);

/* l2_sync.c: load_sync/store_sync decided at the L2 in its arbiter's order */
void nyz_sync_request(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in,
                      uint32_t va, uint32_t pa, uint32_t pc);
uint64_t nyz_sync_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint64_t now);
void nyz_sync_settle(nyz_machine *nm, uint64_t now);
void nyz_sync_again(nyz_machine *nm, nyz_thread *t, uint64_t now);
int nyz_sync_l1_hit(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa);
uint64_t nyz_sync_wake(const nyz_machine *nm, const nyz_bus_ent *e, uint64_t done);
void nyz_sync_grant(nyz_machine *nm, const nyz_bus_ent *e);

/* l2_vis.c: when other threads see a store */
void nyz_undo_store(nyz_machine *nm, nyz_thread *t, uint32_t pa, unsigned len, uint64_t bytes);
void nyz_undo_visible(nyz_machine *nm, nyz_thread *t, uint64_t vis);
void nyz_undo_visible_l2(nyz_machine *nm, nyz_thread *t, uint64_t vis, uint64_t l2vis);
void nyz_undo_read(nyz_machine *nm, const nyz_thread *t, uint32_t pa, unsigned len, uint8_t *buf);
void nyz_undo_read_at(const nyz_machine *nm, const nyz_thread *t, uint32_t pa, unsigned len,
                      uint8_t *buf, uint64_t at);

/* pipeline.c */
uint64_t nyz_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
/* isa_ops.counters_sync: the unit's counters set to its core's events (the plain loops leave
 * them to this; the others copy them after every call). */
void nyz_counters_sync(sim_machine *m, sim_unit *u);

/* func.c: the functional mode (-o timing=none) and the hand-over to the cycle model */
uint64_t nyz_func_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
void nyz_timing_resume(sim_machine *m);

/* Decoded instruction at physical address pa (pa + 4 <= ram_size), from the decode cache:
 * decoded again when the word there changed (code written by the program). */
static inline const nyz_dcache_ent *nyz_decode_at(nyz_machine *nm, uint32_t pa)
{
    uint32_t w = mem_ld32le(nm->ram + pa);
    nyz_dcache_ent *e = &nm->dc[(pa >> 2) & nm->dc_mask];
    if (e->pa != pa || e->raw != w) { /* (e->in.raw == e->raw: both set together) */
        nyz_predecode(w, &e->in);
        e->pa = pa;
        e->raw = w;
    }
    return e;
}

/* cosim.c */
void nyz_cosim_swb(nyz_machine *nm, uint32_t pc, int tid, int reg, uint32_t val);
void nyz_cosim_vwb(nyz_machine *nm, uint32_t pc, int tid, int reg, uint32_t mask, const uint32_t *vals);
void nyz_cosim_store(nyz_machine *nm, uint32_t pc, int tid, uint32_t addr, unsigned size, uint32_t val);
void nyz_cosim_vstore(nyz_machine *nm, uint32_t pc, int tid, uint32_t addr, uint32_t mask, const uint32_t *vals);

/* asm.c */
/* The Nyuzi assembler's -o options (asm.c). */
extern const opt_desc nyz_asm_options[];
int nyz_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts,
                 char *err, size_t errlen);
/* Encode one instruction line (no labels): tests and the debugger. 0 ok. */
int nyz_asm_line(const char *text, uint32_t pc, uint32_t *word, char *err, size_t errlen);

/* hex.c: elf2hex text into memory */
int nyz_hex_load(const uint8_t *text, size_t len, uint8_t *mem, uint32_t memsize,
                 uint32_t *top, char *err, size_t errlen);

#endif
