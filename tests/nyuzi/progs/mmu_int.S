// tests/nyuzi/progs/mmu_int.S: the software-managed TLB (miss handler filling identity
// mappings, ASID/global, a page fault on a non-present page, a write to a read-only page)
// and a timer interrupt delivered through CR 14 with FLAGS.I.
#include "check.h"
                .globl _start
_start:         lea s1, tlb_miss
                setcr s1, 7                  // TLB miss handler
                lea s1, trap
                setcr s1, 1                  // trap handler
                move s20, 0                  // TLB misses handled
                move s21, 0                  // traps taken
                // the data page 0x3000 is mapped read-only and 0x5000 not present
                li s1, 0x3000
                li s2, 0x3000 | 1 | 16       // present, global, not writable
                dtlbinsert s1, s2
                li s1, 0x5000
                li s2, 0x5000 | 16           // global, not present
                dtlbinsert s1, s2
                move s1, 6                   // MMU + supervisor
                setcr s1, 4
                b 1f                         // refetch with translation
1:              lea s10, buf
                load_32 s3, (s10)            // data TLB miss, filled by the handler
                CHECK(s3, 0x1234)
                getcr s4, 4
                CHECK(s4, 6)                 // MMU back on after the miss handler's eret
                cmpgt_u s5, s20, 1           // at least an ITLB and a DTLB miss
                CHECK(s5, 0xffff)
                li s10, 0x3000
                load_32 s3, (s10)            // readable
                store_32 s3, (s10)           // ILLEGAL_STORE (8) | store | data
                CHECK(s21, 1)
                CHECK(s22, 8 | 0x10 | 0x20)
                li s10, 0x5004
                load_32 s3, (s10)            // PAGE_FAULT (6) | data
                CHECK(s21, 2)
                CHECK(s22, 6 | 0x20)
                CHECK(s23, 0x5004)           // faulting address in CR 5
                // back to physical addressing for the rest
                move s1, 4
                setcr s1, 4
                // timer interrupt: line 1, enabled in CR 14, FLAGS.I set
                move s1, 2
                setcr s1, 14
                move s1, 5                   // supervisor + interrupts
                setcr s1, 4
                li s2, 0xffff0240
                move s1, 100
                store_32 s1, (s2)            // fires 100 cycles from now
                move s24, 0
2:              bz s24, 2b                   // spin until the handler sets s24
                CHECK(s22, 3)                // TT_INTERRUPT
                b pass

tlb_miss:       // identity-map the faulting page, executable and writable, global
                add_i s20, s20, 1
                getcr s25, 5
                shr s25, s25, 12
                shl s25, s25, 12
                or s26, s25, 1 | 2 | 4 | 16
                getcr s27, 3
                and s27, s27, 0x20
                bnz s27, 3f
                itlbinsert s25, s26
                eret
3:              dtlbinsert s25, s26
                eret

trap:           add_i s21, s21, 1
                getcr s22, 3
                getcr s23, 5
                cmpeq_i s27, s22, 3
                bnz s27, 4f
                getcr s27, 2                 // fault: skip the instruction
                add_i s27, s27, 4
                setcr s27, 2
                eret
4:              move s24, 1                  // interrupt: acknowledge, return to the spin
                move s27, 2
                setcr s27, 15
                li s27, 0xffff0240
                move s26, 0
                store_32 s26, (s27)
                move s27, 0
                setcr s27, 14
                eret
#include "common_tail.h"
                .align 64
buf:            .long 0x1234
