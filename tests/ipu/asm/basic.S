// tests/ipu/asm/basic.S: worker and supervisor code, a bundle, an rpt body, relocations.
// Expected words (asm_basic.t.sh) come from the LLVM MC vectors and the SDK bootloader.
#include "poplar/TileConstants.hpp"
    .section .text.worker, FUNCTION_IS_WORKER
    .globl wk
    .type wk, @function
    .align 8
    .worker
wk:
    add $m1, $m2, $m3                       // 0x44203011 (bundle-disassemble.txt)
    st64 $a0:1, $m2, $m15, 0                // 0x5f20f000 (reg-pairs.txt)
    { add $m1, $m2, $m3 ; f32v2add $a0:1, $azeros, $azeros } // both words with bit 31
    ld2xst64pace $a4:7, $a0:1, $m2:3+=, $m4, 0 // 0x56442800 (reg-quads.s)
    rpt $m5, (2f - 1f) / 8 - 1              // 0x4350a000 (table only: no MC vector)
1:  { ld128 $a8:11, $m0, $m0, $m0 ; fnop }   // 0x4d000885 (reg-quads.s); fnop = setzi $a13, 0 (table only)
2:  mov $m7, $m0                           // 0x42079000 (bootloader)
    brz $m3, ext_target                     // R_COLOSSUS_19_S2 against an undefined symbol
    setzi $m0, sv                           // R_COLOSSUS_20 against .text.sup + 0
    exitz $m15                              // 0x43f04000 (bootloader)
    .size wk, . - wk
    .section .text.sup, "ax"
    .supervisor
sv: run $m0, $m0, 0                         // 0x14000000 (lld R_COLOSSUS_RUN test)
    get $m0, $TILE_ID                       // 0x41000003 (bootloader)
    sync TEXCH_SYNCZONE_INTERNAL            // 0x41800003 (bootloader)
    runall $m0, $m15, 0                     // 0x1500f000 (bootloader)
    br $m10                                 // 0x43a00000 (bootloader)
    .data
    .long wk + 8                            // R_COLOSSUS_32
