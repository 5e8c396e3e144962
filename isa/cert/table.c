/* isa/cert/table.c: the CERT control-code instruction table, one row per opcode per spec
 * version, from aiebu's isa-spec.yaml (operands in encoding order after the opcode byte and
 * its zero pad byte). Decode, the debugger's disassembly, aiebu-style listings and the
 * assembler's encoder all read these rows, so an encoding is written down once. Also the
 * operand name helpers (tiles, actors, registers) shared by the disassembler and the
 * job-runner's reports. */
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include "cert.h"

#define PAD8 {CK_PAD, 1, NULL}
#define PAD16 {CK_PAD, 2, NULL}
#define C8(n) {CK_CONST, 1, n}
#define C16(n) {CK_CONST, 2, n}
#define C32(n) {CK_CONST, 4, n}
#define REG(n) {CK_REG, 1, n}
#define PAGE(n) {CK_PAGE, 2, n}
#define DESC(n) {CK_DESC, 2, n}
#define L CERT_SPEC_LATEST
#define B CERT_SPEC_ALL

const cert_opdef cert_ops[] = {
    {0x00, 8, B, CC_JOB, 3, "START_JOB", {C16("job_id"), {CK_JOBSIZE, 2, "size"}, PAD16}},
    {0x01, 8, B, CC_UCDMA, 4, "UC_DMA_WRITE_DES", {REG("wait_handle"), PAD8, DESC("descriptor_ptr"), PAD16}},
    {0x02, 4, B, CC_UCDMA, 2, "WAIT_UC_DMA", {REG("wait_handle"), PAD8}},
    {0x03, 16, B, CC_AXI_WRITE, 4, "MASK_WRITE_32", {PAD16, C32("address"), C32("mask"), C32("value")}},
    {0x04, 12, L, CC_LOAD, 4, "LOAD_CORES", {PAD16, C32("core_elf_id"), PAGE("core_elf_host_addr_offset"), PAD16}},
    {0x05, 12, B, CC_AXI_WRITE, 3, "WRITE_32", {PAD16, C32("address"), C32("value")}},
    {0x06, 8, B, CC_WAIT, 5, "WAIT_TCTS",
     {{CK_TILE, 2, "tile_id"}, {CK_ACTOR, 1, "actor_id"}, PAD8, C8("target_tcts"), PAD8}},
    {0x07, 4, B, CC_JOB, 1, "END_JOB", {PAD16}},
    {0x08, 4, B, CC_SCHED, 1, "YIELD", {PAD16}},
    {0x09, 4, B, CC_UCDMA, 1, "UC_DMA_WRITE_DES_SYNC", {DESC("descriptor_ptr")}},
    {0x0b, 12, B, CC_AXI_WRITE, 4, "WRITE_32_D", {C8("flags"), PAD8, C32("address"), C32("value")}},
    {0x0c, 8, B, CC_AXI_READ, 3, "READ_32", {REG("value"), PAD8, C32("address")}},
    {0x0d, 4, B, CC_AXI_READ, 2, "READ_32_D", {REG("address"), REG("value")}},
    {0x0e, 8, B, CC_PATCH, 3, "APPLY_OFFSET_57", {DESC("table_ptr"), C16("num_entries"), C16("offset")}},
    {0x0f, 8, B, CC_REG, 3, "ADD", {REG("dest"), PAD8, C32("value")}},
    {0x10, 8, B, CC_REG, 3, "MOV", {REG("dest"), PAD8, C32("value")}},
    {0x11, 4, B, CC_BARRIER, 2, "LOCAL_BARRIER", {{CK_LB, 1, "local_barrier_id"}, C8("num_participants")}},
    {0x12, 8, B, CC_BARRIER, 3, "REMOTE_BARRIER", {{CK_RB, 1, "remote_barrier_id"}, PAD8, C32("party_mask")}},
    {0x13, 12, B, CC_POLL, 3, "POLL_32", {PAD16, C32("address"), C32("value")}},
    {0x14, 16, B, CC_POLL, 4, "MASK_POLL_32", {PAD16, C32("address"), C32("mask"), C32("value")}},
    {0x15, 4, B, CC_TRACE, 1, "TRACE", {C16("info")}},
    {0x16, 4, B, CC_SCHED, 1, "NOP", {PAD16}},
    {0x17, 8, B, CC_JOB, 3, "START_JOB_DEFERRED", {C16("job_id"), {CK_JOBSIZE, 2, "size"}, PAD16}},
    {0x18, 4, B, CC_JOB, 1, "LAUNCH_JOB", {C16("job_id")}},
    {0x19, 8, L, CC_LOAD, 3, "PREEMPT",
     {C16("id"), PAGE("save_control_code_offset"), PAGE("restore_control_code_offset")}},
    {0x19, 8, CERT_SPEC_2502, CC_LOAD, 3, "PREEMPTION_CHECKPOINT",
     {C16("id"), PAGE("save_control_code_offset"), PAGE("restore_control_code_offset")}},
    {0x1a, 12, L, CC_LOAD, 4, "LOAD_PDI", {PAD16, C32("pdi_id"), PAGE("pdi_host_addr_offset"), PAD16}},
    {0x1a, 6, CERT_SPEC_2502, CC_LOAD, 2, "LOAD_PDI", {C16("pdi_id"), PAGE("pdi_host_addr_offset")}},
    {0x1b, 4, B, CC_LOAD, 1, "LOAD_LAST_PDI", {PAD16}},
    {0x1c, 8, B, CC_TRACE, 2, "SAVE_TIMESTAMPS", {PAD16, C32("unq_id")}},
    {0x1d, 8, L, CC_SCHED, 2, "SLEEP", {PAD16, C32("target")}},
    {0x1e, 12, L, CC_AXI_READ, 3, "SAVE_REGISTER", {PAD16, C32("address"), C32("unq_id")}},
    {0x1f, 8, L, CC_JOB, 3, "START_COND_JOB_PREEMPT", {C16("job_id"), {CK_JOBSIZE, 2, "size"}, PAD16}},
    {0x20, 8, L, CC_LOAD, 2, "LOAD_CORES_CP", {PAD16, C32("core_elf_id")}},
    {0x21, 12, L, CC_POLL, 3, "REL_ACQ_SYNC", {PAD16, C32("rel_address"), C32("acq_address")}},
    {0x22, 20, L, CC_POLL, 5, "UC_DMA_MASK_POLL_EXT",
     {PAD16, C32("address_high"), C32("address_low"), C32("mask"), C32("value")}},
    {0x23, 8, L, CC_PATCH, 3, "APPLY_OFFSET_PL", {DESC("table_ptr"), C16("buffer_id"), PAD16}},
    {0xff, 4, B, CC_JOB, 1, "EOF", {PAD16}},
};
const int cert_nops = (int)(sizeof cert_ops / sizeof cert_ops[0]);

