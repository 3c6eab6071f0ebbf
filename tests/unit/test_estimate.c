/* Unit tests of the statistics of a run on known samples: the median's
 * distribution-free interval, which rounds are disturbed, per-process
 * values and stability verdicts, ratios from rounds side by side, the
 * seeded order of a round and interleaving, the batched rdtsc fallback with
 * a simulated coarse counter, the measuring processes' lines, the
 * /proc/stat probe's parser, the alias grouping. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../bench/clock.h"
#include "../../bench/context.h"
#include "../../bench/disturb.h"
#include "../../bench/estimate.h"
#include "../../bench/free_core.h"
#include "../../bench/interference.h"
#include "../../bench/names.h"
#include "../../bench/run.h"
#include "../../bench/schedule.h"
#include "../../bench/timer.h"
#include "../../bench/wire.h"
#include "../../hashes/cpu_features.h"
#include "../../hashes/cpu_identity.h"
#include "check.h"
#include "groups.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

void test_estimate_interval(void)
{
	struct stats_interval iv;
	double level;

	/* Coverage 1 - 2 P(Binomial(n, 1/2) < k), the largest k reaching 95%. */
	CHECK(stats_median_rank(1, &level) == 1 && level == 0);
	CHECK(stats_median_rank(5, &level) == 1 && NEAR(level, 1 - 2.0 / 32, 1e-12));
	CHECK(stats_median_rank(6, &level) == 1 && NEAR(level, 1 - 2.0 / 64, 1e-12));
	CHECK(stats_median_rank(10, &level) == 2 && NEAR(level, 1 - 2 * 11.0 / 1024, 1e-12));
	CHECK(stats_median_rank(20, &level) == 6 && NEAR(level, 1 - 2 * 21700.0 / 1048576, 1e-12));
	/* Within a bound, not ==: i386 compares in long double, where 0.95 is not the double 0.95. */
	/* Large n, where 2^-n is 0: the exact ranks and coverages (Python's
	 * fractions and math.comb). */
	CHECK(stats_median_rank(1000, &level) == 469 && NEAR(level, 0.9537088026395019, 1e-9));
	CHECK(stats_median_rank(1001, &level) == 470 && NEAR(level, 0.9500154764972458, 1e-9));
	CHECK(stats_median_rank(5000, &level) == 2431 && NEAR(level, 0.9506841418958282, 1e-9));
	double v10[] = { 10, 3, 7, 1, 9, 5, 2, 8, 6, 4 };
	CHECK(stats_median_interval(v10, 10, &iv) == 0 && iv.n == 10 && iv.median == 5.5 && iv.low == 2 &&
	      iv.high == 9);
	CHECK(v10[0] == 10); /* not sorted in place */
	double v1[] = { 42 };
	CHECK(stats_median_interval(v1, 1, &iv) == 0 && iv.low == 42 && iv.high == 42 && iv.spread == 0 &&
	      estimate_half_width_percent(&iv) == -1);
	double v5[] = { 100, 110, 90, 105, 95 };
	CHECK(stats_median_interval(v5, 5, &iv) == 0 && iv.low == 90 && iv.high == 110 &&
	      NEAR(estimate_half_width_percent(&iv), 10, 1e-9));
	/* The spread: quartiles 95 and 105 (1.349 is a normal sample's
	 * interquartile range in standard deviations); of 1..10, 3.25 and 7.75
	 * about 5.5; two values the far side of a quartile do not move it. */
	CHECK(NEAR(iv.spread, 10 / 1.349 / 100, 1e-12));
	CHECK(stats_median_interval(v10, 10, &iv) == 0 && NEAR(iv.spread, 4.5 / 1.349 / 5.5, 1e-12));
	double far[] = { 100, 100, 100, 100, 100, 100, 100, 100, 1000, 10 };
	CHECK(stats_median_interval(far, 10, &iv) == 0 && iv.spread == 0);
	CHECK(stats_median_interval(v5, 0, &iv) == -1);
}

static struct bench_round quiet_round(unsigned process, unsigned round, double ns)
{
	return (struct bench_round){ .process = process, .round = round, .ns_per_page = ns, .calls = 1000,
				     .elapsed_ns = ns * 1000, .clock_hz = 3e9, .throughput = 20,
				     .known = INTERFERENCE_BUSY | INTERFERENCE_STEAL | INTERFERENCE_OFF_CPU |
					      INTERFERENCE_SWITCHES | INTERFERENCE_MIGRATIONS | INTERFERENCE_CLOCK |
					      INTERFERENCE_THROUGHPUT };
}

void test_estimate_disturb(void)
{
	const struct disturb_thresholds *t = &disturb_default;
	const struct disturb_reference ref = { .clock_hz = 3e9, .throughput = 20 }, none = { 0 };
	struct bench_round r = quiet_round(0, 0, 100);

	CHECK(disturb_round(&r, &ref, t) == 0);
	r.other_busy_share = 0.51;
	CHECK(disturb_round(&r, &ref, t) == DISTURB_BUSY);
	r.other_busy_share = 0.5; /* at the threshold: not above it */
	CHECK(disturb_round(&r, &ref, t) == 0);
	r.steal_share = 0.03;
	r.off_cpu_share = 0.05;
	CHECK(disturb_round(&r, &ref, t) == (DISTURB_STEAL | DISTURB_OFF_CPU));
	r = quiet_round(0, 0, 100);
	r.involuntary_switches = 10; /* at the threshold: not above it */
	CHECK(disturb_round(&r, &ref, t) == 0);
	r.involuntary_switches = 11;
	r.migrations = 1;
	CHECK(disturb_round(&r, &ref, t) == (DISTURB_SWITCHES | DISTURB_MIGRATED));
	r = quiet_round(0, 0, 100);
	r.clock_hz = 2.84e9; /* 5.3% below the fastest */
	CHECK(disturb_round(&r, &ref, t) == DISTURB_CLOCK && disturb_round(&r, &none, t) == 0 &&
	      disturb_round(&r, NULL, t) == 0);
	r.clock_hz = 2.86e9;
	CHECK(disturb_round(&r, &ref, t) == 0);
	/* A shared core: the throughput 16% below the run's highest. */
	r.throughput = 16.8;
	CHECK(disturb_round(&r, &ref, t) == DISTURB_SHARED);
	r.throughput = 17.2;
	CHECK(disturb_round(&r, &ref, t) == 0);
	/* Unknown figures never disturb. */
	r = quiet_round(0, 0, 100);
	r.known = 0;
	r.other_busy_share = r.steal_share = r.off_cpu_share = 1;
	r.involuntary_switches = r.migrations = 99;
	r.clock_hz = r.throughput = 1;
	CHECK(disturb_round(&r, &ref, t) == 0);
	CHECK(strcmp(disturb_name(0), "busy") == 0 && strcmp(disturb_name(5), "clock") == 0 &&
	      strcmp(disturb_name(6), "shared-core") == 0);
}

/* A result of processes x rounds window rounds, ns[p][r]. */
static void make_result(struct bench_result *res, unsigned processes, unsigned rounds, const double *ns)
{
	memset(res, 0, sizeof(*res));
	res->hash = res->impl = "xxh64";
	res->page_size = 4096;
	res->timer = BENCH_TIMER_WINDOW;
	res->repeats_requested = rounds;
	for (unsigned p = 0; p < processes; p++)
		for (unsigned r = 0; r < rounds; r++) {
			struct bench_round x = quiet_round(p, r, ns[p * rounds + r]);
			x.sequence = r;
			CHECK(bench_result_add_round(res, &x) == 0);
		}
}

