# tests/nyuzi/rtl/gen_mem.py: generates the memory-system and multi-core timing
# micro-benchmarks (python3 gen_mem.py NAME CORES THREADS > NAME.cCtT.S). The program starts
# THREADS threads on each of CORES cores (CR 21 mask; the RTL and xpusim have 4 threads per
# core), times its body twice per thread between two "getcr sN, 6" (cycle counter) and
# prints "R:FIRST SECOND" per thread in rank order (rank = core * THREADS + thread) on the
# serial port. The same image runs on the Verilator RTL built with CORES cores and on
# `xpusim run -o cores=CORES`. Registers the body may use: s1-s19 except s8-s11, v1-v31.
# Given to the body: s8 rank, s9 the address of a shared 64-byte line (`shared`, zero at
# start), s10 a private line of the rank (buf + 64 * rank), s11 a private 4 KiB region that
# is fresh (never touched) in each pass (0x100000 + 16 KiB * rank + 4 KiB * pass), s19 the
# pass (0, 1), s20 = 1.
import os
import sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_print  # noqa: E402 (the shared print code, found beside this file)

def unroll(lines, n):
    return sum([list(lines) for _ in range(n)], [])

# Each body is a list of assembly lines (labels 8: and 9: are free for the body).
BODIES = {
    # four threads (or cores) incrementing one counter with load_sync/store_sync, eight
    # successful increments each (a failed store_sync retries)
    'llsc': ['move s1, 8',
             '8: load_sync s2, (s9)', 'add_i s2, s2, 1', 'store_sync s2, (s9)', 'bz s2, 8b',
             'sub_i s1, s1, 1', 'bnz s1, 8b'],
    # sixteen whole-line vector stores to lines no cache holds
    'vstream': ['store_v v1, %d(s11)' % (64 * i) for i in range(16)] + ['membar'],
    # 64 KiB vector copy (split between the threads: 64 KiB / (cores * threads) each)
    'memcpy': ['move s3, MEMCPY_LINES', 'move s4, s12', 'move s5, s13',
               '8: load_v v1, (s4)', 'store_v v1, (s5)', 'add_i s4, s4, 64', 'add_i s5, s5, 64',
               'sub_i s3, s3, 1', 'bnz s3, 8b', 'membar'],
    # eight stores to fresh lines, each flushed right after (dirty in the L2)
    'dflush_dirty': ['move s3, s11'] + unroll(['store_32 s20, (s3)', 'dflush s3', 'add_i s3, s3, 64'], 8) + ['membar'],
    # eight flushes of lines that are in the L2 and clean (loaded just before the timed body)
    'dflush_clean': ['move s3, s11'] + unroll(['dflush s3', 'add_i s3, s3, 64'], 8) + ['membar'],
    # a gather whose sixteen lanes miss in L1 and L2 (sixteen fresh lines), then a use
    'gather_miss': ['shl v4, v31, 6', 'add_i v4, v4, s11', 'load_gath v2, (v4)', 'add_i v5, v2, s20'],
    # two threads (ranks 0 and 1) passing a flag back and forth eight times each
    'pingpong': ['shl s3, s19, 4', 'add_i s4, s3, 16', 'add_i s3, s3, s8',
                 '8: load_32 s5, (s9)', 'cmpeq_i s6, s5, s3', 'bz s6, 8b',
                 'add_i s5, s3, 1', 'store_32 s5, (s9)', 'add_i s3, s3, 2',
                 'cmplt_i s6, s3, s4', 'bnz s6, 8b'],
    # a matrix-vector style kernel split over every thread: each rank multiplies a shared
    # 8-line block (B) by its own 8 scalars of A and stores its 8 result lines
    'kernel': ['move s3, 8', 'move s4, s15', 'move s5, s16', 'move s6, s17', 'move v3, 0',
               '8: load_32 s7, (s4)', 'load_v v1, (s5)', 'mull_i v2, v1, s7', 'add_i v3, v3, v2',
               'store_v v3, (s6)', 'add_i s4, s4, 4', 'add_i s5, s5, 64', 'add_i s6, s6, 64',
               'sub_i s3, s3, 1', 'bnz s3, 8b', 'membar'],
    # back-to-back dflush / dinvalidate of four lines just written
    'dfdi': ['move s3, s11'] + unroll(['store_32 s20, (s3)', 'dflush s3', 'dinvalidate s3', 'add_i s3, s3, 64'], 4) + ['membar'],
    # store, wait for its acknowledgement, load the same word (fresh lines)
    'st_ack_ld': ['move s3, s11'] + unroll(['store_32 s20, (s3)', 'membar', 'load_32 s1, (s3)', 'add_i s2, s1, 1', 'add_i s3, s3, 64'], 8),
    # a whole-line block store to a line the L2 lacks, acknowledged, then a load of it
    'blkst_miss': ['move s3, s11'] + unroll(['store_v v1, (s3)', 'membar', 'load_32 s1, (s3)', 'add_i s2, s1, 1', 'add_i s3, s3, 64'], 8),
}

