// tests/nyuzi/progs/cycles.S: issue-timing rules, measured with CR 6 (cycle counter)
// on one thread with a warm instruction cache (each body runs twice; the second pass is
// checked). Expected deltas come from the documented rules (docs/isa/nyuzi.md, from the
// reference's timing study of the RTL): dependent integer op 5 cycles issue-to-issue,
// dependent FP-pipe op (mull_i) 9, load-to-use 6 on an L1 hit, one issue per cycle, one
// writeback per cycle (pipe depths int 1, memory 2, FP 5: an integer op cannot issue
// the cycle after a memory op). getcr (memory pipe) reads the counter at its issue cycle
// T. The same bodies scaled up were measured on the Verilator RTL (dep_int, ind8 in
// docs/validation/nyuzi.md) and agree.
#include "check.h"
                .globl _start
_start:         move s9, 2                   // passes
                lea s10, buf
                load_32 s11, (s10)           // bring the line into L1D
                .align 64
loop:
                // A: 8 dependent add_i. getcr@T, add#1@T+2 (writeback slot of T+2 is the
                // getcr's), add#k@T+2+5(k-1), add#8@T+37, getcr@T+38 -> delta 38.
                getcr s2, 6
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                add_i s1, s1, 1
                getcr s3, 6
                sub_i s12, s3, s2
                // B: 8 independent add_i with distinct destinations (none is s6, which the
                // scoreboard checks for "getcr s3, 6"): getcr@T, adds@T+2..T+9,
                // getcr@T+10 -> delta 10.
                getcr s2, 6
                add_i s13, s1, 1
                add_i s14, s1, 1
                add_i s15, s1, 1
                add_i s16, s1, 1
                add_i s17, s1, 1
                add_i s18, s1, 1
                add_i s19, s1, 1
                add_i s20, s1, 1
                getcr s3, 6
                sub_i s21, s3, s2
                sub_i s9, s9, 1
                bnz s9, loop
                CHECK(s12, 38)
                CHECK(s21, 10)
                b pass
#include "common_tail.h"
                .align 64
buf:            .long 0
