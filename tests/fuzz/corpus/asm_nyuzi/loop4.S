# programs/nyuzi/bench/loop4.S: speed benchmark, four threads running the same loop of
# integer, vector, multiply, load and store ops on their own buffers. ITERATIONS (per thread)
# can be set when assembling: xpusim asm -o define=ITERATIONS=100 (tests/nyuzi/rtl/totals.txt).
#ifndef ITERATIONS
#define ITERATIONS 200000
#endif
                .text
                .globl _start
_start:         li s0, 0xffffffff
                setcr s0, 21            # resume all threads
                getcr s12, 0            # thread id
                li s10, ITERATIONS
                lea s11, buf
                shl s13, s12, 6
                add_i s11, s11, s13
                move s1, 1
1:              add_i s2, s2, s1
                xor s3, s3, s1
                add_i v1, v1, s1
                mull_i s4, s1, s1
                load_32 s5, (s11)
                or s6, s6, s1
                add_i v2, v2, v1
                store_32 s2, 4(s11)
                sub_i s10, s10, 1
                bnz s10, 1b
                move s0, 1
                shl s0, s0, s12
                setcr s0, 20            # suspend this thread
2:              b 2b
                .data
                .align 64
buf:            .space 256
