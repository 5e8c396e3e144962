// programs/dpu/stream.s: DMA-bound copy of n bytes MRAM -> WRAM -> MRAM in 2048-byte
// blocks, all tasklets (link with rt/*.s). Host protocol: stream_n (WRAM, .dpu_host) =
// byte count, a multiple of 2048; source at __sys_used_mram_end, copy written right after.
// Almost all time is DMA: the engine serialises the transfers of all tasklets.
	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	lsl	r10, id, 11
	lw	r11, zero, stream_n
	move	r12, __sys_used_mram_end
	move	r13, stream_buf
	lsl	r14, id, 11
	add	r13, r13, r14
	move	r15, NR_TASKLETS*2048
.Lblock:
	jgeu	r10, r11, .Ldone
	move	r0, r13
	add	r1, r12, r10
	move	r2, 2048
	call	r23, mram_read
	move	r0, r13
	add	r1, r12, r11
	add	r1, r1, r10
	move	r2, 2048
	call	r23, mram_write
	add	r10, r10, r15
	jump	.Lblock
.Ldone:
	move	r0, 0
	ld	d22, r22, -8
	jump	r23

	.section	.bss.stream,"aw",@nobits
	.p2align	3
stream_buf:
	.zero	32768
	.section	.dpu_host,"aw",@progbits
	.globl	stream_n
	.p2align	3
stream_n:
	.long	0
