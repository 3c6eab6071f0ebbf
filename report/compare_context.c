/* What makes two documents' figures comparable, field by field (see
 * compare.h): the CPU, the build, the libraries, the kernel and its page
 * size, and the core's measured capacity in each run. A field present in
 * only one document is not known to differ and is not named (version 1
 * documents lack the page size and the references). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/disturb.h"
#include "../bench/timer.h"
#include "../common/grow.h"
#include "compare.h"

static const char *const fields[] = {
	"cpu.vendor", "cpu.brand", "cpu.family", "cpu.model", "cpu.ext_family", "cpu.ext_model",
	"optimized", "sanitized", "kernel_release", "system_page_size_bytes",
};

/* The value at a dotted path under the document's context. */
static const cJSON *at(const struct loaded_doc *d, const char *path)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(d->root, "context");
	char part[64];

	while (o && *path) {
		size_t len = strcspn(path, ".");
		if (len >= sizeof(part))
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, part) : NULL;
		path += len + (path[len] == '.');
	}
	return o;
}

/* Whether a string reads as itself unquoted: not empty, and no space at
 * either end ("1" against "1 " would read "1 vs 1"). */
static int plain_string(const cJSON *v)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return 0;
	size_t n = strlen(v->valuestring);
	return !isspace((unsigned char)v->valuestring[0]) && !isspace((unsigned char)v->valuestring[n - 1]);
}

/* A value as text, cut to fit, control characters replaced: it is printed
 * on terminals and in Markdown. A string as it is (as an alias's
 * implementation is given) where that cannot be mistaken: beside another
 * string (1 against "1" would read "1 vs 1"), both plain (above); anything
 * else as JSON. */
static void text_of(const cJSON *v, const cJSON *other, char *buf, size_t size)
{
	if (plain_string(v) && plain_string(other)) {
		snprintf(buf, size, "%s", v->valuestring);
		return;
	}
	char *t = cJSON_PrintUnformatted(v);
	snprintf(buf, size, "%s", t ? t : "?");
	free(t);
}

