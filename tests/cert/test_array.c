/* tests/cert/test_array.c: the CERT array model (isa/cert/array.c) through its public
 * interface only: address decode and the errors it reports, plain storage, lock value
 * registers and lock requests, DMA task queues (4 deep, the fifth push dropped), task timing
 * (setup + ceil(words / rate), repeat counts, BD chains on memory and shim tiles), the
 * reference's TCT check (WRITE_32 0x041A0634 0x80000000 -> one token from TILE_2_1 actor 6),
 * status registers as MASK_POLL_32 0x78003C sees them, the order of simultaneous
 * completions, unmodelled accesses and the debugger description. Every expected number is
 * derived in a comment from the rules and the configuration below: setup 10 cycles, 2 words
 * per cycle, 4 columns of 7 rows (row 0 shim, rows 1-2 memory tiles, rows 3-6 core tiles). */
#include "../testlib.h"
#include "../../isa/cert/array.h"

#define SETUP 10
#define RATE 2.0

static cert_array *mk(void)
{
    cert_array_cfg cfg = {0};
    cfg.target = 0;
    cfg.columns = 4;
    cfg.rows = 7;
    cfg.mem_rows = 2;
    cfg.dma_task_setup = SETUP;
    cfg.dma_words_per_cycle = RATE;
    cert_array *a = cert_array_new(&cfg);
    assert_non_null(a);
    return a;
}

static uint32_t A(uint32_t col, uint32_t row, uint32_t off)
{
    return col << 25 | row << 20 | off;
}

static void wr(cert_array *a, uint64_t now, uint32_t addr, uint32_t v)
{
    char msg[160] = "";
    int rc = cert_array_write(a, now, addr, v, msg, sizeof msg);
    if (rc != CERT_AX_OK)
        fail_msg("write 0x%08X: rc %d: %s", addr, rc, msg);
}

static uint32_t rd(cert_array *a, uint64_t now, uint32_t addr)
{
    char msg[160] = "";
    uint32_t v = 0xDEADBEEF;
    int rc = cert_array_read(a, now, addr, &v, msg, sizeof msg);
    if (rc != CERT_AX_OK)
        fail_msg("read 0x%08X: rc %d: %s", addr, rc, msg);
    return v;
}

/* Tokens collected by emit. */
typedef struct sink {
    int n;
    cert_token t[16];
} sink;

static void collect(void *ctx, const cert_token *t)
{
    sink *s = ctx;
    assert_true(s->n < 16);
    s->t[s->n++] = *t;
}

static void check_token(const cert_token *t, uint32_t col, uint32_t row, uint32_t actor,
                        uint32_t controller, uint64_t cycle)
{
    assert_int_equal(t->col, col);
    assert_int_equal(t->row, row);
    assert_int_equal(t->actor, actor);
    assert_int_equal(t->controller, controller);
    assert_int_equal(t->cycle, cycle);
}

/* Memory-tile BD id: word0 length (words), word1 next BD (use_next bit 19, id 25:20). */
static void mem_bd(cert_array *a, uint32_t col, uint32_t row, unsigned id, uint32_t len, int next)
{
    wr(a, 0, A(col, row, 0xA0000 + 0x20 * id), len);
    wr(a, 0, A(col, row, 0xA0004 + 0x20 * id), next < 0 ? 0 : (1u << 19) | (uint32_t)next << 20);
}

static void test_config_checked(void **state)
{
    (void)state;
    cert_array_cfg cfg = {0, 4, 7, 2, 0, SETUP, RATE, 0};
    cert_array *a = cert_array_new(&cfg);
    assert_non_null(a);
    cert_array_free(a);
    cfg.dma_words_per_cycle = 0; /* a task would never finish */
    assert_null(cert_array_new(&cfg));
    cfg.dma_words_per_cycle = RATE;
    cfg.columns = 0;
    assert_null(cert_array_new(&cfg));
    cfg.columns = 129; /* 7 column bits */
    assert_null(cert_array_new(&cfg));
    cfg.columns = 4;
    cfg.mem_rows = 7; /* no core rows, and no room for the shim */
    assert_null(cert_array_new(&cfg));
    cfg.mem_rows = 2;
    cfg.rows = 33; /* 5 row bits */
    assert_null(cert_array_new(&cfg));
    assert_null(cert_array_new(NULL));
}

