; tests/cert/debug/labels.asm: a label for tests/cert/debug.t.sh's `break LABEL` check
; (assembled with -o symbols=1, one symbol per label, value = its pc). aiebu's syntax puts
; text labels only on out-of-order pages: pdi_a names page 1, whose first opcode
; (START_JOB 20, read by the uC's parser) is at offset 0x10; job 20's first own opcode,
; MOV $r3, is at pdi_a+8 (pc 0x2018). Job 1 runs the page with LOAD_PDI; job 2 follows.
START_JOB 1
  LOAD_PDI 7, @pdi_a
END_JOB
START_JOB 2
  MOV $r0, 2
END_JOB
EOF

.section .ctrltext
pdi_a:
START_JOB 20
  MOV $r3, 0x30
  SAVE_TIMESTAMPS 20
END_JOB
EOF
.endl pdi_a
