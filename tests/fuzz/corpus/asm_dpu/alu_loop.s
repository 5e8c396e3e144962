// programs/dpu/bench/alu_loop.s: host-speed benchmark. Every tasklet runs bench_iters
// iterations (default 1,000,000; host-settable) of a 6-instruction ALU loop with a taken
// branch, a load and a store, then stops: ~6 x iterations x NR_TASKLETS instructions.
// Link alone (it has its own __bootstrap):
//   xpusim asm --isa dpu programs/dpu/bench/alu_loop.s -o alu.elf -o tasklets=16
//   xpusim run alu.elf -o tasklets=16
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	jeq	id, NR_TASKLETS-1, .Lgo
	boot	id, 1
.Lgo:
	lw	r0, zero, bench_iters
	move	r1, 0
	move	r2, 1
.Lloop:
	add	r1, r1, r2
	lsl_add	r2, r2, r1, 1
	xor	r3, r1, r2
	sw	id4, bench_out, r3
	lw	r4, id4, bench_out
	add	r0, r0, -1, nz, .Lloop
	stop

	.section	.dpu_host,"aw",@progbits
	.globl	bench_iters
	.p2align	3
bench_iters:
	.long	1000000
	.globl	bench_out
bench_out:
	.zero	96