static void scrub(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void compare_mismatch_add(struct compare_outcome *out, const char *field, const char *base, const char *new_)
{
	struct compare_mismatch *m;

	if (out->nmismatches >= COMPARE_MISMATCHES_MAX)
		return;
	m = &out->mismatches[out->nmismatches++];
	snprintf(m->field, sizeof(m->field), "%s", field);
	snprintf(m->base, sizeof(m->base), "%s", base);
	snprintf(m->new_, sizeof(m->new_), "%s", new_);
	scrub(m->field);
	scrub(m->base);
	scrub(m->new_);
}

/* Whether two values are alike. Scalars as cJSON_Compare has them; an
 * array or an object (which no field compared should be, but a library's
 * version is not checked when read) by its text, since cJSON_Compare looks
 * each member of an object up in the other: quadratic in its members, and a
 * document's object of 500000 members took compare most of an hour. */
static int values_alike(const cJSON *x, const cJSON *y)
{
	if (!cJSON_IsArray(x) && !cJSON_IsObject(x) && !cJSON_IsArray(y) && !cJSON_IsObject(y))
		return cJSON_Compare(x, y, 1);
	if ((x->type & 0xff) != (y->type & 0xff))
		return 0;
	char *tx = cJSON_PrintUnformatted(x), *ty = cJSON_PrintUnformatted(y);
	int alike = tx && ty && strcmp(tx, ty) == 0;
	free(tx);
	free(ty);
	return alike;
}

/* x (base) and y (new), the values of the context's field (its dotted
 * path), named where they differ. */
static void compare_values(const char *path, const cJSON *x, const cJSON *y, struct compare_outcome *out)
{
	char field[96], tx[100], ty[100];

	if (!x || !y || values_alike(x, y))
		return;
	snprintf(field, sizeof(field), "context.%s", path);
	text_of(x, y, tx, sizeof(tx));
	text_of(y, x, ty, sizeof(ty));
	compare_mismatch_add(out, field, tx, ty);
}

static void compare_field(const struct loaded_doc *a, const struct loaded_doc *b, const char *path,
			  struct compare_outcome *out)
{
	compare_values(path, at(a, path), at(b, path), out);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* Every library the base names that the new one names too. Looked up by
 * name in the libraries object itself, not by a dotted path ("xxhash.h",
 * the header the XXH3 builds were compiled from, read as the member "h" of
 * "xxhash", went unnamed), and through the new run's names sorted: a
 * search of the object per library made two documents of 100000 libraries
 * take 45 s, and the 10^6 values a document may hold over an hour. */
static void compare_libraries(const struct loaded_doc *base, const struct loaded_doc *new_,
			      struct compare_outcome *out)
{
	const cJSON *a = at(base, "libraries"), *b = at(new_, "libraries"), *lib;
	size_t n = 0;

	if (!cJSON_IsObject(a) || !cJSON_IsObject(b))
		return;
	cJSON_ArrayForEach(lib, b)
		n++;
	const cJSON **names = malloc((n + 1) * sizeof(*names));
	if (!names) {
		compare_mismatch_add(out, "context.libraries (not compared: out of memory)", "?", "?");
		return;
	}
	n = 0;
	cJSON_ArrayForEach(lib, b)
		if (lib->string) /* every member of an object has its name */
			names[n++] = lib;
	qsort(names, n, sizeof(*names), by_name);
	cJSON_ArrayForEach(lib, a) {
		char path[96];
		if (!lib->string || strlen(lib->string) > 60)
			continue;
		const cJSON key = { .string = lib->string }, *k = &key;
		const cJSON **hit = bsearch(&k, names, n, sizeof(*names), by_name);
		snprintf(path, sizeof(path), "libraries.%s", lib->string);
		if (hit)
			compare_values(path, lib, *hit, out);
	}
	free(names);
}

static double number_at(const struct loaded_doc *d, const char *path)
{
	const cJSON *v = at(d, path);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* A document's disturbance threshold (a share) at path under context, or
 * fallback (this build's) where it names none. */
static double threshold_at(const struct loaded_doc *d, const char *path, double fallback)
{
	double t = number_at(d, path);

	return t > 0 && t < 1 ? t : fallback;
}

/* A round's field, over its field per where per is not NULL; -1 where
 * either is missing or not a finite number >= 0 (> 0 for per). */
static double round_value(const cJSON *round, const char *field, const char *per)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(round, field);
	const cJSON *u = per ? cJSON_GetObjectItemCaseSensitive(round, per) : NULL;

	if (!cJSON_IsNumber(t) || !(t->valuedouble >= 0 && isfinite(t->valuedouble)))
		return -1;
	if (!per)
		return t->valuedouble;
	return cJSON_IsNumber(u) && u->valuedouble > 0 && isfinite(u->valuedouble) ? t->valuedouble / u->valuedouble
										   : -1;
}

/* A round field (over another, per, where that is not NULL) over every
 * result's rounds (when kept_only, those neither marked disturbed nor
 * asleep: the ksmd timer's rounds wake to a slower core on purpose and are
 * not judged by it, bench/disturb.c), into *n values (malloc'd; free
 * them); NULL where the document has no such rounds (version 1, or
 * written without them) or memory runs out. */
static double *rounds_values(const struct loaded_doc *d, const char *field, const char *per, int kept_only,
			     size_t *n)
{
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(d->root, "results"), *r, *x;
	double *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!cJSON_IsArray(results))
		return NULL;
	cJSON_ArrayForEach(r, results)
	{
		const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(r, "rounds");
		if (!cJSON_IsArray(rounds))
			continue;
		cJSON_ArrayForEach(x, rounds)
		{
			double value = round_value(x, field, per);
			int disturbed = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(x, "disturbed"));
			const cJSON *slept = cJSON_GetObjectItemCaseSensitive(x, "slept_ns");
			if ((kept_only && (disturbed || (cJSON_IsNumber(slept) && slept->valuedouble > 0))) || value < 0)
				continue;
			double *g = kb_grow(v, &cap, *n + 1, sizeof(*v), 256);
			if (!g) {
				free(v);
				*n = 0;
				return NULL;
			}
			v = g;
			v[(*n)++] = value;
		}
	}
	return v;
}

/* Their median; NAN where there are none. */
static double rounds_median(const struct loaded_doc *d, const char *field, const char *per, int kept_only)
{
	size_t n;
	double *v = rounds_values(d, field, per, kept_only, &n), m = n > 0 ? bench_median(v, n) : NAN;

	free(v);
	return m;
}

/* Why a run's core measured lower, from what its rounds saw of this
 * machine's other CPUs: busy in most rounds (other work ran here, which a
 * user can stop), idle in every round (the core was shared from outside: a
 * VM's host, or its clock was lower), busy in some (both: those rounds are
 * left out as disturbed, so the lower figure came from the idle ones), or
 * unknown. The median alone called a run with other work in 40% of its
 * rounds idle. */
static void core_origin(const struct loaded_doc *slower, const char *which, char *buf, size_t size)
{
	size_t n, busy = 0;
	double *v = rounds_values(slower, "other_cpus_busy_share", NULL, 0, &n);
	double t = threshold_at(slower, "disturbance_thresholds.other_cpus_busy_share", disturb_default.busy_share);

	for (size_t i = 0; i < n; i++)
		busy += v[i] > t;
	double median = n > 0 ? bench_median(v, n) : NAN;
	free(v);
	if (n == 0)
		snprintf(buf, size, "the %s run's is lower: it ran on a shared or slower core", which);
	else if (median > t)
		snprintf(buf, size,
			 "the %s run's is lower, with this machine's other CPUs %.0f%% busy: other work ran "
			 "beside it",
			 which, median * 100);
	else if (busy == 0)
		snprintf(buf, size,
			 "the %s run's is lower, with this machine's other CPUs idle (%.0f%% busy): its core was "
			 "shared from outside this machine (a VM's host) or ran at a lower clock",
			 which, median * 100);
	else
		snprintf(buf, size,
			 "the %s run's is lower: other work ran on this machine's other CPUs in %zu of its %zu "
			 "rounds (left out as disturbed), and with them idle its core was shared from outside "
			 "this machine (a VM's host) or ran at a lower clock",
			 which, busy, n);
}

/* Two runs' measures of the core, x (base) and y (new), more than the
 * share t apart: the field named, and (first such) the reason every change
 * beyond the threshold is inconclusive, with where the slower run's
 * shortfall came from. */
static void name_core_difference(struct compare_outcome *out, const struct loaded_doc *base,
				 const struct loaded_doc *new_, const char *field, const char *what, const char *unit,
				 double x, double y, double t)
{
	char tx[32], ty[32], origin[256];

	if (!(x > 0 && y > 0) || fmin(x, y) >= (1 - t) * fmax(x, y))
		return;
	snprintf(tx, sizeof(tx), "%.4g", x);
	snprintf(ty, sizeof(ty), "%.4g", y);
	compare_mismatch_add(out, field, tx, ty);
	if (out->runs_differ[0])
		return;
	core_origin(y < x ? new_ : base, y < x ? "new" : "base", origin, sizeof(origin));
	snprintf(out->runs_differ, sizeof(out->runs_differ), "%s differs between the runs (%.4g vs %.4g %s, more than %.0f%% apart): %s",
		 what, x, y, unit, t * 100, origin);
}

/* A run whose every round met a busy SMT sibling (outside the machine: a
 * VM's host) or a lower clock has a lower reference, and within it nothing
 * looks disturbed, since the rounds are judged against the run's own
 * levels (docs/measurement.md). Between two runs the references tell: on one VM
 * five runs' throughput references stayed within 1.5%, while a plain
 * ksmbench whose vector figures all read 25-30% low had 44.8 additions a ns
 * against 54.4. */
static void compare_core_references(const struct loaded_doc *base, const struct loaded_doc *new_,
				    struct compare_outcome *out)
{
	const struct {
		const char *path, *threshold, *what, *unit;
		double fallback; /* where the base names no threshold: this build's */
		int clock;       /* no reason where the clocks are taken out (compare_clocks) */
	} refs[] = {
		{ "reference_throughput_adds_per_ns", "disturbance_thresholds.throughput_drop_share",
		  "the core's throughput reference", "additions/ns", disturb_default.throughput_drop, 0 },
		{ "reference_clock_hz", "disturbance_thresholds.clock_drop_share", "the core clock", "Hz",
		  disturb_default.clock_drop, 1 },
	};

	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		if (refs[i].clock && out->clock_factor != 1)
			continue;
		double x = number_at(base, refs[i].path), y = number_at(new_, refs[i].path);
		double t = threshold_at(base, refs[i].threshold, refs[i].fallback);
		char field[96];

		snprintf(field, sizeof(field), "context.%s", refs[i].path);
		name_core_difference(out, base, new_, field, refs[i].what, refs[i].unit, x, y, t);
	}
}