# Set-up the body needs before the timed region (not timed, run once per pass).
SETUP = {
    'memcpy': ['li s12, 0x400000', 'li s13, 0x500000', 'move s14, MEMCPY_LINES', 'shl s14, s14, 6',
               'mull_i s14, s14, s8', 'add_i s12, s12, s14', 'add_i s13, s13, s14'],
    'kernel': ['li s15, 0x600000', 'shl s14, s8, 5', 'add_i s15, s15, s14',
               'li s16, 0x610000', 'li s17, 0x620000', 'shl s14, s8, 9', 'add_i s17, s17, s14'],
    'dflush_clean': ['move s3, s11'] + unroll(['load_32 s1, (s3)', 'add_i s3, s3, 64'], 8),
}

# Session 34 (nyuzi-cover): bodies for the rest of issue 15 pt 1 and 2. Every one of these
# starts with a barrier (BARRIER below, in the set-up: an LL/SC count of the ranks at `bar`,
# then a spin until all ranks of this pass arrived), so that on 2 and 4 cores the ranks' timed
# bodies overlap and their misses meet on the bus.
GATHER_V4 = ['shl v4, v31, 6', 'add_i v4, v4, s11']    # v4: sixteen lines of s11
BODIES.update({
    # a scatter whose sixteen lanes miss in L1 and L2 (sixteen fresh lines), acknowledged
    'scat_miss': GATHER_V4 + ['store_scat v31, (v4)', 'membar'],
    # the same sixteen lines, which the set-up loaded and then pushed out of the L1 (EVICT:
    # in the L2, not in the L1)
    'scat_l2': ['store_scat v31, (v4)', 'membar'],
    # the same to lines the set-up loaded (in L1 and L2)
    'scat_l1': ['store_scat v31, (v4)', 'membar'],
    # the same to lines the set-up stored to (dirty in the L2; the stores' acknowledgements
    # put them in the L1 too)
    'scat_st': ['store_scat v31, (v4)', 'membar'],
    # a gather of sixteen lines the L2 holds and the L1 does not (EVICT), then a use
    'gath_l2': ['load_gath v2, (v4)', 'add_i v5, v2, s20'],
    # a gather of sixteen lines the set-up stored to (in the L2 and, by the acknowledgements,
    # in the L1), then a use
    'gath_st': ['load_gath v2, (v4)', 'add_i v5, v2, s20'],
    # sixteen store_32 to one fresh line back to back (write-combining in the store queue)
    'wcomb': ['store_32 s20, %d(s11)' % (4 * i) for i in range(16)] + ['membar'],
    # four stores to one fresh line, each after a short wait (before the L2 answers) and after
    # a long wait (after it answered), two lines each
    'wc_gap_s': ['move s3, s11'] + unroll(unroll(['store_32 s20, (s3)', 'move s4, 2', '9: sub_i s4, s4, 1', 'bnz s4, 9b'], 4) + ['add_i s3, s3, 64'], 2) + ['membar'],
    'wc_gap_l': ['move s3, s11'] + unroll(unroll(['store_32 s20, (s3)', 'move s4, 40', '9: sub_i s4, s4, 1', 'bnz s4, 9b'], 4) + ['add_i s3, s3, 64'], 2) + ['membar'],
    # sixteen store_32 to sixteen fresh lines back to back (more stores than the store queue
    # holds for the thread), acknowledged
    'sbfull': ['store_32 s20, %d(s11)' % (64 * i) for i in range(16)] + ['membar'],
    # dinvalidate of a line made dirty in the L2 (store acknowledged, no dflush), then a load of
    # it, four fresh lines
    'dinv_dirty': ['move s3, s11'] + unroll(['store_32 s20, (s3)', 'membar', 'dinvalidate s3', 'load_32 s1, (s3)', 'add_i s2, s1, 1', 'add_i s3, s3, 64'], 4) + ['membar'],
    # dinvalidate right behind the store (its acknowledgement still pending), four fresh lines
    'dinv_pend': ['move s3, s11'] + unroll(['store_32 s20, (s3)', 'dinvalidate s3', 'add_i s3, s3, 64'], 4) + ['membar'],
    # dinvalidate of four lines the rank's L1 holds (loaded by the set-up), then a load of each
    'dinv_held': ['move s3, s11'] + unroll(['dinvalidate s3', 'load_32 s1, (s3)', 'add_i s2, s1, 1', 'add_i s3, s3, 64'], 4),
    # dinvalidate of four lines the NEXT rank loaded (another core's L1 holds them on t1)
    'dinv_other': unroll(['dinvalidate s3', 'add_i s3, s3, 64'], 4) + ['membar'],
    # coherence: every rank's L1 holds the shared line; rank 0 writes it eight times (each
    # acknowledged), the others spin until they read the last value
    'readers': ['shl s3, s19, 3', 'add_i s4, s3, 8', 'bnz s8, 8f',
                '9: add_i s3, s3, 1', 'store_32 s3, (s9)', 'membar', 'cmplt_i s5, s3, s4', 'bnz s5, 9b', 'b 9f',
                '8: load_32 s5, (s9)', 'cmpeq_i s6, s5, s4', 'bz s6, 8b', '9:'],
    # coherence: every rank writes its own word of the shared line eight times (each
    # acknowledged) while every other rank's L1 holds the line
    'writers': ['shl s3, s8, 2', 'add_i s3, s3, s9', 'move s4, 8',
                '9: store_32 s4, (s3)', 'membar', 'sub_i s4, s4, 1', 'bnz s4, 9b'],
    # the L2's writeback on eviction: the set-up fills one L2 set (256 sets of 8 ways: lines
    # 16 KiB apart) with eight dirty lines; the body loads eight other lines of that set
    'l2evict': unroll(['load_32 s1, (s3)', 'add_i s3, s3, s4'], 8) + ['add_i s2, s1, 1'],
})

