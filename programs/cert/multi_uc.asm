; programs/cert/multi_uc.asm: three uCs (columns 0, 1, 2) meet at remote barriers.
; $rb0 (party_mask 0x7) needs all three: uC 0 gets there first, uC 1 after two MOVs, uC 2
; last, after a WRITE_32 into its own column's memory tile; uC 2's arrival releases the
; other two. $rb1 (party_mask 0x3) is for uCs 0 and 1 only: uC 1 waits there for uC 0,
; which first records a timestamp. SAVE_TIMESTAMPS shows when each uC passed $rb0.
; Runs to EOF on every uC. Spec 2025.02.
.attach_to_group 0
START_JOB 1
  REMOTE_BARRIER    $rb0, 0x7
  SAVE_TIMESTAMPS   1
  REMOTE_BARRIER    $rb1, 0x3
END_JOB
EOF

.attach_to_group 1
START_JOB 1
  MOV               $r0, 1
  MOV               $g3, 0x31
  REMOTE_BARRIER    $rb0, 0x7
  REMOTE_BARRIER    $rb1, 0x3
END_JOB
EOF

.attach_to_group 2
START_JOB 1
  WRITE_32          0x04100000, 7             ; TILE_2_1 data memory word 0
  REMOTE_BARRIER    $rb0, 0x7
  SAVE_TIMESTAMPS   2
END_JOB
EOF
