// programs/dpu/rt/crt0.s: xpusim's own DPU bootstrap (not the SDK's). Tasklet 0 starts at
// IRAM 0 (the host boots it), frees the program's atomic bits, and every tasklet boots the
// next one until NR_TASKLETS-1; each loads its {stack size, stack pointer} pair into d22
// (r22 = stack pointer, growing upwards), calls main, stores main's return value in
// __rt_exit_codes[id] and stops. The DPU is done when every RUN bit is clear.
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	jnz	id, __rt_start
	move	r23, __atomic_end_addr
__rt_clear:
	jeq	r23, __atomic_used_addr, __rt_start
	add	r23, r23, -1
	release	r23, 0, nz, __rt_clear
	jump	__rt_clear
__rt_start:
	jeq	id, NR_TASKLETS-1, __rt_noboot
	boot	id, 1
__rt_noboot:
	ld	d22, id8, __rt_stack_table
	call	r23, main
	sw	id4, __rt_exit_codes, r0
	.globl	__sys_end
__sys_end:
	stop	true, __sys_end

	.section	.data.__sys_keep,"aw",@progbits
	.p2align	3
__rt_stack_table:
	.long	STACK_SIZE_TASKLET_0, __sys_stack_thread_0
	.long	STACK_SIZE_TASKLET_1, __sys_stack_thread_1
	.long	STACK_SIZE_TASKLET_2, __sys_stack_thread_2
	.long	STACK_SIZE_TASKLET_3, __sys_stack_thread_3
	.long	STACK_SIZE_TASKLET_4, __sys_stack_thread_4
	.long	STACK_SIZE_TASKLET_5, __sys_stack_thread_5
	.long	STACK_SIZE_TASKLET_6, __sys_stack_thread_6
	.long	STACK_SIZE_TASKLET_7, __sys_stack_thread_7
	.long	STACK_SIZE_TASKLET_8, __sys_stack_thread_8
	.long	STACK_SIZE_TASKLET_9, __sys_stack_thread_9
	.long	STACK_SIZE_TASKLET_10, __sys_stack_thread_10
	.long	STACK_SIZE_TASKLET_11, __sys_stack_thread_11
	.long	STACK_SIZE_TASKLET_12, __sys_stack_thread_12
	.long	STACK_SIZE_TASKLET_13, __sys_stack_thread_13
	.long	STACK_SIZE_TASKLET_14, __sys_stack_thread_14
	.long	STACK_SIZE_TASKLET_15, __sys_stack_thread_15
	.long	STACK_SIZE_TASKLET_16, __sys_stack_thread_16
	.long	STACK_SIZE_TASKLET_17, __sys_stack_thread_17
	.long	STACK_SIZE_TASKLET_18, __sys_stack_thread_18
	.long	STACK_SIZE_TASKLET_19, __sys_stack_thread_19
	.long	STACK_SIZE_TASKLET_20, __sys_stack_thread_20
	.long	STACK_SIZE_TASKLET_21, __sys_stack_thread_21
	.long	STACK_SIZE_TASKLET_22, __sys_stack_thread_22
	.long	STACK_SIZE_TASKLET_23, __sys_stack_thread_23

	.section	.dpu_host,"aw",@progbits
	.globl	__rt_exit_codes
	.p2align	3
__rt_exit_codes:
	.zero	96
