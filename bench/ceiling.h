/* This CPU's measured limits that bound page hashing, and from them each
 * implementation's ceiling (docs/ceilings.md has the formulas and why).
 * Library API for `ksmbench ceiling` and the results' "% of ceiling":
 * measure once (ceiling_measure: rounds for CEIL_SPREAD_S, up to CEIL_EXTEND_S
 * while too few ran on a free core), then ask
 * ceiling_bound() per implementation and page size; ceiling_process_figures()
 * measures once per process. */
#ifndef KB_CEILING_H
#define KB_CEILING_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"
#include "../hashes/hash.h"

/* What is measured. Units: CEIL_CORE_CLOCK in Hz; instruction probes in core
 * cycles per instruction (CEIL_MIXED_*: cycles per loop iteration of 6
 * crc32q + 4 (v)pclmulqdq; CEIL_FUSED_*: per iteration of 4W + 96 bytes, CEIL_FUSED_LIGHT_*: 4W + 48;
 * CEIL_FUSED_WIDE_*: 4W + 192, CEIL_FUSED_DEEP_*, CEIL_FUSED_NINE_*: 4W + 288);
 * CEIL_XXH3_* and CEIL_XXH3_BLOCK_* in cycles per vector of input;
 * CEIL_LOAD_* in bytes per cycle; CEIL_MEM_STREAM in bytes per second;
 * CEIL_COLD_PAGE in ns. */
enum ceiling_probe_id {
	CEIL_CORE_CLOCK,  /* a dependent add chain: one add per cycle */
	CEIL_CRC32_TPUT,  /* crc32q, 12 independent chains */
	CEIL_CRC32_LAT,   /* crc32q, one dependent chain */
	CEIL_CRC32_PAGE,  /* crc32q, a 4 KiB page's chain a call, calls back to back: cycles per crc32q */
	CEIL_CLMUL_XMM,   /* pclmulqdq, 8 independent chains */
	CEIL_CLMUL_YMM,   /* vpclmulqdq ymm */
	CEIL_CLMUL_ZMM,   /* vpclmulqdq zmm */
	CEIL_MIXED_XMM,   /* 6 crc32q + 4 pclmulqdq in one loop */
	CEIL_MIXED_YMM,
	CEIL_MIXED_ZMM,
	CEIL_FUSED_XMM,   /* a fused crc32c's loop: 4 registers folded, 12 crc32q, loads and xors, from L1 */
	CEIL_FUSED_YMM,
	CEIL_FUSED_ZMM,
	CEIL_FUSED_LIGHT_XMM, /* the same with 6 crc32q (one after every second fold) */
	CEIL_FUSED_LIGHT_YMM,
	CEIL_FUSED_LIGHT_ZMM,
	CEIL_FUSED_WIDE_XMM, /* the same with 24 crc32q on 6 streams (6 after every fold) */
	CEIL_FUSED_WIDE_YMM,
	CEIL_FUSED_WIDE_ZMM,
	CEIL_FUSED_DEEP_XMM, /* 36 crc32q on 6 streams (1, 2, 1, 2 after the four folds) */
	CEIL_FUSED_DEEP_YMM,
	CEIL_FUSED_DEEP_ZMM,
	CEIL_FUSED_NINE_XMM, /* 36 crc32q on 9 streams (one on each after every fold) */
	CEIL_FUSED_NINE_YMM,
	CEIL_FUSED_NINE_ZMM,
	CEIL_MUL32_XMM,   /* pmuludq (32x32->64, what XXH3 multiplies with), 8 chains */
	CEIL_MUL32_YMM,
	CEIL_MUL32_ZMM,
	CEIL_XXH3_XMM,    /* XXH3's accumulate step (load, xor, 2 shuffles, multiply, 2 adds) */
	CEIL_XXH3_YMM,
	CEIL_XXH3_ZMM,
	CEIL_XXH3_BLOCK_XMM, /* one XXH3 block: 16 accumulate steps, then the scramble */
	CEIL_XXH3_BLOCK_YMM,
	CEIL_XXH3_BLOCK_ZMM,
	CEIL_LOAD_XMM,    /* loads from a 16 KiB buffer (L1) */
	CEIL_LOAD_YMM,
	CEIL_LOAD_ZMM,
	CEIL_MEM_STREAM,  /* four streams read side by side from memory (flushed, or the least recently touched quarter of 4x the cache) */
	CEIL_COLD_PAGE,   /* reading one 4 KiB page at a random address, flushed from the caches */
	CEIL_NPROBES
};

