/* What a measuring process tells the ksmbench that started it, one line
 * per message on a pipe (cmd/workers.c): text, so that a line can be
 * checked field by field, numbers printed exactly (%.17g).
 *   ksmbench-worker 1 MEASUREMENTS PROCESS
 *   set M SET_PAGES WORKING_SET_BYTES
 *   note STEP                               (a step's set is being built)
 *   progress M ROUND ROUNDS SLOT SLOTS      (before each turn, when asked)
 *   round M <the bench_round's figures>
 *   end SIGNAL                              (0, or the signal that stopped it)
 * Anything else, or a figure out of range, is an error naming the line.
 * The reader (cmd/workers.c) also wants each measurement's rounds in
 * order, each once, and all of them unless the end line names a signal. */
#ifndef KB_WIRE_H
#define KB_WIRE_H

#include <stdio.h>

#include "../common/err.h"
#include "bench.h"

#define WIRE_LINE_MAX 1024

enum wire_kind { WIRE_HEADER, WIRE_SET, WIRE_NOTE, WIRE_PROGRESS, WIRE_ROUND, WIRE_END };

struct wire_msg {
	enum wire_kind kind;
	unsigned m;                          /* set, progress, round: the measurement */
	unsigned measurements, process;      /* header */
	uint64_t set_pages, working_set_bytes;
	unsigned step;                       /* note, from 0 */
	unsigned round, rounds, slot, slots; /* progress, from 1 */
	int signo;                           /* end */
	struct bench_round r;                /* round */
};

int wire_write_header(FILE *out, unsigned measurements, unsigned process);
int wire_write_set(FILE *out, unsigned m, uint64_t set_pages, uint64_t working_set_bytes);
int wire_write_note(FILE *out, unsigned step);
int wire_write_progress(FILE *out, unsigned m, unsigned round, unsigned rounds, unsigned slot, unsigned slots);
int wire_write_round(FILE *out, unsigned m, const struct bench_round *r);
int wire_write_end(FILE *out, int signo);

/* One line (without its newline) into msg; measurements bounds m, steps
 * bounds a note's step. -1 with err naming what is wrong. */
int wire_parse(const char *line, unsigned measurements, unsigned steps, struct wire_msg *msg, struct kb_err *err);

#endif
