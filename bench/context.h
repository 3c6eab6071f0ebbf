/* What a result depends on besides the hash: the machine, the build, the
 * settings, and warnings about anything that makes figures less reliable.
 * Gathered once per run; renderers print it. */
#ifndef KB_CONTEXT_H
#define KB_CONTEXT_H

#include <stdint.h>

#include "../hashes/hash.h"
#include "cpu_describe.h"

struct ceiling_figures;

#define CONTEXT_WARNINGS_MAX 8
#define CONTEXT_FEATURES_MAX 24


struct bench_context {
	char date[32];             /* UTC, ISO 8601 */
	char host[128];
	char version[32], git_revision[48];
	char compiler[128], cflags[256];
	int optimized, sanitized;
	char kernel_release[128];
	char governor[64];         /* "" when the kernel exposes no cpufreq */
	int pinned_cpu;
	const char *pin_rule;      /* how it was chosen (bench/pin.h) */
	struct cpu_description cpu;
	char features_used[CONTEXT_FEATURES_MAX][24]; /* CPU features the measured implementations need */
	unsigned nfeatures;
	int counter_is_tsc, tsc_invariant, has_rdtscp;
	double counter_hz, counter_overhead_ticks;
	uint64_t clock_resolution_ns, clock_granularity_ns;
	/* This process's measured limits (bench/ceiling.h), NULL when not
	 * measured (--no-ceiling, or the probes failed: a warning says why). */
	const struct ceiling_figures *ceiling;
	char warnings[CONTEXT_WARNINGS_MAX][200];
	unsigned nwarnings;
	/* Set by the command when a stop request ended the run early: the
	 * signal, and how many measurements were planned and completed. */
	int interrupted_by;
	unsigned planned, completed;
};

/* Fills ctx for a run on pinned_cpu (chosen by pin_rule) over the n
 * hashes; uses_counter says the cycle counter's figures will be reported
 * (its warnings apply). */
void bench_context_gather(struct bench_context *ctx, int pinned_cpu, const char *pin_rule,
			  const struct hash_impl *const *hashes, unsigned n, int uses_counter);

/* Records whether a stop request (bench/stop.h) cut the run short, with the
 * measurements planned and completed. */
void bench_context_note_stop(struct bench_context *ctx, unsigned planned, unsigned completed);

/* Appends a warning (ignored once CONTEXT_WARNINGS_MAX are held). */
void bench_context_warn(struct bench_context *ctx, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
