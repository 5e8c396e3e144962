/* tests/cert/test_runner.c: the CERT job-runner on control code built byte by byte in
 * memory (no assembler, no ELF): scheduling order, YIELD, local and remote barriers,
 * uC-DMA with a wait handle, WAIT_TCTS completed by a task started with WRITE_32 (aiebu's
 * sanity.asm, re-encoded) and the hang report without the token bit, the opcode watchdog,
 * page ping-pong, deferred jobs, LOAD_PDI sub-sequences, illegal opcodes. Every expected
 * cycle count is derived in a comment from the documented defaults (timing.c):
 *   page fetch = 250 + ceil(0.125 * page length); cost_job 30 (each START_JOB and EOF the
 *   parser reads, and END_JOB), sched_pass 12 per dispatch, cost_reg 10, cost_trace 20,
 *   cost_sched 10, cost_barrier 25, cost_ucdma 40, cost_wait 20, cost_axi_write 15 +
 *   axi_write_latency 40, uC-DMA 30 per BD + 2 per word, array task 8 + ceil(words / 2.5),
 *   token path 30, SLEEP = microseconds x 500. */
#include "../testlib.h"
#include "../../isa/cert/runner.h"

extern const isa_ops isa_cert;

/* ---- building control code ---- */
typedef struct em {
    uint8_t *b; /* the page */
    uint32_t o; /* next byte */
} em;

static void e8(em *e, uint32_t v) { e->b[e->o++] = (uint8_t)v; }
static void e16(em *e, uint32_t v) { e8(e, v); e8(e, v >> 8); }
static void e32(em *e, uint32_t v) { e16(e, v); e16(e, v >> 16); }
static void op(em *e, unsigned code) { e8(e, code); e8(e, 0); }
static uint32_t job(em *e, unsigned code, unsigned id) { uint32_t at = e->o; op(e, code); e16(e, id); e16(e, 0); e16(e, 0); return at; }
static void end_job(em *e, uint32_t at) { op(e, 0x07); e16(e, 0); e->b[at + 4] = (uint8_t)(e->o - at); e->b[at + 5] = (uint8_t)((e->o - at) >> 8); }
static void eof(em *e) { op(e, 0xFF); e16(e, 0); }
static void mov(em *e, unsigned r, uint32_t v) { op(e, 0x10); e8(e, r); e8(e, 0); e32(e, v); }
static void save_ts(em *e, uint32_t id) { op(e, 0x1C); e16(e, 0); e32(e, id); }
static void yield(em *e) { op(e, 0x08); e16(e, 0); }
static void lbar(em *e, unsigned lb, unsigned n) { op(e, 0x11); e8(e, lb); e8(e, n); }
static void rbar(em *e, unsigned rb, uint32_t mask) { op(e, 0x12); e8(e, rb + 1); e8(e, 0); e32(e, mask); }
static void w32(em *e, uint32_t a, uint32_t v) { op(e, 0x05); e16(e, 0); e32(e, a); e32(e, v); }
static void wait_tcts(em *e, unsigned tile, unsigned actor, unsigned n) { op(e, 0x06); e16(e, tile); e8(e, actor); e8(e, 0); e8(e, n); e8(e, 0); }
static void ucdma(em *e, unsigned r, uint32_t desc) { op(e, 0x01); e8(e, r); e8(e, 0); e16(e, desc); e16(e, 0); }
static void wait_ucdma(em *e, unsigned r) { op(e, 0x02); e8(e, r); e8(e, 0); }
static void sleep_us(em *e, uint32_t us) { op(e, 0x1D); e16(e, 0); e32(e, us); }
static void launch(em *e, unsigned id) { op(e, 0x18); e16(e, id); }
static void load_pdi(em *e, uint32_t id, unsigned page) { op(e, 0x1A); e16(e, 0); e32(e, id); e16(e, page); e16(e, 0); }
static void w32d(em *e, unsigned flags, uint32_t a, uint32_t v) { op(e, 0x0B); e8(e, flags); e8(e, 0); e32(e, a); e32(e, v); }
static void read32(em *e, unsigned r, uint32_t a) { op(e, 0x0C); e8(e, r); e8(e, 0); e32(e, a); }
static void mask_poll(em *e, uint32_t a, uint32_t mask, uint32_t v) { op(e, 0x14); e16(e, 0); e32(e, a); e32(e, mask); e32(e, v); }
static void preempt(em *e, unsigned id, unsigned save, unsigned restore) { op(e, 0x19); e16(e, id); e16(e, save); e16(e, restore); }
static void bd(em *e, uint32_t lo, int32_t local_rel, unsigned len, int next)
{
    e16(e, len);
    e8(e, (next ? 1 : 0) | 4);
    e8(e, 0);
    e32(e, (uint32_t)local_rel);
    e32(e, lo);
    e32(e, 0);
}

