/* isa/mccp/mccp.h: private interface of the MCCP ("videocard" cores, yewhenp/PureFPGA) model.
 * MCCP has 4 non-pipelined cores (CPI 4), each with a private 8192-word ROM holding 16-bit
 * instructions in pairs (high half first) or one 32-bit movl/movh, and one shared 64K-word
 * data RAM reached through a round-robin arbiter that serves one transaction at a time.
 * This header holds the instruction table types (table.c: the single source of decode,
 * disassembly and assembly), the per-core and per-machine state, and the functions the
 * files of isa/mccp/ share. Semantics follow the HEAD RTL by default; MCCP_SEM_DOC selects
 * the documented behaviour (see docs/isa/mccp.md for every difference). */
#ifndef XPUSIM_MCCP_H
#define XPUSIM_MCCP_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../isa.h"

#define MCCP_CORES 4
#define MCCP_ROM_WORDS 8192u
#define MCCP_RAM_WORDS 65536u
#define MCCP_CLOCK_HZ 1e6
#define MCCP_MARKER_HALF 0x3FFFu /* docs/isa/mccp.md "Fast-forward marker" */
/* the profiled loop's flow words and stamps per core (fast.c): a word per slot and the two
 * past the last (a flow that ends there), and 254 more so that the cores' words and the
 * records (8 bytes per slot too) sit 2 KiB apart modulo 4 KiB: a store whose address
 * matches a later load's in its low 12 bits delays that load on the host */
#define MCCP_PROF_STRIDE (2 * MCCP_ROM_WORDS + 256u)
#define MCCP_PROF_WALKS 32 /* walks per call of the profiled loop's copy 2 */

/* Instruction formats (Verilog bit numbering, bit 15 = MSB of a 16-bit instruction). */
typedef enum mccp_fmt {
    MCCP_F_ALU2,  /* 01 oooo cccc ddd sss */
    MCCP_F_ALU1,  /* 01 oooo cccc ddd 000 (not/inc/dec; op2 field reads reg0) */
    MCCP_F_MEM,   /* 00 oooo cccc ddd sss (load/store/mov; assembler writes cond MSB as 0/1) */
    MCCP_F_REG,   /* 00 ooooo rrr 000000  (movf, je..jmp) */
    MCCP_F_SPEC,  /* 00 ooooo cccc rrr 00 (coreidx, msb, mse, sb, excl) */
    MCCP_F_INT,   /* 00 ooooo cccc nnn 00 */
    MCCP_F_IMM,   /* 32-bit: 1 0 ooooo cccc rrr 00 iiii...i (movl/movh) */
    MCCP_F_NONE   /* in the assembler's table but not encodable (loadl/storec/jst/jnst) */
} mccp_fmt;

typedef enum mccp_op {
    MCCP_ADD, MCCP_ADDC, MCCP_SUB, MCCP_SUBC, MCCP_MUL, MCCP_DIV, MCCP_AND, MCCP_OR,
    MCCP_XOR, MCCP_LSH, MCCP_RSH, MCCP_NOT, MCCP_CMP, MCCP_INC, MCCP_DEC, MCCP_ALU15,
    MCCP_LOAD, MCCP_STORE, MCCP_MOV, MCCP_MOVH, MCCP_MOVL, MCCP_MOVF,
    MCCP_JE, MCCP_JNE, MCCP_JGT, MCCP_JGE, MCCP_JLT, MCCP_JLE, MCCP_JMP,
    MCCP_COREIDX, MCCP_INT, MCCP_MSB, MCCP_MSE, MCCP_SB, MCCP_EXCL,
    MCCP_LOADL, MCCP_STOREC, MCCP_JST, MCCP_JNST,
    MCCP_MARKER,  /* the half 0x3FFF (opcode 11111, a decoder no-op): the fast-forward marker */
    MCCP_NOOP,    /* 16-bit opcodes the decoder ignores: 00110, 00111, 10110..11111 */
    MCCP_NOPS
} mccp_op;

typedef struct mccp_desc {
    const char *name;
    uint8_t op;       /* mccp_op */
    uint8_t fmt;      /* mccp_fmt */
    uint8_t code;     /* 4-bit ALU/MEM opcode ([13:10]) or 5-bit opcode ([13:9] / [29:25]) */
} mccp_desc;

extern const mccp_desc mccp_table[];
extern const int mccp_table_len;
extern const char *const mccp_cond_names[16];
extern const char *const mccp_reg_names[8];

/* A decoded instruction. */
typedef struct mccp_insn {
    uint8_t op, cond, r1, r2;   /* r1: dest/data/jump/int-number field, r2: source/address */
    uint8_t len;                /* 1 = 16-bit slot, 2 = 32-bit word */
    uint16_t imm;
    uint32_t raw;               /* the 16 or 32 bits */
} mccp_insn;

