// programs/dpu/host/hello.s: a DPU program for the host-API tests (link with ../rt/*.s,
// one tasklet). Each launch adds 1 to hello_count (WRAM, .dpu_host: kept between launches
// unless the host writes it) and leaves one printf record "launch #N\n" in the runtime's
// MRAM buffer, as the SDK's printf would: format "%s%u%s", then its arguments (a string,
// a uint32 at record offset 16, a string). The host reads it with dpu_log_read.
	.section	.text.main,"ax",@progbits
	.globl	main
main:
	jnz	id, .Lout
	lw	r1, zero, hello_count
	add	r1, r1, 1
	sw	zero, hello_count, r1
	sw	zero, hello_rec+16, r1
	move	r0, hello_rec
	move	r2, __stdout_buffer
	sdma	r0, r2, 2
	move	r3, 22
	sw	zero, __stdout_buffer_state, r3
.Lout:
	move	r0, 0
	jump	r23

	.section	.data.hello,"aw",@progbits
	.p2align	3
hello_rec:
	.ascii	"%s%u%s"
	.byte	0
	.asciz	"launch #"
	.long	0
	.asciz	"\n"
	.zero	2
	.section	.data.immediate_memory.st,"aw",@progbits
	.p2align	3
	.globl	__stdout_buffer_state
__stdout_buffer_state:
	.zero	8
	.section	.dpu_host,"aw",@progbits
	.globl	hello_count
	.p2align	3
hello_count:
	.long	0
	.size	hello_count, 4
	.section	.mram.noinit,"aw",@progbits
	.p2align	3
	.globl	__stdout_buffer
__stdout_buffer:
	.zero	1024
	.size	__stdout_buffer, 1024