struct ceiling_value {
	int measured;      /* 0: this CPU or build cannot run the probe */
	double value;      /* best of the repeats, in the unit above */
	double spread_pct; /* (median of the unshared rounds - best) / best, in % */
};

struct ceiling_figures {
	struct ceiling_value v[CEIL_NPROBES];
	unsigned repeats;
	/* Instruction rounds run, and those whose core throughput was down
	 * (an SMT sibling, here or on the host, shared the core): the figures
	 * are the best of all; the spread and --repeat count the others only. */
	unsigned rounds, rounds_shared;
	double elapsed_s;       /* wall time of the measurement */
	size_t stream_bytes;    /* size of the streamed buffer */
	int stream_flushed;     /* 1: flushed before each read; 0: 4x the last-level cache, read a quarter at a time */
};

/* Rounds at most, whatever the time: short rounds (a short run_s, few
 * probes, as off x86) may reach it before spread_s. */
#define CEIL_ROUNDS_MAX 255
#define CEIL_SPREAD_S 1.0
#define CEIL_EXTEND_S 2.0

struct ceiling_opts {
	unsigned repeats;       /* best of this many short runs (default 7) */
	double run_s;           /* length of one run of an instruction probe (default 0.4 ms) */
	/* Rounds go on for at least spread_s (default 1 s), and then, while
	 * fewer than repeats of them ran on an unshared core, up to extend_s
	 * in all (default 2 s): a sibling busy for a tenth of a second is then
	 * not busy for all of them. 0 and 0: repeats rounds, whatever they met. */
	double spread_s, extend_s;
	int skip_memory;        /* 1: no streamed-memory or cold-page probes (unit tests) */
};

void ceiling_default_opts(struct ceiling_opts *o);

/* Runs every probe this CPU supports, interleaved round by round so that a
 * noisy moment hits all probes alike. */
int ceiling_measure(const struct ceiling_opts *o, struct ceiling_figures *out, struct kb_err *err);

/* Probe metadata for renderers. */
const char *ceiling_probe_key(enum ceiling_probe_id id);   /* JSON key, e.g. "crc32q_throughput_cycles" */
const char *ceiling_probe_label(enum ceiling_probe_id id); /* table label */
const char *ceiling_probe_unit(enum ceiling_probe_id id);

/* How much of the smaller of crc32q and (v)pclmulqdq work overlaps the other
 * in the mixed loop of width w (16, 32, 64): 0 none (the time is the sum of
 * the parts), 1 full (the time is the larger part). -1 if not measured. */
double ceiling_coissue(const struct ceiling_figures *f, unsigned w);

/* The bound on one implementation at one page size. */
struct ceiling_bound {
	double bytes_per_s;         /* hot, in L1; 0 when not modelled */
	double cold_bytes_per_s;    /* streamed from memory: min(hot, memory bandwidth) */
	const char *limit;          /* the resource that binds, e.g. "crc32q throughput" */
	const char *formula;        /* the family's formula, as in docs/ceilings.md */
};

/* Pure: the bound from given figures (tested with known inputs), for
 * calls back to back or (apart) each call apart: then a crc32q chain's
 * latency is not hidden under the next call's start. The vector families'
 * bounds are the same either way (their last reductions are not modelled).
 * Returns 0, or -1 when the family is not modelled or a needed probe was
 * not measured (bound->limit then says why). */
int ceiling_bound(const struct ceiling_figures *f, const struct hash_impl *h, size_t page_size, int apart,
		  struct ceiling_bound *bound);

/* This process's measurement, made on the first call (the default options:
 * at least CEIL_SPREAD_S of rounds, up to CEIL_EXTEND_S, with the memory
 * probes' mapping) and kept: for a results document's context. NULL with
 * err if the memory probes cannot map. */
const struct ceiling_figures *ceiling_process_figures(struct kb_err *err);

struct bench_result;

/* Sets each result's ceiling from f (bench.h: ceiling_bytes_per_s and
 * ceiling_limit): the hot bound for a hot run, the streamed one for a cold
 * run (then the memory when it binds), for its calls back to back or apart;
 * none where f is NULL or the implementation is not modelled. */
void ceiling_bound_results(const struct ceiling_figures *f, struct bench_result *r, size_t n);

#endif
