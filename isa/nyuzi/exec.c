/* isa/nyuzi/exec.c: Nyuzi instruction semantics, independent of timing.
 * nyz_exec() executes one predecoded instruction for one hardware thread: ALU (scalar,
 * vector, masked), compares into scalar masks, loads and stores of every kind (scalar,
 * block, gather/scatter one lane per subcycle, linked load / store-conditional), control
 * registers, cache control and the software-managed TLBs, branches, syscall/break/eret and
 * traps. The bodies are in exec_ops.inc, which the functional loop (func.c) includes too;
 * this file holds the dispatch by operation number (nyz_fop, found once per decode) and the
 * out-of-line parts: traps, the MMU, control registers. Results follow the reference
 * emulator (tools/emulator/processor.c) except where docs/isa/nyuzi.md says the RTL is
 * followed instead. It reports what happened in a nyz_effect for the timing model; it never
 * decides cycles itself. */
#include <math.h>
#include <string.h>
#include "exec_ops.h"
#include "../../core/debug.h"

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

/* A TLB change (itlbinsert, tlbinval, tlbinvalall) executed at nm->cur_cycle, its issue:
 * the RTL writes the TLBs a cycle later (the dcache tag stage's input, when the fetch is
 * off), so the fetch of the next cycle, whose ifetch tag stage looks the ITLB up in the
 * issue cycle, still sees the ITLB as it was (pipeline.c fetch_slow). RTL trace of
 * tlb_inval_all.c1t4: a tlbinvalall issued at 1845, the fetch of another thread's code at
 * 1846 (IFD) hits, its instruction issues at 1853 without a trap. */
void nyz_itlb_save(nyz_machine *nm, nyz_core *c)
{
    memcpy(c->itlb_old, c->itlb, (size_t)c->tlb_sets * c->tlb_ways * sizeof *c->itlb);
    c->itlb_old_at = nm->cur_cycle + 1;
}

/* Cycles from..off (at or after now) leave the fetch's plain path (pipeline.c run_core):
 * c->fetch_from..fetch_off grows to hold them (a range that has ended is replaced). */
void nyz_fetch_window(nyz_core *c, uint64_t now, uint64_t from, uint64_t off)
{
    if (c->fetch_off < now || from < c->fetch_from)
        c->fetch_from = from;
    if (c->fetch_off < off)
        c->fetch_off = off;
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
    return nyz_fetch_peek_in(nm, c, c->itlb, t, flags, pc, pa);
}

