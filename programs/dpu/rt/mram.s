// programs/dpu/rt/mram.s: DMA between WRAM and MRAM.
// mram_read(r0 = WRAM address, r1 = MRAM address, r2 = bytes) and mram_write(same): sizes
// are multiples of 8 in 8..2048 and addresses 8-byte aligned. The transfer length goes in
// the top byte of the WRAM operand ((bytes/8 - 1) << 24), as SDK code does; the calling
// tasklet sleeps until the DPU's DMA engine has finished. Clobbers r2, r3.
	.section	.text.mram,"ax",@progbits
	.globl	mram_read
mram_read:
	lsr	r2, r2, 3
	add	r2, r2, -1
	lsl_add	r3, r0, r2, 24
	ldma	r3, r1, 0
	jump	r23
	.globl	mram_write
mram_write:
	lsr	r2, r2, 3
	add	r2, r2, -1
	lsl_add	r3, r0, r2, 24
	sdma	r3, r1, 0
	jump	r23
