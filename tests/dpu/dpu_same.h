/* tests/dpu/dpu_same.h: the whole simulated state of two DPU runs asserted equal, for the
 * tests that run one program on two paths (the fast bursts, the round replay, the
 * reference loop) and require identical results cycle for cycle. The stop, the unit's
 * counters and issue bookkeeping, every tasklet's registers, flags, pc, counters and
 * stalls, the DPU's atomic bits, WRAM, and MRAM when mram is set (64 MB: at a run's end);
 * the cycle only when whole is set (a run in pieces leaves the machine's clock at the last
 * piece's limit). Include after
 * the cmocka headers and dpu_harness.h. */
#ifndef DPU_SAME_H
#define DPU_SAME_H
static inline void dh_same_state(dh_run *a, dh_run *b, int whole, int mram)
{
    sim_machine *ma = &a->m, *mb = &b->m;
    assert_int_equal(ma->stop.kind, mb->stop.kind);
    assert_string_equal(ma->stop.msg, mb->stop.msg);
    assert_int_equal(ma->stop.thread, mb->stop.thread);
    assert_int_equal(ma->stop.pc, mb->stop.pc);
    if (whole)
        assert_int_equal(ma->now, mb->now);
    sim_unit *ua = &ma->units[0], *ub = &mb->units[0];
    assert_int_equal(ua->halted_at, ub->halted_at);
    assert_int_equal(ua->last_issue, ub->last_issue);
    assert_int_equal(ua->rr, ub->rr);
    for (int k = 0; k < ua->ncounters; k++)
        assert_int_equal(ua->counters[k].value, ub->counters[k].value);
    dpu_unit *da = ua->isa, *db = ub->isa;
    for (int k = 0; k < ua->nthreads; k++) {
        const sim_thread *ta = &ua->threads[k], *tb = &ub->threads[k];
        assert_int_equal(ta->state, tb->state);
        assert_int_equal(ta->ready_at, tb->ready_at);
        assert_int_equal(ta->instructions, tb->instructions);
        assert_int_equal(ta->issue_cycles, tb->issue_cycles);
        assert_int_equal(ta->halted_at, tb->halted_at);
        assert_memory_equal(ta->stalls, tb->stalls, sizeof ta->stalls);
        assert_memory_equal(da->t[k].r, db->t[k].r, sizeof da->t[k].r);
        assert_int_equal(da->t[k].pc, db->t[k].pc);
        assert_int_equal(da->t[k].zf, db->t[k].zf);
        assert_int_equal(da->t[k].cf, db->t[k].cf);
        assert_int_equal(da->t[k].wait, db->t[k].wait);
        assert_int_equal(da->t[k].last_issue, db->t[k].last_issue);
    }
    assert_int_equal(da->run, db->run);
    assert_int_equal(da->faulted, db->faulted);
    assert_int_equal(da->dma_free, db->dma_free);
    assert_memory_equal(da->atomic, db->atomic, sizeof da->atomic);
    assert_memory_equal(da->wram_p, db->wram_p, da->dm->wram_size);
    if (mram)
        assert_memory_equal(da->mram_p, db->mram_p, da->dm->mram_size);
}
#endif
