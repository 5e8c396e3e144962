/* isa/ipu/func_fx_loop.h: the body of func_fx.c's burst, included there three times: the
 * plain loop (prof a constant NULL, FX_CHECK 0: entries are trusted, stores into code
 * invalidate them), the loop for runs with a debugger attached (FX_CHECK 1: every entry is
 * compared with its word, as the debugger and the host may write memory between runs), and
 * the same with --profile (FX_PROF 1, prof_state *prof not NULL: the issues feed the
 * profile, in batches along the straight-line loop). A function whose computed-goto table
 * is static cannot be inlined into several callers, hence several definitions from one
 * text. Include only from func_fx.c, after FX_PROTO, FX_CHECK and FX_PROF are defined. */
FX_PROTO
{
    const ipu_machine *im = tl->im;
    ipu_ctx *const c = &tl->ctx[tid];
    uint32_t *const R = c->r;
    uint8_t *const mem = tl->mem;
    const uint32_t base = im->mem_base, msize = im->mem_size, rmask = im->repeat_mask;
    uint32_t pc = c->pc;
    uint64_t n = 0, np = 0; /* bundles, and the second instructions of pairs */
    uint32_t rc = c->rpt_count;
    /* --profile: the profile's thread and the thread's retired count at the burst's start */
    const int pg = prof ? u->index * prof->tpu + tid : 0;
    const uint64_t pi0 = u->threads[tid].instructions;
    /* --profile in batches along the straight-line loop (the contract: notes/profile-api.md).
     * Consecutive issues of one thread, one instruction and one cycle apart, whose rows the
     * window maps: instead of each issue closing its predecessor's row with its own count
     * and cycle and opening its own with minus them, the batch closes the row open before it
     * once (pb_start: + the first issue's count and cycle), adds each issue's growth to its
     * own row (one instruction, one cycle) and opens the last one once (pb_end: minus the
     * count and cycle after it): the same sums, a row lookup and two adds per issue. Issues
     * whose row the window does not map (the first, calls, returns, an open call's return
     * address) end the batch and take prof_issue (its slow path) as before. */
    prof_thread *const pt = FX_PROF ? prof_th(prof, pg) : NULL;
    uint64_t *pb_last = NULL; /* the batch's last row (pb: a batch is open) */
    uintptr_t pb_k = 0;       /* the address of word code's row pointer: pb_k + 8 x code */
    int pb = 0;
    /* the handlers of the straight-line loop below */
    static const void *const lbl[] = {
        [FX_BUILD] = &&l_relook, [FX_GEN] = &&l_relook, [FX_XOP] = &&l_relook,
        [FX_ADD] = &&l_add, [FX_SUB] = &&l_sub, [FX_MUL] = &&l_mul, [FX_AND] = &&l_and,
        [FX_ANDC] = &&l_andc, [FX_OR] = &&l_or, [FX_XOR] = &&l_xor, [FX_MIN] = &&l_min,
        [FX_MAX] = &&l_max, [FX_CMPEQ] = &&l_cmpeq, [FX_CMPNE] = &&l_cmpne, [FX_CMPSLT] = &&l_cmpslt,
        [FX_CMPULT] = &&l_cmpult, [FX_ADDI] = &&l_addi, [FX_SUBI] = &&l_subi, [FX_MULI] = &&l_muli,
        [FX_ANDI] = &&l_andi, [FX_ANDCI] = &&l_andci, [FX_ORI] = &&l_ori, [FX_XORI] = &&l_xori,
        [FX_MINI] = &&l_mini, [FX_MAXI] = &&l_maxi, [FX_CMPEQI] = &&l_cmpeqi, [FX_CMPNEI] = &&l_cmpnei,
        [FX_CMPSLTI] = &&l_cmpslti, [FX_CMPULTI] = &&l_cmpulti, [FX_SHLI] = &&l_shli, [FX_SHRI] = &&l_shri,
        [FX_SHRSI] = &&l_shrsi, [FX_MOVI] = &&l_movi, [FX_LD32I] = &&l_ld32i, [FX_ST32I] = &&l_st32i,
        [FX_BRNZDEC] = &&l_brnzdec, [FX_BRZ] = &&l_brz, [FX_BRNZ] = &&l_brnz, [FX_BR] = &&l_br};
    ipu_fxpage **fxp = tl->fxp;
/* the batch ends before the issue of bundle k (of this burst) */
#define PB_END_AT(k)                                                                                                 \
    do {                                                                                                             \
        if (pb) {                                                                                                    \
            pb_last[PROF_INSNS] -= pi0 + (k) + np;                                                                   \
            pb_last[PROF_CYCLES] -= t + (k);                                                                         \
            pt->row = pb_last;                                                                                       \
            pb = 0;                                                                                                  \
        }                                                                                                            \
    } while (0)
#define PB_END() PB_END_AT(n)
    while (n < nmax) {
        PB_END();
        uint32_t off = pc - base;
        if ((pc & 3) || off >= msize)
            break;
        ipu_fxpage *const p = tl->fxp ? tl->fxp[off >> (FP_SHIFT + 2)] : NULL;
        ipu_fx *e = p ? &p->e[(off >> 2) & (FP_WORDS - 1)] : NULL;
        const uint8_t *code = mem + off;
        if (__builtin_expect(!e || e->w != mem_ld32le(code) || e->op == FX_BUILD, 0))
            if (!(e = fx_miss(tl, off)))
                break;
        fxp = tl->fxp; /* made by the first fx_miss, then never moved */
        /* (--profile: only where the window maps the whole page of entries; elsewhere, and
         * at a thread's first issue or after a call or return, the record's path below
         * feeds prof_issue, which maps the window again) */
        if (e->op > FX_XOP && !rc && (!FX_PROF || pb_open(pt, base, off & ~(FP_WORDS * 4u - 1), &pb_k, mem))) {
            /* straight-line singles, threaded (computed goto, as tests/bench/ceiling.c): the
             * entry and the word pointer step along; `left` counts the bundles to the budget
             * or the page's end, whichever comes first; the pc is derived from the word
             * pointer when needed */
            uint32_t left = FP_WORDS - ((off >> 2) & (FP_WORDS - 1));
            if (left > nmax - n)
                left = (uint32_t)(nmax - n);
            uint32_t v, ea, o;
            if (FX_PROF) { /* the batch opens: the row open before it closes at this issue */
                pb = 1;
                pb_last = pt->row;
                pb_last[PROF_INSNS] += pi0 + n + np;
                pb_last[PROF_CYCLES] += t + n;
            }
#define FX_PC() (base + (uint32_t)(code - mem))
/* --profile: the issue of bundle k (of this burst) at word w in the batch; a row the window
 * does not map (a pc's first issue, a call's or a return's) ends the batch, takes
 * prof_issue, and then the loop leaves by `slow` (the issue counted, pc the next one's) */
#define PB_ISSUED(w, k, slow) PB_ISSUED_AT(pb_k + (uintptr_t)(w) * 8, w, k, slow)
/* (the same with the row pointer's address at given, so that the compiler folds the offset
 * of code - 4 into the load) */
#define PB_ISSUED_AT(at, w, k, slow)                                                                                 \
    do {                                                                                                             \
        if (FX_PROF) {                                                                                               \
            uint64_t *const r_ = *(uint64_t **)(at);                                                                 \
            if (__builtin_expect(r_ == NULL, 0)) {                                                                   \
                PB_END_AT(k);                                                                                        \
                prof_issue_th(pt, base + (uint32_t)((w) - mem), t + (k), pi0 + (k) + np, NULL);                      \
                slow;                                                                                                \
            }                                                                                                        \
            r_[PROF_INSNS]++;                                                                                        \
            r_[PROF_CYCLES]++;                                                                                       \
            pb_last = r_;                                                                                            \
        }                                                                                                            \
    } while (0)
#define PB_ISSUE(slow) PB_ISSUED(code, n, slow)
/* (counted first: the profile then reads the bundle just issued, code - 4, n - 1) */
#define FX_NEXT                                                                                                      \
    do {                                                                                                             \
        n++;                                                                                                         \
        e++;                                                                                                         \
        code += 4;                                                                                                   \
        PB_ISSUED_AT(pb_k + (uintptr_t)code * 8 - 32, code - 4, n - 1, goto l_relook);                               \
        if (__builtin_expect(--left == 0, 0) || (FX_CHECK && __builtin_expect(e->w != mem_ld32le(code), 0)))        \
            goto l_relook;                                                                                           \
        goto *lbl[e->op];                                                                                            \
    } while (0)
/* a taken direct branch whose entry knows its target's (FX_BUILD/GEN/XOP dispatch to
 * l_relook; the checked loop compares the target's word too): straight to it */
#define FX_JUMPD(target)                                                                                             \
    do {                                                                                                             \
        if (e->spare) {                                                                                              \
            PB_ISSUE(n++; pc = (target); goto fx_lookup);                                                            \
            n++;                                                                                                     \
            if (n >= nmax) {                                                                                         \
                pc = (target);                                                                                       \
                goto fx_lookup;                                                                                      \
            }                                                                                                        \
            const int32_t d_ = (int16_t)(e->spare & 0xffff);                                                         \
            left = e->spare >> 16;                                                                                   \
            if (left > nmax - n)                                                                                     \
                left = (uint32_t)(nmax - n);                                                                         \
            e += d_;                                                                                                 \
            code += d_ * 4;                                                                                          \
            if (FX_CHECK && e->w != mem_ld32le(code))                                                                \
                goto l_relook;                                                                                       \
            goto *lbl[e->op];                                                                                        \
        }                                                                                                            \
        FX_JUMP(target);                                                                                             \
    } while (0)
/* a taken branch: straight on at the target's entry when it lies in the same page of
 * entries as the branch (the common loop back: no page lookup, the entry found from the
 * branch's own) and is a valid single, else through the lookup above */
#define FX_JUMP(target)                                                                                              \
    do {                                                                                                             \
        PB_ISSUE(n++; pc = (target); goto fx_lookup);                                                                \
        n++;                                                                                                         \
        pc = (target);                                                                                               \
        const uint32_t coff_ = (uint32_t)(code - mem), toff_ = pc - base;                                            \
        if (((toff_ ^ coff_) >> (FP_SHIFT + 2)) || (pc & 3) || toff_ >= msize || n >= nmax)                         \
            goto fx_lookup;                                                                                          \
        e += (int32_t)(toff_ - coff_) >> 2; /* a multiple of 4: the shift divides exactly */                        \
        code = mem + toff_;                                                                                          \
        if (FX_CHECK && e->w != mem_ld32le(code)) /* unchecked: FX_BUILD/GEN/XOP dispatch to l_relook */            \
            goto fx_lookup;                                                                                          \
        left = FP_WORDS - ((toff_ >> 2) & (FP_WORDS - 1));                                                           \
        if (left > nmax - n)                                                                                         \
            left = (uint32_t)(nmax - n);                                                                             \
        goto *lbl[e->op];                                                                                            \
    } while (0)
#define FX_TAKEN(target)                                                                                             \
    do {                                                                                                             \
        PB_ISSUE(n++; pc = (target); goto fx_lookup);                                                                \
        n++;                                                                                                         \
        pc = (target);                                                                                               \
        goto fx_lookup;                                                                                              \
    } while (0)
            goto *lbl[e->op];
        l_add: R[e->d] = R[e->a] + R[e->b]; FX_NEXT;
        l_sub: R[e->d] = R[e->a] - R[e->b]; FX_NEXT;
        l_mul: R[e->d] = (uint32_t)((int64_t)(int32_t)R[e->a] * (int32_t)R[e->b]); FX_NEXT;
        l_and: R[e->d] = R[e->a] & R[e->b]; FX_NEXT;
        l_andc: R[e->d] = R[e->a] & ~R[e->b]; FX_NEXT;
        l_or: R[e->d] = R[e->a] | R[e->b]; FX_NEXT;
        l_xor: R[e->d] = R[e->a] ^ R[e->b]; FX_NEXT;
        l_min: R[e->d] = (int32_t)R[e->a] < (int32_t)R[e->b] ? R[e->a] : R[e->b]; FX_NEXT;
        l_max: R[e->d] = (int32_t)R[e->a] > (int32_t)R[e->b] ? R[e->a] : R[e->b]; FX_NEXT;
        l_cmpeq: R[e->d] = R[e->a] == R[e->b]; FX_NEXT;
        l_cmpne: R[e->d] = R[e->a] != R[e->b]; FX_NEXT;
        l_cmpslt: R[e->d] = (int32_t)R[e->a] < (int32_t)R[e->b]; FX_NEXT;
        l_cmpult: R[e->d] = R[e->a] < R[e->b]; FX_NEXT;
        l_addi: R[e->d] = R[e->a] + e->imm; FX_NEXT;
        l_subi: R[e->d] = R[e->a] - e->imm; FX_NEXT;
        l_muli: R[e->d] = (uint32_t)((int64_t)(int32_t)R[e->a] * (int32_t)e->imm); FX_NEXT;
        l_andi: R[e->d] = R[e->a] & e->imm; FX_NEXT;
        l_andci: R[e->d] = R[e->a] & ~e->imm; FX_NEXT;
        l_ori: R[e->d] = R[e->a] | e->imm; FX_NEXT;
        l_xori: R[e->d] = R[e->a] ^ e->imm; FX_NEXT;
        l_mini: R[e->d] = (int32_t)R[e->a] < (int32_t)e->imm ? R[e->a] : e->imm; FX_NEXT;
        l_maxi: R[e->d] = (int32_t)R[e->a] > (int32_t)e->imm ? R[e->a] : e->imm; FX_NEXT;
        l_cmpeqi: R[e->d] = R[e->a] == e->imm; FX_NEXT;
        l_cmpnei: R[e->d] = R[e->a] != e->imm; FX_NEXT;
        l_cmpslti: R[e->d] = (int32_t)R[e->a] < (int32_t)e->imm; FX_NEXT;
        l_cmpulti: R[e->d] = R[e->a] < e->imm; FX_NEXT;
        l_shli: R[e->d] = R[e->a] << e->imm; FX_NEXT;
        l_shri: R[e->d] = R[e->a] >> e->imm; FX_NEXT;
        l_shrsi: R[e->d] = (uint32_t)((int32_t)R[e->a] >> e->imm); FX_NEXT;
        l_movi: R[e->d] = e->imm; FX_NEXT;
        l_ld32i:
            ea = R[e->a] + R[e->b] + e->imm;
            o = ea - base;
            if ((o > msize - 4) | (ea & 3)) { /* the record's path leaves it to the generic executor */
                pc = FX_PC();
                off = pc - base;
                goto xop;
            }
            R[e->d] = mem_ld32le(mem + o);
            FX_NEXT;
        l_st32i:
            ea = R[e->a] + R[e->b] + e->imm;
            o = ea - base;
            if ((o > msize - 4) | (ea & 3)) {
                pc = FX_PC();
                off = pc - base;
                goto xop;
            }
            mem_st32le(mem + o, R[e->d]);
            if (!FX_CHECK) { /* a store into code drops the entry built from its word */
                ipu_fxpage *const sp_ = fxp[o >> (FP_SHIFT + 2)];
                if (sp_)
                    sp_->e[(o >> 2) & (FP_WORDS - 1)].op = FX_BUILD;
            }
            FX_NEXT;
        l_brnzdec:
            v = R[e->a];
            if (!v)
                FX_NEXT;
            R[e->b] = v - 1;
            FX_JUMPD(e->imm);
        l_brz:
            if (R[e->a])
                FX_NEXT;
            FX_JUMPD(e->imm);
        l_brnz:
            if (!R[e->a])
                FX_NEXT;
            FX_JUMPD(e->imm);
        l_br:
            FX_TAKEN(R[e->a] + e->imm);
        l_relook:
            pc = FX_PC();
            goto fx_lookup;
#undef FX_NEXT
#undef FX_TAKEN
#undef FX_JUMP
#undef FX_JUMPD
#undef FX_PC
#undef PB_ISSUE
#undef PB_ISSUED
#undef PB_ISSUED_AT
        }
        if (e->op == FX_GEN)
            break;
    xop: {
            PB_END();
            /* one bundle from its fast record (fast.c's way) */
            const ipu_frec *r = frec_at(tl, off);
            if (!r || r->kind != IPU_FR_FAST)
                break;
            const uint32_t len = r->n == 2 ? 8 : 4;
            const int in_rpt = rc != 0;
            if (in_rpt && !r->rpt_ok)
                break;
            uint32_t npc = pc + len;
            /* a store's address, taken before the bundle changes its registers */
            const uint32_t st0 = fx_store_off(&r->f[0], R, base), st1 = r->n == 2 ? fx_store_off(&r->f[1], R, base) : FX_NO_STORE;
            if (ipu_xop(&r->f[0], c, R, mem, base, msize, rmask, pc, len, &npc))
                break;
            if (r->n == 2)
                (void)ipu_xop(&r->f[1], c, R, mem, base, msize, rmask, pc, len, &npc); /* cannot fail (build) */
            if (st0 != FX_NO_STORE)
                ipu_fx_wrote(tl, st0, r->f[0].op == IPU_FOP_ST64 ? 8 : 4);
            if (st1 != FX_NO_STORE)
                ipu_fx_wrote(tl, st1, r->f[1].op == IPU_FOP_ST64 ? 8 : 4);
            if (in_rpt && npc == c->rpt_end && --c->rpt_count)
                npc = c->rpt_first;
            rc = c->rpt_count;
            if (prof)
                prof_issue(prof, pg, pc, t + n, pi0 + n + np, NULL);
            pc = npc;
            np += r->n - 1u;
            n++;
        }
    fx_lookup:;
    }
    PB_END();
#undef PB_END
#undef PB_END_AT
    if (n) {
        sim_thread *th = &u->threads[tid];
        c->pc = pc;
        th->instructions += n + np;
        th->issue_cycles += n;
        c->last_issue = t + n - 1;
        u->last_issue = t + n - 1;
    }
    return n;
}