void test_estimate_verdicts(void)
{
	struct bench_result r;

	/* Five processes, close together: stable; each process's value its median. */
	double ok[] = { 100, 101, 102, 99, 100, 98, 103, 101, 99, 100, 104, 100, 101, 100, 102 };
	make_result(&r, 5, 3, ok);
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0);
	CHECK(r.unstable == 0 && r.nprocesses == 5 && r.processes_used == 5 && r.rounds_disturbed == 0);
	CHECK(r.per_process[0].ns_per_page == 101 && r.per_process[1].ns_per_page == 99 &&
	      r.per_process[2].ns_per_page == 101 && r.per_process[3].ns_per_page == 100 &&
	      r.per_process[4].ns_per_page == 101);
	/* The interval over processes is of rates, pages a second: 1e9/101 to 1e9/99. */
	CHECK(NEAR(r.ns_per_page.median, 101, 1e-9) && r.over_processes.n == 5 &&
	      NEAR(r.over_processes.low, 1e9 / 101, 1e-6) && NEAR(r.over_processes.high, 1e9 / 99, 1e-6) &&
	      r.ns_per_page.best == 98 && r.ns_per_page.n == 15);
	bench_result_release(&r);

	/* Four processes: the headline is the median of their rates (the mean
	 * of the middle two), not the rate of the median time; the spread and
	 * the interval's half-width are of the rates too. */
	double even[] = { 100, 125, 200, 250 };
	make_result(&r, 4, 1, even);
	CHECK(estimate_result(&r, &estimate_default) == 0);
	CHECK(NEAR(1e9 / r.ns_per_page.median, (1e9 / 125 + 1e9 / 200) / 2, 1e-3));
	CHECK(NEAR(r.over_processes.low, 1e9 / 250, 1e-6) && NEAR(r.over_processes.high, 1e9 / 100, 1e-6));
	CHECK(NEAR(estimate_half_width_percent(&r.over_processes),
		   (1e9 / 100 - 1e9 / 250) / 2 / r.over_processes.median * 100, 1e-9));
	bench_result_release(&r);
	/* Rates 10, 10, 8.7, 10 and 8 (x 1e7 a second): the spread is of the
	 * rates (quartiles 8.7 and 10: 9.6%), stable, though the times' would
	 * be 11.1%. */
	double rates[] = { 100, 100, 100 / 0.87, 100, 125 };
	make_result(&r, 5, 1, rates);
	CHECK(estimate_result(&r, &estimate_default) == 0);
	CHECK(NEAR(r.over_processes.spread, 0.13 / 1.349, 1e-9) && !(r.unstable & STABILITY_SPREAD));
	bench_result_release(&r);

	/* One process of five far off (its only rounds at 1.5x) leaves the
	 * median and the spread as they were, as one slow process did in a
	 * plain run (2447 ns against 1678-1805: a CV of 10.1%), and the result
	 * is stable; two of five move the quartile: the spread over processes
	 * (24.7%) is above 10%. */
	double one_off[] = { 100, 100, 100, 100, 100, 100, 100, 100, 150, 150 };
	make_result(&r, 5, 2, one_off);
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.unstable == 0 && r.over_processes.spread == 0);
	bench_result_release(&r);
	double spread[] = { 100, 100, 100, 100, 100, 100, 150, 150, 150, 150 };
	make_result(&r, 5, 2, spread);
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.unstable == STABILITY_SPREAD);
	CHECK(NEAR(r.ns_per_page.median, 100, 1e-9) && NEAR(r.over_processes.spread, (1 - 1 / 1.5) / 1.349, 1e-9));
	bench_result_release(&r);
	/* Two processes are enough to judge the spread: 100 and 150 ns are
	 * too far apart (and two are too few). */
	double two[] = { 100, 100, 100, 150, 150, 150 };
	make_result(&r, 2, 3, two);
	CHECK(estimate_result(&r, &estimate_default) == 0 &&
	      r.unstable == (STABILITY_FEW_PROCESSES | STABILITY_SPREAD));
	bench_result_release(&r);

	/* The best round less its interrupted batches: the fastest round's own
	 * uninterrupted pace, not a slower round's faster one (a round mostly
	 * interrupted keeps few batches); and the clock of the rounds used, a
	 * clock drop left out as its round is. */
	make_result(&r, 5, 1, ok);
	for (unsigned i = 0; i < 5; i++)
		r.rounds[i].uninterrupted_ns_per_page = r.rounds[i].ns_per_page - 1;
	r.rounds[1].uninterrupted_ns_per_page = 60; /* ns 101, not the best (99) */
	r.rounds[1].clock_hz = r.rounds[2].clock_hz = 3.1e9;
	r.rounds[4].clock_hz = 2.0e9;
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0);
	CHECK(r.ns_per_page.best == 99 && r.uninterrupted_ns_best == 98);
	CHECK(r.rounds[4].disturbed == DISTURB_CLOCK && NEAR(estimate_clock_hz(&r), 3.05e9, 1));
	for (unsigned i = 0; i < 5; i++)
		r.rounds[i].disturbed = DISTURB_BUSY;
	r.processes_used = 0; /* every round disturbed: every clock */
	CHECK(NEAR(estimate_clock_hz(&r), 3e9, 1));
	bench_result_release(&r);

	/* One round used: its time through the rate and back (1e9 / (1e9 / x))
	 * is an ulp off for some x; the median stays within the rounds' range. */
	double one[] = { 102.96, 150, 160 };
	make_result(&r, 1, 3, one);
	r.rounds[1].disturbed = r.rounds[2].disturbed = DISTURB_BUSY;
	/* one[0], not the literal: on i386 (x87) a constant has long double's precision. */
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.ns_per_page.min == one[0] &&
	      r.ns_per_page.median == one[0] && r.ns_per_page.max == one[0]);
	bench_result_release(&r);

	/* Rounds the timer could not resolve (0 ns): a process whose median is
	 * 0 has no rate (not an infinite one), and the others' median would
	 * lean to the slow ones (5 processes, 3 at 0: 54.5 ns from the two
	 * left): the result has none (0 ns), no interval, its timer too coarse;
	 * its processes still count as used. */
	double zero_some[] = { 0, 0, 0, 0, 0, 0, 50, 50, 60, 60 };
	make_result(&r, 5, 2, zero_some);
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.processes_used == 5 && r.over_processes.n == 0 &&
	      r.ns_per_page.median == 0 && r.unstable == STABILITY_TIMER);
	bench_result_release(&r);
	double zero_all[] = { 0, 0, 0, 0 };
	make_result(&r, 2, 2, zero_all);
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.processes_used == 2 && r.over_processes.n == 0 &&
	      r.ns_per_page.median == 0 && (r.unstable & STABILITY_FEW_PROCESSES) && (r.unstable & STABILITY_TIMER));
	bench_result_release(&r);

	/* Three processes: too few, whatever their agreement. */
	make_result(&r, 3, 2, ok);
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.unstable == STABILITY_FEW_PROCESSES);
	bench_result_release(&r);

	/* Disturbed rounds are kept but left out: 4 of 15 (27%) leave enough
	 * for the result's own rule (the run's is checked below). */
	struct estimate_rules own_rule = estimate_default;
	own_rule.run_disturbed_share_max = 1;
	make_result(&r, 5, 3, ok);
	for (unsigned i = 0; i < 12; i += 3)
		r.rounds[i].other_busy_share = 0.9;
	r.rounds[0].ns_per_page = 1000; /* a disturbed round's figure does not count */
	CHECK(estimate_results(&r, 1, &disturb_default, &own_rule) == 0);
	CHECK(r.rounds_disturbed == 4 && r.rounds[0].disturbed == DISTURB_BUSY && r.repeats == 15);
	CHECK(r.unstable == 0 && r.ns_per_page.max < 1000 && r.ns_per_page.n == 11);
	CHECK(r.per_process[0].rounds == 3 && r.per_process[0].disturbed == 1 && r.per_process[0].ns_per_page == 101.5);
	CHECK(r.processes_used == 5 && r.over_processes.n == 5);
	bench_result_release(&r);
	/* 20 of 25 (80%): more than three quarters is too many, though every
	 * process keeps a clean round. */
	double ok25[] = { 100, 101, 102, 99, 100, 98, 103, 101, 99, 100, 104, 100, 101,
			  100, 102, 99, 100, 101, 100, 102, 101, 100, 99, 100, 101 };
	make_result(&r, 5, 5, ok25);
	for (unsigned i = 0; i < 25; i++)
		if (i % 5)
			r.rounds[i].other_busy_share = 0.9;
	CHECK(estimate_results(&r, 1, &disturb_default, &own_rule) == 0);
	CHECK(r.rounds_disturbed == 20 && r.processes_used == 5 && r.unstable == STABILITY_DISTURBED);
	bench_result_release(&r);
	/* 15 of 20, three quarters exactly: not more than the rule allows. */
	make_result(&r, 5, 4, ok25);
	for (unsigned i = 0; i < 20; i++)
		if (i % 4)
			r.rounds[i].other_busy_share = 0.9;
	CHECK(estimate_results(&r, 1, &disturb_default, &own_rule) == 0);
	CHECK(r.rounds_disturbed == 15 && r.processes_used == 5 && r.unstable == 0);
	bench_result_release(&r);
	/* The run's share: rounds go in turns, so what disturbed half the
	 * run's rounds came and went over every result, the clean ones too.
	 * Three results of 20 rounds, 16 disturbed in the first (80%, its own
	 * rule), 14 or 15 in the second (70-75%) and none in the third: 31 of
	 * 60 makes all three run-disturbed; with 30 (half exactly) none is. */
	struct bench_result run[3];
	for (unsigned second = 14; second <= 15; second++) {
		unsigned disturbed = 16 + second;
		for (unsigned k = 0; k < 3; k++)
			make_result(&run[k], 5, 4, ok25);
		for (unsigned i = 0; i < 16; i++)
			run[0].rounds[i].other_busy_share = 0.9;
		for (unsigned i = 0; i < second; i++)
			run[1].rounds[i].other_busy_share = 0.9;
		CHECK(estimate_results(run, 3, &disturb_default, &estimate_default) == 0);
		unsigned run_bit = disturbed == 31 ? STABILITY_RUN_DISTURBED : 0;
		CHECK(run[0].rounds_disturbed == 16 &&
		      run[0].unstable == (STABILITY_DISTURBED | STABILITY_FEW_PROCESSES | run_bit));
		CHECK(run[1].rounds_disturbed == second && run[1].unstable == (STABILITY_FEW_PROCESSES | run_bit));
		CHECK(run[2].rounds_disturbed == 0 && run[2].unstable == run_bit);
		CHECK(run[1].run_rounds == 60 && run[1].run_rounds_disturbed == disturbed);
		/* Disturbed by this machine's other CPUs: not from outside it. */
		CHECK(run[2].run_rounds_outside == 0);
		for (unsigned k = 0; k < 3; k++)
			bench_result_release(&run[k]);
	}
	/* The core shared (its throughput half the run's) while this
	 * machine's other CPUs were idle: from outside, counted for the run. */
	make_result(&r, 5, 4, ok25);
	for (unsigned i = 0; i < 12; i++)
		r.rounds[i].throughput = 10;
	r.rounds[0].off_cpu_share = 0.5; /* time off this CPU: something here took it */
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0);
	CHECK(r.rounds_disturbed == 12 && r.run_rounds_outside == 11 && (r.unstable & STABILITY_RUN_DISTURBED));
	bench_result_release(&r);
	/* A whole process disturbed: it has no value, and 4 are too few. */
	make_result(&r, 5, 3, ok);
	for (unsigned i = 0; i < 3; i++)
		r.rounds[i].other_busy_share = 0.9;
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0);
	CHECK(r.per_process[0].ns_per_page == 0 && r.processes_used == 4 &&
	      r.unstable == STABILITY_FEW_PROCESSES);
	bench_result_release(&r);

	/* Every round disturbed: the figures come from all of them, unstable. */
	make_result(&r, 5, 1, ok);
	for (unsigned i = 0; i < 5; i++)
		r.rounds[i].steal_share = 0.5;
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0);
	CHECK(r.processes_used == 0 && r.over_processes.n == 5 && NEAR(r.ns_per_page.median, 100, 1e-9) &&
	      (r.unstable & STABILITY_DISTURBED) && (r.unstable & STABILITY_FEW_PROCESSES));
	bench_result_release(&r);

	/* A clock drop below the run's usual (median) clock. */
	make_result(&r, 5, 1, ok);
	r.rounds[2].clock_hz = 2.5e9;
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0 && r.rounds[2].disturbed == DISTURB_CLOCK);
	bench_result_release(&r);
	/* A turbo burst is not the yardstick: the clock's reference is the
	 * median, so the usual rounds, 5.3% below a burst, are not "clock"; a
	 * real drop below the usual still is. */
	double ok20[20];
	for (unsigned i = 0; i < 20; i++)
		ok20[i] = 100 + i % 3;
	make_result(&r, 5, 4, ok20);
	for (unsigned i = 0; i < 20; i++)
		r.rounds[i].clock_hz = 3.59e9;
	r.rounds[7].clock_hz = r.rounds[8].clock_hz = r.rounds[9].clock_hz = 3.79e9;
	r.rounds[11].clock_hz = 3.3e9;
	r.rounds[3].throughput = 40; /* the throughput's is the upper decile */
	r.rounds[4].throughput = 30;
	struct disturb_reference ref = disturb_reference_of(&r, 1, 0);
	CHECK(NEAR(ref.clock_hz, 3.59e9, 1) && NEAR(ref.throughput, 21, 1e-12));
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0 && r.rounds_disturbed == 1 &&
	      r.rounds[11].disturbed == DISTURB_CLOCK && r.rounds[7].disturbed == 0 && r.rounds[0].disturbed == 0 &&
	      r.unstable == 0);
	bench_result_release(&r);
	/* Interpolated: of 10 rounds, the median between the middle two, the
	 * decile between the two highest. */
	make_result(&r, 5, 2, ok);
	for (unsigned i = 0; i < 10; i++) {
		r.rounds[i].clock_hz = 3e9 + 1e8 * i;
		r.rounds[i].throughput = 10 + i;
	}
	ref = disturb_reference_of(&r, 1, 0);
	CHECK(NEAR(ref.clock_hz, 3.45e9, 1) && NEAR(ref.throughput, 18.1, 1e-9));
	bench_result_release(&r);
	/* A shared core against the run's highest throughput. */
	make_result(&r, 5, 1, ok);
	r.rounds[4].throughput = 11;
	CHECK(estimate_results(&r, 1, &disturb_default, &estimate_default) == 0 && r.rounds[4].disturbed == DISTURB_SHARED);
	bench_result_release(&r);
	/* Each result against its own rounds' usual level, not below 0.75 of
	 * the run's: one whose probe reads 0.8 of the others' throughout (as
	 * after crc32c-sse42 on Zen 3) loses only its shared round; one shared
	 * throughout (0.5) loses every round. */
	struct bench_result three[3];
	for (unsigned k = 0; k < 3; k++) {
		make_result(&three[k], 5, 2, ok);
		for (unsigned i = 0; i < 10; i++)
			three[k].rounds[i].throughput = k == 0 ? 20 : k == 1 ? 16 : 10;
	}
	three[1].rounds[6].throughput = 9;
	ref = disturb_reference_of(three, 3, 0);
	CHECK(NEAR(ref.throughput, 20, 1e-12));
	struct disturb_reference own = disturb_reference_for(&ref, &three[1]);
	CHECK(NEAR(own.throughput, 16, 1e-12) && own.clock_hz == ref.clock_hz);
	CHECK(NEAR(disturb_reference_for(&ref, &three[2]).throughput, 15, 1e-12));
	CHECK(estimate_results(three, 3, &disturb_default, &estimate_default) == 0);
	CHECK(three[0].rounds_disturbed == 0 && three[1].rounds_disturbed == 1 &&
	      three[1].rounds[6].disturbed == DISTURB_SHARED && three[2].rounds_disturbed == 10);
	for (unsigned k = 0; k < 3; k++)
		bench_result_release(&three[k]);
	/* A run shared throughout: every round of three results reads 0.68 of
	 * a free core (18 additions a cycle at 3 GHz, 54 a ns), so the upper
	 * decile of its own is no reference. Raised to the free core's floor,
	 * every round is shared-core and the run unstable; a result's own
	 * reference is never under the floor. Without the floor none is. */
	for (unsigned k = 0; k < 3; k++) {
		make_result(&three[k], 5, 2, ok);
		for (unsigned i = 0; i < 10; i++) {
			three[k].rounds[i].clock_hz = 3e9;
			three[k].rounds[i].throughput = 36.7 + (i % 3) * 0.1;
		}
	}
	ref = disturb_reference_of(three, 3, 0);
	CHECK(!disturb_reference_shared_throughout(&ref, &disturb_default) && NEAR(ref.throughput, 36.9, 1e-9) &&
	      ref.floor == 0);
	ref = disturb_reference_of(three, 3, 18);
	CHECK(disturb_reference_shared_throughout(&ref, &disturb_default) && NEAR(ref.floor, 54, 1e-9) &&
	      NEAR(ref.throughput, 54, 1e-9) && NEAR(ref.measured, 36.9, 1e-9));
	CHECK(NEAR(disturb_reference_for(&ref, &three[1]).throughput, 54, 1e-9));
	CHECK(estimate_results_against(three, 3, &ref, &disturb_default, &estimate_default) == 0);
	for (unsigned k = 0; k < 3; k++)
		CHECK(three[k].rounds_disturbed == 10 && three[k].rounds[0].disturbed == DISTURB_SHARED &&
		      (three[k].unstable & STABILITY_RUN_DISTURBED) && three[k].run_shared_throughout);
	/* A free core above the floor keeps its own reference, and a result
	 * whose probe reads 0.8 of the run's keeps its own only down to the
	 * floor: 57 a ns at best, one result 46, floor 54. */
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 10; i++)
			three[k].rounds[i].throughput = k == 2 ? 46 : 56 + (i % 2);
	three[0].rounds[4].throughput = 44;
	ref = disturb_reference_of(three, 3, 18);
	CHECK(!disturb_reference_shared_throughout(&ref, &disturb_default) && NEAR(ref.throughput, 57, 1e-9));
	CHECK(NEAR(disturb_reference_for(&ref, &three[2]).throughput, 54, 1e-9));
	CHECK(estimate_results_against(three, 3, &ref, &disturb_default, &estimate_default) == 0);
	CHECK(three[0].rounds_disturbed == 1 && three[0].rounds[4].disturbed == DISTURB_SHARED &&
	      three[1].rounds_disturbed == 0 && three[2].rounds_disturbed == 0 && !three[0].run_shared_throughout);
	/* A quiet host a little under the table's figure (17.4 a cycle, 52.2
	 * a ns, 3.3% short): raised to the floor, yet no round is marked, so
	 * the run is not called shared throughout, and the context says
	 * nothing; 45.8 a ns (15.3 a cycle, 15.2% short) is. */
	struct free_core zen5 = { 18, "Zen 5" };
	struct bench_context *ctx = calloc(1, sizeof(*ctx));
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 10; i++)
			three[k].rounds[i].throughput = 52.2;
	ref = disturb_reference_of(three, 3, 18);
	CHECK(NEAR(ref.throughput, 54, 1e-9) && NEAR(ref.measured, 52.2, 1e-9) &&
	      !disturb_reference_shared_throughout(&ref, &disturb_default));
	CHECK(estimate_results_against(three, 3, &ref, &disturb_default, &estimate_default) == 0);
	CHECK(three[0].rounds_disturbed == 0 && three[1].rounds_disturbed == 0 && three[2].rounds_disturbed == 0 &&
	      !(three[0].unstable & STABILITY_RUN_DISTURBED) && !three[2].run_shared_throughout);
	CHECK(ctx != NULL);
	if (ctx) {
		bench_context_note_reference(ctx, &ref, &zen5);
		/* The context keeps the run's own decile (compare reads it), not
		 * the floor it was raised to. */
		CHECK(ctx->nwarnings == 0 && ctx->free_core.adds_per_cycle == 18 &&
		      NEAR(ctx->reference_throughput, 52.2, 1e-9) && NEAR(ctx->reference_clock_hz, 3e9, 1));
		for (unsigned k = 0; k < 3; k++)
			for (unsigned i = 0; i < 10; i++)
				three[k].rounds[i].throughput = 45.8;
		ref = disturb_reference_of(three, 3, 18);
		CHECK(disturb_reference_shared_throughout(&ref, &disturb_default));
		bench_context_note_reference(ctx, &ref, &zen5);
		CHECK(ctx->nwarnings == 1 && strstr(ctx->warnings[0], "read at best 15.3 additions a cycle against a "
								      "free core's 18.0 (Zen 5): shared the whole run"));
	}
	free(ctx);
	for (unsigned k = 0; k < 3; k++)
		bench_result_release(&three[k]);
	/* Rounds that sleep on purpose (the ksmd timer) wake to a slower,
	 * narrower core: neither their clock nor their throughput is judged,
	 * nor taken into the run's reference. Their other figures still are. */
	struct bench_result pair[2];
	for (unsigned k = 0; k < 2; k++)
		make_result(&pair[k], 5, 2, ok);
	for (unsigned i = 0; i < 10; i++) {
		pair[1].rounds[i].slept_ns = 4e7;
		pair[1].rounds[i].throughput = 11;
		pair[1].rounds[i].clock_hz = 2.5e9;
	}
	pair[1].rounds[3].off_cpu_share = 0.5;
	ref = disturb_reference_of(pair, 2, 0);
	CHECK(NEAR(ref.throughput, 20, 1e-12) && NEAR(ref.clock_hz, 3e9, 1));
	CHECK(estimate_results(pair, 2, &disturb_default, &estimate_default) == 0);
	CHECK(pair[0].rounds_disturbed == 0 && pair[1].rounds_disturbed == 1 &&
	      pair[1].rounds[3].disturbed == DISTURB_OFF_CPU);
	CHECK(NEAR(ref.woken, 11, 1e-12) && !disturb_reference_woken_judged(&ref, &disturb_default));
	/* Where woken rounds read as the hot ones (Zen 5), a core shared
	 * then is told as one: their decile 19.5 is within 15% of 20, and
	 * each is judged against its own result's decile (19.55), the rounds
	 * at 10 shared-core; their clock, 2.5 GHz, still not judged. */
	for (unsigned i = 0; i < 10; i++)
		pair[1].rounds[i].throughput = i < 3 ? 10 : 19 + 0.1 * i;
	ref = disturb_reference_of(pair, 2, 0);
	CHECK(NEAR(ref.throughput, 20, 1e-12) && NEAR(ref.woken, 19.81, 1e-9) &&
	      disturb_reference_woken_judged(&ref, &disturb_default));
	own = disturb_reference_for(&ref, &pair[1]);
	CHECK(NEAR(own.throughput, 19.81, 1e-9) && disturb_reference_woken_judged(&own, &disturb_default));
	CHECK(estimate_results(pair, 2, &disturb_default, &estimate_default) == 0);
	CHECK(pair[0].rounds_disturbed == 0 && pair[1].rounds_disturbed == 4);
	for (unsigned i = 0; i < 10; i++)
		CHECK(pair[1].rounds[i].disturbed ==
		      ((i < 3 ? DISTURB_SHARED : 0u) | (i == 3 ? DISTURB_OFF_CPU : 0u)));
	/* Just under the threshold (16.9 against 0.85 x 20 = 17): not judged. */
	for (unsigned i = 0; i < 10; i++)
		pair[1].rounds[i].throughput = i < 3 ? 10 : 16.9;
	ref = disturb_reference_of(pair, 2, 0);
	CHECK(!disturb_reference_woken_judged(&ref, &disturb_default));
	/* 10% under (18): judged, by the throughput's 15%, not the clock's 5%. */
	for (unsigned i = 3; i < 10; i++)
		pair[1].rounds[i].throughput = 18;
	ref = disturb_reference_of(pair, 2, 0);
	CHECK(NEAR(ref.woken, 18, 1e-12) && disturb_reference_woken_judged(&ref, &disturb_default));
	/* A run shared from start to end on a CPU with a free core's figure:
	 * the hot rounds read 20 a ns at 3 GHz against a floor of 18 a cycle
	 * (54), the woken 19.5. Woken read as hot, so they are judged, and
	 * against the floor: every one shared-core, as the hot rounds are. */
	for (unsigned i = 0; i < 10; i++)
		pair[1].rounds[i].throughput = 19.5;
	ref = disturb_reference_of(pair, 2, 18);
	CHECK(disturb_reference_woken_judged(&ref, &disturb_default) && NEAR(ref.throughput, 54, 1e-9) &&
	      NEAR(ref.measured, 20, 1e-12));
	CHECK(estimate_results_against(pair, 2, &ref, &disturb_default, &estimate_default) == 0);
	CHECK(pair[0].rounds_disturbed == 10 && pair[1].rounds_disturbed == 10 &&
	      pair[1].unstable != 0 && pair[1].run_shared_throughout);
	for (unsigned i = 0; i < 10; i++)
		CHECK(pair[1].rounds[i].disturbed & DISTURB_SHARED);
	for (unsigned k = 0; k < 2; k++)
		bench_result_release(&pair[k]);

	/* rdtsc: a counter step above 1% of a call is "timer too coarse". */
	make_result(&r, 5, 1, ok);
	r.timer = BENCH_TIMER_RDTSC;
	r.counter.hz = 1e9;
	r.counter.step_ticks = 2;
	for (unsigned i = 0; i < 5; i++) {
		r.rounds[i].batch = 1;
		r.rounds[i].ticks_median = r.rounds[i].ns_per_page; /* 1 tick a ns */
	}
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.rdtsc.ticks_per_call_median == 100 &&
	      r.rdtsc.resolution_ticks == 2 && r.unstable == STABILITY_TIMER);
	for (unsigned i = 0; i < 5; i++)
		r.rounds[i].batch = 4;
	CHECK(estimate_result(&r, &estimate_default) == 0 && r.rdtsc.batch_calls == 4 && r.unstable == 0);
	bench_result_release(&r);

	/* ksmd: the step against a cycle's mean span (its first page, then up
	 * to four batches). 100 ns pages, a 2 ns step: 1 page a cycle is 2%
	 * (coarse); 101 pages make five spans of 2020 ns, 0.1%. */
	make_result(&r, 5, 1, ok);
	r.timer = BENCH_TIMER_KSMD;
	r.counter.hz = 1e9;
	r.counter.step_ticks = 2;
	r.ksmd.pages_to_scan = 1;
	CHECK(estimate_result(&r, &estimate_default) == 0 && NEAR(estimate_timer_share(&r), 0.02, 1e-9) &&
	      r.unstable == STABILITY_TIMER);
	r.ksmd.pages_to_scan = 101;
	CHECK(estimate_result(&r, &estimate_default) == 0 && NEAR(estimate_timer_share(&r), 2.0 / 2020, 1e-9) &&
	      r.unstable == 0);
	bench_result_release(&r);

	/* ksmd: the table's p10/p50/p90 are the rounds' medians taken alike.
	 * Two processes of one one-cycle round each, 1000 and 2000 ticks a
	 * page: p10 = p50 = p90 = 1500, where the headline (the median of the
	 * two rates, 1333 ns) fell below p10 ("1500/1333/1500"). */
	double cycles[] = { 1000, 2000 };
	make_result(&r, 2, 1, cycles);
	r.timer = BENCH_TIMER_KSMD;
	r.counter.hz = 1e9;
	r.counter.is_tsc = 1;
	r.ksmd.pages_to_scan = 100;
	for (unsigned i = 0; i < 2; i++)
		r.rounds[i].ticks_p10 = r.rounds[i].ticks_median = r.rounds[i].ticks_p90 = cycles[i];
	CHECK(estimate_result(&r, &estimate_default) == 0);
	CHECK(r.ns_per_page.median < 1400 && r.ksmd.ticks_per_page_p10 == 1500 &&
	      r.ksmd.ticks_per_page_median == 1500 && r.ksmd.ticks_per_page_p90 == 1500);
	bench_result_release(&r);
}

