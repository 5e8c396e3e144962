; programs/cert/hang_deferred.asm: HANG (a deferred job never launched). Job 2 is created
; by START_JOB_DEFERRED and nobody LAUNCHes it, so the page never ends. Expected report:
;   uc0: page 0 offset 0x28: NOP: job 2 waits for deferred: waits for LAUNCH_JOB 2
START_JOB 1
  NOP
END_JOB
START_JOB_DEFERRED 2
  NOP
END_JOB
EOF
