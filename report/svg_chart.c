/* The bench-style SVG bar chart (see svg_chart.h). Layout in pixels: labels
 * on the left, bars from X0 to X1, a group heading above each dataset's
 * bars, the axis (ticks at 1, 2 or 5 times a power of ten) at the top and
 * bottom. With several runs a row holds one bar per run, in run order. */
#include "svg_chart.h"

#include <stdlib.h>
#include <string.h>

#include "../common/plural.h"
#include "../common/versions.h"
#include "kinds.h"
#include "svg_draw.h"

#define X0 210.0 /* left end of the bars */
#define X1 880.0 /* the axis maximum */
#define BAR 15.0
#define HEADING 30.0
#define PITCH 13.0 /* a run's bar in a row of several */
#define ROW_PAD 4.5 /* (24 - BAR) / 2: a single run's bar centred in its row */

/* A result's bar: its group (dataset) and row (result name; occ tells
 * repeats of one name in one run apart), and where it is drawn. */
struct bar {
	char *group_label, *name;
	uint64_t misalign;
	const struct loaded_result *r;
	size_t run, seq, occ, group_first, row_first;
};

static int same_row(const struct bar *a, const struct bar *b)
{
	return strcmp(a->group_label, b->group_label) == 0 && a->misalign == b->misalign &&
	       strcmp(a->name, b->name) == 0;
}

static int same_group(const struct bar *a, const struct bar *b)
{
	return strcmp(a->group_label, b->group_label) == 0 && a->misalign == b->misalign;
}

static int cmp_size(size_t a, size_t b)
{
	return a < b ? -1 : a > b;
}

static int by_key(const struct bar *a, const struct bar *b)
{
	int c = strcmp(a->group_label, b->group_label);

	if (c == 0)
		c = a->misalign < b->misalign ? -1 : a->misalign > b->misalign;
	return c ? c : strcmp(a->name, b->name);
}

static int by_run(const void *pa, const void *pb)
{
	const struct bar *a = pa, *b = pb;
	int c = by_key(a, b);

	return c ? c : a->run != b->run ? cmp_size(a->run, b->run) : cmp_size(a->seq, b->seq);
}

static int by_occurrence(const void *pa, const void *pb)
{
	const struct bar *a = pa, *b = pb;
	int c = by_key(a, b);

	return c ? c : a->occ != b->occ ? cmp_size(a->occ, b->occ) : cmp_size(a->seq, b->seq);
}

static int by_place(const void *pa, const void *pb)
{
	const struct bar *a = pa, *b = pb;

	if (a->group_first != b->group_first)
		return cmp_size(a->group_first, b->group_first);
	return a->row_first != b->row_first ? cmp_size(a->row_first, b->row_first) : cmp_size(a->run, b->run);
}

static void bars_free(struct bar *bars, size_t n)
{
	for (size_t i = 0; bars && i < n; i++) {
		free(bars[i].group_label);
		free(bars[i].name);
	}
	free(bars);
}

static void group_label(const struct loaded_result *r, char *buf, size_t size)
{
	char data[320];

	results_dataset(r, data, sizeof(data));
	snprintf(buf, size, "%s data, %s cache, %llu-byte pages%s, %s timer",
		 strcmp(data, "zero") == 0 ? "zero-page" : data, r->cache, (unsigned long long)r->page_size,
		 r->misalign ? " (misaligned)" : "", r->timer_label);
}

static void bar_name(const struct loaded_result *r, char *buf, size_t size)
{
	if (strcmp(r->hash, r->impl) != 0)
		snprintf(buf, size, "%s (%s)", r->hash, r->impl);
	else
		snprintf(buf, size, "%s", r->hash);
}

/* Every run's results, one bar each; NULL when out of memory. */
static struct bar *bars_collect(const struct plot_run *runs, size_t nruns, size_t *n)
{
	size_t total = 0;
	char label[512], name[200];

