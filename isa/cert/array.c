/* isa/cert/array.c: the AIE2PS array as CERT control code sees it through AXI-MM. Every
 * access is decoded to (column, row, offset) and then to a region of that tile's kind (shim
 * in row 0, memory tiles in rows 1..mem_rows, core tiles above): plain storage (data and
 * program memories, stream switch, core control, the shim uController's memories) that
 * reads back what was written, DMA buffer descriptors, channel CTRL / start-queue pairs,
 * channel status registers computed from the queue model, lock value registers and lock
 * request addresses (acquire/release by reading). A push onto a start queue either starts
 * the task (idle channel) or waits in a 4-deep FIFO; a task occupies its channel for a
 * setup time plus its BD chain's words at a fixed rate, and on completion may emit a
 * task-completion token. Data is never moved; only words are counted. Offsets and fields
 * come from aie-rt's AIE2PS register database (xaie2psgbl_params.h) unless a comment says
 * "inferred:". Tiles are allocated on first touch and memories on first write, so nothing
 * is allocated on the access path of a tile once it has been used. */
#include "array.h"
#include "cert.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CERT_MAX_CH 6        /* channels per direction (memory tile) */
#define CERT_MAX_BD 48       /* BDs per tile (memory tile) */
#define CERT_BD_WORDS_MAX 9  /* words per BD (shim) */
#define CERT_MAX_LOCKS 64    /* locks per tile (memory tile) */
#define CERT_MAX_STORE 5     /* plain-storage regions per tile (shim) */
#define CERT_LOCK_MAX 63     /* lock value field is 6 bits (LOCKn_VALUE mask 0x3F) */

enum { CERT_TK_SHIM, CERT_TK_MEM, CERT_TK_CORE };
enum { CERT_S2MM = 0, CERT_MM2S = 1 };
enum { RG_STORE, RG_BD, RG_CHAN, RG_STATUS, RG_LOCK, RG_LOCKREQ };

typedef struct cert_region {
    uint32_t lo, hi;         /* inclusive offsets */
    uint8_t kind;            /* RG_* */
    uint8_t slot;            /* RG_STORE: index in cert_tile.store */
} cert_region;

/* Everything that differs between tile kinds, so one decoder serves all three. */
typedef struct cert_layout {
    const char *name;
    unsigned nch;                       /* channels per direction */
    unsigned nbd, bd_words, bd_stride;
    uint32_t bd_base, chan_base, s2mm_status, mm2s_status;
    unsigned len_word;                  /* BD word holding Buffer_Length (in words) */
    uint32_t len_mask;
    unsigned next_word, next_lsb, use_next_bit;
    uint32_t next_mask;                 /* Next_BD field mask after shifting */
    uint32_t bdid_mask;                 /* Start_BD_ID field of the start/task queue */
    unsigned nlocks;
    uint32_t lock_base, lockreq_base;
    const cert_region *rg;
    unsigned nrg;
} cert_layout;

/* Shim (NoC module + uC module). The uC region sizes are inferred: each is taken to run up
 * to the next region aie-rt names (0x80000 program, 0x88000 private data = handshake,
 * 0xC0000 module registers, 0xD0000 module data memory = sDM). */
