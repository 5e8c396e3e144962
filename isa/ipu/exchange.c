/* isa/ipu/exchange.c: sync across tiles and the exchange between them (docs/isa/ipu.md
 * "Sync and exchange"; reference §2.3, §3.3). What is public: the sync zones
 * (ipu1_consts.c TEXCH_SYNCZONE_*), the exchange CSRs' indices and fields (0xa0-0xab), the
 * send encoding and its sctl field (two direction bits and a 64-bit bit; ipu-stack), that
 * the exchange is statically scheduled and stateless (a word carries no destination; a
 * receiver selects its source with $INCOMING_MUX when the word arrives and the word lands
 * at the incoming pointer, which advances), 32 bits a tile an exchange cycle
 * (TEXCH_DATA_WIDTH), the receive errors (TEXCH_RERR_*), and IPU1's pipeline constants.
 * The rest is decided here and documented there.
 *
 * The model. A sync INTERNAL (or EXTERNAL: one IPU, no host) on a machine of several tiles
 * is a barrier: each tile's arrival is an event at its sync's cycle (so arrivals made in
 * event-coupled bursts on several host threads come in one order), and the last one
 * releases every waiting supervisor at last arrival + 1 + -o sync_cycles. A send reads its
 * items when it issues and puts them on their way, one an exchange cycle; item k arrives
 * at issue + k + -o exchange_latency, an event of the sending tile, which writes it into
 * every tile whose $INCOMING_MUX selects the sender at that cycle: the sender's list of
 * receivers, which a put of the mux changes by an event at the cycle it takes effect (the
 * put ends its tile's burst, so each such event sees the value of its own put), so that
 * lists and deliveries change in time order however far a tile ran ahead. Coupling
 * (isa/isa.h): a tile is cycle-coupled while its mux selects a tile or its supervisor waits
 * in a sync of other tiles, event-coupled otherwise (then no item can reach it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "../../core/debug.h"

enum { XC_MUX = 0, XC_MUXPAIR, XC_DELTA, XC_FORMAT, XC_BASE, XC_SINIT, XC_DCOUNT, XC_OBASE, XC_ODELTA, XC_CTL,
       XC_ANS_DCOUNT, XC_ADJ };
enum { EVK_ARRIVE = 1, EVK_HALT };
static const char *const bar_names[IPU_XB_N] = {"INTERNAL", "EXTERNAL0", "EXTERNAL1", "EXTERNAL2", "EXTERNAL3"};

/* The tile the mux value selects, or -1 (a value past the machine's tiles: none, the host,
 * another IPU: nothing we model sends there). */
static int mux_tile(const ipu_machine *im, uint32_t v)
{
    v &= 0x7ff; /* TILE_ID [10:0] (ipu1_consts.c CSR_S_INCOMING_MUX__TILE_ID) */
    return v < (uint32_t)im->ntiles ? (int)v : -1;
}

int ipu_xchg_wants_cycle(const ipu_tile *tl)
{
    const ipu_xtile *x = &tl->x;
    return x->wait || x->in.n || mux_tile(tl->im, x->csr[XC_MUX]) >= 0 ||
           ((x->pend & 1u << IPU_XCTL_MUX) && mux_tile(tl->im, x->pend_v[IPU_XCTL_MUX]) >= 0);
}

/* Tile tl's items now come from tile src (-1: none): off its old source's list of
 * receivers, onto the new one's, in tile order. */
static void rx_move(ipu_tile *tl, int src)
{
    ipu_tile *tiles = tl->im->tiles;
    ipu_xtile *x = &tl->x;
    if (x->rx_src == src)
        return;
    if (x->rx_src >= 0) {
        if (x->rx_prev >= 0)
            tiles[x->rx_prev].x.rx_next = x->rx_next;
        else
            tiles[x->rx_src].x.rx_head = x->rx_next;
        if (x->rx_next >= 0)
            tiles[x->rx_next].x.rx_prev = x->rx_prev;
    }
    x->rx_src = src;
    x->rx_prev = x->rx_next = -1;
    if (src < 0)
        return;
    int *link = &tiles[src].x.rx_head;
    while (*link >= 0 && *link < tl->index) {
        x->rx_prev = *link;
        link = &tiles[*link].x.rx_next;
    }
    x->rx_next = *link;
    if (x->rx_next >= 0)
        tiles[x->rx_next].x.rx_prev = tl->index;
    *link = tl->index;
}