static void test_decode_and_bad_addresses(void **state)
{
    (void)state;
    cert_array *a = mk();
    char msg[160];
    uint32_t v;
    /* 0x041A0634 = col 2 (0x04000000 >> 25), row 1 (0x00100000), offset 0xA0634 */
    assert_int_equal(A(2, 1, 0xA0634), 0x041A0634u);
    /* unaligned */
    v = 7;
    assert_int_equal(cert_array_write(a, 0, 0x041A0002, 1, msg, sizeof msg), CERT_AX_BAD);
    assert_non_null(strstr(msg, "unaligned"));
    assert_int_equal(cert_array_read(a, 0, 0x041A0001, &v, msg, sizeof msg), CERT_AX_BAD);
    assert_int_equal(v, 0);
    /* column 4 of a 4-column partition */
    assert_int_equal(cert_array_write(a, 0, A(4, 1, 0), 1, msg, sizeof msg), CERT_AX_BAD);
    assert_non_null(strstr(msg, "column 4"));
    /* highest column bits: col 127 */
    assert_int_equal(cert_array_read(a, 0, 0xFE000000u, &v, msg, sizeof msg), CERT_AX_BAD);
    /* row 7 of a 7-row column */
    assert_int_equal(cert_array_write(a, 0, A(0, 7, 0), 1, msg, sizeof msg), CERT_AX_BAD);
    assert_non_null(strstr(msg, "row 7"));
    /* a NULL message buffer is allowed */
    assert_int_equal(cert_array_write(a, 0, A(0, 7, 0), 1, NULL, 0), CERT_AX_BAD);
    /* last tile of the partition is fine */
    wr(a, 0, A(3, 6, 0xFFFC), 0x12345678);
    assert_int_equal(rd(a, 0, A(3, 6, 0xFFFC)), 0x12345678);
    cert_array_free(a);
}

static void test_plain_storage(void **state)
{
    (void)state;
    cert_array *a = mk();
    /* memory tile data memory: first and last word of 512 KiB */
    wr(a, 0, A(2, 1, 0x00000), 0x11111111);
    wr(a, 0, A(2, 1, 0x7FFFC), 0x22222222);
    assert_int_equal(rd(a, 0, A(2, 1, 0x00000)), 0x11111111);
    assert_int_equal(rd(a, 0, A(2, 1, 0x7FFFC)), 0x22222222);
    /* the same offset in another memory tile is another memory */
    assert_int_equal(rd(a, 0, A(2, 2, 0x00000)), 0);
    /* core tile (row 3): data, program memory, core control, stream switch */
    wr(a, 0, A(1, 3, 0x0FFFC), 3);
    wr(a, 0, A(1, 3, 0x20000), 4);
    wr(a, 0, A(1, 3, 0x23FFC), 5);
    wr(a, 0, A(1, 3, 0x38000), 1); /* Core_Control enable */
    wr(a, 0, A(1, 3, 0x3F004), 0x80000001);
    assert_int_equal(rd(a, 0, A(1, 3, 0x0FFFC)), 3);
    assert_int_equal(rd(a, 0, A(1, 3, 0x20000)), 4);
    assert_int_equal(rd(a, 0, A(1, 3, 0x23FFC)), 5);
    assert_int_equal(rd(a, 0, A(1, 3, 0x38000)), 1);
    assert_int_equal(rd(a, 0, A(1, 3, 0x3F004)), 0x80000001);
    /* shim uC regions: program memory, handshake, module registers, sDM */
    wr(a, 0, A(0, 0, 0x80000), 6);
    wr(a, 0, A(0, 0, 0x88000), 7);
    wr(a, 0, A(0, 0, 0xC0000), 8);
    wr(a, 0, A(0, 0, 0xD0000), 9);
    assert_int_equal(rd(a, 0, A(0, 0, 0x80000)), 6);
    assert_int_equal(rd(a, 0, A(0, 0, 0x88000)), 7);
    assert_int_equal(rd(a, 0, A(0, 0, 0xC0000)), 8);
    assert_int_equal(rd(a, 0, A(0, 0, 0xD0000)), 9);
    /* unwritten storage reads zero */
    assert_int_equal(rd(a, 0, A(0, 0, 0xD0004)), 0);
    /* BD words and CTRL read back */
    wr(a, 0, A(0, 0, 0x9000 + 0x30 * 15 + 0x20), 0xABC); /* shim BD15 word8 */
    assert_int_equal(rd(a, 0, A(0, 0, 0x92F0)), 0xABC);
    wr(a, 0, A(2, 1, 0xA0630), 0x0700);
    assert_int_equal(rd(a, 0, A(2, 1, 0xA0630)), 0x0700);
    cert_array_stats st;
    cert_array_get_stats(a, &st);
    assert_int_equal(st.unmodelled_reads + st.unmodelled_writes, 0);
    cert_array_free(a);
}