static const cert_region shim_rg[] = {
    {0x00000, 0x000FF, RG_LOCK, 0},
    {0x09000, 0x092FF, RG_BD, 0},
    {0x09300, 0x0931F, RG_CHAN, 0},
    {0x09320, 0x0932F, RG_STATUS, 0},
    {0x0C000, 0x0FFFF, RG_LOCKREQ, 0},
    {0x3F000, 0x3FFFF, RG_STORE, 0},    /* stream switch */
    {0x80000, 0x87FFF, RG_STORE, 1},    /* inferred size: uC program memory, 32 KiB */
    {0x88000, 0x8FFFF, RG_STORE, 2},    /* inferred size: uC private data (handshake), 32 KiB */
    {0xC0000, 0xC0FFF, RG_STORE, 3},    /* inferred size: uC module registers (wakeup), 4 KiB */
    {0xD0000, 0xDFFFF, RG_STORE, 4},    /* inferred size: uC shared data memory (sDM), 64 KiB */
};
static const cert_region mem_rg[] = {
    {0x00000, 0x7FFFF, RG_STORE, 0},    /* data memory, 512 KiB */
    {0xA0000, 0xA05FF, RG_BD, 0},
    {0xA0600, 0xA065F, RG_CHAN, 0},
    {0xA0660, 0xA0697, RG_STATUS, 0},
    {0xB0000, 0xB0FFF, RG_STORE, 1},    /* stream switch */
    {0xC0000, 0xC03FF, RG_LOCK, 0},
    {0xD0000, 0xDFFFF, RG_LOCKREQ, 0},
};
static const cert_region core_rg[] = {
    {0x00000, 0x0FFFF, RG_STORE, 0},    /* data memory, 64 KiB */
    {0x1D000, 0x1D1FF, RG_BD, 0},
    {0x1DE00, 0x1DE1F, RG_CHAN, 0},
    {0x1DF00, 0x1DF17, RG_STATUS, 0},
    {0x1F000, 0x1F0FF, RG_LOCK, 0},
    {0x20000, 0x23FFF, RG_STORE, 1},    /* program memory, 16 KiB */
    {0x38000, 0x3803F, RG_STORE, 2},    /* Core_Control .. Core_Processor_Bus */
    {0x3F000, 0x3FFFF, RG_STORE, 3},    /* stream switch */
    {0x40000, 0x43FFF, RG_LOCKREQ, 0},
};

#define NRG(x) (unsigned)(sizeof(x) / sizeof((x)[0]))
/* Shim BD: word0 length (32 bits), word7 Next_BD 30:27 / Use_Next_BD 26; queue BD id 3:0.
 * Memory-tile BD: word0 length 16:0, word1 Next_BD 25:20 / Use_Next_BD 19; BD id 5:0.
 * Core-tile BD: word0 length 13:0, word5 Next_BD 30:27 / Use_Next_BD 26; BD id 3:0. */
static const cert_layout layouts[3] = {
    [CERT_TK_SHIM] = {"shim", 2, 16, 9, 0x30, 0x9000, 0x9300, 0x9320, 0x9328,
                      0, 0xFFFFFFFFu, 7, 27, 26, 0xF, 0xF, 16, 0x0, 0xC000, shim_rg, NRG(shim_rg)},
    [CERT_TK_MEM] = {"memory", 6, 48, 8, 0x20, 0xA0000, 0xA0600, 0xA0660, 0xA0680,
                     0, 0x1FFFF, 1, 20, 19, 0x3F, 0x3F, 64, 0xC0000, 0xD0000, mem_rg, NRG(mem_rg)},
    [CERT_TK_CORE] = {"core", 2, 16, 6, 0x20, 0x1D000, 0x1DE00, 0x1DF00, 0x1DF10,
                      0, 0x3FFF, 5, 27, 26, 0xF, 0xF, 16, 0x1F000, 0x40000, core_rg, NRG(core_rg)},
};

typedef struct cert_task {
    uint8_t bd, repeat, token;
    uint64_t pushed;         /* cycle of the push: a task never starts before it */
} cert_task;

struct cert_tile;
typedef struct cert_chan {
    struct cert_tile *tile;
    uint32_t ctrl, queue_reg;  /* last values written */
    cert_task q[CERT_ARRAY_QUEUE_DEPTH];
    uint8_t head, count;     /* waiting tasks, the running one excluded */
    uint8_t running, overflow, dir, n;
    cert_task cur;
    uint64_t cur_words, done_at;
    uint32_t busy_slot;      /* index in cert_array.busy while running */
} cert_chan;

typedef struct cert_tile {
    const cert_layout *lay;
    uint32_t col, row;
    cert_chan ch[2 * CERT_MAX_CH];   /* S2MM 0..nch-1, then MM2S 0..nch-1 */
    uint32_t bd[CERT_MAX_BD * CERT_BD_WORDS_MAX];
    uint8_t lock[CERT_MAX_LOCKS];
    uint32_t *store[CERT_MAX_STORE]; /* allocated on first write */
} cert_tile;

