/* The SVG bar chart (see svg_chart.h). Layout in pixels: labels on the
 * left, bars from X0 to X1, a group heading above each dataset's bars, the
 * axis (ticks at 1, 2 or 5 times a power of ten) at the top and bottom. */
#include "svg_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/plural.h"
#include "../common/versions.h"
#include "escape.h"
#include "kinds.h"

#define WIDTH 960
#define X0 210.0 /* left end of the bars */
#define X1 880.0 /* the axis maximum */
#define TOP 92.0 /* the first group heading */
#define ROW 24.0
#define BAR 15.0
#define HEADING 30.0

/* A document's string as XML text or an attribute value (escape.h): no
 * markup, and no character XML cannot hold. */
static void put_text(FILE *out, const char *s)
{
	escape_put(out, s, ESCAPE_XML);
}

/* A colour per family, so related implementations read together. */
static const char *family_color(const char *hash)
{
	if (strncmp(hash, "crc32c", 6) == 0)
		return "#3b6fb6";
	if (strncmp(hash, "crc32", 5) == 0)
		return "#7a9cc9";
	if (strcmp(hash, "xxh3") == 0 || strncmp(hash, "xxh3-", 5) == 0 || strncmp(hash, "xxh128", 6) == 0)
		return "#e07b24";
	if (strncmp(hash, "xxh", 3) == 0)
		return "#c9a227";
	if (strncmp(hash, "jhash", 5) == 0)
		return "#4a9a5b";
	return "#888888";
}

/* A round step for about five ticks up to max: 1, 2 or 5 times 10^k. */
static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void group_label(const struct loaded_result *r, char *buf, size_t size)
{
	char data[320];

	results_dataset(r, data, sizeof(data));
	snprintf(buf, size, "%s data, %s cache, %llu-byte pages%s, %s timer",
		 strcmp(data, "zero") == 0 ? "zero-page" : data, r->cache, (unsigned long long)r->page_size,
		 r->misalign ? " (misaligned)" : "", r->timer);
}

/* A result's bar: the group (dataset) it is drawn in, and where. */
struct bar {
	char *label;
	uint64_t misalign;
	size_t index, group; /* group: the index of the group's first result */
};

static int by_group_key(const void *pa, const void *pb)
{
	const struct bar *a = pa, *b = pb;
	int c = strcmp(a->label, b->label);

	if (c == 0)
		c = a->misalign < b->misalign ? -1 : a->misalign > b->misalign;
	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

static int by_place(const void *pa, const void *pb)
{
	const struct bar *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static void bars_free(struct bar *bars, size_t n)
{
	for (size_t i = 0; bars && i < n; i++)
		free(bars[i].label);
	free(bars);
}

/* The results grouped by dataset, groups in the order of their first
 * result, results in document order within a group (sorted twice: linear
 * in log time, for documents of many results). NULL when out of memory. */
static struct bar *bars_place(const struct loaded_doc *doc, size_t *ngroups)
{
	struct bar *bars = calloc(doc->n ? doc->n : 1, sizeof(*bars));
	char label[400];

	*ngroups = 0;
	for (size_t i = 0; bars && i < doc->n; i++) {
		group_label(&doc->results[i], label, sizeof(label));
		bars[i] = (struct bar){ strdup(label), doc->results[i].misalign, i, 0 };
		if (!bars[i].label) {
			bars_free(bars, i);
			return NULL;
		}
	}
	if (!bars)
		return NULL;
	qsort(bars, doc->n, sizeof(*bars), by_group_key);
	for (size_t i = 0; i < doc->n; i++) {
		int same = i > 0 && strcmp(bars[i].label, bars[i - 1].label) == 0 &&
			   bars[i].misalign == bars[i - 1].misalign;
		bars[i].group = same ? bars[i - 1].group : bars[i].index;
		*ngroups += !same;
	}
	qsort(bars, doc->n, sizeof(*bars), by_place);
	return bars;
}

/* An axis of top (in the chart's unit) at height y, a tick every step. */
static void axis(FILE *out, double y, double step, double top, int labels_above)
{
	double scale = (X1 - X0) / top;

	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", X0, y,
		X1, y);
	for (double v = 0; v <= top + step / 2; v += step) {
		double x = X0 + v * scale;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x, y, x,
			labels_above ? y - 4 : y + 4);
		fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
			labels_above ? y - 7 : y + 16, v);
	}
}

