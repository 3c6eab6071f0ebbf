/* Unit tests: the registry, CPU feature masking and the self-test engine. */
#include <stdio.h>
#include <string.h>

#include "../../common/kernel_release.h"
#include "../../hashes/impls.h"
#include "../../hashes/selftest.h"
#include "check.h"
#include "groups.h"

void test_registry_lookup(void)
{
	struct kb_err err;
	const struct hash_impl *list[32];
	char hex[HASH_HEX_MAX], prov[96];

	/* Names are unique, and every entry is complete. */
	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct hash_impl *h = hash_registry[i];
		CHECK(hash_find(h->name) == h);
		CHECK(h->description && *h->description);
		if (!h->alias_of)
			CHECK(h->family && h->bits && h->provenance && h->len_multiple >= 1);
		/* Releases are compared (the kernel's crc32c by release): they parse,
		 * and only code the kernel runs has them. */
		struct kernel_release r;
		CHECK(!h->kernel.since || (h->kernel.function && kernel_release_parse(h->kernel.since, &r) == 0));
		CHECK(!h->kernel.until || (h->kernel.since && kernel_release_parse(h->kernel.until, &r) == 0));
		for (unsigned j = i + 1; j < hash_registry_count; j++)
			CHECK(strcmp(h->name, hash_registry[j]->name) != 0);
	}
	CHECK(hash_find("nope") == NULL);
	CHECK(hash_select("nope", &err) == NULL && strstr(err.msg, "unknown hash 'nope'"));
	CHECK(hash_select("xxhash", &err) != NULL);

	CHECK(hash_check_len(&hash_jhash2, 4096, &err) == 0);
	CHECK(hash_check_len(&hash_jhash2, 4097, &err) == -1 && strstr(err.msg, "multiple of 4"));
	CHECK(hash_check_len(&hash_xxh64, 4097, &err) == 0);

	hash_hex(&hash_jhash2, "", 0, hex);
	CHECK_STR(hex, "deadbf00");
	hash_hex(&hash_xxh128, "", 0, hex);
	CHECK_STR(hex, "99aa06d3014798d86001c324468d497f");
	hash_hex(&hash_crc32c_generic, "", 0, hex);
	CHECK_STR(hex, "00000000");

	CHECK_STR(hash_provenance(&hash_jhash2, prov, sizeof(prov)), "ksmbench");
	CHECK(strncmp(hash_provenance(&hash_xxh64, prov, sizeof(prov)), "libxxhash 0.", 12) == 0);
	CHECK(strncmp(hash_provenance(&hash_xxhash, prov, sizeof(prov)), "alias of xxh", 12) == 0);

	CHECK(hash_select_list("jhash2,xxh64", list, 32, &err) == 2 && list[1] == &hash_xxh64);
	CHECK(hash_select_list("jhash2,jhash2", list, 32, &err) == -1 && strstr(err.msg, "twice"));
	CHECK(hash_select_list("jhash2,bogus", list, 32, &err) == -1 && strstr(err.msg, "bogus"));
	CHECK(hash_select_list("all,xxh64", list, 32, &err) == -1 && strstr(err.msg, "stands alone"));
	CHECK(hash_select_list(",", list, 32, &err) == -1);
	int all = hash_select_list("all", list, 32, &err);
	CHECK(all >= 6);
	/* Globs: every runnable match in registry order, each once; no match, or
	 * none runnable, names the pattern. */
	int n = hash_select_list("jhash2,crc32c-gen*", list, 32, &err);
	CHECK(n == 2 && list[0] == &hash_jhash2 && strcmp(list[1]->name, "crc32c-generic") == 0);
	n = hash_select_list("xxh64,xx?64,xxh6[0-9]", list, 32, &err);
	CHECK(n == 1 && list[0] == &hash_xxh64);
	n = hash_select_list("*", list, 64, &err);
	CHECK(n == hash_select_list("all", list, 64, &err));
	CHECK(hash_select_list("nope*", list, 32, &err) == -1 && strstr(err.msg, "no hash matches 'nope*'"));
	CHECK(hash_select_list("*", list, 2, &err) == -1 && strstr(err.msg, "at most 2"));
	for (unsigned i = 0; i < hash_registry_count; i++)
		if (!hash_available(hash_registry[i])) {
			char glob[64];
			snprintf(glob, sizeof(glob), "%s*", hash_registry[i]->name);
			n = hash_select_list(glob, list, 64, &err);
			CHECK(n > 0 || strstr(err.msg, "no hash this CPU can run matches"));
			for (int k = 0; k < n; k++)
				CHECK(hash_available(list[k]));
			break;
		}
}

