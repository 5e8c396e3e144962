; programs/cert/hang_local_barrier.asm: HANG (local barrier short of participants). Two
; jobs reach $lb2, which waits for 3. Expected report, both jobs on one line:
;   uc0: page 0 offset 0x18: LOCAL_BARRIER $lb2, 0x3: job 1 waits for local barrier $lb2:
;   2 of 3 participants arrived (jobs 1 2), 1 missing; page 0 offset 0x2c: ... job 2 ...
START_JOB 1
  LOCAL_BARRIER     $lb2, 3
END_JOB
START_JOB 2
  NOP
  LOCAL_BARRIER     $lb2, 3
END_JOB
EOF
