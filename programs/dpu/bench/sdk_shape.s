// programs/dpu/bench/sdk_shape.s: host-speed benchmark with the shape of SDK-compiled code
// (link with programs/dpu/rt/*.s): what PrIM kernels spend their instructions on besides
// plain ALU loops. Every tasklet writes a 64-node linked list into its own MRAM region
// (sdma), then runs bench_iters rounds of: 8 steps of pointer chasing through MRAM (an
// 8-byte ldma per node through mram_read, the next address read from the node), for each
// node bench_work calls of a __mulsi3-style routine (an unrolled mul_step loop ending on the
// z condition) multiplying the value by a constant again and again, each product added to
// a 64-bit sum (add/addc); then the sum's low word added to a shared total under a mutex
// (acquire/release), and a barrier (stop/resume handshake). bench_work = 1 is DMA-bound
// (16 tasklets share one DMA engine), larger values make it call- and multiply-bound.
//   xpusim asm --isa dpu programs/dpu/rt/*.s programs/dpu/bench/sdk_shape.s -o s.elf -o tasklets=16
//   xpusim run s.elf -o tasklets=16 --set bench_iters=FILE --set bench_work=FILE  (little-endian uint32s)
// Results: sdk_sum (tasklet id's 64-bit sum at 8 x id, stored by sd: little-endian) and
// sdk_total (the low words summed over the tasklets and rounds).
	.set	NODES, 64
	.set	MULK, 40503

	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	// r12 = this tasklet's MRAM list base, r14 = its WRAM node area (NODES x 8 bytes)
	lsl	r12, id, 9
	add	r12, r12, __sys_used_mram_end
	lsl	r14, id, 9
	add	r14, r14, sdk_nodes
	// node k: {next = base + ((5k + 1) mod NODES) x 8, value = k + id}
	move	r4, 0
.Lbuild:
	lsl_add	r5, r4, r4, 2
	add	r5, r5, 1
	and	r5, r5, NODES-1
	lsl_add	r5, r12, r5, 3
	lsl_add	r6, r14, r4, 3
	sw	r6, 0, r5
	add	r7, id, r4
	sw	r6, 4, r7
	add	r4, r4, 1
	jltu	r4, NODES, .Lbuild
	move	r0, r14
	move	r1, r12
	move	r2, NODES*8
	call	r23, mram_write
	call	r23, barrier_wait
	// the chase: r12 = node address, r13 = rounds left, d10 = 64-bit sum, r15 = node buffer
	lw	r13, zero, bench_iters
	lw	r17, zero, bench_work
	move	r10, 0
	move	r11, 0
	lsl	r15, id, 3
	add	r15, r15, sdk_node
.Lround:
	move	r16, 8
.Lchase:
	move	r0, r15
	move	r1, r12
	move	r2, 8
	call	r23, mram_read
	lw	r12, r15, 0
	lw	r0, r15, 4
	move	r18, r17
.Lwork:
	move	r1, MULK
	call	r23, sdk_mulsi3
	add	r11, r11, r0
	addc	r10, r10, 0
	add	r18, r18, -1, nz, .Lwork
	add	r16, r16, -1, nz, .Lchase
	move	r0, sdk_lock
	call	r23, mutex_lock
	lw	r4, zero, sdk_total
	add	r4, r4, r11
	sw	zero, sdk_total, r4
	move	r0, sdk_lock
	call	r23, mutex_unlock
	call	r23, barrier_wait
	add	r13, r13, -1, nz, .Lround
	sd	id8, sdk_sum, d10
	move	r0, 0
	ld	d22, r22, -8
	jump	r23

// r0 = r0 x r1 (low 32 bits) for r1 < 65536, as the runtime's __mulsi3 computes it: the
// multiplier r1 in the even register of d2 is shifted right one bit per step, the odd
// register accumulates r0 << k for each set bit k; the z condition leaves when no bit is
// left. Clobbers r2, r3.
	.section	.text.sdk_mulsi3,"ax",@progbits
sdk_mulsi3:
	move	r2, r1
	move	r3, 0
	jeq	r2, 0, .Lm_done
	mul_step	d2, r0, d2, 0, z, .Lm_done
	mul_step	d2, r0, d2, 1, z, .Lm_done
	mul_step	d2, r0, d2, 2, z, .Lm_done
	mul_step	d2, r0, d2, 3, z, .Lm_done
	mul_step	d2, r0, d2, 4, z, .Lm_done
	mul_step	d2, r0, d2, 5, z, .Lm_done
	mul_step	d2, r0, d2, 6, z, .Lm_done
	mul_step	d2, r0, d2, 7, z, .Lm_done
	mul_step	d2, r0, d2, 8, z, .Lm_done
	mul_step	d2, r0, d2, 9, z, .Lm_done
	mul_step	d2, r0, d2, 10, z, .Lm_done
	mul_step	d2, r0, d2, 11, z, .Lm_done
	mul_step	d2, r0, d2, 12, z, .Lm_done
	mul_step	d2, r0, d2, 13, z, .Lm_done
	mul_step	d2, r0, d2, 14, z, .Lm_done
	mul_step	d2, r0, d2, 15, z, .Lm_done
.Lm_done:
	move	r0, r3
	jump	r23

	.section	.bss.sdk,"aw",@nobits
	.p2align	3
sdk_nodes:
	.zero	12288
sdk_node:
	.zero	192
	.section	.dpu_host,"aw",@progbits
	.globl	bench_iters
	.globl	sdk_sum
	.globl	sdk_total
	.p2align	3
bench_iters:
	.long	100
	.globl	bench_work
bench_work:
	.long	1
	.p2align	3
sdk_sum:
	.zero	192
sdk_total:
	.long	0
	.section	.atomic,"aw",@progbits
sdk_lock:
	.byte	0
