/* core/md5.c: MD5 as RFC 1321 specifies it (section 3): the message padded with a 1 bit,
 * zeros to 56 bytes modulo 64 and its length in bits (64 bits, little-endian), then each
 * 64-byte block of 16 little-endian words goes through four rounds of sixteen steps on the
 * state (A, B, C, D), added to the state after. Byte order is done with shifts, so the host's
 * own order does not matter. Checked against RFC 1321's test suite (appendix A.5) and split
 * updates in tests/unit/test_md5.c, and against aiebu-asm's UIDs by tests/cert. */
#include <string.h>
#include "md5.h"

/* the steps' additive constants: floor(|sin(i + 1)| * 2^32) (RFC 1321 3.4, table T) */
static const uint32_t md5_t[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
    0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
    0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
    0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
    0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* each round's four rotations, in step order */
static const uint8_t md5_s[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static uint32_t rotl(uint32_t x, unsigned s) { return x << s | x >> (32 - s); }

static void md5_block(uint32_t h[4], const uint8_t *p)
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
               (uint32_t)p[4 * i + 3] << 24;
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; i++) {
        const int r = i / 16;
        uint32_t f;
        int k; /* the word this step takes */
        if (r == 0) {
            f = (b & c) | (~b & d);
            k = i;
        } else if (r == 1) {
            f = (b & d) | (c & ~d);
            k = (5 * i + 1) % 16;
        } else if (r == 2) {
            f = b ^ c ^ d;
            k = (3 * i + 5) % 16;
        } else {
            f = c ^ (b | ~d);
            k = (7 * i) % 16;
        }
        const uint32_t t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + md5_t[i] + x[k], md5_s[r][i % 4]);
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
}

void md5_init(md5_ctx *c)
{
    c->h[0] = 0x67452301;
    c->h[1] = 0xefcdab89;
    c->h[2] = 0x98badcfe;
    c->h[3] = 0x10325476;
    c->len = 0;
}

void md5_update(md5_ctx *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t have = (size_t)(c->len % 64);
    c->len += n;
    if (have) { /* fill the pending block first */
        size_t take = 64 - have < n ? 64 - have : n;
        memcpy(c->buf + have, p, take);
        p += take;
        n -= take;
        if (have + take < 64)
            return;
        md5_block(c->h, c->buf);
    }
    for (; n >= 64; p += 64, n -= 64)
        md5_block(c->h, p);
    if (n)
        memcpy(c->buf, p, n);
}

void md5_final(md5_ctx *c, uint8_t out[16])
{
    const uint64_t bits = c->len * 8;
    uint8_t pad[72] = {0x80};
    const size_t have = (size_t)(c->len % 64), npad = have < 56 ? 56 - have : 120 - have;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (uint8_t)(bits >> (8 * i));
    md5_update(c, pad, npad + 8);
    for (int i = 0; i < 16; i++)
        out[i] = (uint8_t)(c->h[i / 4] >> (8 * (i % 4)));
}