/* A program of nuc uCs (present: bit mask) with npages pages each, all zero. */
static void prog_init(cert_program *p, int nuc, unsigned present, int npages)
{
    memset(p, 0, sizeof *p);
    p->target = CERT_T_AIE2PS;
    p->nuc = nuc;
    p->uc = calloc((size_t)nuc, sizeof *p->uc);
    for (int i = 0; i < nuc; i++) {
        if (!(present >> i & 1))
            continue;
        cert_ucode *u = &p->uc[i];
        u->present = 1;
        u->npages = (uint32_t)npages;
        u->len = (size_t)npages * CERT_PAGE_SIZE;
        u->buf = calloc(1, u->len);
        u->hdr = calloc((size_t)npages, sizeof *u->hdr);
        u->text_len = calloc((size_t)npages, sizeof *u->text_len);
    }
}

/* The emitter for page pg of uC uc, after its header. */
static em page(cert_program *p, int uc, int pg) { return (em){p->uc[uc].buf + (size_t)pg * CERT_PAGE_SIZE, CERT_PAGE_HDR}; }

/* Header of page pg: its length and the next page's (0: last of the sequence). */
static void hdr(cert_program *p, int uc, int pg, unsigned cur, unsigned next)
{
    cert_page_hdr *h = &p->uc[uc].hdr[pg];
    h->magic = 0xFFFF;
    h->index = (uint16_t)pg;
    h->cur_len = (uint16_t)cur;
    h->next_len = (uint16_t)next;
    uint8_t *b = p->uc[uc].buf + (size_t)pg * CERT_PAGE_SIZE;
    b[0] = b[1] = 0xFF;
    b[2] = (uint8_t)pg;
    b[8] = (uint8_t)cur;
    b[9] = (uint8_t)(cur >> 8);
    b[10] = (uint8_t)next;
    b[11] = (uint8_t)(next >> 8);
}

typedef struct run {
    sim_machine m;
    char err[512];
    FILE *log;
    char text[8192];
} run;

/* Build a machine with options (NULL-terminated "k=v"), load p, run to the end. */
static cert_machine *go(run *r, cert_program *p, const char *const *opts)
{
    sim_opts o;
    opt_init(&o);
    assert_int_equal(opt_parse(&o, "spec=latest"), 0); /* SLEEP is a newest-spec opcode */
    for (int i = 0; opts && opts[i]; i++)
        assert_int_equal(opt_parse(&o, opts[i]), 0);
    assert_int_equal(isa_check_options(&isa_cert, &o, r->err, sizeof r->err), 0);
    if (sim_create(&r->m, &isa_cert, &o, r->err, sizeof r->err))
        fail_msg("create: %s", r->err);
    r->log = tmpfile();
    r->m.err = r->log;
    if (cert_runner_load(&r->m, p, r->err, sizeof r->err))
        fail_msg("load: %s", r->err);
    sim_run(&r->m, SIM_NEVER);
    if (isa_cert.finish)
        isa_cert.finish(&r->m);
    fflush(r->log);
    rewind(r->log);
    size_t n = fread(r->text, 1, sizeof r->text - 1, r->log);
    r->text[n] = 0;
    return cert_m(&r->m);
}

static void done(run *r)
{
    sim_destroy(&r->m);
    if (r->log)
        fclose(r->log);
}

static void expect_records(const cert_uc *c, const uint32_t *ids, const uint64_t *cycles, int n)
{
    assert_int_equal(c->nrec, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(c->rec[i].id, ids[i]);
        assert_int_equal(c->rec[i].value, cycles[i]);
    }
}