/* The reference is each result's own 90th percentile, within 0.75-1 times
 * the run's: a sibling busy through most but not all of a run leaves it,
 * and the rounds more than the disturbance threshold below it are left
 * out, but the rounds kept can still have run
 * on a core shared enough to cost a vector hash 10-20%. Between two runs
 * the median throughput of the rounds kept tells: on the Zen 5 VM
 * (2026-12-03) three back-to-back `bench -H all` runs had references of
 * 52.7, 45.9 and 51.8 additions a ns and kept-round medians of 51.9, 42.9
 * and 47.3; the second and third read 6-30% lower for every hash, scalar
 * jhash2 too, and compare called 25 and 6 of 26 results regressions. A
 * difference beyond the compare threshold itself makes a change of that
 * size unattributable. */
static void compare_kept_rounds(const struct loaded_doc *base, const struct loaded_doc *new_, double share,
				struct compare_outcome *out)
{
	if (!(share > 0 && share < 1))
		return;
	/* Judged per cycle, the core's share is told per cycle too: a clock
	 * moves the additions per ns, a shared core the additions per cycle. */
	int cycles = out->clock_factor != 1;
	const char *per = cycles ? "effective_clock_hz" : NULL;
	double scale = cycles ? 1e9 : 1;
	name_core_difference(out, base, new_,
			     cycles ? "rounds.core_throughput_adds_per_ns per effective_clock_hz (median of the "
				      "rounds kept)"
				    : "rounds.core_throughput_adds_per_ns (median of the rounds kept)",
			     cycles ? "the core's throughput per cycle over the rounds kept"
				    : "the core's throughput over the rounds kept",
			     cycles ? "additions/cycle" : "additions/ns",
			     scale * rounds_median(base, "core_throughput_adds_per_ns", per, 1),
			     scale * rounds_median(new_, "core_throughput_adds_per_ns", per, 1), share);
}

