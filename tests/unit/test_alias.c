/* Unit tests of the alias rules (hashes/alias*.c): table lines chosen for
 * simulated CPUs, the start-up measurement where no line matches, the cache,
 * and the kernel's own crc32c choice (hashes/kernel_crc32c.c). */
#include <string.h>

#include "../../common/kernel_release.h"
#include "../../hashes/alias.h"
#include "../../hashes/cpu_features.h"
#include "../../hashes/cpu_identity.h"
#include "../../hashes/impls.h"
#include "check.h"
#include "groups.h"

static int has(uint32_t f)
{
	return (cpu_features() & f) == f;
}

void test_alias_cpu_identity(void)
{
	struct kb_err err;

	CHECK(cpu_identity_simulate("AuthenticAMD", &err) == -1 && strstr(err.msg, "VENDOR:FAMILY:MODEL"));
	CHECK(cpu_identity_simulate(":25:1", &err) == -1);
	CHECK(cpu_identity_simulate("AuthenticAMD:x:1", &err) == -1);
	CHECK(cpu_identity_simulate("AuthenticAMD:25:1z", &err) == -1);
	CHECK(cpu_identity_simulate("AuthenticAMD:25:300", &err) == -1);
	CHECK(cpu_identity_simulate("AuthenticAMDAuthenticAMD:25:1", &err) == -1);
	unsigned before = cpu_identity_key();
	CHECK(cpu_identity_simulate("AuthenticAMD:0x19:0x11", &err) == 0);
	const struct cpu_identity *id = cpu_identity();
	CHECK_STR(id->vendor, "AuthenticAMD");
	CHECK(id->family == 25 && id->model == 17 && id->simulated);
	CHECK(cpu_identity_key() != before);
	cpu_identity_real();
	CHECK(cpu_identity_key() == before);
}

/* Every line names entries of the right family, and cites its evidence. */
static void check_rules_well_formed(void)
{
	for (unsigned i = 0; i < alias_rules_count; i++) {
		const struct alias_rule *r = &alias_rules[i];
		const char *names[3] = { r->crc32c, r->xxh3, r->xxh128 };
		const char *families[3] = { "crc32c", "xxh3", "xxh128" };
		CHECK(r->cpu && r->evidence && strncmp(r->evidence, "docs/hashes.md#", 15) == 0);
		CHECK(r->model_lo <= r->model_hi);
		for (int k = 0; k < 3; k++) {
			if (!names[k])
				continue;
			const struct hash_impl *h = hash_find(names[k]);
			CHECK(h && !h->alias_of && strcmp(h->family, families[k]) == 0);
		}
	}
}

