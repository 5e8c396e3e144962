// programs/dpu/reduce.s: sum of n uint32 values (mod 2^32), all tasklets (link with rt/*.s).
// Host protocol: reduce_n (WRAM, .dpu_host) = count, a multiple of 64; data at
// __sys_used_mram_end; the sum appears in reduce_result. Each tasklet sums its 256-byte
// blocks into reduce_partial[id]; after barrier_wait tasklet 0 adds the partial sums.
	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	lsl	r10, id, 8
	lw	r11, zero, reduce_n
	lsl	r11, r11, 2
	move	r12, __sys_used_mram_end
	move	r13, reduce_buf
	add	r13, r13, r10
	move	r15, NR_TASKLETS*256
	move	r9, 0
.Lblock:
	jgeu	r10, r11, .Lsummed
	move	r0, r13
	add	r1, r12, r10
	move	r2, 256
	call	r23, mram_read
	move	r4, r13
	add	r5, r13, 256
.Linner:
	lw	r6, r4, 0
	add	r9, r9, r6
	add	r4, r4, 4
	jltu	r4, r5, .Linner
	add	r10, r10, r15
	jump	.Lblock
.Lsummed:
	sw	id4, reduce_partial, r9
	call	r23, barrier_wait
	jnz	id, .Lout
	move	r9, 0
	move	r4, 0
.Lsum:
	lw	r6, r4, reduce_partial
	add	r9, r9, r6
	add	r4, r4, 4
	jltu	r4, NR_TASKLETS*4, .Lsum
	sw	zero, reduce_result, r9
.Lout:
	move	r0, 0
	ld	d22, r22, -8
	jump	r23

	.section	.bss.reduce,"aw",@nobits
	.p2align	3
reduce_buf:
	.zero	6144
reduce_partial:
	.zero	96
	.section	.dpu_host,"aw",@progbits
	.globl	reduce_n
	.globl	reduce_result
	.p2align	3
reduce_n:
	.long	0
reduce_result:
	.long	0
