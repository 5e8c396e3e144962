/* programs/ipu/common.h: what the example kernels share. Each kernel splits N elements
 * over the six workers: worker k (its $WSR context id) takes the slice of SLICE elements
 * at k x SLICE. The supervisor starts all six with runall and returns; the tile halts
 * when the last worker exits. */
#define WORKERS 6
#define SLICE (N / WORKERS)

/* $m0 = this worker's index 0..5 ($WSR.CTXTID_M1), $m5 = its byte offset, elem bytes each */
.macro WORKER_OFFSET elem
  get $m0, $WSR
  and $m0, $m0, 7
  mul $m5, $m0, SLICE * \elem
.endm

/* the supervisor: start every worker at \entry, then return to the host */
.macro SUPERVISOR entry
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, \entry
  runall $m0, $m15, 0
  br $m10
.size _start, . - _start
.endm