/* Two jobs run in table order, each until it ends. Page length 256: fetch 250 + 32 = 282.
 * Parser: START_JOB 1 (312), START_JOB 2 (342), EOF (372). Job 1: dispatch 384, MOV 394,
 * SAVE_TIMESTAMPS starts at 394 -> 414, END_JOB 444. Job 2: dispatch 456, SAVE_TIMESTAMPS at
 * 456 -> 476, END_JOB 506: the uC halts at 506. */
static void test_order(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    mov(&e, 0, 5);
    save_ts(&e, 10);
    end_job(&e, j);
    j = job(&e, 0x00, 2);
    save_ts(&e, 20);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    expect_records(&cm->uc[0], (const uint32_t[]){10, 20}, (const uint64_t[]){394, 456}, 2);
    assert_int_equal(r.m.units[0].halted_at, 506);
    assert_int_equal(cm->uc[0].job[0].r[0], 5);
    /* job 1: START_JOB, MOV, SAVE_TIMESTAMPS, END_JOB */
    assert_int_equal(r.m.units[0].threads[0].instructions, 4);
    /* determinism: the same program and options give the same cycles */
    done(&r);
    cert_program p2;
    prog_init(&p2, 1, 1, 1);
    e = page(&p2, 0, 0);
    j = job(&e, 0x00, 1);
    mov(&e, 0, 5);
    save_ts(&e, 10);
    end_job(&e, j);
    j = job(&e, 0x00, 2);
    save_ts(&e, 20);
    end_job(&e, j);
    eof(&e);
    hdr(&p2, 0, 0, 256, 0);
    run r2 = {0};
    go(&r2, &p2, NULL);
    assert_int_equal(r2.m.units[0].halted_at, 506);
    done(&r2);
}

/* YIELD: A records 1, yields; B records 2 and ends; A records 3. Parser done at 372 (as
 * above). A: dispatch 384, TS1 at 384 -> 404, YIELD 414. B: dispatch 426, TS2 at 426 -> 446,
 * END 476. A: dispatch 488, TS3 at 488 -> 508, END 538. */
static void test_yield(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    save_ts(&e, 1);
    yield(&e);
    save_ts(&e, 3);
    end_job(&e, j);
    j = job(&e, 0x00, 2);
    save_ts(&e, 2);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    expect_records(&cm->uc[0], (const uint32_t[]){1, 2, 3}, (const uint64_t[]){384, 426, 488}, 3);
    assert_int_equal(r.m.units[0].halted_at, 538);
    assert_int_equal(r.m.units[0].counters[CN_YIELDS].value, 1);
    done(&r);
}

/* LOCAL_BARRIER $lb0, 2: A arrives first and blocks; B records 2, arrives (releasing A),
 * records 3, ends; then A records 1. A: dispatch 384, barrier 409 (blocks). B: dispatch 421,
 * TS2 at 421 -> 441, barrier 466 (A ready at 466), TS3 at 466 -> 486, END 516. A: dispatch
 * 528, the barrier completes, TS1 at 528 -> 548, END 578. A's barrier stall: 466 - 409. */
static void test_local_barrier(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    lbar(&e, 0, 2);
    save_ts(&e, 1);
    end_job(&e, j);
    j = job(&e, 0x00, 2);
    save_ts(&e, 2);
    lbar(&e, 0, 2);
    save_ts(&e, 3);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    expect_records(&cm->uc[0], (const uint32_t[]){2, 3, 1}, (const uint64_t[]){421, 466, 528}, 3);
    assert_int_equal(r.m.units[0].halted_at, 578);
    assert_int_equal(r.m.units[0].threads[0].stalls[CS_BARRIER], 466 - 409);
    done(&r);
}

/* REMOTE_BARRIER $rb0, 0x3 across uC 0 and uC 1. Both: fetch 282, START_JOB 312, EOF 342,
 * dispatch 354. uC 0: barrier 379 (blocks). uC 1: SLEEP 1 us = 500 cycles + 10 -> 864,
 * barrier 889 (matures: uC 0's job ready at 889), TS2 at 889 -> 909, END 939. uC 0: dispatch
 * 901, TS1 at 901 -> 921, END 951. */
