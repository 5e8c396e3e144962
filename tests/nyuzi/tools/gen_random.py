# tests/nyuzi/tools/gen_random.py: random 4-thread Nyuzi program for cosimulation checks
# (docs/validation/nyuzi.md section 4): per thread ~300 random scalar, vector, masked, compare,
# load/store, block and gather instructions on the thread's own 4 KiB of random data.
# Usage: python3 gen_random.py SEED > r.S
import random, sys
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
ops3 = ['or','and','xor','add_i','sub_i','mull_i','mulh_u','ashr','shr','shl','mulh_i']
fops = ['add_f','sub_f','mul_f']
cmps = ['cmpeq_i','cmpne_i','cmpgt_i','cmpge_i','cmplt_i','cmple_i','cmpgt_u','cmpge_u','cmplt_u','cmple_u']
one = ['clz','ctz','sext_8','sext_16','move','itof']
L = []
L.append('\t.text\n\t.globl _start\n_start:\tli s0, 0xffffffff\n\tsetcr s0, 21\n\tgetcr s20, 0\n\tshl s21, s20, 12\n\tlea s22, data\n\tadd_i s22, s22, s21\n')
for r in range(1, 16):
    L.append('\tli s%d, %d\n' % (r, random.randint(-100000, 100000)))
for r in range(0, 8):
    L.append('\tload_v v%d, %d(s22)\n' % (r, r * 64))
for i in range(300):
    k = random.random()
    d = random.randint(1, 15); a = random.randint(1, 15); b = random.randint(1, 15)
    va, vb, vd = random.randint(0, 7), random.randint(0, 7), random.randint(0, 7)
    if k < 0.25: L.append('\t%s s%d, s%d, s%d\n' % (random.choice(ops3), d, a, b))
    elif k < 0.35: L.append('\t%s v%d, v%d, s%d\n' % (random.choice(ops3), vd, va, b))
    elif k < 0.45: L.append('\t%s v%d, v%d, v%d\n' % (random.choice(ops3), vd, va, vb))
    elif k < 0.50: L.append('\t%s_mask v%d, s%d, v%d, v%d\n' % (random.choice(ops3), vd, a, va, vb))
    elif k < 0.55: L.append('\t%s s%d, s%d, %d\n' % (random.choice(ops3[:5]), d, a, random.randint(-8192, 8191)))
    elif k < 0.62: L.append('\t%s s%d, v%d, v%d\n' % (random.choice(cmps), d, va, vb))
    elif k < 0.66: L.append('\t%s s%d, s%d, s%d\n' % (random.choice(cmps), d, a, b))
    elif k < 0.70: L.append('\t%s s%d, s%d\n' % (random.choice(one), d, a))
    elif k < 0.74: L.append('\t%s v%d, v%d\n' % (random.choice(one), vd, va))
    elif k < 0.78: L.append('\tload_32 s%d, %d(s22)\n' % (d, random.randint(0, 127) * 4))
    elif k < 0.82: L.append('\tstore_32 s%d, %d(s22)\n' % (d, random.randint(0, 127) * 4))
    elif k < 0.84: L.append('\tstore_8 s%d, %d(s22)\n' % (d, random.randint(0, 511)))
    elif k < 0.86: L.append('\tload_u16 s%d, %d(s22)\n' % (d, random.randint(0, 255) * 2))
    elif k < 0.89: L.append('\tload_v v%d, %d(s22)\n' % (vd, random.randint(0, 7) * 64))
    elif k < 0.92: L.append('\tstore_v_mask v%d, s%d, %d(s22)\n' % (vd, a, random.randint(0, 7) * 64))
    elif k < 0.94: L.append('\tgetlane s%d, v%d, %d\n' % (d, va, random.randint(0, 15)))
    elif k < 0.96: L.append('\tshuffle v%d, v%d, v%d\n' % (vd, va, vb))
    else: L.append('\tand v9, v%d, 63\n\tshl v9, v9, 2\n\tadd_i v9, v9, s22\n\tload_gath v%d, (v9)\n' % (va, vd))
L.append('\tmove s0, 1\n\tshl s0, s0, s20\n\tsetcr s0, 20\n1:\tb 1b\n\t.data\n\t.align 4096\ndata:\n')
for t in range(4):
    for i in range(1024):
        L.append('\t.long %d\n' % random.randint(0, 0xffffffff))
sys.stdout.write(''.join(L))
