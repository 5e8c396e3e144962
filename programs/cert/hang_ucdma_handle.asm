; programs/cert/hang_ucdma_handle.asm: FAULT (WAIT_UC_DMA on an unknown handle). $r3 holds
; 5, a handle no UC_DMA_WRITE_DES returned (none ran), so the wait could never end: the
; run stops with a fault naming uc, page, offset and job:
;   uc0 page 0 offset 0x20 (job 1): WAIT_UC_DMA on handle 5, which no UC_DMA_WRITE_DES
;   returned
START_JOB 1
  MOV               $r3, 5
  WAIT_UC_DMA       $r3
END_JOB
EOF
