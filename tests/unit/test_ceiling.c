/* Unit tests of bench/ceiling*.c: each family's formula on known figures,
 * a short real measurement (positive values, option checks), and the
 * ceiling document (report/ceiling_report.c) on known figures, and the
 * memory probe's reader on known bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../bench/bench.h"
#include "../../bench/ceiling.h"
#include "../../bench/interference.h"
#include "../../bench/ceiling_probes.h"
#include "../../report/ceiling_report.h"
#include "../../report/report.h"
#include "../../hashes/cpu_features.h"
#include "../../hashes/impls.h"
#include "check.h"
#include "groups.h"

static void set(struct ceiling_figures *f, enum ceiling_probe_id id, double v)
{
	f->v[id].measured = 1;
	f->v[id].value = v;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* A 3 GHz CPU: crc32q 1 a cycle, latency 3; vpclmulqdq ymm one per 2
 * cycles; the mixed loop 9 cycles (its parts 6 and 8), the fused loop 18
 * (its parts 12 and 16), the wide one 30, the deep one 45, the nine one
 * 46; 64 B/cycle of
 * ymm loads; an XXH3
 * block 1.5 cycles per ymm (the step alone 1.4), vpmuludq 0.5; memory 20
 * GB/s. */
static void known(struct ceiling_figures *f)
{
	memset(f, 0, sizeof(*f));
	set(f, CEIL_CORE_CLOCK, 3e9);
	set(f, CEIL_CRC32_TPUT, 1.0);
	set(f, CEIL_CRC32_LAT, 3.0);
	set(f, CEIL_CLMUL_YMM, 2.0);
	set(f, CEIL_MIXED_YMM, 9.0);
	set(f, CEIL_FUSED_YMM, 18.0);
	set(f, CEIL_FUSED_LIGHT_YMM, 16.5);
	set(f, CEIL_FUSED_WIDE_YMM, 30.0);
	set(f, CEIL_FUSED_DEEP_YMM, 45.0);
	set(f, CEIL_FUSED_NINE_YMM, 46.0);
	set(f, CEIL_LOAD_YMM, 64.0);
	set(f, CEIL_XXH3_YMM, 1.4);
	set(f, CEIL_XXH3_BLOCK_YMM, 1.5);
	set(f, CEIL_MUL32_YMM, 0.5);
	set(f, CEIL_MEM_STREAM, 20e9);
}