void test_estimate_ratio(void)
{
	struct bench_result a, b;
	struct stats_interval iv;
	/* b takes 3x a's time in every round: a is 3 times faster, exactly. */
	double na[] = { 100, 110, 90, 100, 120, 100, 95, 105, 100, 100 }, nb[10];

	for (int i = 0; i < 10; i++)
		nb[i] = 3 * na[i];
	make_result(&a, 5, 2, na);
	make_result(&b, 5, 2, nb);
	CHECK(estimate_ratio(&a, &b, &iv) == 0 && iv.n == 5 && NEAR(iv.median, 3, 1e-12) && NEAR(iv.low, 3, 1e-12) &&
	      NEAR(iv.high, 3, 1e-12));
	/* A disturbed round pairs with nothing; the rest still do. */
	b.rounds[0].disturbed = DISTURB_BUSY;
	b.rounds[0].ns_per_page = 1e6;
	CHECK(estimate_ratio(&a, &b, &iv) == 0 && iv.n == 5 && NEAR(iv.high, 3, 1e-12));
	/* Clean pairs in three processes of five (1 and 2 wholly disturbed):
	 * those alone count. */
	for (unsigned i = 2; i < 6; i++)
		b.rounds[i].disturbed = DISTURB_SHARED;
	CHECK(estimate_ratio(&a, &b, &iv) == 0 && iv.n == 3 && NEAR(iv.median, 3, 1e-12) && NEAR(iv.high, 3, 1e-12));
	/* In two (3 disturbed too): every pair counts, the disturbed ones
	 * too (process 0's ratios are then 1e4 and 3). */
	b.rounds[6].disturbed = b.rounds[7].disturbed = DISTURB_SHARED;
	CHECK(estimate_ratio(&a, &b, &iv) == 0 && iv.n == 5 && iv.high > 3);
	for (unsigned i = 2; i < 8; i++)
		b.rounds[i].disturbed = 0;
	/* Rounds of different processes never pair. */
	for (unsigned i = 0; i < b.repeats; i++)
		b.rounds[i].process += 10;
	CHECK(estimate_ratio(&a, &b, &iv) == -1 && iv.n == 0);
	bench_result_release(&a);
	bench_result_release(&b);
}