static void test_unmodelled_reported(void **state)
{
    (void)state;
    cert_array *a = mk();
    char msg[160];
    uint32_t v = 5;
    /* core tile Module_Clock_Control 0x60000: not modelled */
    assert_int_equal(cert_array_write(a, 0, A(0, 3, 0x60000), 1, msg, sizeof msg), CERT_AX_UNMODELLED);
    assert_string_equal(msg, "write to unmodelled register TILE_0_3+0x60000");
    assert_int_equal(cert_array_read(a, 0, A(0, 3, 0x60000), &v, msg, sizeof msg), CERT_AX_UNMODELLED);
    assert_int_equal(v, 0);
    assert_non_null(strstr(msg, "TILE_0_3+0x60000"));
    /* a core-tile BD has 6 words: word 6 of BD0 (0x1D018) is not a register */
    assert_int_equal(cert_array_write(a, 0, A(0, 3, 0x1D018), 1, msg, sizeof msg), CERT_AX_UNMODELLED);
    /* the gap between memory-tile S2MM and MM2S status (0xA0678) */
    assert_int_equal(cert_array_read(a, 0, A(1, 1, 0xA0678), &v, msg, sizeof msg), CERT_AX_UNMODELLED);
    /* status registers are read-only; lock requests are reads */
    assert_int_equal(cert_array_write(a, 0, A(1, 1, 0xA0680), 1, msg, sizeof msg), CERT_AX_UNMODELLED);
    assert_int_equal(cert_array_write(a, 0, A(1, 1, 0xD0004), 1, msg, sizeof msg), CERT_AX_UNMODELLED);
    /* shim: a lock value slot's padding word (lock 0 at 0x0, 0x4 is not a lock) */
    assert_int_equal(cert_array_write(a, 0, A(0, 0, 0x4), 1, msg, sizeof msg), CERT_AX_UNMODELLED);
    cert_array_stats st;
    cert_array_get_stats(a, &st);
    /* writes: 0x60000, 0x1D018, 0xA0680, 0xD0004, 0x4 = 5; reads: 0x60000, 0xA0678 = 2 */
    assert_int_equal(st.unmodelled_writes, 5);
    assert_int_equal(st.unmodelled_reads, 2);
    cert_array_free(a);
}

/* The reference's suggested check. BD0 of TILE_2_1 = 64 words, no next BD. MM2S_0 CTRL
 * Controller_ID = 5. A push at cycle 100 of 0x80000000 (token, repeat 0, BD 0) completes at
 * 100 + setup 10 + ceil(64 words / 2 per cycle) = 100 + 10 + 32 = 142. */