void test_ceiling_bounds(void)
{
	struct ceiling_figures f;
	struct ceiling_bound b;

	known(&f);
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	CHECK(strstr(b.limit, "latency") && b.formula);
	CHECK(ceiling_bound(&f, &hash_crc32c_3way, 4096, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	CHECK(strstr(b.limit, "throughput") && near(b.cold_bytes_per_s, 20e9));
	/* Below 512 bytes the kernel's 3-way code runs one stream; the fit
	 * and ISA-L's 3-way run their lanes from 192 and 200 bytes. */
	CHECK(ceiling_bound(&f, &hash_crc32c_3way, 256, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	CHECK(ceiling_bound(&f, &hash_crc32c_3way_fit, 256, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	CHECK(ceiling_bound(&f, &hash_crc32c_3way_fit, 128, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	CHECK(ceiling_bound(&f, &hash_crc32c_isal_3way, 256, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	CHECK(ceiling_bound(&f, &hash_crc32c_isal_3way, 192, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	/* A fused entry below its fold threshold too: one stream. */
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 64, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	/* Calls back to back: a page's chain at 2.75 cycles a crc32q instead of
	 * 3 overlaps the next call by 512 x 0.25 = 128 cycles; one stream
	 * then takes 1536 - 128 cycles a page, and 1 KiB (128 steps) 384 - 128;
	 * 64 B would overlap wholly and is bound by the port (8 crc32q). */
	set(&f, CEIL_CRC32_PAGE, 2.75);
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == 0 && near(b.bytes_per_s, 4096.0 / 1408 * 3e9));
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 1024, 0, &b) == 0 && near(b.bytes_per_s, 1024.0 / 256 * 3e9));
	CHECK(strstr(b.limit, "latency"));
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 64, 0, &b) == 0 && near(b.bytes_per_s, 64.0 / 8 * 3e9));
	CHECK(strstr(b.limit, "throughput"));
	/* Three streams overlap a third as long; here the port still binds
	 * (512 cycles against 512 - 128 / 3), with two crc32 units it does not. */
	CHECK(ceiling_bound(&f, &hash_crc32c_3way, 4096, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	set(&f, CEIL_CRC32_TPUT, 0.5);
	CHECK(ceiling_bound(&f, &hash_crc32c_3way_fit, 4096, 0, &b) == 0 &&
	      near(b.bytes_per_s, 4096 / (512 - 128.0 / 3) * 3e9) && strstr(b.limit, "latency x 3"));
	CHECK(ceiling_bound(&f, &hash_crc32c_3way, 1 << 20, 0, &b) == 0 &&
	      near(b.bytes_per_s, (1 << 20) / ((1 << 17) - 128.0 / 3) * 3e9));
	/* Calls apart overlap nothing: the whole chain, and the limit says so;
	 * a vector family's bound is the same either way. */
	CHECK(ceiling_bound(&f, &hash_crc32c_3way_fit, 4096, 1, &b) == 0 && near(b.bytes_per_s, 4096 / 512.0 * 3e9) &&
	      strstr(b.limit, "latency x 3") && strstr(b.limit, "apart"));
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 1, &b) == 0 && near(b.bytes_per_s, 4096.0 / 1536 * 3e9) &&
	      strstr(b.limit, "apart"));
	CHECK(ceiling_bound(&f, &hash_crc32c_vpclmul_avx2, 4096, 1, &b) == 0 && near(b.bytes_per_s, 24e9) &&
	      !strstr(b.limit, "apart"));
	/* A page's chain measured no faster than the latency: no overlap. */
	set(&f, CEIL_CRC32_PAGE, 3.1);
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == 0 && near(b.bytes_per_s, 8e9));
	f.v[CEIL_CRC32_PAGE].measured = 0;
	set(&f, CEIL_CRC32_TPUT, 1.0);
	CHECK(ceiling_bound(&f, &hash_crc32c_vpclmul_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	CHECK(strstr(b.limit, "vpclmulqdq ymm"));
	/* Fused: (4 x 32 + 12 x 8) bytes per 18 cycles of the fused loop. */
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 224.0 / 18 * 3e9));
	CHECK(strstr(b.limit, "together") && strstr(b.limit, "12 crc32q"));
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 512, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	/* From its threshold on, exactly, the fused loop; a qword below, folding. */
	size_t fused_from = hash_scheme_here(&hash_crc32c_fused_avx2).fused_min_bytes;
	CHECK(fused_from > 512 && ceiling_bound(&f, &hash_crc32c_fused_avx2, fused_from, 0, &b) == 0 &&
	      near(b.bytes_per_s, 224.0 / 18 * 3e9) && strstr(b.limit, "12 crc32q"));
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, fused_from - 8, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	/* The light balance where it moves more: (4 x 32 + 6 x 8) bytes in 12. */
	set(&f, CEIL_FUSED_LIGHT_YMM, 12.0);
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 176.0 / 12 * 3e9));
	CHECK(strstr(b.limit, "6 crc32q"));
	/* Two crc32 units: the wide balance, (4 x 32 + 24 x 8) bytes in 16. */
	set(&f, CEIL_FUSED_WIDE_YMM, 16.0);
	CHECK(ceiling_bound(&f, &hash_crc32c_fused6, 4096, 0, &b) == -1); /* zmm loops not set */
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 320.0 / 16 * 3e9));
	CHECK(strstr(b.limit, "24 crc32q"));
	/* The deep balance, (4 x 32 + 36 x 8) bytes in 16, more again. */
	set(&f, CEIL_FUSED_DEEP_YMM, 16.0);
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 416.0 / 16 * 3e9));
	CHECK(strstr(b.limit, "36 crc32q") && !strstr(b.limit, "9 streams"));
	/* More than two crc32 units: the nine streams' balance, the same bytes in 15. */
	set(&f, CEIL_FUSED_NINE_YMM, 15.0);
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 416.0 / 15 * 3e9));
	CHECK(strstr(b.limit, "36 crc32q on 9 streams"));
	set(&f, CEIL_FUSED_NINE_YMM, 46.0);
	set(&f, CEIL_FUSED_DEEP_YMM, 45.0);
	set(&f, CEIL_FUSED_WIDE_YMM, 30.0);
	CHECK(near(ceiling_coissue(&f, 32), 5.0 / 6));
	CHECK(ceiling_coissue(&f, 64) == -1);
	/* XXH3 AVX2: the block (32 / 1.5 B a cycle, its scramble in) binds,
	 * not the step alone nor the multiply (64). */
	CHECK(ceiling_bound(&f, &hash_xxh3_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 32 / 1.5 * 3e9));
	CHECK(strstr(b.limit, "XXH3") && near(b.cold_bytes_per_s, 20e9));
	set(&f, CEIL_MUL32_YMM, 2.0); /* a slow multiplier binds instead */
	CHECK(ceiling_bound(&f, &hash_xxh128_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 16 * 3e9));
	CHECK(strstr(b.limit, "multiply"));
	/* Loads for 2 registers (data and secret) per register of input: 24
	 * bytes of loads a cycle hash 12, below the multiply's 16. */
	set(&f, CEIL_LOAD_YMM, 24.0);
	CHECK(ceiling_bound(&f, &hash_xxh3_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 12 * 3e9) &&
	      strstr(b.limit, "L1 loads"));
	set(&f, CEIL_LOAD_YMM, 64.0);
	/* No overlap: the mixed and fused loops take the sum of their parts. */
	set(&f, CEIL_MIXED_YMM, 14.0);
	set(&f, CEIL_FUSED_YMM, 28.0);
	set(&f, CEIL_FUSED_LIGHT_YMM, 22.0);
	set(&f, CEIL_FUSED_WIDE_YMM, 40.0);
	set(&f, CEIL_FUSED_DEEP_YMM, 52.0);
	set(&f, CEIL_FUSED_NINE_YMM, 52.0);
	CHECK(near(ceiling_coissue(&f, 32), 0));
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == 0 && near(b.bytes_per_s, 24e9));
	CHECK(strstr(b.limit, "do not overlap"));
	/* Unmodelled families and missing probes are errors with a reason. */
	CHECK(ceiling_bound(&f, &hash_jhash2, 4096, 0, &b) == -1 && strstr(b.limit, "not modelled"));
	CHECK(ceiling_bound(&f, &hash_crc32c_vpclmul, 4096, 0, &b) == -1 && b.bytes_per_s == 0);
	f.v[CEIL_FUSED_LIGHT_YMM].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == -1 && strstr(b.limit, "fused"));
	f.v[CEIL_FUSED_LIGHT_YMM].measured = 1;
	f.v[CEIL_FUSED_YMM].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == -1 && strstr(b.limit, "fused"));
	f.v[CEIL_FUSED_YMM].measured = 1;
	f.v[CEIL_FUSED_WIDE_YMM].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == -1 && strstr(b.limit, "fused"));
	f.v[CEIL_FUSED_WIDE_YMM].measured = 1;
	f.v[CEIL_FUSED_DEEP_YMM].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_fused_avx2, 4096, 0, &b) == -1 && strstr(b.limit, "fused"));
	f.v[CEIL_XXH3_BLOCK_YMM].measured = 0;
	CHECK(ceiling_bound(&f, &hash_xxh3_avx2, 4096, 0, &b) == -1 && strstr(b.limit, "XXH3 block"));
	/* Three streams need crc32q's throughput measured, one its latency alone. */
	f.v[CEIL_CRC32_TPUT].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_3way, 4096, 0, &b) == -1 && strstr(b.limit, "crc32q not measured"));
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 1, &b) == 0 && near(b.bytes_per_s, 8e9));
	f.v[CEIL_CRC32_TPUT].measured = 1;
	f.v[CEIL_CORE_CLOCK].measured = 0;
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == -1 && strstr(b.limit, "core clock"));
	for (int p = 0; p < CEIL_NPROBES; p++)
		CHECK(ceiling_probe_key((enum ceiling_probe_id)p) && ceiling_probe_label((enum ceiling_probe_id)p) &&
		      ceiling_probe_unit((enum ceiling_probe_id)p));
}

