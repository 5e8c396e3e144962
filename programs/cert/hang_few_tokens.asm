; programs/cert/hang_few_tokens.asm: HANG (fewer tokens than waited for). One task with
; its token bit runs on TILE_0_1 MM2S_0, but WAIT_TCTS waits for 2 tokens. Expected report:
;   uc0: page 0 offset 0x30: WAIT_TCTS TILE_0_1, MM2S_0, 0x2: job 1 waits for TCTs from
;   TILE_0_1 MM2S_0: expected 2, received 1
START_JOB 1
  WRITE_32          0x001A0000, 0x40          ; TILE_0_1 BD 0: 64 words
  WRITE_32          0x001A0634, 0x80000000    ; MM2S_0 start queue: BD 0, token
  WAIT_TCTS         TILE_0_1, MM2S_0, 2
END_JOB
EOF
