/* Drawing primitives of plot's charts (see svg_draw.h). */
#include "svg_draw.h"

#include <math.h>
#include <string.h>

#include "escape.h"

void svg_open(FILE *out, double height)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		     "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
		SVG_WIDTH, height, SVG_WIDTH, height);
	fputs("<style>.tick{font-size:11px;fill:#333}.value{font-size:11px;fill:#222}"
	      ".label{fill:#111}.group{font-weight:bold;fill:#111}.note{font-size:11px;fill:#555}"
	      ".panel{font-size:14px;font-weight:bold;fill:#111}.legend{font-size:11px;fill:#222}"
	      ".title{font-size:17px;font-weight:bold}</style>\n",
	      out);
	/* Diagonal stripes: a published figure reads apart from a measured one
	 * in grey print too. */
	fputs("<defs><pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
	      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/>"
	      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#555\" stroke-width=\"2.5\"/></pattern></defs>\n",
	      out);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
}

void svg_close(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_put(FILE *out, const char *s)
{
	escape_put(out, s, ESCAPE_XML);
}

void svg_text(FILE *out, const char *cls, double x, double y, const char *anchor, const char *s)
{
	fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\"%s%s%s>", cls, x, y, anchor ? " text-anchor=\"" : "",
		anchor ? anchor : "", anchor ? "\"" : "");
	svg_put(out, s);
	fputs("</text>\n", out);
}

/* About 0.65 em a character in DejaVu Sans Bold at the title's 17 px: an
 * estimate, erring wide, of where a title would meet the right edge. */
#define SVG_TITLE_EM_PER_CHAR 0.65
#define SVG_TITLE_PX 17.0

void svg_title(FILE *out, const char *s)
{
	double room = SVG_WIDTH - 40, chars = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		chars += (*p & 0xC0) != 0x80; /* UTF-8: count code points, not bytes */
	double width = chars * SVG_TITLE_PX * SVG_TITLE_EM_PER_CHAR;
	if (width <= room) {
		svg_text(out, "title", 20, 26, NULL, s);
		return;
	}
	/* A longer --title ran off the chart and was cut: squeezed across to
	 * the width, not lost. A transform, not textLength, which librsvg
	 * (rsvg-convert) ignores. */
	fprintf(out, "<text class=\"title\" x=\"0\" y=\"0\" transform=\"translate(20 26) scale(%.4f 1)\">",
		room / width);
	svg_put(out, s);
	fputs("</text>\n", out);
}

double svg_nice_step(double max)
{
	double raw = (max > 0 ? max : 1) / 5, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

double svg_axis_top(double max, double step)
{
	return ceil((max > 0 ? max : 1) / step) * step;
}

/* An axis from x0 (0) to x1 (top) at height y, a tick every step, the tick
 * labels above the line or below it. */
static void svg_axis(FILE *out, double x0, double x1, double y, double step, double top, int labels_above)
{
	double scale = (x1 - x0) / top;

	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x0, y,
		x1, y);
	for (double v = 0; v <= top + step / 2; v += step) {
		double x = x0 + v * scale;
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x, y, x,
			labels_above ? y - 4 : y + 4);
		fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
			labels_above ? y - 7 : y + 16, v);
	}
}

/* The gridlines of that axis from y0 to y1. */
static void svg_grid(FILE *out, double x0, double x1, double y0, double y1, double step, double top)
{
	double scale = (x1 - x0) / top;

	for (double v = step; v <= top + step / 2; v += step)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			x0 + v * scale, y0, x0 + v * scale, y1);
}

void svg_frame(FILE *out, double x0, double x1, double y0, double y1, double step, double top,
	       const char *axis_title)
{
	svg_grid(out, x0, x1, y0, y1, step, top);
	svg_axis(out, x0, x1, y0, step, top, 1);
	svg_axis(out, x0, x1, y1, step, top, 0);
	svg_text(out, "axis-title", (x0 + x1) / 2, y1 + 34, "middle", axis_title);
}

const char *svg_family_color(const char *hash)
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

const char *svg_run_color(size_t i)
{
	static const char *const colors[] = { "#3b6fb6", "#e07b24", "#4a9a5b", "#b23a48",
					      "#7b5ea7", "#17a2b8", "#8c564b", "#c9a227" };

	return colors[i % (sizeof(colors) / sizeof(colors[0]))];
}

void svg_legend_entry(FILE *out, double x, double y, const char *fill, const char *label)
{
	fprintf(out, "<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"11\" fill=\"%s\" "
		     "stroke=\"#555\" stroke-width=\"0.5\"/>\n",
		x, y - 10, fill);
	svg_text(out, "legend", x + 24, y, NULL, label);
}
