; programs/cert/ops.asm: the uC-DMA opcodes, the patch opcodes and the newer polls.
;   UC_DMA_WRITE_DES       queues chain_a (2 words -> TILE_0_1 data 0x00100040), handle in $r0
;   UC_DMA_WRITE_DES_SYNC  queues chain_b (1 word -> 0x00100048) behind it and waits for it
;   WAIT_UC_DMA $r0        chain_a finished before chain_b: no wait
;   APPLY_OFFSET_57        patches shim_bd (a 9-word shim BD) with kernel argument 0: the
;                          host's work; the job-runner model charges its time only
;   APPLY_OFFSET_PL        patches the wts block (10 words) for buffer 3: likewise
;   POLL_32                succeeds at once only if chain_a's first word (0x11) arrived
;   UC_DMA_MASK_POLL_EXT   address_high 0: an array address, polled through the uC-DMA;
;                          succeeds at once only if chain_b's word (0xCAFE0033) arrived
;   REL_ACQ_SYNC           releases TILE_0_1 lock 0 (+1: request 0x001D0004), then acquires
;                          it with "equal to 1" (0x001D0204): the lock stays at 1
;   READ_32 $g0            lock 0's value register (0x001C0000): 1, the release happened
; Runs to EOF. Newest spec: -o spec=latest.
START_JOB 1
  UC_DMA_WRITE_DES       $r0, @chain_a
  UC_DMA_WRITE_DES_SYNC  @chain_b
  WAIT_UC_DMA            $r0
  APPLY_OFFSET_57        @shim_bd, 1, 0
  APPLY_OFFSET_PL        @wts, 3
  POLL_32                0x00100040, 0x11
  UC_DMA_MASK_POLL_EXT   0, 0x00100048, 0xFF, 0x33
  REL_ACQ_SYNC           0x001D0004, 0x001D0204
  READ_32                $g0, 0x001C0000
END_JOB
EOF

  .align             16
chain_a:
  UC_DMA_BD         0, 0x00100040, @words_a, 2, 0, 0
chain_b:
  UC_DMA_BD         0, 0x00100048, @words_b, 1, 0, 0

  .align             4
words_a:
  .long              0x00000011
  .long              0x00000022
words_b:
  .long              0xCAFE0033
shim_bd:
  .long              0x00000080
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
wts:
  .long              0x00000001
  .long              0x00000002
  .long              0x00000003
  .long              0x00000004
  .long              0x00000005
  .long              0x00000006
  .long              0x00000007
  .long              0x00000008
  .long              0x00000009
  .long              0x0000000A
