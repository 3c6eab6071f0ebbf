/* The svg format: plot's bar chart of a results document (svg_chart.c). */
#include "kinds.h"

const struct report_format report_format_svg = { "svg", { [REPORT_PLOT] = svg_chart_render }, 0 };
