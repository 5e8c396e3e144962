/* isa/nyuzi/exec_ops_end.h: undefines the macros an includer of exec_ops.inc supplies (its
 * head lists them: OP, OPS, END, END_SYS, END_MARKER, TAKEN, TAKEN_SYS, FAILED, REPEAT,
 * EF_MEM, EF_PADDR, EF_FULL, NYZ_COSIM, NYZ_FUNCTIONAL, NYZ_LANES_UNROLL), once the function
 * that includes the bodies is closed: the cycle model (pipeline.c) and the memoized replay
 * (memo.c) each define their own, and a leftover would silently feed the next includer. */
#undef OP
#undef OPS
#undef END
#undef END_SYS
#undef END_MARKER
#undef TAKEN
#undef TAKEN_SYS
#undef FAILED
#undef REPEAT
#undef EF_MEM
#undef EF_PADDR
#undef EF_FULL
#undef NYZ_COSIM
#undef NYZ_FUNCTIONAL
#undef NYZ_LANES_UNROLL