# The MMU (tlb_* bodies): the set-up points CR 7 at a TLB miss handler that maps the missed
# page to itself (present, writable, executable, global; s17, s18 are the handler's) and turns
# translation on (CR 4 = MMU | supervisor); the rest of the program runs translated.
MMU_ON = ['lea s12, tlbmiss', 'setcr s12, 7', 'move s12, 6', 'setcr s12, 4', 'b 9f', '9: load_32 s1, (s11)', 'add_i s2, s1, 1']
TLB_HANDLER = """tlbmiss:\tgetcr s17, 5
\tshr s17, s17, 12
\tshl s17, s17, 12
\tor s18, s17, 1 | 2 | 4 | 16
\tgetcr s16, 3
\tand s16, s16, 0x20
\tbnz s16, 1f
\titlbinsert s17, s18
\teret
1:\tdtlbinsert s17, s18
\teret
"""
BODIES.update({
    # tlbinval of the data page the set-up touched (its DTLB entry), then a load of it: a DTLB
    # miss through the handler
    'tlb_inval': ['tlbinval s11', 'load_32 s1, (s11)', 'add_i s2, s1, 1'],
    # tlbinval of a page the TLB does not hold, then a load of a mapped page (a hit)
    'tlb_inval_none': ['li s3, 0xa00000', 'tlbinval s3', 'load_32 s1, (s11)', 'add_i s2, s1, 1'],
    # tlbinval of the code page being run (the next fetch misses the ITLB)
    'tlb_inval_code': ['lea s3, loop', 'tlbinval s3', 'load_32 s1, (s11)', 'add_i s2, s1, 1'],
    # tlbinval of a page neither TLB holds, in the set of the code's page (0x1000: set 1 of
    # 16), then a branch to the next line (fetched after it)
    'tlb_inval_set': ['li s3, 0xa01000', 'tlbinval s3', 'b 9f', '.align 64', '9: load_32 s1, (s11)', 'add_i s2, s1, 1'],
    # tlbinvalall, then a load: the next fetch and the load miss their TLBs
    'tlb_inval_all': ['tlbinvalall', 'load_32 s1, (s11)', 'add_i s2, s1, 1'],
})
for n in ('tlb_inval', 'tlb_inval_none', 'tlb_inval_code', 'tlb_inval_set', 'tlb_inval_all'):
    SETUP[n] = MMU_ON

