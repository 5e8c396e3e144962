/* isa/nyuzi/cosim.c: writer of the reference cosimulation event stream (-o cosim=FILE).
 * One line per architectural side effect in retirement order, in the format the Verilator
 * testbench prints with +trace and the reference emulator checks in -m cosim mode:
 *   swriteback PC THREAD REG VALUE
 *   vwriteback PC THREAD REG MASK16 V0V1..V15   (lane 0 first, 8 hex digits each)
 *   store PC THREAD LINEADDR BYTEMASK64 W0..W15 (line words in memory byte order;
 *                                                mask bit 63 is byte 0 of the line)
 *   interrupt THREAD PC
 * Narrow stores replicate their data across the word, as the hardware's store data path
 * does, so the checker finds the value in the low bits of the addressed word. */
#include "nyuzi.h"

static uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }

void nyz_cosim_swb(nyz_machine *nm, uint32_t pc, int tid, int reg, uint32_t val)
{
    fprintf(nm->cosim, "swriteback %08x %x %x %08x\n", pc, tid, reg, val);
}

void nyz_cosim_vwb(nyz_machine *nm, uint32_t pc, int tid, int reg, uint32_t mask, const uint32_t *vals)
{
    fprintf(nm->cosim, "vwriteback %08x %x %x %04x ", pc, tid, reg, mask & 0xffff);
    for (int l = 0; l < NYZ_LANES; l++)
        fprintf(nm->cosim, "%08x", vals[l]);
    fputc('\n', nm->cosim);
}

void nyz_cosim_store(nyz_machine *nm, uint32_t pc, int tid, uint32_t addr, unsigned size, uint32_t val)
{
    uint32_t word = size == 1 ? (val & 0xff) * 0x01010101u
                  : size == 2 ? (val & 0xffff) * 0x00010001u : val;
    unsigned off = addr & (NYZ_LINE - 1);
    uint64_t mask = ((1ull << size) - 1) << (NYZ_LINE - 1 - off - (size - 1));
    fprintf(nm->cosim, "store %08x %x %08x %016llx ", pc, tid, addr & ~(uint32_t)(NYZ_LINE - 1),
            (unsigned long long)mask);
    for (unsigned l = 0; l < NYZ_LANES; l++)
        fprintf(nm->cosim, "%08x", l == off / 4 ? bswap(word) : 0u);
    fputc('\n', nm->cosim);
}

void nyz_cosim_vstore(nyz_machine *nm, uint32_t pc, int tid, uint32_t addr, uint32_t mask, const uint32_t *vals)
{
    uint64_t bm = 0;
    for (int l = 0; l < NYZ_LANES; l++)
        if (mask & (1u << l))
            bm |= 0xf000000000000000ull >> (l * 4);
    fprintf(nm->cosim, "store %08x %x %08x %016llx ", pc, tid, addr & ~(uint32_t)(NYZ_LINE - 1),
            (unsigned long long)bm);
    for (int l = 0; l < NYZ_LANES; l++)
        fprintf(nm->cosim, "%08x", bswap(vals[l]));
    fputc('\n', nm->cosim);
}
