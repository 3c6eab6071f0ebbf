/* Runs the ceiling probes (see ceiling.h): every instruction micro-loop for a
 * short run, round after round, the best run of each kept, with the memory
 * probes' rounds spread between them. Times come from CLOCK_MONOTONIC and
 * become core cycles through the add chain's rate, so the TSC (which is not
 * the core clock) plays no part. */
#include "ceiling.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../datasets/page_set.h"
#include "../hashes/cpu_features.h"
#include "cache_flush.h"
#include "ceiling_probes.h"
#include "clock.h"
#include "clock_chain.h"
#include "context.h"

#if defined(__x86_64__)
#define X86(fn) fn
#else
#define X86(fn) NULL
#endif

#define CEIL_REPEATS_MAX 31
/* A round ran on a shared core when the core's throughput around it was
 * below (1 - this) x the run's highest: bench/disturb.c's threshold. */
#define CEIL_SHARED_DROP 0.15
/* Random pages per round of the cold-page probe. With 16 the best round's
 * median moved 9.5% between runs on the Zen 5 VM of docs/ceilings.md, with
 * 64 4.5-4.8%; the mean of the middle half instead of the median, 10.7%. */
#define CEIL_COLD_PAGES 64

enum probe_kind { K_HZ, K_CYCLES, K_BYTES_PER_CYCLE, K_BYTES_PER_S, K_NS };

/* The three widths of one fused loop balance (ceiling_vec.h): id##_XMM
 * .._ZMM, its functions fn##_xmm .., its keys key_crc32q_(v)pclmulqdq_W_cycles
 * and its crc32q (a string: "12 crc32q") in the label. */
