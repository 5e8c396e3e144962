/* isa/ipu/exec.c: IPU instruction semantics for the first execution slice. A bundle (one
 * instruction, or { main ; aux }) is decoded from tile memory in the context's decode space,
 * its pairing rules checked, and then each half executes from a snapshot of the registers
 * taken before the bundle, so the two halves see the same old values as they would when
 * issued together. Semantics are chosen per table row by the row's LLVM encoding name (a
 * small name -> semantic map built once; the table itself stays as converted). Every row
 * without semantics here stops the run with SIM_STOP_ILLEGAL "not modelled yet: MNEMONIC",
 * never with a silent guess; so do the few cases whose hardware result no public source
 * gives (shift amounts above 31, a step load whose destination is its own delta register).
 * Exceptions set the context's ETYPE/cause and become stop reasons naming the context and
 * pc. Timing lives in barrel.c; this file reports what it read, wrote and whether it
 * branched. */
#include <stdarg.h>
#include <string.h>
#include <pthread.h>
#include "exec.h"
#include "../../core/debug.h"
#include "../../core/task.h"


typedef struct sem_name {
    const char *name;
    uint8_t sem;
} sem_name;

static const sem_name sem_names[] = {
    {"add_mmmn", S_ADD}, {"add_mmmn_si", S_ADD}, {"add_mmmn_zi", S_ADD},
    {"sub_mmmn", S_SUB}, {"sub_mmmn_si", S_SUB}, {"sub_mmmn_zi", S_SUB},
    {"mul_mmmn", S_MUL}, {"mul_mmmn_si", S_MUL},
    {"and_mmmn", S_AND}, {"and_mmmn_zi", S_AND}, {"andc_mmmn", S_ANDC}, {"andc_mmmn_zi", S_ANDC},
    {"or_mmmn", S_OR}, {"or_mmmn_zi", S_OR}, {"or_mmmn_iz", S_OR}, {"xor_mmmn", S_XOR}, {"xnor_mmmn", S_XNOR},
    {"min_mmmn", S_MIN}, {"min_mmmn_si", S_MIN}, {"min_mmmn_zi", S_MIN},
    {"max_mmmn", S_MAX}, {"max_mmmn_si", S_MAX}, {"max_mmmn_zi", S_MAX},
    {"shl_mmmn", S_SHL}, {"shl_mmmn_zi", S_SHL}, {"shr_mmmn", S_SHR}, {"shr_mmmn_zi", S_SHR},
    {"shrs_mmmn", S_SHRS}, {"shrs_mmmn_zi", S_SHRS},
    {"cmpeq_mmmn", S_CMPEQ}, {"cmpeq_mmmn_si", S_CMPEQ}, {"cmpeq_mmmn_zi", S_CMPEQ}, {"cmpne_mmmn", S_CMPNE},
    {"cmpslt_mmmn", S_CMPSLT}, {"cmpslt_mmmn_si", S_CMPSLT}, {"cmpult_mmmn", S_CMPULT}, {"cmpult_mmmn_zi", S_CMPULT},
    {"abs_mmmn", S_ABS}, {"clz_mmmn", S_CLZ}, {"cms_mmmn", S_CMS}, {"popc_mmmn", S_POPC},
    {"bitrev8_mmmn", S_BITREV8}, {"setzi_mmmn_zi", S_SETZI},
    {"and_aaan", S_AAND}, {"and_aaan_zi", S_AAND}, {"and_aaan_iz", S_AAND},
    {"andc_aaan", S_AANDC}, {"andc_aaan_zi", S_AANDC}, {"andc_aaan_iz", S_AANDC},
    {"or_aaan", S_AOR}, {"or_aaan_zi", S_AOR}, {"or_aaan_iz", S_AOR}, {"not_aaan", S_ANOT},
    {"and64_aaan", S_AAND64}, {"andc64_aaan", S_AANDC64}, {"or64_aaan", S_AOR64}, {"not64_aaan", S_ANOT64},
    {"setzi_aaan_zi", S_ASETZI},
    {"br_mmmn", S_BR}, {"bri_mmmn_zi", S_BRI}, {"brz_mmmn_zi", S_BRZ}, {"brnz_mmmn_zi", S_BRNZ},
    {"brneg_mmmn_zi", S_BRNEG}, {"brpos_mmmn_zi", S_BRPOS}, {"brnzdec_mmmn_zi", S_BRNZDEC},
    {"call_mmmn_zi", S_CALL}, {"trap_mmmn_zi", S_TRAP},
    {"exitz_mmmn", S_EXITZ}, {"exitnz_mmmn", S_EXITNZ}, {"exitneg_mmmn", S_EXITNEG}, {"exitpos_mmmn", S_EXITPOS},
    {"run_mmmn_zi", S_RUN}, {"runall_mmmn_zi", S_RUNALL}, {"get_mmmn_zi", S_GET}, {"put_mmmn_zi", S_PUT},
    {"uget_aaan_zi", S_UGET}, {"uput_aaan_zi", S_UPUT}, {"atom_mamn", S_ATOM},
    {"rpt_mmmn_zi", S_RPT}, {"rpt_mmmn_zi_zi", S_RPT}, {"movz_mmmn", S_MOVZ},
    {"tapack_mmmn", S_TAPACK}, {"ld2x64pace_mmbn_ef", S_PACE}, {"ldst64pace_mbbn_ef", S_PACE},
    {"ld2xst64pace_mbbn_ef", S_PACE}, {"st64pace_mbmn_ef", S_PACE},
};

/* Memory rows by name prefix: size in bytes and how a narrow value extends. The step forms
 * share the prefix's size ("ld32step_" before "ld32_" would not matter: '_' ends both). */
typedef struct mem_name {
    const char *prefix;
    uint8_t sem, size, ext;
} mem_name;
static const mem_name mem_names[] = {
    {"ld32_", S_LOAD, 4, X_ZERO}, {"ld32step_", S_LOAD, 4, X_ZERO}, {"ld64_", S_LOAD, 8, X_ZERO},
    {"ld64step_", S_LOAD, 8, X_ZERO}, {"ld128_", S_LOAD, 16, X_ZERO}, {"ld128step_", S_LOAD, 16, X_ZERO},
    {"lds8_", S_LOAD, 1, X_SIGN}, {"lds8step_", S_LOAD, 1, X_SIGN}, {"lds16_", S_LOAD, 2, X_SIGN},
    {"lds16step_", S_LOAD, 2, X_SIGN}, {"ldz8_", S_LOAD, 1, X_ZERO}, {"ldz8step_", S_LOAD, 1, X_ZERO},
    {"ldz16_", S_LOAD, 2, X_ZERO}, {"ldz16step_", S_LOAD, 2, X_ZERO}, {"ldb16_", S_LOAD, 2, X_BCAST16},
    {"ldb16step_", S_LOAD, 2, X_BCAST16}, {"st32_", S_STORE, 4, 0}, {"st32step_", S_STORE, 4, 0},
    {"st64_", S_STORE, 8, 0}, {"st64step_", S_STORE, 8, 0},
};