/* The runs' core clocks over their rounds kept, and whether the new run's
 * rates are judged per cycle. The host's frequency moves between runs, and
 * every rate with it: three back-to-back `bench -H all` runs on a quiet Zen
 * 5 VM (2026-12-04) kept rounds at 3.69, 3.61 and 3.50 GHz, and every hash,
 * scalar jhash2 as well as the vector ones, read 2.5-5.8% lower from the
 * first to the last, while their bytes per cycle stayed within 1.1%.
 * A clock is taken out only as far as the core's throughput reference
 * allows (15%: the additions a ns move with the clock); further apart the
 * clock is named and changes are inconclusive. The reference alone bounded
 * it, and a document without one whose rounds said 1 MHz against 3.7 GHz
 * made equal rates an improvement of 369900%. */
static void compare_clocks(const struct loaded_doc *base, const struct loaded_doc *new_,
			   struct compare_outcome *out)
{
	double x = rounds_median(base, "effective_clock_hz", NULL, 1);
	double y = rounds_median(new_, "effective_clock_hz", NULL, 1);
	/* This build's bound, or the base's where lower: a document cannot
	 * widen it (a share of 0.9999 would take out any clock). */
	double t = fmin(disturb_default.throughput_drop,
			threshold_at(base, "disturbance_thresholds.throughput_drop_share", 1));
	int same_cpu = 1;

	/* Between two kinds of CPU the clock is part of what is compared. */
	for (size_t i = 0; i < out->nmismatches; i++)
		same_cpu &= strncmp(out->mismatches[i].field, "context.cpu.", 12) != 0;
	out->clock_base_hz = x;
	out->clock_new_hz = y;
	out->clock_factor = 1;
	if (!(same_cpu && x > 0 && y > 0 && fabs(y / x - 1) > COMPARE_CLOCK_SHARE))
		return;
	if (fmin(x, y) >= (1 - t) * fmax(x, y))
		out->clock_factor = y / x;
	else
		name_core_difference(out, base, new_, "rounds.effective_clock_hz (median of the rounds kept)",
				     "the core clock over the rounds kept", "Hz", x, y, t);
}

void compare_contexts(const struct loaded_doc *base, const struct loaded_doc *new_, double threshold_share,
		      struct compare_outcome *out)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		compare_field(base, new_, fields[i], out);
	compare_clocks(base, new_, out);
	compare_core_references(base, new_, out);
	compare_kept_rounds(base, new_, threshold_share, out);
	compare_libraries(base, new_, out);
}
