# tests/nyuzi/tools/elf2hex.py: write an ELF program as the elf2hex / $readmemh text the reference
# emulator and the Verilator testbench load: PT_LOAD segments at their addresses, word 0
# replaced by a branch to the entry, one 32-bit word per line in memory byte order.
# Usage: python3 elf2hex.py IN.elf OUT.hex
import struct, sys
d = open(sys.argv[1], 'rb').read()
entry, phoff = struct.unpack_from('<II', d, 24)[0], struct.unpack_from('<I', d, 28)[0]
phnum = struct.unpack_from('<H', d, 44)[0]
mem = bytearray(0)
for i in range(phnum):
    p_type, off, va, pa, fs, ms, fl, al = struct.unpack_from('<8I', d, phoff + 32 * i)
    if p_type != 1: continue
    if len(mem) < va + ms: mem.extend(bytes(va + ms - len(mem)))
    mem[va:va + fs] = d[off:off + fs]
struct.pack_into('<I', mem, 0, 0xf6000000 | (entry // 4))
out = open(sys.argv[2], 'w')
for i in range(0, len(mem), 4): out.write(mem[i:i+4].hex() + '\n')
