/* core/md5.h: MD5 (RFC 1321), written here because its one user, the CERT assembler's
 * .note.xrt.UID (isa/cert/asm_elf.c), needed nothing else of libcrypto, and linking
 * libcrypto cost every run 2.48 M host instructions of dynamic loading before main (session
 * 39). Not for anything secret: MD5 is broken as a cryptographic hash; aiebu's file format
 * names it, so it is used as a checksum that must match aiebu's. */
#ifndef XPUSIM_MD5_H
#define XPUSIM_MD5_H
#include <stddef.h>
#include <stdint.h>

typedef struct md5_ctx {
    uint32_t h[4];     /* the state (A, B, C, D) */
    uint64_t len;      /* bytes taken so far */
    uint8_t buf[64];   /* the block being filled: len % 64 bytes of it */
} md5_ctx;

void md5_init(md5_ctx *c);
void md5_update(md5_ctx *c, const void *data, size_t n);
/* The digest, 16 bytes in RFC 1321's order (A's low byte first); c is spent. */
void md5_final(md5_ctx *c, uint8_t out[16]);

#endif
