/* XXH3 and XXH128 from xxhash.h built for one instruction set, in a
 * translation unit of its own (Makefile: FLAGS_hashes/xxh3_avx512.c). */
#if defined(__x86_64__) || defined(__i386__)
#define XXH3_ISA_BUILT
#define XXH_VECTOR 3 /* XXH_AVX512 */
#endif
#define XXH3_ISA avx512
#define XXH3_ISA_STR "avx512"
#define XXH3_ISA_VECTOR_BYTES 64
#define XXH3_ISA_PAGE_BYTES 4096 /* faster instantiated on Zen 5; not AVX2 or SSE2 (docs/hashes.md) */
#define XXH3_ISA_NEEDS CPU_AVX512F
#define XXH3_ISA_WHAT "AVX-512 code path (-mavx512f)"
#include "xxh3_isa.h"
