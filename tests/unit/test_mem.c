/* tests/unit/test_mem.c: address spaces (core/mem.c): regions, permission and bounds
 * faults with fault_addr, accesses at region ends (which must fault, never touch host
 * memory past the buffer: regions here are exactly sized heap buffers so ASan sees any
 * overrun), byte order, word-addressed spaces, MMIO callbacks, host accesses across
 * adjacent regions, watchpoints and overlap refusal. */
#include "../testlib.h"
#include "../../core/mem.h"

static void test_regions_and_lookup(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "ram", 1, 4, 0);
    mem_region *a = mem_add_ram(&s, "a", 0x1000, 0x100, MEM_RWX);
    mem_region *b = mem_add_ram(&s, "b", 0x1100, 0x10, MEM_R);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(s.name, "ram");
    /* first and last address of each, and the gaps around them */
    assert_ptr_equal(mem_find(&s, 0x1000), &s.regions[0]);
    assert_ptr_equal(mem_find(&s, 0x10ff), &s.regions[0]);
    assert_ptr_equal(mem_find(&s, 0x1100), &s.regions[1]);
    assert_ptr_equal(mem_find(&s, 0x110f), &s.regions[1]);
    assert_null(mem_find(&s, 0x0fff));
    assert_null(mem_find(&s, 0x1110));
    assert_null(mem_find(&s, 0));
    assert_null(mem_find(&s, UINT64_MAX));
    /* RAM starts zeroed */
    uint64_t v = 1;
    assert_int_equal(mem_read(&s, 0x1080, 8, &v), MEM_OK);
    assert_int_equal(v, 0);
    mem_space_free(&s);
}

static void test_overlap_refused(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "x", 1, 4, 0);
    assert_non_null(mem_add_ram(&s, "a", 0x1000, 0x1000, MEM_RW));     /* [0x1000, 0x2000) */
    assert_null(mem_add_ram(&s, "over-end", 0x1800, 0x1000, MEM_RW));  /* overlaps the end */
    assert_null(mem_add_ram(&s, "over-start", 0x800, 0x801, MEM_RW));  /* one unit into it */
    assert_null(mem_add_ram(&s, "inside", 0x1100, 0x10, MEM_RW));
    assert_null(mem_add_ram(&s, "around", 0, 0x10000, MEM_RW));
    assert_null(mem_add_mmio(&s, "mmio", 0x1ffc, 4, MEM_RW, NULL, NULL, NULL));
    uint8_t ext[16];
    assert_null(mem_add_ram_ext(&s, "ext", 0x1ff8, 16, MEM_RW, ext));
    assert_int_equal(s.nregions, 1);
    /* touching neighbours are fine */
    assert_non_null(mem_add_ram(&s, "below", 0x800, 0x800, MEM_RW));   /* ends at 0x1000 */
    assert_non_null(mem_add_ram(&s, "above", 0x2000, 0x10, MEM_RW));
    assert_int_equal(s.nregions, 3);
    /* empty and wrapping regions are refused */
    assert_null(mem_add_ram(&s, "empty", 0x5000, 0, MEM_RW));
    assert_null(mem_add_mmio(&s, "wrap", UINT64_MAX - 3, 16, MEM_RW, NULL, NULL, NULL));
    assert_int_equal(s.nregions, 3);
    mem_space_free(&s);
}