/* The memory probe's reader loads the first word of every line of each of
 * its streams, and nothing past the streams' parts (a tail shorter than a
 * line per stream is left). */
void test_ceiling_read_streams(void)
{
	enum { LINES = 40, BYTES = LINES * 64 + 3 * 64 + 17 };
	static uint64_t words[BYTES / 8 + 1];
	unsigned char *buf = (unsigned char *)words;
	size_t part = BYTES / CEILING_STREAMS & ~(size_t)63;
	uint64_t want = 0;

	for (size_t i = 0; i < BYTES; i++)
		buf[i] = (unsigned char)(i * 7 + (i >> 8));
	for (size_t off = 0; off < CEILING_STREAMS * part; off += 64) {
		uint64_t w;
		memcpy(&w, buf + off, sizeof(w));
		want ^= w;
	}
	CHECK(ceiling_read_streams(buf, BYTES) == want);
	memset(buf + CEILING_STREAMS * part, 0xa5, BYTES - CEILING_STREAMS * part);
	CHECK(ceiling_read_streams(buf, BYTES) == want);
	CHECK(ceiling_read_streams(buf, 64 * CEILING_STREAMS - 1) == 0); /* less than a line each */
}

void test_ceiling_measure(void)
{
	struct ceiling_figures f;
	struct ceiling_opts o;
	struct ceiling_bound b;
	struct kb_err err;

	ceiling_default_opts(&o);
	CHECK(o.repeats == 7 && o.run_s > 0);
	o.repeats = 0;
	CHECK(ceiling_measure(&o, &f, &err) == -1 && strstr(err.msg, "repeats"));
	CHECK(o.spread_s > 0 && o.extend_s >= o.spread_s);
	o.repeats = 3;
	o.spread_s = 0.5;
	o.extend_s = 0.25;
	CHECK(ceiling_measure(&o, &f, &err) == -1 && strstr(err.msg, "spread over"));
	/* Rounds for a twentieth of a second at least (or the most rounds
	 * there may be, which 0.2 ms probes under qemu reached first), the best
	 * of those on an unshared core kept (one at least: the fastest core's). */
	o.spread_s = o.extend_s = 0.05;
	o.run_s = 0.0002;
	o.skip_memory = 1;
	CHECK(ceiling_measure(&o, &f, &err) == 0);
	CHECK(f.rounds >= 3 && f.rounds_shared < f.rounds && (f.elapsed_s >= 0.05 || f.rounds == CEIL_ROUNDS_MAX));
	o.spread_s = o.extend_s = 0;
	CHECK(ceiling_measure(&o, &f, &err) == 0 && f.rounds == 3);
	CHECK(f.v[CEIL_CORE_CLOCK].measured && f.v[CEIL_CORE_CLOCK].value > 1e6 && f.elapsed_s > 0);
	CHECK(!f.v[CEIL_MEM_STREAM].measured && !f.v[CEIL_COLD_PAGE].measured);
	for (int p = 0; p < CEIL_NPROBES; p++)
		if (f.v[p].measured)
			CHECK(f.v[p].value > 0 && f.v[p].spread_pct >= 0);
#if defined(__x86_64__)
	if (cpu_features() & CPU_SSE42) {
		CHECK(f.v[CEIL_CRC32_TPUT].measured && f.v[CEIL_CRC32_LAT].measured);
		/* Latency can never be below throughput. */
		CHECK(f.v[CEIL_CRC32_LAT].value >= 0.9 * f.v[CEIL_CRC32_TPUT].value);
		/* A page's chain runs between the two: the overlap of calls can
		 * hide part of the latency, never beat the port. */
		CHECK(f.v[CEIL_CRC32_PAGE].measured && f.v[CEIL_CRC32_PAGE].value >= 0.9 * f.v[CEIL_CRC32_TPUT].value);
		CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == 0 && b.bytes_per_s > 0);
	}
	CHECK(!!f.v[CEIL_CLMUL_ZMM].measured == !!((cpu_features() & (CPU_AVX512F | CPU_VPCLMUL)) == (CPU_AVX512F | CPU_VPCLMUL)));
