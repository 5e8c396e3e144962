# tests/nyuzi/test_memo/nth.S: a loop for the debugger with the memoized periods
# (memo_debug.t.sh). THREADS (a mask: 4 threads; CR 21 resumes them) each count s10 down from ITERATIONS;
# every iteration does integer, vector, load and store work on the thread's own line of buf
# (so the loop's schedule repeats and is replayed; one store goes to a word that moves with
# the count, every 8th iteration the same), and when s10 equals AT (iteration
# ITERATIONS - AT + 1) the thread takes a side path once: `hit` stores its count to `flag`,
# a line the loop never touches. A breakpoint at `hit` or a watchpoint on `flag` is not in
# any period: the replay runs up to the iteration where the branch goes the other way, the
# cycle model from that period's start, and it stops there.
#ifndef ITERATIONS
#define ITERATIONS 400
#endif
#ifndef AT
#define AT 37
#endif
#ifndef THREADS
#define THREADS 0xf
#endif
                .text
                .globl _start
_start:         li s0, THREADS
                setcr s0, 21            # resume the threads
                getcr s12, 0            # thread id
                li s10, ITERATIONS
                lea s11, buf
                shl s13, s12, 6         # a line per thread
                add_i s11, s11, s13
                lea s14, flag
                move s1, 1
                .globl loop
loop:           add_i s2, s2, s1
                xor s3, s3, s1
                add_i v1, v1, s1
                load_32 s5, (s11)
                add_i v2, v2, v1
                store_32 s2, 4(s11)
                and s7, s10, 7          # a word of buf+32..60 by the count
                shl s7, s7, 2
                add_i s7, s7, s11
                store_32 s10, 32(s7)
                cmpeq_i s18, s10, AT
                bnz s18, hit
back:           sub_i s10, s10, 1
                bnz s10, loop
                move s0, 1
                shl s0, s0, s12
                setcr s0, 20            # suspend this thread
1:              b 1b
                .globl hit
hit:            add_i s19, s19, s12
                store_32 s19, (s14)
                b back
                .data
                .align 64
buf:            .space 256
                .align 64
                .globl flag
flag:           .long 0