/* nyz_fetch_peek through the given copy of the ITLB. */
int nyz_fetch_peek_in(const nyz_machine *nm, const nyz_core *c, const nyz_tlb_entry *itlb,
                      const nyz_thread *t, uint32_t flags, uint32_t pc, uint32_t *pa)
{
    int r = (pc & 3) != 0;
    pc &= ~3u;
    if (flags & NYZ_F_M) {
        unsigned set = (pc / NYZ_PAGE) % c->tlb_sets;
        const nyz_tlb_entry *e = itlb + set * c->tlb_ways;
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

void nyz_invalidate_sync(nyz_machine *nm, uint32_t pa)
{
    uint32_t line = pa & ~(uint32_t)(NYZ_LINE - 1);
    for (int ci = 0; ci < nm->ncores; ci++)
        for (int i = 0; i < nm->cores[ci].nthreads; i++)
            if (nm->cores[ci].t[i].sync_line == line)
                nm->cores[ci].t[i].sync_line = 1;
}

int nyz_bad_access(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t pa, const char *what)
{
    sim_set_stop(nm->m, SIM_STOP_FAULT, c->index, t->gid - c->index * c->nthreads, pc,
                 "%s at physical address 0x%08x (memory is 0x%x bytes; devices at 0xffff0000, 32-bit only)",
                 what, pa, nm->ram_size);
    nm->mem->fault_addr = pa;
    t->pc = pc;
    return -1;
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
    case 4:
        /* control_registers.sv writes CR_FLAGS at the end of the setcr's dcache data stage
         * (issue + 2); ifetch_data reads cr_mmu_en and cr_supervisor_en, decode (a cycle
         * later) cr_interrupt_en: the fetches (ifetch_data) up to the issue + 2 have the
         * flags from before (pipeline.c fetch_window). An access issued after it reads
         * cr_mmu_en in its dcache data stage, issue + 2 or later: the new flags (one right
         * behind it, at issue + 1, checks supervisor mode for a TLB operation in its tag
         * stage, issue + 2, with the old ones: not modelled) */
        t->fl_old = t->flags;
        t->fl_at = nm->cur_cycle + 3;
        nyz_fetch_window(c, nm->cur_cycle, nm->cur_cycle + 1, nm->cur_cycle + 2);
        t->flags = v & 7;
        break;
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

void nyz_tlb_insert(nyz_core *c, nyz_thread *t, int data, uint32_t va, uint32_t paf)
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

/* The operation number of a decoded instruction (exec_ops.h): its kind split by ALU
 * operation, operand form, mask and width. */
static unsigned fop_of(const nyz_insn *in)
{
    unsigned form; /* ALU: 0 SS, 1 SI, 2 VS, 3 VI, 4 VV; compares: 0 SS, 1 SI, 2 VS, 3 VI, 4 VV */
    switch ((nyz_kind)in->kind) {
    case K_ILLEGAL: return F_ILLEGAL;
    case K_NOP: return F_NOP;
    case K_ALU_SS: form = 0; break;
    case K_ALU_SI: form = 1; break;
    case K_ALU_VS: form = 2; break;
    case K_ALU_VI: form = 3; break;
    case K_ALU_VV: form = 4; break;
    case K_CMP_SS: case K_CMP_SI: case K_CMP_VS: case K_CMP_VI: case K_CMP_VV:
        form = in->kind == K_CMP_SS ? 0 : in->kind == K_CMP_SI ? 1 : in->kind == K_CMP_VS ? 2
             : in->kind == K_CMP_VI ? 3 : 4;
        switch (in->alu) {
#define NYZ_CASE_(T, n, e) case NYZ_OP_##n: return F_CSS_##n + form;
        NYZ_CMP(NYZ_CASE_, _)
#undef NYZ_CASE_
        default: return F_CSS_GEN + form;
        }
    case K_GETLANE_R: return F_GETLANE_R;
    case K_GETLANE_I: return F_GETLANE_I;
    case K_SHUFFLE: return F_SHUFFLE;
    case K_SYSCALL: return F_SYSCALL;
    case K_BREAK: return F_BREAK;
    case K_LOAD:
        return in->width == 4 ? F_LOAD_32 : in->width == 2 ? (in->sext ? F_LOAD_S16 : F_LOAD_U16)
             : in->sext ? F_LOAD_S8 : F_LOAD_U8;
    case K_STORE: return in->width == 4 ? F_STORE_32 : in->width == 2 ? F_STORE_16 : F_STORE_8;
    case K_LOAD_SYNC: return F_LOAD_SYNC;
    case K_STORE_SYNC: return F_STORE_SYNC;
    case K_GETCR: return F_GETCR;
    case K_SETCR: return F_SETCR;
    case K_LOAD_V: return F_LOAD_V;
    case K_STORE_V: return F_STORE_V;
    case K_LOAD_GATH: return F_LOAD_GATH;
    case K_STORE_SCAT: return F_STORE_SCAT;
    case K_DTLBINSERT: return F_DTLBINSERT;
    case K_ITLBINSERT: return F_ITLBINSERT;
    case K_DINVALIDATE: return F_DINVALIDATE;
    case K_DFLUSH: return F_DFLUSH;
    case K_IINVALIDATE: return F_IINVALIDATE;
    case K_MEMBAR: return F_MEMBAR;
    case K_TLBINVAL: return F_TLBINVAL;
    case K_TLBINVALALL: return F_TLBINVALALL;
    case K_B_REG: return F_B_REG;
    case K_BZ: return F_BZ;
    case K_BNZ: return F_BNZ;
    case K_B: return F_B;
    case K_CALL: return F_CALL;
    case K_CALL_REG: return F_CALL_REG;
    case K_ERET: return F_ERET;
    default: return F_ILLEGAL;
    }
    if (form == 0 && in->raw == NYZ_MAGIC)
        return F_MAGIC;
    const unsigned masked = form >= 2 && in->masked ? 3 : 0;
    switch (in->alu) {
#define NYZ_CASE_(T, n, e) case NYZ_OP_##n: return F_SS_##n + form + masked;
    NYZ_ALU_VEC(NYZ_CASE_, _)
#undef NYZ_CASE_
#define NYZ_CASE_(T, n, e) case NYZ_OP_##n: return form < 2 ? F_SS_##n + form : F_SS_GEN + form;
    NYZ_ALU_ONE(NYZ_CASE_, _)
#undef NYZ_CASE_
    default: return F_SS_GEN + form;
    }
}

void nyz_predecode(uint32_t w, nyz_insn *in)
{
    nyz_decode(w, in);
    in->fop = (uint16_t)fop_of(in);
}

/* The bodies' hooks for a call per instruction (exec_ops.inc): every end returns, the
 * effect goes to *ef. */
#define OP(f) case f:
#define OPS(f) case f:
#define END() return
#define END_SYS() return
#define END_MARKER() return
#define TAKEN(x)                                                                          \
    do {                                                                                  \
        t->pc = (x);                                                                      \
        ef->taken = 1;                                                                    \
        return;                                                                           \
    } while (0)
#define TAKEN_SYS(x) TAKEN(x)
#define FAILED()                                                                          \
    do {                                                                                  \
        ef->trapped = 1;                                                                  \
        return;                                                                           \
    } while (0)
#define REPEAT()                                                                          \
    do {                                                                                  \
        t->pc = pc; /* the next subcycle issues this instruction again */                 \
        ef->retired = 0;                                                                  \
        return;                                                                           \
    } while (0)
#define EF_MEM(k) (ef->mem = (k))
#define EF_PADDR(a) (ef->paddr = (a))
#define EF_FULL(x) (ef->full_line = (x))
#define NYZ_COSIM (nm->cosim != NULL)
#define NYZ_FUNCTIONAL 0 /* nyz_undo_store itself keeps none in the functional mode */
#define NYZ_LANES_UNROLL /* -O3 (isa.mk) unrolls the lanes */

void nyz_exec(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in, nyz_effect *ef)
{
    const uint32_t pc = t->pc;
    unsigned fop = in->fop;
    if (__builtin_expect(fop == F_UNSET, 0)) /* decoded by nyz_decode alone */
        fop = fop_of(in);
    t->pc = pc + 4;
    ef->retired = 1;
    switch ((nyz_fop_t)fop) {
#include "exec_ops.inc"
    case F_UNSET:
    case NYZ_NFOPS:
        break;
    }
}