static void test_faults(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "f", 1, 4, 0);
    mem_add_ram(&s, "rom", 0x0, 0x100, MEM_R | MEM_X);
    mem_add_ram(&s, "data", 0x1000, 0x100, MEM_RW);
    mem_add_ram(&s, "xonly", 0x3000, 0x10, MEM_X);
    uint64_t v;
    s.fault_addr = 0;
    assert_int_equal(mem_read(&s, 0x2000, 4, &v), MEM_FAULT_UNMAPPED);
    assert_int_equal(s.fault_addr, 0x2000);
    assert_int_equal(mem_write(&s, 0x10, 4, 5), MEM_FAULT_READONLY);
    assert_int_equal(s.fault_addr, 0x10);
    assert_int_equal(mem_fetch(&s, 0x1010, 4, &v), MEM_FAULT_NOEXEC);
    assert_int_equal(s.fault_addr, 0x1010);
    assert_int_equal(mem_fetch(&s, 0x20, 4, &v), MEM_OK);
    assert_int_equal(mem_fetch(&s, 0x3000, 4, &v), MEM_OK);
    /* execute-only memory cannot be read as data */
    assert_int_not_equal(mem_read(&s, 0x3000, 4, &v), MEM_OK);
    assert_int_equal(s.fault_addr, 0x3000);
    assert_int_equal(mem_write(&s, 0x3000, 4, 1), MEM_FAULT_READONLY);
    /* bad sizes */
    assert_int_equal(mem_read(&s, 0x1000, 0, &v), MEM_FAULT_SIZE);
    assert_int_equal(mem_read(&s, 0x1004, 9, &v), MEM_FAULT_SIZE);
    assert_int_equal(s.fault_addr, 0x1004);
    assert_int_equal(mem_write(&s, 0x1000, 16, 1), MEM_FAULT_SIZE);
    /* a faulting write changes nothing */
    assert_int_equal(mem_read(&s, 0x10, 4, &v), MEM_OK);
    assert_int_equal(v, 0);
    /* the host may write ROM (loaders do) */
    uint8_t four[4] = {1, 2, 3, 4};
    assert_int_equal(mem_host_write(&s, 0x10, four, 4), MEM_OK);
    assert_int_equal(mem_read(&s, 0x10, 4, &v), MEM_OK);
    assert_int_equal(v, 0x04030201);
    /* the fault strings are distinct and readable */
    assert_string_not_equal(mem_fault_str(MEM_FAULT_UNMAPPED), mem_fault_str(MEM_FAULT_READONLY));
    assert_non_null(strstr(mem_fault_str(MEM_FAULT_READONLY), "read-only"));
    mem_space_free(&s);
}

static void test_region_end_bounds(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "b", 1, 4, 0);
    /* caller-owned buffer of exactly 16 bytes: ASan flags any read past it */
    uint8_t *buf = malloc(16);
    for (int i = 0; i < 16; i++)
        buf[i] = (uint8_t)(0xa0 + i);
    assert_non_null(mem_add_ram_ext(&s, "r", 0x100, 16, MEM_RWX, buf));
    uint64_t v = 0;
    /* the last 1/2/4/8 bytes fit exactly */
    assert_int_equal(mem_read(&s, 0x10f, 1, &v), MEM_OK);
    assert_int_equal(v, 0xaf);
    assert_int_equal(mem_read(&s, 0x10e, 2, &v), MEM_OK);
    assert_int_equal(v, 0xafae);
    assert_int_equal(mem_read(&s, 0x10c, 4, &v), MEM_OK);
    assert_int_equal(v, 0xafaeadac);
    assert_int_equal(mem_read(&s, 0x108, 8, &v), MEM_OK);
    assert_int_equal(v, 0xafaeadacabaaa9a8ull);
    /* every access straddling the end faults, for reads, writes and fetches */
    for (unsigned n = 2; n <= 8; n *= 2)
        for (unsigned back = 1; back < n; back++) {
            uint64_t a = 0x110 - back;
            s.fault_addr = 0;
            assert_int_equal(mem_read(&s, a, n, &v), MEM_FAULT_UNMAPPED);
            assert_int_equal(s.fault_addr, a);
            assert_int_equal(mem_write(&s, a, n, 0), MEM_FAULT_UNMAPPED);
            assert_int_equal(mem_fetch(&s, a, n, &v), MEM_FAULT_UNMAPPED);
            assert_null(mem_ptr(&s, a, n));
        }
    assert_int_equal(buf[15], 0xaf); /* faulting writes wrote nothing */
    /* the fast path pointer: inside, exactly to the end, not past it */
    assert_ptr_equal(mem_ptr(&s, 0x100, 16), buf);
    assert_ptr_equal(mem_ptr(&s, 0x10f, 1), buf + 15);
    assert_null(mem_ptr(&s, 0x100, 17));
    assert_null(mem_ptr(&s, 0x110, 1));
    /* host reads past the end fail too */
    uint8_t out[32];
    assert_int_not_equal(mem_host_read(&s, 0x108, out, 9), MEM_OK);
    assert_int_equal(mem_host_read(&s, 0x108, out, 8), MEM_OK);
    assert_int_not_equal(mem_host_write(&s, 0x10f, out, 2), MEM_OK);
    mem_space_free(&s);
    free(buf);
}

