; xpusim test (written for xpusim): what the newest aiebu-asm (e811334f) reads or pages
; differently from Feb-2025: three out-of-order targets on one page, label scopes whose
; .endl returns to code, lower-case eof, a data label shared by two job groups of a page,
; a LAUNCH_JOB chain (0 -> 1 -> 2), job ids reused after .eop, APPLY_OFFSET_57 over two
; descriptors (one pair with a pad), actor names of the aie2ps map, 0xFFFFFFFF kept, and
; a second .attach_to_group of a uC that continues it.
.attach_to_group 0
.setpad buf, 64
START_JOB 0
  LAUNCH_JOB 1
  LOAD_PDI 7, @pdi_a
  LOAD_PDI 8, @pdi_b
  LOAD_PDI 9, @pdi_c
  WRITE_32 0x100, 0xFFFFFFFF
END_JOB
START_JOB_DEFERRED 1
  LAUNCH_JOB 2
  UC_DMA_WRITE_DES_SYNC @shared
END_JOB
START_JOB_DEFERRED 2
  WAIT_TCTS TILE_0_0, SHIM_MM2S_0, 1
  WAIT_TCTS TILE_0_1, MEM_S2MM_5, 1
END_JOB
START_JOB 3
  UC_DMA_WRITE_DES_SYNC @shared
  APPLY_OFFSET_57 @tab0, 2, 3
  APPLY_OFFSET_57 @tab2, 2, 0xFFFF, @buf
END_JOB
.eop
START_JOB 0
  WRITE_32 0x200, 1
END_JOB
eof
shared:
  UC_DMA_BD 0, 0x61A0000, @w0, 1, 0, 0
w0:
  .long 0x11
tab0:
  .long 0x80
  .long 0x1000
  .long 0x0
tab1:
  .long 0x80
  .long 0x2000
  .long 0x0
tab2:
  .long 0x0
  .long 0x100
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
tab3:
  .long 0x0
  .long 0x200
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x0
  .long 0x1
.section .ctrltext
pdi_a:
START_JOB 0
  WRITE_32 0x300, 1
END_JOB
EOF
.endl pdi_a
pdi_b:
START_JOB 0
  WRITE_32 0x304, 2
END_JOB
EOF
.endl pdi_b
pdi_c:
START_JOB 0
  WRITE_32 0x308, 3
END_JOB
EOF
.endl pdi_c
.attach_to_group 1
START_JOB 0
  WRITE_32 0x400, my_arg
END_JOB
EOF
.attach_to_group 0
START_JOB 4
  NOP
END_JOB
EOF