#define IPU_MAX_ROWS 512
static uint8_t row_sem[IPU_MAX_ROWS], row_size[IPU_MAX_ROWS], row_ext[IPU_MAX_ROWS], row_fsem[IPU_MAX_ROWS];
static uint8_t row_asem[IPU_MAX_ROWS], row_msem[IPU_MAX_ROWS];

/* Built once, before any machine runs (machine create calls it; idempotent). */
/* The row -> semantics tables are derived once per process from the constant instruction
 * table and never change afterwards; pthread_once makes machines built on several host
 * threads at once safe. */
static void build_sem(void)
{
    for (int i = 0; i < ipu_nops && i < IPU_MAX_ROWS; i++) {
        const char *n = ipu_ops[i].name;
        for (size_t k = 0; k < sizeof sem_names / sizeof sem_names[0]; k++)
            if (!strcmp(n, sem_names[k].name))
                row_sem[i] = sem_names[k].sem;
        for (size_t k = 0; k < sizeof mem_names / sizeof mem_names[0]; k++)
            if (!strncmp(n, mem_names[k].prefix, strlen(mem_names[k].prefix))) {
                row_sem[i] = mem_names[k].sem;
                row_size[i] = mem_names[k].size;
                row_ext[i] = mem_names[k].ext;
            }
        if ((row_fsem[i] = (uint8_t)ipu_float_sem(n)))
            row_sem[i] = S_FLOAT;
        if ((row_asem[i] = (uint8_t)ipu_amp_sem(n)))
            row_sem[i] = S_AMP;
        if ((row_msem[i] = (uint8_t)ipu_misc_sem(n)))
            row_sem[i] = S_MISC;
    }
}

void ipu_exec_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_sem);
}

int ipu_sem_of(const ipu_insn *in) { return row_sem[in->op - ipu_ops]; }
unsigned ipu_row_size(int row) { return row_size[row]; }
int ipu_row_ext(int row) { return row_ext[row]; }

static const char *const etype_names[16] = {
    "TEXCPT_NONE", "TEXCPT_RBRK", "TEXCPT_PBRK0", "TEXCPT_PBRK1", "TEXCPT_BOS", "TEXCPT_FP",
    "TEXCPT_CONFLICT", "TEXCPT_EXCONF", "TEXCPT_INVALID_ADDR", "TEXCPT_INVALID_OP", "TEXCPT_INVALID_PC",
    "TEXCPT_DBRK", "TEXCPT_INVALID_INSTR", "TEXCPT_EXERR", "TEXCPT_MEMERR", "TEXCPT_IBRK"};

const char *ipu_etype_name(uint32_t etype) { return etype_names[etype & 15]; }

void ipu_raise(sim_machine *m, sim_unit *u, ipu_tile *tl, int tid, uint64_t t, int kind, uint32_t etype, uint32_t cause,
               const char *fmt, ...)
{
    ipu_ctx *c = &tl->ctx[tid];
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    c->state = IPU_CS_EXCEPTED;
    c->etype = etype;
    c->cause = cause;
    u->threads[tid].state = SIM_T_SLEEP; /* it issues no more; the debugger shows why */
    u->threads[tid].ready_at = SIM_NEVER;
    if (etype)
        sim_set_stop_at(m, kind, u->index, tid, c->pc, t, "%s %s at pc 0x%x: %s (%s, cause %u)", u->name,
                        ipu_ctx_name(tid), c->pc, what, ipu_etype_name(etype), cause);
    else
        sim_set_stop_at(m, kind, u->index, tid, c->pc, t, "%s %s at pc 0x%x: %s", u->name, ipu_ctx_name(tid), c->pc,
                        what);
}

/* ---- one bundle ---- */

typedef ipu_xs xs;

int ipu_xfail(xs *x, int kind, uint32_t etype, uint32_t cause, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    ipu_raise(x->m, x->u, x->tl, x->tid, x->t, kind, etype, cause, "%s", what);
    return -1;
}
#define fail ipu_xfail

int ipu_not_modelled(xs *x, const ipu_insn *in, const char *why)
{
    return fail(x, SIM_STOP_ILLEGAL, 0, 0, "not modelled yet: %s%s%s", in->op->mnemonic, why ? " " : "", why ? why : "");
}
#define not_modelled ipu_not_modelled

/* Operand i as a 32-bit value: a register's content, or the immediate as the printer shows
 * it (sign-extended, zero-extended or placed in the top bits). */
static uint32_t opv(const xs *x, const ipu_insn *in, int i)
{
    switch (in->op->op[i].kind) {
    case IPU_K_MR: return ipu_rm(x, in->v[i]);
    case IPU_K_AR: return ipu_ra(x, in->v[i]);
    default: return (uint32_t)ipu_operand_value(in, i);
    }
}

static uint32_t clz32(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }

