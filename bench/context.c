/* Gathering the run's context and its warnings (see context.h). */
#include "context.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../common/versions.h"
#include "../hashes/cpu_features.h"
#include "clock.h"
#include "disturb.h"
#include "interference.h"
#include "pin.h"
#include "run.h"
#include "stop.h"

/* Set by the Makefile: the flags this file was built with stand for the build. */
#ifndef KB_CFLAGS
#define KB_CFLAGS "unknown"
#endif

#define COARSE_TIMER_NS 1000u

void bench_context_warn(struct bench_context *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->nwarnings >= CONTEXT_WARNINGS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ctx->warnings[ctx->nwarnings++], sizeof(ctx->warnings[0]), fmt, ap);
	va_end(ap);
}

static void read_governor(int cpu, char *buf, size_t size)
{
	char path[96];

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu < 0 ? 0 : cpu);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	fclose(f);
}

static void describe_build(struct bench_context *ctx)
{
#if defined(__clang__)
	snprintf(ctx->compiler, sizeof(ctx->compiler), "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(ctx->compiler, sizeof(ctx->compiler), "gcc %s", __VERSION__);
#else
	snprintf(ctx->compiler, sizeof(ctx->compiler), "unknown");
#endif
	snprintf(ctx->cflags, sizeof(ctx->cflags), "%s", KB_CFLAGS);
#if defined(__OPTIMIZE__)
	ctx->optimized = 1;
#endif
#if defined(__SANITIZE_ADDRESS__)
	ctx->sanitized = 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	ctx->sanitized = 1;
#endif
#endif
}

/* The comma-separated feature names as a list. */
static void list_features(struct bench_context *ctx, uint32_t needs)
{
	char names[256];

	cpu_features_names(needs, names, sizeof(names));
	for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok && ctx->nfeatures < CONTEXT_FEATURES_MAX;
	     tok = strtok_r(NULL, ",", &save))
		snprintf(ctx->features_used[ctx->nfeatures++], sizeof(ctx->features_used[0]), "%s", tok);
}

void bench_context_note_plan(struct bench_context *ctx, const struct bench_plan *plan)
{
	unsigned rounds = 0;

	for (unsigned i = 0; i < plan->nsteps; i++)
		if (plan->steps[i].cfg.repeat > rounds)
			rounds = plan->steps[i].cfg.repeat;
	ctx->processes = plan->processes;
	ctx->rounds_per_process = rounds;
	ctx->order_seed = plan->seed;
	/* Each warning once: the table labels every such set. */
	int cut = 0, warm = 0;
	for (unsigned i = 0; i < plan->nsteps; i++) {
		const struct page_set_request *set = &plan->steps[i].set;
		unsigned long long asked_kib = set->working_set_bytes >> 10, llc_kib = set->llc_bytes >> 10;
		unsigned long long built_kib = page_set_request_ws_bytes(set) >> 10;
		if (!cut && set->cold && set->page_size &&
		    set->working_set_bytes / set->page_size > PAGE_SET_COLD_PAGES_MAX && (cut = 1))
			bench_context_warn(ctx, "a working set of %llu KiB of %u-byte pages is more than %u pages: "
					   "%llu KiB used", asked_kib, set->page_size, PAGE_SET_COLD_PAGES_MAX, built_kib);
		if (!warm && strcmp(page_set_cache_label(set), "warm") == 0 && (warm = 1))
			bench_context_warn(ctx, "a working set of %llu KiB is under %ux the last-level cache (%llu "
					   "KiB): labelled warm, not cold (much of it may stay in the cache)",
					   built_kib, PAGE_SET_COLD_LLC_FACTOR, llc_kib);
	}
}

void bench_context_note_cpus(struct bench_context *ctx, const int *cpus, unsigned n)
{
	ctx->nprocess_cpus = 0;
	for (unsigned i = 0; i < n && i < BENCH_PROCESSES_MAX; i++)
		if (cpus[i] >= 0)
			ctx->process_cpus[ctx->nprocess_cpus++] = cpus[i];
}

void bench_context_note_reference(struct bench_context *ctx, const struct disturb_reference *ref,
				  const struct free_core *free_core)
{
	ctx->reference_clock_hz = ref->clock_hz;
	/* The run's own decile, not the floor it was raised to: compare and
	 * repro-check tell a run shared throughout by it (docs/measurement.md),
	 * and the floor is free_core times the clock, written beside it. */
	ctx->reference_throughput = ref->measured;
	ctx->reference_woken_throughput = ref->woken;
	ctx->free_core = *free_core;
	if (disturb_reference_shared_throughout(ref, &disturb_default))
		bench_context_warn(ctx, "the core read at best %.1f additions a cycle against a free core's %.1f (%s): "
				   "shared the whole run, its rounds are judged against a free core",
				   ref->measured * 1e9 / ref->clock_hz, free_core->adds_per_cycle, free_core->source);
}

/* Which probes this system offers, from a probe opened here. */
static void note_probes(struct bench_context *ctx)
{
	struct interference_probe p;

	interference_open(&p);
	ctx->hardware_counters = p.fd_cycles >= 0;
	snprintf(ctx->hardware_counters_note, sizeof(ctx->hardware_counters_note), "%s", p.pmu_note);
	ctx->migrations_source = p.migrations_source;
	interference_close(&p);
}

void bench_context_note_stop(struct bench_context *ctx, unsigned planned, unsigned completed, unsigned rounds_done,
			     unsigned rounds_planned)
{
	ctx->planned = planned;
	ctx->completed = completed;
	ctx->rounds_done = rounds_done;
	ctx->rounds_planned = rounds_planned;
	ctx->interrupted_by = bench_stop_requested();
}

