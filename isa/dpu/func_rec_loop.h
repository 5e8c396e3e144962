/* isa/dpu/func_rec_loop.h: the body of func_rec.c's threaded loop, included there twice:
 * plain (FN_PROF 0) and feeding --profile (FN_PROF 1: prof, g0 and the batch state in the
 * slots; notes/profile-api.md). A function whose computed-goto table is static cannot be
 * inlined into two callers, and its labels are its own (each copy has its own records),
 * hence two definitions from one text. Include only from func_rec.c, after FN_PROTO and
 * FN_PROF are defined. */
FN_PROTO
{
#define FN_ADDR(name) &&h_##name,
    static void *const tab[FH_COUNT] = {FN_HANDLERS(FN_ADDR)};
#undef FN_ADDR
    if (!c) {
        *tabp = tab;
        return 0;
    }
    if (!n)
        return 0;
    dpu_fn_slot *s = *sp;
    const dpu_fn_rec *ip = s->ip;
    dpu_tasklet *tk = s->tk;
    uint8_t *const wram = c->wram;
    const uint64_t wlim = c->wlim;
    /* No count per instruction: the run ends after n instructions from s0 (ring index i0,
     * ring of ns slots), i.e. after wn passes of the WRAP record (it counts them down in
     * wl), then rn slots into the last round, where a sentinel record (stop) ends it; with
     * no pass at all, the sentinel goes in now. The instructions run so far are
     * (wn - wl) * ns + (s - s0). */
    dpu_fn_slot *const s0 = s;
    const uint64_t ns = c->step;
    const uint64_t tn = (uint64_t)(s0 - c->begin) + n;
    const uint64_t wn = tn / ns;
    uint64_t wl = wn;
    dpu_fn_slot *const sent = c->begin + tn % ns;
    const dpu_fn_rec *sent_ip = NULL; /* the sentinel slot's own record while it is armed */
    const dpu_fn_rec stop = {.h = &&h_STOP};
    dpu_fn_slot *const se = c->begin + ns; /* the slot after the last */
#define FN_RAN() ((wn - wl) * ns + (uint64_t)(s - s0))
    if (!wn) {
        sent_ip = sent->ip;
        sent->ip = &stop;
    }
#if FN_PROF
    /* --profile: at the last record of a block (func_rec.c fn_blocks: a straight run entered
     * at its first record), the pass through the block counted in the slot's batch word of
     * that record (one instruction of each record, the ring's cycles to the slot's next
     * issue: core/profile.h prof_bat_blocks), or (a block that does not count there) through
     * fn_feed_slow. One read-modify-write a block, not an issue: the word's update is four
     * host micro-ops and its address two loads, and per issue they made the profiled alu
     * loop 1.5x the plain one by time at 1.35x by count. A jump through a register (FN_GO)
     * into the middle of a block tells fn_enter_mid. */
#define FN_FEED()                                                                                        \
    do {                                                                                                 \
        int64_t *const b_ = (int64_t *)((char *)s->bat + ip->poff);                                      \
        if (__builtin_expect((*b_ -= one) < 0, 0))                                                       \
            fn_feed_slow(c, s, b_, ip->pc, t0 + FN_RAN());                                               \
        s->lip = ip;                                                                                     \
    } while (0)
#define FN_ENTER(p)                                                                                      \
    do {                                                                                                 \
        if (__builtin_expect((p) && (p) < c->nwords && !c->blen[(p) - 1], 0))                            \
            fn_enter_mid(c, s, (p), t0 + FN_RAN());                                                      \
    } while (0)
    const int64_t one = PROF_BAT_ONE(ns);
#else
#define FN_FEED() (void)t0
#define FN_ENTER(p) (void)0
#endif
    /* the record after ip, or its branch target when take holds (tgt: the distance in bytes) */
#define FN_BRANCH(take)                                                                                  \
    ((const dpu_fn_rec *)((const char *)ip + ((take) ? ip->tgt : (int32_t)sizeof *ip)))
    /* the registers are the tasklet's first field */
#define R (tk->r)
    /* the tasklet's next record is nip; the next slot's goes on, after the last the first
     * (WRAP). That step is a compare and a branch, not the WRAP record's dispatch: through
     * the record, the last slot's handler jumped to WRAP once a round and to the next
     * tasklet's handler otherwise, and WRAP to the first's, two indirect jumps the host
     * mispredicted every round (dpu16f: 0.71 of the CPU time with the compare, although
     * 19.2 -> 21.0 host instructions per instruction) */
#define FN_STEP(nip)                                                                                     \
    do {                                                                                                 \
        s->ip = (nip);                                                                                   \
        if (__builtin_expect(++s == se, 0))                                                              \
            goto h_WRAP;                                                                                 \
        ip = s->ip;                                                                                      \
        tk = s->tk;                                                                                      \
        goto *ip->h;                                                                                     \
    } while (0)
    /* NEXT: a block's last record (branches, calls and the straight forms' _F twins);
     * NEXT0: inside a block */
#define NEXT(nip)                                                                                        \
    do {                                                                                                 \
        FN_FEED();                                                                                       \
        FN_STEP(nip);                                                                                    \
    } while (0)
#define NEXT0(nip) FN_STEP(nip)
    /* a straight form (its handler M(name, next, ...)) twice in the profiled loop: inside a
     * block and (name_F) at a block's end; once, under both labels, in the plain one */
#if FN_PROF
#define FN_SDEF(M, name, ...) M(name, NEXT0, __VA_ARGS__) M(name##_F, NEXT, __VA_ARGS__)
#else
#define FN_SDEF(M, name, ...) h_##name##_F : M(name, NEXT0, __VA_ARGS__)
#endif
    goto *ip->h;

    /* ALU: res and cy (the carry) from a and b; 32-bit destination, flags of the result;
     * then the record nip (an add/sub with a z/nz branch: the target or the next). The
     * flags are stored before the register (R[ip->c] could alias them as far as the
     * compiler knows: stored after it, the carry waited in a register, setb + movzx + mov;
     * before it, one setb to memory straight from the host's add: dpu16 19.93 -> 18.77
     * host instructions per instruction) and cy is a byte */
#define FN_AB(name, bval, calc, nip) FN_ABF(name, NEXT, bval, calc, nip, 1)
#define FN_ABF(name, nx, bval, calc, nip, flags)                                                         \
    h_##name : {                                                                                         \
        const uint32_t a = R[ip->a], b = (bval);                                                         \
        uint32_t res;                                                                                    \
        uint8_t cy;                                                                                      \
        calc;                                                                                            \
        if (flags) {                                                                                     \
            tk->cf = cy;                                                                                 \
            tk->zf = res == 0;                                                                           \
        }                                                                                                \
        (void)cy;                                                                                        \
        R[ip->c] = res;                                                                                  \
        nx(nip);                                                                                         \
    }
    /* each ALU form twice: storing the flags, and (_N, the same text) without them where
     * func_rec.c's fn_build found them dead (overwritten before any reader: in the
     * records' second copy, func_rec.c fn_heal) */