static int alu(xs *x, const ipu_insn *in, int sem)
{
    uint32_t a = opv(x, in, 1), b = in->op->nops > 2 ? opv(x, in, 2) : 0, r;
    switch (sem) {
    case S_ADD: r = a + b; break;
    case S_SUB: r = a - b; break;
    case S_MUL: r = (uint32_t)((int64_t)(int32_t)a * (int32_t)b); break;
    case S_AND: r = a & b; break;
    case S_ANDC: r = a & ~b; break;
    case S_OR: r = a | b; break;
    case S_XOR: r = a ^ b; break;
    case S_XNOR: r = ~(a ^ b); break;
    case S_MIN: r = (int32_t)a < (int32_t)b ? a : b; break;
    case S_MAX: r = (int32_t)a > (int32_t)b ? a : b; break;
    case S_SHL: case S_SHR: case S_SHRS:
        /* "a shift of up to 31 bits": what a larger amount does is not public */
        if (b > 31) {
            char why[48];
            snprintf(why, sizeof why, "with a shift amount of %u (> 31)", b);
            return not_modelled(x, in, why);
        }
        r = sem == S_SHL ? a << b : sem == S_SHR ? a >> b : (uint32_t)((int32_t)a >> b);
        break;
    case S_CMPEQ: r = a == b; break;
    case S_CMPNE: r = a != b; break;
    case S_CMPSLT: r = (int32_t)a < (int32_t)b; break;
    case S_CMPULT: r = a < b; break;
    case S_ABS: r = (int32_t)a < 0 ? 0u - a : a; break; /* INT_MIN stays INT_MIN (two's complement) */
    case S_CLZ: r = clz32(a); break;
    /* bits below bit 31 equal to it, counted from bit 30 down: always 0..31 */
    case S_CMS: r = clz32((a ^ (uint32_t)((int32_t)a >> 31)) << 1 | 1); break;
    case S_POPC: r = (uint32_t)__builtin_popcount(a); break;
    case S_BITREV8: {
        r = 0;
        for (int i = 0; i < 32; i++)
            if (a >> i & 1)
                r |= 1u << ((i & ~7) | (7 - (i & 7)));
        break;
    }
    case S_SETZI:
        r = a;
        if (in->v[0] == 15 && a == IPU_MARKER_IMM) /* the fast-forward marker (exec.h) */
            sim_marker(x->m, x->u->index, x->tid, x->c->pc);
        break;
    default: return not_modelled(x, in, NULL);
    }
    ipu_wm(x, in->v[0], r);
    return 0;
}

static int aux_alu(xs *x, const ipu_insn *in, int sem)
{
    switch (sem) {
    case S_ASETZI: ipu_wa(x, in->v[0], opv(x, in, 1)); return 0;
    case S_ANOT: ipu_wa(x, in->v[0], ~opv(x, in, 1)); return 0;
    case S_AAND: ipu_wa(x, in->v[0], opv(x, in, 1) & opv(x, in, 2)); return 0;
    case S_AANDC: ipu_wa(x, in->v[0], opv(x, in, 1) & ~opv(x, in, 2)); return 0;
    case S_AOR: ipu_wa(x, in->v[0], opv(x, in, 1) | opv(x, in, 2)); return 0;
    case S_ANOT64: ipu_wap(x, in->v[0], ~ipu_rap(x, in->v[1])); return 0;
    case S_AAND64: ipu_wap(x, in->v[0], ipu_rap(x, in->v[1]) & ipu_rap(x, in->v[2])); return 0;
    case S_AANDC64: ipu_wap(x, in->v[0], ipu_rap(x, in->v[1]) & ~ipu_rap(x, in->v[2])); return 0;
    case S_AOR64: ipu_wap(x, in->v[0], ipu_rap(x, in->v[1]) | ipu_rap(x, in->v[2])); return 0;
    default: return not_modelled(x, in, NULL);
    }
}

/* A data access of n bytes at ea: inside tile memory, naturally aligned. */
static uint8_t *data_ptr(xs *x, uint32_t ea, unsigned n, unsigned kind)
{
    if (!ipu_in_mem(x->im, ea, n)) {
        fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_INVALID_ADDRESS_EA0,
             "%u-byte %s at 0x%x, outside tile memory 0x%x-0x%x", n, kind == MEM_W ? "store" : "load", ea,
             x->im->mem_base, x->im->mem_base + x->im->mem_size);
        return NULL;
    }
    if (ea & (n - 1)) {
        fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_MISALIGNED_EA0, "misaligned %u-byte %s at 0x%x", n,
             kind == MEM_W ? "store" : "load", ea);
        return NULL;
    }
    if (__builtin_expect(x->tl->x.clash_at == x->t, 0) && ipu_xchg_clash(x->m, x->tl, x->tid, x->t, ea, 0))
        return NULL; /* an exchange item written in this cycle, in this element (exchange.c) */
    mem_space *sp = x->tl->tmem;
    if (sp->nwatch && mem_watch_check(sp, ea, n, kind))
        sim_set_stop_at(x->m, SIM_STOP_WATCH, x->u->index, x->tid, x->c->pc, x->t, "watchpoint %d at tmem 0x%x",
                        sp->watch_hit_id, ea);
    if (kind == MEM_W) /* the functional loop's entries of the words written (func_fx.c) */
        ipu_fx_wrote(x->tl, ea - x->im->mem_base, n);
    return x->tl->mem + (ea - x->im->mem_base);
}

/* Loads and stores share one operand layout in every row: op0 data register, op1 base,
 * op2 delta (post-incremented in the step forms, marked "+="), op3 the scaled offset or
 * the stride, a register or an immediate. EA = base + delta + offset x size (offset forms)
 * or base + delta (step forms, then delta += stride x size). */
static int mem_op(xs *x, const ipu_insn *in, int sem)
{
    const int row = (int)(in->op - ipu_ops);
    const unsigned size = row_size[row];
    const int step = in->op->op[2].mod == IPU_M_INCOFF;
    uint32_t base = opv(x, in, 1), delta = opv(x, in, 2), k = opv(x, in, 3);
    uint32_t ea = step ? base + delta : base + delta + k * size;
    const int dkind = in->op->op[0].kind;
    if (sem == S_LOAD && step && dkind == IPU_K_MR && in->v[0] == in->v[2] && in->v[0] != 15)
        return not_modelled(x, in, "whose destination is its own delta register (which write wins is not public)");
    if (sem == S_LOAD && size == 16 && ea >= x->im->mem_base && ea < x->im->interleaved_base)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_INVALID_REGION_EA0,
                    "ld128 at 0x%x, below the interleaved region (0x%x, -o interleaved_base)", ea,
                    x->im->interleaved_base);
    uint8_t *p = data_ptr(x, ea, size, sem == S_LOAD ? MEM_R : MEM_W);
    if (!p)
        return -1;
    if (sem == S_LOAD) {
        uint32_t w;
        switch (dkind) {
        case IPU_K_ARP: ipu_wap(x, in->v[0], mem_ld64le(p)); break;
        case IPU_K_ARQ: /* $a12:15 takes a12, a13; the $azeros half takes nothing */
            ipu_wap(x, in->v[0], mem_ld64le(p));
            ipu_wap(x, in->v[0] + 2, mem_ld64le(p + 8));
            break;
        default:
            if (size == 1)
                w = row_ext[row] == X_SIGN ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
            else if (size == 2) {
                uint16_t h = mem_ld16le(p);
                w = row_ext[row] == X_SIGN ? (uint32_t)(int32_t)(int16_t)h
                    : row_ext[row] == X_BCAST16 ? (uint32_t)h << 16 | h : h;
            } else
                w = mem_ld32le(p);
            if (dkind == IPU_K_MR)
                ipu_wm(x, in->v[0], w);
            else
                ipu_wa(x, in->v[0], w);
        }
    } else {
        if (dkind == IPU_K_ARP)
            mem_st64le(p, ipu_rap(x, in->v[0]));
        else
            mem_st32le(p, opv(x, in, 0));
    }
    if (step)
        ipu_wm(x, in->v[2], delta + k * size);
    return 0;
}

