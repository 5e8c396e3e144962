/* isa/nyuzi/exec.c: Nyuzi instruction semantics, independent of timing.
 * nyz_exec() executes one predecoded instruction for one hardware thread: ALU (scalar,
 * vector, masked), compares into scalar masks, loads and stores of every kind (scalar,
 * block, gather/scatter one lane per subcycle, linked load / store-conditional), control
 * registers, cache control and the software-managed TLBs, branches, syscall/break/eret and
 * traps. Results follow the reference emulator (tools/emulator/processor.c) except where
 * docs/isa/nyuzi.md says the RTL is followed instead. It reports what happened in a
 * nyz_effect for the timing model; it never decides cycles itself. */
#include <math.h>
#include <string.h>
#include "nyuzi.h"
#include "../../core/debug.h"

static inline float f_of(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static inline uint32_t i_of(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/* The RTL's FP pipeline returns the canonical NaN 0x7FFFFFFF for any NaN result (the
 * emulator returns the host's NaN); followed here, see docs/isa/nyuzi.md. */
static inline uint32_t fnan(float f) { return isnan(f) ? 0x7fffffffu : i_of(f); }

static uint32_t ftoi(uint32_t v)
{
    float f = f_of(v);
    /* Out of range and NaN give the x86 "integer indefinite" value, as the emulator does
     * on its host; in range truncates toward zero. */
    if (isnan(f) || f >= 2147483648.0f || f < -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

static uint32_t reciprocal(uint32_t v)
{
    /* 6-bit estimate: 1/x of the input truncated to 6 fraction bits, result truncated to
     * its top 15 bits (sign, exponent, 6 fraction bits), NaN left as computed. */
    float r = 1.0f / f_of(v & 0xfffe0000u);
    uint32_t ir = i_of(r);
    if (!isnan(r))
        ir &= 0xfffe0000u;
    return ir;
}

static inline uint32_t alu(int op, uint32_t a, uint32_t b)
{
    switch (op) {
    case NYZ_OP_OR: return a | b;
    case NYZ_OP_AND: return a & b;
    case NYZ_OP_XOR: return a ^ b;
    case NYZ_OP_ADD_I: return a + b;
    case NYZ_OP_SUB_I: return a - b;
    case NYZ_OP_MULL_I: return a * b;
    case NYZ_OP_MULH_U: return (uint32_t)(((uint64_t)a * b) >> 32);
    case NYZ_OP_ASHR: return (uint32_t)((int32_t)a >> (b & 31));
    case NYZ_OP_SHR: return a >> (b & 31);
    case NYZ_OP_SHL: return a << (b & 31);
    case NYZ_OP_CLZ: return b == 0 ? 32u : (uint32_t)__builtin_clz(b);
    case NYZ_OP_CTZ: return b == 0 ? 32u : (uint32_t)__builtin_ctz(b);
    case NYZ_OP_MOVE: return b;
    case NYZ_OP_CMPEQ_I: return a == b;
    case NYZ_OP_CMPNE_I: return a != b;
    case NYZ_OP_CMPGT_I: return (int32_t)a > (int32_t)b;
    case NYZ_OP_CMPGE_I: return (int32_t)a >= (int32_t)b;
    case NYZ_OP_CMPLT_I: return (int32_t)a < (int32_t)b;
    case NYZ_OP_CMPLE_I: return (int32_t)a <= (int32_t)b;
    case NYZ_OP_CMPGT_U: return a > b;
    case NYZ_OP_CMPGE_U: return a >= b;
    case NYZ_OP_CMPLT_U: return a < b;
    case NYZ_OP_CMPLE_U: return a <= b;
    case NYZ_OP_FTOI: return ftoi(b);
    case NYZ_OP_RECIPROCAL: return reciprocal(b);
    case NYZ_OP_SEXT8: return (uint32_t)(int32_t)(int8_t)b;
    case NYZ_OP_SEXT16: return (uint32_t)(int32_t)(int16_t)b;
    case NYZ_OP_MULH_I: return (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
    case NYZ_OP_ADD_F: return fnan(f_of(a) + f_of(b));
    case NYZ_OP_SUB_F: return fnan(f_of(a) - f_of(b));
    case NYZ_OP_MUL_F: return fnan(f_of(a) * f_of(b));
    case NYZ_OP_ITOF: return i_of((float)(int32_t)b);
    case NYZ_OP_CMPGT_F: return f_of(a) > f_of(b);
    case NYZ_OP_CMPGE_F: return f_of(a) >= f_of(b);
    case NYZ_OP_CMPLT_F: return f_of(a) < f_of(b);
    case NYZ_OP_CMPLE_F: return f_of(a) <= f_of(b);
    case NYZ_OP_CMPEQ_F: return f_of(a) == f_of(b);
    case NYZ_OP_CMPNE_F: return f_of(a) != f_of(b);
    default: return 0;
    }
}

static inline void set_s(nyz_machine *nm, nyz_thread *t, uint32_t pc, int r, uint32_t v)
{
    if (nm->cosim)
        nyz_cosim_swb(nm, pc, t->gid, r, v);
    t->s[r] = v;
}

static inline void set_v(nyz_machine *nm, nyz_thread *t, uint32_t pc, int r, uint32_t mask,
                         const uint32_t *vals)
{
    if (nm->cosim)
        nyz_cosim_vwb(nm, pc, t->gid, r, mask & 0xffff, vals);
    if ((mask & 0xffff) == 0xffff) {
        memcpy(t->v[r], vals, sizeof t->v[r]);
        return;
    }
    for (int l = 0; l < NYZ_LANES; l++)
        if (mask & (1u << l))
            t->v[r][l] = vals[l];
}

void nyz_thread_reset(nyz_thread *t, int gid)
{
    memset(t, 0, sizeof *t);
    t->gid = gid;
    t->flags = NYZ_F_S;
    t->ts[0].flags = NYZ_F_S;
    t->sync_line = 1;
    t->fe_sync = 1;
    t->why = 0xff;
}

uint32_t nyz_pending_ints(nyz_machine *nm, nyz_core *c, nyz_thread *t)
{
    return ((c->level_trig & nm->int_levels) | (~c->level_trig & t->latched)) & t->int_mask;
}

static const char *const trap_names[] = {
    "RESET", "ILLEGAL_INSTRUCTION", "PRIVILEGED_OP", "INTERRUPT", "SYSCALL", "UNALIGNED_ACCESS",
    "PAGE_FAULT", "TLB_MISS", "ILLEGAL_STORE", "SUPERVISOR_ACCESS", "NOT_EXECUTABLE", "BREAKPOINT"};

/* the names a timeline shows (dbg_note), in trap-type order */
static const char *const trap_notes[] = {
    "trap: RESET", "trap: ILLEGAL_INSTRUCTION", "trap: PRIVILEGED_OP", "trap: INTERRUPT", "trap: SYSCALL",
    "trap: UNALIGNED_ACCESS", "trap: PAGE_FAULT", "trap: TLB_MISS", "trap: ILLEGAL_STORE",
    "trap: SUPERVISOR_ACCESS", "trap: NOT_EXECUTABLE", "trap: BREAKPOINT"};

void nyz_raise_trap(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, int type,
                    int is_store, int is_data, uint32_t addr, uint32_t syscall)
{
    sim_machine *m = nm->m;
    if (m->slow && type >= 0 && type < (int)(sizeof trap_notes / sizeof trap_notes[0]))
        dbg_note(m, c->index, t->gid - c->index * c->nthreads, m->units[c->index].last_issue, trap_notes[type]);
    if (c->trap_handler == 0 && type != NYZ_TT_TLB_MISS && type != NYZ_TT_INTERRUPT &&
        type != NYZ_TT_SYSCALL) {
        /* No handler installed: stop with the reason (the emulator does the same; the RTL
         * would jump to address 0). */
        t->pc = pc;
        sim_set_stop(nm->m, type == NYZ_TT_ILLEGAL ? SIM_STOP_ILLEGAL : SIM_STOP_FAULT, c->index,
                     t->gid - c->index * c->nthreads, pc,
                     "thread %d caught fault %s @0x%08x (address 0x%08x)", t->gid,
                     trap_names[type], pc, addr);
        return;
    }
    t->ts[1] = t->ts[0];
    nyz_trapsave *s = &t->ts[0];
    s->cause = (uint32_t)type | (is_store ? 0x10u : 0) | (is_data ? 0x20u : 0);
    s->pc = pc;
    s->flags = t->flags;
    s->subcycle = t->subcycle;
    s->addr = addr;
    s->syscall = syscall;
    t->flags &= ~(uint32_t)NYZ_F_I;
    t->flags |= NYZ_F_S;
    if (type == NYZ_TT_TLB_MISS) {
        t->pc = c->tlb_miss_handler;
        t->flags &= ~(uint32_t)NYZ_F_M;
    } else
        t->pc = c->trap_handler;
    t->subcycle = 0;
    if (type == NYZ_TT_INTERRUPT)
        c->events[0]++;
}

/* MMU: 0 ok with *pa, -1 after raising the trap (or stopping). */
int nyz_translate(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t va, uint32_t *pa,
                  int is_store, int is_data, uint32_t pc)
{
    if (!(t->flags & NYZ_F_M)) {
        *pa = va;
        return 0;
    }
    unsigned set = (va / NYZ_PAGE) % c->tlb_sets;
    nyz_tlb_entry *e = (is_data ? c->dtlb : c->itlb) + set * c->tlb_ways;
    uint32_t page = va & ~(NYZ_PAGE - 1);
    for (unsigned w = 0; w < c->tlb_ways; w++) {
        if (e[w].va == page && ((e[w].pa_flags & 0x10) || e[w].asid == t->asid)) {
            uint32_t f = e[w].pa_flags;
            int tt = -1;
            if (!(f & 1))
                tt = NYZ_TT_PAGE_FAULT;
            else if ((f & 8) && !(t->flags & NYZ_F_S))
                tt = NYZ_TT_SUPERVISOR;
            else if (!is_data && !(f & 4))
                tt = NYZ_TT_NOT_EXEC;
            else if (is_store && !(f & 2))
                tt = NYZ_TT_ILLEGAL_STORE;
            if (tt >= 0) {
                nyz_raise_trap(nm, c, t, pc, tt, is_store, is_data, va, 0);
                return -1;
            }
            *pa = (f & ~(NYZ_PAGE - 1)) | (va & (NYZ_PAGE - 1));
            return 0;
        }
    }
    c->events[is_data ? 10 : 7]++;
    nyz_raise_trap(nm, c, t, pc, NYZ_TT_TLB_MISS, is_store, is_data, va, 0);
    return -1;
}

/* Instruction fetch without side effects (the front end's L1I lookup) with the given flags
 * (MMU, supervisor): 0 and the physical
 * address if pc can be fetched; 1 and the address of its line if fetching it faults but
 * the RTL still looks the line up (misaligned pc, or a TLB entry without permission);
 * -1 if there is nothing to look up (TLB miss, outside memory). Faults are raised when the
 * instruction issues. */
int nyz_fetch_peek(const nyz_machine *nm, const nyz_core *c, const nyz_thread *t, uint32_t flags,
                   uint32_t pc, uint32_t *pa)
{
    int r = (pc & 3) != 0;
    pc &= ~3u;
    if (flags & NYZ_F_M) {
        unsigned set = (pc / NYZ_PAGE) % c->tlb_sets;
        const nyz_tlb_entry *e = c->itlb + set * c->tlb_ways;
        uint32_t page = pc & ~(NYZ_PAGE - 1), f = 0;
        unsigned w;
        for (w = 0; w < c->tlb_ways; w++)
            if (e[w].va == page && ((e[w].pa_flags & 0x10) || e[w].asid == t->asid))
                break;
        if (w == c->tlb_ways)
            return -1;
        f = e[w].pa_flags;
        if (!(f & 1) || ((f & 8) && !(flags & NYZ_F_S)) || !(f & 4))
            r = 1;
        *pa = (f & ~(NYZ_PAGE - 1)) | (pc & (NYZ_PAGE - 1));
    } else
        *pa = pc;
    return *pa > nm->ram_size - 4 ? -1 : r;
}

static void invalidate_sync(nyz_machine *nm, uint32_t pa)
{
    uint32_t line = pa & ~(uint32_t)(NYZ_LINE - 1);
    for (int ci = 0; ci < nm->ncores; ci++)
        for (int i = 0; i < nm->cores[ci].nthreads; i++)
            if (nm->cores[ci].t[i].sync_line == line)
                nm->cores[ci].t[i].sync_line = 1;
}

static int bad_access(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t pa,
                      const char *what)
{
    sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, t->gid - c->index * c->nthreads, pc,
                 "%s at physical address 0x%08x (memory is 0x%x bytes; devices at 0xffff0000, 32-bit only)",
                 what, pa, nm->ram_size);
    nm->mem->fault_addr = pa;
    t->pc = pc;
    return -1;
}

/* RAM pointer for nbytes at pa, NULL after stopping on an out-of-range access. */
static inline uint8_t *ram(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t pa,
                           unsigned nbytes, unsigned kind)
{
    if ((uint64_t)pa + nbytes > nm->ram_size) {
        bad_access(nm, c, t, pc, pa, pa >= NYZ_DEVICE_BASE ? "invalid device access width" : "memory access out of range");
        return NULL;
    }
    if (nm->mem->nwatch)
        mem_watch_check(nm->mem, pa, nbytes, kind);
    return nm->ram + pa;
}

uint32_t nyz_read_cr(nyz_machine *nm, nyz_core *c, nyz_thread *t, int cr)
{
    switch (cr) {
    case 0: return (uint32_t)t->gid;
    case 1: return c->trap_handler;
    case 2: return t->ts[0].pc;
    case 3: return t->ts[0].cause;
    case 4: return t->flags;
    case 5: return t->ts[0].addr;
    case 6: return (uint32_t)nyz_now(nm);
    case 7: return c->tlb_miss_handler;
    case 8: return t->ts[0].flags;
    case 9: return t->asid;
    case 10: return t->page_dir;
    case 11: return t->ts[0].scratch0;
    case 12: return t->ts[0].scratch1;
    case 13: return t->ts[0].subcycle;
    case 14: return t->int_mask;
    case 16: return nyz_pending_ints(nm, c, t);
    case 17: return c->level_trig;
    case 19: return t->ts[0].syscall;
    case 22: return c->perf_sel[0];
    case 23: return c->perf_sel[1];
    case 24: case 25: case 26: case 27: {
        int k = (cr - 24) / 2;
        uint64_t v = c->perf_sel[k] < NYZ_NPERF ? c->events[c->perf_sel[k]] - c->perf_count[k] : 0;
        return (cr & 1) ? (uint32_t)(v >> 32) : (uint32_t)v;
    }
    default: return 0xffffffffu;
    }
}

void nyz_write_cr(nyz_machine *nm, nyz_core *c, nyz_thread *t, int cr, uint32_t v)
{
    switch (cr) {
    case 1: c->trap_handler = v; break;
    case 2: t->ts[0].pc = v; break;
    case 4: t->flags = v & 7; break;
    case 7: c->tlb_miss_handler = v; break;
    case 8: t->ts[0].flags = v & 7; break;
    case 9: t->asid = v & 0xff; break;
    case 10: t->page_dir = v; break;
    case 11: t->ts[0].scratch0 = v; break;
    case 12: t->ts[0].scratch1 = v; break;
    case 13: t->ts[0].subcycle = v & 15; break;
    case 14: t->int_mask = v; break;
    case 15: t->latched &= ~v; break;
    case 17: c->level_trig = v; break;
    case 20: nyz_suspend_threads(nm, v); break;
    case 21:
        if (v & ~1u) /* more than one thread from now on: stores need records (l2_vis.c) */
            nm->undo_on = 1;
        nyz_resume_threads(nm, v);
        break;
    case 22: case 23: {
        /* A counter counts events from the moment its event is selected. */
        int k = cr - 22;
        c->perf_sel[k] = v;
        c->perf_count[k] = v < NYZ_NPERF ? c->events[v] : 0;
        break;
    }
    default: break;
    }
}

static void tlb_insert(nyz_core *c, nyz_thread *t, int data, uint32_t va, uint32_t paf)
{
    nyz_tlb_entry *tlb = data ? c->dtlb : c->itlb;
    unsigned *way = data ? &c->next_dtlb_way : &c->next_itlb_way;
    va &= ~(NYZ_PAGE - 1);
    nyz_tlb_entry *e = tlb + ((va / NYZ_PAGE) % c->tlb_sets) * c->tlb_ways;
    int found = 0;
    for (unsigned w = 0; w < c->tlb_ways; w++)
        if (e[w].va == va && ((e[w].pa_flags & 0x10) || e[w].asid == t->asid)) {
            e[w].pa_flags = paf;
            found = 1;
            break;
        }
    if (!found) {
        e[*way].va = va;
        e[*way].pa_flags = paf;
        e[*way].asid = t->asid;
    }
    *way = (*way + 1) % c->tlb_ways;
}

#define SUPERVISOR_ONLY()                                                         \
    do {                                                                          \
        if (!(t->flags & NYZ_F_S)) {                                              \
            nyz_raise_trap(nm, c, t, pc, NYZ_TT_PRIVILEGED, 0, 0, 0, 0);          \
            ef->trapped = 1;                                                      \
            return;                                                               \
        }                                                                         \
    } while (0)

#define TRAP(type, st, data, addr)                                                \
    do {                                                                          \
        nyz_raise_trap(nm, c, t, pc, type, st, data, addr, 0);                    \
        ef->trapped = 1;                                                          \
        return;                                                                   \
    } while (0)

void nyz_exec(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in, nyz_effect *ef)
{
    uint32_t pc = t->pc;
    uint32_t res[NYZ_LANES];
    t->pc = pc + 4;
    ef->retired = 1;
    switch ((nyz_kind)in->kind) {
    case K_NOP:
        return;
    case K_ILLEGAL:
        TRAP(NYZ_TT_ILLEGAL, 0, 0, 0);
    case K_ALU_SS:
        set_s(nm, t, pc, in->dst, alu(in->alu, t->s[in->s1], t->s[in->s2]));
        return;
    case K_ALU_SI:
        set_s(nm, t, pc, in->dst, alu(in->alu, t->s[in->s1], (uint32_t)in->imm));
        return;
    case K_ALU_VS: case K_ALU_VI: {
        uint32_t b = in->kind == K_ALU_VS ? t->s[in->s2] : (uint32_t)in->imm;
        const uint32_t *a = t->v[in->s1];
        /* common ops without a per-lane dispatch */
#define LANES(expr) for (int l = 0; l < NYZ_LANES; l++) res[l] = (expr)
        switch (in->alu) {
        case NYZ_OP_ADD_I: LANES(a[l] + b); break;
        case NYZ_OP_SUB_I: LANES(a[l] - b); break;
        case NYZ_OP_AND: LANES(a[l] & b); break;
        case NYZ_OP_OR: LANES(a[l] | b); break;
        case NYZ_OP_XOR: LANES(a[l] ^ b); break;
        case NYZ_OP_SHL: LANES(a[l] << (b & 31)); break;
        case NYZ_OP_SHR: LANES(a[l] >> (b & 31)); break;
        case NYZ_OP_MOVE: LANES(b); break;
        case NYZ_OP_MULL_I: LANES(a[l] * b); break;
        default: LANES(alu(in->alu, a[l], b)); break;
        }
        set_v(nm, t, pc, in->dst, in->masked ? t->s[in->mreg] : 0xffff, res);
        return;
    }
    case K_ALU_VV: {
        const uint32_t *a = t->v[in->s1], *b = t->v[in->s2];
        switch (in->alu) {
        case NYZ_OP_ADD_I: LANES(a[l] + b[l]); break;
        case NYZ_OP_SUB_I: LANES(a[l] - b[l]); break;
        case NYZ_OP_AND: LANES(a[l] & b[l]); break;
        case NYZ_OP_OR: LANES(a[l] | b[l]); break;
        case NYZ_OP_XOR: LANES(a[l] ^ b[l]); break;
        case NYZ_OP_MOVE: LANES(b[l]); break;
        case NYZ_OP_MULL_I: LANES(a[l] * b[l]); break;
        default: LANES(alu(in->alu, a[l], b[l])); break;
        }
#undef LANES
        set_v(nm, t, pc, in->dst, in->masked ? t->s[in->mreg] : 0xffff, res);
        return;
    }
    case K_SHUFFLE: {
        const uint32_t *a = t->v[in->s1], *b = t->v[in->s2];
        for (int l = 0; l < NYZ_LANES; l++)
            res[l] = a[b[l] & 15];
        set_v(nm, t, pc, in->dst, in->masked ? t->s[in->mreg] : 0xffff, res);
        return;
    }
    case K_CMP_SS: case K_CMP_SI: {
        uint32_t b = in->kind == K_CMP_SS ? t->s[in->s2] : (uint32_t)in->imm;
        set_s(nm, t, pc, in->dst, alu(in->alu, t->s[in->s1], b) ? 0xffffu : 0);
        return;
    }
    case K_CMP_VS: case K_CMP_VI: case K_CMP_VV: {
        uint32_t m = 0;
        const uint32_t *a = t->v[in->s1];
        for (int l = 0; l < NYZ_LANES; l++) {
            uint32_t b = in->kind == K_CMP_VS ? t->s[in->s2]
                       : in->kind == K_CMP_VI ? (uint32_t)in->imm : t->v[in->s2][l];
            if (alu(in->alu, a[l], b))
                m |= 1u << l;
        }
        set_s(nm, t, pc, in->dst, m);
        return;
    }
    case K_GETLANE_R:
        set_s(nm, t, pc, in->dst, t->v[in->s1][t->s[in->s2] & 15]);
        return;
    case K_GETLANE_I:
        set_s(nm, t, pc, in->dst, t->v[in->s1][in->imm & 15]);
        return;
    case K_SYSCALL:
        nyz_raise_trap(nm, c, t, pc, NYZ_TT_SYSCALL, 0, 0, 0, (uint32_t)in->imm);
        ef->trapped = 1;
        return;
    case K_BREAK:
        TRAP(NYZ_TT_BREAKPOINT, 0, 0, 0);
    case K_LOAD: case K_LOAD_SYNC: {
        uint32_t va = t->s[in->s1] + (uint32_t)in->imm, pa, v;
        if (va & (in->width - 1u))
            TRAP(NYZ_TT_UNALIGNED, 0, 1, va);
        if (nyz_translate(nm, c, t, va, &pa, 0, 1, pc) < 0) {
            ef->trapped = 1;
            return;
        }
        ef->paddr = pa;
        if (pa >= NYZ_DEVICE_BASE && in->width == 4 && in->kind == K_LOAD) {
            ef->mem = 4;
            nyz_dev_read(nm, pa, &v);
        } else {
            uint8_t *p = ram(nm, c, t, pc, pa, in->width, MEM_R);
            if (!p) {
                ef->trapped = 1;
                return;
            }
            ef->mem = in->kind == K_LOAD ? 1 : 3;
            uint8_t seen[4];
            if (nm->nundo) { /* another thread's store this thread does not see yet */
                memcpy(seen, p, in->width);
                nyz_undo_read(nm, t, pa, in->width, seen);
                p = seen;
            }
            if (in->width == 4)
                v = mem_ld32le(p);
            else if (in->width == 2)
                v = in->sext ? (uint32_t)(int32_t)(int16_t)mem_ld16le(p) : mem_ld16le(p);
            else
                v = in->sext ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
            if (in->kind == K_LOAD_SYNC)
                t->sync_line = pa & ~(uint32_t)(NYZ_LINE - 1);
        }
        set_s(nm, t, pc, in->dst, v);
        return;
    }
    case K_STORE: case K_STORE_SYNC: {
        uint32_t va = t->s[in->s1] + (uint32_t)in->imm, pa, v = t->s[in->dst];
        if (va & (in->width - 1u))
            TRAP(NYZ_TT_UNALIGNED, 1, 1, va);
        if (nyz_translate(nm, c, t, va, &pa, 1, 1, pc) < 0) {
            ef->trapped = 1;
            return;
        }
        ef->paddr = pa;
        if (pa >= NYZ_DEVICE_BASE && in->width == 4 && in->kind == K_STORE) {
            ef->mem = 4;
            nyz_dev_write(nm, pa, v);
            return;
        }
        uint8_t *p = ram(nm, c, t, pc, pa, in->width, MEM_W);
        if (!p) {
            ef->trapped = 1;
            return;
        }
        ef->mem = in->kind == K_STORE ? 2 : 3;
        if (in->kind == K_STORE_SYNC) {
            /* The success flag is not a cosim event; only the memory write is. */
            if (t->sync_line != (pa & ~(uint32_t)(NYZ_LINE - 1))) {
                t->s[in->dst] = 0;
                return;
            }
            t->s[in->dst] = 1;
        }
        nyz_undo_store(nm, t, pa, in->width, ((1ull << in->width) - 1) << (pa & (NYZ_LINE - 1)));
        if (in->width == 4)
            mem_st32le(p, v);
        else if (in->width == 2)
            mem_st16le(p, (uint16_t)v);
        else
            p[0] = (uint8_t)v;
        invalidate_sync(nm, pa);
        if (nm->cosim)
            nyz_cosim_store(nm, pc, t->gid, va, in->width, v);
        return;
    }
    case K_GETCR:
        SUPERVISOR_ONLY();
        ef->mem = 5;
        set_s(nm, t, pc, in->dst, nyz_read_cr(nm, c, t, in->s1));
        return;
    case K_SETCR:
        SUPERVISOR_ONLY();
        ef->mem = 5;
        nyz_write_cr(nm, c, t, in->s1, t->s[in->dst]);
        return;
    case K_LOAD_V: case K_STORE_V: {
        int st = in->kind == K_STORE_V;
        uint32_t va = t->s[in->s1] + (uint32_t)in->imm, pa;
        uint32_t mask = in->masked ? t->s[in->mreg] & 0xffff : 0xffff;
        if (va & (NYZ_LINE - 1))
            TRAP(NYZ_TT_UNALIGNED, st, 1, va);
        if (nyz_translate(nm, c, t, va, &pa, st, 1, pc) < 0) {
            ef->trapped = 1;
            return;
        }
        ef->paddr = pa;
        uint8_t *p = ram(nm, c, t, pc, pa, NYZ_LINE, st ? MEM_W : MEM_R);
        if (!p) {
            ef->trapped = 1;
            return;
        }
        ef->mem = st ? 2 : 1;
        if (!st) {
            uint8_t seen[NYZ_LINE];
            if (nm->nundo) {
                memcpy(seen, p, NYZ_LINE);
                nyz_undo_read(nm, t, pa, NYZ_LINE, seen);
                p = seen;
            }
            for (int l = 0; l < NYZ_LANES; l++)
                res[l] = mem_ld32le(p + 4 * l);
            set_v(nm, t, pc, in->dst, mask, res);
            return;
        }
        if (mask == 0) {
            ef->mem = 0; /* the hardware ignores a block store with no lanes */
            return;
        }
        if (nm->cosim)
            nyz_cosim_vstore(nm, pc, t->gid, va, mask, t->v[in->dst]);
        uint64_t bytes = 0;
        for (int l = 0; l < NYZ_LANES; l++)
            if (mask & (1u << l))
                bytes |= 0xfull << (4 * l);
        nyz_undo_store(nm, t, pa, NYZ_LINE, bytes);
        for (int l = 0; l < NYZ_LANES; l++)
            if (mask & (1u << l))
                mem_st32le(p + 4 * l, t->v[in->dst][l]);
        invalidate_sync(nm, pa);
        ef->full_line = mask == 0xffff;
        return;
    }
    case K_LOAD_GATH: case K_STORE_SCAT: {
        int st = in->kind == K_STORE_SCAT;
        uint32_t lane = t->subcycle & 15;
        uint32_t mask = in->masked ? t->s[in->mreg] & 0xffff : 0xffff;
        uint32_t va = t->v[in->s1][lane] + (uint32_t)in->imm, pa;
        int active = (mask >> lane) & 1;
        if (active) {
            if (va & 3)
                TRAP(NYZ_TT_UNALIGNED, st, 1, va);
            if (nyz_translate(nm, c, t, va, &pa, st, 1, pc) < 0) {
                ef->trapped = 1;
                return;
            }
            uint8_t *p = ram(nm, c, t, pc, pa, 4, st ? MEM_W : MEM_R);
            if (!p) {
                ef->trapped = 1;
                return;
            }
            ef->paddr = pa;
            ef->mem = st ? 2 : 1;
            if (st) {
                uint32_t v = t->v[in->dst][lane];
                nyz_undo_store(nm, t, pa, 4, 0xfull << (pa & (NYZ_LINE - 1)));
                mem_st32le(p, v);
                invalidate_sync(nm, pa);
                if (nm->cosim)
                    nyz_cosim_store(nm, pc, t->gid, va, 4, v);
            } else {
                memset(res, 0, sizeof res);
                uint8_t seen[4];
                if (nm->nundo) {
                    memcpy(seen, p, 4);
                    nyz_undo_read(nm, t, pa, 4, seen);
                    p = seen;
                }
                res[lane] = mem_ld32le(p);
                set_v(nm, t, pc, in->dst, 1u << lane, res);
            }
        } else if (!st && nm->cosim) {
            memset(res, 0, sizeof res);
            nyz_cosim_vwb(nm, pc, t->gid, in->dst, 0, res);
        }
        if (++t->subcycle == NYZ_LANES)
            t->subcycle = 0;
        else {
            t->pc = pc; /* next subcycle re-issues this instruction */
            ef->retired = 0;
        }
        return;
    }
    case K_DTLBINSERT: case K_ITLBINSERT:
        SUPERVISOR_ONLY();
        ef->mem = 5;
        tlb_insert(c, t, in->kind == K_DTLBINSERT, t->s[in->s1], t->s[in->dst]);
        return;
    case K_DINVALIDATE: case K_DFLUSH: {
        if (in->kind == K_DINVALIDATE)
            SUPERVISOR_ONLY();
        uint32_t pa;
        /* Faults if there is no translation, as a data access would. */
        if (nyz_translate(nm, c, t, t->s[in->s1] + (uint32_t)in->imm, &pa, 0, 1, pc) < 0) {
            ef->trapped = 1;
            return;
        }
        ef->mem = 5;
        ef->paddr = pa;
        return;
    }
    case K_IINVALIDATE:
        ef->mem = 5;
        ef->paddr = t->s[in->s1] + (uint32_t)in->imm;
        return;
    case K_MEMBAR:
        ef->mem = 5;
        return;
    case K_TLBINVAL: {
        SUPERVISOR_ONLY();
        uint32_t va = (t->s[in->s1] + (uint32_t)in->imm) & ~(NYZ_PAGE - 1);
        unsigned base = ((va / NYZ_PAGE) % c->tlb_sets) * c->tlb_ways;
        for (unsigned w = 0; w < c->tlb_ways; w++) {
            if (c->itlb[base + w].va == va)
                c->itlb[base + w].va = 1;
            if (c->dtlb[base + w].va == va)
                c->dtlb[base + w].va = 1;
        }
        ef->mem = 5;
        return;
    }
    case K_TLBINVALALL:
        SUPERVISOR_ONLY();
        for (unsigned i = 0; i < c->tlb_sets * c->tlb_ways; i++)
            c->itlb[i].va = c->dtlb[i].va = 1;
        ef->mem = 5;
        return;
    case K_B_REG:
        t->pc = t->s[in->s1];
        ef->taken = 1;
        c->events[11]++;
        return;
    case K_BZ: case K_BNZ:
        if ((t->s[in->s1] == 0) == (in->kind == K_BZ)) {
            t->pc = pc + (uint32_t)in->imm;
            ef->taken = 1;
            c->events[12]++;
        } else
            c->events[13]++;
        return;
    case K_B:
        t->pc = pc + (uint32_t)in->imm;
        ef->taken = 1;
        c->events[11]++;
        return;
    case K_CALL:
        set_s(nm, t, pc, 31, pc + 4);
        t->pc = pc + (uint32_t)in->imm;
        ef->taken = 1;
        c->events[11]++;
        return;
    case K_CALL_REG: {
        uint32_t target = t->s[in->s1];
        set_s(nm, t, pc, 31, pc + 4);
        t->pc = target;
        ef->taken = 1;
        c->events[11]++;
        return;
    }
    case K_ERET:
        SUPERVISOR_ONLY();
        t->flags = t->ts[0].flags;
        t->pc = t->ts[0].pc;
        t->subcycle = t->ts[0].subcycle;
        t->ts[0] = t->ts[1];
        ef->taken = 1;
        return;
    }
}
