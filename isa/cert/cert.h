/* isa/cert/cert.h: the AMD AIE CERT control-code ISA (the job-runner on the AIE2PS / AIE4
 * uController), shared by its table, disassembler, program loader, assembler and job-runner.
 * One instruction table (table.c) says, for each opcode of each spec version, its mnemonic,
 * its size and its operands in encoding order; decode, disassembly and assembly all read it.
 * Programs are aiebu ELFs: per uC (column) a run of 8 KiB pages, each a 16-byte header,
 * jobs up to EOF, 0xA5 alignment filler, then data (uC-DMA descriptors, .long words).
 * A pc is page * 8192 + offset in the page (header included), as aiebu's DWARF numbers it. */
#ifndef XPUSIM_CERT_H
#define XPUSIM_CERT_H
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../../loaders/loader.h"
#include "../../core/opts.h"

#define CERT_PAGE_SIZE 8192u
#define CERT_PAGE_HDR 16u
#define CERT_BD_SIZE 16u
#define CERT_ALIGN_FILL 0xA5u
#define CERT_OP_EOF 0xFFu
#define CERT_MAX_ARGS 6
#define CERT_NREG 24          /* r0..r7 private to a job, r8..r23 = g0..g15 shared by the uC */
#define CERT_NLOCAL_REG 8
#define CERT_MAX_LB 16        /* local barriers $lb0..$lb15 */
#define CERT_MAX_RB 64        /* remote barriers $rb0..$rb63, encoded 1..64 */

/* Spec versions of the opcode table (-o spec=): what changed between aiebu releases. */
typedef enum cert_spec {
    CERT_SPEC_2502 = 1,       /* aiebu Feb-2025: 0x00-0x1c, LOAD_PDI 6 bytes, PREEMPTION_CHECKPOINT */
    CERT_SPEC_LATEST = 2      /* newest spec: 0x00-0x23, LOAD_PDI 12 bytes, PREEMPT */
} cert_spec;
#define CERT_SPEC_ALL (CERT_SPEC_2502 | CERT_SPEC_LATEST)

/* Operand kinds. The width of a field is its own (bytes); pads are zero and not written in
 * assembly; the job size is computed by the assembler and not written either. */
typedef enum cert_kind {
    CK_PAD = 0,
    CK_CONST,     /* number */
    CK_REG,       /* $r0..$r7, $g0..$g15 (encoded 8..23) */
    CK_LB,        /* local barrier $lbN, encoded N */
    CK_RB,        /* remote barrier $rbN, encoded N+1 */
    CK_PAGE,      /* page_id: a label in another page, encoded as its page index */
    CK_JOBSIZE,   /* bytes from START_JOB through END_JOB inclusive */
    CK_DESC,      /* descriptor_ptr / table_ptr: a label in the page's data, offset from page+16 */
    CK_TILE,      /* TILE_<col>_<row> = (col & 0x7F) << 5 | (row & 0x1F) */
    CK_ACTOR      /* DMA channel actor id (S2MM_n, MM2S_n, ...) */
} cert_kind;

typedef struct cert_arg {
    uint8_t kind;       /* cert_kind */
    uint8_t bytes;      /* 1, 2 or 4 */
    const char *name;   /* the spec's operand name; NULL for pads */
} cert_arg;

/* Operation classes: what the job-runner does, and which latency option prices it
 * (timing lives in the runner's tables, not here). */
typedef enum cert_class {
    CC_JOB = 0,   /* START_JOB*, END_JOB, LAUNCH_JOB, EOF */
    CC_REG,       /* MOV, ADD */
    CC_AXI_WRITE, /* WRITE_32, WRITE_32_D, MASK_WRITE_32 (MASK_WRITE also reads) */
    CC_AXI_READ,  /* READ_32, READ_32_D, SAVE_REGISTER */
    CC_POLL,      /* POLL_32, MASK_POLL_32, UC_DMA_MASK_POLL_EXT, REL_ACQ_SYNC */
    CC_UCDMA,     /* UC_DMA_WRITE_DES(_SYNC), WAIT_UC_DMA */
    CC_WAIT,      /* WAIT_TCTS */
    CC_BARRIER,   /* LOCAL_BARRIER, REMOTE_BARRIER */
    CC_SCHED,     /* YIELD, NOP, SLEEP */
    CC_PATCH,     /* APPLY_OFFSET_57, APPLY_OFFSET_PL */
    CC_LOAD,      /* LOAD_PDI, LOAD_CORES, LOAD_CORES_CP, LOAD_LAST_PDI, PREEMPT */
    CC_TRACE,     /* TRACE, SAVE_TIMESTAMPS */
    CC_COUNT
} cert_class;

typedef struct cert_opdef {
    uint8_t code;
    uint8_t size;       /* bytes: 2 (opcode, pad) + the operand widths */
    uint8_t specs;      /* CERT_SPEC_* bits this row belongs to */
    uint8_t cls;        /* cert_class */
    uint8_t nargs;
    const char *name;   /* upper case, as aiebu's disassembler prints it */
    cert_arg args[CERT_MAX_ARGS];
} cert_opdef;

extern const cert_opdef cert_ops[];
extern const int cert_nops;

/* The row for opcode code in spec, or NULL (unknown or not in that spec). */
const cert_opdef *cert_op_by_code(unsigned code, int spec);
/* The row for a mnemonic (case-insensitive; older names accepted), or NULL. */
const cert_opdef *cert_op_by_name(const char *name, size_t len, int spec);
/* Parse "2025.02" / "latest" into a cert_spec; 0 if neither. */
int cert_spec_parse(const char *s);
const char *cert_spec_name(int spec);

