# tests/nyuzi/rtl/gen.py: generates the timing micro-benchmarks (python3 gen.py NAME THREADS > NAME.THREADS.S).
# Each times its body twice between two "getcr sN, 6" (cycle counter) and prints the
# deltas per thread on the serial port; the same program runs on xpusim and on the RTL.
import sys
BODIES = {
 'dep_int': ['add_i s1, s1, 1'] * 32,
 'indep_int': ['add_i s%d, s20, 1' % (1 + i % 8) for i in range(32)],
 'indep_int_waw': ['add_i s1, s20, 1'] * 32,
 'dep_vec': ['add_i v1, v1, s20'] * 16,
 'dep_fp': ['add_f s1, s1, s20'] * 16,
 'dep_mul': ['mull_i s1, s1, s20'] * 16,
 'indep_fp': ['add_f s%d, s20, s20' % (1 + i % 8) for i in range(32)],
 'mix_int_fp': [('add_f s%d, s20, s20' if i % 2 else 'add_i s%d, s20, 1') % (1 + i % 8) for i in range(32)],
 'load_use': ['load_32 s1, (s10)', 'add_i s2, s1, 1'] * 8,
 'load_indep': ['load_32 s%d, (s10)' % (1 + i % 8) for i in range(16)],
 'store_seq': ['store_32 s20, %d(s10)' % (4 * (i % 16)) for i in range(16)],
 'taken_br': sum([['b 1f', '1:'] for i in range(16)], []),
 'nottaken_br': ['bz s20, 9f'] * 16 + ['9:'],
 'call_ret': sum([['call 8f', 'b 1f', '8: ret', '1:'] for i in range(4)], []),
 'gather': ['load_gath v2, (v3)'] * 4,
 'block_load': ['load_v v%d, (s10)' % (1 + i % 8) for i in range(16)],
 'getcr': ['getcr s%d, 0' % (1 + i % 8) for i in range(16)],
 'l2miss_load': ['load_32 s%d, %d(s11)' % (1 + i % 8, 64 * i) for i in range(16)],
 'nops16': ['nop'] * 16,
 'ind16': ['add_i s%d, s20, 1' % (1 + i) for i in range(16)],
 'ind8': ['add_i s%d, s20, 1' % (1 + i) for i in range(8)],
 'ind4': ['add_i s%d, s20, 1' % (1 + i) for i in range(4)],
 'ind1': ['add_i s1, s20, 1'],
 'empty': [],
 'ld4': ['load_32 s%d, (s10)' % (1 + i) for i in range(4)],
 'ld1': ['load_32 s1, (s10)'],
 'fp4': ['add_f s%d, s20, s20' % (1 + i) for i in range(4)],
 'l2miss_dep': ['load_32 s1, (s11)', 'add_i s2, s1, 1'],
 'l2miss_2': ['load_32 s1, (s11)', 'load_32 s2, 64(s11)', 'add_i s3, s2, 1'],
 'io_load': ['load_32 s1, (s26)', 'add_i s2, s1, 1'],
 'io_store': ['store_32 s20, (s26)', 'add_i s2, s20, 1'],
 'io_store2': ['store_32 s20, (s26)', 'store_32 s20, (s26)'],
 'ld_sync': ['load_sync s1, (s10)', 'add_i s2, s1, 1'],
 'st_sync': ['load_sync s1, (s10)', 'store_sync s2, (s10)', 'add_i s3, s2, 1'],
 'digits': ['move s6, 8', 'move s12, 0x1f3', '2: shr s4, s12, 28', 'cmplt_u s7, s4, 10', 'bz s7, 3f', 'add_i s4, s4, 48', 'b 4f', '3: add_i s4, s4, 87', '4: store_32 s4, (s26)', 'shl s12, s12, 4', 'sub_i s6, s6, 1', 'bnz s6, 2b'],
 'brloop': ['move s6, 8', '2: sub_i s6, s6, 1', 'bnz s6, 2b'],
 'br_fwd': ['b 1f', '1: add_i s1, s1, 1', 'b 1f', '1: add_i s1, s1, 1'],
 'syscall1': ['syscall 0'],
 'syscall2': ['syscall 0', 'syscall 0'],
 'eret_only': ['lea s27, 1f', 'setcr s27, 2', 'eret', '1:'],
 'l2hit_dep': ['dinvalidate s10', 'load_32 s1, (s10)', 'add_i s2, s1, 1'],
 'l2hit_ind': ['dinvalidate s10', 'load_32 s1, (s10)'],
 'dinv': ['dinvalidate s10'],
 'gath_l2hit': ['dinvalidate s10', 'load_gath v2, (v3)'],
 'l2hit_evict': ['load_32 s1, (s11)', 'li s3, 0x101000', 'load_32 s2, (s3)', 'li s3, 0x102000', 'load_32 s2, (s3)', 'li s3, 0x103000', 'load_32 s2, (s3)', 'li s3, 0x104000', 'load_32 s2, (s3)', 'load_32 s4, (s11)', 'add_i s5, s4, 1'],
 'membar_store': ['store_32 s20, (s10)', 'membar'] * 8,
}
name = sys.argv[1]
body = BODIES[name]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 1
out = []
out.append('''\t.text\n\t.globl _start\n_start:\n''')
if threads > 1:
    out.append('\tli s0, %d\n\tsetcr s0, 21\n' % ((1 << threads) - 1))