static void test_tct_from_start_queue_write(void **state)
{
    (void)state;
    cert_array *a = mk();
    sink s = {0};
    mem_bd(a, 2, 1, 0, 64, -1);
    wr(a, 0, A(2, 1, 0xA0630), 5u << 8);
    wr(a, 100, 0x041A0634, 0x80000000u);
    assert_int_equal(cert_array_next_event(a), 142);
    assert_int_equal(cert_array_advance(a, 141, collect, &s), 0);
    assert_int_equal(s.n, 0);
    assert_int_equal(cert_array_advance(a, 142, collect, &s), 1);
    assert_int_equal(s.n, 1);
    check_token(&s.t[0], 2, 1, 6, 5, 142);
    assert_true(cert_array_next_event(a) == UINT64_MAX);
    /* Without bit 31 the task still runs (200 + 42 = 242) but no token comes. */
    wr(a, 200, 0x041A0634, 0x00000000u);
    assert_int_equal(cert_array_next_event(a), 242);
    assert_int_equal(cert_array_advance(a, 10000, collect, &s), 1);
    assert_int_equal(s.n, 1);
    cert_array_stats st;
    cert_array_get_stats(a, &st);
    assert_int_equal(st.tasks_pushed, 2);
    assert_int_equal(st.tasks_done, 2);
    assert_int_equal(st.tokens, 1);
    assert_int_equal(st.words_moved, 128);
    cert_array_free(a);
}

/* Depth 4 behind the running task: at cycle 0 six pushes of BD0 (64 words, 42 cycles each)
 * onto an idle channel: the first runs, the next four wait, the sixth is dropped. The five
 * complete back to back at 42, 84, 126, 168, 210; the dropped one never does. */
static void test_queue_depth_four(void **state)
{
    (void)state;
    cert_array *a = mk();
    sink s = {0};
    char msg[160];
    mem_bd(a, 2, 1, 0, 64, -1);
    for (int i = 0; i < 5; i++)
        wr(a, 0, 0x041A0634, 0x80000000u);
    assert_int_equal(cert_array_write(a, 0, 0x041A0634, 0x80000000u, msg, sizeof msg),
                     CERT_AX_DROPPED);
    assert_string_equal(msg, "push to full task queue of TILE_2_1 MM2S_0: dropped");
    const uint64_t done[5] = {42, 84, 126, 168, 210};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(cert_array_next_event(a), done[i]);
        assert_int_equal(cert_array_advance(a, done[i], collect, &s), 1);
        assert_int_equal(s.t[i].cycle, done[i]);
    }
    assert_int_equal(cert_array_advance(a, 100000, collect, &s), 0);
    assert_int_equal(s.n, 5);
    cert_array_stats st;
    cert_array_get_stats(a, &st);
    assert_int_equal(st.tasks_pushed, 5);
    assert_int_equal(st.tasks_dropped, 1);
    cert_array_free(a);
}

/* The same rule seen from a busy channel: one task already runs (pushed at 0, until 42);
 * five more pushes at cycle 1 - four fill the queue, the fifth is dropped. */
static void test_fifth_push_while_busy_dropped(void **state)
{
    (void)state;
    cert_array *a = mk();
    char msg[160];
    mem_bd(a, 2, 1, 0, 64, -1);
    wr(a, 0, 0x041A0634, 0); /* busy until 42 */
    for (int i = 1; i <= 5; i++) {
        int rc = cert_array_write(a, 1, 0x041A0634, 0, msg, sizeof msg);
        assert_int_equal(rc, i < 5 ? CERT_AX_OK : CERT_AX_DROPPED);
    }
    cert_array_free(a);
}

/* Repeat count 3 = 4 passes of BD0 (64 words): 256 words -> 10 + 128 = 138 cycles. A chain
 * BD0 (64) -> BD1 (16): 80 words -> 10 + 40 = 50 cycles; with repeat 1: 160 -> 10 + 80 = 90.
 * An odd total rounds up: 3 words at 2 per cycle = 2 cycles -> 12. */
