; xpusim test: two jobs sharing a local barrier, a uC-DMA chain, .long data
START_JOB 7
  UC_DMA_WRITE_DES $r1, @bd_a
  WAIT_UC_DMA $r1
  LOCAL_BARRIER $lb3, 2
END_JOB
start_job 8
  local_barrier $lb3, 2
  MASK_WRITE_32 0x2A0000, 0x00FF00FF, 0x12345678
  WRITE_32_D 2, 0x4100000, 5
  READ_32 $g2, 0x21A0000
  READ_32_D $r2, $g15
  ADD $r3, 0x10
  MOV $g0, 40000
  POLL_32 0x1A0638, 0
  MASK_POLL_32 0x1A0638, 0x78003C, 0
  REMOTE_BARRIER $rb2, 0x3
  WAIT_TCTS TILE_3_2, SHIM_MM2S_1, 2
  WAIT_TCTS TILE_0_1, S2MM_4, 1
  YIELD
  NOP
  TRACE 0x801
  SAVE_TIMESTAMPS 0x55
  UC_DMA_WRITE_DES_SYNC @bd_b
END_JOB
EOF

  .align 16
bd_a:
  UC_DMA_BD 0, 0x021A0000, @words_a, 4, 0, 1
  UC_DMA_BD 0, 0x021A0020, @words_b, 2, 1, 0
bd_b:
  UC_DMA_BD 0x1FF, 0x001A0000, @words_b, 2, 0, 0
  .align 4
words_a:
  .long 0x11111111
  .long 0x22222222
  .long 3
  .long 4
words_b:
  .long 0xdeadbeef
  .long 0x80000000
