; PREEMPT with -o preempt_asm=tests/cert/asm/preempt: one uC (.partition 1column, so
; aie4_save_1c.asm / aie4_restore_1c.asm). hint_a and hint_b name the same scratchpad part
; (chunks 36..43: base 0x240000, 512 KiB): one pair save_1_0/restore_1_0; hint_c chunks
; 40..55 (base 0x280000, 1 MiB, past the 3 MiB region's end): save_1_1/restore_1_1; the
; PREEMPT without a hint map: save_1/restore_1 for base 0, 9 MiB.
.partition 1column
.attach_to_group 0
START_JOB 0
  PREEMPT 1, @save, @restore, @hint_a
END_JOB
START_JOB 1
  PREEMPT 2
END_JOB
START_JOB 2
  PREEMPT 3, @save, @restore, @hint_b
END_JOB
START_JOB 3
  PREEMPT 4, @x, @y, @hint_c
END_JOB
.eop
EOF
hint_a:
  .long 0
  .long 0x00000ff0
hint_b:
  .long 0x0
  .long 0xff0
hint_c:
  .long 0
  .long 0x00ffff00
