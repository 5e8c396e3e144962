/* tests/unit/test_md5.c: core/md5.c. The strings and digests of RFC 1321's test suite
 * (appendix A.5); the padding's edges (55, 56, 63, 64, 65 bytes: the length fits in the
 * last block or needs one more) and a 1,000-byte buffer, whose digests are Python's
 * hashlib.md5 (an independent implementation); and the same buffer fed in pieces of
 * several sizes across block boundaries, which must give its digest. */
#include "../testlib.h"
#include "../../core/md5.h"

static void hex_of(const void *p, size_t n, char out[33])
{
    md5_ctx c;
    uint8_t md[16];
    md5_init(&c);
    md5_update(&c, p, n);
    md5_final(&c, md);
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void test_rfc1321_suite(void **state)
{
    (void)state;
    static const char *const suite[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    char hex[33];
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
        hex_of(suite[i][0], strlen(suite[i][0]), hex);
        assert_string_equal(hex, suite[i][1]);
    }
}

static uint8_t buf[1000]; /* byte i: (i * 131 + 7) mod 256 */

static void fill(void)
{
    for (int i = 0; i < 1000; i++)
        buf[i] = (uint8_t)(i * 131 + 7);
}

static void test_padding_edges(void **state)
{
    (void)state;
    static const struct {
        size_t n;
        const char *md;
    } edge[] = {
        {55, "852e13533f66e414bbbbb3348de4f81f"},   /* 0x80 and the length fit: one block */
        {56, "98e8cb3457434649644b5fe9f4e5e4fa"},   /* the length needs a second block */
        {63, "c9803ddca3b148d91d5f214be64197d4"},
        {64, "bc00c8534af1e5aef0ede584d8ad5bc3"},   /* a whole block, then padding alone */
        {65, "4e114d3e0baf5ace365e0552a3273291"},
        {1000, "0b8ae90ded6089334e353eb2669ab5e6"},
    };
    char hex[33];
    fill();
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        hex_of(buf, edge[i].n, hex);
        assert_string_equal(hex, edge[i].md);
    }
}

static void test_split_updates(void **state)
{
    (void)state;
    static const size_t piece[] = {1, 3, 7, 63, 64, 65, 130, 999};
    fill();
    for (size_t k = 0; k < sizeof piece / sizeof piece[0]; k++) {
        md5_ctx c;
        uint8_t md[16];
        char hex[33];
        md5_init(&c);
        for (size_t at = 0; at < 1000; at += piece[k])
            md5_update(&c, buf + at, 1000 - at < piece[k] ? 1000 - at : piece[k]);
        md5_final(&c, md);
        for (int i = 0; i < 16; i++)
            snprintf(hex + 2 * i, 3, "%02x", md[i]);
        assert_string_equal(hex, "0b8ae90ded6089334e353eb2669ab5e6");
    }
}

XPUSIM_TESTS(md5, cmocka_unit_test(test_rfc1321_suite), cmocka_unit_test(test_padding_edges),
             cmocka_unit_test(test_split_updates))
