; programs/cert/hang_remote_barrier.asm: HANG (remote barrier, one uC never arrives).
; uC 0 waits at $rb0 for uCs 0 and 1; uC 1 runs its job to the end without it. Expected:
;   uc0: page 0 offset 0x18: REMOTE_BARRIER $rb0, 0x3: job 1 waits for remote barrier $rb0
;   (party_mask 0x3): arrived uC 0; missing uC 1
;   uc1: done at cycle ...
.attach_to_group 0
START_JOB 1
  REMOTE_BARRIER    $rb0, 0x3
END_JOB
EOF

.attach_to_group 1
START_JOB 1
  NOP
END_JOB
EOF