void test_registry_cpu_features(void)
{
	struct kb_err err;
	char names[128];

	CHECK_STR(cpu_features_names(CPU_SSE42 | CPU_AVX2, names, sizeof(names)), "sse4.2,avx2");
	CHECK_STR(cpu_features_names(0, names, sizeof(names)), "");
	CHECK(cpu_features_disable("bogus", &err) == -1 && strstr(err.msg, "bogus"));
#if defined(__x86_64__)
	CHECK(cpu_features() & CPU_SSE2);
	CHECK(cpu_features_disable("sse4.2", &err) == 0);
	CHECK(!(cpu_features() & CPU_SSE42));
	CHECK(hash_missing_features(&hash_crc32c_sse42) == CPU_SSE42);
	CHECK(hash_select("crc32c-sse42", &err) == NULL && strstr(err.msg, "needs sse4.2"));
	cpu_features_enable_all();
	if (cpu_features() & CPU_SSE42)
		CHECK(hash_select("crc32c-sse42", &err) != NULL);
	/* Hiding a feature hides what builds on it: no avx512bw without
	 * avx512f, so the kernel's rule cannot name an entry that needs it. */
	CHECK(cpu_features_disable("avx512f", &err) == 0);
	CHECK(!(cpu_features() & (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW)));
	CHECK(hash_available(hash_kernel_crc32c(4096, NULL, NULL)));
	cpu_features_enable_all();
	CHECK(cpu_features_disable("avx", &err) == 0);
	CHECK(!(cpu_features() & (CPU_AVX2 | CPU_AVX512F | CPU_AVX512BW | CPU_VPCLMUL)));
	CHECK((cpu_features() & CPU_SSE42) == (cpu_features_detected() & CPU_SSE42));
	cpu_features_enable_all();
	/* The AVX-512 builds run AVX2 instructions (-mavx512f includes
	 * -mavx2): hiding avx2 hid none of them, and crc32c-fused6 and
	 * xxh3-avx512 still ran. */
	CHECK(cpu_features_disable("avx2", &err) == 0);
	CHECK(!(cpu_features() & (CPU_AVX2 | CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW)));
	CHECK(!hash_available(&hash_crc32c_fused6) && !hash_available(&hash_xxh3_avx512));
	CHECK(hash_resolve(&hash_xxh3) != &hash_xxh3_avx512 && hash_resolve(&hash_crc32c) != &hash_crc32c_fused6);
	cpu_features_enable_all();
	CHECK(!(cpu_features() & CPU_AVX512F) || (cpu_features() & CPU_AVX2));
#endif
	cpu_vector_state_clean(); /* must be harmless on any CPU */
}

void test_registry_selftest(void)
{
	struct selftest_opts o;
	struct selftest_result r;
	struct kb_err err;

	selftest_default_opts(&o);
	CHECK(o.max_len == 4200 && o.max_offset == 63);
	o.max_len = 200;
	o.max_offset = 3;
	CHECK(selftest_run(&hash_crc32c_generic, &o, &r, &err) == 0);
	CHECK(!r.failed && r.kats == 3 && r.checks > 0);
	CHECK(selftest_run(&hash_jhash2, &o, &r, &err) == 0);
	CHECK(!r.failed && r.kats >= 4);
	CHECK(selftest_run(&hash_xxh128, &o, &r, &err) == 0 && !r.failed);

	/* crc32c-generic's peer (crc32c-sse42 on x86) verified beside it: the
	 * reference alone at each check, the peer named as on its own line. */
	unsigned long both = r.checks;
	CHECK(selftest_run(&hash_crc32c_generic, &o, &r, &err) == 0 && !r.failed && r.checks == both);
	if (strstr(r.detail, " and ")) {
		const struct hash_impl *all[64];
		for (unsigned i = 0; i < hash_registry_count && i < 64; i++)
			all[i] = hash_registry[i];
		o.beside = all;
		o.nbeside = hash_registry_count < 64 ? hash_registry_count : 64;
		CHECK(selftest_run(&hash_crc32c_generic, &o, &r, &err) == 0 && !r.failed && 2 * r.checks == both &&
		      strstr(r.detail, " (on its own line)"));
		o.beside = NULL;
		o.nbeside = 0;
	}

	/* A wrong implementation must be caught. */
	struct hash_impl broken = hash_crc32_zlib;
	broken.family = "crc32c";
	broken.name = "broken";
	CHECK(selftest_run(&broken, &o, &r, &err) == 0);
	CHECK(r.failed && strstr(r.detail, "known answer"));
}

void test_registry_hex(void)
{
	char hex[HASH_HEX_MAX];
	const uint8_t wide[16] = { 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
				   0xef, 0xf0, 0x0f, 0x10, 0x99, 0xaa, 0x5a, 0xff };

	hash_hex_of(0xe3069283u, 32, hex);
	CHECK(strcmp(hex, "e3069283") == 0);
	hash_hex_of(0x00000000000000a1ull, 64, hex);
	CHECK(strcmp(hex, "00000000000000a1") == 0);
	hash_hex_of(0xffffffff0000beefull, 32, hex); /* the low 32 bits only */
	CHECK(strcmp(hex, "0000beef") == 0);
	hash_hex_of(0xef46db3751d8e999ull, 64, hex);
	CHECK(strcmp(hex, "ef46db3751d8e999") == 0);
	hash_hex_of_bytes(wide, 16, hex);
	CHECK(strcmp(hex, "000123456789abcdeff00f1099aa5aff") == 0);
	hash_hex_of_bytes(wide, 0, hex);
	CHECK(hex[0] == '\0');
}