/* One decoded instruction: v[i] is the value of op->args[i] (pads included, always 0 when
 * the encoding is well formed). */
typedef struct cert_insn {
    const cert_opdef *op;
    uint32_t v[CERT_MAX_ARGS];
    uint8_t size;
} cert_insn;

/* Decode at p[0..avail). Returns the size (> 0), 0 if avail is too short for the opcode's
 * size, -1 if the opcode is unknown in spec, -2 if a pad byte is not zero. */
int cert_decode(const uint8_t *p, size_t avail, int spec, cert_insn *out);
/* Value of the operand called name (first match), or def if the op has none. */
uint32_t cert_arg_value(const cert_insn *in, const char *name, uint32_t def);

/* Names (table.c). Actor id to its aiebu name as the Python
 * disassembler prints it ("S2MM_n" for 0..5, "MM2S_n" above). */
void cert_tile_name(uint32_t tile, char *buf, size_t n);
void cert_actor_name(uint32_t actor, char *buf, size_t n);
void cert_reg_name(uint32_t reg, char *buf, size_t n);

/* Operands of one instruction in aiebu syntax ("$r0, 0x41A0634"), without the mnemonic.
 * Label-valued operands print as numbers (the debugger has no labels for them). */
void cert_format_args(const cert_insn *in, char *buf, size_t n);
/* "MNEMONIC operands" for the debugger and traces. */
void cert_format(const cert_insn *in, char *buf, size_t n);

/* ---- Programs (program.c) ------------------------------------------------------------ */

/* Targets, by the ELF's OSABI. */
typedef enum cert_target {
    CERT_T_AIE2PS = 0,  /* OSABI 0x40: one uC per column */
    CERT_T_AIE4,        /* 0x4B: two uCs per column */
    CERT_T_AIE4A,       /* 0x56 */
    CERT_T_AIE4Z,       /* 0x69 */
    CERT_T_GROUP        /* 0x46: legacy "group" ELF of the aie2ps/aie4 family */
} cert_target;

typedef struct cert_page_hdr {
    uint16_t magic;     /* 0xFFFF */
    uint16_t index;     /* page index within the uC's control code */
    uint16_t ooo_len1;  /* out-of-order target page lengths (LOAD_PDI / PREEMPT save, restore) */
    uint16_t ooo_len2;
    uint16_t cur_len;   /* header + text + data of this page, rounded to 4 */
    uint16_t next_len;  /* cur_len of the next in-order page, 0 on the last */
    uint8_t busy_poll;  /* newest spec: 1 = polls on this page may spin */
} cert_page_hdr;

/* A patch the host applies before running (from .rela.dyn): where, what kind, which
 * kernel argument or symbol. */
typedef struct cert_patch {
    int uc;
    uint32_t page, offset;  /* offset from the page start */
    uint32_t type;          /* 1 uc_dma_remote_ptr ... 7 control_packet_57 */
    char sym[48];
    int64_t addend;
} cert_patch;

/* One uC's control code as the host hands it to the firmware: pages back to back, 8 KiB
 * each (page k at k * 8192), then the .pad buffers. */
typedef struct cert_ucode {
    int present;
    uint32_t npages;
    uint8_t *buf;           /* npages * 8192 + pad_len bytes */
    size_t len;
    size_t pad_len;
    cert_page_hdr *hdr;     /* npages parsed headers */
    uint32_t *text_len;     /* bytes of text per page (header + jobs + EOF + fill) */
} cert_ucode;

typedef struct cert_program {
    int target;             /* cert_target */
    uint8_t osabi, abi_version;
    int merged;             /* ABI 0x21 merged-page sections */
    int nuc;                /* highest uC index present + 1 */
    cert_ucode *uc;         /* nuc entries; absent uCs have present == 0 */
    cert_patch *patches;
    int npatches;
} cert_program;

#define CERT_MAX_UC 128
#define CERT_MAX_PAGES 4096

/* 100 if img is an aiebu control-code ELF (EM_M32, a CERT OSABI), else 0. */
int cert_probe_image(const ld_image *img);
/* Build the program from an ELF image; errors name the section, page and offset. */
int cert_program_load(const ld_image *img, int spec, cert_program *p, char *err, size_t errlen);
void cert_program_free(cert_program *p);
/* Parse and check one page header (page bytes p, at least CERT_PAGE_HDR). */
int cert_page_hdr_parse(const uint8_t *p, cert_page_hdr *h);
const char *cert_target_name(int target);
/* uCs per column for a target (1 for aie2ps, 2 for aie4*). */
int cert_target_ucs_per_column(int target);

/* ---- Disassembly (disasm.c) ----------------------------------------------------------- */

/* The debugger's one-instruction form at (page, offset) pc; see isa_ops.disasm. */
int cert_disasm_one(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n);
/* A whole program as aiebu's Python disassembler (control_asm_disasm.py -d) prints it. */
int cert_disasm_program(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen);

/* ---- Assembler (asm*.c) ---------------------------------------------------------------- */

/* xpusim asm --isa cert: aiebu assembly to an aiebu ELF (see isa_ops.assemble). */
int cert_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts,
                  char *err, size_t errlen);
extern const opt_desc cert_asm_options[];

#endif
