/* loaders/loader.h: turn program files into images, knowing nothing of any ISA.
 * ELF files (through libelf) give segments, sections by name and symbols; plain formats give
 * a word array: MCCP ".out" ROM text (32 '0'/'1' characters per line), ".txt" decimal words,
 * ".hex" (one hex word per line, as elf2hex writes) and raw binary. Every loader validates
 * its input and reports file, offset or line, and what was expected. */
#ifndef XPUSIM_LOADER_H
#define XPUSIM_LOADER_H
#include <stdint.h>
#include <stddef.h>

typedef enum ld_format {
    LD_NONE = 0,
    LD_ELF,
    LD_OUT,    /* MCCP ROM: "0101..." lines */
    LD_TXT,    /* whitespace-separated decimal int32/uint32 words */
    LD_HEX,    /* one hexadecimal 32-bit word per line; "@hhhhhhhh" sets the next word's address */
    LD_RAW     /* raw bytes */
} ld_format;

/* The largest word address an '@' line of a hex image may name (64 MiB of words): the
 * file's number sizes a host allocation, so it is bounded before it is used. */
#define LD_HEX_MAX_WORDS (1u << 24)

typedef struct ld_segment {
    uint64_t vaddr, paddr, memsz, filesz, offset;
    uint32_t flags;    /* PF_X=1, PF_W=2, PF_R=4 */
    uint32_t type;
    const uint8_t *data; /* filesz bytes inside the file buffer */
} ld_segment;

typedef struct ld_section {
    const char *name;
    uint64_t addr, size, offset;
    uint64_t align;      /* sh_addralign */
    uint32_t type, flags;
    const uint8_t *data; /* NULL for NOBITS */
} ld_section;

typedef struct ld_symbol {
    const char *name;
    uint64_t value, size;
    uint8_t type, bind;
    uint16_t shndx;
} ld_symbol;

typedef struct ld_image {
    char path[512];
    ld_format fmt;
    uint8_t *file;      /* whole file */
    size_t file_size;
    /* ELF */
    uint16_t machine;
    uint16_t elf_type;  /* e_type: ET_EXEC, ET_REL (an object file: not runnable), ... */
    uint32_t eflags;
    uint8_t elfclass;   /* 1 = 32-bit, 2 = 64-bit */
    uint8_t big_endian;
    uint64_t entry;
    ld_segment *segs;
    int nsegs;
    ld_section *secs;
    int nsecs;
    ld_symbol *syms;
    int nsyms;
    char *strings;      /* owned copies of names */
    /* word formats */
    uint32_t *words;
    size_t nwords;
} ld_image;

/* Load by content: ELF magic, else by extension (.out/.txt/.hex), else raw. */
int ld_load(const char *path, ld_image *img, char *err, size_t errlen);
int ld_load_as(const char *path, ld_format fmt, ld_image *img, char *err, size_t errlen);
/* Parse from memory (tests, fuzzing); the buffer is copied. */
int ld_parse(const char *name, const void *buf, size_t len, ld_format fmt, ld_image *img, char *err, size_t errlen);
void ld_free(ld_image *img);

const ld_symbol *ld_symbol_find(const ld_image *img, const char *name);
/* Best symbol at or below addr (functions and objects), for "sym+off" printing. */
const ld_symbol *ld_symbol_at(const ld_image *img, uint64_t addr, uint64_t *offset);
const ld_section *ld_section_find(const ld_image *img, const char *name);
const char *ld_format_name(ld_format f);

/* Read a data file for --load/--set: .txt gives decimal words (4 bytes LE each), anything
 * else raw bytes. Returns a malloc'd buffer. */
int ld_read_data(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen);

#endif
