	.section	.text.main,"ax",@progbits
	.globl	main
main:
	sd	r22, 0, d22
	add	r22, r22, 8
	move	r10, 3
.Lloop:
	call	r23, outer
	add	r10, r10, -1
	jnz	r10, .Lloop
	ld	d22, r22, -8
	move	r0, 0
	jump	r23
outer:
	move	r9, r23
	call	r23, inner
	call	r23, inner
	jump	r9
inner:
	add	r1, r1, 1
	add	r1, r1, 2
	jump	r23
// tests/cli/progs/dpu_nested.s: main calls outer 3 times, outer calls inner twice (DPU, one
// tasklet): the call-edge and source-line profile tests (profile_calls.t.sh,
// profile_lines.t.sh). This comment comes last because profile_lines.t.sh names the
// instructions by their line numbers (main 4-13, outer 15-18, inner 20-22).
