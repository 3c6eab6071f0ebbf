/* A thread run drawn (see svg_chart.h): two panels, each with its own axis,
 * because the self-test's hot kernel MB/s (up to tens of GB/s) and ksmd's
 * cold ns per page are different quantities and directions. In each, a row
 * per thread contender (what the kernel can run, then contenders outside
 * it), one bar per run, and the thread's published figure beside as a
 * hatched bar (thread_published, the one list of them). */
#include <string.h>

#include "../common/plural.h"
#include "../common/versions.h"
#include "svg_chart.h"
#include "svg_draw.h"

#define X0 210.0
#define X1 860.0
#define PITCH 14.0 /* a bar and the space under it */
#define BAR 11.0
#define ROW_GAP 8.0
#define BLOCK 22.0  /* a block's heading */
#define PANEL_HEAD 52.0 /* a panel's title and note, down to its top axis */
#define PANEL_FOOT 62.0 /* its bottom axis, axis title and the space below */

/* A row: a contender over every run, the first run's row naming it. */
struct row {
	const struct thread_row_read *of[PLOT_RUNS_MAX]; /* per run; NULL: not in that run */
	const struct thread_published *published;        /* NULL: none */
	int in_kernel;
	char label[200];
};

struct panel {
	const char *id, *title, *note, *axis_title;
	double (*here)(const struct thread_row_read *r);
	double (*thread)(const struct thread_published *p);
	int decimals_here, decimals_thread;
};

static double mb_here(const struct thread_row_read *r)
{
	return (double)r->kernel_mb_per_s_here;
}

static double mb_thread(const struct thread_published *p)
{
	return p->kernel_mb_per_s;
}

static double ns_here(const struct thread_row_read *r)
{
	return r->ns_per_page_here;
}

static double ns_thread(const struct thread_published *p)
{
	return p->ksm_ns_per_page;
}

static const struct panel panels[] = {
	{ "kernel-mb", "Self-test: kernel MB/s (count*4096>>17), zero page, hot, best round. Longer is faster.",
	  "Hatched: the v2 patch's self-test in the thread, Xeon E5-2420 v2.", "kernel MB/s (count*4096>>17)", mb_here,
	  mb_thread, 0, 0 },
	{ "ksmd-ns",
	  "ksmd's pattern: ns per page (pages_to_scan pages, then a sleep), random pages, median. Shorter is faster.",
	  "Hatched: sioh Lee's per-page checksum times from ksmd in the thread, Xeon E5-2620 v3 with 4 VMs.",
	  "ns per page in ksmd's pattern (median)", ns_here, ns_thread, 0, 2 },
};

/* The row of (in_kernel, hash) in rows[0..*n), added if new. */
static struct row *row_of(struct row *rows, size_t *n, const struct thread_row_read *r)
{
	for (size_t i = 0; i < *n; i++) {
		const struct thread_row_read *f = NULL;
		for (size_t k = 0; !f && k < PLOT_RUNS_MAX; k++)
			f = rows[i].of[k];
		if (rows[i].in_kernel == r->in_kernel && strcmp(f->hash, r->hash) == 0)
			return &rows[i];
	}
	memset(&rows[*n], 0, sizeof(rows[*n]));
	rows[*n].in_kernel = r->in_kernel;
	rows[*n].published = r->in_kernel ? thread_published_find(r->hash) : NULL;
	return &rows[(*n)++];
}

/* "crc32c (crc32c-3way)": the thread's name and what each run measured,
 * when that differs. */
static void row_label(struct row *row, size_t nruns)
{
	const char *hash = NULL;
	size_t len;

	for (size_t k = 0; k < nruns; k++) {
		const struct thread_row_read *r = row->of[k];
		if (!r)
			continue;
		if (!hash) {
			hash = r->hash;
			snprintf(row->label, sizeof(row->label), "%.60s", hash);
		}
		len = strlen(row->label);
		if (strcmp(r->impl, hash) != 0 && !strstr(row->label, r->impl) && len + 8 < sizeof(row->label))
			snprintf(row->label + len, sizeof(row->label) - len, "%s%.40s", strchr(row->label, '(') ? " / " : " (",
				 r->impl);
	}
	if (strchr(row->label, '(') && (len = strlen(row->label)) + 1 < sizeof(row->label))
		strcat(row->label, ")");
}

/* The rows in their blocks: the kernel's, then the outside contenders'. */
static size_t rows_build(const struct plot_run *runs, size_t nruns, struct row *rows)
{
	size_t n = 0;

	for (int in_kernel = 1; in_kernel >= 0; in_kernel--)
		for (size_t k = 0; k < nruns; k++)
			for (size_t i = 0; i < runs[k].thread.nrows; i++) {
				const struct thread_row_read *r = &runs[k].thread.rows[i];
				if (r->in_kernel == in_kernel)
					row_of(rows, &n, r)->of[k] = r;
			}
	for (size_t i = 0; i < n; i++)
		row_label(&rows[i], nruns);
	return n;
}

static double published_value(const struct panel *p, const struct row *row)
{
	return row->published ? p->thread(row->published) : 0;
}

static double row_height(const struct panel *p, const struct row *row, size_t nruns)
{
	return (double)(nruns + (published_value(p, row) > 0)) * PITCH + ROW_GAP;
}