out.append('''\tgetcr s25, 0
\tlea s10, buf
\tshl s24, s25, 6
\tadd_i s10, s10, s24
\tli s11, 0x100000
\tshl s24, s25, 14
\tadd_i s11, s11, s24
\tmove s20, 1
\tlea s27, trap_handler
\tsetcr s27, 1
\tli s26, 0xffff0004
\tlea s9, lanes
\tload_v v3, (s9)
\tshl v3, v3, 2
\tadd_i v3, v3, s10
\tload_32 s1, (s10)
\tmove s21, 2
\tmove s1, 1
\t.align 64
loop:
\tgetcr s22, 6
''')
out += ['\t%s\n' % l for l in body]
out.append('''\tgetcr s23, 6
\tsub_i s12, s23, s22
\tcmpeq_i s13, s21, 2
\tbz s13, 7f
\tmove s14, s12
7:\tsub_i s21, s21, 1
\tbnz s21, loop
# print thread id and delta as hex: "T:XXXXXXXX\\n", threads in turn
\tlea s2, turn
1:\tload_32 s3, (s2)
\tcmpeq_i s3, s3, s25
\tbz s3, 1b
\tli s5, 0xffff0048
\tadd_i s4, s25, 48
\tstore_32 s4, (s5)
\tmove s4, 58
\tstore_32 s4, (s5)
\tmove s6, 8
\tmove s15, s12
\tmove s12, s14
2:\tshr s4, s12, 28
\tcmplt_u s7, s4, 10
\tbz s7, 3f
\tadd_i s4, s4, 48
\tb 4f
3:\tadd_i s4, s4, 87
4:\tstore_32 s4, (s5)
\tshl s12, s12, 4
\tsub_i s6, s6, 1
\tbnz s6, 2b
\tmove s4, 32
\tstore_32 s4, (s5)
\tmove s12, s15
\tmove s6, 8
6:\tshr s4, s12, 28
\tcmplt_u s7, s4, 10
\tbz s7, 3f
\tadd_i s4, s4, 48
\tb 4f
3:\tadd_i s4, s4, 87
4:\tstore_32 s4, (s5)
\tshl s12, s12, 4
\tsub_i s6, s6, 1
\tbnz s6, 6b
\tmove s4, 10
\tstore_32 s4, (s5)
\tadd_i s3, s25, 1
\tstore_32 s3, (s2)
\tmove s0, 1
\tshl s0, s0, s25
\tsetcr s0, 20
5:\tb 5b
trap_handler:\tgetcr s27, 2
\tadd_i s27, s27, 4
\tsetcr s27, 2
\teret
\t.data
\t.align 64
lanes:\t.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
turn:\t.long 0
\t.align 64
buf:\t.space 1024
''')
sys.stdout.write(''.join(out))