struct cert_array {
    cert_array_cfg cfg;
    cert_tile **tiles;       /* columns * rows, allocated on first touch */
    cert_chan **busy;        /* running channels, unordered */
    uint32_t nbusy, busy_cap;
    cert_array_stats st;
};

static void say(char *msg, size_t n, const char *fmt, ...)
{
    if (!msg || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
}

cert_array *cert_array_new(const cert_array_cfg *cfg)
{
    /* The address has 7 column bits and 5 row bits; a shim row and at least the memory rows
     * must exist; a transfer rate of zero would never finish a task. */
    if (!cfg || cfg->columns == 0 || cfg->columns > 128 || cfg->rows == 0 || cfg->rows > 32 ||
        cfg->mem_rows >= cfg->rows || !(cfg->dma_words_per_cycle > 0) ||
        !isfinite(cfg->dma_words_per_cycle))
        return NULL;
    cert_array *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cfg = *cfg;
    size_t ntiles = (size_t)cfg->columns * cfg->rows;
    a->busy_cap = (uint32_t)(ntiles * 2 * CERT_MAX_CH);
    a->tiles = calloc(ntiles, sizeof *a->tiles);
    a->busy = calloc(a->busy_cap, sizeof *a->busy);
    if (!a->tiles || !a->busy) {
        cert_array_free(a);
        return NULL;
    }
    return a;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint64_t cert_array_hash(const cert_array *a)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const size_t ntiles = (size_t)a->cfg.columns * a->cfg.rows;
    for (size_t i = 0; i < ntiles; i++) {
        const cert_tile *t = a->tiles[i];
        if (!t)
            continue;
        h = fnv(h, &i, sizeof i);
        h = fnv(h, t->bd, sizeof t->bd);
        h = fnv(h, t->lock, sizeof t->lock);
        for (unsigned c = 0; c < 2 * CERT_MAX_CH; c++) {
            const cert_chan *ch = &t->ch[c];
            const uint32_t v[] = {ch->ctrl, ch->queue_reg, ch->count, ch->running, ch->overflow};
            h = fnv(h, v, sizeof v);
        }
        for (unsigned r = 0; r < t->lay->nrg; r++) {
            const cert_region *g = &t->lay->rg[r];
            if (g->kind == RG_STORE && t->store[g->slot])
                h = fnv(h, t->store[g->slot], (size_t)(g->hi - g->lo + 1));
        }
    }
    return h;
}

void cert_array_set_timing(cert_array *a, uint64_t dma_task_setup, double dma_words_per_cycle)
{
    a->cfg.dma_task_setup = dma_task_setup;
    if (dma_words_per_cycle > 0 && isfinite(dma_words_per_cycle))
        a->cfg.dma_words_per_cycle = dma_words_per_cycle;
}

void cert_array_free(cert_array *a)
{
    if (!a)
        return;
    if (a->tiles) {
        for (size_t i = 0; i < (size_t)a->cfg.columns * a->cfg.rows; i++) {
            cert_tile *t = a->tiles[i];
            if (!t)
                continue;
            for (int s = 0; s < CERT_MAX_STORE; s++)
                free(t->store[s]);
            free(t);
        }
    }
    free(a->tiles);
    free(a->busy);
    free(a);
}

static int tile_kind(const cert_array *a, uint32_t row)
{
    return row == 0 ? CERT_TK_SHIM : row <= a->cfg.mem_rows ? CERT_TK_MEM : CERT_TK_CORE;
}

static cert_tile *tile_get(cert_array *a, uint32_t col, uint32_t row)
{
    cert_tile **slot = &a->tiles[(size_t)col * a->cfg.rows + row];
    if (*slot)
        return *slot;
    cert_tile *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->lay = &layouts[tile_kind(a, row)];
    t->col = col;
    t->row = row;
    for (unsigned i = 0; i < 2 * CERT_MAX_CH; i++) {
        t->ch[i].tile = t;
        t->ch[i].dir = (uint8_t)(i < t->lay->nch ? CERT_S2MM : CERT_MM2S);
        t->ch[i].n = (uint8_t)(i < t->lay->nch ? i : i - t->lay->nch);
    }
    *slot = t;
    return t;
}

/* Split addr into a tile and an offset; CERT_AX_BAD for what no partition address can be. */
static int decode(cert_array *a, uint32_t addr, cert_tile **tp, uint32_t *off, char *msg, size_t n)
{
    uint32_t col = addr >> 25, row = (addr >> 20) & 0x1F;
    if (addr & 3) {
        say(msg, n, "unaligned address 0x%08X", addr);
        return CERT_AX_BAD;
    }
    if (col >= a->cfg.columns) {
        say(msg, n, "address 0x%08X: column %u outside the %u-column partition", addr, col,
            a->cfg.columns);
        return CERT_AX_BAD;
    }
    if (row >= a->cfg.rows) {
        say(msg, n, "address 0x%08X: row %u beyond the %u rows of a column", addr, row,
            a->cfg.rows);
        return CERT_AX_BAD;
    }
    *tp = tile_get(a, col, row);
    if (!*tp) {
        say(msg, n, "out of memory modelling TILE_%u_%u", col, row);
        return CERT_AX_BAD;
    }
    *off = addr & 0xFFFFF;
    return CERT_AX_OK;
}

static const cert_region *region_of(const cert_layout *l, uint32_t off)
{
    for (unsigned i = 0; i < l->nrg; i++)
        if (off >= l->rg[i].lo && off <= l->rg[i].hi)
            return &l->rg[i];
    return NULL;
}

static int unmodelled(cert_array *a, const cert_tile *t, uint32_t off, int write, char *msg, size_t n)
{
    if (write) {
        a->st.unmodelled_writes++;
        say(msg, n, "write to unmodelled register TILE_%u_%u+0x%05X", t->col, t->row, off);
    } else {
        a->st.unmodelled_reads++;
        say(msg, n, "read of unmodelled register TILE_%u_%u+0x%05X", t->col, t->row, off);
    }
    return CERT_AX_UNMODELLED;
}

/* The channel a CTRL/queue offset or a status offset names, or NULL. */
static cert_chan *chan_at(cert_tile *t, uint32_t off, int status)
{
    const cert_layout *l = t->lay;
    if (!status) {
        uint32_t idx = (off - l->chan_base) / 8;
        return idx < 2 * l->nch ? &t->ch[idx] : NULL;
    }
    if (off >= l->s2mm_status && off < l->s2mm_status + 4 * l->nch)
        return &t->ch[(off - l->s2mm_status) / 4];
    if (off >= l->mm2s_status && off < l->mm2s_status + 4 * l->nch)
        return &t->ch[l->nch + (off - l->mm2s_status) / 4];
    return NULL;
}

static void chan_name(const cert_chan *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%u", c->dir == CERT_S2MM ? "S2MM" : "MM2S", c->n);
}

/* Tie-break key among completions at the same cycle: column, row, channel index, then
 * direction (S2MM before MM2S). */
static uint64_t chan_key(const cert_chan *c)
{
    return ((((uint64_t)c->tile->col * 32 + c->tile->row) * CERT_MAX_CH + c->n) << 1) | c->dir;
}

/* Words one pass of the BD chain from start moves; *cyclic when the chain comes back to a
 * BD it already used, which keeps the channel busy for ever, as on hardware.
 * inferred: a Next_BD naming a BD the tile does not have ends the chain; Valid_BD is not
 * checked (every BD in a chain counts). */
static uint64_t chain_words(const cert_tile *t, unsigned id, int *cyclic)
{
    const cert_layout *l = t->lay;
    uint64_t seen = 0, words = 0;
    *cyclic = 0;
    while (id < l->nbd) {
        if (seen & (1ull << id)) {
            *cyclic = 1;
            break;
        }
        seen |= 1ull << id;
        const uint32_t *w = &t->bd[id * CERT_BD_WORDS_MAX];
        words += w[l->len_word] & l->len_mask;
        if (!((w[l->next_word] >> l->use_next_bit) & 1))
            break;
        id = (w[l->next_word] >> l->next_lsb) & l->next_mask;
    }
    return words;
}

/* ceil(words / rate) in whole cycles, exact at integer boundaries despite floating point. */
static uint64_t xfer_cycles(uint64_t words, double rate)
{
    if (words == 0)
        return 0;
    double q = (double)words / rate;
    if (!(q < 1.8e19))
        return UINT64_MAX;
    uint64_t c = (uint64_t)ceil(q);
    while (c > 0 && (double)(c - 1) * rate >= (double)words)
        c--;
    while ((double)c * rate < (double)words)
        c++;
    return c;
}

static uint64_t sat_add(uint64_t x, uint64_t y)
{
    return x > UINT64_MAX - y ? UINT64_MAX : x + y;
}

/* The task reaches the head of its channel at cycle at: the BD chain is read now (a BD
 * rewritten while the task waits in the queue counts with its new value). */
static void chan_start(cert_array *a, cert_chan *c, cert_task k, uint64_t at)
{
    int cyclic;
    uint64_t per_pass = chain_words(c->tile, k.bd, &cyclic);
    c->cur = k;
    c->cur_words = per_pass * ((uint64_t)k.repeat + 1);
    c->done_at = cyclic ? UINT64_MAX
                        : sat_add(sat_add(at, a->cfg.dma_task_setup),
                                  xfer_cycles(c->cur_words, a->cfg.dma_words_per_cycle));
    if (!c->running) {
        c->running = 1;
        c->busy_slot = a->nbusy;
        a->busy[a->nbusy++] = c;
    }
}

static int chan_push(cert_array *a, cert_chan *c, uint64_t now, uint32_t v, char *msg, size_t n)
{
    const cert_layout *l = c->tile->lay;
    char cn[16];
    c->queue_reg = v;
    cert_task k = {(uint8_t)(v & l->bdid_mask), (uint8_t)((v >> 16) & 0xFF), (uint8_t)(v >> 31), now};
    if (k.bd >= l->nbd) {
        /* inferred: the hardware's response (Error_BD_Invalid?) is unknown; nothing starts */
        chan_name(c, cn, sizeof cn);
        say(msg, n, "push of BD %u to TILE_%u_%u %s: a %s tile has %u BDs; not queued", k.bd,
            c->tile->col, c->tile->row, cn, l->name, l->nbd);
        return CERT_AX_UNMODELLED;
    }
    if (!c->running) {
        a->st.tasks_pushed++;
        chan_start(a, c, k, now);
        return CERT_AX_OK;
    }
    if (c->count == CERT_ARRAY_QUEUE_DEPTH) {
        /* inferred: Task_Queue_Overflow (status bit 18) stays set (nothing here clears it) */
        c->overflow = 1;
        a->st.tasks_dropped++;
        chan_name(c, cn, sizeof cn);
        say(msg, n, "push to full task queue of TILE_%u_%u %s: dropped", c->tile->col,
            c->tile->row, cn);
        return CERT_AX_DROPPED;
    }
    c->q[(c->head + c->count) % CERT_ARRAY_QUEUE_DEPTH] = k;
    c->count++;
    a->st.tasks_pushed++;
    return CERT_AX_OK;
}

/* DMA_{S2MM,MM2S}_Status: Task_Queue_Size 22:20 (waiting tasks), Channel_Running 19,
 * Task_Queue_Overflow 18, Status 1:0. The stall bits 5:2 are never set (no locks or streams
 * stall a modelled task). MASK_POLL_32 with mask 0x78003C == 0 (aie-rt's wait-for-done mask:
 * queue size | running | stalls) therefore reads "done" exactly when the channel is idle
 * with an empty queue: Status 1:0 is outside that mask, so its encoding cannot fool it.
 * inferred: Status 1:0 = 2 ("running") while a task runs, 0 when idle; Cur_BD not modelled. */
static uint32_t chan_status(const cert_chan *c)
{
    return (uint32_t)c->count << 20 | (c->running ? (1u << 19) | 2u : 0u) |
           (c->overflow ? 1u << 18 : 0u);
}

/* Lock request: offset bits within the request window = id * 0x400 | acquire 0x200 |
 * (value & 0x7F) << 2 (aie-rt's AIE-ML lock module: LockIdOff 0x400, RelAcqOff 0x200,
 * value shift 2; requests are reads whose bit 0 is the result). inferred semantics (AIE-ML
 * semaphore locks, 6-bit values 0..63, 7-bit signed change): release adds the value and
 * fails if the result leaves 0..63; acquire with a value v >= 0 succeeds iff the lock equals
 * v and leaves it unchanged (acquire-equal); with v < 0 it succeeds iff the lock is >= -v and
 * then subtracts -v (acquire-greater-equal). A failed request changes nothing. The pair
 * REL_ACQ_SYNC uses (release +/-1, acquire 0 or the number of uCs) is a barrier under these
 * rules. */
static uint32_t lock_request(cert_tile *t, uint32_t off)
{
    const cert_layout *l = t->lay;
    uint32_t rel = off - l->lockreq_base;
    unsigned id = rel >> 10;
    int acquire = (rel >> 9) & 1;
    int v = (int)((rel >> 2) & 0x7F);
    if (v & 0x40)
        v -= 0x80;
    int cur = t->lock[id];
    if (!acquire) {
        if (cur + v < 0 || cur + v > CERT_LOCK_MAX)
            return 0;
        t->lock[id] = (uint8_t)(cur + v);
        return 1;
    }
    if (v >= 0)
        return cur == v;
    if (cur < -v)
        return 0;
    t->lock[id] = (uint8_t)(cur + v);
    return 1;
}

static int store_write(cert_tile *t, const cert_region *r, uint32_t off, uint32_t v,
                       char *msg, size_t n)
{
    uint32_t **s = &t->store[r->slot];
    if (!*s) {
        if (v == 0)     /* an unwritten memory reads as zero: no need to allocate yet */
            return CERT_AX_OK;
        *s = calloc((r->hi - r->lo + 1) / 4, sizeof **s);
        if (!*s) {
            say(msg, n, "out of memory modelling TILE_%u_%u+0x%05X", t->col, t->row, r->lo);
            return CERT_AX_BAD;
        }
    }
    (*s)[(off - r->lo) / 4] = v;
    return CERT_AX_OK;
}

/* An access to an array whose register map is not public (reference Risks 4). */
static int opaque(const cert_array *a, char *msg, size_t n)
{
    say(msg, n, "the %s array's register map is not public", cert_target_name(a->cfg.target));
    return CERT_AX_OPAQUE;
}

int cert_array_write(cert_array *a, uint64_t now, uint32_t addr, uint32_t value, char *msg, size_t n)
{
    cert_tile *t;
    uint32_t off;
    if (a->cfg.opaque)
        return opaque(a, msg, n);
    int rc = decode(a, addr, &t, &off, msg, n);
    if (rc != CERT_AX_OK)
        return rc;
    const cert_layout *l = t->lay;
    const cert_region *r = region_of(l, off);
    if (!r)
        return unmodelled(a, t, off, 1, msg, n);
    switch (r->kind) {
    case RG_STORE:
        return store_write(t, r, off, value, msg, n);
    case RG_BD: {
        uint32_t id = (off - l->bd_base) / l->bd_stride, w = (off - l->bd_base) % l->bd_stride / 4;
        if (id >= l->nbd || w >= l->bd_words)
            return unmodelled(a, t, off, 1, msg, n);
        t->bd[id * CERT_BD_WORDS_MAX + w] = value;
        return CERT_AX_OK;
    }
    case RG_CHAN: {
        cert_chan *c = chan_at(t, off, 0);
        if (off & 4)
            return chan_push(a, c, now, value, msg, n);
        /* inferred: CTRL is stored only (Controller_ID is read at completion); its reset and
         * pause bits do not act on the queue */
        c->ctrl = value;
        return CERT_AX_OK;
    }
    case RG_LOCK: {
        uint32_t id = (off - l->lock_base) / 16;
        if ((off & 0xF) || id >= l->nlocks)
            return unmodelled(a, t, off, 1, msg, n);
        t->lock[id] = (uint8_t)(value & CERT_LOCK_MAX);
        return CERT_AX_OK;
    }
    default:
        /* status registers are read-only; lock requests are made by reading */
        return unmodelled(a, t, off, 1, msg, n);
    }
}

int cert_array_read(cert_array *a, uint64_t now, uint32_t addr, uint32_t *value, char *msg, size_t n)
{
    (void)now;
    cert_tile *t;
    uint32_t off;
    *value = 0;
    if (a->cfg.opaque)
        return opaque(a, msg, n);
    int rc = decode(a, addr, &t, &off, msg, n);
    if (rc != CERT_AX_OK)
        return rc;
    const cert_layout *l = t->lay;
    const cert_region *r = region_of(l, off);
    if (!r)
        return unmodelled(a, t, off, 0, msg, n);
    switch (r->kind) {
    case RG_STORE:
        *value = t->store[r->slot] ? t->store[r->slot][(off - r->lo) / 4] : 0;
        return CERT_AX_OK;
    case RG_BD: {
        uint32_t id = (off - l->bd_base) / l->bd_stride, w = (off - l->bd_base) % l->bd_stride / 4;
        if (id >= l->nbd || w >= l->bd_words)
            return unmodelled(a, t, off, 0, msg, n);
        *value = t->bd[id * CERT_BD_WORDS_MAX + w];
        return CERT_AX_OK;
    }
    case RG_CHAN: {
        const cert_chan *c = chan_at(t, off, 0);
        /* inferred: the start queue reads back the last value pushed (pops nothing) */
        *value = (off & 4) ? c->queue_reg : c->ctrl;
        return CERT_AX_OK;
    }
    case RG_STATUS: {
        const cert_chan *c = chan_at(t, off, 1);
        if (!c)
            return unmodelled(a, t, off, 0, msg, n);
        *value = chan_status(c);
        return CERT_AX_OK;
    }
    case RG_LOCK: {
        uint32_t id = (off - l->lock_base) / 16;
        if ((off & 0xF) || id >= l->nlocks)
            return unmodelled(a, t, off, 0, msg, n);
        *value = t->lock[id];
        return CERT_AX_OK;
    }
    case RG_LOCKREQ:
        if (((off - l->lockreq_base) >> 10) >= l->nlocks)
            return unmodelled(a, t, off, 0, msg, n);
        *value = lock_request(t, off);
        return CERT_AX_OK;
    default:
        return unmodelled(a, t, off, 0, msg, n);
    }
}

int cert_array_explain(const cert_array *a, uint32_t addr, char *buf, size_t n)
{
    uint32_t col = addr >> 25, row = (addr >> 20) & 0x1F, off = addr & 0xFFFFF;
    if ((addr & 3) || col >= a->cfg.columns || row >= a->cfg.rows)
        return 0;
    const cert_layout *l = &layouts[tile_kind(a, row)];
    const cert_tile *t = a->tiles[(size_t)col * a->cfg.rows + row]; /* NULL: never touched */
    const cert_region *r = region_of(l, off);
    if (!r) {
        snprintf(buf, n, "TILE_%u_%u+0x%05X is not modelled: reads give 0", col, row, off);
        return 1;
    }
    if (r->kind == RG_LOCKREQ && ((off - l->lockreq_base) >> 10) < l->nlocks) {
        uint32_t rel = off - l->lockreq_base;
        int v = (int)((rel >> 2) & 0x7F);
        if (v & 0x40)
            v -= 0x80;
        unsigned id = rel >> 10;
        snprintf(buf, n, "%s request of TILE_%u_%u lock %u (%+d), lock value %u%s", (rel >> 9) & 1 ? "an acquire" : "a release",
                 col, row, id, v, t ? t->lock[id] : 0u,
                 row > a->cfg.mem_rows ? "; only the core's program (not modelled) uses core-tile locks" : "");
        return 1;
    }
    if (r->kind == RG_STATUS && t) {
        const cert_chan *c = chan_at((cert_tile *)t, off, 1);
        if (c) {
            snprintf(buf, n, "the status of TILE_%u_%u %s_%u: %s, %u queued", col, row,
                     c->dir == CERT_S2MM ? "S2MM" : "MM2S", c->n, c->running ? "running" : "idle", c->count);
            return 1;
        }
    }
    return 0;
}

uint64_t cert_array_next_event(const cert_array *a)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t i = 0; i < a->nbusy; i++)
        if (a->busy[i]->done_at < best)
            best = a->busy[i]->done_at;
    return best;
}