/* The height of a panel's blocks and rows. */
static double panel_body(const struct panel *p, const struct row *rows, size_t n, size_t nruns)
{
	double h = 0;

	for (size_t i = 0; i < n; i++)
		h += row_height(p, &rows[i], nruns) + (i == 0 || rows[i].in_kernel != rows[i - 1].in_kernel ? BLOCK : 0);
	return h;
}

static double panel_max(const struct panel *p, const struct row *rows, size_t n, size_t nruns)
{
	double max = 0;

	for (size_t i = 0; i < n; i++) {
		if (published_value(p, &rows[i]) > max)
			max = published_value(p, &rows[i]);
		for (size_t k = 0; k < nruns; k++)
			if (rows[i].of[k] && p->here(rows[i].of[k]) > max)
				max = p->here(rows[i].of[k]);
	}
	return max;
}

/* One bar at y: a run's (run >= 0) or the thread's (run -1, hatched). */
static void bar(FILE *out, const struct panel *p, const struct row *row, long run, double value, double y,
		double px_per_unit)
{
	double w = value * px_per_unit;
	int decimals = run < 0 ? p->decimals_thread : p->decimals_here;

	fprintf(out, "<rect class=\"%s\" data-panel=\"%s\" data-run=\"%ld\" data-hash=\"", run < 0 ? "published" : "bar",
		p->id, run);
	svg_put(out, row->label);
	fprintf(out, "\" data-value=\"%.2f\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s><title>",
		value, X0, y, w, BAR, run < 0 ? SVG_HATCH : svg_run_color((size_t)run),
		run < 0 ? " stroke=\"#555\" stroke-width=\"0.5\"" : "");
	svg_put(out, row->label);
	fprintf(out, ": %.*f%s</title></rect>\n", decimals, value, run < 0 ? " (published in the thread)" : "");
	fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%.*f%s</text>\n", X0 + w + 5, y + BAR - 2, decimals,
		value, run < 0 ? " (thread)" : "");
}

/* A row's bars from y: one per run, then the published figure's. */
static void row_draw(FILE *out, const struct panel *p, const struct row *row, size_t nruns, double y,
		     double px_per_unit)
{
	svg_text(out, "label", X0 - 8, y + BAR - 2, "end", row->label);
	for (size_t k = 0; k < nruns; k++, y += PITCH) {
		double v = row->of[k] ? p->here(row->of[k]) : 0;
		if (v > 0)
			bar(out, p, row, (long)k, v, y, px_per_unit);
		else
			svg_text(out, "note", X0 + 5, y + BAR - 2, NULL, row->of[k] ? "not measured" : "not in this run");
	}
	if (published_value(p, row) > 0)
		bar(out, p, row, -1, published_value(p, row), y, px_per_unit);
}

/* Panel p from y; returns the y below it. */
static double panel_draw(FILE *out, const struct panel *p, const struct row *rows, size_t n, size_t nruns, double y)
{
	double max = panel_max(p, rows, n, nruns);
	double step = svg_nice_step(max), top = svg_axis_top(max, step), px = (X1 - X0) / top;
	double plot_top = y + PANEL_HEAD, plot_bottom = plot_top + panel_body(p, rows, n, nruns) + 6;

	svg_text(out, "panel", 20, y + 18, NULL, p->title);
	svg_text(out, "note", 20, y + 34, NULL, p->note);
	svg_frame(out, X0, X1, plot_top, plot_bottom, step, top, p->axis_title);
	y = plot_top + 4;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || rows[i].in_kernel != rows[i - 1].in_kernel) {
			svg_text(out, "group", 20, y + 16, NULL,
				 rows[i].in_kernel ? "What the kernel can run" : "Contenders outside the kernel");
			y += BLOCK;
		}
		row_draw(out, p, &rows[i], nruns, y, px);
		y += row_height(p, &rows[i], nruns);
	}
	return plot_bottom + PANEL_FOOT - 6;
}

/* The title and the legend: a swatch per run, the hatch of the thread's. */
static double legend(FILE *out, const struct plot_run *runs, size_t nruns, const char *title)
{
	double y = 48;

	svg_title(out, title ? title : "ksmbench thread: KSM's page checksums, here and in the linux-mm thread");
	for (size_t k = 0; k < nruns; k++, y += 16)
		svg_legend_entry(out, 20, y, svg_run_color(k), runs[k].label);
	svg_legend_entry(out, 20, y, SVG_HATCH, "published in the linux-mm thread (2017-2018)");
	return y + 14;
}

int svg_thread_write(FILE *out, const struct plot_run *runs, size_t nruns, const char *title)
{
	struct row rows[PLOT_THREAD_ROWS_MAX];
	size_t n = rows_build(runs, nruns, rows);
	double height = 48 + 16.0 * (double)(nruns + 1) + 40;

	for (size_t i = 0; i < sizeof(panels) / sizeof(panels[0]); i++)
		height += PANEL_HEAD + panel_body(&panels[i], rows, n, nruns) + PANEL_FOOT;
	svg_open(out, height);
	double y = legend(out, runs, nruns, title);
	for (size_t i = 0; i < sizeof(panels) / sizeof(panels[0]); i++)
		y = panel_draw(out, &panels[i], rows, n, nruns, y);
	fprintf(out, "<text class=\"note\" x=\"20\" y=\"%.0f\">ksmbench %s plot of %zu thread run%s</text>\n",
		height - 8, KSMBENCH_VERSION, nruns, kb_s(nruns));
	svg_close(out);
	return ferror(out) ? -1 : 0;
}
