/* Reading records back (see record_load.h). Numbers must be finite and not
 * negative (every quantity read back is a size, a count, a rate or a time)
 * and within the field's range (record.h); an integer field must hold an
 * integer a double represents exactly, so every cast from it is defined.
 * An array holds at most RECORD_LOAD_MAX_ITEMS elements. */
#include "record_load.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct load {
	const char *path, *what;
	struct kb_err *err;
};

static int fail(const struct load *ld, const char *name, const char *problem)
{
	return kb_fail(ld->err, "%s: %s%s\"%s\" %s", ld->path, ld->what ? ld->what : "", ld->what ? ": " : "",
		       name, problem);
}

static const struct record_range uint_range = { 0, 9007199254740992.0, 0 }, real_range = { 0, DBL_MAX, 0 };

static const struct record_range *range_of(const struct record_field *f)
{
	return f->range ? f->range : f->type == RECORD_UINT || f->type == RECORD_INT ? &uint_range : &real_range;
}

/* A number in range (NaN fails every comparison). */
static int number_ok(const cJSON *x, const struct record_field *f)
{
	const struct record_range *r = range_of(f);

	return cJSON_IsNumber(x) && ((x->valuedouble >= r->min && x->valuedouble <= r->max) ||
				     (r->or_zero && x->valuedouble == 0)) &&
	       ((f->type != RECORD_UINT && f->type != RECORD_INT) || x->valuedouble == floor(x->valuedouble));
}

/* What a number must be: "not an integer >= 0", or "not a number from A to B"
 * when the field has a range of its own. index: the element of an array. */
static int fail_number(const struct load *ld, const struct record_field *f, const char *index)
{
	const char *kind = f->type == RECORD_UINT || f->type == RECORD_INT ? "an integer" : "a number";
	char problem[128];

	if (f->range)
		snprintf(problem, sizeof(problem), "not %s%s from %.6g to %.6g", f->range->or_zero ? "0 or " : "",
			 kind, f->range->min, f->range->max);
	else
		snprintf(problem, sizeof(problem), "not %s >= 0", kind);
	if (index)
		return kb_fail(ld->err, "%s: %s%s%s[%s] is %s", ld->path, ld->what ? ld->what : "",
			       ld->what ? ": " : "", f->name, index, problem);
	return kb_fail(ld->err, "%s: %s%s\"%s\" is missing or %s", ld->path, ld->what ? ld->what : "",
		       ld->what ? ": " : "", f->name, problem);
}

/* An array longer than RECORD_LOAD_MAX_ITEMS is refused before it is read. */
static int check_count(const struct record_field *f, const cJSON *x, const struct load *ld)
{
	if (cJSON_GetArraySize(x) > RECORD_LOAD_MAX_ITEMS)
		return kb_fail(ld->err, "%s: %s%s\"%s\" has more than %d elements", ld->path,
			       ld->what ? ld->what : "", ld->what ? ": " : "", f->name, RECORD_LOAD_MAX_ITEMS);
	return 0;
}

static int load_scalar(const struct record_field *f, const cJSON *x, char *at, const struct load *ld)
{
	switch (f->type) {
	case RECORD_STR:
		if (!cJSON_IsString(x))
			return fail(ld, f->name, "is missing or not a string");
		*(const char **)at = x->valuestring;
		return 0;
	case RECORD_UINT:
		if (!number_ok(x, f))
			return fail_number(ld, f, NULL);
		*(uint64_t *)at = (uint64_t)x->valuedouble;
		return 0;
	case RECORD_INT: /* as UINT: every quantity read back is >= 0 */
		if (!number_ok(x, f))
			return fail_number(ld, f, NULL);
		*(int64_t *)at = (int64_t)x->valuedouble;
		return 0;
	case RECORD_REAL:
		if (!number_ok(x, f))
			return fail_number(ld, f, NULL);
		*(double *)at = x->valuedouble;
		return 0;
	case RECORD_BOOL:
		if (!cJSON_IsBool(x))
			return fail(ld, f->name, "is missing or not true or false");
		*(int *)at = cJSON_IsTrue(x);
		return 0;
	default:
		return fail(ld, f->name, "cannot be read back");
	}
}

