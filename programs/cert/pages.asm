; programs/cert/pages.asm: three in-order pages (.eop) and two out-of-order pages.
; Page 0 records a timestamp, emits a TRACE probe and SLEEPs 1 us, long enough for page 1
; to arrive in the other sDM buffer meanwhile (ping-pong prefetch). Pages 1 and 2 load:
;   job 2  LOAD_PDI 7, @pdi_a     runs the pdi_a page (its own label scope, its own page)
;   job 3  LOAD_PDI 7, @pdi_a     the same PDI again: skipped
;   (.eop: the assembler allows two out-of-order targets per page header and counts
;    pdi_a once per job, so LOAD_CORES goes to the next page)
;   job 4  LOAD_CORES 9, @cores_a runs the cores_a page
;   job 5  LOAD_LAST_PDI          runs the last PDI's page (pdi_a) once more
;   job 6  LOAD_CORES_CP 9, then SAVE_REGISTER of the word pdi_a counts its runs in
; Each load runs alone (the jobs after it are parsed when it ends). pdi_a adds 1 to
; TILE_0_1's data word 0x00100008 (READ_32, ADD, WRITE_32_D), so SAVE_REGISTER records 2:
; pdi_a ran twice (LOAD_PDI, LOAD_LAST_PDI), the repeated LOAD_PDI did nothing; job 7
; records a last timestamp. Runs to EOF. Newest spec: assemble and run with -o spec=latest.
START_JOB 1
  SAVE_TIMESTAMPS   1
  TRACE             0x801
  SLEEP             1
END_JOB
.eop
START_JOB 2
  LOAD_PDI          7, @pdi_a
END_JOB
START_JOB 3
  LOAD_PDI          7, @pdi_a
END_JOB
.eop
START_JOB 4
  LOAD_CORES        9, @cores_a
END_JOB
START_JOB 5
  LOAD_LAST_PDI
END_JOB
START_JOB 6
  LOAD_CORES_CP     9
  SAVE_REGISTER     0x00100008, 0x42
END_JOB
START_JOB 7
  SAVE_TIMESTAMPS   2
END_JOB
EOF

.section .ctrltext
pdi_a:
START_JOB 20
  READ_32           $r0, 0x00100008
  ADD               $r0, 1
  WRITE_32_D        2, 0x00100008, 0          ; flags 2: address immediate, value $r0
  SAVE_TIMESTAMPS   20
END_JOB
EOF
.endl pdi_a

.section .ctrltext
cores_a:
START_JOB 30
  SAVE_TIMESTAMPS   30
END_JOB
EOF
.endl cores_a
