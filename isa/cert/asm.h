/* isa/cert/asm.h: the CERT assembler's internal model, shared by its three parts: the
 * reader (asm.c: lines to statements, per column and per label scope, as aiebu-asm groups
 * them), the pager and page encoder (asm_page.c: jobs to 8 KiB pages, pages to bytes) and
 * the ELF writer (asm_elf.c: aiebu's ABI 0x02 file layout). The model follows aiebu's own:
 * a statement keeps its operand texts lower-cased and is given a size and a position once
 * per "state" (a label scope while paging, then each page while encoding), because `.align`
 * sizes and label positions depend on where the statement lands. Which aiebu release is
 * reproduced (-o aiebu=) is one row of cert_writers: every difference between the releases
 * is a field there, read where it matters, so there is one code path. */
#ifndef XPUSIM_CERT_ASM_H
#define XPUSIM_CERT_ASM_H
#include <stdint.h>
#include <stddef.h>
#include "cert.h"
#include "../../core/asm/source.h"
#include "../../core/asm/symtab.h"

/* What differs between the aiebu-asm releases we reproduce byte for byte (facts read from
 * their sources and checked against their output; see docs/validation/cert.md). */
typedef struct cert_writer {
    const char *name;           /* -o aiebu= value */
    int spec;                   /* opcode table when -o spec is not given */
    int group_osabi;            /* EI_OSABI for every target; 0: per target (0x40, 0x4B, ...) */
    int running_addr;           /* sh_addr/p_vaddr: each content section 16 bytes after the last */
    int uid_raw;                /* .note.xrt.UID: the 16 md5 bytes (else 32 hex characters) */
    int dyn_alloc;              /* .dynsym/.rela.dyn/.dynamic SHF_ALLOC and a PT_DYNAMIC */
    int ooo_header;             /* header bytes 4-7: lengths of <= 2 out-of-order pages */
    int ffffffff_zero;          /* an operand 0xFFFFFFFF is written as 0 ("no value") */
    int scope_first_use;        /* label scopes paged in first-use order (else by name) */
    int scope_state;            /* a code label pushes the code state, .endl pops it */
    int eof_any_case;           /* `eof` in any case switches to data (else only `EOF`) */
    int eof_in_label;           /* an EOF inside a data label counts in its size */
    int jobs_per_eop;           /* job ids are scoped by .eop section */
    int launch_closure;         /* a launched job brings its own group (transitively) */
    int labels_shared;          /* two groups of a page may share data (placed once, counted twice) */
    int ao57_entries;           /* APPLY_OFFSET_57 patches num_entries descriptors (else the first) */
    int actor_map;              /* actor names from aiebu's fixed per-target maps */
    int preempt_injects;        /* PREEMPT makes aiebu insert save/restore code (asm_preempt.c,
                                 * with -o preempt_asm=DIR; else warned about or refused) */
    int reattach_appends;       /* a second .attach_to_group N continues uC N (else refused) */
} cert_writer;

extern const cert_writer cert_writers[];   /* [0] 2025.02, [1] latest */

enum { CI_OP = 1, CI_LONG, CI_ALIGN, CI_BD, CI_EOP, CI_LABEL };

typedef struct cert_item {
    int kind;                   /* CI_* */
    const cert_opdef *op;       /* CI_OP: the table row */
    char *name;                 /* lower-cased mnemonic, or the label's name */
    char **args;                /* lower-cased operand texts */
    int nargs;
    int file, line;             /* file index (labels and jobs are per file), line number */
    int is_eof;                 /* CI_OP EOF */
    uint32_t size;              /* in the state last processed */
} cert_item;

/* The statements of one label scope ("default", "default:pdi", ...): text, then data. */
typedef struct cert_scope {
    char *path;
    cert_item **text, **data;
    int ntext, ndata, captext, capdata;
} cert_scope;

typedef struct cert_pad {       /* .setpad NAME, SIZE|FILE */
    char *name;
    uint32_t size, offset, base;
    uint8_t *content;           /* NULL: zeros */
} cert_pad;

/* One page as the pager leaves it: statements and header fields. */
typedef struct cert_page {
    uint32_t index;
    uint32_t cur_len, next_len, ooo_len1, ooo_len2;
    cert_item **text, **data;
    int ntext, ndata;
    char **ooo;                 /* out-of-order labels ("file:label") */
    int nooo;
} cert_page;

/* A patch the host applies: aiebu's "symbol" (.dynsym + .rela.dyn). */
typedef struct cert_sym {
    char *name;
    uint32_t pos, type;
    int page;                   /* the .ctrltext section it is in */
} cert_sym;

/* A label for -o symbols=1: where the simulator's pc is when it runs or reads it. */
typedef struct cert_lsym {
    const char *name;           /* the statement's (lower-cased) name */
    int page, code;             /* code: a label scope's first instruction */
    uint32_t pc;                /* page * 8192 + offset in the page (header included) */
} cert_lsym;

/* One column (uC): its scopes in name order, its pads in name order, then its pages and
 * their encoded bytes. */
