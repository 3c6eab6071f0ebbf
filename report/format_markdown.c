/* The markdown format: the tables as GitHub-flavoured Markdown for a
 * review or a pull request comment, the context in a line above, warnings
 * and notes as a list below. */
#include "kinds.h"

static int bench_markdown(FILE *out, const struct report_document *doc)
{
	return bench_report_text(out, doc, REPORT_MARKDOWN);
}

static int thread_markdown(FILE *out, const struct report_document *doc)
{
	return thread_report_text(out, doc, REPORT_MARKDOWN);
}

static int selfcheck_markdown(FILE *out, const struct report_document *doc)
{
	return selfcheck_report_text(out, doc, REPORT_MARKDOWN);
}

static int compare_markdown(FILE *out, const struct report_document *doc)
{
	return compare_report_text(out, doc, REPORT_MARKDOWN);
}

const struct report_format report_format_markdown = {
	"markdown",
	{
		[REPORT_BENCH] = bench_markdown,
		[REPORT_THREAD] = thread_markdown,
		[REPORT_SELECT] = select_report_markdown,
		[REPORT_COMPARE] = compare_markdown,
		[REPORT_SELFCHECK] = selfcheck_markdown,
	},
	0,
};