static void test_repeat_and_chains(void **state)
{
    (void)state;
    cert_array *a = mk();
    sink s = {0};
    mem_bd(a, 2, 1, 0, 64, -1);
    wr(a, 0, 0x041A0634, 0x80030000u);
    assert_int_equal(cert_array_next_event(a), 138);
    cert_array_advance(a, 138, collect, &s);
    assert_int_equal(s.n, 1);

    mem_bd(a, 1, 2, 0, 64, 1);
    mem_bd(a, 1, 2, 1, 16, -1);
    wr(a, 1000, A(1, 2, 0xA0604), 0x80000000u); /* S2MM_0 */
    assert_int_equal(cert_array_next_event(a), 1050);
    cert_array_advance(a, 1050, collect, &s);
    check_token(&s.t[1], 1, 2, 0, 0, 1050);
    wr(a, 2000, A(1, 2, 0xA060C), 0x80010000u); /* S2MM_1, repeat 1 */
    assert_int_equal(cert_array_next_event(a), 2090);
    cert_array_advance(a, 2090, collect, &s);
    check_token(&s.t[2], 1, 2, 1, 0, 2090);

    mem_bd(a, 3, 1, 47, 3, -1); /* the last memory-tile BD */
    wr(a, 3000, A(3, 1, 0xA065C), 47u | 0x80000000u); /* MM2S_5 -> actor 11 */
    assert_int_equal(cert_array_next_event(a), 3012);
    cert_array_advance(a, 3012, collect, &s);
    check_token(&s.t[3], 3, 1, 11, 0, 3012);

    /* A chain that comes back to itself never ends: BD2 -> BD3 -> BD2. */
    mem_bd(a, 0, 1, 2, 8, 3);
    mem_bd(a, 0, 1, 3, 8, 2);
    wr(a, 4000, A(0, 1, 0xA0634), 0x80000002u);
    assert_true(cert_array_next_event(a) == UINT64_MAX);
    assert_int_equal(cert_array_advance(a, UINT64_MAX - 1, collect, &s), 0);
    assert_int_equal(rd(a, 4001, A(0, 1, 0xA0680)) & 0x78003C, 1u << 19);
    cert_array_free(a);
}

/* Shim DMA: BD n at 0x9000 + 0x30 n, length word0, Next_BD word7 30:27, Use_Next_BD 26.
 * BD0 (100 words) -> BD1 (20 words): 120 words -> 10 + 60 = 70 cycles. MM2S_0 task queue
 * 0x9314 -> actor 6; S2MM_1 task queue 0x930C -> actor 1, BD1 alone: 20 words -> 10 + 10. */
static void test_shim_channels(void **state)
{
    (void)state;
    cert_array *a = mk();
    sink s = {0};
    wr(a, 0, A(1, 0, 0x9000), 100);
    wr(a, 0, A(1, 0, 0x901C), 0x02000000u | 1u << 26 | 1u << 27);
    wr(a, 0, A(1, 0, 0x9030), 20);
    wr(a, 0, A(1, 0, 0x904C), 0x02000000u);
    wr(a, 0, A(1, 0, 0x9310), 0x0300); /* Controller_ID 3 */
    wr(a, 0, A(1, 0, 0x9314), 0x80000000u);
    wr(a, 5, A(1, 0, 0x930C), 0x80000001u);
    /* S2MM_1 done at 5 + 20 = 25, MM2S_0 at 70 */
    assert_int_equal(cert_array_advance(a, 1000, collect, &s), 2);
    check_token(&s.t[0], 1, 0, 1, 0, 25);
    check_token(&s.t[1], 1, 0, 6, 3, 70);
    /* core-tile DMA too: BD0 at 0x1D000 (length 13:0), MM2S_1 start queue 0x1DE1C -> actor 7:
     * 40 words -> 10 + 20 = 30 */
    wr(a, 0, A(2, 4, 0x1D000), 40);
    wr(a, 2000, A(2, 4, 0x1DE1C), 0x80000000u);
    assert_int_equal(cert_array_advance(a, 3000, collect, &s), 1);
    check_token(&s.t[2], 2, 4, 7, 0, 2030);
    cert_array_free(a);
}

/* Status: Task_Queue_Size 22:20 (waiting tasks), Channel_Running 19, overflow 18,
 * Status 1:0 = 2 while running. MASK_POLL_32 0x78003C == 0 means idle and empty. */
