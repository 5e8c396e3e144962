/* tests/ipu/ipu_elf.h: the IPU unit tests' one way to make and start a program without the
 * assembler: words encoded from the instruction table (ipu_test_enc), an executable ELF32
 * (EM 248) with one PT_LOAD segment holding nbytes of image at base and the entry point
 * entry, built in memory (ipu_test_elf), and a machine built with options and that ELF
 * loaded (ipu_test_boot). Include after testlib.h (cmocka). */
#ifndef XPUSIM_TESTS_IPU_ELF_H
#define XPUSIM_TESTS_IPU_ELF_H
#include <stdint.h>
#include <string.h>
#include "../../isa/isa.h"
#include "../../isa/ipu/ipu.h"

extern const isa_ops isa_ipu;

/* The word of table row name with operands ops (0-terminated list as I() passes it). */
static inline uint32_t ipu_test_enc(const char *name, const int64_t *ops)
{
    uint32_t w = 0;
    int rc = ipu_encode(name, ops, &w);
    if (rc)
        fail_msg("ipu_encode(%s) = %d", name, rc);
    return w;
}

#define IPU_TEST_ELF_OFF 0x100u /* the segment's file offset: header and program header fit below */

/* Write the ELF into out (IPU_TEST_ELF_OFF + nbytes bytes); returns its size. */
static inline size_t ipu_test_elf(uint8_t *out, const void *image, uint32_t nbytes, uint32_t base, uint32_t entry)
{
    memset(out, 0, IPU_TEST_ELF_OFF);
    const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0xff};
    memcpy(out, ident, 16);
#define IPU_P16(o, v) (out[o] = (uint8_t)(v), out[(o) + 1] = (uint8_t)((v) >> 8))
#define IPU_P32(o, v) (IPU_P16(o, (v) & 0xffff), IPU_P16((o) + 2, (v) >> 16))
    IPU_P16(16, 2);      /* ET_EXEC */
    IPU_P16(18, 248);    /* EM_GRAPHCORE_IPU */
    IPU_P32(20, 1);
    IPU_P32(24, entry);
    IPU_P32(28, 52);     /* e_phoff */
    IPU_P16(40, 52);
    IPU_P16(42, 32);
    IPU_P16(44, 1);
    IPU_P16(46, 40);
    IPU_P32(52 + 0, 1);  /* PT_LOAD */
    IPU_P32(52 + 4, IPU_TEST_ELF_OFF);
    IPU_P32(52 + 8, base);
    IPU_P32(52 + 12, base);
    IPU_P32(52 + 16, nbytes);
    IPU_P32(52 + 20, nbytes);
    IPU_P32(52 + 24, 7); /* RWX */
    IPU_P32(52 + 28, 8);
#undef IPU_P32
#undef IPU_P16
    memcpy(out + IPU_TEST_ELF_OFF, image, nbytes);
    return IPU_TEST_ELF_OFF + nbytes;
}

/* m built with the options (first, when not NULL, the default `first`, then opts: "k=v",
 * NULL-terminated, which may override it) and the ELF elf[0..n) parsed into img and
 * loaded; any failure fails the test. */
static inline void ipu_test_boot(sim_machine *m, ld_image *img, const uint8_t *elf, size_t n,
                                 const char *const *opts, const char *first)
{
    char err[512];
    if (ld_parse("test.elf", elf, n, LD_ELF, img, err, sizeof err))
        fail_msg("ld_parse: %s", err);
    sim_opts o;
    opt_init(&o);
    if (first)
        opt_parse(&o, first);
    for (int i = 0; opts && opts[i]; i++)
        opt_parse(&o, opts[i]);
    if (sim_create(m, &isa_ipu, &o, err, sizeof err))
        fail_msg("create: %s", err);
    if (isa_ipu.load(m, img, err, sizeof err))
        fail_msg("load: %s", err);
    m->image = img;
}
#endif
