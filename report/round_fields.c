/* The fields of what a result keeps of its processes and rounds (schema
 * ksmbench-results/2): every round as measured, with its interference and
 * whether it was disturbed; each process's value; and the thresholds and
 * rules that judged them, which a document carries in its context. */
#include "round_fields.h"

#include "../bench/disturb.h"
#include "../bench/estimate.h"
#include "../bench/interference.h"
#include "../bench/jiffies.h"

#define RES(row) ((const struct bench_result *)(row)->item)
#define UPRES(row) ((const struct bench_result *)(row)->up->item)
#define RND(row) ((const struct bench_round *)(row)->item)
#define PV(row) ((const struct bench_process_value *)(row)->item)

/* Row classes of a round: its result's timer. */
enum { WINDOW = 1, JIFFIES = 2, RDTSC = 4, KSMD = 8 };

static unsigned round_class(const struct record_row *row)
{
	enum bench_timer t = UPRES(row)->timer;

	return t == BENCH_TIMER_JIFFIES ? JIFFIES : t == BENCH_TIMER_RDTSC ? RDTSC : t == BENCH_TIMER_KSMD ? KSMD : WINDOW;
}

static int known(const struct record_row *w, unsigned bit)
{
	return (RND(w)->known & bit) != 0;
}

static size_t n_disturbed_by(const struct record_row *w)
{
	return record_bits_count(RND(w)->disturbed, DISTURB_KINDS);
}

/* The index-th kind of disturbance the round had. */
static int g_disturbed_by(const struct record_row *w, struct record_value *v)
{
	int i = record_bits_at(RND(w)->disturbed, DISTURB_KINDS, w->index);

	return i >= 0 && record_str(v, disturb_name((unsigned)i));
}

static double per_call_ns(const struct record_row *w, double ticks)
{
	return bench_ticks_ns(&UPRES(w)->counter, ticks);
}

RECORD_GETTER(r_first, record_real(v, per_call_ns(w, RND(w)->first_ticks)))
RECORD_GETTER(r_slept, record_real(v, RND(w)->slept_ns))
RECORD_GETTER(r_interrupted, record_uint(v, RND(w)->interrupted_pages))
RECORD_GETTER(r_process, record_uint(v, RND(w)->process))
RECORD_GETTER(r_round, record_uint(v, RND(w)->round))
RECORD_GETTER(r_sequence, record_uint(v, RND(w)->sequence))
RECORD_GETTER(r_disturbed, record_bool(v, RND(w)->disturbed != 0))
RECORD_GETTER(r_ns, record_real(v, RND(w)->ns_per_page))
RECORD_GETTER(r_bps, record_real(v, bench_bytes_per_s(UPRES(w)->page_size, RND(w)->ns_per_page)))
RECORD_GETTER(r_unint, RND(w)->uninterrupted_ns_per_page > 0 && record_real(v, RND(w)->uninterrupted_ns_per_page))
RECORD_GETTER(r_interrupted_share, bench_round_interrupted_share(RND(w)) >= 0 &&
					   record_real(v, bench_round_interrupted_share(RND(w))))

RECORD_GETTER(r_calls, record_uint(v, RND(w)->calls))
RECORD_GETTER(r_elapsed, record_real(v, RND(w)->elapsed_ns))
RECORD_GETTER(r_busy, known(w, INTERFERENCE_BUSY) && record_real(v, RND(w)->other_busy_share))
RECORD_GETTER(r_steal, known(w, INTERFERENCE_STEAL) && record_real(v, RND(w)->steal_share))
RECORD_GETTER(r_off, known(w, INTERFERENCE_OFF_CPU) && record_real(v, RND(w)->off_cpu_share))
RECORD_GETTER(r_switches, known(w, INTERFERENCE_SWITCHES) && record_uint(v, RND(w)->involuntary_switches))
RECORD_GETTER(r_migrations, known(w, INTERFERENCE_MIGRATIONS) && record_uint(v, RND(w)->migrations))
RECORD_GETTER(r_clock, known(w, INTERFERENCE_CLOCK) && record_real(v, RND(w)->clock_hz))
RECORD_GETTER(r_throughput, known(w, INTERFERENCE_THROUGHPUT) && record_real(v, RND(w)->throughput))
RECORD_GETTER(r_cycles, known(w, INTERFERENCE_PMU) && record_real(v, RND(w)->core_cycles))
RECORD_GETTER(r_instr, known(w, INTERFERENCE_PMU) && record_real(v, RND(w)->instructions))
RECORD_GETTER(r_cpp, known(w, INTERFERENCE_PMU) && RND(w)->calls &&
			     record_real(v, RND(w)->core_cycles / (double)RND(w)->calls))
