/* isa/ipu/include/poplar/AvailableVTypes.h: xpusim's stand-in for the Poplar SDK header that
 * says which compact vertex-field types (scaled pointers, short spans, DeltaN lists) the
 * target has, so PopLibs' codelets pick their field layout. The SDK's choice per target is
 * not public; we declare all of them available (the layouts PopLibs' own C++ codelets
 * describe for ipu1/ipu2 builds), unless XPUSIM_IPU_NO_COMPACT_VTYPES is defined
 * (-o define=XPUSIM_IPU_NO_COMPACT_VTYPES). An assumption: docs/isa/ipu.md, "Assembler". */
#ifndef XPUSIM_IPU_AVAILABLEVTYPES_H
#define XPUSIM_IPU_AVAILABLEVTYPES_H
#ifndef XPUSIM_IPU_NO_COMPACT_VTYPES
#define VECTOR_AVAIL_SCALED_PTR32 1
#define VECTOR_AVAIL_SCALED_PTR64 1
#define VECTOR_AVAIL_SHORT_SPAN 1
#define VECTORLIST_AVAIL_DELTAN 1
#endif
#endif