#else
	CHECK(!f.v[CEIL_CRC32_TPUT].measured);
#endif
	CHECK(ceiling_bound(&f, &hash_jhash2, 4096, 0, &b) == -1 && b.limit != NULL);
	const struct ceiling_figures *pf = ceiling_process_figures(&err);
	CHECK(pf && pf == ceiling_process_figures(&err) && pf->v[CEIL_MEM_STREAM].measured && pf->stream_bytes >= (64u << 20));
}

/* A probe runs wherever its instructions do: the xmm multiply, XXH3 and
 * load loops are SSE2 code, so a CPU without PCLMULQDQ (hidden here) still
 * measures them and xxh3-sse2 keeps its ceiling; the carry-less loops do
 * not run. They once needed pclmulqdq too, and every SSE2 XXH3 entry lost
 * its ceiling with it. */
void test_ceiling_probe_needs(void)
{
#if defined(__x86_64__)
	struct ceiling_figures f;
	struct ceiling_opts o;
	struct ceiling_bound b;
	struct kb_err err;

	if ((cpu_features() & (CPU_SSE42 | CPU_PCLMUL)) != (CPU_SSE42 | CPU_PCLMUL))
		return;
	CHECK(cpu_features_disable("pclmulqdq", &err) == 0);
	ceiling_default_opts(&o);
	o.repeats = 1;
	o.spread_s = o.extend_s = 0;
	o.run_s = 0.0002;
	o.skip_memory = 1;
	CHECK(ceiling_measure(&o, &f, &err) == 0);
	cpu_features_enable_all();
	CHECK(!f.v[CEIL_CLMUL_XMM].measured && !f.v[CEIL_MIXED_XMM].measured && !f.v[CEIL_FUSED_XMM].measured &&
	      !f.v[CEIL_CLMUL_YMM].measured);
	CHECK(f.v[CEIL_CRC32_LAT].measured && f.v[CEIL_MUL32_XMM].measured && f.v[CEIL_XXH3_XMM].measured &&
	      f.v[CEIL_XXH3_BLOCK_XMM].measured && f.v[CEIL_LOAD_XMM].measured);
	CHECK(ceiling_bound(&f, &hash_xxh3_sse2, 4096, 0, &b) == 0 && b.bytes_per_s > 0);
	CHECK(ceiling_bound(&f, &hash_crc32c_sse42, 4096, 0, &b) == 0 && b.bytes_per_s > 0);
#endif
}

