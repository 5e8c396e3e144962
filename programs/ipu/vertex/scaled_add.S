/* programs/ipu/vertex/scaled_add.S: data += scale x deltas, written the way PopLibs writes
 * a MultiVertex worker codelet (popops ScaledAdd, float): the entry is the mangled
 * __runCodelet_ name, the vertex state is read through $mvertex_base with named word
 * offsets, the six workers share it and split the work by their $WSR context id (the first
 * pairs % 6 workers take one pair more), the scale goes to $TAS for f32v2axpy, and the
 * loop is a zero-overhead rpt body of bundles. State (scaled_add.vertex):
 *   InOut<Vector<float, ONE_PTR, 8>> data; Input<Vector<float, ONE_PTR, 8>> deltas;
 *   unsigned size (even); float scale. */
#include <poplar/TileConstants.hpp>
#include <poplar/StackSizeDefs.hpp>

#define VERTEX_DATA_OFFSET   0
#define VERTEX_DELTAS_OFFSET 1
#define VERTEX_SIZE_OFFSET   2
#define VERTEX_SCALE_OFFSET  3

#define CODELET __runCodelet_popops__ScaledAdd___float_float

// registers
#define mworker  m0
#define mcount   m1
#define mpairs   m2
#define mbase    m3
#define mrem     m4
#define mtmp     m5
#define mstart   m6
#define mdata    m7
#define mdeltas  m8
#define mout     m9
#define ascale   a6

.globl CODELET
.type CODELET, @function
DEF_STACK_USAGE 0 CODELET
.section .text.CODELET, "ax"
.worker
.align 8
CODELET:
  get $mworker, $WSR
  and $mworker, $mworker, CSR_W_WSR__CTXTID_M1__MASK
  ld32 $mpairs, $mvertex_base, $mzero, VERTEX_SIZE_OFFSET
  shr $mpairs, $mpairs, 1
  mul $mbase, $mpairs, 21846          // pairs / 6 (exact below 32768)
  shr $mbase, $mbase, 17
  mul $mrem, $mbase, 6
  sub $mrem, $mpairs, $mrem           // pairs % 6
  cmpult $mtmp, $mworker, $mrem       // 1 for the first pairs % 6 workers
  add $mcount, $mbase, $mtmp
  min $mtmp, $mworker, $mrem          // first pair: worker * base + min(worker, rem)
  mul $mstart, $mworker, $mbase
  add $mstart, $mstart, $mtmp
  shl $mstart, $mstart, 3
  ld32 $mdata, $mvertex_base, $mzero, VERTEX_DATA_OFFSET
  add $mdata, $mdata, $mstart
  ld32 $mdeltas, $mvertex_base, $mzero, VERTEX_DELTAS_OFFSET
  add $mdeltas, $mdeltas, $mstart
  ld32 $ascale, $mvertex_base, $mzero, VERTEX_SCALE_OFFSET
  uput $TAS, $ascale
  mov $mout, $mdata
  .align 8
  { rpt $mcount, 4
    fnop }
  { ld64step $a0:1, $mzero, $mdeltas+=, 1
    fnop }
  { ld64step $a2:3, $mzero, $mdata+=, 1
    fnop }
  { nop
    f32v2axpy $azeros, $a0:1, $a2:3 }   // (L0, L1) = scale x deltas + data
  { nop
    f32v2axpy $a4:5, $azeros, $azeros } // drain them
  { st64step $a4:5, $mzero, $mout+=, 1
    fnop }
  exitz $mzero
.size CODELET, . - CODELET
