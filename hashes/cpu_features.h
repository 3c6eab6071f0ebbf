/* Runtime CPU feature detection for hash dispatch (CPUID + XGETBV, or HWCAP). */
#ifndef KB_CPU_FEATURES_H
#define KB_CPU_FEATURES_H

#include <stdint.h>

#include "../common/err.h"

/* One bit per instruction-set feature an implementation may need. A feature
 * counts as present only when the OS also saves the registers it uses. */
enum cpu_feature {
	CPU_SSE2 = 1u << 0,
	CPU_SSE42 = 1u << 1,      /* crc32 instruction */
	CPU_PCLMUL = 1u << 2,     /* pclmulqdq */
	CPU_AVX = 1u << 3,
	CPU_AVX2 = 1u << 4,
	CPU_AVX512F = 1u << 5,
	CPU_AVX512VL = 1u << 6,
	CPU_AVX512BW = 1u << 7,
	CPU_VPCLMUL = 1u << 8,    /* vpclmulqdq on 256/512-bit vectors */
	CPU_ARM_CRC32 = 1u << 9,
	CPU_ARM_PMULL = 1u << 10,
	CPU_ARM_NEON = 1u << 11,
};

/* Features of this CPU, minus any masked with cpu_features_disable(). */
uint32_t cpu_features(void);

/* Features of this CPU as detected, ignoring cpu_features_disable(): what
 * libraries with their own dispatch (ISA-L, libxxhash) will use. */
uint32_t cpu_features_detected(void);

/* Masks features by name, as if the CPU lacked them, so that the paths for
 * older CPUs can be exercised here; the features built on one go with it
 * (avx512f takes avx512vl, avx512bw; avx2 takes AVX-512; avx takes avx2,
 * AVX-512 and vpclmulqdq). names: comma-separated, e.g. "avx512f,sse4.2". */
int cpu_features_disable(const char *names, struct kb_err *err);

/* Undoes cpu_features_disable(). */
void cpu_features_enable_all(void);

/* Writes the names of the features in mask, comma-separated, into buf. */
const char *cpu_features_names(uint32_t mask, char *buf, unsigned size);

/* Clears the upper halves of the vector registers after foreign AVX code, so
 * that legacy-SSE code run next does not pay the state-transition penalty.
 * A no-op where the CPU has no AVX. */
void cpu_vector_state_clean(void);

#endif