/* The document in a format, as text (NULL if it could not be written). */
static char *render(const char *format, const struct report_document *doc)
{
	struct kb_err err;
	const struct report_format *f = report_format_find(format, REPORT_CEILING, &err);
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!f || !out || report_write(f, doc, out) != 0) {
		if (out)
			fclose(out);
		free(text);
		return NULL;
	}
	fclose(out);
	return text;
}

static double number_at(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

void test_ceiling_report(void)
{
	const struct hash_impl *hashes[] = { &hash_crc32c_sse42, &hash_jhash2, &hash_crc32c_fused_avx2 };
	struct cpu_description cpu;
	struct ceiling_figures f;
	struct kb_err err;

	known(&f);
	f.repeats = 3;
	f.v[CEIL_CRC32_LAT].spread_pct = 4.5;
	memset(&cpu, 0, sizeof(cpu));
	struct ceiling_report r = { .figures = &f, .cpu = &cpu, .pinned_cpu = 1, .pin_rule = "--cpu", .page_size = 4096,
				    .hashes = hashes, .nhashes = 3 };
	struct report_document doc = { .kind = REPORT_CEILING, .ceiling = &r };
	char *text = render("json", &doc);
	cJSON *o = text ? cJSON_Parse(text) : NULL;
	CHECK(o != NULL);
	free(text);
	const cJSON *lim = cJSON_GetObjectItemCaseSensitive(o, "limits");
	const char *rule = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "pinned_cpu_rule"));
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "pinned_cpu")) == 1 && rule &&
	      strcmp(rule, "--cpu") == 0);
	CHECK(number_at(lim, "crc32q_latency_cycles", "value") == 3 &&
	      number_at(lim, "crc32q_latency_cycles", "spread_pct") == 4.5);
	const cJSON *zmm = cJSON_GetObjectItemCaseSensitive(lim, "vpclmulqdq_zmm_cycles");
	CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(zmm, "measured")) &&
	      cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(zmm, "value")));
	CHECK(near(number_at(o, "coissue", "ymm"), 5.0 / 6) &&
	      cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "coissue"), "zmm")));
	CHECK(number_at(o, "limits", "largest_spread_pct") == -1); /* the figures' own fields sit at the top */
	const cJSON *spread = cJSON_GetObjectItemCaseSensitive(o, "largest_spread_pct");
	CHECK(cJSON_IsNumber(spread) && spread->valuedouble == 4.5);
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "ceilings");
	CHECK(cJSON_GetArraySize(c) == 3);
	const cJSON *sse = cJSON_GetArrayItem(c, 0), *jh = cJSON_GetArrayItem(c, 1);
	const cJSON *hot = cJSON_GetObjectItemCaseSensitive(sse, "ceiling_bytes_per_second");
	CHECK(cJSON_IsNumber(hot) && near(hot->valuedouble, 8e9));
	CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(jh, "ceiling_bytes_per_second")) &&
	      cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(jh, "formula")) &&
	      strstr(cJSON_GetObjectItemCaseSensitive(jh, "limited_by")->valuestring, "not modelled"));
	cJSON_Delete(o);
	/* The table lists the modelled implementations only, in GB/s. */
	text = render("table", &doc);
	CHECK(text && strstr(text, "best of 3 rounds, largest spread 4.5%") && strstr(text, "\ncrc32c-sse42 ") &&
	      strstr(text, " 8.0 ") && !strstr(text, "\njhash2") && strstr(text, "crc32q / vpclmulqdq ymm overlap"));
	free(text);
	CHECK(report_format_find("csv", REPORT_CEILING, &err) == NULL && strstr(err.msg, "(table or json)"));
}