int svg_chart_write(FILE *out, const struct loaded_doc *doc, const char *title)
{
	size_t n = doc->n, ngroups;
	struct bar *bars = bars_place(doc, &ngroups);
	double max_rate = 0;

	if (!bars)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct loaded_result *r = &doc->results[i];
		double hi = r->bytes_per_second_max > r->bytes_per_second_median ? r->bytes_per_second_max
										     : r->bytes_per_second_median;
		if (hi > max_rate)
			max_rate = hi;
	}
	/* GB/s once anything reaches 1 GB/s, else MB/s. */
	int giga = max_rate >= 1e9;
	double unit = giga ? 1e9 : 1e6;
	double step = nice_step(max_rate > 0 ? max_rate / unit : 1);
	double top = ceil((max_rate > 0 ? max_rate / unit : 1) / step) * step;
	double scale = (X1 - X0) / (top * unit);
	double height = TOP + (double)ngroups * HEADING + (double)n * ROW + 70;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		     "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
		WIDTH, height, WIDTH, height);
	fprintf(out, "<style>.tick{font-size:11px;fill:#333}.value{font-size:11px;fill:#222}"
		     ".label{fill:#111}.group{font-weight:bold;fill:#111}.note{font-size:11px;fill:#555}</style>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fputs("<text x=\"20\" y=\"26\" font-size=\"17\" font-weight=\"bold\">", out);
	put_text(out, title ? title : "ksmbench: page-hash throughput");
	fputs("</text>\n<text class=\"note\" x=\"20\" y=\"45\">", out);
	put_text(out, doc->cpu_brand ? doc->cpu_brand : "unidentified CPU");
	fputs(", git ", out);
	put_text(out, doc->git_revision ? doc->git_revision : "unknown");
	fputs(", ", out);
	put_text(out, doc->date ? doc->date : "undated");
	if (doc->interrupted)
		fputs(" - INTERRUPTED run: partial results", out);
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"note\" x=\"20\" y=\"62\">Bar: median round; whisker: slowest to fastest "
		     "round; %s = 10^%d bytes per second. Longer is faster.</text>\n",
		giga ? "GB/s" : "MB/s", giga ? 9 : 6);

	/* Gridlines over the whole plot, the axis above and below it. */
	double plot_top = TOP - 6, plot_bottom = height - 52;
	for (double v = step; v <= top + step / 2; v += step) {
		double x = X0 + v * unit * scale;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, plot_top,
			x, plot_bottom);
	}
	axis(out, plot_top, step, top, 1);
	axis(out, plot_bottom, step, top, 0);
	fprintf(out, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">throughput, %s "
		     "(median of the rounds)</text>\n",
		(X0 + X1) / 2, plot_bottom + 34, giga ? "GB/s" : "MB/s");

	double y = TOP;
	for (size_t i = 0; i < n; i++) {
		const struct loaded_result *r = &doc->results[bars[i].index];
		if (i == 0 || bars[i].group != bars[i - 1].group) {
			fprintf(out, "<text class=\"group\" x=\"20\" y=\"%.1f\">", y + 20);
			put_text(out, bars[i].label);
			fputs("</text>\n", out);
			y += HEADING;
		}
		double w = r->bytes_per_second_median * scale;
		double by = y + (ROW - BAR) / 2;
		char name[200];
		if (strcmp(r->hash, r->impl) != 0)
			snprintf(name, sizeof(name), "%s (%s)", r->hash, r->impl);
		else
			snprintf(name, sizeof(name), "%s", r->hash);
		fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", X0 - 8, by + BAR - 3);
		put_text(out, name);
		fputs("</text>\n", out);
		fprintf(out, "<rect class=\"bar\" data-hash=\"");
		put_text(out, r->hash);
		fputs("\" data-dataset=\"", out);
		put_text(out, r->data);
		fputs("\" data-cache=\"", out);
		put_text(out, r->cache);
		fputs("\" data-timer=\"", out);
		put_text(out, r->timer);
		fprintf(out, "\" data-page-size=\"%u\" data-bytes-per-second=\"%.0f\" x=\"%.1f\" y=\"%.1f\" "
			     "width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>",
			(unsigned)r->page_size, r->bytes_per_second_median, X0, by, w, BAR, family_color(r->hash));
		put_text(out, name);
		fprintf(out, ": %.2f %s median%s</title></rect>\n", r->bytes_per_second_median / unit,
			giga ? "GB/s" : "MB/s", r->interrupted ? " (rounds cut short)" : "");
		double lo = r->bytes_per_second_min * scale, hi = r->bytes_per_second_max * scale;
		if (hi > lo + 0.5) {
			double my = by + BAR / 2;
			fprintf(out, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
				     "stroke=\"#222\" fill=\"none\"/>\n",
				X0 + lo, my, X0 + hi, X0 + lo, my - 4, my + 4, X0 + hi, my - 4, my + 4);
		}
		double vx = X0 + (hi > w ? hi : w) + 6;
		fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%.*f</text>\n", vx, by + BAR - 3,
			r->bytes_per_second_median / unit >= 100 ? 0 : 1, r->bytes_per_second_median / unit);
		y += ROW;
	}
	fprintf(out, "<text class=\"note\" x=\"20\" y=\"%.0f\">ksmbench %s plot of %zu result%s</text>\n", height - 8,
		KSMBENCH_VERSION, n, kb_s(n));
	fputs("</svg>\n", out);
	bars_free(bars, n);
	return ferror(out) ? -1 : 0;
}

int svg_chart_render(FILE *out, const struct report_document *doc)
{
	return svg_chart_write(out, doc->base, doc->title);
}