/* a NULL: each element only checked (check_field). */
static int load_reals(const struct record_field *f, const cJSON *x, struct record_array *a, const struct load *ld)
{
	if (check_count(f, x, ld))
		return -1;
	double *v = a ? malloc(((size_t)cJSON_GetArraySize(x) + 1) * sizeof(double)) : NULL;
	const cJSON *e;
	size_t n = 0;

	if (a && !v)
		return kb_fail(ld->err, "out of memory reading %s", ld->path);
	if (a)
		a->items = v;
	cJSON_ArrayForEach(e, x) {
		char index[32];
		snprintf(index, sizeof(index), "%zu", n);
		if (!number_ok(e, f))
			return fail_number(ld, f, index);
		if (v) {
			v[n] = e->valuedouble;
			a->n = n + 1;
		}
		n++;
	}
	return 0;
}

/* Element i of the array of objects f: "rounds[3]", below the top
 * "results[0].rounds[3]"; 1 (the error set) if it is not an object. */
static int object_at(const struct record_field *f, const cJSON *e, size_t i, const struct load *ld, char *what,
		     size_t size)
{
	snprintf(what, size, "%s%s%s[%zu]", ld->what ? ld->what : "", ld->what ? "." : "", f->name, i);
	if (!cJSON_IsObject(e))
		return kb_fail(ld->err, "%s: %s is not an object", ld->path, what), 1;
	return 0;
}

/* target NULL: each element only checked (check_field). */
static int load_objects(const struct record_field *f, const cJSON *x, struct record_array *a,
			const struct load *ld)
{
	if (check_count(f, x, ld))
		return -1;
	size_t size = f->sub->load_size, n = 0;
	char *items = a ? calloc((size_t)cJSON_GetArraySize(x) + 1, size) : NULL;
	const cJSON *e;

	if (a && !items)
		return kb_fail(ld->err, "out of memory reading %s", ld->path);
	if (a)
		a->items = items;
	cJSON_ArrayForEach(e, x) {
		char what[128];
		if (object_at(f, e, n, ld, what, sizeof(what)))
			return -1;
		int rc = record_load(f->sub, e, items ? items + n * size : NULL, ld->path, what, ld->err);
		n++;
		if (a)
			a->n = n;
		if (rc)
			return -1;
	}
	return 0;
}

struct walk {
	const cJSON *obj;
	const cJSON *next; /* the member after the last one found */
	char *target;
	const struct load *ld;
};

/* The member named name, searched from the one after the last found, then
 * from the start: a document ksmbench wrote holds its fields in the schema's
 * order, so each is found at the first try, where a search from the start
 * (cJSON_GetObjectItemCaseSensitive) made reading an object quadratic in its
 * fields. The first member of that name, as a search from the start finds it,
 * unless a document repeats a name; then either is as good. */
static const cJSON *member(struct walk *w, const char *name)
{
	for (const cJSON *x = w->next; x; x = x->next)
		if (x->string && strcmp(x->string, name) == 0)
			return w->next = x->next, x;
	for (const cJSON *x = w->obj->child; x && x != w->next; x = x->next)
		if (x->string && strcmp(x->string, name) == 0)
			return w->next = x->next, x;
	return NULL;
}

/* Whether x has the JSON type of a lone value of field f (an OBJECT
 * without a schema: not looked at). */
static int type_ok(const struct record_field *f, const cJSON *x)
{
	switch (f->type) {
	case RECORD_STR:
		return cJSON_IsString(x);
	case RECORD_BOOL:
		return cJSON_IsBool(x);
	case RECORD_OBJECT:
		return !f->sub || cJSON_IsObject(x);
	default:
		return cJSON_IsNumber(x);
	}
}

static const char *type_problem(const struct record_field *f)
{
	switch (f->type) {
	case RECORD_STR:
		return "is not a string";
	case RECORD_BOOL:
		return "is not true or false";
	case RECORD_OBJECT:
		return "is not an object";
	default:
		return "is not a number";
	}
}