void ipu_xchg_reset(ipu_tile *tl)
{
    ipu_xtile *x = &tl->x;
    memset(x->csr, 0, sizeof x->csr);
    x->csr[XC_MUX] = tl->im->mux_reset;
    rx_move(tl, -1);
    x->in_ptr = 0;
    x->wait = x->recv_wait = x->xend = 0;
    x->rerr = 0;
    x->clash_at = SIM_NEVER;
    x->out.head = x->out.n = x->in.head = x->in.n = 0;
    x->out_ptr = x->out_set = x->out_sctl = x->pend = 0;
}

/* ---- the run loop's side: arrivals, releases, deliveries ---- */

static void tile_list(const sim_machine *m, const ipu_machine *im, int bar, char *buf, size_t n)
{
    size_t k = 0;
    int shown = 0, more = 0;
    buf[0] = 0;
    for (int i = 0; i < im->ntiles; i++) {
        const ipu_xtile *x = &im->tiles[i].x;
        const int waits = bar < 0 ? x->wait || x->recv_wait : x->wait == bar + 1;
        if (!waits || im->tiles[i].ctx[IPU_SUP].state != IPU_CS_ACTIVE)
            continue;
        if (shown == 6 || k + 48 > n) {
            more++;
            continue;
        }
        int w = snprintf(buf + k, n - k, "%s%s (%s since %llu)", shown ? ", " : "", m->units[i].name,
                         x->wait ? bar_names[x->wait - 1] : "RECV", (unsigned long long)x->arrived_at);
        k += w > 0 ? (size_t)w : 0;
        shown++;
    }
    if (more && k + 24 < n)
        snprintf(buf + k, n - k, " and %d more", more);
}

/* A tile halted (or was found halted) that a pending sync needs: the sync can never complete. */
static void never_completes(sim_machine *m, ipu_machine *im, int bar, int halted, uint64_t t)
{
    char who[160];
    tile_list(m, im, bar, who, sizeof who);
    sim_set_stop_at(m, SIM_STOP_DEADLOCK, halted, -1, 0, t,
                    "sync %s can never complete: %s halted at cycle %llu without reaching it; waiting: %s",
                    bar_names[bar], m->units[halted].name, (unsigned long long)m->units[halted].halted_at, who);
}

static void release(sim_machine *m, ipu_machine *im, int bar, uint64_t at)
{
    for (int i = 0; i < im->ntiles; i++) {
        ipu_tile *tl = &im->tiles[i];
        if (tl->x.wait != bar + 1)
            continue;
        tl->x.wait = 0;
        tl->ctx[IPU_SUP].sync_ready = at;
        sim_unit_wake(m, &m->units[i], at);
    }
    im->bar[bar].n = 0;
    im->bar[bar].last = 0;
}

static void sync_event(ev_event *e, void *ctx)
{
    (void)e;
    ipu_tile *tl = ctx;
    ipu_machine *im = tl->im;
    sim_machine *m = im->m;
    const uint64_t t = m->now;
    if (tl->x.ev_kind == EVK_HALT) { /* a halted tile never arrives: no pending sync completes */
        for (int b = 0; b < IPU_XB_N; b++)
            if (im->bar[b].n) {
                never_completes(m, im, b, tl->index, t);
                return;
            }
        return;
    }
    const int b = tl->x.wait - 1;
    if (b < 0)
        return;
    for (int i = 0; m->nhalted && i < im->ntiles; i++) {
        const sim_unit *o = &m->units[i];
        if (o->enabled && o->halted) {
            never_completes(m, im, b, i, t > o->halted_at ? t : o->halted_at);
            return;
        }
    }
    im->bar[b].n++;
    if (t > im->bar[b].last)
        im->bar[b].last = t;
    if (im->bar[b].n >= m->nenabled) /* every tile has arrived: released after the last */
        release(m, im, b, im->bar[b].last + 1 + im->sync_cycles);
}

