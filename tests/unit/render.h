/* Rendering a report document to a string, for the unit tests. */
#ifndef KB_TEST_RENDER_H
#define KB_TEST_RENDER_H

#include "../../report/report.h"

/* doc written in the format called name, as a string to free (NULL on
 * failure). */
char *unit_render(const char *name, const struct report_document *doc);

#endif
