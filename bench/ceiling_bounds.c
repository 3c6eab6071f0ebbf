/* Each implementation family's ceiling from the measured limits (see
 * ceiling.h; docs/ceilings.md explains each formula). Rates are computed in
 * bytes per core cycle, then scaled by the core clock. The bounds are those
 * of the instruction stream in L1: call overhead, the last reductions and
 * loop bookkeeping come on top, so a good implementation reaches 0.87-0.97
 * of them at 4 KiB (docs/ceilings.md). */
#include "ceiling.h"

#include <string.h>

#include "bench.h"
#include "ceiling_probes.h"
#include "disturb.h"
#include "estimate.h"

#define CEIL_CRC_LANES 3 /* crc32q streams of the 3-way and fused schemes */

static const struct ceiling_value *val(const struct ceiling_figures *f, enum ceiling_probe_id id)
{
	return f->v[id].measured && f->v[id].value > 0 ? &f->v[id] : NULL;
}

static enum ceiling_probe_id by_width(unsigned w, enum ceiling_probe_id xmm)
{
	return (enum ceiling_probe_id)(xmm + (w == 64 ? 2 : w == 32 ? 1 : 0));
}

static int fail(struct ceiling_bound *b, const char *why)
{
	b->bytes_per_s = b->cold_bytes_per_s = 0;
	b->limit = why;
	return -1;
}

/* crc32q chains on `lanes` streams (1, or 3 from the entry's
 * one_stream_below). Each step waits for the last, but back to back a
 * call's chains do not wait for the last call's: the next call starts
 * while this one's last steps wait, as far as the out-of-order window
 * reaches. The page-chain probe measures that overlap for one stream (a
 * page's chain lasts 512 latencies less it); the window holds
 * instructions, so lanes that drain it `lanes` times as fast overlap a
 * `lanes`th as long. Calls apart overlap nothing: the whole chain. Never
 * below the port's throughput, which three streams need measured. */
static int crc_streams(const struct ceiling_figures *f, size_t page_size, unsigned lanes, int apart,
		       double *per_cycle, struct ceiling_bound *b)
{
	const struct ceiling_value *lat = val(f, CEIL_CRC32_LAT), *page = val(f, CEIL_CRC32_PAGE),
				   *tput = val(f, CEIL_CRC32_TPUT);
	size_t qwords = page_size / 8 ? page_size / 8 : 1;

	if (!lat || (lanes > 1 && !tput))
		return fail(b, lanes > 1 ? "crc32q not measured" : "crc32q latency not measured");
	double overlap = !apart && page && page->value < lat->value ? CEILING_PAGE_QWORDS * (lat->value - page->value)
								     : 0;
	double by_chain = ((double)qwords * lat->value - overlap) / lanes;
	double by_port = tput ? (double)qwords * tput->value : 0;
	*per_cycle = (double)page_size / (by_chain > by_port ? by_chain : by_port);
	if (by_port >= by_chain)
		b->limit = "crc32q throughput";
	else if (apart)
		b->limit = lanes > 1 ? "crc32q latency x 3 streams, calls apart (no overlap)"
				     : "crc32q latency (one dependent stream), calls apart (no overlap)";
	else
		b->limit = lanes > 1 ? "crc32q latency x 3 streams" : "crc32q latency (one dependent stream)";
#define CEIL_OVERLAP "; overlap = 512 x (latency - page chain's cycles per crc32q) back to back, 0 apart"
	b->formula = lanes > 1 ? "P / max(P/24 x crc32q latency - overlap / 3, P/8 x crc32q throughput)" CEIL_OVERLAP
			       : "P / max(P/8 x crc32q latency - overlap, P/8 x crc32q throughput)" CEIL_OVERLAP;
#undef CEIL_OVERLAP
	return 0;
}

/* Folding: two carry-less multiplies per register of input, one load. */
static int clmul_fold(const struct ceiling_figures *f, unsigned w, double *per_cycle, struct ceiling_bound *b)
{
	const struct ceiling_value *cl = val(f, by_width(w, CEIL_CLMUL_XMM)), *ld = val(f, by_width(w, CEIL_LOAD_XMM));

	if (!cl)
		return fail(b, "(v)pclmulqdq of this width not measured");
	double by_mul = w / (2 * cl->value), by_load = ld ? ld->value : by_mul;
	*per_cycle = by_mul < by_load ? by_mul : by_load;
	b->limit = by_mul <= by_load ? (w == 64 ? "vpclmulqdq zmm throughput" : w == 32 ? "vpclmulqdq ymm throughput"
									: "pclmulqdq throughput")
				     : "L1 loads";
	b->formula = "min(W / (2 x clmul throughput), L1 load bytes per cycle)";
	return 0;
}

