/* isa/ipu/include/poplar/StackSizeDefs.hpp: xpusim's stand-in for the Poplar SDK header whose
 * assembler macros record a codelet's stack use for the Poplar linker (PopLibs calls them as
 * `DEF_STACK_USAGE SIZE NAME` and `DEF_STACK_SIZE_OWN SIZE NAME`, see
 * graphcore/poplibs lib/popops/codelets/asm/CommonPoplibsMacros.h.S). What the SDK emits is
 * not public; ours accept the same arguments and emit nothing, so the code bytes are those
 * the SDK would produce and only the stack-size record is missing. */
#ifndef XPUSIM_IPU_STACKSIZEDEFS_HPP
#define XPUSIM_IPU_STACKSIZEDEFS_HPP
/* Clamp.S (and others) use FUNCTION_IS_WORKER with only this header and
 * CommonPoplibsMacros.h.S included, so the SDK defines it on this path too (value: see
 * TileConstants.hpp). */
#ifndef FUNCTION_IS_WORKER
#define FUNCTION_IS_WORKER "ax"
#endif
.macro DEF_STACK_USAGE SIZE NAME
.endm
.macro DEF_STACK_SIZE_OWN SIZE NAME
.endm
#endif