/* Each element of the array x of field f has its type. */
static int check_elements(const struct record_field *f, const cJSON *x, const struct load *ld)
{
	const cJSON *e;
	size_t i = 0;

	if (check_count(f, x, ld))
		return -1;
	cJSON_ArrayForEach(e, x) {
		if (!type_ok(f, e))
			return kb_fail(ld->err, "%s: %s%s%s[%zu] %s", ld->path, ld->what ? ld->what : "",
				       ld->what ? ": " : "", f->name, i, type_problem(f));
		i++;
	}
	return 0;
}

/* A field read but not kept: where present, of its type (a string where
 * the field is one: a number in context.kernel_release was taken as no
 * release, and compare's warning that the runs' kernels differ went
 * silent), a number (or each element) in its range, and an array of
 * objects element by element, so that what a reader takes from the JSON
 * itself (compare's rounds) was in range too. */
static int check_field(const struct record_field *f, struct walk *w)
{
	const cJSON *x = f->type == RECORD_MAP ? NULL : member(w, f->name);

	if (!x || cJSON_IsNull(x))
		return 0;
	if (f->count && !cJSON_IsArray(x))
		return fail(w->ld, f->name, "is not an array");
	if (f->count && f->type == RECORD_OBJECT && f->sub)
		return load_objects(f, x, NULL, w->ld);
	if (f->count && f->range)
		return load_reals(f, x, NULL, w->ld);
	if (f->count)
		return check_elements(f, x, w->ld);
	int number = f->type == RECORD_REAL || f->type == RECORD_UINT || f->type == RECORD_INT;
	if (number && f->range)
		return number_ok(x, f) ? 0 : fail_number(w->ld, f, NULL);
	return type_ok(f, x) ? 0 : fail(w->ld, f->name, type_problem(f));
}

static int load_field(const struct record_field *f, void *arg)
{
	struct walk *w = arg;

	if (!f->load || !w->target)
		return check_field(f, w);
	const cJSON *x = member(w, f->name);
	char *at = w->target + f->load - 1;
	if ((!x || cJSON_IsNull(x)) && !(f->flags & RECORD_REQUIRED))
		return 0;
	if (f->count && !cJSON_IsArray(x))
		return fail(w->ld, f->name, "is missing or not an array");
	if (f->count)
		return f->type == RECORD_OBJECT ? load_objects(f, x, (struct record_array *)at, w->ld)
						: load_reals(f, x, (struct record_array *)at, w->ld);
	if (f->type == RECORD_OBJECT) {
		if (!x || !cJSON_IsObject(x))
			return fail(w->ld, f->name, "is missing or not an object");
		char what[128]; /* "context", "results[0].context" */
		snprintf(what, sizeof(what), "%s%s%s", w->ld->what ? w->ld->what : "", w->ld->what ? "." : "", f->name);
		return record_load(f->sub, x, at, w->ld->path, what, w->ld->err);
	}
	return load_scalar(f, x, at, w->ld);
}

int record_load(const struct record_schema *s, const cJSON *obj, void *target, const char *path,
		const char *what, struct kb_err *err)
{
	struct load ld = { path, what, err };
	struct walk w = { obj, obj->child, target, &ld };

	return record_each(s, load_field, &w) ? -1 : 0;
}

static int release_field(const struct record_field *f, void *arg)
{
	char *target = arg;

	if (!f->load)
		return 0;
	char *at = target + f->load - 1;
	if (f->count) {
		struct record_array *a = (struct record_array *)at;
		for (size_t i = 0; f->type == RECORD_OBJECT && i < a->n; i++)
			record_load_release(f->sub, (char *)a->items + i * f->sub->load_size);
		free(a->items);
		a->items = NULL;
		a->n = 0;
	} else if (f->type == RECORD_OBJECT) {
		record_load_release(f->sub, at);
	}
	return 0;
}

void record_load_release(const struct record_schema *s, void *target)
{
	record_each(s, release_field, target);
}
