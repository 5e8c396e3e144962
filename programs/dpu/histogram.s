// programs/dpu/histogram.s: 256-bin histogram of n bytes, all tasklets (link with rt/*.s).
// Host protocol: histo_n (WRAM, .dpu_host) = byte count, a multiple of 256; bytes at
// __sys_used_mram_end; the 256 uint32 bins appear in histo_bins. Tasklets share the bins
// under one mutex (an atomic bit), so this also exercises acquire/release contention.
	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	lsl	r10, id, 8
	lw	r11, zero, histo_n
	move	r12, __sys_used_mram_end
	move	r13, histo_buf
	add	r13, r13, r10
	move	r15, NR_TASKLETS*256
.Lblock:
	jgeu	r10, r11, .Ldone
	move	r0, r13
	add	r1, r12, r10
	move	r2, 256
	call	r23, mram_read
	move	r4, r13
	add	r5, r13, 256
.Lbyte:
	lbu	r6, r4, 0
	lsl	r6, r6, 2
	move	r0, histo_lock
	call	r23, mutex_lock
	lw	r7, r6, histo_bins
	add	r7, r7, 1
	sw	r6, histo_bins, r7
	move	r0, histo_lock
	call	r23, mutex_unlock
	add	r4, r4, 1
	jltu	r4, r5, .Lbyte
	add	r10, r10, r15
	jump	.Lblock
.Ldone:
	move	r0, 0
	ld	d22, r22, -8
	jump	r23

	.section	.bss.histo,"aw",@nobits
	.p2align	3
histo_buf:
	.zero	6144
	.section	.dpu_host,"aw",@progbits
	.globl	histo_n
	.globl	histo_bins
	.p2align	3
histo_n:
	.long	0
	.p2align	3
histo_bins:
	.zero	1024
	.section	.atomic,"aw",@progbits
histo_lock:
	.byte	0
