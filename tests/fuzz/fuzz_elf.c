/* tests/fuzz/fuzz_elf.c: the ELF loader (loaders/elf.c through libelf) on arbitrary bytes.
 * A parse either fails with a message or yields an image whose every segment, section and
 * symbol the harness reads in full: ASan catches any pointer outside the file buffer. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ld_image img;
    char err[512];
    if (ld_parse("fuzz.elf", data, size, LD_ELF, &img, err, sizeof err)) {
        if (!err[0])
            abort(); /* every refusal says why */
        return 0;
    }
    unsigned sum = 0;
    for (int i = 0; i < img.nsegs; i++)
        for (uint64_t k = 0; img.segs[i].data && k < img.segs[i].filesz; k++)
            sum += img.segs[i].data[k];
    for (int i = 0; i < img.nsecs; i++) {
        sum += (unsigned)strlen(img.secs[i].name ? img.secs[i].name : "");
        for (uint64_t k = 0; img.secs[i].data && k < img.secs[i].size; k++)
            sum += img.secs[i].data[k];
    }
    for (int i = 0; i < img.nsyms; i++) {
        sum += (unsigned)strlen(img.syms[i].name);
        ld_symbol_find(&img, img.syms[i].name);
        uint64_t off;
        ld_symbol_at(&img, img.syms[i].value, &off);
    }
    fuzz_sink += sum;
    ld_free(&img);
    return 0;
}