/* Item it, arrived at cycle t, for tile rt (its mux selects the sender). */
static void receive(sim_machine *m, ipu_machine *im, ipu_tile *rt, int src, const ipu_xitem *it, uint64_t t)
{
    sim_unit *ru = &m->units[rt->index];
    const unsigned nb = it->is64 ? 8 : 4;
    const uint32_t p = rt->x.in_ptr;
    if (!ipu_in_mem(im, p, nb) || (p & (nb - 1))) { /* TEXCH_RERR_ADDR (3) */
        rt->x.rerr = 3;
        ipu_raise(m, ru, rt, IPU_SUP, t, SIM_STOP_FAULT, IPU_TEXCPT_EXERR, 0,
                  "exchange receive error TEXCH_RERR_ADDR: %u-bit item from %s at cycle %llu for incoming "
                  "pointer 0x%x, %s tile memory 0x%x-0x%llx",
                  nb * 8, m->units[src].name, (unsigned long long)t, p, (p & (nb - 1)) ? "misaligned in" : "outside",
                  im->mem_base, (unsigned long long)im->mem_base + im->mem_size);
        return;
    }
    const uint32_t off = p - im->mem_base;
    memcpy(rt->mem + off, &it->lo, 4);
    if (it->is64)
        memcpy(rt->mem + off + 4, &it->hi, 4);
    ipu_fx_wrote(rt, off, nb);
    rt->x.in_ptr = p + nb;
    if (!m->functional && im->exchange_clashes) { /* the bundle issued in this cycle must not touch its element */
        rt->x.clash_at = t;
        rt->x.clash_elem = ipu_mem_elem(im, p);
        rt->x.clash_addr = p;
        rt->x.clash_src = src;
    }
    uint32_t *dc = &rt->x.csr[XC_DCOUNT]; /* 32-bit words still expected: a 64-bit item is two */
    const uint32_t was = *dc;
    *dc = was > nb / 4 ? was - nb / 4 : 0;
    if (was && !*dc && rt->x.recv_wait) {
        rt->x.recv_wait = 0; /* sync RECV: the last word expected has come */
        rt->ctx[IPU_SUP].sync_ready = t + 1;
        sim_unit_wake(m, ru, t + 1);
    }
    if (rt->tmem->nwatch) {
        char src_text[48];
        snprintf(src_text, sizeof src_text, "exchange from %s", m->units[src].name);
        dbg_watch_device(m, rt->tmem, p, nb, MEM_W, rt->index, -1, 0, t, src_text);
    }
}

int ipu_xchg_clash(sim_machine *m, ipu_tile *tl, int tid, uint64_t t, uint32_t addr, int fetch)
{
    ipu_xtile *x = &tl->x;
    if (ipu_mem_elem(tl->im, addr) != x->clash_elem)
        return 0;
    x->clash_at = SIM_NEVER;
    x->rerr = fetch ? 2 : 1; /* TEXCH_RERR_CLASH_IFETCH 2, _INSTR 1 */
    ipu_raise(m, &m->units[tl->index], tl, IPU_SUP, t, SIM_STOP_FAULT, IPU_TEXCPT_EXERR, 0,
              "exchange receive error TEXCH_RERR_CLASH_%s: the item from %s written at 0x%x in cycle %llu is in the "
              "memory element of %s's %s 0x%x",
              fetch ? "IFETCH" : "INSTR", m->units[x->clash_src].name, x->clash_addr, (unsigned long long)t,
              ipu_ctx_name(tid), fetch ? "instruction fetch at" : "access at", addr);
    return 1;
}