typedef struct cert_col {
    int col, used;
    cert_scope *scopes;
    int nscopes, capscopes;
    cert_pad *pads;
    int npads;
    cert_page *pages;
    int npages, cappages;
    asm_symtab page_of;         /* scope top label -> first page index (value) */
    uint8_t **text, **data;     /* per page: encoded text (header included) and data */
    uint32_t *text_len, *data_len;
    cert_sym *syms;
    int nsyms, capsyms;
    cert_lsym *lsyms;           /* -o symbols=1 */
    int nlsyms;
} cert_col;

typedef struct cert_asm {
    int spec, target;
    const cert_writer *w;
    int symbols;                /* -o symbols=1: a .symtab of the labels */
    int preempt_warned;
    cert_col *cols;             /* sorted by column at the end of reading */
    int ncols, capcols;
    asm_files files;            /* file index -> name ("default" for the main source) */
    cert_item **items;          /* every statement, for freeing */
    int nitems, capitems;
    char err[1024];
    const char *include_dir;
    const char *preempt_dir;    /* -o preempt_asm=DIR: aiebu's preemption_asm files */
    int partition_cols;         /* `.partition Ncolumn` (aiebu's default: 4) */
    struct cert_preempt *pre;   /* the PREEMPTs read, in source order */
    int npre, cappre;
    int injecting;              /* reading an inserted save/restore program */
} cert_asm;

/* One PREEMPT as read (asm_preempt.c): where it is and its hintmap operand. */
typedef struct cert_preempt {
    cert_item *it;
    int group;                  /* its uC (.attach_to_group), 0 before any */
    int counted;                /* read after a uC was chosen (aiebu counts only those) */
    char *scope;                /* its label scope */
    char *hint;                 /* the 4th operand without '@', or NULL */
} cert_preempt;

/* asm.c: the reader, for asm_preempt.c to feed it inserted programs. */
typedef struct cert_reader cert_reader;
/* Read text (NUL-terminated, modified) as file `name` into uC col, in the code state
 * (pushed before, popped after, as aiebu does). 0 ok, -1 a->err. */
int cert_read_text(cert_reader *r, int col, char *text, const char *name);
/* asm_preempt.c: note a PREEMPT just read (rewrites its operands to @save_N, @restore_N);
 * after the source is read, insert the save/restore programs. 0 ok, -1 a->err. */
int cert_preempt_note(cert_asm *a, cert_item *it, int col, const char *scope);
int cert_preempt_finish(cert_asm *a, cert_reader *r);
void cert_preempt_free(cert_asm *a);

/* Record an error "file:line: what" (first one wins); returns -1. */
int cert_asm_fail(cert_asm *a, int file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* asm_page.c: page every scope of every column, then encode every page. 0 ok, -1 a->err. */
int cert_asm_pages(cert_asm *a);
/* asm_elf.c: write the ELF. 0 ok, -1 err. */
int cert_asm_write_elf(const cert_asm *a, const char *path, char *err, size_t errlen);

/* ---- the paging/encoding state (asm_page.c builds it, asm_enc.c encodes with it) ---- */

typedef struct cert_ilist { int *v; int n, cap; } cert_ilist; /* ordered, as aiebu's vectors */

typedef struct cert_job {
    uint32_t start, end;        /* positions of START_JOB and after END_JOB */
    int si, ei, page, eopnum, ended;
    cert_ilist bars;            /* local barrier ids */
    cert_ilist deps;            /* job indices it launches */
    int file, line;             /* file -1: a .eop marker */
} cert_job;

typedef struct cert_label {
    uint32_t pos, size;
    int index, count, page;     /* statements index..index+count are its data */
} cert_label;

/* aiebu's "assembler state" over a list of statements: a label scope while paging (names
 * scoped by file), one page while encoding (names as written). */
typedef struct cert_state {
    cert_asm *a;
    cert_col *c;
    cert_item **d;
    int n;
    cert_job *jobs;
    int njobs;
    cert_ilist order;           /* job indices in source order (EOF and .eop entries included) */
    int eof;                    /* index of the EOF job, -1 none */
    asm_symtab jobmap, labelmap;
    cert_label *labels;
    int nlabels;
    cert_ilist lbids;           /* local barrier ids seen, and for each the jobs using it */
    cert_ilist *lbjobs;
    int unique;
    cert_ilist *ldeps;          /* per label: the labels an APPLY_OFFSET_57 of n entries at it
                                 * also needs (the newest aiebu), NULL when none */
} cert_state;

/* asm_page.c */
int cert_add_lsym(cert_col *c, const char *name, int page, int code, uint32_t pc);
int cert_process(cert_state *s, cert_item **d, int n, int unique);
void cert_state_free(cert_state *s);
int cert_st_fail(cert_state *s, const cert_item *it, const char *fmt, const char *x);
int cert_job_lookup(cert_state *s, const char *k, int create);
int cert_item_size(cert_state *s, cert_item *it, uint32_t pos, uint32_t *size);
/* asm_enc.c */
int cert_parse_barrier(const char *a, uint32_t *v);
/* Encode page pi of c into c->text[pi] / c->data[pi]. 0 ok, -1 a->err. */
int cert_encode_page(cert_asm *a, cert_col *c, int pi);

#endif
