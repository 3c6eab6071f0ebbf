/* CSV: one row per result, the same field names as the JSON results. */
#include <string.h>

#include "results.h"

static const char *const columns[] = {
	"hash", "implementation", "data", "cache", "page_size_bytes", "misalign_bytes", "working_set_bytes",
	"timer", "repeats", "calls", "bytes_per_second_best", "bytes_per_second_median", "ns_per_page_best",
	"ns_per_page_median", "ns_per_page_min", "ns_per_page_max", "cv", "kernel_mb_per_s_best",
	"kernel_mb_per_s_median", "hz", "window_jiffies", "bias_percent_median", "tsc_cycles_per_page_median",
	"tsc_cycles_per_call_p10", "tsc_cycles_per_call_p90", "clock",
};

#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

void report_csv_field(FILE *out, const char *text, int last)
{
	if (strpbrk(text, ",\"\r\n")) {
		fputc('"', out);
		for (const char *p = text; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else {
		fputs(text, out);
	}
	fputc(last ? '\n' : ',', out);
}

int report_csv(FILE *out, const struct bench_result *r, size_t n)
{
	char v[NCOLUMNS][320];

	for (size_t c = 0; c < NCOLUMNS; c++)
		report_csv_field(out, columns[c], c + 1 == NCOLUMNS);
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];
		int jif = x->timer == BENCH_TIMER_JIFFIES, tsc = x->timer == BENCH_TIMER_RDTSC && x->counter_is_tsc;
		double cyc_per_ns = x->counter_hz / 1e9;
		unsigned k = 0;
		snprintf(v[k++], sizeof(v[0]), "%s", x->hash);
		snprintf(v[k++], sizeof(v[0]), "%s", x->impl);
		snprintf(v[k++], sizeof(v[0]), "%s", x->data);
		snprintf(v[k++], sizeof(v[0]), "%s", x->cache);
		snprintf(v[k++], sizeof(v[0]), "%u", x->page_size);
		snprintf(v[k++], sizeof(v[0]), "%u", x->misalign);
		snprintf(v[k++], sizeof(v[0]), "%llu", (unsigned long long)x->working_set_bytes);
		snprintf(v[k++], sizeof(v[0]), "%s", bench_timer_name(x->timer));
		snprintf(v[k++], sizeof(v[0]), "%u", x->repeats);
		snprintf(v[k++], sizeof(v[0]), "%llu", (unsigned long long)x->calls);
		snprintf(v[k++], sizeof(v[0]), "%.0f", x->bytes_per_second_best);
		snprintf(v[k++], sizeof(v[0]), "%.0f", x->bytes_per_second_median);
		snprintf(v[k++], sizeof(v[0]), "%.2f", x->ns_per_page.best);
		snprintf(v[k++], sizeof(v[0]), "%.2f", x->ns_per_page.median);
		snprintf(v[k++], sizeof(v[0]), "%.2f", x->ns_per_page.min);
		snprintf(v[k++], sizeof(v[0]), "%.2f", x->ns_per_page.max);
		snprintf(v[k++], sizeof(v[0]), "%.4f", x->ns_per_page.cv);
		if (jif) {
			snprintf(v[k++], sizeof(v[0]), "%ld", x->kernel_mb_per_s_best);
			snprintf(v[k++], sizeof(v[0]), "%ld", x->kernel_mb_per_s_median);
			snprintf(v[k++], sizeof(v[0]), "%u", x->hz);
			snprintf(v[k++], sizeof(v[0]), "%u", x->window_jiffies);
			snprintf(v[k++], sizeof(v[0]), "%.3f", x->bias_percent_median);
		} else {
			for (int j = 0; j < 5; j++)
				v[k++][0] = '\0';
		}
		if (tsc) {
			snprintf(v[k++], sizeof(v[0]), "%.1f", x->ns_per_page.median * cyc_per_ns);
			snprintf(v[k++], sizeof(v[0]), "%.1f", x->ticks_per_call_p10);
			snprintf(v[k++], sizeof(v[0]), "%.1f", x->ticks_per_call_p90);
		} else {
			for (int j = 0; j < 3; j++)
				v[k++][0] = '\0';
		}
		snprintf(v[k++], sizeof(v[0]), "%s", report_clock_name(x));
		for (size_t c = 0; c < NCOLUMNS; c++)
			report_csv_field(out, v[c], c + 1 == NCOLUMNS);
	}
	return ferror(out) ? -1 : 0;
}
