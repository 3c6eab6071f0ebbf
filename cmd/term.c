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

void progress_round(void *arg, const struct hash_impl *h, unsigned round, unsigned rounds)
{
	struct progress *p = arg;

	if (!p || !p->on)
		return;
	/* \r and erase-to-end-of-line: the line is rewritten in place. */
	fprintf(stderr, "\rksmbench %s: %u/%u %s round %u/%u\033[K", p->cmd, p->index, p->total, h->name,
		round + 1, rounds);
	fflush(stderr);
	p->shown = 1;
}

void progress_note(struct progress *p, const char *text)
{
	if (!p->on)
		return;
	fprintf(stderr, "\rksmbench %s: %s\033[K", p->cmd, text);
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