/* A free entry at q's tail (the ring doubles when full), or NULL: out of memory. */
static ipu_xitem *xq_push(ipu_xq *q)
{
    if (q->n == q->cap) {
        const uint32_t cap = q->cap ? 2 * q->cap : 64;
        ipu_xitem *v = malloc(cap * sizeof *v);
        if (!v)
            return NULL;
        for (uint32_t k = 0; k < q->n; k++)
            v[k] = q->v[(q->head + k) % q->cap];
        free(q->v);
        q->v = v;
        q->cap = cap;
        q->head = 0;
    }
    return &q->v[(q->head + q->n++) % q->cap];
}

static ipu_xitem xq_pop(ipu_xq *q)
{
    const ipu_xitem it = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return it;
}

/* The items of q due by now; the next one's event scheduled. */
static void xq_next(sim_machine *m, ipu_xq *q, ev_event *ev, uint64_t *at)
{
    *at = q->n ? q->v[q->head].at : SIM_NEVER;
    if (q->n)
        sim_schedule(m, ev, *at);
}

/* rows: an item past receiver rt's mux at cycle t is written 52 + 2 x its row later. */
static void pass_mux(sim_machine *m, ipu_tile *rt, int src, const ipu_xitem *it, uint64_t t)
{
    ipu_xtile *x = &rt->x;
    ipu_xitem *w = xq_push(&x->in);
    if (!w) {
        sim_set_stop_at(m, SIM_STOP_ERROR, rt->index, -1, 0, t, "out of memory for the exchange's items");
        return;
    }
    *w = *it;
    w->at = t + x->in_delay;
    w->src = (uint16_t)src;
    if (x->in_at == SIM_NEVER)
        xq_next(m, &x->in, &x->in_ev, &x->in_at);
}

/* Tile tl's due items: its sends reach the tiles on its list of receivers (out), or, with
 * rows, the items past its mux are written (in); then the next one's event. */
static void drain(ipu_tile *tl, int in)
{
    ipu_machine *im = tl->im;
    sim_machine *m = im->m;
    ipu_xtile *x = &tl->x;
    ipu_xq *q = in ? &x->in : &x->out;
    const uint64_t t = m->now;
    while (q->n && q->v[q->head].at <= t) {
        const ipu_xitem it = xq_pop(q);
        for (int r = in ? tl->index : x->rx_head; r >= 0 && !sim_stopped(m); r = in ? -1 : im->tiles[r].x.rx_next) {
            const sim_unit *ru = &m->units[r];
            if (!ru->enabled || ru->halted)
                continue;
            if (in)
                receive(m, im, tl, it.src, &it, t);
            else if (im->exchange_rows)
                pass_mux(m, &im->tiles[r], tl->index, &it, t);
            else
                receive(m, im, &im->tiles[r], tl->index, &it, t);
        }
    }
    xq_next(m, q, in ? &x->in_ev : &x->out_ev, in ? &x->in_at : &x->out_at);
}

static void out_event(ev_event *e, void *ctx)
{
    (void)e;
    drain(ctx, 0);
}

static void in_event(ev_event *e, void *ctx)
{
    (void)e;
    drain(ctx, 1);
}

/* A put of $INCOMING_MUX, or ipu21's pending controls, take effect (its tile's burst ended
 * after the instruction). */
static void mux_event(ev_event *e, void *ctx)
{
    (void)e;
    ipu_tile *tl = ctx;
    ipu_xtile *x = &tl->x;
    if (x->pend & 1u << IPU_XCTL_MUX)
        x->csr[XC_MUX] = x->pend_v[IPU_XCTL_MUX];
    if (x->pend & 1u << IPU_XCTL_MUXPAIR)
        x->csr[XC_MUXPAIR] = x->pend_v[IPU_XCTL_MUXPAIR];
    if (x->pend & 1u << IPU_XCTL_PTR) /* a word address: the pointer, as a put of $INCOMING_BASE */
        x->csr[XC_BASE] = x->in_ptr = x->pend_v[IPU_XCTL_PTR] << 2;
    if (x->pend & 1u << IPU_XCTL_FORMAT)
        x->csr[XC_FORMAT] = x->pend_v[IPU_XCTL_FORMAT];
    x->pend = 0;
    rx_move(tl, mux_tile(tl->im, x->csr[XC_MUX]));
}