static void test_status_register(void **state)
{
    (void)state;
    cert_array *a = mk();
    const uint32_t st = A(2, 1, 0xA0680); /* MM2S_0 status */
    mem_bd(a, 2, 1, 0, 64, -1);
    assert_int_equal(rd(a, 0, st), 0);
    wr(a, 0, 0x041A0634, 0);   /* runs 0..42 */
    wr(a, 0, 0x041A0634, 0);   /* waits, runs 42..84 */
    wr(a, 0, 0x041A0634, 0);   /* waits, runs 84..126 */
    /* two waiting, running: 2 << 20 | 1 << 19 | 2 = 0x280002 */
    assert_int_equal(rd(a, 0, st), 0x280002);
    assert_int_not_equal(rd(a, 0, st) & 0x78003C, 0);
    cert_array_advance(a, 84, NULL, NULL);
    /* none waiting, third running: 0x80002 */
    assert_int_equal(rd(a, 84, st), 0x80002);
    assert_int_not_equal(rd(a, 84, st) & 0x78003C, 0);
    cert_array_advance(a, 126, NULL, NULL);
    assert_int_equal(rd(a, 126, st) & 0x78003C, 0);
    assert_int_equal(rd(a, 126, st), 0);
    /* the other channels were never busy */
    assert_int_equal(rd(a, 126, A(2, 1, 0xA0660)), 0);
    /* shim S2MM_1 status 0x9324 through its task queue 0x930C; BD0 empty: 10 cycles */
    wr(a, 200, A(0, 0, 0x930C), 0);
    wr(a, 200, A(0, 0, 0x930C), 0);
    assert_int_equal(rd(a, 200, A(0, 0, 0x9324)), 0x180002);
    assert_int_equal(rd(a, 200, A(0, 0, 0x9320)), 0);
    cert_array_advance(a, 220, NULL, NULL);
    assert_int_equal(rd(a, 220, A(0, 0, 0x9324)), 0);
    /* an overflow sets bit 18, outside the poll mask */
    for (int i = 0; i < 6; i++)
        cert_array_write(a, 300, A(0, 0, 0x9314), 0, NULL, 0);
    assert_int_equal(rd(a, 300, A(0, 0, 0x9328)), 4u << 20 | 1u << 19 | 1u << 18 | 2u);
    cert_array_free(a);
}

/* Completions at one cycle come out by column, row, channel index, then direction. All BDs
 * are 64 words, all pushes at cycle 0: everything completes at 42. Pushed in a scrambled
 * order; expected: TILE_0_1 MM2S_1 (col 0), then TILE_1_1 S2MM_0, TILE_1_1 MM2S_0,
 * TILE_1_1 S2MM_1 (index before direction), then TILE_1_2 MM2S_0 (row 2). A task on
 * TILE_3_1 of 32 words (10 + 16 = 26) finishes earlier and comes first despite its column. */
static void test_simultaneous_completion_order(void **state)
{
    (void)state;
    cert_array *a = mk();
    sink s = {0};
    mem_bd(a, 0, 1, 0, 64, -1);
    mem_bd(a, 1, 1, 0, 64, -1);
    mem_bd(a, 1, 2, 0, 64, -1);
    mem_bd(a, 3, 1, 0, 32, -1);
    wr(a, 0, A(1, 2, 0xA0634), 0x80000000u); /* TILE_1_2 MM2S_0 */
    wr(a, 0, A(1, 1, 0xA060C), 0x80000000u); /* TILE_1_1 S2MM_1 */
    wr(a, 0, A(0, 1, 0xA063C), 0x80000000u); /* TILE_0_1 MM2S_1 */
    wr(a, 0, A(1, 1, 0xA0634), 0x80000000u); /* TILE_1_1 MM2S_0 */
    wr(a, 0, A(1, 1, 0xA0604), 0x80000000u); /* TILE_1_1 S2MM_0 */
    wr(a, 0, A(3, 1, 0xA0604), 0x80000000u); /* TILE_3_1 S2MM_0, done at 26 */
    assert_int_equal(cert_array_next_event(a), 26);
    assert_int_equal(cert_array_advance(a, 42, collect, &s), 6);
    check_token(&s.t[0], 3, 1, 0, 0, 26);
    check_token(&s.t[1], 0, 1, 7, 0, 42);
    check_token(&s.t[2], 1, 1, 0, 0, 42);
    check_token(&s.t[3], 1, 1, 6, 0, 42);
    check_token(&s.t[4], 1, 1, 1, 0, 42);
    check_token(&s.t[5], 1, 2, 6, 0, 42);
    cert_array_free(a);
}