#define CEIL_FUSED_ROWS(id, fn, key, n)                                                                       \
	[id##_XMM] = { key "_crc32q_pclmulqdq_xmm_cycles", "fused loop: 4 xmm folded + " n, "cycles", \
		       CPU_SSE42 | CPU_PCLMUL, X86(fn##_xmm), 1, K_CYCLES },                                  \
	[id##_YMM] = { key "_crc32q_vpclmulqdq_ymm_cycles", "fused loop: 4 ymm folded + " n, "cycles", \
		       CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42, X86(fn##_ymm), 1, K_CYCLES },                      \
	[id##_ZMM] = { key "_crc32q_vpclmulqdq_zmm_cycles", "fused loop: 4 zmm folded + " n, "cycles", \
		       CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42, X86(fn##_zmm), 1, K_CYCLES }

/* What a probe needs is what its instructions need, and what its
 * translation unit's flags let the compiler use on its own: SSE4.2 (SSE4.1
 * instructions) in ceiling_x86_128.c, never pclmulqdq, which only the
 * intrinsics emit. The xmm multiply, XXH3 and load loops are SSE2 code: a
 * CPU without PCLMULQDQ (Nehalem, a VM hiding it, KSMBENCH_DISABLE=pclmulqdq)
 * runs them, and xxh3-sse2's ceiling needs them. */
static const struct probe {
	const char *key, *label, *unit;
	uint32_t needs;
	ceiling_loop_fn loop;
	double ops; /* instructions, vectors or bytes per iteration */
	enum probe_kind kind;
} probes[CEIL_NPROBES] = {
	[CEIL_CORE_CLOCK] = { "core_clock_hz", "core clock (dependent add chain)", "Hz", 0, ceiling_add_chain, 8, K_HZ },
	[CEIL_CRC32_TPUT] = { "crc32q_throughput_cycles", "crc32q throughput (12 chains)", "cycles", CPU_SSE42,
			      X86(ceiling_crc32_tput), 12, K_CYCLES },
	[CEIL_CRC32_LAT] = { "crc32q_latency_cycles", "crc32q latency (1 chain)", "cycles", CPU_SSE42,
			     X86(ceiling_crc32_lat), 8, K_CYCLES },
	[CEIL_CRC32_PAGE] = { "crc32q_page_chain_cycles", "crc32q, a 4 KiB page's chain, calls back to back", "cycles",
			      CPU_SSE42, X86(ceiling_crc32_page_chain), CEILING_PAGE_QWORDS, K_CYCLES },
	[CEIL_CLMUL_XMM] = { "pclmulqdq_xmm_cycles", "pclmulqdq xmm throughput", "cycles", CPU_SSE42 | CPU_PCLMUL,
			     X86(ceiling_clmul_xmm), 8, K_CYCLES },
	[CEIL_CLMUL_YMM] = { "vpclmulqdq_ymm_cycles", "vpclmulqdq ymm throughput", "cycles",
			     CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42, X86(ceiling_clmul_ymm), 8, K_CYCLES },
	[CEIL_CLMUL_ZMM] = { "vpclmulqdq_zmm_cycles", "vpclmulqdq zmm throughput", "cycles",
			     CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42, X86(ceiling_clmul_zmm), 8, K_CYCLES },
	[CEIL_MIXED_XMM] = { "mixed_crc32q_pclmulqdq_xmm_cycles", "6 crc32q + 4 pclmulqdq xmm, one loop", "cycles",
			     CPU_SSE42 | CPU_PCLMUL, X86(ceiling_mixed_xmm), 1, K_CYCLES },
	[CEIL_MIXED_YMM] = { "mixed_crc32q_vpclmulqdq_ymm_cycles", "6 crc32q + 4 vpclmulqdq ymm, one loop", "cycles",
			     CPU_AVX2 | CPU_VPCLMUL | CPU_SSE42, X86(ceiling_mixed_ymm), 1, K_CYCLES },
	[CEIL_MIXED_ZMM] = { "mixed_crc32q_vpclmulqdq_zmm_cycles", "6 crc32q + 4 vpclmulqdq zmm, one loop", "cycles",
			     CPU_AVX512F | CPU_VPCLMUL | CPU_SSE42, X86(ceiling_mixed_zmm), 1, K_CYCLES },
	CEIL_FUSED_ROWS(CEIL_FUSED, ceiling_fused, "fused", "12 crc32q"),
	CEIL_FUSED_ROWS(CEIL_FUSED_LIGHT, ceiling_fused_light, "fused_light", "6 crc32q"),
	CEIL_FUSED_ROWS(CEIL_FUSED_WIDE, ceiling_fused_wide, "fused_wide", "24 crc32q"),
	CEIL_FUSED_ROWS(CEIL_FUSED_DEEP, ceiling_fused_deep, "fused_deep", "36 crc32q"),
	CEIL_FUSED_ROWS(CEIL_FUSED_NINE, ceiling_fused_nine, "fused_nine", "36 crc32q, 9 streams"),
	[CEIL_MUL32_XMM] = { "pmuludq_xmm_cycles", "pmuludq xmm throughput (32x32->64)", "cycles", CPU_SSE42,
			     X86(ceiling_mul32_xmm), 8, K_CYCLES },
	[CEIL_MUL32_YMM] = { "vpmuludq_ymm_cycles", "vpmuludq ymm throughput", "cycles", CPU_AVX2,
			     X86(ceiling_mul32_ymm), 8, K_CYCLES },
	[CEIL_MUL32_ZMM] = { "vpmuludq_zmm_cycles", "vpmuludq zmm throughput", "cycles", CPU_AVX512F,
			     X86(ceiling_mul32_zmm), 8, K_CYCLES },
	[CEIL_XXH3_XMM] = { "xxh3_step_xmm_cycles", "XXH3 accumulate step, per xmm of input", "cycles", CPU_SSE42,
			    X86(ceiling_xxh3_xmm), 4, K_CYCLES },
	[CEIL_XXH3_YMM] = { "xxh3_step_ymm_cycles", "XXH3 accumulate step, per ymm of input", "cycles", CPU_AVX2,
			    X86(ceiling_xxh3_ymm), 2, K_CYCLES },
	[CEIL_XXH3_ZMM] = { "xxh3_step_zmm_cycles", "XXH3 accumulate step, per zmm of input", "cycles", CPU_AVX512F,
			    X86(ceiling_xxh3_zmm), 1, K_CYCLES },
	[CEIL_XXH3_BLOCK_XMM] = { "xxh3_block_xmm_cycles", "XXH3 block (16 steps + scramble), per xmm", "cycles",
				  CPU_SSE42, X86(ceiling_xxh3_block_xmm), 1024 / 16, K_CYCLES },
	[CEIL_XXH3_BLOCK_YMM] = { "xxh3_block_ymm_cycles", "XXH3 block (16 steps + scramble), per ymm", "cycles",
				  CPU_AVX2, X86(ceiling_xxh3_block_ymm), 1024 / 32, K_CYCLES },
	[CEIL_XXH3_BLOCK_ZMM] = { "xxh3_block_zmm_cycles", "XXH3 block (16 steps + scramble), per zmm", "cycles",
				  CPU_AVX512F, X86(ceiling_xxh3_block_zmm), 1024 / 64, K_CYCLES },
	[CEIL_LOAD_XMM] = { "l1_load_xmm_bytes_per_cycle", "L1 loads, xmm", "B/cycle", CPU_SSE42,
			    X86(ceiling_load_xmm), 8 * 16, K_BYTES_PER_CYCLE },
	[CEIL_LOAD_YMM] = { "l1_load_ymm_bytes_per_cycle", "L1 loads, ymm", "B/cycle", CPU_AVX2,
			    X86(ceiling_load_ymm), 8 * 32, K_BYTES_PER_CYCLE },
	[CEIL_LOAD_ZMM] = { "l1_load_zmm_bytes_per_cycle", "L1 loads, zmm", "B/cycle", CPU_AVX512F,
			    X86(ceiling_load_zmm), 8 * 64, K_BYTES_PER_CYCLE },
	[CEIL_MEM_STREAM] = { "memory_stream_bytes_per_second", "memory, 4 streams side by side", "B/s", 0, NULL, 0,
			      K_BYTES_PER_S },
	[CEIL_COLD_PAGE] = { "cold_page_ns", "one cold 4 KiB page at a random address", "ns", 0, NULL, 0, K_NS },
};

const char *ceiling_probe_key(enum ceiling_probe_id id) { return probes[id].key; }
const char *ceiling_probe_label(enum ceiling_probe_id id) { return probes[id].label; }
const char *ceiling_probe_unit(enum ceiling_probe_id id) { return probes[id].unit; }

void ceiling_default_opts(struct ceiling_opts *o)
{
	o->repeats = 7;
	o->run_s = 0.0004;
	o->extend_s = CEIL_EXTEND_S;
	o->spread_s = CEIL_SPREAD_S;
	o->skip_memory = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Best (smallest) and (median - best) / best in % of n samples; sorts them. */
static double best_and_spread(double *s, unsigned n, double *spread_pct)
{
	qsort(s, n, sizeof(*s), cmp_double);
	*spread_pct = s[0] > 0 ? 100 * (s[n / 2] - s[0]) / s[0] : 0;
	return s[0];
}

static double time_loop_s(ceiling_loop_fn fn, uint64_t iters, uint64_t *sink)
{
	uint64_t t0 = clock_now_ns();
	fn(iters, sink);
	return (double)(clock_now_ns() - t0) * 1e-9;
}

static double elapsed_s_since(uint64_t t0_ns) { return (double)(clock_now_ns() - t0_ns) * 1e-9; }

/* Iterations for one run of about run_s. */
static uint64_t calibrate(ceiling_loop_fn fn, double run_s, uint64_t *sink)
{
	uint64_t iters = 256;
	double t;

	fn(iters, sink); /* warm up the unit and the code */
	while ((t = time_loop_s(fn, iters, sink)) < run_s / 8 && iters < (1ull << 40))
		iters *= 4;
	uint64_t want = (uint64_t)((double)iters * run_s / (t > 0 ? t : run_s));
	return want > 16 ? want : 16;
}

/* Rounds whose core throughput was within CEIL_SHARED_DROP of the highest
 * of n: their indexes in keep, their count returned. */
static unsigned unshared_rounds(const double *tp, unsigned n, unsigned *keep)
{
	double top = 0;
	unsigned k = 0;

	for (unsigned r = 0; r < n; r++)
		top = tp[r] > top ? tp[r] : top;
	for (unsigned r = 0; r < n; r++)
		if (!(top > 0) || tp[r] >= (1 - CEIL_SHARED_DROP) * top)
			keep[k++] = r;
	return k;
}

/* The best of all n rounds, and its spread against the median of the
 * rounds in keep. A shared round cannot make the best lower, and leaving it
 * out of the best cost the figures most where they were steadiest: on a Zen
 * 5 VM the core throughput touched its top in a few rounds only, so that
 * most were called shared, and the fused loops run fast in some rounds and
 * a third slower in the others, however free the core (how the scheduler
 * bound the loop to the units). The best of the few kept rounds then missed
 * the fast ones in some runs. */
static double best_of_all(const double *samples, unsigned n, const unsigned *keep, unsigned k, double *spread_pct)
{
	double kept[CEIL_ROUNDS_MAX], best = samples[0];

	for (unsigned r = 1; r < n; r++)
		best = samples[r] < best ? samples[r] : best;
	for (unsigned i = 0; i < k; i++)
		kept[i] = samples[keep[i]];
	qsort(kept, k, sizeof(kept[0]), cmp_double);
	*spread_pct = best > 0 ? 100 * (kept[k / 2] - best) / best : 0;
	return best;
}

/* The buffer of the memory probes, touched so that its pages exist. Where
 * lines can be flushed, 64 MiB (the ksmd style's flushed set) emptied from
 * the caches before each read: a buffer of 4x the last-level cache costs a
 * fault per page on a VM that hands freed memory back to its host (1.9 GiB,
 * 4.3 s of system time, behind a 480 MiB L3). Elsewhere, that size, read a
 * quarter at a time (memory_probes). */
static unsigned char *stream_buffer(size_t *bytes, int flushed, struct kb_err *err)
{
	uint64_t want = PAGE_SET_FLUSHED_DEFAULT_BYTES;

	if (!flushed) {
		struct cpu_description d;
		memset(&d, 0, sizeof(d));
		cpu_describe(&d);
		want = page_set_cold_default_bytes(cpu_llc_bytes(&d));
	}
	void *p = mmap(NULL, (size_t)want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return kb_fail(err, "cannot map %llu MiB for the memory probes", (unsigned long long)(want >> 20)), NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, (size_t)want, MADV_HUGEPAGE);
#endif
	/* Distinct contents per page, so that no page is the shared zero page. */
	for (size_t off = 0; off < want; off += 4096)
		memset((unsigned char *)p + off, (int)(off >> 12) | 1, 4096);
	*bytes = (size_t)want;
	return p;
}

static double cold_page_round_ns(const unsigned char *buf, size_t bytes, uint64_t *state, uint64_t *sink)
{
	double ns[CEIL_COLD_PAGES];
	size_t pages = bytes / 4096;

	for (int i = 0; i < CEIL_COLD_PAGES; i++) {
		*state = *state * 6364136223846793005ull + 1442695040888963407ull;
		const unsigned char *page = buf + (size_t)((*state >> 33) % pages) * 4096;
		/* Where lines cannot be flushed the page is only as cold
		 * as the streamed read left it: most of 4x the cache is gone. */
		cache_flush(page, 4096);
		uint64_t t0 = clock_now_ns();
		*sink += ceiling_read_u64(page, 4096);
		ns[i] = (double)(clock_now_ns() - t0);
	}
	qsort(ns, CEIL_COLD_PAGES, sizeof(ns[0]), cmp_double);
	return ns[CEIL_COLD_PAGES / 2]; /* the median page of the round */
}

/* The memory probes' state: their buffer and the rounds taken so far. */
struct memory_probes {
	unsigned char *buf;
	size_t bytes, span;
	int flushed;
	unsigned parts, stream_n, stream_want, cold_n, cold_want;
	double stream_s[CEIL_ROUNDS_MAX], cold_ns[CEIL_ROUNDS_MAX];
	uint64_t state, sink;
};

/* Streamed reads are few. A flushed buffer is read whole, each time from
 * memory. Unflushed, each read takes a quarter of it (as much as the
 * last-level cache), the quarter touched least recently: three times the
 * cache was read or written since, so it comes from memory, in a quarter of
 * the time of a whole pass. Given time to extend, three times as many
 * streamed reads, and at least as many cold-page rounds (the host's memory
 * traffic, which nothing here can see, moves them most). */
static int memory_begin(const struct ceiling_opts *o, struct memory_probes *m, struct kb_err *err)
{
	unsigned mul = o->extend_s > 0 ? 3 : 1;

	memset(m, 0, sizeof(*m));
	m->flushed = cache_flush_available();
	m->buf = stream_buffer(&m->bytes, m->flushed, err);
	if (!m->buf)
		return -1;
	m->cold_want = o->repeats * mul;
	m->stream_want = (o->repeats < 5 ? o->repeats : 5) * mul;
	m->parts = m->flushed ? 1 : 4;
	m->span = m->bytes / m->parts & ~(size_t)4095;
	m->state = 0x6b736d62u;
	return 0;
}

/* A cold-page round (any number, up to CEIL_ROUNDS_MAX: each takes some 40
 * us), and a streamed read when stream is set and fewer than stream_want
 * ran. */
static void memory_round(struct memory_probes *m, int stream)
{
	if (stream && m->stream_n < m->stream_want) {
		const unsigned char *from = m->buf + (m->stream_n % m->parts) * m->span;
		if (m->flushed)
			cache_flush(from, m->span);
		uint64_t t0 = clock_now_ns();
		m->sink += ceiling_read_streams(from, m->span);
		m->stream_s[m->stream_n++] = (double)(clock_now_ns() - t0) * 1e-9 / (double)m->span;
	}
	if (m->cold_n < CEIL_ROUNDS_MAX)
		m->cold_ns[m->cold_n++] = cold_page_round_ns(m->buf, m->bytes, &m->state, &m->sink);
}

static void memory_finish(struct memory_probes *m, struct ceiling_figures *out)
{
	double spread;

	while (m->stream_n < m->stream_want || m->cold_n < m->cold_want)
		memory_round(m, 1);
	double s = best_and_spread(m->stream_s, m->stream_n, &spread);
	out->v[CEIL_MEM_STREAM] = (struct ceiling_value){ s > 0, s > 0 ? 1 / s : 0, spread };
	double c = best_and_spread(m->cold_ns, m->cold_n, &spread);
	out->v[CEIL_COLD_PAGE] = (struct ceiling_value){ c > 0, c, spread };
	out->stream_bytes = m->bytes;
	out->stream_flushed = m->flushed;
	munmap(m->buf, m->bytes);
	__asm__ volatile("" : : "r"(m->sink));
}

static void instruction_probes(const struct ceiling_opts *o, struct ceiling_figures *out, struct memory_probes *m)
{
	static double samples[CEIL_NPROBES][CEIL_ROUNDS_MAX]; /* seconds per op */
	double tp[CEIL_ROUNDS_MAX];
	unsigned keep[CEIL_ROUNDS_MAX], r = 0, k;
	double elapsed;
	uint64_t iters[CEIL_NPROBES] = { 0 }, sink = 1, t0 = clock_now_ns();
	uint32_t have = cpu_features();

	for (int p = 0; p < CEIL_NPROBES; p++)
		if (probes[p].loop && (have & probes[p].needs) == probes[p].needs)
			iters[p] = calibrate(probes[p].loop, o->run_s, &sink);
	/* Round after round for spread_s, then until repeats of them ran on
	 * an unshared core or extend_s is up: a sibling busy in bursts then
	 * costs rounds, not the figures. One busy throughout is not seen (no
	 * round is faster than the others). The memory probes' rounds go
	 * between them, not all in a few milliseconds: a burst of the host's
	 * memory traffic then meets some of them, not all (their best moved
	 * 7-14% between runs when they ran back to back). A cold-page round
	 * goes with each round, the few streamed reads spread over spread_s. */
	do {
		if (m)
			memory_round(m, elapsed_s_since(t0) * m->stream_want >= o->spread_s * m->stream_n);
		double before = clock_chain_throughput();
		for (int p = 0; p < CEIL_NPROBES; p++)
			if (iters[p])
				samples[p][r] = time_loop_s(probes[p].loop, iters[p], &sink) / ((double)iters[p] * probes[p].ops);
		double after = clock_chain_throughput();
		tp[r++] = before < after ? before : after;
		k = unshared_rounds(tp, r, keep);
		elapsed = elapsed_s_since(t0);
	} while (r < o->repeats ||
		 (r < CEIL_ROUNDS_MAX && (elapsed < o->spread_s || (k < o->repeats && elapsed < o->extend_s))));
	cpu_vector_state_clean();
	out->rounds = r;
	out->rounds_shared = r - k;

	double spread, add_s = best_of_all(samples[CEIL_CORE_CLOCK], r, keep, k, &spread);
	double hz = add_s > 0 ? 1 / add_s : 0;
	out->v[CEIL_CORE_CLOCK] = (struct ceiling_value){ hz > 0, hz, spread };
	for (int p = 0; p < CEIL_NPROBES; p++) {
		if (!iters[p] || p == CEIL_CORE_CLOCK || hz <= 0)
			continue;
		double best = best_of_all(samples[p], r, keep, k, &spread), cycles = best * hz;
		double v = probes[p].kind == K_BYTES_PER_CYCLE ? (cycles > 0 ? 1 / cycles : 0) : cycles;
		out->v[p] = (struct ceiling_value){ v > 0, v, spread };
	}
	__asm__ volatile("" : : "r"(sink)); /* consumed */
}

int ceiling_measure(const struct ceiling_opts *o, struct ceiling_figures *out, struct kb_err *err)
{
	uint64_t t0 = clock_now_ns();

	memset(out, 0, sizeof(*out));
	if (o->repeats < 1 || o->repeats > CEIL_REPEATS_MAX)
		return kb_fail(err, "repeats must be 1..%d, not %u", CEIL_REPEATS_MAX, o->repeats);
	if (!(o->extend_s >= 0 && o->extend_s <= 10 && o->spread_s >= 0 && o->spread_s <= o->extend_s))
		return kb_fail(err, "the ceiling's rounds must be spread over 0 to 10 s");
	if (!(o->run_s > 0 && o->run_s <= 0.1))
		return kb_fail(err, "a probe run must last more than 0 and at most 100 ms");
	out->repeats = o->repeats;
	for (size_t i = 0; i < sizeof(ceiling_l1_buf); i++)
		ceiling_l1_buf[i] = (unsigned char)(i * 131 + 7);
	struct memory_probes mem;
	if (!o->skip_memory && memory_begin(o, &mem, err))
		return -1;
	instruction_probes(o, out, o->skip_memory ? NULL : &mem);
	if (!o->skip_memory)
		memory_finish(&mem, out);
	out->elapsed_s = (double)(clock_now_ns() - t0) * 1e-9;
	return 0;
}

double ceiling_coissue(const struct ceiling_figures *f, unsigned w)
{
	enum ceiling_probe_id mixed = w == 64 ? CEIL_MIXED_ZMM : w == 32 ? CEIL_MIXED_YMM : CEIL_MIXED_XMM;
	enum ceiling_probe_id clmul = w == 64 ? CEIL_CLMUL_ZMM : w == 32 ? CEIL_CLMUL_YMM : CEIL_CLMUL_XMM;

	if (!f->v[mixed].measured || !f->v[clmul].measured || !f->v[CEIL_CRC32_TPUT].measured)
		return -1;
	double crc = 6 * f->v[CEIL_CRC32_TPUT].value, cl = 4 * f->v[clmul].value;
	double smaller = crc < cl ? crc : cl;
	double o = smaller > 0 ? (crc + cl - f->v[mixed].value) / smaller : 0;
	return o < 0 ? 0 : o > 1 ? 1 : o;
}