/* Retire c's running task (at c->done_at), start the next waiting one, return the token. */
static int chan_complete(cert_array *a, cert_chan *c, cert_token *tok)
{
    uint64_t at = c->done_at;
    cert_task k = c->cur;
    a->st.tasks_done++;
    a->st.words_moved += c->cur_words;
    tok->col = c->tile->col;
    tok->row = c->tile->row;
    tok->actor = c->dir == CERT_S2MM ? c->n : 6u + c->n;
    tok->controller = (c->ctrl >> 8) & 0xFF;
    tok->cycle = at;
    if (c->count) {
        cert_task nx = c->q[c->head];
        c->head = (uint8_t)((c->head + 1) % CERT_ARRAY_QUEUE_DEPTH);
        c->count--;
        chan_start(a, c, nx, nx.pushed > at ? nx.pushed : at);
    } else {
        c->running = 0;
        cert_chan *last = a->busy[--a->nbusy];
        a->busy[c->busy_slot] = last;
        last->busy_slot = c->busy_slot;
    }
    return k.token;
}

int cert_array_advance(cert_array *a, uint64_t now, void (*emit)(void *ctx, const cert_token *t), void *ctx)
{
    int done = 0;
    for (;;) {
        cert_chan *best = NULL;
        for (uint32_t i = 0; i < a->nbusy; i++) {
            cert_chan *c = a->busy[i];
            if (c->done_at > now)
                continue;
            if (!best || c->done_at < best->done_at ||
                (c->done_at == best->done_at && chan_key(c) < chan_key(best)))
                best = c;
        }
        if (!best)
            return done;
        cert_token tok;
        int token = chan_complete(a, best, &tok);
        done++;
        if (token) {
            a->st.tokens++;
            /* after the state update, so emit may look at the array */
            if (emit)
                emit(ctx, &tok);
        }
    }
}

