# tests/nyuzi/test_memo/stream.S: one thread sums a 32 KiB array twice (L1D misses every 16
# words the first time and L2 hits or misses after) and then runs a cache-resident loop
# (test_memo.t.sh): periods with misses are not recorded; the run must not change.
#ifndef WORDS
#define WORDS 8192
#endif
                .text
                .globl _start
_start:         move s20, 2
5:              li s10, WORDS
                lea s11, array
1:              load_32 s2, (s11)
                add_i s3, s3, s2
                add_i s2, s2, s20
                store_32 s2, (s11)
                add_i s11, s11, 4
                sub_i s10, s10, 1
                bnz s10, 1b
                sub_i s20, s20, 1
                bnz s20, 5b
                li s10, 4000
                lea s11, array
2:              load_32 s2, (s11)
                add_i s3, s3, s2
                store_32 s3, 4(s11)
                sub_i s10, s10, 1
                bnz s10, 2b
                lea s11, out
                store_32 s3, (s11)
                li s0, 0xffffffff
                setcr s0, 20
3:              b 3b
                .data
                .align 64
out:            .long 0
                .align 64
array:          .space 32768
