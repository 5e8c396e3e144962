// programs/dpu/rt/mutex.s: mutexes on the DPU's atomic bits.
// mutex_lock(r0 = atomic bit): spins on acquire (its nz condition = already taken);
// mutex_unlock(r0 = atomic bit): releases. Declare a mutex with `.section .atomic` + a label
// + `.byte 0`; pass its address (the bit number) in r0.
	.section	.text.mutex,"ax",@progbits
	.globl	mutex_lock
mutex_lock:
	acquire	r0, 0, nz, mutex_lock
	jump	r23
	.globl	mutex_unlock
mutex_unlock:
	release	r0, 0, nz, __rt_unlocked
__rt_unlocked:
	jump	r23
