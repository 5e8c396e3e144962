; a tiny restore program of our own (for tests/cert/asm_latest.t.sh): four shim BDs
; (DMAWRITE_data_0..3), four memtile BDs (4..7)
START_JOB 0
  UC_DMA_WRITE_DES_SYNC @rbds
  APPLY_OFFSET_57 @DMAWRITE_data_0, 1, 65535, @preempt_buffer
  APPLY_OFFSET_57 @DMAWRITE_data_1, 1, 65535, @preempt_buffer
  APPLY_OFFSET_57 @DMAWRITE_data_2, 1, 65535, @preempt_buffer
  APPLY_OFFSET_57 @DMAWRITE_data_3, 1, 65535, @preempt_buffer
END_JOB
START_JOB 1
  LOAD_LAST_PDI
END_JOB
.eop
EOF
.align 16
rbds:
  UC_DMA_BD 0, 0x18000, @DMAWRITE_data_0, 8, 0, 1
  UC_DMA_BD 0, 0x18030, @DMAWRITE_data_1, 8, 0, 1
  UC_DMA_BD 0, 0x18060, @DMAWRITE_data_2, 8, 0, 1
  UC_DMA_BD 0, 0x18090, @DMAWRITE_data_3, 8, 0, 1
  UC_DMA_BD 0, 0x180c0, @DMAWRITE_data_4, 8, 0, 1
  UC_DMA_BD 0, 0x180f0, @DMAWRITE_data_5, 8, 0, 1
  UC_DMA_BD 0, 0x18120, @DMAWRITE_data_6, 8, 0, 1
  UC_DMA_BD 0, 0x18150, @DMAWRITE_data_7, 8, 0, 0
DMAWRITE_data_0:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_1:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_2:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_3:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_4:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_5:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_6:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
DMAWRITE_data_7:
  .long 0x11110000
  .long 0x11110001
  .long 0x11110002
  .long 0x11110003
  .long 0x11110004
  .long 0x11110005
  .long 0x11110006
  .long 0x11110007
