/* Stability in words (see stability_text.h), and the names results are
 * known by across runs (report_stable_data). */
#include "stability_text.h"

#include <string.h>

#include "../bench/disturb.h"
#include "../bench/estimate.h"
#include "../common/plural.h"
#include "escape.h"
#include "report.h"
#include "text_wrap.h"

const char *report_stable_data(const char *data)
{
	if (strncmp(data, "file:", 5) == 0) {
		const char *slash = strrchr(data, '/');
		return slash ? slash + 1 : data + 5;
	}
	return data;
}

static const char *const codes[STABILITY_KINDS] = { "few-processes", "spread", "disturbed", "timer", "run-disturbed" };

const char *report_stability_code(unsigned i)
{
	return i < STABILITY_KINDS ? codes[i] : "?";
}

unsigned report_shared_from_outside(const struct bench_result *r)
{
	unsigned n = 0;

	for (unsigned i = 0; r->rounds && i < r->repeats; i++)
		n += (unsigned)disturb_shared_from_outside(&r->rounds[i]);
	return n;
}

/* "busy 12, clock 1": the kinds of disturbance over r's rounds, and where
 * a shared core came from when this machine's other CPUs were not busy. */
static void disturbance_kinds(const struct bench_result *r, char *buf, size_t size)
{
	size_t used = 0;
	unsigned outside = report_shared_from_outside(r);

	buf[0] = '\0';
	for (unsigned k = 0; k < DISTURB_KINDS; k++) {
		unsigned count = 0;
		for (unsigned i = 0; i < r->repeats; i++)
			count += (r->rounds[i].disturbed >> k) & 1;
		if (count && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s %u", used ? ", " : "", disturb_name(k), count);
	}
	if (outside && used < size)
		snprintf(buf + used, size - used, "; shared-core with this machine's other CPUs idle in %u: shared "
						  "from outside it (a VM's host)", outside);
}

/* The reasons among bits (a subset of r->unstable) in words. */
static void reasons_of(const struct bench_result *r, unsigned bits, char *buf, size_t size)
{
	const struct estimate_rules *rules = &estimate_default;
	size_t used = 0;
	char kinds[256];

	buf[0] = '\0';
#define ADD(...) (used < size ? used += (size_t)snprintf(buf + used, size - used, __VA_ARGS__) : 0)
	if (bits & STABILITY_FEW_PROCESSES)
		ADD("%s%u process%s with undisturbed rounds (at least %u)", used ? "; " : "", r->processes_used,
		    kb_es(r->processes_used), rules->processes_min);
	if (bits & STABILITY_SPREAD)
		ADD("%sspread over processes %.1f%% (more than %.0f%%)", used ? "; " : "", r->over_processes.spread * 100,
		    rules->spread_percent_max);
	if (bits & STABILITY_DISTURBED) {
		disturbance_kinds(r, kinds, sizeof(kinds));
		ADD("%s%u of %u rounds disturbed (%s)", used ? "; " : "", r->rounds_disturbed, r->repeats, kinds);
	}
	if (bits & STABILITY_RUN_DISTURBED) {
		/* Under the free core's floor the sharing did not come and go:
		 * the run's best rounds were shared too (bench/disturb.h). */
		ADD("%s%u of the run's %u rounds disturbed (more than %.0f%%: %s", used ? "; " : "",
		    r->run_rounds_disturbed, r->run_rounds, 100 * rules->run_disturbed_share_max,
		    r->run_shared_throughout ? "its core was shared the whole run, its best rounds under a free core's "
					       "throughput"
					     : "sharing that comes and goes, which a round's edges do not all see");
		/* Where it came from, as a result's own disturbed rounds say it:
		 * a run unstable on an idle machine is the host's doing. */
		if (r->run_rounds_outside)
			ADD("; shared-core with this machine's other CPUs idle in %u: shared from outside it (a VM's host)",
			    r->run_rounds_outside);
		ADD(")");
	}
	if (bits & STABILITY_TIMER)
		ADD("%stimer too coarse: its step is %.1f%% of a %s", used ? "; " : "", 100 * estimate_timer_share(r),
		    r->timer == BENCH_TIMER_KSMD ? "timed span" : "call");
#undef ADD
}

void report_stability_reasons(const struct bench_result *r, char *buf, size_t size)
{
	reasons_of(r, r->unstable, buf, size);
}

/* The thread's tables name a result by the implementation that ran ("xxh3-avx512" for
 * "xxh3"), bench's by the name asked for: a warning names it as its table does. */
static const char *result_name(const struct bench_result *r, int by_impl)
{
	return by_impl && r->impl ? r->impl : r->hash;
}

/* A result's dataset as the warnings name it: a file name is foreign, so
 * it is escaped (a name could clear a terminal or start a Markdown
 * heading), as the table's cells are. */
static const char *data_shown(const struct bench_result *r, enum escape_target esc, char *buf, size_t size)
{
	return escape_str(report_stable_data(r->data), esc, buf, size);
}

/* "unstable: xxh3 random hot 4096 window: <reasons among bits>"; by_impl
 * names the result by the implementation that ran, as the thread's tables
 * do; the dataset's name (a file's, foreign) is escaped for esc. */
static void unstable_line(const struct bench_result *r, unsigned bits, int by_impl, enum escape_target esc, char *buf,
			  size_t size)
{
	char reasons[600], page[32], data[4 * PAGE_SET_DATA_MAX];

	reasons_of(r, bits, reasons, sizeof(reasons));
	if (r->misalign)
		snprintf(page, sizeof(page), "%u+%u", r->page_size, r->misalign);
	else
		snprintf(page, sizeof(page), "%u", r->page_size);
	snprintf(buf, size, "unstable: %s %s %s %s %s: %s", result_name(r, by_impl), data_shown(r, esc, data, sizeof(data)),
		 r->cache, page, bench_timer_label(r->timer, r->apart), reasons);
}

/* One "PREFIXunstable: ..." line per unstable result of r[0..n). The
 * run's share of disturbed rounds marks every result alike (estimate.c),
 * so it is said once, first, and a result's own line gives its other
 * reasons, if it has any: on a busy host that is a line or a few, not one
 * per hash repeating the same words. */
static int report_unstable_lines(FILE *out, const struct bench_result *r, size_t n, int by_impl, enum escape_target esc,
				 const char *prefix)
{
	char line[800 + 4 * PAGE_SET_DATA_MAX];
	unsigned own = ~0u;

	for (size_t i = 0; i < n; i++)
		if (r[i].unstable & STABILITY_RUN_DISTURBED) {
			reasons_of(&r[i], STABILITY_RUN_DISTURBED, line, sizeof(line));
			fprintf(out, "%sthe whole run is unstable: %s\n", prefix, line);
			own = ~(unsigned)STABILITY_RUN_DISTURBED;
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (r[i].unstable & own) {
			unstable_line(&r[i], r[i].unstable & own, by_impl, esc, line, sizeof(line));
			fprintf(out, "%s%s\n", prefix, line);
		}
	return ferror(out) ? -1 : 0;
}

/* Which of data, cache and page size tell apart results of r[0..n) that
 * the name and timer alone do not (a bench sweep's): a name in the summary
 * carries those, as the table's columns do. O(n^2) over a few hundred. */
enum { VARY_DATA = 1, VARY_CACHE = 2, VARY_PAGE = 4 };

static unsigned varying(const struct bench_result *r, size_t n, int by_impl)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (strcmp(result_name(&r[i], by_impl), result_name(&r[j], by_impl)) != 0 ||
			    r[i].timer != r[j].timer || r[i].apart != r[j].apart)
				continue;
			v |= strcmp(r[i].data, r[j].data) != 0 ? VARY_DATA : 0;
			v |= strcmp(r[i].cache, r[j].cache) != 0 ? VARY_CACHE : 0;
			v |= r[i].page_size != r[j].page_size || r[i].misalign != r[j].misalign ? VARY_PAGE : 0;
		}
	return v;
}