/* Both at once: the bytes of the fused loop probes (4 registers folded
 * with their loads and xors, and 12 crc32q of 8 bytes, 6 in the light one,
 * 24 on six streams in the wide one, 36 in the deep one and on nine
 * streams in the nine one) over their measured cycles, the best of the
 * balances, never less than either part alone. Where the units do
 * not overlap that is their sum, and one part alone is faster. Several
 * balances, because the best one follows the units: on family 25 model 17
 * (a ymm multiply in two cycles) the heavy one moved more, on family 6
 * model 207 (a zmm one a cycle) the heavy one is crc32q-bound below folding
 * alone, on family 26 (more than two crc32 units) the nine one moves the
 * most: its streams carry 4 dependent crc32q an iteration, the deep one's 6. */
static int crc_clmul(const struct ceiling_figures *f, unsigned w, size_t page_size, int apart, double *per_cycle,
		     struct ceiling_bound *b)
{
	static const struct {
		enum ceiling_probe_id xmm;
		unsigned crc32q;
		const char *limit;
	} loops[] = {
		{ CEIL_FUSED_XMM, 12, "crc32q and (v)pclmulqdq together (the fused loop, 12 crc32q)" },
		{ CEIL_FUSED_LIGHT_XMM, 6, "crc32q and (v)pclmulqdq together (the fused loop, 6 crc32q)" },
		{ CEIL_FUSED_WIDE_XMM, 24, "crc32q and (v)pclmulqdq together (the fused loop, 24 crc32q)" },
		{ CEIL_FUSED_DEEP_XMM, 36, "crc32q and (v)pclmulqdq together (the fused loop, 36 crc32q)" },
		{ CEIL_FUSED_NINE_XMM, 36, "crc32q and (v)pclmulqdq together (the fused loop, 36 crc32q on 9 streams)" },
	};
	double crc, cl, together = 0;
	struct ceiling_bound tmp = *b;

	if (crc_streams(f, page_size, CEIL_CRC_LANES, apart, &crc, &tmp) || clmul_fold(f, w, &cl, &tmp))
		return fail(b, tmp.limit);
	for (size_t i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		const struct ceiling_value *v = val(f, by_width(w, loops[i].xmm));
		if (!v)
			return fail(b, "the fused crc32q + (v)pclmulqdq loops were not measured");
		double rate = (4.0 * w + loops[i].crc32q * 8) / v->value;
		if (rate > together) {
			together = rate;
			b->limit = loops[i].limit;
		}
	}
	double alone = crc > cl ? crc : cl;
	*per_cycle = together > alone ? together : alone;
	if (together <= alone)
		b->limit = "crc32q and (v)pclmulqdq do not overlap: the faster alone";
	b->formula = "max((4 x W + n x 8 B) / fused-loop cycles for n = 12, 6 (light), 24 (wide, six streams), "
		     "36 (deep, six streams), 36 (nine streams), crc alone, fold alone)";
	return 0;
}

/* XXH3: per register of input its share of a block (16 accumulate steps
 * and the scramble), one multiply and two loads. */
static int xxh3_vector(const struct ceiling_figures *f, unsigned w, double *per_cycle, struct ceiling_bound *b)
{
	const struct ceiling_value *block = val(f, by_width(w, CEIL_XXH3_BLOCK_XMM)),
				   *mul = val(f, by_width(w, CEIL_MUL32_XMM)), *ld = val(f, by_width(w, CEIL_LOAD_XMM));

	if (!block || !mul)
		return fail(b, "XXH3 block or 32-bit multiply of this width not measured");
	double by_block = w / block->value, by_mul = w / mul->value, by_load = ld ? ld->value / 2 : by_block;
	*per_cycle = by_block;
	b->limit = "XXH3 block: 16 steps + scramble (its instruction mix)";
	if (by_mul < *per_cycle) {
		*per_cycle = by_mul;
		b->limit = "32-bit vector multiply throughput";
	}
	if (by_load < *per_cycle) {
		*per_cycle = by_load;
		b->limit = "L1 loads (data and secret)";
	}
	b->formula = "min(W / XXH3 block cycles per register, W / multiply throughput, L1 load bytes per cycle / 2)";
	return 0;
}