void test_alias_table(void)
{
	struct kb_err err;
	const uint32_t avx2_clmul = CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL;

	check_rules_well_formed();
	/* This session's VM: family 25 model 0x11 without AVX-512. */
	CHECK(cpu_identity_simulate("AuthenticAMD:25:17", &err) == 0);
	if (has(avx2_clmul) && cpu_features_disable("avx512f", &err) == 0) {
		const struct alias_choice *c = alias_choice(&hash_crc32c);
		CHECK(c->how == ALIAS_BY_TABLE && c->target == &hash_crc32c_fused_avx2);
		CHECK(alias_choice(&hash_xxh3)->target == &hash_xxh3_avx2);
		CHECK(alias_choice(&hash_xxh128)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_fused_avx2);
		/* Zen 3: every alias by its line; without VPCLMULQDQ (a VM may
		 * hide it) the line's crc32c entry cannot run, so crc32c is
		 * measured while xxh3 keeps the line. */
		CHECK(cpu_identity_simulate("AuthenticAMD:25:1", &err) == 0);
		CHECK(alias_choice(&hash_xxh3)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_fused_avx2);
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_xxh128) == &hash_xxh128_avx2);
		CHECK(cpu_features_disable("avx512f,vpclmulqdq", &err) == 0);
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_MEASUREMENT);
		CHECK(alias_choice(&hash_xxh3)->how == ALIAS_BY_TABLE);
		cpu_features_enable_all();
		CHECK(cpu_features_disable("avx512f", &err) == 0);
		/* Each line's model range, both ends inclusive. */
		static const struct {
			const char *cpu, *line;
		} ends[] = { { "AuthenticAMD:25:0", "AMD 25/0x00-0x0f (Zen 3)" },
			     { "AuthenticAMD:25:15", "AMD 25/0x00-0x0f (Zen 3)" },
			     { "AuthenticAMD:25:16", "AMD 25/0x10-0x1f, no AVX-512 (Zen 4, AVX-512 hidden)" },
			     { "AuthenticAMD:25:31", "AMD 25/0x10-0x1f, no AVX-512 (Zen 4, AVX-512 hidden)" },
			     { "AuthenticAMD:25:32", NULL } };
		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			CHECK(cpu_identity_simulate(ends[i].cpu, &err) == 0);
			const struct alias_rule *r = alias_rule_match();
			CHECK(ends[i].line ? r && strcmp(r->cpu, ends[i].line) == 0 : r == NULL);
		}
		/* A line whose entries need what the CPU lacks does not match. */
		CHECK(cpu_identity_simulate("AuthenticAMD:26:2", &err) == 0);
		CHECK(alias_rule_match() == NULL);
		cpu_features_enable_all();
	}
	/* Emerald Rapids with AVX-512: every alias by its line. */
	CHECK(cpu_identity_simulate("GenuineIntel:6:207", &err) == 0);
	if (has(CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL)) {
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_vpclmul);
		CHECK(hash_resolve(&hash_xxh3) == &hash_xxh3_avx512 && hash_resolve(&hash_xxh128) == &hash_xxh128_avx512);
		/* Without AVX-512 the line does not match: measured instead. */
		if (cpu_features_disable("avx512f", &err) == 0) {
			CHECK(alias_rule_match() == NULL);
			CHECK(alias_choice(&hash_crc32c)->how != ALIAS_BY_TABLE);
			cpu_features_enable_all();
		}
	}
	/* Zen 4 with AVX-512: every alias by its line, crc32c-fused for crc32c;
	 * Zen 5 Turin (model 2): its own line, crc32c-fused6 for crc32c; other
	 * Zen 5 models: xxh3 by the family's line, crc32c measured. */
	CHECK(cpu_identity_simulate("AuthenticAMD:25:17", &err) == 0);
	if (has(CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42 | CPU_PCLMUL)) {
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_fused);
		CHECK(hash_resolve(&hash_xxh3) == &hash_xxh3_avx512 && hash_resolve(&hash_xxh128) == &hash_xxh128_avx512);
		CHECK(alias_choice(&hash_xxh128)->how == ALIAS_BY_TABLE);
		CHECK(cpu_identity_simulate("AuthenticAMD:26:2", &err) == 0);
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_TABLE);
		CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_fused6 && hash_resolve(&hash_xxh128) == &hash_xxh128_avx512);
		CHECK(cpu_identity_simulate("AuthenticAMD:26:68", &err) == 0);
		CHECK(alias_choice(&hash_xxh3)->how == ALIAS_BY_TABLE);
		CHECK(alias_choice(&hash_crc32c)->how == ALIAS_BY_MEASUREMENT);
	}
	CHECK(alias_choice(&hash_jhash2) == NULL);
	cpu_identity_real();
}