/* Says when the allowed CPUs were not alike at the choice: the run then
 * measured on a fast one, and figures from another run may come from a
 * slower one. */
static void warn_cpu_choice(struct bench_context *ctx)
{
	const struct pin_probe *slowest = NULL, *pinned = NULL;

	for (unsigned i = 0; i < ctx->ncpu_probes; i++) {
		const struct pin_probe *p = &ctx->cpu_probes[i];
		if (!slowest || p->adds_per_ns < slowest->adds_per_ns)
			slowest = p;
		if (p->cpu == ctx->pinned_cpu)
			pinned = p;
	}
	if (slowest && pinned && slowest->adds_per_ns < (1 - PIN_EQUAL_SHARE) * pinned->adds_per_ns)
		bench_context_warn(ctx, "CPU %d ran %.0f%% slower than CPU %d when the run started (a busy SMT sibling, "
				   "or a slower kind of core): CPU %d is measured", slowest->cpu,
				   100 * (1 - slowest->adds_per_ns / pinned->adds_per_ns), pinned->cpu, pinned->cpu);
}

void bench_context_gather(struct bench_context *ctx, int pinned_cpu, const char *pin_rule,
			  const struct hash_impl *const *hashes, unsigned n, enum context_counter counter)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	uint32_t needs = 0;

	memset(ctx, 0, sizeof(*ctx));
	strftime(ctx->date, sizeof(ctx->date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	if (gethostname(ctx->host, sizeof(ctx->host) - 1) != 0)
		snprintf(ctx->host, sizeof(ctx->host), "unknown");
	snprintf(ctx->version, sizeof(ctx->version), "%s", KSMBENCH_VERSION);
	snprintf(ctx->git_revision, sizeof(ctx->git_revision), "%s", kb_git_revision());
	describe_build(ctx);
	if (uname(&u) == 0)
		snprintf(ctx->kernel_release, sizeof(ctx->kernel_release), "%s", u.release);
	ctx->pinned_cpu = pinned_cpu;
	ctx->pin_rule = pin_rule;
	ctx->cpu_probes = pin_probes(&ctx->ncpu_probes);
	read_governor(pinned_cpu, ctx->governor, sizeof(ctx->governor));
	cpu_quota_find("/proc/self/cgroup", "/sys/fs/cgroup", &ctx->quota);
	cpu_describe(&ctx->cpu);
	for (unsigned i = 0; i < n; i++)
		needs |= hash_resolve(hashes[i])->cpu_needs;
	list_features(ctx, needs);

	const struct counter_info *ci = counter == CONTEXT_COUNTER_UNUSED ? counter_identity() : counter_info();
	int uses_counter = counter == CONTEXT_COUNTER_REPORTED;
	ctx->counter_is_tsc = ci->is_tsc;
	ctx->tsc_invariant = ci->invariant;
	ctx->has_rdtscp = ci->has_rdtscp;
	ctx->counter_hz = ci->hz;
	ctx->counter_overhead_ticks = ci->overhead_ticks;
	ctx->counter_step_ticks = ci->step_ticks;
	ctx->system_page_size = sysconf(_SC_PAGESIZE);
	note_probes(ctx);
	xsave_measure(&ctx->xsave);
	ctx->clock_resolution_ns = clock_resolution_ns();
	ctx->clock_granularity_ns = clock_granularity_ns();

	if (!ctx->governor[0])
		bench_context_warn(ctx, "no cpufreq governor is exposed (virtual machine?): frequency scaling is unknown");
	else if (strcmp(ctx->governor, "performance") != 0)
		bench_context_warn(ctx, "the frequency governor of CPU %d is '%s', not 'performance'", pinned_cpu,
				   ctx->governor);
	if (ctx->quota.cpus > 0 && ctx->quota.cpus < 1)
		bench_context_warn(ctx, "this cgroup may use %.2f CPU (%s %llu of %llu us): the measuring thread is "
				   "stopped for part of every %.0f ms, and rounds it falls in are marked disturbed (off CPU)",
				   ctx->quota.cpus, ctx->quota.file, ctx->quota.quota_us, ctx->quota.period_us,
				   (double)ctx->quota.period_us / 1000);
	warn_cpu_choice(ctx);
	if (!ctx->optimized)
		bench_context_warn(ctx, "ksmbench was built without optimization: figures are not representative");
	if (ctx->sanitized)
		bench_context_warn(ctx, "ksmbench was built with AddressSanitizer: figures are not representative");
	if (ctx->clock_resolution_ns > COARSE_TIMER_NS || ctx->clock_granularity_ns > COARSE_TIMER_NS)
		bench_context_warn(ctx, "CLOCK_MONOTONIC is coarse (resolution %llu ns, steps of %llu ns)",
				   (unsigned long long)ctx->clock_resolution_ns,
				   (unsigned long long)ctx->clock_granularity_ns);
	if (uses_counter && ci->step_ticks > 1)
		bench_context_warn(ctx, "the %s advances in steps of %.0f ticks: rdtsc times a call shorter than "
				   "100 steps in batches of calls (bench's table says which)",
				   ci->is_tsc ? "TSC" : "clock", ci->step_ticks);
	if (uses_counter && !ci->is_tsc)
		bench_context_warn(ctx, "no TSC on this architecture: per-call times use CLOCK_MONOTONIC (ns)");
	else if (uses_counter && !ci->invariant)
		bench_context_warn(ctx, "the TSC is not invariant: cycle figures may drift with the clock frequency");
}