static void test_word_space_bounds(void **state)
{
    (void)state;
    mem_space s;
    /* 4-byte addressing unit: 16 words at word addresses 0x100..0x10f = 64 bytes */
    mem_space_init(&s, "w", 4, 4, 0);
    assert_non_null(mem_add_ram(&s, "r", 0x100, 16, MEM_RW));
    uint64_t v;
    assert_int_equal(mem_write(&s, 0x10f, 4, 0x11223344), MEM_OK);   /* last word */
    assert_int_equal(mem_read(&s, 0x10f, 4, &v), MEM_OK);
    assert_int_equal(v, 0x11223344);
    assert_int_equal(mem_write(&s, 0x10e, 8, 0x8877665544332211ull), MEM_OK); /* last two */
    assert_int_equal(mem_read(&s, 0x10f, 4, &v), MEM_OK);
    assert_int_equal(v, 0x88776655); /* LE: the upper half lands in the next word */
    assert_int_equal(mem_read(&s, 0x10e, 4, &v), MEM_OK);
    assert_int_equal(v, 0x44332211);
    assert_int_equal(mem_read(&s, 0x10f, 8, &v), MEM_FAULT_UNMAPPED); /* 4 bytes past the end */
    assert_int_equal(s.fault_addr, 0x10f);
    assert_int_equal(mem_read(&s, 0x110, 4, &v), MEM_FAULT_UNMAPPED);
    assert_int_equal(mem_read(&s, 0x40, 4, &v), MEM_FAULT_UNMAPPED); /* byte address of region */
    /* word 0x101 is bytes 4..7 of the buffer */
    assert_int_equal(mem_write(&s, 0x101, 4, 0xdeadbeef), MEM_OK);
    uint8_t b[8];
    assert_int_equal(mem_host_read(&s, 0x100, b, 8), MEM_OK);
    assert_int_equal(b[4], 0xef);
    assert_int_equal(b[7], 0xde);
    assert_ptr_equal(mem_ptr(&s, 0x101, 4), s.regions[0].data + 4);
    assert_null(mem_ptr(&s, 0x10f, 5));
    mem_space_free(&s);
}

