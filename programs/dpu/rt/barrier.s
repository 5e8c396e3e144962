// programs/dpu/rt/barrier.s: barrier_wait() for all NR_TASKLETS tasklets. Arrivals count
// under an atomic-bit lock; the waiting tasklets stop (leaving the pipeline, RUN bit clear)
// and the last one resumes each of them. A waiter may not have reached its stop yet when the
// last arrival resumes it, so the resume is retried until it reports the tasklet stopped.
// Clobbers r0, r1.
	.section	.text.barrier,"ax",@progbits
	.globl	barrier_wait
barrier_wait:
	acquire	zero, __rt_bar_lock, nz, barrier_wait
	lw	r0, zero, __rt_bar_count
	add	r0, r0, 1
	jeq	r0, NR_TASKLETS, __rt_bar_last
	sw	zero, __rt_bar_count, r0
	release	zero, __rt_bar_lock, nz, __rt_bar_sleep
__rt_bar_sleep:
	stop	true, __rt_bar_back
__rt_bar_back:
	jump	r23
__rt_bar_last:
	sw	zero, __rt_bar_count, 0
	move	r0, id
	move	r1, 0
__rt_bar_loop:
	jeq	r1, r0, __rt_bar_next
__rt_bar_resume:
	resume	r1, 0, nz, __rt_bar_resume
__rt_bar_next:
	add	r1, r1, 1
	jneq	r1, NR_TASKLETS, __rt_bar_loop
	release	zero, __rt_bar_lock, nz, __rt_bar_done
__rt_bar_done:
	jump	r23

	// in immediate memory (below 2 KB, as the SDK's linker script places it) so that the
	// 12-bit offset of 'sw zero, __rt_bar_count, 0' reaches it wherever the program's data is
	.section	.data.immediate_memory.__rt_bar,"aw",@progbits
	.p2align	2
__rt_bar_count:
	.long	0
	.section	.atomic,"aw",@progbits
__rt_bar_lock:
	.byte	0
