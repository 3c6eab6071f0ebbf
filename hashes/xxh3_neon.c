/* XXH3 and XXH128 from xxhash.h built for one instruction set, in a
 * translation unit of its own (Makefile: FLAGS_hashes/xxh3_neon.c). */
#if defined(__aarch64__)
#define XXH3_ISA_BUILT
#define XXH_VECTOR 4 /* XXH_NEON */
#endif
#define XXH3_ISA neon
#define XXH3_ISA_STR "neon"
#define XXH3_ISA_VECTOR_BYTES 16
#define XXH3_ISA_NEEDS CPU_ARM_NEON
#define XXH3_ISA_WHAT "NEON code path (arm64)"
#include "xxh3_isa.h"