const cert_opdef *cert_op_by_code(unsigned code, int spec)
{
    for (int i = 0; i < cert_nops; i++)
        if (cert_ops[i].code == code && (cert_ops[i].specs & spec))
            return &cert_ops[i];
    return NULL;
}

/* Older and alternative spellings the assemblers accept for a row's mnemonic. */
static const struct { const char *alias, *name; } aliases[] = {
    {"PREEMPTION_CHECKPOINT", "PREEMPT"},
    {"PREEMPT", "PREEMPTION_CHECKPOINT"},
};

static const cert_opdef *find_name(const char *name, size_t len, int spec)
{
    for (int i = 0; i < cert_nops; i++) {
        const char *n = cert_ops[i].name;
        if ((cert_ops[i].specs & spec) && strlen(n) == len && !strncasecmp(n, name, len))
            return &cert_ops[i];
    }
    return NULL;
}

const cert_opdef *cert_op_by_name(const char *name, size_t len, int spec)
{
    const cert_opdef *r = find_name(name, len, spec);
    for (size_t a = 0; !r && a < sizeof aliases / sizeof aliases[0]; a++)
        if (strlen(aliases[a].alias) == len && !strncasecmp(aliases[a].alias, name, len))
            r = find_name(aliases[a].name, strlen(aliases[a].name), spec);
    return r;
}

