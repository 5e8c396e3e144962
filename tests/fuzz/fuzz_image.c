/* tests/fuzz/fuzz_image.c: the word-image formats (loaders/image.c): the first byte picks
 * .out (MCCP ROM lines), .txt (decimal words), .hex (elf2hex words) or raw, the rest is the
 * file. A parse fails with FILE:LINE: column C: ... or yields nwords words, all read here. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ld_format fmts[] = {LD_OUT, LD_TXT, LD_HEX, LD_RAW};
    if (size < 1)
        return 0;
    ld_image img;
    char err[512];
    if (ld_parse("fuzz.img", data + 1, size - 1, fmts[data[0] % 4], &img, err, sizeof err)) {
        if (!err[0])
            abort();
        return 0;
    }
    uint32_t sum = 0;
    for (size_t i = 0; i < img.nwords; i++)
        sum += img.words[i];
    fuzz_sink += sum;
    ld_free(&img);
    return 0;
}