RECORD_GETTER(r_ipc, known(w, INTERFERENCE_PMU) && RND(w)->core_cycles > 0 &&
			     record_real(v, RND(w)->instructions / RND(w)->core_cycles))
RECORD_GETTER(r_kmb, record_int(v, jiffies_kernel_mb_per_s(RND(w)->calls, UPRES(w)->page_size)))
RECORD_GETTER(r_bias, RND(w)->elapsed_ns > 0 &&
			      record_real(v, jiffies_bias_percent(RND(w)->calls, UPRES(w)->page_size,
								  (uint64_t)RND(w)->elapsed_ns)))
RECORD_GETTER(r_p10, record_real(v, per_call_ns(w, RND(w)->ticks_p10)))
RECORD_GETTER(r_p50, record_real(v, per_call_ns(w, RND(w)->ticks_median)))
RECORD_GETTER(r_p90, record_real(v, per_call_ns(w, RND(w)->ticks_p90)))
RECORD_GETTER(r_mean, record_real(v, per_call_ns(w, RND(w)->ticks_mean)))
RECORD_GETTER(r_batch, record_uint(v, RND(w)->batch))

const struct record_range report_rate_range = { 0, 1e15, 0 }, report_positive_rate_range = { 1, 1e15, 0 },
			  report_clock_range = { 1e6, 1e12, 0 }, report_adds_range = { 0, 1e6, 0 };
/* A share of time (0 to 1), checked as the ranges above are. */
static const struct record_range share_range = { 0, 1, 0 };

static const struct record_field round_fields[] = {
	{ .name = "process", .type = RECORD_UINT, .get = r_process },
	{ .name = "round", .type = RECORD_UINT, .get = r_round },
	{ .name = "sequence", .type = RECORD_UINT, .get = r_sequence },
	{ .name = "disturbed", .type = RECORD_BOOL, .get = r_disturbed },
	{ .name = "disturbed_by", .type = RECORD_STR, .get = g_disturbed_by, .count = n_disturbed_by },
	{ .name = "ns_per_page", .type = RECORD_REAL, .get = r_ns },
	{ .name = "bytes_per_second", .type = RECORD_REAL, .get = r_bps, .range = &report_rate_range },
	{ .name = "uninterrupted_ns_per_page", .type = RECORD_REAL, .applies = WINDOW | JIFFIES, .get = r_unint },
	{ .name = "interrupted_share", .type = RECORD_REAL, .applies = WINDOW | JIFFIES, .format = "%.4f",
	  .get = r_interrupted_share },
	{ .name = "calls", .type = RECORD_UINT, .get = r_calls },
	{ .name = "elapsed_ns", .type = RECORD_REAL, .get = r_elapsed },
	{ .name = "other_cpus_busy_share", .type = RECORD_REAL, .get = r_busy, .range = &share_range },
	{ .name = "steal_share", .type = RECORD_REAL, .get = r_steal },
	{ .name = "off_cpu_share", .type = RECORD_REAL, .get = r_off },
	{ .name = "involuntary_context_switches", .type = RECORD_UINT, .get = r_switches },
	{ .name = "migrations", .type = RECORD_UINT, .get = r_migrations },
	{ .name = "effective_clock_hz", .type = RECORD_REAL, .get = r_clock, .range = &report_clock_range },
	{ .name = "core_throughput_adds_per_ns", .type = RECORD_REAL, .get = r_throughput,
	  .range = &report_adds_range },
	{ .name = "core_cycles", .type = RECORD_REAL, .get = r_cycles },
	{ .name = "instructions", .type = RECORD_REAL, .get = r_instr },
	{ .name = "core_cycles_per_page", .type = RECORD_REAL, .get = r_cpp },
	{ .name = "ipc", .type = RECORD_REAL, .get = r_ipc },
	{ .name = "kernel_mb_per_s", .type = RECORD_INT, .applies = JIFFIES, .get = r_kmb },
	{ .name = "bias_percent", .type = RECORD_REAL, .applies = JIFFIES, .get = r_bias },
	{ .name = "ns_per_call_p10", .type = RECORD_REAL, .applies = RDTSC, .get = r_p10 },
	{ .name = "ns_per_call_median", .type = RECORD_REAL, .applies = RDTSC, .get = r_p50 },
	{ .name = "ns_per_call_p90", .type = RECORD_REAL, .applies = RDTSC, .get = r_p90 },
	{ .name = "ns_per_call_mean", .type = RECORD_REAL, .applies = RDTSC, .get = r_mean },
	{ .name = "batch_calls", .type = RECORD_UINT, .applies = RDTSC, .get = r_batch },
	{ .name = "first_page_ns", .type = RECORD_REAL, .applies = KSMD, .format = "%.1f", .get = r_first },
	{ .name = "slept_ns", .type = RECORD_REAL, .applies = KSMD, .format = "%.0f", .get = r_slept },
	{ .name = "interrupted_pages", .type = RECORD_UINT, .applies = KSMD, .get = r_interrupted },
};

