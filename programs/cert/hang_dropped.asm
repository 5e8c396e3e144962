; programs/cert/hang_dropped.asm: HANG (a push dropped by a full DMA task queue, so a token
; is missing). TILE_0_1 MM2S_0 gets six tasks with the token bit, one WRITE_32 (55 cycles)
; apart; each task moves 1000 words (8 + 400 cycles), so when the sixth push comes the first
; task still runs and four wait in the 4-deep queue: the sixth is dropped (a warning,
; dropped_tasks 1). Five tokens come; WAIT_TCTS waits for six. Expected report:
;   uc0: page 0 offset 0x6c: WAIT_TCTS TILE_0_1, MM2S_0, 0x6: job 1 waits for TCTs from
;   TILE_0_1 MM2S_0: expected 6, received 5
START_JOB 1
  WRITE_32          0x001A0000, 1000          ; TILE_0_1 BD 0: 1000 words
  WRITE_32          0x001A0634, 0x80000000
  WRITE_32          0x001A0634, 0x80000000
  WRITE_32          0x001A0634, 0x80000000
  WRITE_32          0x001A0634, 0x80000000
  WRITE_32          0x001A0634, 0x80000000
  WRITE_32          0x001A0634, 0x80000000    ; dropped: queue full
  WAIT_TCTS         TILE_0_1, MM2S_0, 6
END_JOB
EOF