	for (size_t k = 0; k < nruns; k++)
		total += runs[k].doc.n;
	struct bar *bars = calloc(total ? total : 1, sizeof(*bars));
	*n = 0;
	for (size_t k = 0; bars && k < nruns; k++)
		for (size_t i = 0; i < runs[k].doc.n; i++) {
			const struct loaded_result *r = &runs[k].doc.results[i];
			group_label(r, label, sizeof(label));
			bar_name(r, name, sizeof(name));
			bars[*n] = (struct bar){ strdup(label), strdup(name), r->misalign, r, k, *n, 0, 0, 0 };
			if (!bars[(*n)++].group_label || !bars[*n - 1].name) {
				bars_free(bars, *n);
				return NULL;
			}
		}
	return bars;
}

/* The bars in drawing order: groups in the order of their first result,
 * rows in the order of theirs, a row's bars by run (sorted thrice: n log n,
 * for documents of many results). Counts the groups and rows. */
static void bars_place(struct bar *bars, size_t n, size_t *ngroups, size_t *nrows)
{
	qsort(bars, n, sizeof(*bars), by_run);
	for (size_t i = 0; i < n; i++)
		bars[i].occ = i > 0 && same_row(&bars[i], &bars[i - 1]) && bars[i].run == bars[i - 1].run
				      ? bars[i - 1].occ + 1
				      : 0;
	qsort(bars, n, sizeof(*bars), by_occurrence);
	*ngroups = *nrows = 0;
	for (size_t i = 0, g = 0; i < n; i++) {
		int new_row = i == 0 || !same_row(&bars[i], &bars[i - 1]) || bars[i].occ != bars[i - 1].occ;
		bars[i].row_first = new_row ? bars[i].seq : bars[i - 1].row_first;
		*nrows += new_row;
		if (i == 0 || !same_group(&bars[i], &bars[i - 1])) {
			g = i;
			bars[g].group_first = bars[g].seq;
			++*ngroups;
		} else if (bars[i].seq < bars[g].group_first) {
			bars[g].group_first = bars[i].seq;
		}
	}
	for (size_t i = 1; i < n; i++)
		if (same_group(&bars[i], &bars[i - 1]))
			bars[i].group_first = bars[i - 1].group_first;
	qsort(bars, n, sizeof(*bars), by_place);
}

static double max_rate(const struct bar *bars, size_t n)
{
	double max = 0;

	for (size_t i = 0; i < n; i++) {
		const struct loaded_result *r = bars[i].r;
		double hi = r->bytes_per_second_max > r->bytes_per_second_median ? r->bytes_per_second_max
										  : r->bytes_per_second_median;
		if (hi > max)
			max = hi;
	}
	return max;
}

/* The scale of the chart: GB/s once anything reaches 1 GB/s, else MB/s. */
struct scale {
	int giga;
	double unit, step, top, px_per_rate;
};

static void bar_draw(FILE *out, const struct bar *b, double by, double bar, const char *fill, const struct scale *s)
{
	const struct loaded_result *r = b->r;
	double w = r->bytes_per_second_median * s->px_per_rate;

	fprintf(out, "<rect class=\"bar\" data-run=\"%zu\" data-hash=\"", b->run);
	svg_put(out, r->hash);
	fputs("\" data-dataset=\"", out);
	svg_put(out, r->data);
	fputs("\" data-cache=\"", out);
	svg_put(out, r->cache);
	fputs("\" data-timer=\"", out);
	svg_put(out, r->timer);
	fprintf(out, "\" data-page-size=\"%u\" data-bytes-per-second=\"%.0f\" x=\"%.1f\" y=\"%.1f\" "
		     "width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>",
		(unsigned)r->page_size, r->bytes_per_second_median, X0, by, w, bar, fill);
	svg_put(out, b->name);
	fprintf(out, ": %.2f %s median%s</title></rect>\n", r->bytes_per_second_median / s->unit,
		s->giga ? "GB/s" : "MB/s", r->interrupted ? " (rounds cut short)" : "");
	double lo = r->bytes_per_second_min * s->px_per_rate, hi = r->bytes_per_second_max * s->px_per_rate;
	if (hi > lo + 0.5) {
		double my = by + bar / 2;
		fprintf(out, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
			     "stroke=\"#222\" fill=\"none\"/>\n",
			X0 + lo, my, X0 + hi, X0 + lo, my - 4, my + 4, X0 + hi, my - 4, my + 4);
	}
	fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%.*f</text>\n", X0 + (hi > w ? hi : w) + 6,
		by + bar - 3, r->bytes_per_second_median / s->unit >= 100 ? 0 : 1, r->bytes_per_second_median / s->unit);
}

