/* Inconclusive pairs' reasons, clause by clause (see compare_reasons.h). */
#include "compare_reasons.h"

#include <stdio.h>
#include <string.h>

static const char *const labels[3] = { "", "base unstable: ", "new unstable: " };

/* why's clauses: split at the "; " outside parentheses (a clause's own
 * details may hold one), each side's first clause carrying its label. */
static size_t clauses_of(const char *why, struct compare_clause *c, size_t max)
{
	const char *start = why;
	size_t n = 0;
	int side = 0, depth = 0;

	for (const char *p = why;; p++) {
		depth += *p == '(' ? 1 : *p == ')' && depth ? -1 : 0;
		if (*p && !(depth == 0 && p[0] == ';' && p[1] == ' '))
			continue;
		for (int s = 1; s <= 2; s++)
			if (strncmp(start, labels[s], strlen(labels[s])) == 0) {
				side = s;
				start += strlen(labels[s]);
			}
		if (n < max && p > start)
			c[n++] = (struct compare_clause){ start, (size_t)(p - start), side };
		if (!*p)
			break;
		start = ++p + 1;
	}
	return n;
}

static int same_clause(const struct compare_clause *a, const struct compare_clause *b)
{
	return a->side == b->side && a->len == b->len && memcmp(a->at, b->at, a->len) == 0;
}

static int in(const struct compare_clause *k, const struct compare_clause *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (same_clause(k, &c[i]))
			return 1;
	return 0;
}

size_t compare_common_clauses(const struct compare_outcome *o, struct compare_clause *common, size_t max)
{
	struct compare_clause c[COMPARE_CLAUSES_MAX];
	const char *first = NULL;
	size_t n = 0, inconclusive = 0;

	for (size_t i = 0; i < o->npairs; i++)
		if (o->pairs[i].verdict == VERDICT_INCONCLUSIVE && !inconclusive++)
			first = o->pairs[i].why;
	if (inconclusive < 2)
		return 0;
	n = clauses_of(first, common, max);
	for (size_t i = 0; i < o->npairs && n; i++) {
		if (o->pairs[i].verdict != VERDICT_INCONCLUSIVE)
			continue;
		size_t m = clauses_of(o->pairs[i].why, c, COMPARE_CLAUSES_MAX), kept = 0;
		for (size_t k = 0; k < n; k++)
			if (in(&common[k], c, m))
				common[kept++] = common[k];
		n = kept;
	}
	return n;
}

/* The clauses c[0..n) but those in skip[0..nskip), each side's label
 * before its first. */
static void join(const struct compare_clause *c, size_t n, const struct compare_clause *skip, size_t nskip, char *buf,
		 size_t size)
{
	size_t used = 0;
	int said = -1;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		if (in(&c[i], skip, nskip))
			continue;
		used += (size_t)snprintf(buf + used, size - used, "%s%s%.*s", used ? "; " : "",
					 c[i].side != said ? labels[c[i].side] : "", (int)c[i].len, c[i].at);
		said = c[i].side;
	}
}

void compare_clauses_text(const struct compare_clause *c, size_t n, char *buf, size_t size)
{
	join(c, n, NULL, 0, buf, size);
}

void compare_why_without(const char *why, const struct compare_clause *common, size_t n, char *buf, size_t size)
{
	struct compare_clause c[COMPARE_CLAUSES_MAX];

	join(c, clauses_of(why, c, COMPARE_CLAUSES_MAX), common, n, buf, size);
}
