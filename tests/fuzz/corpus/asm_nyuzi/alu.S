// tests/nyuzi/progs/alu.S: scalar, vector, masked, compare, conversion and FP results.
// Expected values are worked out by hand from the instruction definitions in
// docs/isa/nyuzi.md (not taken from a simulator run).
#include "check.h"
                .globl _start
_start:         li s1, 7
                li s2, -3
                add_i s3, s1, s2
                CHECK(s3, 4)
                sub_i s3, s2, s1
                CHECK(s3, -10)
                mull_i s3, s1, s2
                CHECK(s3, -21)
                li s4, 0x10000
                mulh_u s3, s4, s4            // 2^32 -> high word 1
                CHECK(s3, 1)
                mulh_i s3, s2, s4            // -3 * 65536 = -196608, high word -1
                CHECK(s3, -1)
                ashr s3, s2, 1               // -3 >> 1 = -2
                CHECK(s3, -2)
                shr s3, s2, 28               // 0xfffffffd >> 28 = 15
                CHECK(s3, 15)
                shl s3, s1, 33               // shift amount & 31 = 1
                CHECK(s3, 14)
                and s3, s1, 5
                CHECK(s3, 5)
                or s3, s1, 8
                CHECK(s3, 15)
                xor s3, s1, s1
                CHECK(s3, 0)
                clz s3, s1                   // 7 = 0b111 -> 29 leading zeros
                CHECK(s3, 29)
                ctz s3, s4
                CHECK(s3, 16)
                move s5, 0
                clz s3, s5
                CHECK(s3, 32)
                li s5, 0x80
                sext_8 s3, s5
                CHECK(s3, 0xffffff80)
                li s5, 0x12348000
                sext_16 s3, s5
                CHECK(s3, 0xffff8000)
                movehi s3, 1
                CHECK(s3, 0x2000)
                cmpgt_i s3, s1, s2           // scalar compare: 0xffff when true
                CHECK(s3, 0xffff)
                cmpgt_u s3, s1, s2           // unsigned: 7 > 0xfffffffd is false
                CHECK(s3, 0)
                cmple_i s3, s2, -3
                CHECK(s3, 0xffff)
                // floating point: 1.5 + 2.25 = 3.75 (0x40700000)
                li s5, 0x3fc00000
                li s6, 0x40100000
                add_f s3, s5, s6
                CHECK(s3, 0x40700000)
                mul_f s3, s5, s6             // 3.375 = 0x40580000
                CHECK(s3, 0x40580000)
                sub_f s3, s5, s6             // -0.75 = 0xbf400000
                CHECK(s3, 0xbf400000)
                itof s3, s2                  // -3.0 = 0xc0400000
                CHECK(s3, 0xc0400000)
                li s5, 0xc0700000            // -3.75 -> -3 (toward zero)
                ftoi s3, s5
                CHECK(s3, -3)
                cmplt_f s3, s5, s6
                CHECK(s3, 0xffff)
                li s5, 0x40000000            // reciprocal(2.0) = 0.5 exactly
                reciprocal s3, s5
                CHECK(s3, 0x3f000000)
                li s5, 0x40400000            // reciprocal(3.0): 1/3 truncated to 6 fraction bits
                reciprocal s3, s5            // 0x3eaaaaab & 0xfffe0000 = 0x3eaa0000
                CHECK(s3, 0x3eaa0000)
                // vectors: v1 = lane index via a block load of 0..15
                lea s10, lanes
                load_v v1, (s10)
                add_i v2, v1, 100            // v2[i] = 100 + i
                getlane s3, v2, 5
                CHECK(s3, 105)
                add_i v3, v1, v2             // v3[i] = 100 + 2i
                getlane s3, v3, 15
                CHECK(s3, 130)
                move s7, 3
                getlane s3, v3, s7
                CHECK(s3, 106)
                li s8, 0x00ff                // masked: lanes 0-7 only
                move v4, 0
                add_i_mask v4, s8, v1, 1     // v4[i] = i+1 for i<8, else 0
                getlane s3, v4, 7
                CHECK(s3, 8)
                getlane s3, v4, 8
                CHECK(s3, 0)
                cmpgt_i s3, v1, 9            // lanes 10..15 -> mask 0xfc00
                CHECK(s3, 0xfc00)
                cmpeq_i s3, v1, v1
                CHECK(s3, 0xffff)
                cmplt_i s3, v1, s7           // lanes 0..2 -> 0x0007
                CHECK(s3, 7)
                // shuffle: reverse the lanes with index vector 15-i
                move v5, 15
                sub_i v5, v5, v1
                shuffle v6, v1, v5
                getlane s3, v6, 0
                CHECK(s3, 15)
                getlane s3, v6, 15
                CHECK(s3, 0)
                // vector with scalar operand
                mull_i v7, v1, s7            // 3i
                getlane s3, v7, 4
                CHECK(s3, 12)
                move_mask v7, s8, 9          // lanes 0-7 = 9
                getlane s3, v7, 0
                CHECK(s3, 9)
                getlane s3, v7, 9
                CHECK(s3, 27)
                b pass
#include "common_tail.h"
                .align 64
lanes:          .long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
