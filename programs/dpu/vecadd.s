// programs/dpu/vecadd.s: C = A + B on uint32 vectors, all tasklets (link with rt/*.s).
// Host protocol: vecadd_n (WRAM, .dpu_host) = element count, a multiple of 64; A at
// __sys_used_mram_end, B right after A, C written right after B. Tasklet t handles the
// 256-byte blocks t, t + NR_TASKLETS, ... : read A and B blocks by DMA, add, write C.
	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	lsl	r10, id, 8
	lw	r11, zero, vecadd_n
	lsl	r11, r11, 2
	move	r12, __sys_used_mram_end
	move	r13, vecadd_bufa
	add	r13, r13, r10
	move	r14, vecadd_bufb
	add	r14, r14, r10
	move	r15, NR_TASKLETS*256
.Lblock:
	jgeu	r10, r11, .Ldone
	move	r0, r13
	add	r1, r12, r10
	move	r2, 256
	call	r23, mram_read
	move	r0, r14
	add	r1, r12, r11
	add	r1, r1, r10
	move	r2, 256
	call	r23, mram_read
	move	r4, 0
.Linner:
	add	r6, r13, r4
	lw	r5, r6, 0
	add	r7, r14, r4
	lw	r8, r7, 0
	add	r5, r5, r8
	sw	r6, 0, r5
	add	r4, r4, 4
	jltu	r4, 256, .Linner
	move	r0, r13
	lsl	r1, r11, 1
	add	r1, r1, r12
	add	r1, r1, r10
	move	r2, 256
	call	r23, mram_write
	add	r10, r10, r15
	jump	.Lblock
.Ldone:
	move	r0, 0
	ld	d22, r22, -8
	jump	r23

	.section	.bss.vecadd,"aw",@nobits
	.p2align	3
vecadd_bufa:
	.zero	6144
vecadd_bufb:
	.zero	6144
	.section	.dpu_host,"aw",@progbits
	.globl	vecadd_n
	.p2align	3
vecadd_n:
	.long	0
	.size	vecadd_n, 4