/* The physical row (0-22) of tile i of a C600 (ipu21: 1,472 tiles), ipu-stack's layout
 * (topology.rs): tile pairs 2p, 2p + 1 lie in block p / 23 at row p mod 23, counted from
 * the other end in odd blocks. */
static uint32_t c600_row(int i)
{
    const uint32_t pair = (uint32_t)i / 2, row = pair % 23;
    return (pair / 23) & 1 ? 22 - row : row;
}

int ipu_xchg_init(sim_machine *m, char *err, size_t errlen)
{
    ipu_machine *im = ipu_m(m);
    im->m = m;
    for (int i = 0; i < im->ntiles; i++) {
        ipu_tile *tl = &im->tiles[i];
        tl->x.out_at = tl->x.in_at = SIM_NEVER;
        tl->x.in_delay = im->exchange_rows ? 52 + 2 * c600_row(i) : 0;
        tl->x.rx_src = tl->x.rx_prev = tl->x.rx_next = tl->x.rx_head = -1;
        /* deliveries and arrivals come before the tiles' issues of their cycle (units: 0) */
        if (sim_register_event(m, &tl->x.sync_ev, "ipu sync", sync_event, tl, -2) ||
            sim_register_event(m, &tl->x.out_ev, "ipu exchange", out_event, tl, -1) ||
            sim_register_event(m, &tl->x.mux_ev, "ipu incoming mux", mux_event, tl, -3) ||
            sim_register_event(m, &tl->x.in_ev, "ipu exchange write", in_event, tl, -1)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ipu_xchg_reset(tl);
    }
    return 0;
}

void ipu_xchg_free(ipu_machine *im)
{
    for (int i = 0; im->tiles && i < im->ntiles; i++) {
        free(im->tiles[i].x.out.v);
        free(im->tiles[i].x.in.v);
        im->tiles[i].x.out.v = im->tiles[i].x.in.v = NULL;
    }
}

void ipu_xchg_halted(sim_machine *m, ipu_tile *tl, uint64_t t)
{
    if (tl->im->ntiles < 2)
        return;
    tl->x.ev_kind = EVK_HALT;
    sim_schedule(m, &tl->x.sync_ev, t);
}

/* ---- the supervisor's side (called while its tile runs) ---- */

/* The tile must be cycle-coupled from here: the burst ends after this bundle. */
static void couple(ipu_xs *x)
{
    if (x->u->coupling != SIM_COUPLE_CYCLE && !x->m->functional) {
        sim_unit_set_coupling(x->m, x->u, SIM_COUPLE_CYCLE);
        x->tl->x.xend = 1;
    }
}

int ipu_xchg_sync(ipu_xs *x, unsigned zone)
{
    ipu_xtile *xt = &x->tl->x;
    ipu_ctx *c = x->c;
    if (zone == 0) { /* RECV: until $INCOMING_DCOUNT words have come */
        if (!xt->csr[XC_DCOUNT])
            return 0;
        xt->recv_wait = 1;
        xt->arrived_at = x->t;
        c->sync_ready = SIM_NEVER;
        return 1;
    }
    if (x->im->ntiles < 2 || zone == 1 || zone == 2)
        return 0; /* a tile alone in its zone; ANS; LOCAL */
    xt->wait = (uint8_t)(1 + (zone == 3 ? 0 : 1 + (zone & 3)));
    xt->arrived_at = x->t;
    c->sync_ready = SIM_NEVER;
    xt->ev_kind = EVK_ARRIVE;
    sim_schedule(x->m, &xt->sync_ev, x->t);
    couple(x);
    return 1;
}

/* Items from addr on their way (checked as loads unless nothing leaves and check is 0); the
 * outgoing stream goes on after them. */
static int put_items(ipu_xs *x, uint32_t items, uint32_t addr, uint32_t sctl, int check)
{
    ipu_xtile *xt = &x->tl->x;
    const unsigned nb = sctl & 4 ? 8 : 4;
    xt->out_ptr = addr + nb * items;
    xt->out_sctl = (uint8_t)sctl;
    xt->out_set = 1;
    if (!check && !(sctl & 3))
        return 0;
    const uint8_t *first = ipu_data_ptr(x, addr, nb, MEM_R);
    if (!first || !ipu_data_ptr(x, addr + nb * (items - 1), nb, MEM_R))
        return -1;
    if (!(sctl & 3))
        return 0; /* no direction: the exchange cycles pass, nothing leaves (ipu-stack) */
    for (uint32_t k = 0; k < items; k++) {
        ipu_xitem *it = xq_push(&xt->out);
        if (!it)
            return ipu_xfail(x, SIM_STOP_ERROR, 0, 0, "out of memory for the exchange's items");
        it->at = x->t + k + x->im->exchange_latency;
        memcpy(&it->lo, first + nb * k, 4);
        it->hi = 0;
        if (nb == 8)
            memcpy(&it->hi, first + nb * k + 4, 4);
        it->is64 = nb == 8;
    }
    if (xt->out_at == SIM_NEVER)
        xq_next(x->m, &xt->out, &xt->out_ev, &xt->out_at);
    return 0;
}

int ipu_xchg_send(ipu_xs *x, uint32_t items, uint32_t word_addr, uint32_t sctl)
{
    return put_items(x, items, x->tl->x.csr[XC_OBASE] + word_addr * 4, sctl, 1);
}

int ipu_xchg_stream(ipu_xs *x, uint32_t items, uint32_t word_addr, int sctl, int restart)
{
    ipu_xtile *xt = &x->tl->x;
    if (restart) /* sendpicp: from its absolute word address; with no direction, nothing is read */
        return put_items(x, items, xt->csr[XC_OBASE] + word_addr * 4, (uint32_t)sctl, 0);
    /* sendoff, sendpic: on from the stream (before any send: $OUTGOING_BASE, no direction) */
    const uint32_t at = (xt->out_set ? xt->out_ptr : xt->csr[XC_OBASE]) + word_addr * 4;
    return put_items(x, items, at, sctl < 0 ? xt->out_sctl : (uint32_t)sctl, sctl >= 0);
}

int ipu_xchg_control(ipu_xs *x, unsigned kind, uint32_t v, uint64_t event)
{
    ipu_xtile *xt = &x->tl->x;
    if (kind == IPU_XCTL_FORMAT && v > 2)
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_INVALID_CSR,
                         "incoming format %u (a PIC control): not a format (TEXCH_IFMT_32I 0, 64E 1, 64W 2)", v);
    xt->pend |= (uint8_t)(1u << kind);
    xt->pend_v[kind] = v;
    sim_schedule(x->m, &xt->mux_ev, event + 1); /* items arriving after the control's event */
    xt->xend = 1;
    if (kind == IPU_XCTL_MUX && mux_tile(x->im, v) >= 0)
        couple(x);
    return 0;
}

