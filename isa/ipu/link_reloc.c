/* isa/ipu/link_reloc.c: the R_COLOSSUS_* relocation table, one row per type of the reference
 * (number, name, bytes at the place, shift, whether relative to the tile memory base, field
 * width, where the field sits), and the one function that computes and stores a field from
 * it. The single source for the linker (link.c) and for the assembler's linked-image branch
 * and run fields (asm_enc.c). The rows follow LLVM's public Colossus resolver
 * (BinaryFormat/ColossusRelocs.h): V = S + A; RELATIVE_16_S2 and RUN first subtract
 * TMEM_REGION0_BASE_ADDR ("relative" is to the image base, not to the place P); an _Sn type
 * needs V aligned to 2^n and stores V >> n; every field is unsigned (stored >> width == 0),
 * R_COLOSSUS_64 is unchecked; the fields inside an instruction word keep its other bits. */
#include <stdio.h>
#include "asm.h"
#include "link.h"
#include "../../core/mem.h"


const ipu_reloc_row ipu_reloc_rows[] = {
    /* type                      name               size shift rel bits place */
    {R_COLOSSUS_NONE,            "NONE",            0,   0,    0,  0,   IPU_RF_NONE},
    {R_COLOSSUS_8,               "8",               1,   0,    0,  8,   IPU_RF_BYTES}, /* rpt count */
    {R_COLOSSUS_16,              "16",              2,   0,    0,  16,  IPU_RF_BYTES},
    {R_COLOSSUS_20,              "20",              4,   0,    0,  20,  IPU_RF_LOW},   /* setzi */
    {R_COLOSSUS_32,              "32",              4,   0,    0,  32,  IPU_RF_BYTES}, /* .word */
    {R_COLOSSUS_64,              "64",              8,   0,    0,  64,  IPU_RF_BYTES}, /* no check */
    {R_COLOSSUS_RELATIVE_16_S2,  "RELATIVE_16_S2",  2,   2,    1,  16,  IPU_RF_BYTES},
    {R_COLOSSUS_18_S2,           "18_S2",           4,   2,    0,  18,  IPU_RF_LOW},
    {R_COLOSSUS_19_S2,           "19_S2",           4,   2,    0,  19,  IPU_RF_LOW},   /* branches */
    {R_COLOSSUS_RUN,             "RUN",             4,   2,    1,  16,  IPU_RF_RUN},
    {R_COLOSSUS_16_S3,           "16_S3",           2,   3,    0,  16,  IPU_RF_BYTES},
    {R_COLOSSUS_16_S4,           "16_S4",           2,   4,    0,  16,  IPU_RF_BYTES},
    {R_COLOSSUS_16_S5,           "16_S5",           2,   5,    0,  16,  IPU_RF_BYTES},
    {R_COLOSSUS_21,              "21",              4,   0,    0,  21,  IPU_RF_LOW},
};
const int ipu_reloc_nrows = (int)(sizeof ipu_reloc_rows / sizeof ipu_reloc_rows[0]);

const ipu_reloc_row *ipu_reloc_find(uint32_t type)
{
    for (int i = 0; i < ipu_reloc_nrows; i++)
        if (ipu_reloc_rows[i].type == type)
            return &ipu_reloc_rows[i];
    return NULL;
}

int ipu_reloc_value(const ipu_reloc_row *r, uint64_t val, uint32_t tmem_base, uint64_t *stored, char *why,
                    size_t whylen)
{
    uint64_t v = val;
    if (r->shift && (v & ((1u << r->shift) - 1))) {
        snprintf(why, whylen, "value 0x%llx is not a multiple of %u", (unsigned long long)val, 1u << r->shift);
        return -1;
    }
    if (r->rel) {
        if (v < tmem_base) {
            snprintf(why, whylen, "value 0x%llx is below the tile memory base 0x%x", (unsigned long long)val,
                     tmem_base);
            return -1;
        }
        v -= tmem_base;
    }
    v >>= r->shift;
    if (r->bits < 64 && (v >> r->bits)) {
        snprintf(why, whylen, "value 0x%llx%s does not fit in %u bits", (unsigned long long)val,
                 r->rel ? (r->shift ? " (from the tile memory base, in words)" : " (from the tile memory base)")
                        : r->shift == 2 ? " (in words)" : r->shift ? " (shifted)" : "",
                 r->bits);
        return -1;
    }
    *stored = v;
    return 0;
}

int ipu_reloc_apply(const ipu_reloc_row *r, uint8_t *loc, uint64_t val, uint32_t tmem_base, char *why,
                    size_t whylen)
{
    uint64_t v;
    if (ipu_reloc_value(r, val, tmem_base, &v, why, whylen))
        return -1;
    uint32_t w;
    switch (r->place) {
    case IPU_RF_BYTES:
        for (unsigned i = 0; i < r->size; i++)
            loc[i] = (uint8_t)(v >> (8 * i));
        break;
    case IPU_RF_LOW:
        w = mem_ld32le(loc);
        w = (w & ~(uint32_t)((1u << r->bits) - 1)) | (uint32_t)v;
        mem_st32le(loc, w);
        break;
    case IPU_RF_RUN:
        w = mem_ld32le(loc);
        w = (w & 0xfff0f000u) | (uint32_t)((v & 0xf000) << 4) | (uint32_t)(v & 0xfff);
        mem_st32le(loc, w);
        break;
    }
    return 0;
}
