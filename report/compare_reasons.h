/* The reasons of inconclusive pairs, clause by clause: a reason reads
 * "base unstable: c1; c2; new unstable: c3" (report/compare.c), and a
 * clause every inconclusive pair has (a run's share of disturbed rounds,
 * which marks each of its results) is said once by the report, the rest per
 * pair. */
#ifndef KB_COMPARE_REASONS_H
#define KB_COMPARE_REASONS_H

#include <stddef.h>

#include "compare.h"

#define COMPARE_CLAUSES_MAX 32 /* a reason has ten at most: five kinds a side */

struct compare_clause {
	const char *at; /* into a pair's why: not NUL-terminated */
	size_t len;
	int side; /* 0: of both runs, 1: the base's, 2: the new run's */
};

/* The clauses every inconclusive pair of o has, when two or more are (at
 * most max, pointing into the first one's why); 0 otherwise. */
size_t compare_common_clauses(const struct compare_outcome *o, struct compare_clause *common, size_t max);

/* The clauses c[0..n) as a reason: "; "-separated, each side's label
 * before its first. */
void compare_clauses_text(const struct compare_clause *c, size_t n, char *buf, size_t size);

/* why without the clauses common[0..n), its sides labelled again; "" when
 * nothing is left. */
void compare_why_without(const char *why, const struct compare_clause *common, size_t n, char *buf, size_t size);

#endif
