; xpusim test: a PDI in its own label scope (LOAD_PDI page ids, out-of-order lengths) and .setpad
.setpad scratch, 0x10
.setpad blob, blob.bin
START_JOB 0
  LOAD_PDI 3, @pdi_a
  APPLY_OFFSET_57 @bd9, 1, 0xFFFF, @scratch
  WRITE_32 0x10, @blob
END_JOB
EOF
  .align 16
bd9:
  .long 0x1
  .long 0x2
  .long 0x3
  .long 0x4
  .long 0x5
  .long 0x6
  .long 0x7
  .long 0x8
  .long 0x9
.section .ctrltext
pdi_a:
START_JOB 5
  WRITE_32 0x200, 0x300
  MASK_WRITE_32 0x204, 0xF, 0x1
END_JOB
EOF
.endl pdi_a