const mccp_desc *mccp_desc_find(const char *name);
const mccp_desc *mccp_desc_of(int op);
/* Decode the instruction executed from ROM word w with half select (0 = high, 1 = low):
 * a word with bit 31 set is a 32-bit movl/movh whatever the half (as in instr_decoder.v). */
void mccp_decode(uint32_t w, int half, mccp_insn *out);
void mccp_decode16(uint16_t h, mccp_insn *out);
/* Encoders used by the assembler and the tests (fields already range-checked). */
uint16_t mccp_enc_alu(int code, int cond, int rd, int rs);
uint16_t mccp_enc_mem(int code, int cond, int r1, int r2);
uint16_t mccp_enc_reg(int code, int r);
uint16_t mccp_enc_spec(int code, int cond, int r);
uint32_t mccp_enc_imm(int code, int cond, int r, uint16_t imm);
/* Disassembly text of one decoded instruction (assembler syntax). */
int mccp_format(const mccp_insn *in, char *buf, size_t n);

/* Decoded ROM words for the reference loop and the rare instructions of the fast loop:
 * two decoded halves per word, checked against the ROM word at every use (exec.c). */
typedef struct mccp_pd {
    uint32_t word;
    uint8_t valid;
    mccp_insn in[2];
} mccp_pd;

/* The fast loop's record of one ROM slot (fast.c): a handler, the fields it needs and the
 * slots to the next instruction. Made on first execution, reset when the ROM word changes
 * (checked once per run call against rom_seen) or the breakpoint filter changes. */
typedef struct mccp_rec {
    uint8_t k;       /* handler (fast.c) */
    uint8_t k2;      /* handler once the condition holds (k = conditional) */
    uint8_t cond;    /* condition, or jump kind */
    uint8_t r1, r2;
    uint8_t step;    /* slots to the next instruction: 2 for a 32-bit word at its high slot */
    uint16_t imm;
} mccp_rec;

/* ---- machine state ---- */
enum { MCCP_SEM_RTL = 0, MCCP_SEM_DOC = 1 };
enum { MCCP_FL_C = 1, MCCP_FL_S = 2, MCCP_FL_V = 4, MCCP_FL_Z = 8 };
enum { MCCP_STALL_MEMORY, MCCP_STALL_ARBITER, MCCP_STALL_EXCEPTION, MCCP_NSTALLS };
enum { MCCP_CNT_LOADS, MCCP_CNT_STORES, MCCP_CNT_STACK_FAULTS, MCCP_CNT_DIV0, MCCP_CNT_GRANTS, MCCP_NCOUNTERS };

typedef struct mccp_core {
    uint32_t r[8];            /* reg0..reg5, sp (6), ip (7): ip is a ROM word address */
    uint8_t half;             /* instr_choose: 0 = high half next, 1 = low half */
    uint8_t flags;            /* bit0 C, bit1 S, bit2 V, bit3 Z */
    uint32_t stack_begin, my_stack_begin, my_stack_end, stack_exc_addr;
    uint32_t wdata;           /* writedata_reg: the stale value of the first dump write */
    uint8_t wren_sticky;      /* wren_exception: never cleared (RTL bug) */
    uint8_t dump_left;        /* dump_core_counter */
    uint8_t waiting;          /* a memory transaction is outstanding */
    uint8_t req;              /* request visible to the arbiter */
    uint8_t req_write, req_rd;
    uint32_t req_addr, req_data;
    uint64_t req_visible;     /* first edge the arbiter can see the request */
    uint64_t mem_save;        /* save edge E of the memory instruction */
    uint64_t mem_slot;        /* its PC (slot), for stop messages */
    uint64_t next_save;       /* save edge of the next instruction */
    uint8_t warned_div0;
    uint8_t dumping;          /* the exception dump is in progress */
    uint64_t last_resp;       /* R of the previous dump write */
    /* the fast loop's lazy flags (fast.c) kept across a grant inside the burst */
    uint32_t lz_res, lz_a, lz_b;
    unsigned lz_cin;
    int lz_op;
} mccp_core;