static void test_remote_barrier(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 2, 3, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    rbar(&e, 0, 3);
    save_ts(&e, 1);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    e = page(&p, 1, 0);
    j = job(&e, 0x00, 1);
    sleep_us(&e, 1);
    rbar(&e, 0, 3);
    save_ts(&e, 2);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 1, 0, 256, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    expect_records(&cm->uc[0], (const uint32_t[]){1}, (const uint64_t[]){901}, 1);
    expect_records(&cm->uc[1], (const uint32_t[]){2}, (const uint64_t[]){889}, 1);
    assert_int_equal(r.m.units[0].halted_at, 951);
    assert_int_equal(r.m.units[1].halted_at, 939);
    assert_int_equal(r.m.units[0].threads[0].stalls[CS_REMOTE_BARRIER], 889 - 379);
    done(&r);
}

/* aiebu's test/control-code/sanity.asm, encoded by hand (uC 0, 4 columns): job 0 sends two
 * memory-tile BDs by uC-DMA and waits for its handle; job 1 waits at $lb0 for it, starts
 * TILE_2_1 MM2S_0 and TILE_3_1 S2MM_0 (token bit 31 set when tok), waits for both tokens. */
static void sanity(cert_program *p, int tok)
{
    prog_init(p, 1, 1, 1);
    em e = page(p, 0, 0);
    uint32_t j = job(&e, 0x00, 0);       /* 0x10 */
    ucdma(&e, 0, 0x60);                  /* the BDs at page offset 0x70 */
    wait_ucdma(&e, 0);
    lbar(&e, 0, 2);
    end_job(&e, j);
    j = job(&e, 0x00, 1);                /* 0x2c */
    lbar(&e, 0, 2);
    w32(&e, 0x041A0634, tok ? 0x80000000u : 0);
    w32(&e, 0x061A0604, tok ? 0x80000000u : 0);
    wait_tcts(&e, 2 << 5 | 1, 6, 1);     /* TILE_2_1, MM2S_0 */
    wait_tcts(&e, 3 << 5 | 1, 0, 1);     /* TILE_3_1, S2MM_0 */
    end_job(&e, j);
    eof(&e);                             /* 0x64 */
    assert_int_equal(e.o, 0x68);
    e.o = 0x70;
    bd(&e, 0x041A0000, 0x20, 8, 1);      /* local data at 0x90 */
    bd(&e, 0x061A0000, 0x30, 8, 0);      /* local data at 0xb0 */
    for (int k = 0; k < 2; k++) {        /* mem21_bd0, mem31_bd0: 128 words, valid */
        e32(&e, 0x80);
        for (int w = 0; w < 6; w++)
            e32(&e, 0);
        e32(&e, 0x80000000u);
    }
    assert_int_equal(e.o, 0xD0);
    hdr(p, 0, 0, 0xD0, 0);
}

/* Fetch 250 + 26 = 276; parser 306, 336, EOF 366. Job 0: dispatch 378, UC_DMA_WRITE_DES
 * 418 (2 BDs, 16 words: 60 + 32 = 92 cycles, done 510), WAIT_UC_DMA 458 (blocks). Job 1:
 * dispatch 470, barrier 495 (blocks). DMA done at 510: job 0 dispatch 522, barrier 547
 * (releases job 1), END 577. Job 1: dispatch 589, WRITE_32 604 + 40 = 644 (task: 8 +
 * ceil(128 / 2.5) = 60 -> done 704, token at 734), WRITE_32 699 (done 759, token 789),
 * WAIT_TCTS 719 (blocks until 734), dispatch 746, WAIT_TCTS 766 (blocks until 789),
 * dispatch 801, END 831. */
static void test_sanity_tokens(void **state)
{
    (void)state;
    cert_program p;
    sanity(&p, 1);
    run r = {0};
    cert_machine *cm = go(&r, &p, (const char *const[]){"columns=4", NULL});
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    assert_int_equal(r.m.units[0].halted_at, 831);
    const sim_unit *u = &r.m.units[0];
    assert_int_equal(u->counters[CN_TOKENS].value, 2);
    assert_int_equal(u->counters[CN_UCDMA_BYTES].value, 64);
    assert_int_equal(u->threads[1].stalls[CS_TCT], (734 - 719) + (789 - 766));
    assert_int_equal(u->threads[0].stalls[CS_UCDMA], 510 - 458);
    /* the uC-DMA wrote the BDs: the array reads them back */
    uint32_t v = 0;
    cert_array_read(cm->array, 900, 0x041A0000, &v, NULL, 0);
    assert_int_equal(v, 0x80);
    cert_array_read(cm->array, 900, 0x061A001C, &v, NULL, 0);
    assert_int_equal(v, 0x80000000u);
    assert_int_equal(cm->uc[0].job[0].r[0], 1); /* the wait handle */
    done(&r);
}

