/* The pieces every plot chart is drawn with (svg_draw.c): the document's
 * head (style, the hatch pattern published figures are filled with, a white
 * background), escaped text, a labelled axis with round ticks, bar colours
 * (by hash family, or by run when runs stand side by side) and legend
 * entries. Coordinates are pixels. */
#ifndef KB_SVG_DRAW_H
#define KB_SVG_DRAW_H

#include <stdio.h>

#define SVG_WIDTH 960
#define SVG_HATCH "url(#hatch)" /* the fill of a published figure's bar */

/* The head of a width x height chart; svg_close ends it. */
void svg_open(FILE *out, double height);
void svg_close(FILE *out);

/* A foreign string (a document's) as XML text or attribute value (escape.h). */
void svg_put(FILE *out, const char *s);
/* <text class=cls x y text-anchor=anchor>s</text>, s escaped; anchor NULL: start. */
void svg_text(FILE *out, const char *cls, double x, double y, const char *anchor, const char *s);

/* The chart's title at its top left, escaped; one too long for the chart's
 * width is squeezed across to fit it (a transform) rather than cut at the edge. */
void svg_title(FILE *out, const char *s);

/* A round step for about five ticks up to max: 1, 2 or 5 times 10^k, and
 * the axis maximum it gives (a whole number of steps, at least max). */
double svg_nice_step(double max);
double svg_axis_top(double max, double step);

/* A chart's frame from y0 to y1: gridlines, the axis at both ends, and
 * axis_title (escaped) under the lower one. */
void svg_frame(FILE *out, double x0, double x1, double y0, double y1, double step, double top,
	       const char *axis_title);

/* A colour per hash family, so related implementations read together. */
const char *svg_family_color(const char *hash);
/* The colour of run i of several side by side. */
const char *svg_run_color(size_t i);

/* A legend entry at (x, y): a swatch of fill, then label (escaped). */
void svg_legend_entry(FILE *out, double x, double y, const char *fill, const char *label);

#endif