int ipu_xchg_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v)
{
    if (x->tid != IPU_SUP)
        return 0;
    ipu_xtile *xt = &x->tl->x;
    if (idx == 0x03 && !put) { /* $TILE_ID: the tile's index in its IPU */
        *v = (uint32_t)x->tl->index;
        return 1;
    }
    if (idx < 0xa0 || idx >= 0xa0 + IPU_XCSR_N)
        return 0;
    const unsigned k = idx - 0xa0;
    if (!put) {
        *v = k == XC_BASE ? xt->in_ptr : xt->csr[k];
        return 1;
    }
    uint32_t val = *v;
    switch (k) {
    case XC_MUX: /* applies to items arriving from the next cycle on (mux_event) */
        xt->csr[k] = val;
        sim_schedule(x->m, &xt->mux_ev, x->t + 1);
        xt->xend = 1; /* one put per burst: its event sees its value */
        if (mux_tile(x->im, val) >= 0)
            couple(x);
        return 1;
    case XC_FORMAT:
        if (val > 2) /* TEXCH_IFMT_32I 0, 64E 1, 64W 2; 3 is SPARE */
            return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_INVALID_CSR,
                             "put $INCOMING_FORMAT, %u: not a format (TEXCH_IFMT_32I 0, 64E 1, 64W 2)", val);
        break;
    case XC_BASE: /* the incoming pointer starts here (ADDR [..:2]) */
        xt->in_ptr = val & ~3u;
        break;
    case XC_DELTA: /* the pointer moves to $INCOMING_BASE + delta */
        xt->in_ptr = (xt->csr[XC_BASE] & ~3u) + (val & ~3u);
        break;
    case XC_DCOUNT:
        val &= 0x1ffff; /* VALUE [16:0] */
        break;
    default:
        break;
    }
    xt->csr[k] = val;
    return 1;
}