/* Without bit 31 no token comes: a deadlock whose report names the waiting opcode. */
static void test_sanity_hang(void **state)
{
    (void)state;
    cert_program p;
    sanity(&p, 0);
    run r = {0};
    go(&r, &p, (const char *const[]){"columns=4", NULL});
    assert_int_equal(r.m.stop.kind, SIM_STOP_DEADLOCK);
    assert_non_null(strstr(r.m.stop.msg, "uc0 page 0 offset 0x50 WAIT_TCTS TILE_2_1, MM2S_0, 0x1"));
    /* one line per uC */
    const char *rep = strstr(r.text, "uc0:");
    assert_non_null(rep);
    assert_non_null(strstr(rep, "uc0: page 0 offset 0x50: WAIT_TCTS TILE_2_1, MM2S_0, 0x1: job 1 waits for TCTs "
                                "from TILE_2_1 MM2S_0: expected 1, received 0\n"));
    assert_non_null(strstr(rep, "\nuc1: no control code\nuc2: no control code\nuc3: no control code\n"));
    done(&r);
}

/* The opcode watchdog: job 1 waits for a token nobody sends while job 2 sleeps (which
 * keeps the run from being a deadlock). Parser 312, 342, EOF 372; job 1: dispatch 384,
 * WAIT_TCTS starts at 384 (deadline 384 + 1000 = 1384), blocks at 404; job 2: dispatch
 * 416, SLEEP 926, SLEEP 1436: the first opcode boundary after the deadline. */
static void test_watchdog(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    wait_tcts(&e, 2 << 5 | 1, 6, 1);
    end_job(&e, j);
    j = job(&e, 0x00, 2);
    for (int k = 0; k < 4; k++)
        sleep_us(&e, 1);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    go(&r, &p, (const char *const[]){"opcode_timeout=1000", NULL});
    assert_int_equal(r.m.stop.kind, SIM_STOP_DEADLOCK);
    assert_non_null(strstr(r.m.stop.msg, "opcode timeout"));
    assert_int_equal(r.m.stop.cycle, 1436);
    assert_non_null(strstr(r.text, "uc0: page 0 offset 0x18: WAIT_TCTS TILE_2_1, MM2S_0, 0x1: job 1 waits for TCTs "
                                   "from TILE_2_1 MM2S_0: expected 1, received 0\n"));
    done(&r);
}

/* Two pages, ping-pong. Page 0 fetched at 282; page 1's fetch starts then: done 564.
 * Page 0: START_JOB 312, EOF 342, dispatch 354, TS1 at 354 -> 374, END 404; page 1 is not
 * there yet: wait until 564 (page_wait 282 at the start + 160). Page 1: 594, 624, dispatch
 * 636, TS2 at 636 -> 656, END 686. With a 1 us SLEEP in page 0 (END at 914), page 1 is
 * already fetched: it starts at 914, TS2 at 914 + 60 + 12 = 986, END 1036. */