/* ---- tapack and the pace loads/stores (docs/isa/ipu.md "Pace"; every layout below is
 * inferred from PopLibs, evidence there) ---- */

/* The packed triple in a $m pair: lo = a0[20:0] | a2[10:0] << 21, hi = a1[20:0] |
 * a2[21:11] << 21 (PopLibs binaryOps1D.S UNPACK_PTRS). */
#define TA_MASK 0x1fffffu
static void ta_unpack(uint32_t lo, uint32_t hi, uint32_t a[3])
{
    a[0] = lo & TA_MASK;
    a[1] = hi & TA_MASK;
    a[2] = lo >> 21 | (hi >> 21) << 11;
}
static void ta_pack(const uint32_t a[3], uint32_t *lo, uint32_t *hi)
{
    *lo = (a[0] & TA_MASK) | (a[2] & 0x7ffu) << 21;
    *hi = (a[1] & TA_MASK) | (a[2] >> 11 & 0x7ffu) << 21;
}

/* The SRAM element of an address (reference §2.4): mem_element bytes each below the
 * interleaved region; in it two elements interleaved 64-bit word by word. */
static uint32_t mem_elem(const ipu_machine *im, uint32_t ea)
{
    if (ea >= im->interleaved_base)
        return 0x80000000u | ((ea - im->interleaved_base) / (2 * im->mem_element)) << 1 | (ea >> 3 & 1);
    return (ea - im->mem_base) / im->mem_element;
}

/* One access of a pace instruction: which address of the triple, the stride select, a load
 * (the $a pair it writes) or a store (the $a pair it reads). */
typedef struct pace_acc {
    uint8_t field, sel, store, reg;
} pace_acc;

/* ld2x64pace $d0, $d1, $mA:A+1+=, $mS, 0bYYXX: $d0 = [a0] (select XX), $d1 = [a1] (YY).
 * ldst64pace $d, $s, ..., 0bYYXX: $d = [a0] (XX), [a2] = $s (YY).
 * ld2xst64pace $d0:3, $s, ..., 0bZZYYXX: $d0:1 = [a0], $d2:3 = [a1], [a2] = $s.
 * st64pace $s, $mA:A+1+=, $mS, 0bXX: [a2] = $s.
 * Select 0 adds one 64-bit word, 1-3 the signed 10-bit field k-1 of $mS (bits 0-9, 10-19,
 * 20-29) in 64-bit words. Each address updates within its 21 bits, after the accesses. */
static int pace(xs *x, const ipu_insn *in)
{
    const char *n = in->op->name;
    pace_acc acc[3];
    int na = 0, pi; /* pi: the packed pair's operand */
    uint32_t imm;
    if (!strncmp(n, "st64pace", 8)) {
        pi = 1;
        imm = (uint32_t)ipu_operand_value(in, 3);
        if (imm > 3)
            return not_modelled(x, in, "with an immediate above 3 (the meaning of its upper bits is not public)");
        acc[na++] = (pace_acc){2, (uint8_t)imm, 1, (uint8_t)in->v[0]};
    } else {
        pi = 2;
        imm = (uint32_t)ipu_operand_value(in, 4);
        if (!strncmp(n, "ld2x64pace", 10)) {
            acc[na++] = (pace_acc){0, imm & 3, 0, (uint8_t)in->v[0]};
            acc[na++] = (pace_acc){1, imm >> 2 & 3, 0, (uint8_t)in->v[1]};
        } else if (!strncmp(n, "ldst64pace", 10)) {
            acc[na++] = (pace_acc){0, imm & 3, 0, (uint8_t)in->v[0]};
            acc[na++] = (pace_acc){2, imm >> 2 & 3, 1, (uint8_t)in->v[1]};
        } else {
            acc[na++] = (pace_acc){0, imm & 3, 0, (uint8_t)in->v[0]};
            acc[na++] = (pace_acc){1, imm >> 2 & 3, 0, (uint8_t)(in->v[0] + 2)};
            acc[na++] = (pace_acc){2, imm >> 4 & 3, 1, (uint8_t)in->v[1]};
        }
    }
    /* two loads into one $a pair (not $azeros): which write wins is not public */
    if (na >= 2 && !acc[1].store && acc[0].reg == acc[1].reg && acc[0].reg < 14)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "%s: the two destination register pairs are not distinct (help text: TEXCPT_INVALID_OP)",
                    in->op->mnemonic);
    const uint32_t pr = in->v[pi], stride = ipu_rm(x, in->v[pi + 1]);
    uint32_t a[3];
    ta_unpack(ipu_rm(x, pr), ipu_rm(x, pr + 1), a);
    uint8_t *p[3];
    for (int i = 0; i < na; i++)
        if (!(p[i] = data_ptr(x, a[acc[i].field], 8, acc[i].store ? MEM_W : MEM_R)))
            return -1;
    if (x->im->mem_conflicts)
        for (int j = 1; j < na; j++)
            for (int i = 0; i < j; i++)
                if (mem_elem(x->im, a[acc[i].field]) == mem_elem(x->im, a[acc[j].field]))
                    return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_CONFLICT, IPU_CAUSE_CONFLICT_EA0 + (uint32_t)j,
                                "memory conflict: accesses %d (0x%x) and %d (0x%x) hit one memory element "
                                "(-o mem_conflicts=ignore)", i, a[acc[i].field], j, a[acc[j].field]);
    uint64_t v[3];
    for (int i = 0; i < na; i++) /* every source is read before any write */
        v[i] = acc[i].store ? ipu_rap(x, acc[i].reg) : mem_ld64le(p[i]);
    for (int i = 0; i < na; i++) {
        if (acc[i].store)
            mem_st64le(p[i], v[i]);
        else
            ipu_wap(x, acc[i].reg, v[i]);
        int32_t words = acc[i].sel ? (int32_t)(stride << (32 - 10 * acc[i].sel)) >> 22 : 1;
        a[acc[i].field] = (a[acc[i].field] + (uint32_t)words * 8u) & TA_MASK;
    }
    uint32_t lo, hi;
    ta_pack(a, &lo, &hi);
    ipu_wm(x, pr, lo);
    ipu_wm(x, pr + 1, hi);
    return 0;
}

