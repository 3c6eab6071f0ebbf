/* Colour and the progress line (see term.h). */
#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

unsigned term_columns(FILE *fp)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (!isatty(fileno(fp)))
		return 0;
	/* Digits alone, as the man page has it: strtoul also took " 72" and
	 * "+72", where "72 " was ignored. */
	if (env && *env && strspn(env, "0123456789") == strlen(env) && strlen(env) <= 5) {
		unsigned long n = strtoul(env, NULL, 10);
		if (n >= TERM_COLUMNS_MIN && n <= TERM_COLUMNS_MAX)
			return (unsigned)n;
	}
	if (ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= TERM_COLUMNS_MIN)
		return ws.ws_col;
	return 0;
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
	fprintf(stderr, "\rksmbench %s: ", p->cmd);
	if (b->processes > 1)
		fprintf(stderr, "process %u/%u, ", b->process, b->processes);
	if (b->note)
		fprintf(stderr, "%s\033[K", b->note);
	else
		fprintf(stderr, "round %u/%u, %u/%u %s%s%s\033[K", b->round, b->rounds, b->slot, b->slots,
			b->step_name ? b->step_name : "", b->step_name ? ": " : "", b->hash->name);
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