const struct record_schema report_round_schema = { NULL, RECORD_FIELDS(round_fields), round_class, 0 };

RECORD_GETTER(p_process, record_uint(v, PV(w)->process))
RECORD_GETTER(p_rounds, record_uint(v, PV(w)->rounds))
RECORD_GETTER(p_disturbed, record_uint(v, PV(w)->disturbed))
RECORD_GETTER(p_ns, PV(w)->ns_per_page > 0 && record_real(v, PV(w)->ns_per_page))
RECORD_GETTER(p_bps, PV(w)->ns_per_page > 0 &&
			     record_real(v, bench_bytes_per_s(UPRES(w)->page_size, PV(w)->ns_per_page)))

static const struct record_field process_fields[] = {
	{ .name = "process", .type = RECORD_UINT, .get = p_process },
	{ .name = "rounds", .type = RECORD_UINT, .get = p_rounds },
	{ .name = "rounds_disturbed", .type = RECORD_UINT, .get = p_disturbed },
	{ .name = "ns_per_page_median", .type = RECORD_REAL, .get = p_ns },
	{ .name = "bytes_per_second_median", .type = RECORD_REAL, .get = p_bps },
};

const struct record_schema report_process_schema = { NULL, RECORD_FIELDS(process_fields), NULL, 0 };

#define DT(row) ((const struct disturb_thresholds *)(row)->item)
RECORD_GETTER(t_busy, record_real(v, DT(w)->busy_share))
RECORD_GETTER(t_steal, record_real(v, DT(w)->steal_share))
RECORD_GETTER(t_off, record_real(v, DT(w)->off_cpu_share))
RECORD_GETTER(t_switches, record_uint(v, DT(w)->switches))
RECORD_GETTER(t_migrations, record_uint(v, DT(w)->migrations))
RECORD_GETTER(t_clock, record_real(v, DT(w)->clock_drop))
RECORD_GETTER(t_throughput, record_real(v, DT(w)->throughput_drop))

/* A round is disturbed when a figure is above its threshold (the clock: below). */
static const struct record_field threshold_fields[] = {
	{ .name = "other_cpus_busy_share", .type = RECORD_REAL, .get = t_busy },
	{ .name = "steal_share", .type = RECORD_REAL, .get = t_steal },
	{ .name = "off_cpu_share", .type = RECORD_REAL, .get = t_off },
	{ .name = "involuntary_context_switches", .type = RECORD_UINT, .get = t_switches },
	{ .name = "migrations", .type = RECORD_UINT, .get = t_migrations },
	{ .name = "clock_drop_share", .type = RECORD_REAL, .get = t_clock },
	{ .name = "throughput_drop_share", .type = RECORD_REAL, .get = t_throughput },
};

const struct record_schema report_thresholds_schema = { NULL, RECORD_FIELDS(threshold_fields), NULL, 0 };

#define ER(row) ((const struct estimate_rules *)(row)->item)
RECORD_GETTER(s_min, record_uint(v, ER(w)->processes_min))
RECORD_GETTER(s_spread, record_real(v, ER(w)->spread_percent_max))
RECORD_GETTER(s_disturbed, record_real(v, ER(w)->disturbed_share_max))
RECORD_GETTER(s_timer, record_real(v, ER(w)->timer_share_max))
RECORD_GETTER(s_run, record_real(v, ER(w)->run_disturbed_share_max))

static const struct record_field rule_fields[] = {
	{ .name = "processes_min", .type = RECORD_UINT, .get = s_min },
	{ .name = "spread_percent_max", .type = RECORD_REAL, .get = s_spread },
	{ .name = "disturbed_share_max", .type = RECORD_REAL, .get = s_disturbed },
	{ .name = "timer_share_max", .type = RECORD_REAL, .get = s_timer },
	{ .name = "run_disturbed_share_max", .type = RECORD_REAL, .get = s_run },
};

const struct record_schema report_rules_schema = { NULL, RECORD_FIELDS(rule_fields), NULL, 0 };