/* CSR access. The lower space (get/put, indices 0-255) and the upper one (uget/uput,
 * 256-511) differ between supervisor and workers (ipu1 indices, reference §2.3; ipu2/ipu21
 * assumed the same). Only the CSRs below are modelled; any other index stops the run as
 * not modelled yet rather than read a made-up value. */
static int csr_get(xs *x, const ipu_insn *in, unsigned idx, uint32_t *v)
{
    ipu_ctx *c = x->c;
    int arc = ipu_amp_csr(x, idx, 0, v); /* $CCCSLOAD, $CR (exec_amp.c) */
    if (arc)
        return arc < 0 ? -1 : 0;
    int mrc = ipu_misc_csr(x, idx, 0, v); /* $PRNG_*, $FP_NFMT, $FP_SCL (exec_misc.c) */
    if (!mrc)
        mrc = ipu_xchg_csr(x, idx, 0, v); /* $TILE_ID, the exchange CSRs (exchange.c) */
    if (mrc)
        return mrc < 0 ? -1 : 0;
    if (idx == 0x00) { *v = c->pc; return 0; } /* $PC: the address of the get itself */
    if (idx == 0x60 || idx == 0x61) {          /* $COUNT_L/U, $SCOUNT_L/U: the tile cycle */
        *v = idx == 0x60 ? (uint32_t)x->t : (uint32_t)(x->t >> 32);
        return 0;
    }
    if (x->tid == IPU_SUP) {
        if (idx >= 0x21 && idx <= 0x26) { *v = x->tl->worker_base_csr[idx - 0x21]; return 0; }
        if (idx == 0x72) { /* $CTXT_STS: 2 bits per context, SU then W0..W5 (field order inferred) */
            uint32_t s = 0;
            for (int k = 0; k < IPU_NCTX; k++) {
                const ipu_ctx *o = &x->tl->ctx[k];
                uint32_t st = o->state == IPU_CS_ACTIVE ? 1 : o->state == IPU_CS_EXCEPTED ? 3 : 0;
                s |= st << (2 * k);
            }
            *v = s | (x->tl->x.rerr & 7) << 27; /* ERERR [29:27]: the last TEXCH_RERR_* */
            return 0;
        }
    } else {
        /* $WSR: CTXTID_M1 [2:0], ETYPE [7:4], ERPT [9] (ipu1_consts.c) */
        if (idx == 0x01) { *v = (uint32_t)(x->tid - 1) | (c->etype & 15) << 4 | (uint32_t)c->erpt << 9; return 0; }
        if (idx == 0x04) { *v = c->rpt_count; return 0; }  /* $REPEAT_COUNT: repetitions left */
        if (idx == 0x100) { *v = c->fp_sts; return 0; }   /* $FP_STS: INV, DIV0, OFLO flags */
        if (idx == 0x101) { *v = 0; return 0; }            /* $FP_CLR reads 0 (help text) */
        if (idx == 0x02) { *v = c->vertex_base; return 0; }
        if (idx == 0x03) { *v = c->worker_base; return 0; }
        if (idx == 0x102) { *v = c->fp_ctl; return 0; }
        if (idx == 0x108) { *v = c->tas; return 0; }
    }
    char why[48];
    snprintf(why, sizeof why, "of CSR 0x%x", idx);
    return not_modelled(x, in, why);
}

static int csr_put(xs *x, const ipu_insn *in, unsigned idx, uint32_t v)
{
    int arc = ipu_amp_csr(x, idx, 1, &v); /* $CCCSLOAD, $CR (exec_amp.c) */
    if (arc)
        return arc < 0 ? -1 : 0;
    int mrc = ipu_misc_csr(x, idx, 1, &v); /* $PRNG_*, $FP_NFMT, $FP_SCL (exec_misc.c) */
    if (!mrc)
        mrc = ipu_xchg_csr(x, idx, 1, &v); /* the exchange CSRs (exchange.c) */
    if (mrc)
        return mrc < 0 ? -1 : 0;
    if (x->tid == IPU_SUP && idx >= 0x21 && idx <= 0x26) {
        x->tl->worker_base_csr[idx - 0x21] = v;
        return 0;
    }
    /* $FP_CTL: rounding for conversions, NANOO, exception enables (exec_float.c) */
    if (x->tid != IPU_SUP && idx == 0x102) { x->c->fp_ctl = v; return 0; }
    if (x->tid != IPU_SUP && idx == 0x101) { ipu_fp_clear(x->c, v); return 0; }
    if (x->tid != IPU_SUP && idx == 0x108) { x->c->tas = v; return 0; }
    /* a worker's lower space ($PC, $WSR, $VERTEX_BASE, $WORKER_BASE, $REPEAT_*, $COUNT_*,
     * $DBG_*): no public source says any of it is writable and PopLibs never writes it, so
     * a put there raises the invalid-CSR exception (cause 41, CAUSEID_INVALID_CSR of
     * ipu1_consts.c; the type is inferred), docs/isa/ipu.md "Not modelled yet" */
    if (x->tid != IPU_SUP && idx < 0x100)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_INVALID_CSR,
                    "put: worker CSR 0x%x is not writable", idx);
    char why[48];
    snprintf(why, sizeof why, "of CSR 0x%x", idx);
    return not_modelled(x, in, why);
}

static void branch(xs *x, uint32_t target)
{
    x->next_pc = target;
    x->is->taken = 1;
}