#define FN_ALU1(name, bval, calc)                                                                        \
    FN_SDEF(FN_ABF, name, bval, calc, ip + 1, 1) FN_SDEF(FN_ABF, name##_N, bval, calc, ip + 1, 0)
#define FN_ALU(name, calc) FN_ALU1(name##_RR, R[ip->b], calc) FN_ALU1(name##_RI, (uint32_t)ip->imm, calc)
    /* the semantics: cond.h's DPU_SEM_* (the text exec.c and fastops.inc use) */
#define FN_ALU_SEM(name) FN_ALU(name, DPU_SEM_##name(res, cy, a, b, tk->cf))
    DPU_SEM_ALU_OPS(FN_ALU_SEM)
#undef FN_ALU_SEM
    /* lsl_add rc, rb, ra, shift: rb + (ra << shift) */
    FN_ALU1(LSLADD, R[ip->b], DPU_SEM_LSLADD(res, cy, a, b, ip->x))

    /* loads and stores: an access out of WRAM or misaligned is the executor's (it faults);
     * the test is DPU_SEM_ADDR_OK's as one mask test (fn_env.wmk: k = log2 n), and where
     * that fails (past a power of two of WRAM, or outside) as one compare (fn_env.wok) */
#define FN_ADDR_OK(n) const uint32_t ad = R[ip->a] + (uint32_t)ip->imm;                                  \
    enum { k_ = (n) == 8 ? 3 : (n) == 4 ? 2 : (n) == 2 ? 1 : 0 };                                        \
    if (__builtin_expect((ad & c->wmk[k_]) != 0, 0) &&                                                   \
        !((uint32_t)(ad >> k_ | ad << ((32 - k_) & 31)) < c->wok[k_]))                                   \
        goto h_GEN
#define FN_LOAD1(name, nx, n, val)                                                                       \
    h_##name : {                                                                                         \
        FN_ADDR_OK(n);                                                                                   \
        R[ip->c] = (val);                                                                                \
        nx(ip + 1);                                                                                      \
    }
