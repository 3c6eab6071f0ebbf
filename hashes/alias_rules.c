/* The alias table: which implementation the `crc32c`, `xxh3` and `xxh128`
 * aliases stand for on CPUs where it was measured. Every line cites the
 * section of docs/hashes.md with the CPU, the figures and the date; add a
 * line only with such a measurement. A NULL choice leaves that alias to the
 * start-up measurement on that CPU. */
#include <string.h>

#include "alias.h"
#include "cpu_features.h"
#include "cpu_identity.h"

#define AMD "AuthenticAMD"
#define INTEL "GenuineIntel"

const struct alias_rule alias_rules[] = {
	/* Family 25 model 0x11 (Genoa-class) with AVX-512 hidden, the VM of
	 * 2026-12-01: crc32q and vpclmulqdq ymm overlap (9 cycles for a loop
	 * of 6 + 4 whose parts take 6 and 8), fused-avx2 1.40x the 3-way. */
	{ AMD, 0x19, 0x10, 0x1f, CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, CPU_AVX512F,
	  "AMD 25/0x10-0x1f, no AVX-512 (Zen 4, AVX-512 hidden)", "crc32c-fused-avx2", "xxh3-avx2",
	  "xxh128-avx2", "docs/hashes.md#family-25-model-17-avx-512-hidden" },
	/* Zen 3 (family 25 model 1, the VM of 2026-12-05): crc32q and
	 * vpclmulqdq ymm overlap in full (8.0 cycles for 6 + 4, parts 6 and
	 * 8); fused-avx2 39.4-42.3 GB/s, 3way-fit 24.3-25.6, ISA-L 23.2-24.3;
	 * XXH3 AVX2 46.6-49.5 vs dispatch 45.8-46.0; XXH128 AVX2 45.6-46.1
	 * vs SSE2 24.3-24.5. */
	{ AMD, 0x19, 0x00, 0x0f, CPU_AVX2, CPU_AVX512F, "AMD 25/0x00-0x0f (Zen 3)",
	  "crc32c-fused-avx2", "xxh3-avx2", "xxh128-avx2", "docs/hashes.md#family-25-model-1-zen-3" },
	/* Zen 4 with AVX-512 (family 25 model 17, the VM of 2026-12-02):
	 * vpclmulqdq zmm one every 2 cycles, crc32q beside it in full; fused
	 * 65.7-65.9 GB/s, fused-intel 60.8-61.0, vpclmul 56.4-56.6, ISA-L
	 * 47.5-49.5; XXH3 AVX-512 59.3-60.1 vs AVX2 49.2-54.2 (an earlier guest:
	 * 61.6 vs 55.0); XXH128 AVX-512 57.4-59.4 vs AVX2 45.5-49.2. */
	{ AMD, 0x19, 0x00, 0xff, CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, 0,
	  "AMD 25 with AVX-512 (Zen 4)", "crc32c-fused", "xxh3-avx512", "xxh128-avx512",
	  "docs/hashes.md#family-25-with-avx-512-zen-4" },
	/* Zen 5 server (family 26 model 2, Turin, the VM of 2026-12-02 evening):
	 * vpclmulqdq zmm one every 2 cycles as on Zen 4, but two crc32 units;
	 * fused6 75.1-75.7 GB/s, fused 68.1-69.4, fused-intel 58.1-59.6, vpclmul
	 * 51.3-52.2, ISA-L 49.7-50.8; XXH128 AVX-512 89.6-90.4 vs AVX2 50.6-50.9.
	 * The client designs of family 26 (other models) were not measured. */
	{ AMD, 0x1a, 0x00, 0x0f, CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, 0,
	  "AMD 26/0x00-0x0f with AVX-512 (Zen 5, Turin)", "crc32c-fused6", "xxh3-avx512", "xxh128-avx512",
	  "docs/hashes.md#family-26-with-avx-512-zen-5" },
	/* Zen 5, any model: XXH3 AVX-512 76.8-94.2 GB/s against AVX2 54.6 on
	 * two Turin VMs; crc32c and xxh128 are measured. */
	{ AMD, 0x1a, 0x00, 0xff, CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, 0,
	  "AMD 26 with AVX-512 (Zen 5)", NULL, "xxh3-avx512", NULL,
	  "docs/hashes.md#family-26-with-avx-512-zen-5" },
	/* Emerald Rapids (family 6 model 0xcf), the VM of 2026-12-02: vpclmul
	 * 1.17x ISA-L; fused-intel 1.02x vpclmul at 4 KiB on a free core but
	 * 0.8-0.95x with the host's SMT sibling busy (vpclmul barely moves), a
	 * tie in bench's best rounds; XXH3 and XXH128 AVX-512 1.3-1.5x AVX2. */
	{ INTEL, 0x06, 0xcf, 0xcf, CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, 0,
	  "Intel 6/0xcf with AVX-512 (Emerald Rapids)", "crc32c-vpclmul", "xxh3-avx512", "xxh128-avx512",
	  "docs/hashes.md#family-6-model-207-emerald-rapids" },
};

const unsigned alias_rules_count = sizeof(alias_rules) / sizeof(alias_rules[0]);

const struct alias_rule *alias_rule_match(void)
{
	const struct cpu_identity *id = cpu_identity();
	uint32_t f = cpu_features();

	for (unsigned i = 0; i < alias_rules_count; i++) {
		const struct alias_rule *r = &alias_rules[i];
		if (strcmp(r->vendor, id->vendor) == 0 && r->family == id->family && id->model >= r->model_lo &&
		    id->model <= r->model_hi && (f & r->needs) == r->needs && !(f & r->lacks))
			return r;
	}
	return NULL;
}
