// tests/nyuzi/progs/check.h: helpers for the self-checking Nyuzi test programs.
// CHECK(reg, value) compares a scalar register with a constant and jumps to the
// failure report (which prints "FAIL <line>") when they differ; pass() prints "PASS".
// Both end the program by suspending every thread (CR 20).
#define CHECK(reg, val) li s29, val; cmpeq_i s29, s29, reg; bnz s29, 9f; li s28, __LINE__; b report_fail; 9:

.macro print_str label
                lea s26, \label
1:              load_u8 s27, (s26)
                bz s27, 2f
                li s25, 0xffff0048
                store_32 s27, (s25)
                add_i s26, s26, 1
                b 1b
2:
.endm