static void two_pages(cert_program *p, int sleep)
{
    prog_init(p, 1, 1, 2);
    em e = page(p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    save_ts(&e, 1);
    if (sleep)
        sleep_us(&e, 1);
    end_job(&e, j);
    eof(&e);
    hdr(p, 0, 0, 256, 256);
    e = page(p, 0, 1);
    j = job(&e, 0x00, 2);
    save_ts(&e, 2);
    end_job(&e, j);
    eof(&e);
    hdr(p, 0, 1, 256, 0);
}

static void test_pages(void **state)
{
    (void)state;
    cert_program p;
    two_pages(&p, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    expect_records(&cm->uc[0], (const uint32_t[]){1, 2}, (const uint64_t[]){354, 636}, 2);
    assert_int_equal(r.m.units[0].halted_at, 686);
    assert_int_equal(r.m.units[0].counters[CN_PAGES].value, 2);
    assert_int_equal(r.m.units[0].counters[CN_PAGE_WAIT].value, 282 + 160);
    done(&r);
    two_pages(&p, 1);
    run r2 = {0};
    cm = go(&r2, &p, NULL);
    /* page 0: TS1 at 354 -> 374, SLEEP 10 + 500 -> 884, END 914 */
    expect_records(&cm->uc[0], (const uint32_t[]){1, 2}, (const uint64_t[]){354, 986}, 2);
    assert_int_equal(r2.m.units[0].halted_at, 1036);
    done(&r2);
}

/* START_JOB_DEFERRED runs only once launched; LOAD_PDI runs its page as a sub-sequence
 * (and a repeat of the same PDI id is skipped). Page 0: job 1 launches job 2; job 3 is a
 * LOAD_PDI of page 1 (id 7), job 4 another LOAD_PDI 7. Page 1 (the PDI) records 100. */
static void test_deferred_and_pdi(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 2);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x17, 2);
    save_ts(&e, 2);
    end_job(&e, j);
    j = job(&e, 0x00, 1);
    save_ts(&e, 1);
    launch(&e, 2);
    save_ts(&e, 11);
    end_job(&e, j);
    j = job(&e, 0x00, 3);
    load_pdi(&e, 7, 1);
    end_job(&e, j);
    j = job(&e, 0x00, 4);
    load_pdi(&e, 7, 1);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    e = page(&p, 0, 1);
    j = job(&e, 0x00, 9);
    save_ts(&e, 100);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 1, 256, 0);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    const cert_uc *c = &cm->uc[0];
    assert_int_equal(c->nrec, 4);
    uint32_t ids[4];
    for (int i = 0; i < 4; i++)
        ids[i] = c->rec[i].id;
    /* job 1 runs on after LAUNCH_JOB until it ends; then job 2; the PDI page once */
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[1], 11);
    assert_int_equal(ids[2], 2);
    assert_int_equal(ids[3], 100);
    assert_int_equal(c->rec[3].page, 1);
    assert_int_equal(r.m.units[0].counters[CN_LOADS].value, 1);
    done(&r);
}

/* WRITE_32_D flags: with the default (mlir) flags 2 = immediate address, value from the
 * register the value field names; with -o write32d_flags=spec the same bits mean the
 * opposite, so flags 1 is that case. The word lands in TILE_0_1's data memory. */