int ipu_xchg_state(const ipu_tile *tl, char *buf, size_t n)
{
    const ipu_xtile *x = &tl->x;
    if (x->wait) {
        const ipu_machine *im = tl->im;
        int missing = 0;
        for (int i = 0; i < im->ntiles; i++)
            missing += im->tiles[i].x.wait != x->wait;
        snprintf(buf, n, "in sync %s since cycle %llu, waiting for %d of %d tile(s) to arrive", bar_names[x->wait - 1],
                 (unsigned long long)x->arrived_at, missing, im->ntiles);
        return 1;
    }
    if (x->recv_wait) {
        snprintf(buf, n, "in sync RECV since cycle %llu, waiting for %u more word(s) ($INCOMING_DCOUNT)",
                 (unsigned long long)x->arrived_at, x->csr[XC_DCOUNT]);
        return 1;
    }
    return 0;
}

void ipu_xchg_finish(sim_machine *m)
{
    ipu_machine *im = ipu_m(m);
    const sim_stop_kind k = m->stop.kind;
    if (!im || im->ntiles < 2 || (k != SIM_STOP_FAULT && k != SIM_STOP_ILLEGAL && k != SIM_STOP_DEADLOCK) ||
        strstr(m->stop.msg, "waiting: "))
        return;
    char who[160];
    tile_list(m, im, -1, who, sizeof who);
    size_t l = strlen(m->stop.msg);
    if (who[0] && l + 12 < sizeof m->stop.msg)
        snprintf(m->stop.msg + l, sizeof m->stop.msg - l, "; waiting: %s", who);
    /* tiles that run apart (event-coupled) may not have come as far as the stop: say so */
    int shown = 0;
    for (int i = 0; i < im->ntiles; i++) {
        const sim_unit *u = &m->units[i];
        const ipu_xtile *x = &im->tiles[i].x;
        if (i == m->stop.unit || !u->enabled || u->halted || x->wait || x->recv_wait || u->reached + 1 >= m->stop.cycle)
            continue;
        l = strlen(m->stop.msg);
        if (l + 40 >= sizeof m->stop.msg)
            break;
        snprintf(m->stop.msg + l, sizeof m->stop.msg - l, "%s%s at cycle %llu", shown++ ? ", " : "; behind it: ",
                 u->name, (unsigned long long)u->reached + 1);
    }
}

void ipu_xchg_view(const ipu_tile *tl, FILE *out)
{
    const ipu_xtile *x = &tl->x;
    if (tl->im->ntiles < 2)
        return;
    const int src = mux_tile(tl->im, x->csr[XC_MUX]);
    char sel[24];
    snprintf(sel, sizeof sel, src < 0 ? "no tile" : "tile%d", src);
    fprintf(out, "  exchange: $INCOMING_MUX 0x%x (%s)  incoming pointer 0x%x  $INCOMING_DCOUNT %u  $INCOMING_FORMAT %u  "
            "$OUTGOING_BASE 0x%x  sent items in flight %u  ERERR %u\n", x->csr[XC_MUX], sel, x->in_ptr, x->csr[XC_DCOUNT],
            x->csr[XC_FORMAT], x->csr[XC_OBASE], x->out.n, x->rerr);
}