void test_estimate_schedule(void)
{
	unsigned o1[7], o2[7], o3[7], seen = 0;

	schedule_order(1, 0, 0, 0, o1, 7);
	schedule_order(1, 0, 0, 0, o2, 7);
	CHECK(memcmp(o1, o2, sizeof(o1)) == 0); /* reproducible */
	for (unsigned i = 0; i < 7; i++)
		seen |= 1u << o1[i];
	CHECK(seen == 0x7f); /* a permutation */
	int differs = 0;
	for (unsigned r = 1; r < 8; r++) {
		schedule_order(1, 0, r, 0, o3, 7);
		differs |= memcmp(o1, o3, sizeof(o1)) != 0;
	}
	CHECK(differs);
	schedule_order(2, 0, 0, 0, o3, 7);
	schedule_order(1, 1, 0, 0, o2, 7);
	/* Apart, so that one coordinate left out of the seed cannot hide behind the other. */
	CHECK(memcmp(o1, o3, sizeof(o1)) != 0); /* another seed */
	CHECK(memcmp(o1, o2, sizeof(o1)) != 0); /* another process */

	/* Every order can come first: a shuffle that never swaps two (the
	 * loop stopping at i > 2) or never leaves an element in place (j
	 * drawn below i - 1, Sattolo's cycles) misses some. Two: both orders
	 * in 32 rounds; three: all 6 in 64. */
	unsigned two_seen = 0, three_seen = 0;
	for (unsigned r = 0; r < 32; r++) {
		unsigned o[2];
		schedule_order(1, 0, r, 0, o, 2);
		two_seen |= 1u << o[0];
	}
	CHECK(two_seen == 3);
	for (unsigned r = 0; r < 64; r++) {
		unsigned o[3];
		schedule_order(1, 0, r, 0, o, 3);
		three_seen |= 1u << (o[0] * 3 + o[1]); /* the first two name the order */
	}
	CHECK(three_seen == (1u << 1 | 1u << 2 | 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7));
	/* The group (the run's next batch of steps held at once) is in the
	 * seed too: its rounds are not shuffled like the first group's. */
	int group_differs = 0;
	for (unsigned r = 0; r < 4; r++) {
		schedule_order(1, 0, r, 0, o2, 7);
		schedule_order(1, 0, r, 1, o3, 7);
		group_differs |= memcmp(o2, o3, sizeof(o2)) != 0;
	}
	CHECK(group_differs);
}