typedef struct mccp_state {
    int sem;
    uint16_t cond_mask[16];
    unsigned core_mask;
    int fault_stop, fault_stopped;
    unsigned warm_restart;
    unsigned phase;           /* arbiter pointer before cycle 1 */
    uint8_t *rom;             /* 8192 big-endian words (the rom space's region) */
    uint8_t *ram;             /* 65536 little-endian words (the ram space's region) */
    mccp_pd *pd;              /* MCCP_ROM_WORDS decoded words (reference loop) */
    mccp_rec *rec;            /* 2 * MCCP_ROM_WORDS + 1 slot records (fast loop; the last wraps ip) */
    uint8_t *rom_seen;        /* the ROM as the records were made from it */
    uint32_t rec_lo[4], rec_hi[4]; /* ROM words [lo, hi) of these ranges may have records */
    int rec_nr;               /* ranges in use */
    uint32_t rec_bp_gen;      /* the breakpoint filter the records follow (0: none) */
    /* the profiled loops' state (fast.c, fast_loop.inc): prof_none, a NULL row per slot
     * (copy 1: every issue real); per core (MCCP_PROF_STRIDE words each) a flow word and a
     * walk stamp per slot (copy 2: prof_walk, prof_flows), and a scratch the flows go to
     * when not counting; prof_phase: the last walk stamp given */
    int64_t *prof_cnt, *prof_none, *prof_sink, *prof_mem;
    uint64_t *prof_stamp, prof_phase;
    uint16_t jump_mask[8];    /* bit f: jump je..jmp taken with flags f */
    mem_space *ram_space, *rom_space;
    mccp_core core[MCCP_CORES];
    /* arbiter */
    ev_event arb_ev;
    uint64_t arb_ref_edge;    /* pointer = arb_ref_ptr after edge arb_ref_edge ... */
    unsigned arb_ref_ptr;     /* ... and +1 at each idle edge after it */
    uint64_t arb_free;        /* first edge at which the arbiter is idle again */
    int arb_fresh;            /* first transaction after configuration takes one more cycle */
    int arb_next;             /* core granted at arb_g, -1 none */
    uint64_t arb_g;           /* the next grant (SIM_NEVER: none) */
    int in_cluster;           /* cluster.c runs the cores: the arbiter's event stays off the queue */
    /* cluster.c, while in_cluster: each core's next event (its cycle, SIM_NEVER none, and the
     * queue's insertion number) and the queue's first other event (cycle, priority, number) */
    uint64_t cl_when[MCCP_CORES], cl_seq[MCCP_CORES];
    uint64_t cl_xw, cl_xs;
    int cl_xp;
    /* framebuffer */
    unsigned fb_base, fb_width, fb_height, fb_mono;
    uint32_t *fb_pixels;      /* mono palette conversion buffer */
    unsigned runs_left;       /* warm restarts still to do */
    unsigned done_mask;       /* cores that executed int in the current run */
    uint64_t done_last;       /* cycle of the latest int of the current run */
} mccp_state;

static inline mccp_state *mccp_st(sim_machine *m) { return (mccp_state *)m->isa_state; }
static inline uint64_t mccp_slot(const mccp_core *c) { return (uint64_t)(c->r[7] & (MCCP_ROM_WORDS - 1)) * 2u + c->half; }

/* alu.v in RTL mode, the one body of the ALU operations (exec.c's executor, and the fast
 * loop's handlers in fast_loop.inc, each of which calls it with a constant op so that the
 * switch folds away): the result of opcode op (MCCP_ADD..MCCP_ALU15, the 4-bit opcode) on
 * op1 a and op2 b with carry in cin, its carry in *c and alu.v's tmp[31] in *t: tmp is
 * op1[30:0] - op2[30:0] for opcodes with bit 1 set, else op1[30:0] + op2[30:0], so tmp[31]
 * is the borrow or carry into bit 31 (bit 31 of a ^ b ^ (a -/+ b)), and RTL V = C ^ tmp[31]. */
static inline __attribute__((always_inline)) uint32_t mccp_alu_op(int op, uint32_t a, uint32_t b, unsigned cin,
                                                                  unsigned *c, unsigned *t)
{
    uint32_t r;
    switch (op) {
    case MCCP_ADD: r = a + b; *c = r < a; break;
    case MCCP_ADDC: {
        uint64_t wide = (uint64_t)a + b + cin;
        r = (uint32_t)wide;
        *c = (unsigned)(wide >> 32);
        break;
    }
    case MCCP_SUB: case MCCP_CMP: r = a - b; *c = a < b; break;
    case MCCP_SUBC: r = a - b - cin; *c = (uint64_t)a < (uint64_t)b + cin; break;
    case MCCP_MUL: r = a * b; *c = 0; break;
    case MCCP_DIV: r = b ? a / b : 0xFFFFFFFFu; *c = 0; break; /* P5: divide by zero gives all ones */
    case MCCP_AND: r = a & b; *c = 0; break;
    case MCCP_OR: r = a | b; *c = 0; break;
    case MCCP_XOR: r = a ^ b; *c = 0; break;
    case MCCP_LSH: r = b >= 32 ? 0 : a << b; *c = 0; break;
    case MCCP_RSH: r = b >= 32 ? 0 : a >> b; *c = 0; break;
    case MCCP_NOT: r = ~a; *c = 0; break;
    case MCCP_INC: r = a + 1; *c = r == 0; break;
    case MCCP_DEC: r = a - 1; *c = a == 0; break;
    default: r = a; *c = 0; break; /* opcode 1111: result = op1 */
    }
    *t = (op & 2 ? a ^ b ^ (a - b) : a ^ b ^ (a + b)) >> 31;
    return r;
}
_Static_assert(MCCP_ADD == 0 && MCCP_ALU15 == 15, "the ALU ops are their 4-bit opcodes");

