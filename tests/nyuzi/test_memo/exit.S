# tests/nyuzi/test_memo/exit.S: a loop that ends at the memo's anchor (test_memo.t.sh). A
# recorded period ends with its anchor's issue; where the anchor is a loop's branch, the
# loop's exit is a difference at the period's last step. Before session 40 the replay took
# that for a period done (memo.c replay_period): the timing state went back to the key, the
# thread's pc to the loop's top with its counter at 0, and the loop ran some 2^32 times more
# (the cycle model ends it in about 1,100 cycles). Where the memo takes its anchor depends
# on the code before the loop: PAD (0 to 7) adds pad it (at the time 6 and 7 put the anchor
# at the branch). The inner loop runs 12 times, 6 times over; the counters at the exits
# (0) and the pad's count are added into s3, which goes to memory.
#ifndef PAD
#define PAD 6
#endif
                .text
                .globl _start
_start:         move s20, 6
#if PAD >= 1
                add_i s9, s9, 1
#endif
#if PAD >= 2
                add_i s9, s9, 1
#endif
#if PAD >= 3
                add_i s9, s9, 1
#endif
#if PAD >= 4
                add_i s9, s9, 1
#endif
#if PAD >= 5
                add_i s9, s9, 1
#endif
#if PAD >= 6
                add_i s9, s9, 1
#endif
#if PAD >= 7
                add_i s9, s9, 1
#endif
5:              move s6, 12
1:              sub_i s6, s6, 1
                bnz s6, 1b
                add_i s3, s3, s6
                sub_i s20, s20, 1
                bnz s20, 5b
                add_i s3, s3, s9
                lea s11, out
                store_32 s3, (s11)
                move s1, 0
                sub_i s0, s1, 1         # every thread: CR 20 suspends them
                setcr s0, 20
3:              b 3b
                .data
out:            .long 0