/* A run in this process: every measurement's round r before any round
 * r + 1, the slots of a round in the seeded order, the same order again. */
static void run_orders(uint64_t seed, unsigned orders[2][3][4])
{
	const struct hash_impl *hashes[] = { hash_find("xxh64"), hash_find("jhash2") };
	struct bench_step steps[2];
	struct bench_results out;
	struct kb_err err;

	for (int i = 0; i < 2; i++) {
		bench_config_default(&steps[i].cfg);
		steps[i].cfg.window_ns = 200000;
		steps[i].cfg.warmup_ns = 10000;
		steps[i].cfg.repeat = 3;
		steps[i].set = (struct page_set_request){ .data = i ? "random" : "zero", .page_size = 512, .seed = 1 };
	}
	struct bench_plan plan = { .steps = steps, .nsteps = 2, .hashes = hashes, .nhashes = 2, .processes = 2,
				   .seed = seed };
	CHECK(bench_run(&plan, NULL, NULL, &out, &err) == 0 && out.n == 4);
	for (size_t m = 0; m < out.n; m++) {
		CHECK(out.items[m].repeats == 6 && out.items[m].nprocesses == 2);
		for (unsigned i = 0; i < out.items[m].repeats; i++) {
			const struct bench_round *r = &out.items[m].rounds[i];
			/* Process p's round r of 4 measurements: sequence 4r .. 4r+3. */
			CHECK(r->sequence / 4 == r->round && r->process < 2);
			orders[r->process][r->round][r->sequence % 4] = (unsigned)m;
		}
	}
	bench_results_free(&out);
}

