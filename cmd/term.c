/* Colour and the progress line (see term.h). */
#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int term_color(FILE *fp)
{
	const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");

	if (no_color && *no_color)
		return 0;
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(fp));
}

void progress_init(struct progress *p, const char *cmd, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->on = !quiet && isatty(STDERR_FILENO);
}

void progress_show(void *arg, const struct bench_progress *b)
{
	struct progress *p = arg;

	if (!p || !p->on)
		return;
	/* \r and erase-to-end-of-line: the line is rewritten in place. */
	if (b->note)
		fprintf(stderr, "\rksmbench %s: %s\033[K", p->cmd, b->note);
	else
		fprintf(stderr, "\rksmbench %s: %u/%u %s round %u/%u\033[K", p->cmd, b->index, b->total,
			b->hash->name, b->round, b->rounds);
	fflush(stderr);
	p->shown = 1;
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = 0;
}
