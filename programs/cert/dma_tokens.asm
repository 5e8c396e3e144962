; programs/cert/dma_tokens.asm: a uC-DMA chain writes two memory-tile buffer descriptors
; (TILE_1_1 BD 0: 128 words, BD 1: 64 words), the job waits for its handle, then starts
; both as tasks on TILE_1_1 MM2S_0 with WRITE_32s to the channel's start queue with bit 31
; (Enable_Token_Issue) set: the second task waits in the channel's queue behind the first.
; WAIT_TCTS waits for both task-completion tokens; READ_32 reads BD 0's first word back
; into $g1 (0x80: what the uC-DMA wrote). Runs to EOF. Spec 2025.02 (all opcodes <= 0x1c).
START_JOB 0
  UC_DMA_WRITE_DES  $r0, @bds                 ; 2 BDs, 16 words -> TILE_1_1 BD 0 and BD 1
  WAIT_UC_DMA       $r0
  WRITE_32          0x021A0634, 0x80000000    ; TILE_1_1 MM2S_0 start queue: BD 0, token
  WRITE_32          0x021A0634, 0x80000001    ; BD 1, token: queued behind BD 0's task
  WAIT_TCTS         TILE_1_1, MM2S_0, 2
  READ_32           $g1, 0x021A0000           ; BD 0 word 0 (buffer length)
END_JOB

EOF

  .align             16
bds:
  UC_DMA_BD         0, 0x021A0000, @bd0_words, 8, 0, 1
  UC_DMA_BD         0, 0x021A0020, @bd1_words, 8, 0, 0

  .align             4
bd0_words:
  .long              0x00000080
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x80000000

  .align             4
bd1_words:
  .long              0x00000040
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x80000000