int report_unstable_summary(FILE *out, const struct bench_result *r, size_t n, int by_impl, enum escape_target esc,
			    const char *prefix, unsigned width)
{
	char line[4096] = "unstable (--wide or the JSON for the reasons):";
	size_t used = strlen(line), k = 0;
	unsigned v = varying(r, n, by_impl);

	if (width == 0)
		return report_unstable_lines(out, r, n, by_impl, esc, prefix);
	for (size_t i = 0; i < n && used < sizeof(line); i++) {
		if (!r[i].unstable || !++k)
			continue;
		char page[32] = "", data[4 * PAGE_SET_DATA_MAX];
		if ((v & VARY_PAGE) && r[i].misalign)
			snprintf(page, sizeof(page), "/%u+%u", r[i].page_size, r[i].misalign);
		else if (v & VARY_PAGE)
			snprintf(page, sizeof(page), "/%u", r[i].page_size);
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s%s%s%s%s%s/%s%s",
					 result_name(&r[i], by_impl), v & VARY_DATA ? "/" : "",
					 v & VARY_DATA ? data_shown(&r[i], esc, data, sizeof(data)) : "",
					 v & VARY_CACHE ? "/" : "", v & VARY_CACHE ? r[i].cache : "", page,
					 bench_timer_name(r[i].timer), r[i].apart ? "/apart" : "");
	}
	return k ? report_wrapped(out, prefix, line, width) : 0;
}
