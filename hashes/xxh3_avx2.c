/* XXH3 and XXH128 from xxhash.h built for one instruction set, in a
 * translation unit of its own (Makefile: FLAGS_hashes/xxh3_avx2.c). */
#if defined(__x86_64__) || defined(__i386__)
#define XXH3_ISA_BUILT
#define XXH_VECTOR 2 /* XXH_AVX2 */
#endif
#define XXH3_ISA avx2
#define XXH3_ISA_STR "avx2"
#define XXH3_ISA_VECTOR_BYTES 32
#define XXH3_ISA_NEEDS CPU_AVX2
#define XXH3_ISA_WHAT "AVX2 code path (-mavx2)"
#include "xxh3_isa.h"
