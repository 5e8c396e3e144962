; programs/cert/hang_poll.asm: HANG (a poll that can never succeed). POLL_32 waits for 1
; in TILE_0_1's data word 0x00100000, which nothing writes; with no other job, no task and
; no transfer left, the attempt cannot read anything new. Expected report:
;   uc0: page 0 offset 0x18: POLL_32 0x100000, 0x1: job 1 waits for poll of 0x00100000:
;   (value & 0xFFFFFFFF) == 0x1, last read 0x0; next attempt at cycle ...
START_JOB 1
  POLL_32           0x00100000, 1
END_JOB
EOF
