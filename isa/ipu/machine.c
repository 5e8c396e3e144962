/* isa/ipu/machine.c: the Graphcore IPU as xpusim sees it (isa_ops isa_ipu). Only the
 * instruction set is built so far: programs are recognised (ELF e_machine 248,
 * EM_GRAPHCORE_IPU), `xpusim disasm` lists their code, and the debugger's disassembly hook
 * works; building a machine fails with "IPU execution is not built yet" (issue 13).
 *
 * Which context runs a function decides how its words decode. The ELF does not say it in a
 * way we have verified, so a listing decodes each word as llvm-objdump does: worker first,
 * then supervisor when the worker decode fails. A section or function symbol whose name
 * contains "supervisor" (any case) is decoded supervisor first. `xpusim disasm` cannot
 * pass -o options to an ISA's listing hook (isa_ops.disasm_image takes none), so the
 * architecture of a listing is the -o arch default, ipu2; -o arch and -o context are
 * declared here for the machine and its debugger once execution exists. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../isa.h"
#include "ipu.h"

#define EM_GRAPHCORE_IPU 248

static const char *const arch_choices[] = {"ipu1", "ipu2", "ipu21", NULL};
static const char *const ctx_choices[] = {"auto", "worker", "supervisor", NULL};

static const opt_desc ipu_options[] = {
    OPT_C("arch", "ipu2", arch_choices, "IPU generation whose instruction set decodes: ipu1 (Mk1), ipu2 (Mk2), ipu21 (Bow)"),
    OPT_C("context", "auto", ctx_choices,
          "decode space for disassembly: worker, supervisor, or auto (worker first, then supervisor, as llvm-objdump)"),
    OPT_END,
};

static int ipu_probe(const ld_image *img)
{
    return img->fmt == LD_ELF && img->machine == EM_GRAPHCORE_IPU ? 100 : 0;
}

static int ipu_create(sim_machine *m, char *err, size_t errlen)
{
    (void)m;
    snprintf(err, errlen, "IPU execution is not built yet (issue 13): use `xpusim disasm` to list IPU code");
    return -1;
}

static void ipu_destroy(sim_machine *m) { (void)m; }

static int ipu_load(sim_machine *m, const ld_image *img, char *err, size_t errlen)
{
    (void)m;
    (void)img;
    snprintf(err, errlen, "IPU execution is not built yet (issue 13)");
    return -1;
}

static uint64_t ipu_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    (void)m;
    (void)u;
    (void)now;
    (void)horizon;
    return SIM_NEVER;
}

/* The debugger hook has no machine: default architecture, worker then supervisor. */
static int ipu_disasm_hook(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    return ipu_disasm_at(addr, p, avail, IPU_ARCH_IPU2, IPU_CTX_WORKER, buf, n);
}

static int name_says_supervisor(const char *s)
{
    for (; s && *s; s++)
        if (!strncasecmp(s, "supervisor", 10))
            return 1;
    return 0;
}

/* List one code range: a label line at every function or object symbol, then one line per
 * word or bundle: address, raw words, text. */
static void list_range(const ld_image *img, const char *secname, uint64_t base, const uint8_t *data, uint64_t size,
                       FILE *out)
{
    int sec_sup = name_says_supervisor(secname);
    int ctx = sec_sup ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
    for (uint64_t off = 0; off + 4 <= size;) {
        uint64_t so;
        const ld_symbol *sym = ld_symbol_at(img, base + off, &so);
        if (sym && so == 0 && sym->name && sym->name[0]) {
            fprintf(out, "%08llx <%s>:\n", (unsigned long long)(base + off), sym->name);
            ctx = sec_sup || name_says_supervisor(sym->name) ? IPU_CTX_SUPERVISOR : IPU_CTX_WORKER;
        }
        char text[200];
        int len = ipu_disasm_at(base + off, data + off, (size_t)(size - off), IPU_ARCH_IPU2, ctx, text, sizeof text);
        if (len <= 0)
            break;
        const uint8_t *w = data + off;
        uint32_t w0 = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        if (len == 8) {
            uint32_t w1 = (uint32_t)w[4] | (uint32_t)w[5] << 8 | (uint32_t)w[6] << 16 | (uint32_t)w[7] << 24;
            fprintf(out, "  %08llx  %08x %08x  %s\n", (unsigned long long)(base + off), w0, w1, text);
        } else {
            fprintf(out, "  %08llx  %08x           %s\n", (unsigned long long)(base + off), w0, text);
        }
        off += (uint64_t)len;
    }
}

static int ipu_disasm_image(const ld_image *img, FILE *out, char *err, size_t errlen)
{
    if (img->fmt == LD_ELF) {
        int any = 0;
        for (int i = 0; i < img->nsecs; i++) {
            const ld_section *s = &img->secs[i];
            if (!(s->flags & 4) || !s->data) /* SHF_EXECINSTR */
                continue;
            fprintf(out, "Disassembly of section %s:\n", s->name ? s->name : "?");
            list_range(img, s->name, s->addr, s->data, s->size, out);
            any = 1;
        }
        for (int i = 0; !any && i < img->nsegs; i++)
            if (img->segs[i].type == 1 && (img->segs[i].flags & 1))
                list_range(img, NULL, img->segs[i].vaddr, img->segs[i].data, img->segs[i].filesz, out);
        return 0;
    }
    if (img->fmt == LD_RAW) {
        list_range(img, NULL, 0, img->file, img->file_size, out);
        return 0;
    }
    snprintf(err, errlen, "ipu cannot list a %s file (ELF or raw binary expected)", ld_format_name(img->fmt));
    return -1;
}

const isa_ops isa_ipu = {
    .name = "ipu",
    .description = "Graphcore Colossus IPU tile (ipu1/ipu2/ipu21): instruction set and disassembly; execution not built yet",
    .probe = ipu_probe,
    .options = ipu_options,
    .create = ipu_create,
    .destroy = ipu_destroy,
    .load = ipu_load,
    .unit_run = ipu_unit_run,
    .code_space = "tmem",
    .disasm = ipu_disasm_hook,
    .disasm_image = ipu_disasm_image,
};
