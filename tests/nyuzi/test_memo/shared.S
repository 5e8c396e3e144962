# tests/nyuzi/test_memo/shared.S: four threads store to and load from one shared line in a
# loop (each its own word, and the next thread's word): a load may read another thread's
# store before that store is visible (isa/nyuzi/l2_vis.c), which a period must not assume
# away (test_memo.t.sh). The sums land in memory.
#ifndef ITERATIONS
#define ITERATIONS 2000
#endif
                .text
                .globl _start
_start:         li s0, 0xf
                setcr s0, 21
                getcr s12, 0
                li s10, ITERATIONS
                lea s11, shared
                shl s13, s12, 2
                add_i s13, s13, s11     # my word
                add_i s14, s12, 1
                and s14, s14, 3
                shl s14, s14, 2
                add_i s14, s14, s11     # the next thread's word
                lea s15, sums
                shl s16, s12, 6
                add_i s15, s15, s16
1:              add_i s2, s2, 1
                store_32 s2, (s13)
                load_32 s3, (s14)
                add_i s4, s4, s3
                store_32 s4, (s15)
                sub_i s10, s10, 1
                bnz s10, 1b
                move s0, 1
                shl s0, s0, s12
                setcr s0, 20
2:              b 2b
                .data
                .align 64
shared:         .space 64
sums:           .space 256
