; programs/cert/hang_no_token.asm: HANG (tokens never come). The task on TILE_0_1 MM2S_0
; is started without bit 31 (Enable_Token_Issue) in the start-queue word, so it completes
; without a task-completion token and WAIT_TCTS waits for ever. Expected report:
;   uc0: page 0 offset 0x30: WAIT_TCTS TILE_0_1, MM2S_0, 0x1: job 1 waits for TCTs from
;   TILE_0_1 MM2S_0: expected 1, received 0
START_JOB 1
  WRITE_32          0x001A0000, 0x40          ; TILE_0_1 BD 0: 64 words
  WRITE_32          0x001A0634, 0x00000000    ; MM2S_0 start queue: BD 0, no token bit
  WAIT_TCTS         TILE_0_1, MM2S_0, 1
END_JOB
EOF