#define FN_LOAD(name, n, val) FN_SDEF(FN_LOAD1, name, n, val)
    FN_LOAD(LW, 4, DPU_SEM_LW(wram + ad))
    FN_LOAD(LBU, 1, DPU_SEM_LBU(wram + ad))
    FN_LOAD(LBS, 1, DPU_SEM_LBS(wram + ad))
    FN_LOAD(LHU, 2, DPU_SEM_LHU(wram + ad))
    FN_LOAD(LHS, 2, DPU_SEM_LHS(wram + ad))
#define FN_LD1(name, nx, unused) /* the even register gets the high word */                           \
    h_##name : {                                                                                         \
        FN_ADDR_OK(8);                                                                                   \
        const uint64_t v = mem_ld64le(wram + ad);                                                        \
        R[ip->c] = DPU_SEM_LD_HI(v);                                                                     \
        R[ip->c + 1] = (uint32_t)v;                                                                      \
        nx(ip + 1);                                                                                      \
    }
    FN_SDEF(FN_LD1, LD, 0)
#define FN_STORE2(name, nx, n, val, st)                                                                  \
    h_##name : {                                                                                         \
        FN_ADDR_OK(n);                                                                                   \
        const uint32_t v = (val);                                                                        \
        st;                                                                                              \
        nx(ip + 1);                                                                                      \
    }
#define FN_STORE1(name, n, val, st) FN_SDEF(FN_STORE2, name, n, val, st)
#define FN_STORE(name, n, st) FN_STORE1(name##_RR, n, R[ip->b], st) FN_STORE1(name##_RI, n, (uint32_t)ip->tgt, st)
    FN_STORE(SW, 4, DPU_SEM_SW(wram + ad, v))
    FN_STORE(SB, 1, DPU_SEM_SB(wram + ad, v))
    FN_STORE(SH, 2, DPU_SEM_SH(wram + ad, v))
    FN_STORE1(SD, 8, 0, mem_st64le(wram + ad, DPU_SEM_PAIR(R[ip->b], R[ip->b + 1])); (void)v)

    /* compare and branch (sub without destination): the flags of a - b */
#define FN_J1(name, bval, cmp)                                                                           \
    h_##name : {                                                                                         \
        const uint32_t a = R[ip->a], b = (bval);                                                         \
        DPU_SEM_CMP_FLAGS(tk->zf, tk->cf, a, b);                                                         \
        NEXT(FN_BRANCH(cmp));                                                                            \
    }
#define FN_J(name) FN_J1(name##_RR, R[ip->b], DPU_SEM_##name(a, b)) FN_J1(name##_RI, (uint32_t)ip->imm, DPU_SEM_##name(a, b))
    DPU_SEM_JCMP_OPS(FN_J)

    /* add/sub with a destination and a branch on the result being zero (z) or not (nz) */