void test_alias_measurement(void)
{
	struct kb_err err;
	char text[300];

	/* No line for this vendor: every alias is measured, or has one candidate. */
	CHECK(cpu_identity_simulate("NoSuchVendor:1:1", &err) == 0);
	CHECK(alias_rule_match() == NULL);
	const struct alias_choice *c = alias_choice(&hash_crc32c);
	CHECK(c->how != ALIAS_BY_TABLE && hash_available(c->target));
	if (c->how == ALIAS_BY_MEASUREMENT) {
		double best = 0, target_rate = -1;
		CHECK(c->ncandidates >= 2);
		for (unsigned i = 0; i < c->ncandidates; i++) {
			CHECK(c->bytes_per_s[i] > 0 && hash_available(c->candidates[i]));
			best = c->bytes_per_s[i] > best ? c->bytes_per_s[i] : best;
			if (c->candidates[i] == c->target)
				target_rate = c->bytes_per_s[i];
		}
		CHECK(target_rate == best); /* the fastest measured one is chosen */
		CHECK(strstr(alias_choice_describe(c, text, sizeof(text)), "measured at start-up") != NULL);
	}
	/* Cached: the same decision object until the CPU changes. */
	CHECK(alias_choice(&hash_crc32c) == c && alias_choice(&hash_crc32c)->target == c->target);
#if defined(__x86_64__)
	/* One candidate left: nothing to measure. */
	CHECK(cpu_features_disable("sse4.2,sse2", &err) == 0);
	CHECK(alias_choice(&hash_crc32c)->how == ALIAS_ONLY_CANDIDATE);
	CHECK(alias_choice(&hash_crc32c)->target == &hash_crc32c_generic);
	CHECK(strstr(alias_choice_describe(alias_choice(&hash_crc32c), text, sizeof(text)), "only candidate"));
	cpu_features_enable_all();
	/* Two left (the SSE2 build and the library's): measured, both. */
	CHECK(cpu_features_disable("avx512f,avx2", &err) == 0);
	c = alias_choice(&hash_xxh3);
	CHECK(c->how == ALIAS_BY_MEASUREMENT && c->ncandidates == 2 && c->candidates[0] == &hash_xxh3_sse2 &&
	      c->candidates[1] == &hash_xxh3_lib);
	cpu_features_enable_all();
#endif
	cpu_identity_real();
	CHECK(!cpu_identity()->simulated);
}

void test_alias_adopt(void)
{
	struct kb_err err;
	char text[300];

	/* A CPU no test has posed as: nothing chosen yet, and asking does not choose. */
	CHECK(cpu_identity_simulate("NoSuchVendor:9:9", &err) == 0);
	CHECK(alias_choice_made(&hash_crc32c) == NULL && alias_choice_made(&hash_crc32c) == NULL);
	CHECK(alias_choice_made(&hash_jhash2) == NULL);
	/* A measuring process takes its parent's choice as it is. */
	CHECK(alias_adopt("crc32c", "crc32c-generic", &err) == 0);
	const struct alias_choice *c = alias_choice_made(&hash_crc32c);
	CHECK(c && c->how == ALIAS_BY_PARENT && c->target == &hash_crc32c_generic);
	CHECK(alias_choice(&hash_crc32c) == c && hash_resolve(&hash_crc32c) == &hash_crc32c_generic);
	CHECK(strstr(alias_choice_describe(c, text, sizeof(text)), "started this process") != NULL);
	CHECK(alias_choice_made(&hash_xxh3) == NULL); /* the others are untouched */
	/* Not an alias, not one of its choices, not runnable here. */
	CHECK(alias_adopt("jhash2", "jhash2", &err) == -1 && strstr(err.msg, "not an alias"));
	CHECK(alias_adopt("crc32c", "xxh64", &err) == -1 && strstr(err.msg, "not a choice"));
	CHECK(alias_adopt("crc32c", "no-such-hash", &err) == -1 && strstr(err.msg, "not a choice"));
	CHECK(alias_adopt("xxh3", "xxh3", &err) == -1);
#if defined(__x86_64__)
	CHECK(alias_adopt("crc32c", "crc32c-armv8", &err) == -1 && strstr(err.msg, "does not run here"));
#endif
	CHECK(hash_resolve(&hash_crc32c) == &hash_crc32c_generic); /* a refused one changes nothing */
	cpu_identity_real();
}

