; programs/cert/barriers.asm: two jobs of one uC. Job 1 computes a value with MOV/ADD,
; stores it with WRITE_32_D (address and value from registers), LAUNCHes the deferred
; job 2 and YIELDs to it; job 2 (NOP, READ_32) reads the stored value into $g0 and waits at
; LOCAL_BARRIER $lb1. Job 1 reads the value back with READ_32_D into $r3, writes a word and
; merges new low bits into it with MASK_WRITE_32, then meets job 2 at $lb1. Job 2 checks
; the merge with MASK_POLL_32 (it succeeds at its first attempt only if MASK_WRITE_32 kept
; the high half and replaced the low half; otherwise the run hangs), copies $g0 to another
; word with WRITE_32_D (immediate address, value from $g0 = register 8), checks that with
; POLL_32 and reads the merged word into $g2. The .align 16 before its END_JOB puts 0xA5
; filler bytes into the job, which the job-runner skips at no cost. Runs to EOF.
; MASK_POLL_32's mask is 0x0FFFFFFF, not 0xFFFFFFFF: the 2025.02 assembler (as aiebu
; Feb-2025) writes the value 0xFFFFFFFF as 0 (its "no value"), and a zero mask would
; never match 0xFFFF5A5A. Spec 2025.02. Words used: TILE_0_1 data memory 0x00100010, 0x00100020, 0x00100030.
START_JOB 1
  MOV               $r1, 0x00100010           ; address register
  MOV               $r2, 0x5A
  ADD               $r2, 0x100                ; $r2 = 0x15A
  WRITE_32_D        0, 1, 2                   ; flags 0: address from $r1, value from $r2
  LAUNCH_JOB        2
  YIELD
  READ_32_D         $r1, $r3                  ; $r3 = [0x00100010] = 0x15A
  WRITE_32          0x00100020, 0xFFFF0000
  MASK_WRITE_32     0x00100020, 0x0000FFFF, 0x12345A5A   ; -> 0xFFFF5A5A
  LOCAL_BARRIER     $lb1, 2
END_JOB

START_JOB_DEFERRED 2
  NOP
  READ_32           $g0, 0x00100010           ; $g0 = 0x15A
  LOCAL_BARRIER     $lb1, 2
  MASK_POLL_32      0x00100020, 0x0FFFFFFF, 0x0FFF5A5A   ; (see below)
  WRITE_32_D        2, 0x00100030, 8          ; flags 2: address immediate, value from $g0
  POLL_32           0x00100030, 0x15A
  READ_32           $g2, 0x00100020           ; $g2 = 0xFFFF5A5A
  .align            16
END_JOB

EOF
