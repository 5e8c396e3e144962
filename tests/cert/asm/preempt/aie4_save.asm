; a tiny save program of our own (for tests/cert/asm_latest.t.sh), laid out the way the
; assembler finds its BDs: APPLY_OFFSET_57 @BD, ..., @preempt_buffer names the shim BDs,
; the labels numbered after the last of them are the memtile BDs
.setpad preempt_buffer, 64
START_JOB 0
  UC_DMA_WRITE_DES_SYNC @sbds
  APPLY_OFFSET_57 @DMAWRITE_data_125, 1, 65535, @preempt_buffer
  APPLY_OFFSET_57 @DMAWRITE_data_126, 1, 65535, @preempt_buffer
END_JOB
.eop
EOF
.align 16
sbds:
  UC_DMA_BD 0, 0x18000, @DMAWRITE_data_125, 8, 0, 1
  UC_DMA_BD 0, 0x58000, @DMAWRITE_data_126, 8, 0, 1
  UC_DMA_BD 0, 0x108c00, @DMAWRITE_data_127, 8, 0, 1
  UC_DMA_BD 0, 0x108f00, @DMAWRITE_data_128, 8, 0, 0
DMAWRITE_data_125:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_126:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_127:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_128:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
