/* core/asm/elf_write.h: the one ELF32 little-endian writer of the assemblers, through
 * libelf. An ISA describes its output (header fields, program headers, content sections
 * with their file offsets, symbols, relocations) and this module builds the string tables,
 * the symbol table (locals first, as the ELF rules require), one .rela section per content
 * section that has relocations, and the section header table, and writes the file with
 * every output error reported. Layout policy stays with the ISA (each mirrors its own
 * vendor linker's file layout); asm_elf_place() is the shared "next aligned offset" rule.
 * Part of the shared assembler framework (core/asm/). */
#ifndef XPUSIM_ASM_ELF_WRITE_H
#define XPUSIM_ASM_ELF_WRITE_H
#include <stddef.h>
#include <stdint.h>

typedef struct asm_elf_rela {
    uint32_t offset;        /* r_offset: where, in the section */
    uint32_t sym;           /* index into asm_elf_image.syms (0 = no symbol) */
    uint32_t type;          /* ISA relocation type */
    int32_t addend;
} asm_elf_rela;

typedef struct asm_elf_section {
    const char *name;
    uint32_t type, flags, addr, align, entsize;
    const void *data;       /* NULL for SHT_NOBITS (size is still the memory size) */
    uint32_t size;
    uint32_t offset;        /* file offset, from the ISA's layout (asm_elf_place) */
    const asm_elf_rela *relas;
    int nrelas;
} asm_elf_section;

typedef struct asm_elf_symbol {
    const char *name;
    uint32_t value, size;
    uint8_t bind, type;     /* STB_*, STT_* */
    uint16_t shndx;         /* section header index: 1 + index in asm_elf_image.secs, or SHN_* */
} asm_elf_symbol;

typedef struct asm_elf_phdr {
    uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
} asm_elf_phdr;

typedef struct asm_elf_image {
    uint16_t type, machine;
    uint32_t entry, flags;
    const asm_elf_phdr *phdrs; int nphdrs;
    const asm_elf_section *secs; int nsecs;
    const asm_elf_symbol *syms; int nsyms;   /* entry 0 is the null symbol; its fields are ignored */
    uint32_t content_end;   /* the layout cursor after the last content: the tables follow */
} asm_elf_image;

/* Size of the ELF header plus nphdrs program headers: where contents may start. */
uint32_t asm_elf_headers_size(int nphdrs);
/* The next file offset for a section aligned to align (a power of two) after *cursor, which
 * then moves past size bytes. Returns the offset. */
uint32_t asm_elf_place(uint32_t *cursor, uint32_t align, uint32_t size);

/* A file whose whole layout the ISA decides, as a vendor tool that is not a linker writes
 * it (aiebu's ELFIO-based writer): every section header in the ISA's order, string tables
 * included, no symbol table unless the ISA makes one. The section-name table is the one
 * section with is_names set: the writer fills it with "" and then every section's name in
 * header order (no sharing of suffixes), so its size is asm_elf_names_size(). */
typedef struct asm_elf_rawsec {
    const char *name;
    uint32_t type, flags, addr, offset, size, link, info, align, entsize;
    const void *data;       /* NULL: no bytes (SHT_NOBITS, or the name table) */
    int is_names;
} asm_elf_rawsec;

typedef struct asm_elf_raw {
    uint16_t type, machine;
    uint8_t osabi, abiversion;  /* e_ident[EI_OSABI], e_ident[EI_ABIVERSION] */
    uint32_t entry, flags;
    const asm_elf_phdr *phdrs; int nphdrs;
    const asm_elf_rawsec *secs; int nsecs;  /* section headers 1..nsecs (0 is the null one) */
    uint32_t shoff;         /* where the section header table goes */
} asm_elf_raw;

/* Bytes of the section-name table for these sections (see asm_elf_rawsec). */
uint32_t asm_elf_names_size(const asm_elf_rawsec *secs, int nsecs);
/* Write such an image; gaps between the ISA's offsets are zeros. 0 ok, -1 with err. */
int asm_elf_write_raw(const char *path, const asm_elf_raw *im, char *err, size_t errlen);

/* Write the image to path (regular file, pipe or device). Symbols: locals keep their order,
 * then globals in theirs; the symbol table's sh_info is the first global's index. The
 * tables (.rela* and .symtab aligned to 4, .strtab, .shstrtab) follow content_end, the
 * section headers follow them aligned to 4. 0 ok, -1 with err "PATH: reason". */
int asm_elf_write(const char *path, const asm_elf_image *im, char *err, size_t errlen);

#endif
