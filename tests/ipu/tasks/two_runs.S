/* tests/ipu/tasks/two_runs.S: two vertex runs in worker context W0 (thread 1), for
 * tests/ipu/tasks.t.sh (issue 11 pt 5: a vertex run is a task from its `run` to the worker's
 * exit). Timing (docs/isa/ipu.md "Execution model"; -o sup_dep_cycles=6, run_cycles=6):
 *  - supervisor: setzi $m0 at 0, setzi $m2 at 1, `run $m0` reads $m0 written at 0: issues at
 *    6, slot 6 % 6 = 0, so W0 runs wa; `sync 2` (LOCAL) at 7 waits until no worker is active;
 *  - W0 (wa): first issue at the first slot-0 cycle >= 6 + 6: 12; six bundles (setzi, four
 *    brnzdec: $m1 = 3 is taken three times, falls through at 0, exitz) at 12, 18 .. 42, so
 *    it exits at 43: task 0 is [6, 43), 37 cycles, 6 instructions, 6 issue cycles, barrel
 *    stalls 12 - 7 = 5 before its first issue and 5 between each two: 30;
 *  - supervisor: the sync completes at 43; five setzi at 43 .. 47 (no reads), `run $m2` at 48
 *    (slot 0 again: W0 runs wb) and `sync 2` at 49;
 *  - W0 (wb, the same six bundles): 54, 60 .. 84, exits at 85: task 1 is [48, 85), again 37
 *    cycles, 6 instructions, 30 barrel stalls; the supervisor's `br $m10` at 85 returns.
 * Thread 1's totals (12 instructions, 12 issue cycles, 60 barrel stalls) are the two tasks'. */
.section .text.worker, "ax"
.worker
.align 8
.globl wa
.type wa, @function
wa:
  setzi $m1, 3
.La:
  brnzdec $m1, .La
  exitz $mzero
.size wa, . - wa
.align 8
.globl wb
.type wb, @function
wb:
  setzi $m1, 3
.Lb:
  brnzdec $m1, .Lb
  exitz $mzero
.size wb, . - wb

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, wa
  setzi $m2, wb
  run $m0, $m15, 0
  sync 2
  setzi $m1, 0
  setzi $m1, 0
  setzi $m1, 0
  setzi $m1, 0
  setzi $m1, 0
  run $m2, $m15, 0
  sync 2
  br $m10
.size _start, . - _start