void test_estimate_interleaving(void)
{
	unsigned a[2][3][4], b[2][3][4];

	memset(a, 0xff, sizeof(a));
	run_orders(7, a);
	run_orders(7, b);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	/* Each round's slots are the seeded shuffle of the 4 measurements. */
	for (unsigned p = 0; p < 2; p++)
		for (unsigned r = 0; r < 3; r++) {
			unsigned order[4];
			schedule_order(7, p, r, 0, order, 4);
			CHECK(memcmp(order, a[p][r], sizeof(order)) == 0);
		}
}

/* A hash of some 200 ns a call (a few us under qemu-user) whose 50th call
 * is held up 100 ms, as a preemption in the warm-up holds it. */
#define PREEMPTED_AT 50u
static unsigned preempted_calls;

static uint64_t preempted_hash(const void *buf, size_t len)
{
	volatile uint64_t x = len;

	if (++preempted_calls == PREEMPTED_AT) {
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);
	}
	for (unsigned i = 0; i < 200; i++)
		x = x * 31 + ((const unsigned char *)buf)[i];
	return x;
}

/* The batches come from the warm-up's uninterrupted calls: with its
 * elapsed time over its calls, the 100 ms stop in a 20 ms warm-up made
 * them 2 ms a call, and every batch one call (a clock read each). */
void test_estimate_warmup_batches(void)
{
	static const struct hash_impl slow = { .name = "preempted", .family = "test", .bits = 64,
					       .provenance = "test", .len_multiple = 1, .fn = preempted_hash };
	struct bench_config cfg;
	struct page_content c;
	struct page_set set;
	struct kb_err err;

	CHECK(page_content_zero(&c, 4096, &err) == 0 && page_set_hot(&set, &c, 0, &err) == 0);
	bench_config_default(&cfg);
	cfg.window_ns = 2000000;
	cfg.warmup_ns = 20000000;
	preempted_calls = 0;
	struct bench_session *s = bench_session_open(&slow, &set, &cfg, &err);
	CHECK(s != NULL);
	if (s) {
		bench_session_warm(s);
		/* The warm-up ends at the held-up call (unless the machine
		 * itself held up an earlier one past the 20 ms). */
		CHECK(preempted_calls < PREEMPTED_AT ||
		      (preempted_calls == PREEMPTED_AT && s->call_ns < 1e6 && s->batch > 1));
		bench_session_close(s);
	}
	page_set_release(&set);
	page_content_release(&c);
}

