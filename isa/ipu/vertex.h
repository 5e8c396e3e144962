/* isa/ipu/vertex.h: what vertex.c (the vertex file, layout, stub, report) and vertex_state.c
 * (the vertex state's fields: plain numbers and pointers, and PopLibs' compact field types)
 * share. Private to the --vertex host protocol; the rest of the model sees only tile.h's
 * ipu_vertex_host_file / ipu_vertex_report / ipu_vertex_free. */
#ifndef XPUSIM_IPU_VERTEX_H
#define XPUSIM_IPU_VERTEX_H
#include <stdint.h>
#include <stddef.h>
#include "tile.h"

#define V_MAX_TENSORS 256
#define V_MAX_FIELDS 1024
#define V_MAX_COUNT (1u << 20)   /* elements of one tensor (more than any tile holds) */
#define V_MAX_STATE 65536u       /* bytes of vertex state, DeltaN tables included */
#define V_MAX_LIST 4096          /* entries of one DeltaN list (its count has 12 bits) */
#define V_NAME 64

enum { T_F32, T_F16, T_I32, T_U32, T_I16, T_U16, T_I8, T_U8, T_NTYPES };
typedef struct ipu_vtype { const char *name; unsigned size; char kind; } ipu_vtype;
extern const ipu_vtype ipu_vtypes[T_NTYPES];

typedef struct ipu_vtensor {
    char name[V_NAME];
    int type, line, interleaved, output;
    uint32_t count, align, addr;
    uint8_t *init;             /* count * size bytes, or NULL: zeros */
    char *out_path;            /* output NAME @ FILE: raw little-endian bytes */
} ipu_vtensor;

/* A reference to (part of) a tensor: NAME[+BYTES][:COUNT]; count 0 = to the tensor's end. */
typedef struct ipu_vref {
    char name[V_NAME];
    int tensor;                /* index once resolved, -1 before */
    uint32_t off, count;
} ipu_vref;

/* Field kinds. F_SPTR32/64/128: PopLibs' SCALED_PTR32/64/128 (u16); F_SSPAN: ShortSpan (u32);
 * F_DELTAN: a VectorList<DELTAN> (u32 base|n, u16 ScaledPtr32 of its table); F_PTRS / F_SPANS:
 * a u32 pointer to a table of addresses / of (address, count) pairs (Vector<Vector<T>>);
 * F_SSPANS: the same with a table of ShortSpans. */
enum { F_NUM, F_PTR, F_SPAN, F_SIZE, F_ALIGN, F_PAD, F_SPTR32, F_SPTR64, F_SSPAN, F_DELTAN, F_PTRS, F_SPANS, F_SPTR128, F_SSPANS };
typedef struct ipu_vfield {
    int kind, type, line;
    uint64_t bits;             /* F_NUM: the value's bits; F_ALIGN/F_PAD: bytes */
    ipu_vref ref;              /* pointer-like kinds */
    ipu_vref *list;            /* F_DELTAN, F_PTRS, F_SPANS: its vectors */
    int nlist;
    uint32_t table;            /* list kinds: offset of the table in the state (set by the layout) */
} ipu_vfield;

struct ipu_vertex {
    char path[512], dir[512], codelet[512], entry[256], defines[128], include[512];
    int line_codelet, line_entry;
    int supervisor, workers;
    uint32_t scratch;
    ipu_vtensor *t;
    int nt;
    ipu_vfield *f;
    int nf;
    uint32_t entry_addr, stub, stub_words, state, state_size, scratch_base, end;
    char *names;               /* symbol names added to the image (live until the machine dies) */
};
typedef struct ipu_vertex ipu_vertex;

/* vertex.c helpers the state parser uses. */
int ipu_verr(char *err, size_t n, const ipu_vertex *v, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
char *ipu_vword(char **p);
char *ipu_vskip_ws(char *s);
int ipu_vis_name(const char *s);
int ipu_vparse_u32(const char *s, uint32_t max, uint32_t *out);
int ipu_vtype_of(const char *s);
int ipu_vparse_value(const char *s, int ty, uint64_t *bits);
void ipu_vput_le(uint8_t *p, uint64_t v, unsigned n);
int ipu_vfind_tensor(const ipu_vertex *v, const char *name);

/* vertex_state.c */
/* One `state KIND ARGS` line (s = after "state"). 0 ok, -1 with err (file:line). */
int ipu_vstate_parse(ipu_vertex *v, char *s, int line, char *err, size_t n);
/* Resolve the tensor names of every field and check ranges that need only the file. */
int ipu_vstate_resolve(ipu_vertex *v, char *err, size_t n);
/* The state's size in bytes (fields, each aligned to its size, then the DeltaN tables);
 * sets each DeltaN field's table offset. 0 ok, -1 past V_MAX_STATE. */
int ipu_vstate_layout(ipu_vertex *v, char *err, size_t n);
/* Write the state (v->state_size bytes at out) once the tensors have addresses; checks
 * what only addresses decide (a scaled pointer's alignment and 16-bit reach...). */
int ipu_vstate_write(const ipu_vertex *v, const ipu_machine *im, uint8_t *out, char *err, size_t n);
void ipu_vstate_free(ipu_vertex *v);

#endif
