/* Which of the registered crc32c entries the kernel's own crc32c() would run
 * on this CPU (see hash_kernel_crc32c in impls.h): lib/crc/x86/crc32.h of
 * 6.17 on x86 (the VPCLMULQDQ path where AVX-512 is "good", crc32c_x86_3way
 * from 512 bytes, the inline crc32 loop below), lib/crc/arm64 on arm64, the
 * portable tables elsewhere; in an older release the paths newer than it
 * (their registry entries' kernel.since) are left out: a 6.1 kernel on a
 * Zen 4 runs the 3-way loop, and one before 3.8 the single crc32q stream. */
#include <string.h>

#include "../common/kernel_release.h"
#include "cpu_features.h"
#include "cpu_identity.h"
#include "impls.h"

#if defined(__x86_64__)
#define KERNEL_CRC_LIBRARY_SINCE "6.14" /* lib/crc's crc32c_x86_3way(), before: crc32c-intel's crc_pcl */

/* X86_FEATURE_PREFER_YMM: Intel family 6 models whose clock drops with
 * 512-bit vectors (arch/x86/kernel/cpu/intel.c, zmm_exclusion_list):
 * Skylake-X, Ice Lake (X, D, client, L, NNPI), Tiger Lake (L and client). */
static int kernel_prefers_ymm(const struct cpu_identity *id)
{
	static const unsigned models[] = { 0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x9d, 0x8c, 0x8d };

	if (strcmp(id->vendor, "GenuineIntel") != 0 || id->family != 6)
		return 0;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (id->model == models[i])
			return 1;
	return 0;
}
#endif

const struct hash_impl *hash_kernel_crc32c(size_t len, const struct kernel_release *rel, const char **why)
{
	uint32_t f = cpu_features();
	const char *reason = "no crc32 instruction: tables";
	const struct hash_impl *h = &hash_crc32c_generic;

#if defined(__x86_64__)
	const uint32_t good_avx512 = CPU_VPCLMUL | CPU_AVX2 | CPU_AVX512BW | CPU_AVX512VL;
	if (f & CPU_SSE42) {
		h = &hash_crc32c_sse42;
		reason = len < 512		 ? "inline crc32q loop below 512 B"
			 : !(f & CPU_PCLMUL) ? "inline crc32q loop: no PCLMULQDQ"
					     : "inline crc32q loop: the 3-way path came in 3.8";
		if (len >= 512 && (f & CPU_PCLMUL) && kernel_release_at_least(rel, hash_crc32c_3way.kernel.since)) {
			int good = (f & good_avx512) == good_avx512 && !kernel_prefers_ymm(cpu_identity());
			int avx512_path = kernel_release_at_least(rel, hash_crc32c_vpclmul.kernel.since);
			/* The same 3-way code moved from the crc32c-intel driver
			 * (crc_pcl) into the CRC library in 6.14. */
			int library = kernel_release_at_least(rel, KERNEL_CRC_LIBRARY_SINCE);
			h = good && avx512_path ? &hash_crc32c_vpclmul : &hash_crc32c_3way;
			reason = good && avx512_path ? "crc32_lsb_vpclmul_avx512(), 6.17+"
				 : good		     ? (library ? "crc32c_x86_3way(): the AVX-512 path came in 6.17"
							: "crc_pcl() of the crc32c-intel driver: the AVX-512 path came "
							  "in 6.17")
				 : avx512_path ? "crc32c_x86_3way(): no good AVX-512"
				 : library     ? "crc32c_x86_3way(), from 512 B"
					       : "crc_pcl() of the crc32c-intel driver, from 512 B";
		}
	}
#elif defined(__i386__)
	(void)len;
	(void)rel;
	if (f & CPU_SSE42) {
		h = &hash_crc32c_sse42;
		reason = "inline crc32l loop on 32-bit x86";
	}
#elif defined(__aarch64__)
	(void)len;
	if (f & CPU_ARM_CRC32) {
		int has = kernel_release_at_least(rel, hash_crc32c_armv8.kernel.since);
		h = has ? &hash_crc32c_armv8 : &hash_crc32c_generic;
		reason = has ? "arm64 crc32c instructions" : "tables: the arm64 crc32c instructions came in 3.19";
	}
#else
	(void)len;
	(void)rel;
	(void)f;
#endif
	if (why)
		*why = reason;
	return h;
}
