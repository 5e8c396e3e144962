// programs/dpu/host/trap.s: a DPU program that faults at once (`fault 3`, the runtime's
// assert code), for the host-API tests: dpu_launch must return DPU_ERR_DPU_FAULT.
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	fault	3
