/* tests/ipu/amp/slic_sup.S: ad hoc harness (docs/validation/ipu.md, "AMP and SLIC") that
 * runs PopLibs' ConvPartial1xNSLIC supervisor vertex (1x4 kernel, stride 1) in mode 2 (one
 * conv group, 4 input and 4 output channels, weights loaded straight into the CCCS): our
 * supervisor calls the codelet with $m0 = its vertex state and a stack in $m11. 24 output
 * positions (27 input positions), 4 per worker, one sub-kernel. Built by the commands in docs/validation/ipu.md ("The AMP checks' commands")
 * with -o define=CHAINS=2|4,FLOAT=0|1 together with PopLibs' ConvPartial1x4SLIC sources
 * (not in this repository). Vertex state (ConvPartial1xNSLIC.cpp field order): in, weights,
 * out (pointer tables), outFieldBuffer, worklists (base, DeltaN table: per worker the
 * count of 16-bit entries << 20 | the offset in 16-bit units), mode (chansPerGroupLog2),
 * outPtrLoadOffset, numSubKernelsM1, numConvGroupGroupsM1. */
#define PASTE2(a, b) a##b
#define XPASTE2(a, b) PASTE2(a, b)
#if FLOAT
#define OUT_ELEM 4
#define CODELET XPASTE2(__runCodelet_poplin__ConvPartial1xNSLIC___half_float_1_true_4_, XPASTE2(CHAINS, _4_false))
#else
#define OUT_ELEM 2
#define CODELET XPASTE2(__runCodelet_poplin__ConvPartial1xNSLIC___half_half_1_true_4_, XPASTE2(CHAINS, _4_false))
#endif
#define P 4
#define NOUT (6 * P)
#define NIN (NOUT + 3)
.section .data
.align 16
.globl weights, in, out, buf
in_vectors:      .word in
weights_vectors: .word weights
out_vectors:     .word out
supstate:  .word in_vectors, weights_vectors, out_vectors, buf
           .word worklists, deltan
           .byte 2, 0
           .half 0, 0
.align 4
deltan:    .word (3 << 20) | 0, (3 << 20) | 3, (3 << 20) | 6, (3 << 20) | 9, (3 << 20) | 12, (3 << 20) | 15
/* per worker: input offset, output offset (field positions), positions */
worklists: .half 0 * P, 0 * P, P
           .half 1 * P, 1 * P, P
           .half 2 * P, 2 * P, P
           .half 3 * P, 3 * P, P
           .half 4 * P, 4 * P, P
           .half 5 * P, 5 * P, P
.align 8
stack:     .space 256
stacktop:
.align 16
weights:   .space 64 * 2       /* w[tap][out][in], halves */
in:        .space NIN * 8
inpad:     .space 128
.balign 16384
out:       .space NOUT * 4 * OUT_ELEM
outpad:    .space 64
.align 16
buf:       .space 200 + NOUT * 4 * OUT_ELEM + 64   /* weight-loading scratch, then the buffer */
.section .text.harness, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, supstate
  setzi $m11, stacktop
  or $m9, $m10, 0
  call $m10, CODELET
  br $m9
.size _start, . - _start
