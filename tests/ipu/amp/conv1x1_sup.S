/* tests/ipu/amp/conv1x1_sup.S: ad hoc harness (docs/validation/ipu.md, "AMP and SLIC") that
 * runs PopLibs' ConvPartial1x1Out supervisor vertex: our supervisor calls the codelet with
 * $m0 = its vertex state and a stack in $m11, as PopLibs' supervisor codelets expect, then
 * returns to the host. One convolution group, one input and one output channel group, 8
 * output channels, 24 field positions split 4 per worker (num_elems - 3 = 1 in each
 * partition entry), contiguous input and output (strides of one 64-bit load). Built by
 * the commands in docs/validation/ipu.md with -o define=HALF=1 or FLOAT=1 next to a copy of PopLibs' codelets
 * (not in this repository). */
#define PASTE3(a, b, c) a##b##c
#define XPASTE3(a, b, c) PASTE3(a, b, c)  /* LD128 (true|false) expanded first */
#if HALF
#include "conv_partial_1x1_half_half.S"
#define IN_BYTES 32          /* 16 half input channels per position */
#define OUT_BYTES 16         /* 8 half output channels */
#define OUTSTRIDE 4          /* the supervisor shifts it right by 2 for half partials */
#define CODELET XPASTE3(__runCodelet_poplin__ConvPartial1x1Out___half_half_true_, LD128, _8_4_false)
#else
#include "conv_partial_1x1_float_float.S"
#define IN_BYTES 32          /* 8 float input channels */
#define OUT_BYTES 32         /* 8 float output channels */
#define OUTSTRIDE 2          /* shifted right by 1 for float partials */
#define CODELET XPASTE3(__runCodelet_poplin__ConvPartial1x1Out___float_float_true_, LD128, _8_2_false)
#endif
#define P 4
#define N (6 * P)
.section .data
.align 16
.globl weights, in, out
weights:         .space 8 * IN_BYTES
inchan_vectors:  .word in
weights_vectors: .word weights
outchan_vectors: .word out
/* SUP_INCHAN_VECTORS, SUP_WEIGHTS_VECTORS, SUP_OUTCHAN_VECTORS, SUP_PARTITION; conv groups
 * - 1, output channel groups - 1, input channel groups, input stride, output channels per
 * group, output stride */
supstate:  .word inchan_vectors, weights_vectors, outchan_vectors, partition
           .half 0, 0, 1, 1, 8, OUTSTRIDE
/* per worker: output offset and input offset in 64-bit words, positions - 3 */
partition: .half 0 * P * OUT_BYTES / 8, P - 3, 0 * P * IN_BYTES / 8
           .half 1 * P * OUT_BYTES / 8, P - 3, 1 * P * IN_BYTES / 8
           .half 2 * P * OUT_BYTES / 8, P - 3, 2 * P * IN_BYTES / 8
           .half 3 * P * OUT_BYTES / 8, P - 3, 3 * P * IN_BYTES / 8
           .half 4 * P * OUT_BYTES / 8, P - 3, 4 * P * IN_BYTES / 8
           .half 5 * P * OUT_BYTES / 8, P - 3, 5 * P * IN_BYTES / 8
.align 8
stack:     .space 256
stacktop:
.align 8
in:        .space N * IN_BYTES
inpad:     .space 128          /* the codelets read past the last position */
.balign 16384                  /* out in another memory element (the pace forms) */
out:       .space N * OUT_BYTES
outpad:    .space 128
.section .text.harness, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, supstate
  setzi $m11, stacktop
  or $m9, $m10, 0                /* the codelet keeps $m9 (callee-saved) */
  call $m10, CODELET
  br $m9
.size _start, . - _start
