/* isa/ipu/link.h: the IPU relocation table (link_reloc.c) and the single-tile linker (link.c).
 * One row per R_COLOSSUS_* type: how its value is computed, where its field sits and what is
 * checked. */
#ifndef XPUSIM_IPU_LINK_H
#define XPUSIM_IPU_LINK_H
#include <stddef.h>
#include <stdint.h>

/* How a field sits in the bytes at the relocated place. */
enum {
    IPU_RF_NONE,    /* nothing written */
    IPU_RF_BYTES,   /* the whole `size` bytes are the value */
    IPU_RF_LOW,     /* the low `bits` bits of a 32-bit word; the instruction's other bits kept */
    IPU_RF_RUN      /* run/runall: value bits 11..0 at word bits 11..0, bits 15..12 at 19..16 */
};

typedef struct ipu_reloc_row {
    uint32_t type;      /* R_COLOSSUS_* */
    const char *name;   /* after R_COLOSSUS_ */
    uint8_t size;       /* bytes at the place the field lies in */
    uint8_t shift;      /* the value must be a multiple of 2^shift and is stored >> shift */
    uint8_t rel;        /* 1: the value is S + A - TMEM_REGION0_BASE_ADDR; else S + A */
    uint8_t bits;       /* the field's width: the stored value must be < 2^bits (64: unchecked) */
    uint8_t place;      /* how the field sits in the bytes (IPU_RF_*) */
} ipu_reloc_row;

extern const ipu_reloc_row ipu_reloc_rows[];
extern const int ipu_reloc_nrows;
const ipu_reloc_row *ipu_reloc_find(uint32_t type);

/* The value the field of row r holds for val (S + A): the alignment check, minus the tile
 * memory base for the relative types, the shift and the range check; -1 with why. The
 * assembler's linked-image path computes branch and run fields with it too (asm_enc.c). */
int ipu_reloc_value(const ipu_reloc_row *r, uint64_t val, uint32_t tmem_base, uint64_t *stored, char *why,
                    size_t whylen);
/* Store val (S + A) into the field at loc; -1 with why if misaligned or out of range. */
int ipu_reloc_apply(const ipu_reloc_row *r, uint8_t *loc, uint64_t val, uint32_t tmem_base, char *why,
                    size_t whylen);

/* Link relocatable objects into a single-tile executable at tmem_base. names[k] (may be NULL,
 * or NULL entries): the source an object was assembled from, for messages. entry: the entry
 * symbol (NULL: _start, else the first code section). 0 ok; -1 with err. */
int ipu_link(int nobj, const char *const *paths, const char *const *names, const char *out, uint32_t tmem_base,
             const char *entry, char *err, size_t errlen);

/* `xpusim asm --isa ipu` when an input is an object: sources assembled alone, then linked. */
struct sim_opts;
int ipu_link_inputs(int nin, const char *const *ins, const char *out, const struct sim_opts *opts, char *err,
                    size_t errlen);

/* Does path start with the ELF magic (an object to link rather than a source)? */
int ipu_is_object(const char *path);

#endif
