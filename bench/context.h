/* What a result depends on besides the hash: the machine, the build, the
 * settings, and warnings about anything that makes figures less reliable.
 * Gathered once per run; renderers print it. */
#ifndef KB_CONTEXT_H
#define KB_CONTEXT_H

#include "xsave_probe.h"
#include <stdint.h>

#include "../hashes/hash.h"
#include "cpu_describe.h"
#include "cpu_quota.h"
#include "disturb.h"
#include "run.h"

struct ceiling_figures;
struct bench_plan;
struct bench_result;

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
	const struct pin_probe *cpu_probes; /* what the default choice read (pin_probes()), none if asked */
	unsigned ncpu_probes;
	/* The CPU each measuring process ran on (bench_context_note_cpus), in
	 * process order: pinned_cpu, or chosen again for each (bench/pin.h). */
	int process_cpus[BENCH_PROCESSES_MAX];
	unsigned nprocess_cpus;
	struct cpu_quota quota;    /* the cgroup's CPU limit, cpus 0 when none */
	struct cpu_description cpu;
	char features_used[CONTEXT_FEATURES_MAX][24]; /* CPU features the measured implementations need */
	unsigned nfeatures;
	int counter_is_tsc, tsc_invariant, has_rdtscp;
	double counter_hz, counter_overhead_ticks;
	double counter_step_ticks;  /* every difference of two counter reads is a multiple of it */
	uint64_t clock_resolution_ns, clock_granularity_ns;
	long system_page_size;      /* sysconf(_SC_PAGESIZE): the kernel's PAGE_SIZE */
	/* How the run measured (bench_context_note_plan): processes, the rounds
	 * each took per measurement, the seed of the rounds' order. */
	unsigned processes, rounds_per_process;
	uint64_t order_seed;
	/* The interference probes this system offers (bench/interference.h). */
	int hardware_counters;      /* perf_event cycles and instructions */
	char hardware_counters_note[160]; /* why not, "" when there are */
	struct xsave_cost xsave;     /* the kernel's vector-state save in process context (xsave_probe.h) */
	const char *migrations_source;
	double reference_clock_hz;  /* the median of the run's rounds' effective clock (bench_context_note_reference) */
	double reference_throughput; /* the upper decile of their core throughput, additions per ns, as measured */
	double reference_woken_throughput; /* the same over rounds that slept (the ksmd timer's; 0: none) */
	struct free_core free_core;  /* the floor under it at the reference clock (bench/free_core.h) */
	/* This process's measured limits (bench/ceiling.h), NULL when not
	 * measured (--no-ceiling, or the probes failed: a warning says why). */
	const struct ceiling_figures *ceiling;
	char warnings[CONTEXT_WARNINGS_MAX][200];
	unsigned nwarnings;
	/* Set by the command when a stop request ended the run early: the
	 * signal, how many measurements were planned and reported (those with
	 * a whole round), and the rounds taken of those planned. */
	int interrupted_by;
	unsigned planned, completed;
	unsigned rounds_done, rounds_planned;
};

/* How a command uses the cycle counter, for bench_context_gather. */
enum context_counter {
	CONTEXT_COUNTER_CALIBRATED, /* calibrated and in the context; its warnings do not apply */
	CONTEXT_COUNTER_REPORTED,   /* its figures are reported: its warnings apply */
	CONTEXT_COUNTER_UNUSED,     /* nothing is timed with it: identified only (no
				     * hz, overhead or step), the 30 ms calibration saved */
};

/* Fills ctx for a run on pinned_cpu (chosen by pin_rule) over the n
 * hashes, the counter as `counter` says. */
void bench_context_gather(struct bench_context *ctx, int pinned_cpu, const char *pin_rule,
			  const struct hash_impl *const *hashes, unsigned n, enum context_counter counter);

/* Records how plan measures (processes, rounds, order seed). */
void bench_context_note_plan(struct bench_context *ctx, const struct bench_plan *plan);

/* Records the run's references as bench_results_finish found them (the
 * clock, and the throughput's upper decile before any floor) and the free
 * core's figure, with a warning when that decile is more than the
 * throughput threshold under the floor (disturb_reference_shared_throughout). */
void bench_context_note_reference(struct bench_context *ctx, const struct disturb_reference *ref,
				  const struct free_core *free_core);

/* Records the CPU each measuring process ran on (those of cpus[] that ran:
 * >= 0). */
void bench_context_note_cpus(struct bench_context *ctx, const int *cpus, unsigned n);

/* Records whether a stop request (bench/stop.h) cut the run short, with the
 * measurements planned and reported, and the rounds taken and planned. */
void bench_context_note_stop(struct bench_context *ctx, unsigned planned, unsigned completed, unsigned rounds_done,
			     unsigned rounds_planned);

/* Appends a warning (ignored once CONTEXT_WARNINGS_MAX are held). */
void bench_context_warn(struct bench_context *ctx, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