int ceiling_bound(const struct ceiling_figures *f, const struct hash_impl *h, size_t page_size, int apart,
		  struct ceiling_bound *b)
{
	struct hash_scheme_use use = hash_scheme_here(h);
	enum hash_scheme s = use.scheme;
	unsigned w = use.vector_bytes;
	const struct ceiling_value *hz = val(f, CEIL_CORE_CLOCK), *mem = val(f, CEIL_MEM_STREAM);
	double per_cycle = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	if (!hz)
		return fail(b, "core clock not measured");
	/* Below their thresholds the fused entries fold alone, and the
	 * multi-stream schemes run one stream. */
	if (s == HASH_SCHEME_CRC_CLMUL && page_size < use.fused_min_bytes)
		s = HASH_SCHEME_CLMUL_FOLD;
	if ((s == HASH_SCHEME_CRC_3WAY || s == HASH_SCHEME_CLMUL_FOLD || s == HASH_SCHEME_CRC_CLMUL) &&
	    page_size < use.one_stream_below)
		s = HASH_SCHEME_CRC_1WAY;
	switch (s) {
	case HASH_SCHEME_CRC_1WAY: rc = crc_streams(f, page_size, 1, apart, &per_cycle, b); break;
	case HASH_SCHEME_CRC_3WAY: rc = crc_streams(f, page_size, CEIL_CRC_LANES, apart, &per_cycle, b); break;
	case HASH_SCHEME_CLMUL_FOLD: rc = clmul_fold(f, w, &per_cycle, b); break;
	case HASH_SCHEME_CRC_CLMUL: rc = crc_clmul(f, w, page_size, apart, &per_cycle, b); break;
	case HASH_SCHEME_XXH3_VECTOR: rc = xxh3_vector(f, w, &per_cycle, b); break;
	default: return fail(b, "not modelled (scalar multiply, rotate and table chains)");
	}
	if (rc)
		return rc;
	b->bytes_per_s = per_cycle * hz->value;
	b->cold_bytes_per_s = mem && mem->value < b->bytes_per_s ? mem->value : b->bytes_per_s;
	return 0;
}

const struct ceiling_figures *ceiling_process_figures(struct kb_err *err)
{
	static struct ceiling_figures figures;
	static int measured;

	if (!measured) {
		struct ceiling_opts o;
		ceiling_default_opts(&o);
		if (ceiling_measure(&o, &figures, err))
			return NULL;
		measured = 1;
	}
	return &figures;
}

void ceiling_bound_results(const struct ceiling_figures *f, struct bench_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct hash_impl *h = hash_find(r[i].impl);
		struct ceiling_bound b;
		r[i].ceiling_bytes_per_s = 0;
		r[i].ceiling_limit = NULL;
		if (!f || !h || ceiling_bound(f, h, r[i].page_size, r[i].apart, &b))
			continue;
		/* The bound is so many bytes a core cycle: at the clock the rounds
		 * the estimate used ran at (their median; a clock drop leaves a
		 * round out), not the one the probes ran at, which on a VM
		 * differs from one minute to the next (3.45-3.75 GHz on the Zen 5
		 * VM of docs/ceilings.md). The memory's bandwidth does not follow
		 * it. */
		double hz = estimate_clock_hz(&r[i]), probe_hz = f->v[CEIL_CORE_CLOCK].value;
		double hot = hz > 0 && probe_hz > 0 ? b.bytes_per_s * hz / probe_hz : b.bytes_per_s;
		double mem = f->v[CEIL_MEM_STREAM].measured ? f->v[CEIL_MEM_STREAM].value : 0;
		int cold = r[i].cache && strcmp(r[i].cache, "cold") == 0, by_memory = cold && mem > 0 && mem < hot;
		r[i].ceiling_bytes_per_s = by_memory ? mem : hot;
		r[i].ceiling_limit = by_memory ? "memory stream bandwidth" : b.limit;
	}
}
