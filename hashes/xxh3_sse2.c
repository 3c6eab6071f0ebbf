/* XXH3 and XXH128 from xxhash.h built for one instruction set, in a
 * translation unit of its own (Makefile: FLAGS_hashes/xxh3_sse2.c). */
#if defined(__x86_64__) || defined(__i386__)
#define XXH3_ISA_BUILT
#define XXH_VECTOR 1 /* XXH_SSE2 */
#endif
#define XXH3_ISA sse2
#define XXH3_ISA_STR "sse2"
#define XXH3_ISA_VECTOR_BYTES 16
#define XXH3_ISA_NEEDS CPU_SSE2
#define XXH3_ISA_WHAT "SSE2 code path (-msse2)"
#include "xxh3_isa.h"
