/* isa/mccp/disasm.c: MCCP disassembly, per 16-bit ROM slot (PC = word*2 + half) for the
 * debugger and per ROM word for `xpusim disasm` of a .out image. Text is the original
 * assembler's syntax ("load1al" spelled "load", no "al"), produced by mccp_format from the
 * instruction table; encodings the decoder ignores print as ".half 0x....". */
#include <stdio.h>
#include "mccp.h"

int mccp_disasm(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    if (avail < 2)
        return 0;
    uint16_t h = (uint16_t)(p[0] << 8 | p[1]);
    mccp_insn in;
    if (!(addr & 1) && (h & 0x8000)) { /* a 32-bit movl/movh starts a word */
        if (avail < 4)
            return 0;
        uint32_t w = (uint32_t)h << 16 | (uint32_t)(p[2] << 8 | p[3]);
        mccp_decode(w, 0, &in);
        mccp_format(&in, buf, n);
        return 2;
    }
    mccp_decode16(h, &in);
    mccp_format(&in, buf, n);
    return 1;
}

int mccp_disasm_image(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen)
{
    (void)opts;
    if (!img->words && img->nwords) {
        snprintf(err, errlen, "%s: not a word image", img->path);
        return -1;
    }
    if (img->nwords > MCCP_ROM_WORDS) {
        snprintf(err, errlen, "%s: %zu words, but the MCCP ROM holds %u", img->path, img->nwords, MCCP_ROM_WORDS);
        return -1;
    }
    fprintf(out, "; %s: %zu ROM words; slot = word*2 + half (h executes first)\n", img->path, img->nwords);
    for (size_t i = 0; i < img->nwords; i++) {
        uint32_t w = img->words[i];
        char text[96];
        mccp_insn in;
        if (w & 0x80000000u) {
            mccp_decode(w, 0, &in);
            mccp_format(&in, text, sizeof text);
            fprintf(out, "%04zx.h  %08x  %s\n", i, w, text);
            continue;
        }
        mccp_decode(w, 0, &in);
        mccp_format(&in, text, sizeof text);
        fprintf(out, "%04zx.h  %04x      %s\n", i, w >> 16, text);
        mccp_decode(w, 1, &in);
        mccp_format(&in, text, sizeof text);
        fprintf(out, "%04zx.l  %04x      %s\n", i, w & 0xFFFF, text);
    }
    return 0;
}
