// programs/dpu/rt/perfcounter.s: the DPU performance counter.
// perfcounter_config(r0 = mode: 1 cycles, 2 instructions; r1 = reset) returns the previous
// value; perfcounter_get() returns the counter. The `time` instruction gives bits 4 and up,
// so both shift left by 4 (a 16-cycle resolution, as the SDK's perfcounter).
	.section	.text.perfcounter,"ax",@progbits
	.globl	perfcounter_config
perfcounter_config:
	lsl_add	r0, r1, r0, 1
	time_cfg	r0, r0
	lsl	r0, r0, 4
	jump	r23
	.globl	perfcounter_get
perfcounter_get:
	time	r0
	lsl	r0, r0, 4
	jump	r23
