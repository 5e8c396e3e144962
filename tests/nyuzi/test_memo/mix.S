# tests/nyuzi/test_memo/mix.S: a loop for the memoized periods (test_memo.t.sh). THREADS
# threads (CR 21 resumes them) each run ITERATIONS iterations of integer, vector (masked,
# shuffle, getlane, compare), floating point, multiply, block and scalar loads and stores to
# their own lines, a call and return, and the cycle counter (CR 6) stored into a ring of 16
# words: the cycles land in memory, so the memory hash checks each replayed instruction's
# cycle. Every EXTRA-th iteration takes a longer path (a period breaks off there).
#ifndef ITERATIONS
#define ITERATIONS 3000
#endif
#ifndef THREADS
#define THREADS 0xf
#endif
#ifndef EXTRA
#define EXTRA 63
#endif
                .text
                .globl _start
_start:         li s0, THREADS
                setcr s0, 21            # resume the threads
                getcr s12, 0            # thread id
                li s10, ITERATIONS
                lea s11, buf
                shl s13, s12, 8         # 256 bytes per thread: 4 lines
                add_i s11, s11, s13
                lea s14, ring
                shl s13, s12, 6
                add_i s14, s14, s13
                lea s9, lanes
                load_v v5, (s9)         # 15, 14, ... 0
                move s1, 1
                li s7, 0x00ff           # lanes 0-7
                itof s8, s1             # 1.0
1:              add_i s2, s2, s1
                xor s3, s3, s2
                add_i v1, v1, s1
                add_i_mask v2, s7, v2, v1
                shuffle v3, v1, v5
                getlane s4, v3, 3
                cmpgt_i s5, v1, 7
                mull_i s6, s2, s2
                load_v v4, (s11)
                add_i v4, v4, v1
                store_v v4, 64(s11)
                load_32 s15, 4(s11)
                add_i s15, s15, s4
                store_32 s15, 4(s11)
                call fpsub
                getcr s16, 6            # the cycle
                and s17, s10, 15
                shl s17, s17, 2
                add_i s17, s17, s14
                store_32 s16, (s17)
                and s18, s10, EXTRA
                bnz s18, 2f
                add_i s19, s19, 3       # the longer path
                xor s19, s19, s2
                store_32 s19, 8(s11)
2:              sub_i s10, s10, 1
                bnz s10, 1b
                move s0, 1
                shl s0, s0, s12
                setcr s0, 20            # suspend this thread
3:              b 3b
fpsub:          itof s20, s2
                mul_f s21, s20, s8
                add_f s22, s22, s21
                store_32 s22, 12(s11)
                b ra
                .data
                .align 64
lanes:          .long 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
buf:            .space 1024
ring:           .space 256