/* Locks: value registers keep the 6-bit field; requests are reads of
 * base + id * 0x400 (+ 0x200 acquire) + (value & 0x7F) << 2, bit 0 = success. */
static void test_locks(void **state)
{
    (void)state;
    cert_array *a = mk();
    const uint32_t req = A(2, 1, 0xD0000 + 2 * 0x400); /* memory tile lock 2 */
    const uint32_t val = A(2, 1, 0xC0020);
    wr(a, 0, A(2, 1, 0xC03F0), 0x47);                   /* lock 63: 0x47 & 0x3F = 7 */
    assert_int_equal(rd(a, 0, A(2, 1, 0xC03F0)), 7);
    assert_int_equal(rd(a, 0, req + (1 << 2)), 1);           /* release +1: 0 -> 1 */
    assert_int_equal(rd(a, 0, val), 1);
    assert_int_equal(rd(a, 0, req + 0x200 + (2 << 2)), 0);   /* acquire == 2 fails at 1 */
    assert_int_equal(rd(a, 0, req + (1 << 2)), 1);           /* 1 -> 2 */
    assert_int_equal(rd(a, 0, req + 0x200 + (2 << 2)), 1);   /* acquire == 2: unchanged */
    assert_int_equal(rd(a, 0, val), 2);
    assert_int_equal(rd(a, 0, req + 0x200 + (0x7E << 2)), 1); /* acquire >= 2 (-2): 2 -> 0 */
    assert_int_equal(rd(a, 0, val), 0);
    assert_int_equal(rd(a, 0, req + 0x200 + (0x7F << 2)), 0); /* acquire >= 1 fails at 0 */
    assert_int_equal(rd(a, 0, req + (0x7F << 2)), 0);         /* release -1 underflows */
    assert_int_equal(rd(a, 0, req + (63 << 2)), 1);           /* release +63: 63 */
    assert_int_equal(rd(a, 0, req + (1 << 2)), 0);            /* 64 overflows */
    assert_int_equal(rd(a, 0, val), 63);
    /* REL_ACQ_SYNC barrier of 3 uCs on core-tile lock 5 (row 3, requests at 0x40000):
     * each releases +1 then polls acquire == 3; the poll succeeds once all three released. */
    const uint32_t rel = A(0, 3, 0x40000 + 5 * 0x400 + (1 << 2));
    const uint32_t acq = A(0, 3, 0x40000 + 5 * 0x400 + 0x200 + (3 << 2));
    assert_int_equal(rd(a, 0, rel), 1);
    assert_int_equal(rd(a, 0, acq), 0);
    assert_int_equal(rd(a, 0, rel), 1);
    assert_int_equal(rd(a, 0, acq), 0);
    assert_int_equal(rd(a, 0, rel), 1);
    assert_int_equal(rd(a, 0, acq), 1);
    assert_int_equal(rd(a, 0, A(0, 3, 0x1F050)), 3);
    /* shim lock 15: value register 0xF0, requests at 0xC000 */
    assert_int_equal(rd(a, 0, A(0, 0, 0xC000 + 15 * 0x400 + (4 << 2))), 1);
    assert_int_equal(rd(a, 0, A(0, 0, 0xF0)), 4);
    /* a core tile has 16 locks: lock 16's request window is not a lock */
    char msg[160];
    uint32_t v;
    assert_int_equal(cert_array_read(a, 0, A(0, 3, 0x40000 + 16 * 0x400), &v, msg, sizeof msg),
                     CERT_AX_UNMODELLED);
    cert_array_free(a);
}

static void test_describe(void **state)
{
    (void)state;
    cert_array *a = mk();
    char buf[1024];
    cert_array_describe(a, buf, sizeof buf);
    assert_string_equal(buf, "");
    mem_bd(a, 2, 1, 0, 64, -1);
    wr(a, 0, 0x041A0634, 0x80000000u);
    wr(a, 0, 0x041A0634, 0x00010000u);
    wr(a, 0, A(2, 1, 0xC0030), 4);
    cert_array_describe(a, buf, sizeof buf);
    assert_non_null(strstr(buf, "TILE_2_1 MM2S_0: running bd 0 x1 tct (64 words) until 42; 1 queued: bd 0 x2\n"));
    assert_non_null(strstr(buf, "TILE_2_1 lock 3 = 4\n"));
    /* a small buffer is truncated, never overrun */
    char small[8];
    memset(small, 'x', sizeof small);
    cert_array_describe(a, small, sizeof small);
    assert_int_equal(strlen(small), 7);
    cert_array_free(a);
}

