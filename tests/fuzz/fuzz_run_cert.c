/* tests/fuzz/fuzz_run_cert.c: random CERT control code run by the job-runner. A small
 * two-uC, two-page program is assembled once (the template); each input overwrites the
 * bytes after the page header of uC 0's page 0 and of uC 1's page 0 (alternating 64-byte
 * slices), so the loader's checks pass and the runner meets arbitrary jobs, opcodes,
 * barriers, DMA descriptors and page references. The listing disassembler sees the same
 * ELF. Every input must end in a stop with a reason (run_body.h), never a crash or hang. */
#define FUZZ_ISA "cert"
#include "fuzz_common.h"
#include "../../isa/cert/cert.h"

static const char *const fuzz_run_opts[] = {"watchdog=5000", "columns=4", "spec=latest", NULL};

static const char *tmpl_src =
    ".attach_to_group 0\n"
    "START_JOB 0\n  UC_DMA_WRITE_DES $r0, @bd\n  WAIT_UC_DMA $r0\n  LOCAL_BARRIER $lb0, 2\n  REMOTE_BARRIER $rb0, 0x3\nEND_JOB\n"
    "START_JOB 1\n  LOCAL_BARRIER $lb0, 2\n  WRITE_32 0x41A0634, 0x80000000\n  WAIT_TCTS TILE_2_1, MEM_MM2S_0, 1\nEND_JOB\n"
    ".eop\nSTART_JOB 2\n  NOP\nEND_JOB\nEOF\n"
    ".align 16\nbd:\n  UC_DMA_BD 0, 0x041A0000, @w, 8, 0, 0\n.align 4\nw:\n"
    "  .long 0x80\n  .long 0\n  .long 0\n  .long 0\n  .long 0\n  .long 0\n  .long 0\n  .long 0x80000000\n"
    ".attach_to_group 1\n"
    "START_JOB 0\n  REMOTE_BARRIER $rb0, 0x3\n  MOV $g1, 5\nEND_JOB\nEOF\n";

static uint8_t *tmpl;
static size_t tmpl_n;
static size_t text_off[2], text_len[2];

static void build_template(void)
{
    char dir[] = "/tmp/xpusim-fuzzcert-XXXXXX", in[64], out[64], err[512];
    if (!mkdtemp(dir))
        abort();
    snprintf(in, sizeof in, "%s/t.asm", dir);
    snprintf(out, sizeof out, "%s/t.elf", dir);
    FILE *f = fopen(in, "w");
    if (!f)
        abort();
    fputs(tmpl_src, f);
    fclose(f);
    const char *srcs[] = {in};
    if (cert_assemble(1, srcs, out, NULL, err, sizeof err))
        abort();
    f = fopen(out, "rb");
    if (!f || fseek(f, 0, SEEK_END))
        abort();
    tmpl_n = (size_t)ftell(f);
    rewind(f);
    tmpl = malloc(tmpl_n);
    if (!tmpl || fread(tmpl, 1, tmpl_n, f) != tmpl_n)
        abort();
    fclose(f);
    unlink(in);
    unlink(out);
    rmdir(dir);
    ld_image img;
    if (ld_parse("t.elf", tmpl, tmpl_n, LD_ELF, &img, err, sizeof err))
        abort();
    const ld_section *s0 = ld_section_find(&img, ".ctrltext.0.0"), *s1 = ld_section_find(&img, ".ctrltext.1.0");
    if (!s0 || !s1)
        abort();
    text_off[0] = (size_t)s0->offset + CERT_PAGE_HDR;
    text_len[0] = (size_t)s0->size - CERT_PAGE_HDR;
    text_off[1] = (size_t)s1->offset + CERT_PAGE_HDR;
    text_len[1] = (size_t)s1->size - CERT_PAGE_HDR;
    ld_free(&img);
}

static int fuzz_load(sim_machine *m, const isa_ops *isa, const uint8_t *d, size_t n, char *err, size_t errlen)
{
    if (!tmpl)
        build_template();
    uint8_t *b = malloc(tmpl_n);
    if (!b)
        abort();
    memcpy(b, tmpl, tmpl_n);
    size_t fill[2] = {0, 0};
    for (size_t i = 0; i < n; i += 64) { /* alternate 64-byte slices between the two pages */
        int k = (int)((i / 64) & 1);
        size_t len = n - i < 64 ? n - i : 64;
        if (fill[k] + len > text_len[k])
            len = text_len[k] > fill[k] ? text_len[k] - fill[k] : 0;
        memcpy(b + text_off[k] + fill[k], d + i, len);
        fill[k] += len;
    }
    ld_image img;
    int rc = ld_parse("fuzz.elf", b, tmpl_n, LD_ELF, &img, err, errlen);
    free(b);
    if (rc)
        return -1;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        isa->disasm_image(&img, NULL, devnull, err, errlen);
        fclose(devnull);
    }
    rc = isa->load(m, &img, err, errlen);
    ld_free(&img);
    return rc;
}
#define FUZZ_LOAD fuzz_load
#include "run_body.h"