/* run/runall: only the supervisor decodes them (supervisor-only rows). */
static int run_workers(xs *x, const ipu_insn *in, int all)
{
    uint32_t entry = opv(x, in, 0), vb = opv(x, in, 1), imm = (uint32_t)ipu_operand_value(in, 2);
    if (entry & 3)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_MISALIGNED_WORKER_PC,
                    "%s: worker entry 0x%x is not 4-byte aligned", in->op->mnemonic, entry);
    if (vb & 3)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_MISALIGNED_WORKER_VERTEX_BASE,
                    "%s: vertex base 0x%x is not 4-byte aligned", in->op->mnemonic, vb);
    if (!ipu_in_mem(x->im, entry, 4))
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_NON_EXECUTABLE_WORKER_PC,
                    "%s: worker entry 0x%x is not in tile memory", in->op->mnemonic, entry);
    if (!all) {
        /* the worker takes the slot this run issued in (slot k = context Wk); functional
         * mode has no slots in time: the lowest-numbered one no active worker holds (one
         * is free: the supervisor does not run while six workers are active, func.c) */
        int k = (int)(x->t % IPU_NSLOTS);
        if (x->m->functional)
            for (k = 0; k < IPU_NSLOTS - 1 && x->tl->ctx[IPU_WORKER(k)].state == IPU_CS_ACTIVE; k++)
                ;
        /* help text: VERTEX_BASE = $mVBase + zimm16 x 4 + TMEM_REGION0_BASE_ADDR */
        ipu_start_worker(x->tl, k, entry, vb + imm * 4 + x->im->mem_base, x->t);
        x->is->started_workers |= 1 << k;
        /* a vertex run is a task on the worker's thread until its exit (core/task.h), named
         * by the symbol at its entry; its counts are the worker thread's from here */
        sim_task_begin(x->m, x->u->index, IPU_WORKER(k), NULL, entry, x->t);
        return 0;
    }
    if (ipu_active_workers(x->tl)) {
        x->tl->ssr_raerr = 1;
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_WORKER_ACTIVE,
                    "runall while worker contexts are active ($SSR.RAERR set)");
    }
    /* help text: W0 gets $mVBase, the n-th worker $mVBase + n x zimm16 x 4 (no base added) */
    for (int k = 0; k < IPU_NSLOTS; k++) {
        ipu_start_worker(x->tl, k, entry, vb + (uint32_t)k * imm * 4, x->t);
        x->is->started_workers |= 1 << k;
        sim_task_begin(x->m, x->u->index, IPU_WORKER(k), NULL, entry, x->t);
    }
    return 0;
}

static int exit_worker(xs *x, const ipu_insn *in, int sem)
{
    int32_t v = (int32_t)opv(x, in, 0);
    /* the Boolean is the instruction's condition on the register: z == 0, nz != 0, neg < 0,
     * pos >= 0 (brpos's predicate: LLVM selects brpos for "x >= 0") */
    int st = sem == S_EXITZ ? v == 0 : sem == S_EXITNZ ? v != 0 : sem == S_EXITNEG ? v < 0 : v >= 0;
    x->c->exit_status = (uint8_t)st;
    x->c->exited_once = 1;
    x->is->taken = 1;
    ipu_end_worker(x->tl, x->tid - 1, x->t);
    return 0;
}

/* rpt COUNT, BODY: the next BODY + 1 bundles (8 bytes each) run COUNT times, then
 * execution goes on after them; COUNT 0 branches over them (help text). COUNT comes from
 * a register or a zimm12; a register count wider than $REPEAT_COUNT (12 bits on ipu1, 16
 * on ipu2/ipu21) stops as not modelled: what the hardware does with the excess bits is not
 * public (PopLibs clamps the count with CSR_W_REPEAT_COUNT__VALUE__MASK before rpt). The
 * body's bundles are checked as they issue (ipu_exec_bundle). No cycle is spent on the
 * loop itself: each body bundle takes the context's next barrel turn. */
static int rpt(xs *x, const ipu_insn *in, uint32_t pc, unsigned len)
{
    uint32_t count = opv(x, in, 0);
    uint32_t nbundles = (uint32_t)ipu_operand_value(in, 1) + 1;
    if (count > x->im->repeat_mask) {
        char why[96];
        snprintf(why, sizeof why, "with count %u, wider than $REPEAT_COUNT (0x%x on %s)", count, x->im->repeat_mask,
                 ipu_arch_name(x->im->arch));
        return not_modelled(x, in, why);
    }
    uint32_t first = pc + len, end = first + 8 * nbundles;
    x->c->rpt_first = first; /* $REPEAT_FIRST/$REPEAT_END keep the last body's bounds */
    x->c->rpt_end = end;
    if (!count) {
        x->next_pc = end;
        return 0;
    }
    x->c->rpt_count = count;
    return 0;
}

static int exec_one(xs *x, const ipu_insn *in, uint32_t pc, unsigned len)
{
    int sem = ipu_sem_of(in);
    if (sem >= S_ADD && sem <= S_SETZI)
        return alu(x, in, sem);
    if (sem >= S_AAND && sem <= S_ASETZI)
        return aux_alu(x, in, sem);
    int32_t r0;
    switch (sem) {
    case S_LOAD:
    case S_STORE: return mem_op(x, in, sem);
    case S_BR: branch(x, opv(x, in, 0)); return 0;
    case S_BRI: branch(x, opv(x, in, 0)); return 0;
    case S_BRZ: case S_BRNZ: case S_BRNEG: case S_BRPOS:
        r0 = (int32_t)opv(x, in, 0);
        if (sem == S_BRZ ? r0 == 0 : sem == S_BRNZ ? r0 != 0 : sem == S_BRNEG ? r0 < 0 : r0 >= 0)
            branch(x, opv(x, in, 1));
        return 0;
    case S_BRNZDEC:
        r0 = (int32_t)opv(x, in, 0);
        if (r0 != 0) {
            ipu_wm(x, in->v[0], (uint32_t)r0 - 1);
            branch(x, opv(x, in, 1));
        }
        return 0;
    case S_CALL:
        ipu_wm(x, in->v[0], pc + len); /* the next $PC: after the whole bundle */
        branch(x, opv(x, in, 1) & 0x1ffffcu); /* help text: bit 19 of the immediate is ignored */
        return 0;
    case S_TRAP: {
        unsigned n = (unsigned)ipu_operand_value(in, 0);
        /* trap 0 is the patched breakpoint, trap 1 the system-call break (the LLDB port's
         * reading); other numbers raise PBRK0 too (inferred) */
        return fail(x, SIM_STOP_FAULT, n == 1 ? IPU_TEXCPT_PBRK1 : IPU_TEXCPT_PBRK0, n == 1 ? IPU_CAUSE_PBRK1 : IPU_CAUSE_PBRK0,
                    "trap %u", n);
    }
    case S_EXITZ: case S_EXITNZ: case S_EXITNEG: case S_EXITPOS: return exit_worker(x, in, sem);
    case S_RUN: return run_workers(x, in, 0);
    case S_RUNALL: return run_workers(x, in, 1);
    case S_GET: {
        uint32_t v;
        if (csr_get(x, in, (unsigned)ipu_operand_value(in, 1), &v))
            return -1;
        ipu_wm(x, in->v[0], v);
        return 0;
    }
    case S_PUT: return csr_put(x, in, (unsigned)ipu_operand_value(in, 0), opv(x, in, 1));
    case S_UGET: {
        uint32_t v;
        if (csr_get(x, in, 0x100 + (unsigned)ipu_operand_value(in, 1), &v))
            return -1;
        ipu_wa(x, in->v[0], v);
        return 0;
    }
    case S_UPUT: return csr_put(x, in, 0x100 + (unsigned)ipu_operand_value(in, 0), opv(x, in, 1));
    case S_ATOM: ipu_wm(x, in->v[0], opv(x, in, 1)); return 0;
    /* movz (printed movnz) $mD, $mG, $mS: $mD = $mS when $mG != 0, else unchanged: every
     * PopLibs use reads it so (Fill.S, select_*.S, BroadcastSelect.S): docs/isa/ipu.md */
    case S_MOVZ:
        if (opv(x, in, 1) != 0)
            ipu_wm(x, in->v[0], opv(x, in, 2));
        return 0;
    case S_RPT: return rpt(x, in, pc, len);
    case S_FLOAT: return ipu_exec_float(x, in, row_fsem[in->op - ipu_ops]);
    case S_AMP: return ipu_exec_amp(x, in, row_asem[in->op - ipu_ops]);
    case S_MISC: return ipu_exec_misc(x, in, row_msem[in->op - ipu_ops]);
    case S_TAPACK: { /* tapack $mD:D+1, $mA0, $mA1, $mA2: each address masked to 21 bits */
        uint32_t t[3] = {opv(x, in, 1), opv(x, in, 2), opv(x, in, 3)}, lo, hi;
        t[2] &= TA_MASK;
        ta_pack(t, &lo, &hi);
        ipu_wm(x, in->v[0], lo);
        ipu_wm(x, in->v[0] + 1, hi);
        return 0;
    }
    case S_PACE: return pace(x, in);
    default: return not_modelled(x, in, NULL);
    }
}