/* Each result's ceiling: hot or streamed by its cache, the memory named
 * where it binds, none for an unmodelled family or without figures. */
void test_ceiling_results(void)
{
	struct ceiling_figures f;
	struct bench_result r[4];

	known(&f);
	memset(r, 0, sizeof(r));
	const char *impl[] = { "crc32c-3way", "crc32c-3way", "crc32c-sse42", "jhash2" };
	const char *cache[] = { "hot", "cold", "cold", "hot" };
	for (int i = 0; i < 4; i++) {
		r[i].impl = impl[i];
		r[i].cache = cache[i];
		r[i].page_size = 4096;
	}
	ceiling_bound_results(&f, r, 4);
	CHECK(near(r[0].ceiling_bytes_per_s, 24e9) && strcmp(r[0].ceiling_limit, "crc32q throughput") == 0);
	CHECK(near(r[1].ceiling_bytes_per_s, 20e9) && strcmp(r[1].ceiling_limit, "memory stream bandwidth") == 0);
	CHECK(near(r[2].ceiling_bytes_per_s, 8e9) && strstr(r[2].ceiling_limit, "latency"));
	CHECK(r[3].ceiling_bytes_per_s == 0 && r[3].ceiling_limit == NULL);
	/* Rounds at half the probes' clock (their median): half the
	 * instruction bound, the memory's unchanged; a round that did not
	 * measure its clock does not count. */
	struct bench_round rounds[4];
	memset(rounds, 0, sizeof(rounds));
	const double hz[] = { 1.4e9, 1.5e9, 1.6e9, 9e9 };
	for (int i = 0; i < 4; i++) {
		rounds[i].known = i < 3 ? INTERFERENCE_CLOCK : 0;
		rounds[i].clock_hz = hz[i];
	}
	for (int i = 0; i < 3; i++) {
		r[i].rounds = rounds;
		r[i].repeats = 4;
	}
	ceiling_bound_results(&f, r, 4);
	CHECK(near(r[0].ceiling_bytes_per_s, 12e9) && strcmp(r[0].ceiling_limit, "crc32q throughput") == 0);
	CHECK(near(r[1].ceiling_bytes_per_s, 12e9) && strcmp(r[1].ceiling_limit, "crc32q throughput") == 0);
	CHECK(near(r[2].ceiling_bytes_per_s, 4e9));
	ceiling_bound_results(NULL, r, 4);
	CHECK(r[0].ceiling_bytes_per_s == 0 && r[0].ceiling_limit == NULL);
}
