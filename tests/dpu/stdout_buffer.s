// tests/dpu/stdout_buffer.s: the two symbols of the DPU runtime's printf that the host side
// reads (the write pointer in WRAM and the MRAM buffer), for test programs that write
// printf records themselves instead of linking the runtime. Assembled beside them.
	.section .data.immediate_memory.st,"aw",@progbits
	.p2align 3
	.globl __stdout_buffer_state
__stdout_buffer_state:
	.zero 8
	.section .mram.noinit,"aw",@progbits
	.p2align 3
	.globl __stdout_buffer
__stdout_buffer:
	.zero 1024
	.size __stdout_buffer, 1024
