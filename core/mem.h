/* core/mem.h: address spaces built from regions.
 * A space is one of an ISA's memories (MCCP RAM, a DPU's WRAM or MRAM, Nyuzi's physical
 * memory). Addresses count in the space's addressing unit (1 byte, or 4 bytes for MCCP's
 * word-addressed RAM). Regions are RAM (host buffer, fast pointer path), ROM (read-only to
 * the simulated program, writable by loaders and the host) or MMIO (callbacks). Every access
 * returns a fault code instead of touching host memory out of bounds; the ISA turns codes
 * into stop reasons. Watchpoints live here so every ISA gets them for free; an ISA that reads
 * RAM through mem_ptr() must call mem_watch_check() when nwatch is non-zero. */
#ifndef XPUSIM_MEM_H
#define XPUSIM_MEM_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>

enum { MEM_R = 1, MEM_W = 2, MEM_X = 4, MEM_RW = 3, MEM_RWX = 7 };

typedef enum mem_fault {
    MEM_OK = 0,
    MEM_FAULT_UNMAPPED,
    MEM_FAULT_READONLY,
    MEM_FAULT_NOEXEC,
    MEM_FAULT_ALIGN,
    MEM_FAULT_SIZE,
    MEM_FAULT_DEVICE
} mem_fault;

typedef int (*mem_mmio_read_fn)(void *ctx, uint64_t offset, unsigned nbytes, uint64_t *val);
typedef int (*mem_mmio_write_fn)(void *ctx, uint64_t offset, unsigned nbytes, uint64_t val);

typedef struct mem_region {
    char name[32];
    uint64_t base, size;   /* in address units */
    uint8_t *data;         /* RAM/ROM backing store, size * addr_unit bytes; NULL for MMIO */
    unsigned perm;         /* MEM_R | MEM_W | MEM_X as seen by the simulated program */
    mem_mmio_read_fn rd;
    mem_mmio_write_fn wr;
    void *ctx;
    int owns_data;
} mem_region;

#define MEM_MAX_WATCH 32
typedef struct mem_watch {
    uint64_t addr, len;    /* address units */
    unsigned kind;         /* MEM_R, MEM_W or both */
    int id;
    uint64_t hits;         /* accesses that matched it (mem_watch_check) */
} mem_watch;

typedef struct mem_space {
    char name[32];
    unsigned addr_unit;    /* bytes per address step */
    unsigned word_bytes;   /* natural word size for dumps */
    int big_endian;
    mem_region *regions;
    int nregions, cap;
    mem_watch watches[MEM_MAX_WATCH];
    int nwatch;
    int next_watch_id;
    /* set by the accessors when a watchpoint matches; the debugger clears it */
    int watch_hit_id;
    uint64_t watch_hit_addr;
    unsigned watch_hit_kind;
    uint64_t fault_addr;   /* address of the last fault */
} mem_space;

void mem_space_init(mem_space *s, const char *name, unsigned addr_unit, unsigned word_bytes, int big_endian);
void mem_space_free(mem_space *s);
/* Add a zero-filled RAM/ROM region (data allocated here) or one over caller-owned data. */
mem_region *mem_add_ram(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm);
mem_region *mem_add_ram_ext(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm, uint8_t *data);
mem_region *mem_add_mmio(mem_space *s, const char *name, uint64_t base, uint64_t size, unsigned perm,
                         mem_mmio_read_fn rd, mem_mmio_write_fn wr, void *ctx);
mem_region *mem_find(const mem_space *s, uint64_t addr);

/* Program accesses: permission-, bounds- and watch-checked, in the space's byte order.
 * nbytes is 1, 2, 4 or 8 and must not exceed addr_unit * span of the region. */
int mem_read(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t *val);
int mem_write(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t val);
int mem_fetch(mem_space *s, uint64_t addr, unsigned nbytes, uint64_t *val);
/* Host/debugger/loader accesses: raw bytes, ignore permissions and watchpoints, never MMIO
 * side effects (MMIO regions read as faults). len in bytes, addr in address units. */
int mem_host_read(const mem_space *s, uint64_t addr, void *buf, size_t len);
int mem_host_write(mem_space *s, uint64_t addr, const void *buf, size_t len);
/* Fast path: host pointer to nbytes at addr inside one RAM region, or NULL. */
uint8_t *mem_ptr(const mem_space *s, uint64_t addr, size_t nbytes);

int mem_watch_add(mem_space *s, uint64_t addr, uint64_t len, unsigned kind);
int mem_watch_remove(mem_space *s, int id);
/* Record a hit if [addr, addr+len) overlaps a watch of this kind. Returns 1 on a hit. */
int mem_watch_check(mem_space *s, uint64_t addr, uint64_t len, unsigned kind);

const char *mem_fault_str(int fault);

/* Byte-order helpers for executors. */
static inline uint16_t mem_ld16le(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t mem_ld32le(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t mem_ld64le(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void mem_st16le(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void mem_st32le(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void mem_st64le(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static inline uint16_t mem_ld16be(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t mem_ld32be(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static inline void mem_st16be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void mem_st32be(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v; }

#endif