/* ARF registers an instruction writes, as a mask (bundle pairing check): the destination
 * operand of the rows executed here. Main-pipe loads to $a and the aux ALU write op0. */
uint32_t ipu_arf_writes(const ipu_insn *in)
{
    int sem = ipu_sem_of(in);
    if (sem == S_PACE && in->op->name[0] == 'l') { /* the loads' $a destinations */
        uint32_t r = in->v[0], w = (r < 14 ? 3u << r : 0);
        if (in->op->op[0].kind == IPU_K_ARQ)
            w |= r + 2 < 14 ? 3u << (r + 2) : 0;
        if (!strncmp(in->op->name, "ld2x64pace", 10))
            w |= in->v[1] < 14 ? 3u << in->v[1] : 0;
        return w;
    }
    if (sem == S_AMP)
        return ipu_amp_arf_writes(in, row_asem[in->op - ipu_ops]);
    if (sem == S_MISC)
        return ipu_misc_arf_writes(in, row_msem[in->op - ipu_ops]);
    if (sem != S_LOAD && !(sem >= S_AAND && sem <= S_ASETZI) && sem != S_UGET &&
        !(sem == S_FLOAT && ipu_float_writes_op0(row_fsem[in->op - ipu_ops])))
        return 0;
    uint32_t r = in->v[0];
    switch (in->op->op[0].kind) {
    case IPU_K_AR: return r < 15 ? 1u << r : 0;
    case IPU_K_ARP: return r < 14 ? 3u << r : 0;
    case IPU_K_ARQ: return (r < 14 ? 3u << r : 0) | (r + 2 < 14 ? 3u << (r + 2) : 0);
    default: return 0;
    }
}

/* The bundle at the context's pc, decoded through the tile's predecode cache: one or two
 * instructions (pointers into the cache). 0 ok (*len 4 or 8), -1 raised. */
typedef struct xbundle {
    int n;
    const ipu_insn *in[2];
} xbundle;

/* An 8-byte instruction (ipu21's sendpicp): aligned, its payload word in tile memory. */
static int fetch_wide(xs *x, uint32_t pc, unsigned *len)
{
    if (pc & 7)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_MISALIGNED_EXEBUNDLE,
                    "sendpicp (two words) at an address that is not 8-byte aligned");
    if (!ipu_in_mem(x->im, pc + 4, 4))
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_PC_NOT_VALID,
                    "sendpicp's payload word outside tile memory");
    x->payload = mem_ld32le(x->tl->mem + (pc + 4 - x->im->mem_base));
    *len = 8;
    return 0;
}

static int fetch(xs *x, xbundle *b, unsigned *len)
{
    ipu_ctx *c = x->c;
    uint32_t pc = c->pc;
    int ctx = x->tid == IPU_SUP ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
    if (pc & 3)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_PC_MISALIGNED, "pc is not 4-byte aligned");
    if (!ipu_in_mem(x->im, pc, 4))
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_PC_NOT_VALID, "pc outside tile memory");
    int rc = ipu_pd_decode(x->tl, pc, ctx, 0, &b->in[0]);
    if (rc != IPU_DEC_OK)
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "word 0x%08x is not a %s instruction on %s", b->in[0]->word,
                    ctx == IPU_CTX_SUPERVISOR ? "supervisor" : "worker", ipu_arch_name(x->im->arch));
    b->n = 1;
    *len = 4;
    if (!(b->in[0]->word >> 31))
        return 0;
    if (!(b->in[0]->op->flags & IPU_F_COISSUE)) /* sendpicp (bit 31 set): the next word is its payload */
        return b->in[0]->op->flags & IPU_F_WIDE ? fetch_wide(x, pc, len) : 0;
    /* bit 31 on a co-issuable row: a 64-bit bundle; one at 4 mod 8 executes unless
     * -o bundle_align=raise (docs/isa/ipu.md "Bundles") */
    if ((pc & 7) && x->im->bundle_align)
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_MISALIGNED_EXEBUNDLE,
                    "bundle (co-issue bit set) at an address that is not 8-byte aligned");
    if (!ipu_in_mem(x->im, pc + 4, 4))
        return fail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_PC, IPU_CAUSE_PC_NOT_VALID,
                    "bundle's second word outside tile memory");
    if (ipu_pd_decode(x->tl, pc + 4, ctx, 1, &b->in[1]) != IPU_DEC_OK)
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "bundle's second word 0x%08x is not a %s instruction", b->in[1]->word,
                    ctx == IPU_CTX_SUPERVISOR ? "supervisor" : "worker");
    b->n = 2;
    *len = 8;
    return 0;
}