static void put(char *buf, size_t n, size_t *pos, const char *fmt, ...)
{
    if (*pos + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *pos, n - *pos, fmt, ap);
    va_end(ap);
    if (k > 0)
        *pos = *pos + (size_t)k < n ? *pos + (size_t)k : n - 1;
}

void cert_array_describe(const cert_array *a, char *buf, size_t n)
{
    size_t pos = 0;
    if (!buf || !n)
        return;
    buf[0] = 0;
    for (size_t i = 0; i < (size_t)a->cfg.columns * a->cfg.rows; i++) {
        const cert_tile *t = a->tiles[i];
        if (!t)
            continue;
        for (unsigned j = 0; j < 2 * t->lay->nch; j++) {
            const cert_chan *c = &t->ch[j];
            if (!c->running && !c->count && !c->overflow)
                continue;
            char cn[16];
            chan_name(c, cn, sizeof cn);
            put(buf, n, &pos, "TILE_%u_%u %s:", t->col, t->row, cn);
            if (c->running) {
                put(buf, n, &pos, " running bd %u x%u%s (%llu words)", c->cur.bd,
                    c->cur.repeat + 1u, c->cur.token ? " tct" : "", (unsigned long long)c->cur_words);
                if (c->done_at == UINT64_MAX)
                    put(buf, n, &pos, " never ends (cyclic BD chain)");
                else
                    put(buf, n, &pos, " until %llu", (unsigned long long)c->done_at);
            } else {
                put(buf, n, &pos, " idle");
            }
            put(buf, n, &pos, "; %u queued", c->count);
            for (unsigned q = 0; q < c->count; q++) {
                const cert_task *k = &c->q[(c->head + q) % CERT_ARRAY_QUEUE_DEPTH];
                put(buf, n, &pos, "%s bd %u x%u%s", q ? "," : ":", k->bd, k->repeat + 1u,
                    k->token ? " tct" : "");
            }
            if (c->overflow)
                put(buf, n, &pos, "; a push was dropped");
            put(buf, n, &pos, "\n");
        }
        for (unsigned j = 0; j < t->lay->nlocks; j++)
            if (t->lock[j])
                put(buf, n, &pos, "TILE_%u_%u lock %u = %u\n", t->col, t->row, j, t->lock[j]);
    }
}

void cert_array_get_stats(const cert_array *a, cert_array_stats *s)
{
    *s = a->st;
}