static void test_byte_order(void **state)
{
    (void)state;
    mem_space le, be;
    mem_space_init(&le, "le", 1, 4, 0);
    mem_space_init(&be, "be", 1, 4, 1);
    mem_add_ram(&le, "r", 0, 16, MEM_RW);
    mem_add_ram(&be, "r", 0, 16, MEM_RW);
    const uint8_t bytes[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    mem_host_write(&le, 0, bytes, 8);
    mem_host_write(&be, 0, bytes, 8);
    uint64_t v;
    mem_read(&le, 0, 2, &v);
    assert_int_equal(v, 0x2301);
    mem_read(&be, 0, 2, &v);
    assert_int_equal(v, 0x0123);
    mem_read(&le, 0, 4, &v);
    assert_int_equal(v, 0x67452301);
    mem_read(&be, 0, 4, &v);
    assert_int_equal(v, 0x01234567);
    mem_read(&le, 0, 8, &v);
    assert_int_equal(v, 0xefcdab8967452301ull);
    mem_read(&be, 0, 8, &v);
    assert_int_equal(v, 0x0123456789abcdefull);
    mem_read(&be, 1, 1, &v);
    assert_int_equal(v, 0x23);
    /* writes: only the low nbytes of the value, in the space's order */
    mem_write(&be, 8, 4, 0xffffffffa1b2c3d4ull);
    mem_write(&le, 8, 4, 0xffffffffa1b2c3d4ull);
    uint8_t o[8];
    mem_host_read(&be, 8, o, 8);
    assert_memory_equal(o, ((uint8_t[]){0xa1, 0xb2, 0xc3, 0xd4, 0, 0, 0, 0}), 8);
    mem_host_read(&le, 8, o, 8);
    assert_memory_equal(o, ((uint8_t[]){0xd4, 0xc3, 0xb2, 0xa1, 0, 0, 0, 0}), 8);
    mem_write(&be, 8, 2, 0xbeef);
    mem_host_read(&be, 8, o, 2);
    assert_memory_equal(o, ((uint8_t[]){0xbe, 0xef}), 2);
    /* the inline helpers agree */
    uint8_t p[8];
    mem_st32be(p, 0x01020304);
    assert_memory_equal(p, ((uint8_t[]){1, 2, 3, 4}), 4);
    assert_int_equal(mem_ld32be(p), 0x01020304);
    assert_int_equal(mem_ld32le(p), 0x04030201);
    mem_st16be(p, 0xa1b2);
    assert_int_equal(mem_ld16be(p), 0xa1b2);
    assert_int_equal(mem_ld16le(p), 0xb2a1);
    mem_st16le(p, 0xa1b2);
    assert_int_equal(p[0], 0xb2);
    mem_st64le(p, 0x0102030405060708ull);
    assert_int_equal(p[0], 8);
    assert_int_equal(mem_ld64le(p), 0x0102030405060708ull);
    mem_space_free(&le);
    mem_space_free(&be);
}

/* ---- MMIO ---- */
typedef struct dev {
    uint64_t last_off, last_val;
    unsigned last_n;
    int reads, writes;
    int fail;
} dev;

static int dev_rd(void *ctx, uint64_t off, unsigned n, uint64_t *val)
{
    dev *d = ctx;
    d->reads++;
    d->last_off = off;
    d->last_n = n;
    if (d->fail)
        return MEM_FAULT_DEVICE;
    *val = 0x1000 + off;
    return 0;
}

static int dev_wr(void *ctx, uint64_t off, unsigned n, uint64_t val)
{
    dev *d = ctx;
    d->writes++;
    d->last_off = off;
    d->last_n = n;
    d->last_val = val;
    return d->fail ? MEM_FAULT_DEVICE : 0;
}

static void test_mmio(void **state)
{
    (void)state;
    mem_space s;
    dev d = {0};
    mem_space_init(&s, "io", 1, 4, 0);
    assert_non_null(mem_add_mmio(&s, "dev", 0x8000, 0x100, MEM_RW, dev_rd, dev_wr, &d));
    assert_non_null(mem_add_mmio(&s, "wo", 0x9000, 0x10, MEM_RW, NULL, dev_wr, &d));
    uint64_t v = 0;
    /* the callback gets the byte offset in the region and the size */
    assert_int_equal(mem_read(&s, 0x8010, 4, &v), MEM_OK);
    assert_int_equal(v, 0x1010);
    assert_int_equal(d.last_off, 0x10);
    assert_int_equal(d.last_n, 4);
    assert_int_equal(mem_write(&s, 0x80fe, 2, 0xabcd), MEM_OK);
    assert_int_equal(d.last_off, 0xfe);
    assert_int_equal(d.last_n, 2);
    assert_int_equal(d.last_val, 0xabcd);
    /* past the end of the device: faults before the callback */
    int before = d.reads;
    assert_int_equal(mem_read(&s, 0x80fe, 4, &v), MEM_FAULT_UNMAPPED);
    assert_int_equal(d.reads, before);
    /* device errors propagate with fault_addr */
    d.fail = 1;
    assert_int_equal(mem_read(&s, 0x8020, 4, &v), MEM_FAULT_DEVICE);
    assert_int_equal(s.fault_addr, 0x8020);
    assert_int_equal(mem_write(&s, 0x8024, 4, 1), MEM_FAULT_DEVICE);
    assert_int_equal(s.fault_addr, 0x8024);
    d.fail = 0;
    /* a device without a read callback cannot be read */
    assert_int_not_equal(mem_read(&s, 0x9000, 4, &v), MEM_OK);
    assert_int_equal(mem_write(&s, 0x9000, 4, 7), MEM_OK);
    /* host accesses never trigger device side effects */
    int r = d.reads, w = d.writes;
    uint8_t buf[4] = {0};
    assert_int_not_equal(mem_host_read(&s, 0x8000, buf, 4), MEM_OK);
    assert_int_not_equal(mem_host_write(&s, 0x8000, buf, 4), MEM_OK);
    assert_int_equal(d.reads, r);
    assert_int_equal(d.writes, w);
    assert_null(mem_ptr(&s, 0x8000, 4));
    mem_space_free(&s);
}

static void test_host_access_across_regions(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "h", 1, 4, 0);
    /* three adjacent regions with different permissions: host access ignores permissions */
    mem_add_ram(&s, "a", 0x100, 0x10, MEM_R);
    mem_add_ram(&s, "b", 0x110, 0x08, MEM_RW);
    mem_add_ram(&s, "c", 0x118, 0x20, MEM_X);
    uint8_t in[0x38], out[0x38];
    for (int i = 0; i < 0x38; i++)
        in[i] = (uint8_t)(i * 7 + 1);
    assert_int_equal(mem_host_write(&s, 0x100, in, sizeof in), MEM_OK);
    memset(out, 0, sizeof out);
    assert_int_equal(mem_host_read(&s, 0x100, out, sizeof out), MEM_OK);
    assert_memory_equal(in, out, sizeof in);
    /* a program access straddling two regions faults (regions are not merged) */
    uint64_t v;
    assert_int_equal(mem_read(&s, 0x10e, 4, &v), MEM_FAULT_UNMAPPED);
    assert_int_equal(mem_read(&s, 0x110, 4, &v), MEM_OK);
    assert_int_equal(v, (uint64_t)in[0x10] | (uint64_t)in[0x11] << 8 | (uint64_t)in[0x12] << 16 | (uint64_t)in[0x13] << 24);
    /* a host access running into a hole fails */
    mem_add_ram(&s, "d", 0x140, 0x10, MEM_RW); /* hole [0x138, 0x140) */
    assert_int_not_equal(mem_host_read(&s, 0x130, out, 0x10), MEM_OK);
    assert_int_equal(mem_host_read(&s, 0x130, out, 0x8), MEM_OK);
    mem_space_free(&s);

    /* word-addressed: 2 regions of 4 words each, adjacent; 32 bytes through both */
    mem_space_init(&s, "hw", 4, 4, 0);
    mem_add_ram(&s, "a", 0x10, 4, MEM_RW);
    mem_add_ram(&s, "b", 0x14, 4, MEM_RW);
    for (int i = 0; i < 32; i++)
        in[i] = (uint8_t)(0x40 + i);
    assert_int_equal(mem_host_write(&s, 0x10, in, 32), MEM_OK);
    assert_int_equal(mem_read(&s, 0x14, 4, &v), MEM_OK); /* first word of b = bytes 16..19 */
    assert_int_equal(v, 0x53525150);
    memset(out, 0, 32);
    assert_int_equal(mem_host_read(&s, 0x12, out, 24), MEM_OK); /* from word 2 of a */
    assert_memory_equal(out, in + 8, 24);
    assert_int_not_equal(mem_host_read(&s, 0x12, out, 25), MEM_OK);
    mem_space_free(&s);
}

