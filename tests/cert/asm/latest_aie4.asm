; xpusim test (written for xpusim): aie4 under the newest aiebu-asm (e811334f): LOAD_CORES
; as an out-of-order page, the aie4 actor map (SHIM_S2MM_1 is 2, MEM_MM2S_5 is 22,
; SHIM_CTRL_MM2S_0 is 16), and APPLY_OFFSET_57 with a pad patching the aie4 shim
; descriptor layout (address bits 56..32 in word 0, 31..0 in word 1; host patch schema 6).
.target aie4
.setpad scratch, 0x40
START_JOB 0
  LOAD_CORES 5, @cores
  WAIT_TCTS TILE_0_0, SHIM_S2MM_1, 1
  WAIT_TCTS TILE_0_1, MEM_MM2S_5, 2
  WAIT_TCTS TILE_0_0, SHIM_CTRL_MM2S_0, 1
  APPLY_OFFSET_57 @bd0, 1, 0xFFFF, @scratch
  APPLY_OFFSET_57 @bd1, 1, 4
  UC_DMA_WRITE_DES_SYNC @ucbd
END_JOB
EOF
ucbd:
  UC_DMA_BD 0, 0x1A0000, @bd0, 8, 0, 0
bd0:
  .long 0x80000001
  .long 0x00400000
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
bd1:
  .long 0x00000002
  .long 0x00000010
.section .ctrltext
cores:
START_JOB 1
  WRITE_32 0x500, 5
END_JOB
EOF
.endl cores