/* exec.c */
enum { MCCP_X_NEXT, MCCP_X_SLEEP, MCCP_X_HALT, MCCP_X_STOP };
int mccp_cond(int sem, int cond, unsigned flags);
int mccp_jump_taken(int op, unsigned flags);
/* Execute the instruction at the core's pc (c->r[7], c->half, c->flags) at save edge t,
 * counted and with ip advanced: MCCP_X_NEXT, or MCCP_X_SLEEP (a RAM request is made: the
 * caller calls mccp_sleep), MCCP_X_HALT (int: the caller calls mccp_core_done) or
 * MCCP_X_STOP (not executed: a stop was set). In functional mode RAM accesses are done at
 * once (MCCP_X_NEXT). */
int mccp_exec_one(sim_machine *m, sim_unit *u, uint64_t t);
void mccp_sleep(sim_machine *m, sim_unit *u);
uint32_t mccp_alu(int sem, int op, uint32_t a, uint32_t b, unsigned *flags);
/* mask[c] bit f = condition c holds with flags f (a table lookup in the issue loop) */
void mccp_cond_masks(int sem, uint16_t mask[16]);
uint64_t mccp_core_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
/* fast.c */
int mccp_fast_init(mccp_state *s);
void mccp_fast_reset(mccp_state *s);   /* after loading a new ROM image */
/* Run core u from save edge t while t < lim without per-instruction hooks (breakpoints
 * through the filter bpm, may be NULL); returns the next save edge or SIM_NEVER. */
uint64_t mccp_fast_run(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim, const uint8_t *bpm);
/* The records' check against the ROM (without breakpoints), for a caller that runs many
 * bursts in one event (cluster.c): the ROM does not change inside an event. */
void mccp_fast_sync(sim_machine *m);
/* The loop mccp_fast_run would take now (plain or profiled), to be called directly with the
 * records in sync (mccp_fast_sync) and no breakpoint filter: cluster.c, once per event. */
typedef uint64_t (*mccp_fast_fn)(sim_machine *m, sim_unit *u, uint64_t t, uint64_t lim, const uint8_t *bpm);
mccp_fast_fn mccp_fast_loop(sim_machine *m);
/* arbiter.c */
/* The RAM access of core ci's request at cycle g: the read or write, its counters and the
 * watchpoint check (a hit stops the run at g). */
void mccp_transact(sim_machine *m, int ci, uint64_t g);
/* After a transaction of a stack-fault dump: set up the next write's request and return 1,
 * or end the dump and return 0 (also 0 for an ordinary access). */
int mccp_dump_next(const mccp_state *s, mccp_core *c);
int mccp_arb_init(sim_machine *m);
void mccp_arb_request(sim_machine *m, int core);
/* Recompute the next grant and move the arbiter's event there (after the arbiter's state
 * changed other than by a new request). */
void mccp_arb_refresh(sim_machine *m);
/* The grant at cycle g (= arb_g) of core arb_next: the transaction, the stalls, the next
 * grant. Returns the core to wake at *wake (its next save edge), or -1 (a dump goes on). */
int mccp_arb_grant(sim_machine *m, uint64_t g, uint64_t *wake);
/* cluster.c */
/* Run the cores and the arbiter from the current unit event in the event queue's order,
 * without the queue, up to the next other event (see cluster.c); returns SIM_NEVER. */
uint64_t mccp_cluster_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
/* Core ci has just made its request (the fast loop's load or store, the core asleep): if
 * the cluster would grant it before anything else could change the grant, grant it now and
 * return the core's next save edge (it is ready then), else SIM_NEVER (see cluster.c). */
uint64_t mccp_cluster_grant(sim_machine *m, int ci);
/* exec.c: one unit_run of a core as the event queue calls it */
uint64_t mccp_core_burst(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon);
uint64_t mccp_arb_next_grant(const mccp_state *s, int *core);
/* machine.c */
void mccp_start_core(sim_machine *m, int core, uint64_t first_save);
void mccp_core_done(sim_machine *m, sim_unit *u, uint64_t cycle);
/* asm.c */
int mccp_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err, size_t errlen);
/* Assemble a source text to ROM words (tests); prep (may be NULL) gets the .prep text. */
int mccp_assemble_text(const char *name, const char *text, uint32_t **words, size_t *nwords,
                       char **prep, char *err, size_t errlen);
/* disasm.c */
int mccp_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n);
int mccp_disasm_image(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen);

#endif
