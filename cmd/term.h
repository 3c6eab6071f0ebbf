/* Terminal niceties of the command line: colour and a progress line, each
 * only where a person watches (a terminal), never in pipes, files or CI
 * logs, and colour never when NO_COLOR is set (https://no-color.org). */
#ifndef KB_TERM_H
#define KB_TERM_H

#include <stdio.h>

#include "../bench/run.h"

/* Whether to colour what goes to fp: a terminal, NO_COLOR unset or empty,
 * TERM not "dumb". */
int term_color(FILE *fp);

/* The width text for fp should fit: on a terminal, COLUMNS when it is a
 * whole number from TERM_COLUMNS_MIN to TERM_COLUMNS_MAX (digits alone),
 * else the terminal's own width; 0 (the report's default, 100) when fp is
 * no terminal or neither is known. */
unsigned term_columns(FILE *fp);

#define TERM_COLUMNS_MIN 40u
#define TERM_COLUMNS_MAX 10000u

/* One line on stderr, rewritten in place: "ksmbench thread: process 2/5,
 * round 1/2, 9/14 ksmd ns/page: xxh64" (the process when there are
 * several, the measurement's turn in the round, the step's name when it
 * has one), or a step's note ("building the cold working set"). Off unless
 * stderr is a terminal, and with --quiet. */
struct progress {
	int on, shown;
	const char *cmd;
};

void progress_init(struct progress *p, const char *cmd, int quiet);
/* The run's progress callback (bench/run.h): arg is the struct progress. */
void progress_show(void *arg, const struct bench_progress *b);
/* Erases the line (before anything else is written to the terminal). */
void progress_clear(struct progress *p);

#endif
