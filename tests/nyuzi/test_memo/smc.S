# tests/nyuzi/test_memo/smc.S: one thread's loop stores, every iteration, into the word just
# behind its own backward branch (fetched behind the branch and squashed there: its registers
# count for the scoreboard) and into a word further on that the thread runs after the loop
# (test_memo.t.sh): a period must not be replayed over code that changes.
#ifndef ITERATIONS
#define ITERATIONS 3000
#endif
                .text
                .globl _start
_start:         li s10, ITERATIONS
                lea s11, after
                lea s12, tail
                li s5, 0x00000000       # words stored: alternately nop and add_i s7, s7, 1
                lea s13, words
                load_32 s6, (s13)
                load_32 s8, 4(s13)
1:              add_i s2, s2, 1
                and s3, s2, 1
                bz s3, 2f
                store_32 s6, (s11)
                store_32 s8, (s12)
                b 3f
2:              store_32 s8, (s11)
                store_32 s6, (s12)
3:              add_i s4, s4, s2
                sub_i s10, s10, 1
                bnz s10, 1b
after:          nop
                move s9, s7
tail:           nop
                lea s13, out
                store_32 s7, (s13)
                store_32 s4, 4(s13)
                li s0, 0xffffffff
                setcr s0, 20
4:              b 4b
                .data
                .align 64
words:          .long 0, 0
out:            .long 0, 0