/* What a hang report says about a polled register: the lock request 0x00343BFC the aiebu
 * eff_net_coal programs poll is column 0, row 3 (a core tile with mem_rows 2), offset
 * 0x43BFC = request window 0x40000 + lock 14 (0x3800 / 0x400) + acquire (0x200) + value
 * 0x7F << 2 = -1; nothing is allocated by asking. A memory-tile status register names its
 * channel; an address outside every region is "not modelled". */
static void test_explain(void **state)
{
    (void)state;
    cert_array *a = mk();
    char buf[200];
    assert_int_equal(cert_array_explain(a, 0x00343BFC, buf, sizeof buf), 1);
    assert_string_equal(buf, "an acquire request of TILE_0_3 lock 14 (-1), lock value 0; only the core's program "
                             "(not modelled) uses core-tile locks");
    cert_array_stats st;
    cert_array_get_stats(a, &st);
    assert_int_equal(st.unmodelled_reads, 0);
    uint32_t v;
    /* a push on TILE_2_1 MM2S_0 (start queue 0xA0634) makes its status "running" */
    assert_int_equal(cert_array_write(a, 0, 0x041A0634, 0x80000000, NULL, 0), CERT_AX_OK);
    assert_int_equal(cert_array_explain(a, 0x041A0680, buf, sizeof buf), 1);
    assert_string_equal(buf, "the status of TILE_2_1 MM2S_0: running, 0 queued");
    assert_int_equal(cert_array_read(a, 0, 0x041A0680, &v, NULL, 0), CERT_AX_OK);
    assert_int_equal(cert_array_explain(a, 0x00377000, buf, sizeof buf), 1);
    assert_string_equal(buf, "TILE_0_3+0x77000 is not modelled: reads give 0");
    assert_int_equal(cert_array_explain(a, 0x00343BFE, buf, sizeof buf), 0); /* unaligned */
    cert_array_free(a);
}

/* An array whose register map is not public (aie4): every access answers CERT_AX_OPAQUE
 * with a message naming the target, reads give 0, and a push that would start a task on the
 * AIE2PS map starts nothing (no next event). */
static void test_opaque_target(void **state)
{
    (void)state;
    cert_array_cfg cfg = {1 /* aie4 */, 4, 7, 2, 0, SETUP, RATE, 1};
    cert_array *a = cert_array_new(&cfg);
    assert_non_null(a);
    char msg[160] = "";
    uint32_t v = 0xdead;
    assert_int_equal(cert_array_write(a, 0, A(0, 0, 0x1D214), 0x80000001u, msg, sizeof msg), CERT_AX_OPAQUE);
    assert_non_null(strstr(msg, "the aie4 array's register map is not public"));
    assert_int_equal(cert_array_read(a, 0, A(0, 2, 0x100), &v, msg, sizeof msg), CERT_AX_OPAQUE);
    assert_int_equal(v, 0);
    assert_true(cert_array_next_event(a) == UINT64_MAX);
    cert_array_free(a);
}

XPUSIM_TESTS(cert_array,
             cmocka_unit_test(test_opaque_target),
             cmocka_unit_test(test_config_checked),
             cmocka_unit_test(test_decode_and_bad_addresses),
             cmocka_unit_test(test_plain_storage),
             cmocka_unit_test(test_unmodelled_reported),
             cmocka_unit_test(test_tct_from_start_queue_write),
             cmocka_unit_test(test_queue_depth_four),
             cmocka_unit_test(test_fifth_push_while_busy_dropped),
             cmocka_unit_test(test_repeat_and_chains),
             cmocka_unit_test(test_shim_channels),
             cmocka_unit_test(test_status_register),
             cmocka_unit_test(test_simultaneous_completion_order),
             cmocka_unit_test(test_locks),
             cmocka_unit_test(test_describe), cmocka_unit_test(test_explain))
