; PREEMPT in two uCs (0 and 2): aie4_save_1c0.asm (save_1) for uC 0 and aie4_save_1c1.asm
; (save_2) for uC 2, whatever .partition says; one PREEMPT in each, as aiebu requires.
.partition 3column
.attach_to_group 0
START_JOB 0
  PREEMPT 7
END_JOB
.eop
EOF
.attach_to_group 2
START_JOB 0
  PREEMPT 7, @save, @restore, @hm
END_JOB
.eop
EOF
hm:
  .long 0x3