void test_estimate_rdtsc_batch(void)
{
	const struct hash_impl *h = hash_find("xxh64");
	struct bench_config cfg;
	struct bench_result r;
	struct page_content c;
	struct page_set s;
	struct kb_err err;

	CHECK(bench_rdtsc_batch(1, 100) == 1 && bench_rdtsc_batch(26, 5200) == 1 && bench_rdtsc_batch(26, 2600) == 2);
	CHECK(bench_rdtsc_batch(26, 1000) == 6); /* 26 / (0.5% of 1000) = 5.2 */
	CHECK(bench_rdtsc_batch(26, 0.001) == BENCH_RDTSC_BATCH_MAX);

	/* A counter that advances in steps of 20000 ticks: the calls (a few
	 * hundred ticks each) are timed in batches and say so. */
	CHECK(page_content_zero(&c, 4096, &err) == 0 && page_set_hot(&s, &c, 0, &err) == 0);
	bench_config_default(&cfg);
	cfg.timer = BENCH_TIMER_RDTSC;
	cfg.window_ns = 3000000;
	cfg.warmup_ns = 1000000;
	cfg.repeat = 2;
	counter_info_simulate_step(20000);
	CHECK(bench_measure(h, &s, &cfg, &r, &err) == 0);
	CHECK(r.counter.step_ticks == 20000 && r.rdtsc.batch_calls > 1 && r.rounds[0].batch == r.rdtsc.batch_calls);
	CHECK(NEAR(r.rdtsc.resolution_ticks, 20000.0 / (double)r.rdtsc.batch_calls, 1e-9 * r.rdtsc.resolution_ticks));
	CHECK(r.rounds[0].calls % r.rdtsc.batch_calls == 0 && r.rdtsc.ticks_per_call_median > 0);
	bench_result_release(&r);
	counter_info_simulate_step(0);
	CHECK(counter_info()->simulated_step == 0 && counter_info()->step_ticks >= 1 &&
	      counter_info()->step_ticks < 20000);
	/* Once calibrated, the identity is the calibration; it names the same
	 * counter either way. */
	CHECK(counter_identity() == counter_info() && counter_identity()->unit);
	page_set_release(&s);
	page_content_release(&c);

	uint64_t d[] = { 52, 78, 0, 104, 26 };
	CHECK(counter_step_of(d, 5) == 26 && counter_step_of(d + 2, 1) == 0);

	/* The per-call percentiles are taken as the headline is, over
	 * processes: pooled, process 0's five rounds at 1000 ticks made p10
	 * 1000 while the median over the processes (1000, 100, 200) is 200. */
	static const double ticks[] = { 1000, 1000, 1000, 1000, 1000, 100, 200 };
	static const unsigned proc[] = { 0, 0, 0, 0, 0, 1, 2 };
	memset(&r, 0, sizeof(r));
	r.hash = r.impl = "xxh64";
	r.page_size = 4096;
	r.timer = BENCH_TIMER_RDTSC;
	r.counter.hz = 1e9;
	r.counter.step_ticks = 1;
	r.repeats_requested = 5;
	for (unsigned i = 0; i < 7; i++) {
		struct bench_round x = quiet_round(proc[i], i, ticks[i]);
		x.ticks_p10 = ticks[i] * 0.9;
		x.ticks_median = ticks[i];
		x.ticks_p90 = ticks[i] * 1.1;
		x.ticks_mean = ticks[i];
		x.batch = 1;
		CHECK(bench_result_add_round(&r, &x) == 0);
	}
	CHECK(estimate_result(&r, &estimate_default) == 0);
	CHECK(r.ns_per_page.median == 200 && r.rdtsc.ticks_per_call_median == 200);
	CHECK(NEAR(r.rdtsc.ticks_per_call_p10, 180, 1e-9) && NEAR(r.rdtsc.ticks_per_call_p90, 220, 1e-9));
	bench_result_release(&r);
}