static void test_watchpoints(void **state)
{
    (void)state;
    mem_space s;
    mem_space_init(&s, "wp", 1, 4, 0);
    mem_add_ram(&s, "r", 0, 0x100, MEM_RW);
    uint64_t v;
    int w = mem_watch_add(&s, 0x10, 4, MEM_W); /* [0x10, 0x14) writes */
    int r = mem_watch_add(&s, 0x40, 1, MEM_R); /* byte 0x40 reads */
    int rw = mem_watch_add(&s, 0x80, 8, MEM_RW);
    assert_true(w > 0 && r > 0 && rw > 0);
    assert_true(w != r && r != rw && w != rw);
    assert_int_equal(s.nwatch, 3);
    /* kinds: reading the write watch does not hit */
    mem_read(&s, 0x10, 4, &v);
    assert_int_equal(s.watch_hit_id, 0);
    mem_write(&s, 0x40, 1, 0);
    assert_int_equal(s.watch_hit_id, 0);
    /* ranges: accesses ending at 0x10 or starting at 0x14 miss, overlaps hit */
    mem_write(&s, 0x0c, 4, 0);
    assert_int_equal(s.watch_hit_id, 0);
    mem_write(&s, 0x14, 4, 0);
    assert_int_equal(s.watch_hit_id, 0);
    mem_write(&s, 0x0e, 4, 0); /* [0x0e, 0x12) overlaps */
    assert_int_equal(s.watch_hit_id, w);
    assert_int_equal(s.watch_hit_addr, 0x0e);
    assert_int_equal(s.watch_hit_kind, MEM_W);
    s.watch_hit_id = 0;
    mem_write(&s, 0x13, 1, 0);
    assert_int_equal(s.watch_hit_id, w);
    s.watch_hit_id = 0;
    mem_read(&s, 0x3c, 8, &v); /* [0x3c, 0x44) covers 0x40 */
    assert_int_equal(s.watch_hit_id, r);
    assert_int_equal(s.watch_hit_kind, MEM_R);
    s.watch_hit_id = 0;
    mem_read(&s, 0x87, 1, &v);
    assert_int_equal(s.watch_hit_id, rw);
    s.watch_hit_id = 0;
    mem_write(&s, 0x80, 2, 0);
    assert_int_equal(s.watch_hit_id, rw);
    s.watch_hit_id = 0;
    /* host accesses are not program accesses */
    mem_host_write(&s, 0x10, "abcd", 4);
    assert_int_equal(s.watch_hit_id, 0);
    /* a faulting access does not hit */
    mem_write(&s, 0x200, 4, 0);
    assert_int_equal(s.watch_hit_id, 0);
    /* mem_watch_check directly */
    assert_int_equal(mem_watch_check(&s, 0x44, 4, MEM_R), 0);
    assert_int_equal(mem_watch_check(&s, 0x40, 1, MEM_R), 1);
    s.watch_hit_id = 0;
    /* removal */
    assert_int_equal(mem_watch_remove(&s, r), 0);
    assert_int_equal(mem_watch_remove(&s, r), -1);
    assert_int_equal(mem_watch_remove(&s, 12345), -1);
    assert_int_equal(s.nwatch, 2);
    mem_read(&s, 0x40, 1, &v);
    assert_int_equal(s.watch_hit_id, 0);
    mem_write(&s, 0x10, 4, 0); /* the others still work */
    assert_int_equal(s.watch_hit_id, w);
    s.watch_hit_id = 0;
    assert_int_equal(mem_watch_remove(&s, -1), 0); /* all */
    assert_int_equal(s.nwatch, 0);
    mem_write(&s, 0x80, 4, 0);
    assert_int_equal(s.watch_hit_id, 0);
    /* bad watches and the table limit */
    assert_int_equal(mem_watch_add(&s, 0, 0, MEM_W), -1);
    assert_int_equal(mem_watch_add(&s, 0, 4, MEM_X), -1);
    int last = 0;
    for (int i = 0; i < MEM_MAX_WATCH; i++)
        assert_true((last = mem_watch_add(&s, (uint64_t)i, 1, MEM_R)) > 0);
    assert_int_equal(mem_watch_add(&s, 0, 1, MEM_R), -1);
    assert_int_equal(mem_watch_remove(&s, last), 0);
    assert_true(mem_watch_add(&s, 0, 1, MEM_R) > last); /* ids are not reused */
    mem_space_free(&s);
}

static void test_watch_word_space(void **state)
{
    (void)state;
    mem_space s;
    /* word-addressed: a watch on word 0x21 is hit by an 8-byte access at word 0x20 (which
     * covers words 0x20 and 0x21), not by a 4-byte one */
    mem_space_init(&s, "ww", 4, 4, 0);
    mem_add_ram(&s, "r", 0x10, 0x40, MEM_RW);
    int id = mem_watch_add(&s, 0x21, 1, MEM_W);
    mem_write(&s, 0x20, 4, 1);
    assert_int_equal(s.watch_hit_id, 0);
    mem_write(&s, 0x20, 8, 1);
    assert_int_equal(s.watch_hit_id, id);
    mem_space_free(&s);
}

XPUSIM_TESTS(mem,
             cmocka_unit_test(test_regions_and_lookup),
             cmocka_unit_test(test_overlap_refused),
             cmocka_unit_test(test_faults),
             cmocka_unit_test(test_region_end_bounds),
             cmocka_unit_test(test_word_space_bounds),
             cmocka_unit_test(test_byte_order),
             cmocka_unit_test(test_mmio),
             cmocka_unit_test(test_host_access_across_regions),
             cmocka_unit_test(test_watchpoints),
             cmocka_unit_test(test_watch_word_space))
