// tests/nyuzi/progs/mem.S: every load/store kind, linked load/store-conditional, traps
// (syscall, unaligned access, privileged op) with a handler, control registers and eret.
#include "check.h"
                .globl _start
_start:         lea s10, buf
                li s1, 0x89abcdef
                store_32 s1, (s10)
                load_u8 s3, (s10)            // little endian: byte 0 = 0xef
                CHECK(s3, 0xef)
                load_s8 s3, 1(s10)           // 0xcd sign-extended
                CHECK(s3, 0xffffffcd)
                load_u16 s3, 2(s10)
                CHECK(s3, 0x89ab)
                load_s16 s3, 2(s10)
                CHECK(s3, 0xffff89ab)
                move s2, 0x55
                store_8 s2, 3(s10)
                load_32 s3, (s10)
                CHECK(s3, 0x55abcdef)
                li s2, 0x1234
                store_16 s2, (s10)
                load_32 s3, (s10)
                CHECK(s3, 0x55ab1234)
                // block store/load and masked block store
                lea s11, lanes
                load_v v1, (s11)
                lea s12, vbuf
                store_v v1, (s12)
                load_32 s3, 36(s12)          // lane 9
                CHECK(s3, 9)
                move v2, 7
                li s4, 0x0003                // lanes 0 and 1
                store_v_mask v2, s4, (s12)
                load_32 s3, 4(s12)
                CHECK(s3, 7)
                load_32 s3, 8(s12)
                CHECK(s3, 2)
                // gather: addresses vbuf + 4*(15-i) -> reversed lanes
                move v3, 15
                sub_i v3, v3, v1
                shl v3, v3, 2
                add_i v3, v3, s12
                load_gath v4, (v3)
                getlane s3, v4, 0
                CHECK(s3, 15)
                getlane s3, v4, 14           // vbuf[1] = 7 after the masked store
                CHECK(s3, 7)
                // scatter 100+i to the reversed addresses, read back lane 15's target (vbuf[0])
                add_i v5, v1, 100
                store_scat v5, (v3)
                load_32 s3, (s12)
                CHECK(s3, 115)
                // linked load / store-conditional
                load_sync s5, (s10)
                move s6, 77
                store_sync s6, (s10)
                CHECK(s6, 1)
                load_32 s3, (s10)
                CHECK(s3, 77)
                move s6, 78                  // no reservation now: fails, memory unchanged
                store_sync s6, (s10)
                CHECK(s6, 0)
                load_32 s3, (s10)
                CHECK(s3, 77)
                // control registers
                getcr s3, 0                  // thread id
                CHECK(s3, 0)
                getcr s3, 4                  // flags: supervisor only
                CHECK(s3, 4)
                // traps: syscall goes to the handler with the index in CR 19
                lea s1, handler
                setcr s1, 1
                move s20, 0
sc:             syscall 42
                CHECK(s20, 1)
                CHECK(s22, 42)               // CR 19 read by the handler
                CHECK(s23, 4)                // CR 3: TT_SYSCALL
                CHECK(s24, s4_value)         // CR 2: the syscall itself
                // unaligned load: cause 5 | dcache 0x20, address in CR 5
                add_i s7, s10, 2
ua:             load_32 s3, (s7)
                CHECK(s20, 2)
                CHECK(s23, 0x25)
                cmpeq_i s3, s25, s7
                CHECK(s3, 0xffff)
                // eret popped the second save level back into the first
                getcr s3, 19
                CHECK(s3, 0)
                b pass
handler:        add_i s20, s20, 1
                getcr s22, 19
                getcr s23, 3
                getcr s24, 2
                getcr s25, 5
                getcr s21, 2
                add_i s21, s21, 4            // skip the trapping instruction
                setcr s21, 2
                eret
#include "common_tail.h"
                .align 64
lanes:          .long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
vbuf:           .space 64
buf:            .long 0, 0, 0, 0
s4_value = sc