void test_estimate_wire(void)
{
	struct bench_round r = quiet_round(3, 2, 123.456789012345678), got;
	struct wire_msg msg;
	struct kb_err err;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	r.sequence = 17;
	r.ticks_median = 321.5;
	r.batch = 4;
	r.other_busy_share = 0.25;
	r.involuntary_switches = 7;
	r.throughput = 21.5;
	r.interrupted_pages = 24;
	r.uninterrupted_ns_per_page = 119.25;
	r.fence_ns = 6.75;
	CHECK(out && wire_write_round(out, 5, &r) == 0);
	fclose(out);
	text[strcspn(text, "\n")] = '\0';
	CHECK(wire_parse(text, 6, 1, &msg, &err) == 0 && msg.kind == WIRE_ROUND && msg.m == 5);
	got = msg.r;
	CHECK(got.process == 3 && got.round == 2 && got.sequence == 17 && got.ns_per_page == r.ns_per_page &&
	      got.ticks_median == 321.5 && got.batch == 4 && got.other_busy_share == 0.25 &&
	      got.involuntary_switches == 7 && got.known == r.known && got.clock_hz == 3e9 && got.throughput == 21.5 &&
	      got.interrupted_pages == 24 && got.uninterrupted_ns_per_page == 119.25 &&
	      got.fence_ns == 6.75);
	CHECK(wire_parse(text, 5, 1, &msg, &err) == -1); /* measurement 5 of 5 */
	free(text);
	CHECK(wire_parse("ksmbench-worker 1 4 0", 4, 1, &msg, &err) == 0 && msg.measurements == 4);
	CHECK(wire_parse("ksmbench-worker 2 4 0", 4, 1, &msg, &err) == -1);
	CHECK(wire_parse("set 1 1 4096", 4, 1, &msg, &err) == 0 && msg.working_set_bytes == 4096);
	CHECK(wire_parse("note 0", 4, 1, &msg, &err) == 0 && wire_parse("note 1", 4, 1, &msg, &err) == -1);
	CHECK(wire_parse("progress 3 1 2 4 4", 4, 1, &msg, &err) == 0 && msg.slot == 4);
	CHECK(wire_parse("end 15", 4, 1, &msg, &err) == 0 && msg.signo == 15);
	const char *bad[] = { "", "garbage", "end", "end -1", "end 15 x", "set 1 1", "set x 1 1",
			      "round 0 0 0 0 nan 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 -5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 0 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 2 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 256 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 -1 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 -1 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 -1 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			      "round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(wire_parse(bad[i], 4, 1, &msg, &err) == -1);
	CHECK(wire_parse("round 0 0 0 0 5 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", 4, 1, &msg, &err) == 0);
	/* 0 ns a page (a round the timer could not resolve) is kept, as in one process. */
	CHECK(wire_parse("round 0 0 0 0 0 1 1 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", 4, 1, &msg, &err) == 0 &&
	      msg.r.ns_per_page == 0);
}

#if defined(__x86_64__)
#include <cpuid.h>

/* Whether XGETBV(1), the state components in use, is there to read, with
 * AVX to set the upper halves. */
static int ymm_in_use_readable(void)
{
	unsigned a, b, c, d;

	if (!(cpu_features_detected() & CPU_AVX) || !__get_cpuid_count(0xd, 1, &a, &b, &c, &d))
		return 0;
	return (a >> 2) & 1;
}

/* Bit 2 of XINUSE: the upper halves of the ymm registers hold non-zero state. */
static int ymm_in_use(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
	return (lo >> 2) & 1;
}
#else
static int ymm_in_use_readable(void)
{
	return 0;
}

static int ymm_in_use(void)
{
	return 0;
}
#endif

void test_estimate_probes(void)
{
	static const char stat[] = "cpu  10 0 10 100 0 0 0 0 0 0\n"
				   "cpu0 100 0 50 800 50 0 0 0 0 0\n"
				   "cpu1 10 0 10 70 0 5 5 30 0 0\n"
				   "cpu2 1 2 3 4\n"
				   "intr 1 2 3\n";
	struct interference_mark m;
	uint64_t migrations;

	CHECK(interference_parse_stat(stat, 1, &m) == 0);
	CHECK(m.own_total == 130 && m.own_steal == 30 && m.others == 2);
	CHECK(m.others_total == 1000 + 10 && m.others_idle == 850 + 4);
	CHECK(interference_parse_stat(stat, 7, &m) == -1);
	CHECK(interference_parse_sched("x\nse.nr_migrations   :   12\nnr_switches : 3\n", &migrations) == 0 &&
	      migrations == 12);
	CHECK(interference_parse_sched("nr_switches : 3\n", &migrations) == -1);

	/* Made-up marks: /proc/stat's 10 ms ticks say a share only over two
	 * of them (1 tick is no share: steal 0 or 100%); the clock is the mean
	 * of the round's two edges; the throughput the lower edge's (a core
	 * shared at either edge was likely shared inside). */
	struct interference_probe none = { .cpu = -1, .stat_fd = -1, .sched_fd = -1, .fd_cycles = -1,
					   .fd_instructions = -1, .fd_migrations = -1 };
	struct interference_mark ma = { .stat_ok = 1, .own_total = 100, .involuntary = -1 }, mb = ma;
	struct bench_round fr;
	mb.own_total = 101;
	mb.own_steal = 1;
	memset(&fr, 0, sizeof(fr));
	interference_measure(&none, &ma, &mb, &fr);
	CHECK(!(fr.known & INTERFERENCE_STEAL));
	mb.own_total = 102;
	interference_measure(&none, &ma, &mb, &fr);
	CHECK((fr.known & INTERFERENCE_STEAL) && fr.steal_share == 0.5);
	ma.throughput = 40;
	mb.throughput = 20;
	ma.clock_hz = 3.0e9;
	mb.clock_hz = 3.2e9;
	interference_measure(&none, &ma, &mb, &fr);
	CHECK((fr.known & INTERFERENCE_THROUGHPUT) && fr.throughput == 20);
	CHECK((fr.known & INTERFERENCE_CLOCK) && NEAR(fr.clock_hz, 3.1e9, 1));

	/* Two marks of this process: the figures are known and in range. */
	struct interference_probe p;
	struct interference_mark a, b;
	struct bench_round r;
	interference_open(&p);
	interference_mark(&p, &a, 1, 0);
	uint64_t until = clock_now_ns() + 30000000;
	while (clock_now_ns() < until)
		;
	interference_mark(&p, &b, 1, 1);
	memset(&r, 0, sizeof(r));
	interference_measure(&p, &a, &b, &r);
	CHECK((r.known & INTERFERENCE_CLOCK) && r.clock_hz > 1e6);
	CHECK((r.known & INTERFERENCE_THROUGHPUT) && r.throughput > 0.1);
	CHECK((r.known & INTERFERENCE_OFF_CPU) && r.off_cpu_share >= 0 && r.off_cpu_share <= 1);
	CHECK(!(r.known & INTERFERENCE_BUSY) || (r.other_busy_share >= 0 && r.other_busy_share <= 1));
	CHECK(r.known & INTERFERENCE_MIGRATIONS);

	/* The probes start on clean upper halves whatever ran before: ISA-L
	 * returns with them dirty, and SSE2 adds then ran at half speed on Zen 4,
	 * which read as a shared core. XINUSE says whether they are in use. */
	if (ymm_in_use_readable()) {
		__asm__ volatile("vpcmpeqd %%ymm15, %%ymm15, %%ymm15" ::: "xmm15");
		CHECK(ymm_in_use());
		interference_mark(&p, &b, 1, 1);
		CHECK(!ymm_in_use());
	}
	interference_close(&p);
}

void test_estimate_names(void)
{
	/* xxhash is the kernel's: xxh64 on 64-bit builds, xxh32 on 32-bit ones. */
	const struct hash_impl *target = hash_resolve(hash_find("xxhash"));
	const struct hash_impl *h[] = { hash_find("xxhash"), hash_find("jhash2"), target };
	struct bench_names names[3];

	CHECK(bench_names_group(h, 3, names, 0) == 2);
	/* The implementation names the group it shares with its alias, at the alias's place. */
	CHECK(h[0] == target && strcmp(names[0].hash, target->name) == 0 && names[0].naliases == 1 &&
	      strcmp(names[0].aliases[0], "xxhash") == 0);
	CHECK(h[1] == hash_find("jhash2") && names[1].naliases == 0);
	const struct hash_impl *one[] = { hash_find("xxhash") };
	CHECK(bench_names_group(one, 1, names, 0) == 1 && strcmp(names[0].hash, "xxhash") == 0 &&
	      names[0].naliases == 0);
}

/* The free core's table: looked up for the CPU that runs the probe, never
 * a simulated one; the variable overrides it and 0 turns it off. */
void test_estimate_free_core(void)
{
	struct cpu_identity zen5 = { "AuthenticAMD", 26, 2, 0 }, zen5c = { "AuthenticAMD", 26, 0x44, 0 },
			    intel = { "GenuineIntel", 26, 2, 0 };
	struct kb_err err;
	double v = -1;
#if defined(__x86_64__)
	CHECK(free_core_of(&zen5).adds_per_cycle == 18.0 && strstr(free_core_of(&zen5).source, "Zen 5"));
	/* The row's models, both ends in. */
	struct cpu_identity first = { "AuthenticAMD", 26, 0, 0 }, last = { "AuthenticAMD", 26, 0x0f, 0 },
			    past = { "AuthenticAMD", 26, 0x10, 0 };
	CHECK(free_core_of(&first).adds_per_cycle == 18.0 && free_core_of(&last).adds_per_cycle == 18.0 &&
	      free_core_of(&past).adds_per_cycle == 0);
#else
	CHECK(free_core_of(&zen5).adds_per_cycle == 0); /* another probe: no figures */
#endif
	CHECK(free_core_of(&zen5c).adds_per_cycle == 0 && !free_core_of(&zen5c).source);
	CHECK(free_core_of(&intel).adds_per_cycle == 0);

	unsetenv("KSMBENCH_FREE_CORE");
	struct free_core real = free_core_figure();
	CHECK(cpu_identity_simulate(real.adds_per_cycle > 0 ? "GenuineIntel:6:1" : "AuthenticAMD:26:2", &err) == 0);
	CHECK(free_core_figure().adds_per_cycle == real.adds_per_cycle);
	cpu_identity_real();
	setenv("KSMBENCH_FREE_CORE", "42.5", 1);
	CHECK(free_core_figure().adds_per_cycle == 42.5 && strcmp(free_core_figure().source, "KSMBENCH_FREE_CORE") == 0);
	setenv("KSMBENCH_FREE_CORE", "", 1); /* set empty: as if unset (main accepts it) */
	CHECK(free_core_figure().adds_per_cycle == real.adds_per_cycle && free_core_figure().source == real.source);
	setenv("KSMBENCH_FREE_CORE", "0", 1);
	CHECK(free_core_figure().adds_per_cycle == 0 && !free_core_figure().source);
	unsetenv("KSMBENCH_FREE_CORE");

	CHECK(free_core_parse("18.6", &v, &err) == 0 && NEAR(v, 18.6, 1e-12));
	CHECK(free_core_parse("0", &v, &err) == 0 && v == 0);
	const char *bad[] = { "", "-1", "1001", "0x10", " 5", "nan", "inf", "5x", "1e-400" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(free_core_parse(bad[i], &v, &err) == -1 && strstr(err.msg, "KSMBENCH_FREE_CORE"));
}
