# programs/nyuzi/bench/loop1.S: speed benchmark, one thread. A loop of independent
# integer and vector ops with a load and a store per iteration (10 instructions). ITERATIONS
# can be set when assembling: xpusim asm -o define=ITERATIONS=N (make bench does).
#ifndef ITERATIONS
#define ITERATIONS 400000
#endif
                .text
                .globl _start
_start:         li s10, ITERATIONS      # iterations
                lea s11, buf
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
                li s0, 0xffffffff
                setcr s0, 21 - 1        # CR 20: suspend all threads
2:              b 2b
                .data
                .align 64
buf:            .long 0, 0, 0, 0
