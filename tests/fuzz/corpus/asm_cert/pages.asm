; xpusim test: .eop, a deferred job launched by the job before it, .align inside a job, two uCs
.attach_to_group 0
START_JOB 0
  LAUNCH_JOB 1
  WRITE_32 0x100, 1
END_JOB
START_JOB_DEFERRED 1
  WRITE_32 0x104, 2
  .align 16
  NOP
END_JOB
.eop
START_JOB 2
  UC_DMA_WRITE_DES_SYNC @d2
END_JOB
EOF
  .align 16
d2:
  UC_DMA_BD 0, 0x61A0000, @w2, 1, 0, 0
w2:
  .long 0x7
.attach_to_group 1
START_JOB 0
  WRITE_32 0x2000000, 0xFFFFFFFF
  APPLY_OFFSET_57 @shim_bd, 1, 2
  WRITE_32 0x2000004, my_arg
END_JOB
EOF
  .align 16
shim_bd:
  .long 0x80
  .long 0x0
  .long 0x0
