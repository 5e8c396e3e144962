; programs/cert/preempt.asm: a preemption point and a conditional job. Job 1 is a
; START_COND_JOB_PREEMPT job: it exists only when the host asks for preemption
; (-o preempt=1). Job 2 is a PREEMPT point (id 5): with preemption it runs its save page
; (label scope save_ctx) and then its restore page (restore_ctx) before job 3 may start;
; without it, PREEMPT does nothing. The SAVE_TIMESTAMPS ids show what ran: 3 alone with
; -o preempt=0; 1, 11, 12, 3 with -o preempt=1. Newest spec: -o spec=latest.
START_COND_JOB_PREEMPT 1
  SAVE_TIMESTAMPS   1
END_JOB
START_JOB 2
  PREEMPT           5, @save_ctx, @restore_ctx
END_JOB
START_JOB 3
  SAVE_TIMESTAMPS   3
END_JOB
EOF

.section .ctrltext
save_ctx:
START_JOB 11
  SAVE_TIMESTAMPS   11
END_JOB
EOF
.endl save_ctx

.section .ctrltext
restore_ctx:
START_JOB 12
  SAVE_TIMESTAMPS   12
END_JOB
EOF
.endl restore_ctx