BARRIER = ['lea s12, bar', '9: load_sync s13, (s12)', 'add_i s13, s13, 1', 'store_sync s13, (s12)', 'bz s13, 9b',
           'add_i s14, s19, 1', 'mull_i s14, s14, NRANKS', '9: load_32 s13, (s12)', 'cmplt_i s13, s13, s14', 'bnz s13, 9b']
NEW = ['scat_miss', 'scat_l2', 'scat_l1', 'scat_st', 'gath_l2', 'gath_st', 'wcomb', 'wc_gap_s', 'wc_gap_l', 'sbfull', 'dinv_dirty',
       'dinv_pend', 'dinv_held', 'dinv_other', 'readers', 'writers', 'l2evict',
       'tlb_inval', 'tlb_inval_none', 'tlb_inval_code', 'tlb_inval_set', 'tlb_inval_all']

# l2evict's set: 0x203000 + 64 * (2 * rank + pass), L2 set 192 + 2 * rank + pass (no other body
# data there); dirty lines at + 16 KiB * (0..7), the body's at + 16 KiB * (8..15) (s3 after the
# set-up's stores; s4 = 16 KiB)
L2EVICT_BASE = ['li s3, 0x203000', 'li s4, 16384', 'shl s13, s8, 1', 'add_i s13, s13, s19', 'shl s13, s13, 6', 'add_i s3, s3, s13']
# Pushes s11's sixteen lines out of the L1D (64 sets of 4 ways: line i of s11 is in set i):
# eight other lines of each of those sets are loaded after them, at 0x300000 + 4 KiB * k +
# 64 * i (L2 set 64 * (k % 4) + i: two of them share the L2 set of a pass's lines, which
# holds one line per rank, so on up to four ranks the lines stay in the L2's eight ways).
EVICT = (['li s12, 0x300000', 'move s13, 8', '9: load_32 s1, (s12)'] +
         ['load_32 s1, %d(s12)' % (64 * i) for i in range(1, 16)] +
         ['add_i s12, s12, 4096', 'sub_i s13, s13, 1', 'bnz s13, 9b', 'add_i s2, s1, 1'])