int cert_spec_parse(const char *s)
{
    if (!strcmp(s, "2025.02"))
        return CERT_SPEC_2502;
    if (!strcmp(s, "latest"))
        return CERT_SPEC_LATEST;
    return 0;
}

const char *cert_spec_name(int spec) { return spec == CERT_SPEC_2502 ? "2025.02" : "latest"; }

static uint32_t get_le(const uint8_t *p, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

int cert_decode(const uint8_t *p, size_t avail, int spec, cert_insn *out)
{
    if (avail < 1)
        return 0;
    const cert_opdef *op = cert_op_by_code(p[0], spec);
    if (!op)
        return -1;
    if (avail < op->size)
        return 0;
    out->op = op;
    out->size = op->size;
    int pad_bad = p[1] != 0;
    unsigned at = 2;
    for (int i = 0; i < op->nargs; i++) {
        /* natural alignment holds by construction of the rows: each field starts at a
         * multiple of its width (checked by tests/cert/test_table.c) */
        out->v[i] = get_le(p + at, op->args[i].bytes);
        if (op->args[i].kind == CK_PAD && out->v[i])
            pad_bad = 1;
        at += op->args[i].bytes;
    }
    for (int i = op->nargs; i < CERT_MAX_ARGS; i++)
        out->v[i] = 0;
    return pad_bad ? -2 : op->size;
}

uint32_t cert_arg_value(const cert_insn *in, const char *name, uint32_t def)
{
    for (int i = 0; i < in->op->nargs; i++)
        if (in->op->args[i].name && !strcmp(in->op->args[i].name, name))
            return in->v[i];
    return def;
}

void cert_tile_name(uint32_t tile, char *buf, size_t n)
{
    snprintf(buf, n, "TILE_%u_%u", (unsigned)((tile >> 5) & 0x7F), (unsigned)(tile & 0x1F));
}

void cert_actor_name(uint32_t actor, char *buf, size_t n)
{
    if (actor > 5)
        snprintf(buf, n, "MM2S_%u", (unsigned)(actor - 6));
    else
        snprintf(buf, n, "S2MM_%u", (unsigned)actor);
}

void cert_reg_name(uint32_t reg, char *buf, size_t n)
{
    if (reg < CERT_NLOCAL_REG)
        snprintf(buf, n, "$r%u", (unsigned)reg);
    else if (reg < CERT_NREG)
        snprintf(buf, n, "$g%u", (unsigned)(reg - CERT_NLOCAL_REG));
    else
        snprintf(buf, n, "$r?%u", (unsigned)reg);
}

void cert_format_args(const cert_insn *in, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    int first = 1;
    for (int i = 0; i < in->op->nargs && len < n; i++) {
        const cert_arg *a = &in->op->args[i];
        char tmp[32];
        uint32_t v = in->v[i];
        switch (a->kind) {
        case CK_PAD:
        case CK_JOBSIZE:
            continue;
        case CK_REG: cert_reg_name(v, tmp, sizeof tmp); break;
        case CK_LB: snprintf(tmp, sizeof tmp, "$lb%u", (unsigned)v); break;
        case CK_RB:
            if (v)
                snprintf(tmp, sizeof tmp, "$rb%u", (unsigned)(v - 1));
            else
                snprintf(tmp, sizeof tmp, "$rb?0"); /* encoding 0 names no remote barrier */
            break;
        case CK_TILE: cert_tile_name(v, tmp, sizeof tmp); break;
        case CK_ACTOR: cert_actor_name(v, tmp, sizeof tmp); break;
        default: snprintf(tmp, sizeof tmp, "0x%X", (unsigned)v); break;
        }
        int w = snprintf(buf + len, n - len, "%s%s", first ? "" : ", ", tmp);
        if (w < 0)
            break;
        len += (size_t)w;
        first = 0;
    }
}

void cert_format(const cert_insn *in, char *buf, size_t n)
{
    char args[160];
    cert_format_args(in, args, sizeof args);
    if (args[0])
        snprintf(buf, n, "%s %s", in->op->name, args);
    else
        snprintf(buf, n, "%s", in->op->name);
}
