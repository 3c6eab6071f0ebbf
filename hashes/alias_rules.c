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

const struct alias_rule alias_rules[] = {
	/* Zen 3 (and Zen 4 guests whose AVX-512 is hidden): crc32q and
	 * vpclmulqdq ymm partly co-issue, so fused-avx2 wins (1.40x the 3-way). */
	{ AMD, 0x19, 0x00, 0xff, CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, CPU_AVX512F,
	  "AMD family 25 without AVX-512 (Zen 3)", "crc32c-fused-avx2", "xxh3-avx2", "xxh128-avx2",
	  "docs/hashes.md#zen-3-family-25-model-1-no-avx-512" },
	/* Zen 4: XXH3 AVX-512 61.6 vs AVX2 55.0 GB/s; no figures for our crc32c there. */
	{ AMD, 0x19, 0x00, 0xff, CPU_AVX512F | CPU_VPCLMUL, 0, "AMD family 25 with AVX-512 (Zen 4)", NULL,
	  "xxh3-avx512", NULL, "docs/hashes.md#zen-4-family-25-avx-512" },
	/* Zen 5: fused 67.6, vpclmul 55.0, ISA-L 53.5, 3-way 39.0; XXH3 AVX-512 76.8 GB/s. */
	{ AMD, 0x1a, 0x00, 0xff, CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL, 0,
	  "AMD family 26 with AVX-512 (Zen 5)", "crc32c-fused", "xxh3-avx512", NULL,
	  "docs/hashes.md#zen-5-family-26-avx-512" },
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