SETUP.update({
    'scat_l2': GATHER_V4 + ['load_gath v2, (v4)', 'add_i v5, v2, s20'] + EVICT,
    'scat_l1': GATHER_V4 + ['load_gath v2, (v4)', 'add_i v5, v2, s20'],
    'scat_st': GATHER_V4 + ['store_scat v31, (v4)', 'membar'],
    'gath_l2': GATHER_V4 + ['load_gath v2, (v4)', 'add_i v5, v2, s20'] + EVICT,
    'gath_st': GATHER_V4 + ['store_scat v31, (v4)', 'membar'],
    'dinv_held': ['move s3, s11'] + unroll(['load_32 s1, (s3)', 'add_i s3, s3, 64'], 4) + ['add_i s2, s1, 1'],
    # s3: the next rank's region (rank + 1, or 0 after the last), which it loaded before the barrier
    'dinv_other': ['move s3, s11'] + unroll(['load_32 s1, (s3)', 'add_i s3, s3, 64'], 4) + ['add_i s2, s1, 1',
                   'add_i s12, s8, 1', 'cmpeq_i s13, s12, NRANKS', 'bz s13, 9f', 'move s12, 0',
                   '9: sub_i s12, s12, s8', 'shl s12, s12, 14', 'add_i s3, s11, s12'],
    'readers': ['load_32 s1, (s9)', 'add_i s2, s1, 1'],
    'writers': ['load_32 s1, (s9)', 'add_i s2, s1, 1'],
    'l2evict': L2EVICT_BASE + unroll(['store_32 s20, (s3)', 'add_i s3, s3, s4'], 8) + ['membar'],
})


def main():
    name = sys.argv[1]
    cores = int(sys.argv[2])
    threads = int(sys.argv[3])
    body = BODIES[name]
    nranks = cores * threads
    mask = 0
    for c in range(cores):
        for t in range(threads):
            mask |= 1 << (c * 4 + t)
    subst = {'MEMCPY_LINES': str(1024 // nranks), 'NRANKS': str(nranks)}

    def fix(line):
        for k, v in subst.items():
            line = line.replace(k, v)
        return line
    out = ['# tests/nyuzi/rtl/%s.c%dt%d.S: memory-system timing micro-benchmark, generated by\n'
           '# gen_mem.py %s %d %d. The RTL\'s cycle counts for it are in expected_mem.txt.\n'
           % (name, cores, threads, name, cores, threads)]
    out.append('\t.text\n\t.globl _start\n_start:\n')
    out.append('\tli s0, %d\n\tsetcr s0, 21\n' % mask)
    # rank = core * threads + thread
    out.append('''\tgetcr s25, 0
\tshr s24, s25, 2
\tand s25, s25, 3
\tmull_i s24, s24, %d
\tadd_i s25, s25, s24
\tmove s8, s25
\tlea s9, shared
\tlea s10, buf
\tshl s24, s25, 6
\tadd_i s10, s10, s24
\tmove s20, 1
\tli s26, 0xffff0004
\tlea s1, lanes
\tload_v v31, (s1)
\tload_32 s1, (s10)
\tmove s21, 2
\t.align 64
loop:
\tmove s19, 2
\tsub_i s19, s19, s21
\tli s11, 0x100000
\tshl s24, s25, 14
\tadd_i s11, s11, s24
\tshl s24, s19, 12
\tadd_i s11, s11, s24
''' % threads)
    out += ['\t%s\n' % fix(l) for l in SETUP.get(name, [])]
    if name in NEW:
        out += ['\t%s\n' % fix(l) for l in BARRIER]
    out.append('\tgetcr s22, 6\n')
    out += ['\t%s\n' % fix(l) for l in body]
    out.append('''\tgetcr s23, 6
\tsub_i s12, s23, s22
\tcmpeq_i s13, s21, 2
\tbz s13, 7f
\tmove s27, s12
7:\tsub_i s21, s21, 1
\tbnz s21, loop
# print rank and deltas as hex: "R:XXXXXXXX XXXXXXXX\\n", ranks in turn
''' + gen_print.print_turn('s27') + '''\tgetcr s0, 0
\tmove s1, 1
\tshl s0, s1, s0
\tsetcr s0, 20
5:\tb 5b
TLB_HANDLER_HERE\t.data
\t.align 64
lanes:\t.long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
\t.align 64
turn:\t.long 0
\t.align 64
shared:\t.long 0
\t.align 64
buf:\t.space 1024
''')
    if name in NEW:
        out.append('\t.align 64\nbar:\t.long 0\n')
    text = ''.join(out).replace('TLB_HANDLER_HERE', TLB_HANDLER if name.startswith('tlb_') else '')
    sys.stdout.write(text)


main()