/* Pairing rules (reference §1.3): one main-pipe then one aux-pipe instruction, not writing
 * the same register. Which exception the hardware raises is not public: we raise
 * TEXCPT_INVALID_INSTR with CAUSEID_ILLEGAL_INSTRUCTION (inferred). */
static int check_pair(xs *x, const xbundle *b)
{
    const ipu_opdef *a = b->in[0]->op, *c = b->in[1]->op;
    if (a->pipe != IPU_PIPE_MAIN || c->pipe != IPU_PIPE_AUX)
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "invalid bundle { %s ; %s }: a bundle is a main-pipe then an aux-pipe instruction", a->mnemonic,
                    c->mnemonic);
    if (!(c->flags & IPU_F_COISSUE))
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "invalid bundle: %s may not be co-issued", c->mnemonic);
    uint32_t both = ipu_arf_writes(b->in[0]) & ipu_arf_writes(b->in[1]);
    if (both)
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                    "invalid bundle { %s ; %s }: both halves write $a%d", a->mnemonic, c->mnemonic, __builtin_ctz(both));
    return 0;
}

/* Inside an rpt body (help text): every bundle must be a 64-bit bundle, and neither half
 * a control or system instruction; otherwise TEXCPT_INVALID_INSTR (type inferred) with
 * CAUSEID_INSTR_IN_REPEAT, and $WSR.ERPT is set as for every exception raised in a body. */
static int check_rpt_body(xs *x, const xbundle *b)
{
    if (b->n != 2)
        return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_INSTR_IN_REPEAT,
                    "%s: a solo instruction inside an rpt body (only 64-bit bundles may repeat)",
                    b->in[0]->op->mnemonic);
    for (int h = 0; h < 2; h++)
        if (b->in[h]->op->flags & (IPU_F_CONTROL | IPU_F_SYSTEM))
            return fail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_INSTR_IN_REPEAT,
                        "%s: a %s instruction inside an rpt body", b->in[h]->op->mnemonic,
                        b->in[h]->op->flags & IPU_F_CONTROL ? "control" : "system");
    return 0;
}

int ipu_exec_bundle(sim_machine *m, sim_unit *u, ipu_tile *tl, int tid, uint64_t t, ipu_issue *is)
{
    xs x = {.m = m, .u = u, .tl = tl, .im = tl->im, .c = &tl->ctx[tid], .tid = tid, .t = t, .is = is};
    is->ninsn = is->taken = is->started_workers = 0;
    is->busy = 0;
    is->rmask = is->wmask = 0;
    xbundle b;
    unsigned len;
    uint32_t snap_m[16], snap_a[16];
    if (fetch(&x, &b, &len))
        return -1;
    const int in_rpt = x.c->rpt_count != 0;
    if (in_rpt && check_rpt_body(&x, &b)) {
        x.c->erpt = 1;
        return -1;
    }
    if (b.n == 2 && check_pair(&x, &b))
        return -1;
    /* nothing of a bundle retires unless all of it can: check both halves are modelled */
    for (int h = 0; h < b.n; h++)
        if (!ipu_sem_of(b.in[h]))
            return not_modelled(&x, b.in[h], NULL);
    if (b.n == 2) {
        /* both halves read the registers as the bundle found them */
        memcpy(snap_m, x.c->m, sizeof snap_m);
        memcpy(snap_a, x.c->a, sizeof snap_a);
        x.sm = snap_m;
        x.sa = snap_a;
    } else {
        /* one instruction reads its sources before it writes: no copy needed */
        x.sm = x.c->m;
        x.sa = x.c->a;
    }
    uint32_t pc = x.c->pc;
    x.next_pc = pc + len;
    for (int h = 0; h < b.n; h++)
        if (exec_one(&x, b.in[h], pc, len)) {
            if (in_rpt)
                x.c->erpt = 1;
            return -1;
        }
    is->ninsn = b.n;
    /* the last bundle of an rpt body goes back to its first until the count runs out */
    if (in_rpt && x.next_pc == x.c->rpt_end && --x.c->rpt_count)
        x.next_pc = x.c->rpt_first;
    if (x.c->state == IPU_CS_ACTIVE || x.c->state == IPU_CS_EXITED)
        x.c->pc = x.next_pc;
    return 0;
}

/* MRF registers the main half reads: every $m operand except a pure destination. */
uint32_t ipu_bundle_reads(ipu_tile *tl, int tid)
{
    const ipu_machine *im = tl->im;
    uint32_t pc = tl->ctx[tid].pc;
    if ((pc & 3) || !ipu_in_mem(im, pc, 4))
        return 0;
    const ipu_insn *ip;
    if (ipu_pd_decode(tl, pc, tid == IPU_SUP ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER, 0, &ip) != IPU_DEC_OK)
        return 0;
    const ipu_insn in = *ip;
    int sem = ipu_sem_of(&in);
    /* op0 is a source for stores, branches, exits, run/runall and brnzdec; put reads op1 */
    int op0_src = sem == S_STORE || (sem >= S_BR && sem <= S_BRNZDEC) || (sem >= S_EXITZ && sem <= S_RUNALL) ||
                  (sem == S_MISC && ipu_misc_reads_op0(&in, row_msem[in.op - ipu_ops]));
    uint32_t r = 0;
    for (int i = op0_src ? 0 : 1; i < in.op->nops; i++)
        if (in.op->op[i].kind == IPU_K_MR && in.v[i] != 15)
            r |= 1u << in.v[i];
    if (sem == S_CALL)
        r = 0; /* its register operand is the link it writes */
    return r;
}

/* exec.c's helpers for exec_misc*.c (exec.h) */
uint8_t *ipu_data_ptr(xs *x, uint32_t ea, unsigned n, unsigned kind) { return data_ptr(x, ea, n, kind); }
void ipu_ta_unpack(uint32_t lo, uint32_t hi, uint32_t a[3]) { ta_unpack(lo, hi, a); }
void ipu_ta_pack(const uint32_t a[3], uint32_t *lo, uint32_t *hi) { ta_pack(a, lo, hi); }
uint32_t ipu_mem_elem(const ipu_machine *im, uint32_t ea) { return mem_elem(im, ea); }