void test_alias_kernel_crc32c(void)
{
	const char *why = NULL;
	struct kernel_release r61, r37, r614, r617;

	CHECK(kernel_release_parse("6.1.0-28-amd64", &r61) == 0 && kernel_release_parse("3.7", &r37) == 0 &&
	      kernel_release_parse("6.14.2", &r614) == 0 && kernel_release_parse("6.17.0", &r617) == 0);
#if defined(__x86_64__)
	struct kb_err err;
	if (has(CPU_SSE42 | CPU_PCLMUL)) {
		CHECK(cpu_identity_simulate("AuthenticAMD:25:17", &err) == 0);
		CHECK(hash_kernel_crc32c(511, NULL, &why) == &hash_crc32c_sse42 && strstr(why, "below 512"));
		const struct hash_impl *k = hash_kernel_crc32c(4096, NULL, &why);
		int good = has(CPU_VPCLMUL | CPU_AVX2 | CPU_AVX512BW | CPU_AVX512VL);
		CHECK(k == (good ? &hash_crc32c_vpclmul : &hash_crc32c_3way));
		CHECK(hash_kernel_crc32c(4096, &r617, NULL) == k);
		/* From 512 bytes on, not only above (the kernel's >= 512). */
		CHECK(hash_kernel_crc32c(512, NULL, &why) == k && !strstr(why, "below 512"));
		/* An older release runs only the paths it had: the AVX-512 one
		 * came in 6.17 (a 6.1 kernel on a Zen 4 runs the 3-way loop),
		 * the 3-way one in 3.8. */
		CHECK(hash_kernel_crc32c(4096, &r61, &why) == &hash_crc32c_3way &&
		      strstr(why, "crc_pcl() of the crc32c-intel driver") && (!good || strstr(why, "came in 6.17")));
		CHECK(hash_kernel_crc32c(4096, &r614, &why) == &hash_crc32c_3way && strstr(why, "crc32c_x86_3way()") &&
		      strstr(why, good ? "came in 6.17" : "from 512 B"));
		CHECK(hash_kernel_crc32c(4096, &r617, &why) == k && (good || strstr(why, "no good AVX-512")));
		CHECK(hash_kernel_crc32c(4096, &r37, &why) == &hash_crc32c_sse42 && strstr(why, "came in 3.8"));
		CHECK(hash_kernel_crc32c(511, &r37, &why) == &hash_crc32c_sse42 && strstr(why, "below 512"));
		CHECK(hash_kernel_crc32c(512, &r37, &why) == &hash_crc32c_sse42 && strstr(why, "came in 3.8"));
		/* Ice Lake server is on the kernel's PREFER_YMM list: 3-way there. */
		CHECK(cpu_identity_simulate("GenuineIntel:6:0x6a", &err) == 0);
		CHECK(hash_kernel_crc32c(4096, NULL, &why) == &hash_crc32c_3way);
		CHECK(cpu_features_disable("pclmulqdq", &err) == 0);
		CHECK(hash_kernel_crc32c(4096, NULL, &why) == &hash_crc32c_sse42 && strstr(why, "PCLMULQDQ"));
		CHECK(cpu_features_disable("sse4.2", &err) == 0);
		CHECK(hash_kernel_crc32c(4096, NULL, &why) == &hash_crc32c_generic);
		CHECK(hash_kernel_crc32c(4096, &r37, &why) == &hash_crc32c_generic);
		cpu_features_enable_all();
	}
#endif
	cpu_identity_real();
	CHECK(hash_kernel_crc32c(4096, NULL, NULL) != NULL);
	CHECK(strcmp(hash_kernel_crc32c(64, NULL, &why)->family, "crc32c") == 0 && why && *why);
	CHECK(strcmp(hash_kernel_crc32c(4096, &r37, &why)->family, "crc32c") == 0 && why && *why);
}

/* A measured choice described: its rate, and the fastest of the others
 * beside it, wherever they stand among the candidates. */
void test_alias_describe(void)
{
	struct alias_choice c = { .target = &hash_xxh3_avx2, .how = ALIAS_BY_MEASUREMENT, .ncandidates = 3,
				  .candidates = { &hash_xxh3_lib, &hash_xxh3_sse2, &hash_xxh3_avx2 },
				  .bytes_per_s = { 10e9, 20.5e9, 40e9 } };
	char text[300];

	CHECK_STR(alias_choice_describe(&c, text, sizeof(text)),
		  "measured at start-up: 40.0 GB/s, next xxh3-sse2 20.5 (4096 B, best of 15 x 32 calls)");
	c.ncandidates = 1;
	c.candidates[0] = &hash_xxh3_avx2;
	CHECK_STR(alias_choice_describe(&c, text, sizeof(text)),
		  "measured at start-up: 10.0 GB/s, next - 0.0 (4096 B, best of 15 x 32 calls)");
	/* A table choice: its line's CPU and where the measurement is. */
	char want[300];
	struct alias_choice t = { .target = &hash_xxh3_avx2, .how = ALIAS_BY_TABLE, .rule = &alias_rules[1] };
	snprintf(want, sizeof(want), "table: %s (%s)", alias_rules[1].cpu, alias_rules[1].evidence);
	CHECK_STR(alias_choice_describe(&t, text, sizeof(text)), want);
}
