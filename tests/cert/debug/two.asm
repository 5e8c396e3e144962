; tests/cert/debug/two.asm: two uCs for the debugger tests (tests/cert/debug.t.sh,
; tests/cert/gdbstub.t.sh). uC 0 page 0: job 1 sets $r0 = 0x33 and $g3 = 0x1005, runs a
; uC-DMA chain (handle 1 in $r1) and meets job 2 at local barrier $lb1; job 2 sets $r5,
; starts TILE_2_1 MM2S_0 (mem_mm2s_0) with the token bit, waits for its task-completion token, then
; meets uC 1 at remote barrier $rb0. Page 1 (after .eop): job 3 sets $r7 and saves a
; timestamp (id 9). uC 1: job 4 sets $r2 = 0x222 and $g15 = 0xabce and waits at $rb0.
; With the default latencies (isa/cert/timing.c): uC 0 dispatches job 1 at 377 (page fetch
; 275, two START_JOBs and EOF 30 each, pass 12); WAIT_UC_DMA (0x40) at 457, the transfer
; done at 503 (30 + 8 words x 2); job 1 reaches $lb1 (0x44) at 556, after job 2; job 2's
; barrier completes at 623; the shim task ends at 738, its token reaches uC 0 at 768; page
; 1's SAVE_TIMESTAMPS (0x2024) at 927; uC 0 ends at 977. Without the token bit (the test's
; hang variant) the run stops as a deadlock at 738.
.attach_to_group 0
START_JOB 1
  MOV $r0, 0x11
  ADD $r0, 0x22
  MOV $g3, 0x1000
  ADD $g3, 5
  UC_DMA_WRITE_DES $r1, @bd
  WAIT_UC_DMA $r1
  LOCAL_BARRIER $lb1, 2
END_JOB
START_JOB 2
  MOV $r5, 0x55
  LOCAL_BARRIER $lb1, 2
  WRITE_32 0x41A0634, 0x80000000
  WAIT_TCTS TILE_2_1, mem_mm2s_0, 1
  REMOTE_BARRIER $rb0, 0x3
END_JOB
.eop
START_JOB 3
  MOV $r7, 0x77
  NOP
  SAVE_TIMESTAMPS 9
END_JOB
EOF
  .align 16
bd:
  UC_DMA_BD 0, 0x041A0000, @words, 8, 0, 0
  .align 4
words:
  .long 0x80
  .long 0
  .long 0
  .long 0
  .long 0
  .long 0
  .long 0
  .long 0x80000000
.attach_to_group 1
START_JOB 4
  MOV $r2, 0x222
  MOV $g15, 0xabcd
  ADD $g15, 1
  NOP
  REMOTE_BARRIER $rb0, 0x3
END_JOB
EOF