#define FN_B1(name, bval, calc, z) FN_AB(name, bval, calc, FN_BRANCH((res == 0) == (z)))
#define FN_B(name, calc, z) FN_B1(name##_RR, R[ip->b], calc, z) FN_B1(name##_RI, (uint32_t)ip->imm, calc, z)
    FN_B(ADDZ, DPU_SEM_ADD(res, cy, a, b, 0), 1)
    FN_B(ADDNZ, DPU_SEM_ADD(res, cy, a, b, 0), 0)
    FN_B(SUBZ, DPU_SEM_SUB(res, cy, a, b, 0), 1)
    FN_B(SUBNZ, DPU_SEM_SUB(res, cy, a, b, 0), 0)

    /* call rc, ra, off: rc = the return index (none: a jump), pc = ra + off, any value: the
     * tasklet's pc holds it (a pc past IRAM runs the far guard: the executor faults) */
#define FN_GO(p) FN_GO1(p, 1)
#define FN_GO1(p, mid)                                                                                   \
    do {                                                                                                 \
        const uint32_t p_ = (uint16_t)(p);                                                               \
        tk->pc = (uint16_t)p_;                                                                           \
        FN_FEED();                                                                                       \
        if (mid)                                                                                         \
            FN_ENTER(p_);                                                                                \
        FN_STEP(p_ <= c->nwords ? c->base + p_ : c->far);                                                \
    } while (0)
    h_CALL_R : {
        const uint32_t a = R[ip->a];
        R[ip->c] = (uint32_t)ip->tgt;
        FN_GO(a + (uint32_t)ip->imm);
    }
    h_CALL_N : FN_GO(R[ip->a] + (uint32_t)ip->imm);

    /* acquire/release (a mutex's spin): the atomic bit's old value decides the jump; the
     * flags stay */
    h_ACQREL : {
        uint8_t *const bit = &c->d->atomic[DPU_SEM_ATOMIC_BIT(R[ip->a], ip->imm)];
        const int was = *bit != 0;
        *bit = ip->x;
        NEXT(FN_BRANCH((ip->c >> was) & 1));
    }

    /* the rarer forms fast.c runs inline: the same text, on the cycle model's record */
    h_OPS : {
        const uint32_t pc = ip->pc;
        const dpu_insn *const in = &c->iram[pc];
        const uint32_t fa = R[in->ra];
        const uint32_t fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        uint32_t res, npc = pc + 1;
        int carry, take;
#define WATCHED(addr, n) 0
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA:
        case DPU_FAST_NONE:
            goto generic;
        default:
            __builtin_unreachable(); /* predecode.c stores only DPU_FAST_* values */
        }
#undef WATCHED
        FN_GO1(npc, 0); /* (the next record or in->pc: both begin a block, fn_build) */
    }

    /* past the ring's last slot: its first (NEXT comes here; the slot after the last also
     * holds this record); at the last pass, the run ends there or the sentinel goes in */
h_WRAP:
    s = c->begin;
    if (__builtin_expect(!--wl, 0)) {
        if (sent == s) /* (rn = 0) */
            goto done;
        sent_ip = sent->ip;
        sent->ip = &stop;
    }
    ip = s->ip;
    tk = s->tk;
    goto *ip->h;

    /* the n-th instruction ran: the slot the sentinel stood in goes on from its record */
h_STOP:
    s->ip = sent_ip;
    goto done;

h_GEN:
generic:
    s->ip = ip;
    if (sent_ip) /* the run ends before the sentinel: the slot gets its record back */
        sent->ip = sent_ip;
    *sp = s;
    return FN_RAN();
done:
    *sp = s;
    return n;
#undef FN_RAN
#undef FN_BRANCH
#undef R
#undef NEXT
#undef NEXT0
#undef FN_STEP
#undef FN_SDEF
#undef FN_FEED
#undef FN_ENTER
}