static void w32d_prog(cert_program *p, unsigned flags)
{
    prog_init(p, 1, 1, 1);
    em e = page(p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    mov(&e, 2, 0xCAFE);
    w32d(&e, flags, 0x00100100, 2); /* value: register 2 */
    read32(&e, 1, 0x00100100);
    end_job(&e, j);
    eof(&e);
    hdr(p, 0, 0, 256, 0);
}

static void test_write32d_flags(void **state)
{
    (void)state;
    cert_program p;
    w32d_prog(&p, 2);
    run r = {0};
    cert_machine *cm = go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    assert_int_equal(cm->uc[0].job[0].r[1], 0xCAFE);
    done(&r);
    w32d_prog(&p, 1);
    run r2 = {0};
    cm = go(&r2, &p, (const char *const[]){"write32d_flags=spec", NULL});
    assert_int_equal(r2.m.stop.kind, SIM_STOP_HALT);
    assert_int_equal(cm->uc[0].job[0].r[1], 0xCAFE);
    done(&r2);
}

/* MASK_POLL_32 on TILE_0_1 MM2S_0's status (0x001A0680, mask 0x78003C == 0: idle, queue
 * empty) while a 1280-word task runs. START_JOB 312, EOF 342, dispatch 354; WRITE_32 of BD0
 * word 0 at 409; WRITE_32 of the start queue (BD 0, no token) at 464: the task ends at
 * 464 + 8 + 1280 / 2.5 = 984. Each attempt: dispatch 12 + cost_poll 20 + read 50 = 82 cycles
 * (more than poll_retry 50): reads at 534 (the first, without dispatch), 616, 698, 780, 862,
 * 944 fail, 1026 succeeds; END_JOB 1056. */
static void test_poll(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    w32(&e, 0x001A0000, 1280);
    w32(&e, 0x001A0634, 0);
    mask_poll(&e, 0x001A0680, 0x78003C, 0);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
    assert_int_equal(r.m.units[0].halted_at, 1056);
    assert_int_equal(r.m.units[0].counters[CN_POLL_RETRIES].value, 6);
    done(&r);
}

/* An unmodelled register: a warning once per address (and a count), or with -o strict=1 a
 * stop naming the access. TILE_0_0 + 0x100 (shim) is not modelled. */
static void test_strict(void **state)
{
    (void)state;
    cert_program p;
    for (int strict = 0; strict < 2; strict++) {
        prog_init(&p, 1, 1, 1);
        em e = page(&p, 0, 0);
        uint32_t j = job(&e, 0x00, 1);
        w32(&e, 0x100, 1);
        w32(&e, 0x100, 2);
        end_job(&e, j);
        eof(&e);
        hdr(&p, 0, 0, 256, 0);
        run r = {0};
        go(&r, &p, strict ? (const char *const[]){"strict=1", NULL} : NULL);
        if (strict) {
            assert_int_equal(r.m.stop.kind, SIM_STOP_FAULT);
            assert_non_null(strstr(r.m.stop.msg, "uc0 page 0 offset 0x18 (job 1): address 0x00000100"));
        } else {
            assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
            assert_int_equal(r.m.units[0].counters[CN_UNMODELLED].value, 2);
            const char *w = strstr(r.text, "warning: uc0");
            assert_non_null(w);
            assert_null(strstr(w + 1, "warning: uc0")); /* once per address */
        }
        done(&r);
    }
}

/* START_COND_JOB_PREEMPT exists only with -o preempt=1, and PREEMPT then runs its save page
 * and its restore page (pages 1 and 2) before the job goes on. */
static void test_preempt(void **state)
{
    (void)state;
    for (int pre = 0; pre < 2; pre++) {
        cert_program p;
        prog_init(&p, 1, 1, 3);
        em e = page(&p, 0, 0);
        uint32_t j = job(&e, 0x1F, 1);
        save_ts(&e, 1);
        end_job(&e, j);
        j = job(&e, 0x00, 2);
        preempt(&e, 0, 1, 2);
        end_job(&e, j);
        j = job(&e, 0x00, 3);
        save_ts(&e, 3);
        end_job(&e, j);
        eof(&e);
        hdr(&p, 0, 0, 256, 0);
        for (int pg = 1; pg <= 2; pg++) {
            e = page(&p, 0, pg);
            j = job(&e, 0x00, 10 + pg);
            save_ts(&e, 10 + pg);
            end_job(&e, j);
            eof(&e);
            hdr(&p, 0, pg, 256, 0);
        }
        run r = {0};
        cert_machine *cm = go(&r, &p, pre ? (const char *const[]){"preempt=1", NULL} : NULL);
        assert_int_equal(r.m.stop.kind, SIM_STOP_HALT);
        const cert_uc *c = &cm->uc[0];
        if (pre) {
            assert_int_equal(c->nrec, 4);
            assert_int_equal(c->rec[0].id, 1);
            assert_int_equal(c->rec[1].id, 11);
            assert_int_equal(c->rec[2].id, 12);
            assert_int_equal(c->rec[3].id, 3);
        } else {
            assert_int_equal(c->nrec, 1);
            assert_int_equal(c->rec[0].id, 3);
        }
        done(&r);
    }
}

/* An unknown opcode stops the run as illegal, naming uc, page and offset. */
static void test_illegal(void **state)
{
    (void)state;
    cert_program p;
    prog_init(&p, 1, 1, 1);
    em e = page(&p, 0, 0);
    uint32_t j = job(&e, 0x00, 1);
    op(&e, 0x0A); /* unused opcode */
    e16(&e, 0);
    end_job(&e, j);
    eof(&e);
    hdr(&p, 0, 0, 256, 0);
    run r = {0};
    go(&r, &p, NULL);
    assert_int_equal(r.m.stop.kind, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r.m.stop.msg, "uc0 page 0 offset 0x18"));
    assert_int_equal(r.m.stop.pc, 0x18);
    done(&r);
}

XPUSIM_TESTS(cert_runner, cmocka_unit_test(test_order), cmocka_unit_test(test_yield),
             cmocka_unit_test(test_local_barrier), cmocka_unit_test(test_remote_barrier),
             cmocka_unit_test(test_sanity_tokens), cmocka_unit_test(test_sanity_hang), cmocka_unit_test(test_watchdog),
             cmocka_unit_test(test_pages),
             cmocka_unit_test(test_deferred_and_pdi), cmocka_unit_test(test_write32d_flags),
             cmocka_unit_test(test_poll), cmocka_unit_test(test_strict), cmocka_unit_test(test_preempt),
             cmocka_unit_test(test_illegal))