/* The title, the run's context (one run) or a legend of runs (several):
 * returns the height used. */
static double head(FILE *out, const struct plot_run *runs, size_t nruns, const char *title, const struct scale *s)
{
	double y = 62;

	svg_title(out, title ? title : "ksmbench: page-hash throughput");
	if (nruns == 1) {
		svg_text(out, "note", 20, 45, NULL, runs[0].label);
	} else {
		for (size_t k = 0; k < nruns; k++)
			svg_legend_entry(out, 20, 45 + 16.0 * (double)k, svg_run_color(k), runs[k].label);
		y = 45 + 16.0 * (double)nruns + 1;
	}
	fprintf(out, "<text class=\"note\" x=\"20\" y=\"%.0f\">Bar: median over processes; whisker: slowest to fastest "
		     "round; %s = 10^%d bytes per second. Longer is faster.</text>\n",
		y, s->giga ? "GB/s" : "MB/s", s->giga ? 9 : 6);
	return y + 30;
}

int svg_chart_write(FILE *out, const struct plot_run *runs, size_t nruns, const char *title)
{
	size_t n, ngroups, nrows;
	struct bar *bars;

	if (runs[0].thread.present)
		return svg_thread_write(out, runs, nruns, title);
	if (!(bars = bars_collect(runs, nruns, &n)))
		return -1;
	bars_place(bars, n, &ngroups, &nrows);
	double max = max_rate(bars, n);
	struct scale s = { .giga = max >= 1e9 };
	s.unit = s.giga ? 1e9 : 1e6;
	s.step = svg_nice_step(max / s.unit);
	s.top = svg_axis_top(max / s.unit, s.step);
	s.px_per_rate = (X1 - X0) / (s.top * s.unit);
	double row = nruns == 1 ? 24 : PITCH * (double)nruns + 8, bar = nruns == 1 ? BAR : PITCH - 2;
	double top = 92 + (nruns == 1 ? 0 : 16.0 * (double)nruns - 16);
	double height = top + (double)ngroups * HEADING + (double)nrows * row + 70;

	svg_open(out, height);
	head(out, runs, nruns, title, &s);
	double plot_top = top - 6, plot_bottom = height - 52;
	svg_frame(out, X0, X1, plot_top, plot_bottom, s.step, s.top,
		  s.giga ? "throughput, GB/s (median over processes)" : "throughput, MB/s (median over processes)");
	double next = top, ry = top;
	for (size_t i = 0; i < n; i++) {
		const struct bar *b = &bars[i];
		int new_group = i == 0 || b->group_first != bars[i - 1].group_first;
		if (new_group) {
			svg_text(out, "group", 20, next + 20, NULL, b->group_label);
			next += HEADING;
		}
		if (new_group || b->row_first != bars[i - 1].row_first) {
			ry = next;
			next += row;
			svg_text(out, "label", X0 - 8, nruns == 1 ? ry + ROW_PAD + BAR - 3 : ry + row / 2, "end", b->name);
		}
		double by = ry + (nruns == 1 ? ROW_PAD : 4 + PITCH * (double)b->run);
		bar_draw(out, b, by, bar, nruns == 1 ? svg_family_color(b->r->hash) : svg_run_color(b->run), &s);
	}
	fprintf(out, "<text class=\"note\" x=\"20\" y=\"%.0f\">ksmbench %s plot of %zu result%s", height - 8,
		KSMBENCH_VERSION, n, kb_s(n));
	if (nruns > 1)
		fprintf(out, " from %zu runs", nruns);
	fputs("</text>\n", out);
	svg_close(out);
	bars_free(bars, n);
	return ferror(out) ? -1 : 0;
}

int svg_chart_render(FILE *out, const struct report_document *doc)
{
	return svg_chart_write(out, doc->plot_runs, doc->nplot_runs, doc->title);
}
