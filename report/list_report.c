/* The list document: every registered hash, whether this CPU runs it (and
 * why not, in hash_unavailable_reason's one wording), whether and since
 * when the kernel runs it, where it comes from, and for the aliases what
 * they stand for and how that was chosen (ksmbench list). The default
 * table fits report_columns() (100, or COLUMNS on a terminal) with the
 * aliases' choices in lines wrapped below it; --wide shows every column
 * instead. */
#include <string.h>

#include "../common/kernel_release.h"
#include "../hashes/alias.h"
#include "../hashes/cpu_features.h"
#include "../hashes/hash.h"
#include "../hashes/impls.h"
#include "kinds.h"
#include "record_table.h"
#include "text_wrap.h"

#define LIST_NOTE_MIN 12 /* the last column keeps at least this much */
#define LIST_KERNEL_PAGE 4096 /* the page size of the kernel's crc32c choice */

#define HASH(row) (*(const struct hash_impl *const *)(row)->item)
#define IMPL(row) hash_resolve(HASH(row))
#define KUSE(row) ((const struct hash_kernel_use *)(row)->item)

/* Row classes: how an entry was resolved. */
enum { NOT_CHOSEN = 1, BY_TABLE = 2, BY_MEASUREMENT = 4, ONLY_CANDIDATE = 8, BY_PARENT = 16, CHOSEN = 30 };

static unsigned entry_class(const struct record_row *w)
{
	static const unsigned by_how[] = { [ALIAS_BY_TABLE] = BY_TABLE, [ALIAS_BY_MEASUREMENT] = BY_MEASUREMENT,
					   [ALIAS_ONLY_CANDIDATE] = ONLY_CANDIDATE, [ALIAS_BY_PARENT] = BY_PARENT };
	const struct alias_choice *c = alias_choice(HASH(w));

	return c ? by_how[c->how] : NOT_CHOSEN;
}

/* An alias's own kernel use (xxhash() is one), else its target's. */
static const struct hash_kernel_use *kernel_use(const struct hash_impl *h)
{
	return h->kernel.function ? &h->kernel : &hash_resolve(h)->kernel;
}

static int l_chosen_by(const struct record_row *w, struct record_value *v)
{
	static const char *const how[] = { [ALIAS_BY_TABLE] = "table", [ALIAS_BY_MEASUREMENT] = "measurement",
					   [ALIAS_ONLY_CANDIDATE] = "only candidate", [ALIAS_BY_PARENT] = "parent" };

	return record_str(v, how[alias_choice(HASH(w))->how]);
}

/* Each candidate measured at start-up and its best rate. */
static size_t n_measured(const struct record_row *w)
{
	return alias_choice(HASH(w))->ncandidates;
}

static int l_measured(const struct record_row *w, struct record_value *v)
{
	const struct alias_choice *c = alias_choice(HASH(w));

	v->key = c->candidates[w->index]->name;
	v->type = RECORD_REAL;
	return record_real(v, c->bytes_per_s[w->index]);
}

RECORD_GETTER(l_name, record_str(v, HASH(w)->name))
RECORD_GETTER(l_bits, record_uint(v, IMPL(w)->bits))
RECORD_GETTER(l_available, record_bool(v, hash_available(HASH(w))))
RECORD_GETTER(l_reason, record_str(v, hash_unavailable_reason(HASH(w), v->buf, sizeof(v->buf))))
RECORD_GETTER(l_missing, (record_str(v, cpu_features_names(hash_missing_features(HASH(w)), v->buf, sizeof(v->buf))), 1))
RECORD_GETTER(l_needs, (record_str(v, cpu_features_names(IMPL(w)->cpu_needs, v->buf, sizeof(v->buf))), 1))
RECORD_GETTER(l_provenance, record_str(v, hash_provenance(HASH(w), v->buf, sizeof(v->buf))))
RECORD_GETTER(l_alias_of, IMPL(w) != HASH(w) && record_str(v, IMPL(w)->name))
RECORD_GETTER(l_choice, record_str(v, alias_choice_describe(alias_choice(HASH(w)), v->buf, sizeof(v->buf))))
RECORD_GETTER(l_evidence, record_str(v, alias_choice(HASH(w))->rule->evidence))
RECORD_GETTER(l_family, record_str(v, IMPL(w)->family))
RECORD_GETTER(l_kernel, record_item(v, kernel_use(HASH(w))))
RECORD_GETTER(l_description, record_str(v, HASH(w)->description))
RECORD_GETTER(l_entry, record_item(v, &hash_registry[w->index]))

RECORD_GETTER(k_function, record_str(v, KUSE(w)->function))
RECORD_GETTER(k_in_kernel, record_bool(v, KUSE(w)->function != NULL))
RECORD_GETTER(k_since, record_str(v, KUSE(w)->since))
RECORD_GETTER(k_until, record_str(v, KUSE(w)->until))
RECORD_GETTER(k_note, (record_str(v, KUSE(w)->note ? KUSE(w)->note : ""), 1))

/* Where the kernel runs it: null function, since and until when it does not. */
static const struct record_field kernel_fields[] = {
	{ .name = "function", .type = RECORD_STR, .get = k_function },
	{ .name = "in_kernel", .type = RECORD_BOOL, .get = k_in_kernel },
	{ .name = "since", .type = RECORD_STR, .get = k_since },
	{ .name = "until", .type = RECORD_STR, .get = k_until },
	{ .name = "note", .type = RECORD_STR, .get = k_note },
};

static const struct record_schema kernel_schema = { NULL, RECORD_FIELDS(kernel_fields), NULL, 0 };

/* Feature lists are "" when empty, not null; the choice fields are null
 * for entries that are not chosen aliases. */
static const struct record_field hash_fields[] = {
	{ .name = "name", .type = RECORD_STR, .get = l_name },
	{ .name = "bits", .type = RECORD_UINT, .get = l_bits },
	{ .name = "available", .type = RECORD_BOOL, .get = l_available },
	{ .name = "unavailable_reason", .type = RECORD_STR, .get = l_reason },
	{ .name = "missing_features", .type = RECORD_STR, .get = l_missing },
	{ .name = "needs_features", .type = RECORD_STR, .get = l_needs },
	{ .name = "provenance", .type = RECORD_STR, .get = l_provenance },
	{ .name = "alias_of", .type = RECORD_STR, .get = l_alias_of },
	{ .name = "chosen_by", .type = RECORD_STR, .applies = CHOSEN, .get = l_chosen_by },
	{ .name = "choice", .type = RECORD_STR, .applies = CHOSEN, .get = l_choice },
	{ .name = "choice_evidence", .type = RECORD_STR, .applies = BY_TABLE, .get = l_evidence },
	{ .name = "measured_bytes_per_second", .type = RECORD_MAP, .applies = BY_MEASUREMENT, .get = l_measured,
	  .count = n_measured },
	{ .name = "family", .type = RECORD_STR, .get = l_family },
	{ .name = "kernel", .type = RECORD_OBJECT, .get = l_kernel, .sub = &kernel_schema },
	{ .name = "description", .type = RECORD_STR, .get = l_description },
};

static const struct record_schema hash_schema = { NULL, RECORD_FIELDS(hash_fields), entry_class, 0 };

static size_t n_hashes(const struct record_row *w)
{
	(void)w;
	return hash_registry_count;
}

/* The implementation the running kernel's crc32c() runs on this CPU, and why. */
static const struct hash_impl *kernel_crc32c(const struct report_document *doc, const char **why)
{
	struct kernel_release r;

	return hash_kernel_crc32c(LIST_KERNEL_PAGE, kernel_release_or_newest(doc->kernel_release, &r), why);
}

#define DOC(row) ((const struct report_document *)(row)->item)

static int kc_name(const struct record_row *w, struct record_value *v)
{
	const char *why;

	return record_str(v, kernel_crc32c(DOC(w), &why)->name);
}

static int kc_reason(const struct record_row *w, struct record_value *v)
{
	const char *why;

	kernel_crc32c(DOC(w), &why);
	return record_str(v, why);
}

RECORD_GETTER(kc_page, record_uint(v, LIST_KERNEL_PAGE))
RECORD_GETTER(kc_release, DOC(w)->kernel_release && record_str(v, DOC(w)->kernel_release))
RECORD_GETTER(l_kernel_crc32c, record_item(v, w->item))

static const struct record_field kernel_crc32c_fields[] = {
	{ .name = "page_size", .type = RECORD_UINT, .get = kc_page },
	{ .name = "kernel_release", .type = RECORD_STR, .get = kc_release },
	{ .name = "name", .type = RECORD_STR, .get = kc_name },
	{ .name = "reason", .type = RECORD_STR, .get = kc_reason },
};

static const struct record_schema kernel_crc32c_schema = { NULL, RECORD_FIELDS(kernel_crc32c_fields), NULL, 0 };

RECORD_GETTER(l_schema, record_str(v, "ksmbench-list/1"))

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = l_schema },
	{ .name = "hashes", .type = RECORD_OBJECT, .get = l_entry, .count = n_hashes, .sub = &hash_schema },
	{ .name = "kernel_crc32c", .type = RECORD_OBJECT, .get = l_kernel_crc32c, .sub = &kernel_crc32c_schema },
};

const struct record_schema list_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

/* The one wording (hash_unavailable_reason) of why it cannot run here. */
static int availability(const struct record_row *w, char *buf, size_t size)
{
	char why[160];

	if (hash_unavailable_reason(HASH(w), why, sizeof(why)))
		snprintf(buf, size, "no (%s)", why);
	else
		snprintf(buf, size, "yes");
	return 1;
}

/* The default table's: a CPU without SSE4.2 (QEMU's default qemu64 model)
 * lacks up to six features of one entry, which widened the table to 114
 * columns; the first is named and the rest counted (--wide and the JSON
 * name them all). */
static int availability_short(const struct record_row *w, char *buf, size_t size)
{
	char why[160];
	char *comma;
	unsigned more = 0;

	if (!hash_unavailable_reason(HASH(w), why, sizeof(why)) || strncmp(why, "needs ", 6) != 0 ||
	    !(comma = strchr(why, ',')))
		return availability(w, buf, size); /* available, or one reason that fits */
	for (const char *p = comma; p; p = strchr(p + 1, ','))
		more++;
	*comma = '\0';
	snprintf(buf, size, "no (%s +%u more)", why, more);
	return 1;
}

/* "5.0+", "2.6.38-4.20", "yes" (long-standing), "no". */
static int kernel_short(const struct record_row *w, char *buf, size_t size)
{
	const struct hash_kernel_use *k = kernel_use(HASH(w));

	if (!k->function)
		snprintf(buf, size, "no");
	else if (k->since && k->until)
		snprintf(buf, size, "%s-%s", k->since, k->until);
	else if (k->since)
		snprintf(buf, size, "%s+", k->since);
	else
		snprintf(buf, size, "yes");
	return 1;
}

static int kernel_function(const struct record_row *w, char *buf, size_t size)
{
	const char *f = kernel_use(HASH(w))->function;

	return f && snprintf(buf, size, "%s", f) >= 0;
}

/* The default table's last column: what a chosen alias stands for (how it
 * chose: in the lines below the table), else the provenance. */
static int note(const struct record_row *w, char *buf, size_t size)
{
	const struct alias_choice *c = alias_choice(HASH(w));

	if (c)
		snprintf(buf, size, "= %s", c->target->name);
	else
		hash_provenance(HASH(w), buf, size);
	return 1;
}

/* --wide: what a chosen alias stands for and how it chose. */
static int choice(const struct record_row *w, char *buf, size_t size)
{
	const struct alias_choice *c = alias_choice(HASH(w));
	char how[240];

	return c && snprintf(buf, size, "%s: %s", c->target->name, alias_choice_describe(c, how, sizeof(how))) >= 0;
}

static const struct record_column columns[] = {
	{ .header = "NAME", .align = 'l', .field = "name" },
	{ .header = "AVAILABLE", .align = 'l', .cell = availability_short },
	{ .header = "KERNEL", .align = 'l', .cell = kernel_short },
	{ .header = "PROVENANCE", .align = 'l', .cell = note },
};

static const struct record_column wide_columns[] = {
	{ .header = "NAME", .align = 'l', .field = "name" },
	{ .header = "BITS", .align = 'r', .field = "bits" },
	{ .header = "AVAILABLE", .align = 'l', .cell = availability },
	{ .header = "KERNEL", .align = 'l', .cell = kernel_short },
	{ .header = "KERNEL FUNCTION", .align = 'l', .cell = kernel_function },
	{ .header = "PROVENANCE", .align = 'l', .field = "provenance" },
	{ .header = "ALIAS OF / CHOSEN BY", .align = 'l', .cell = choice },
	{ .header = "DESCRIPTION", .align = 'l', .field = "description" },
};

/* How each alias chose (--wide has it in a column), and the kernel's own
 * crc32c choice, a line each (wrapped to width). */
static int footer(FILE *out, const struct report_document *doc, unsigned width)
{
	const struct hash_impl *a;
	char line[400], how[300];
	const char *why;
	int rc = fprintf(out, "\n") < 0;

	for (unsigned i = 0; rc == 0 && !doc->wide && (a = alias_at(i)); i++) {
		const struct alias_choice *c = alias_choice(a);
		snprintf(line, sizeof(line), "%s = %s, %s", a->name, c->target->name,
			 alias_choice_describe(c, how, sizeof(how)));
		rc = report_wrapped(out, "", line, width);
	}
	const struct hash_impl *k = kernel_crc32c(doc, &why);
	if (rc == 0)
		rc = report_wrappedf(out, width, "", "The kernel's crc32c() on this CPU at 4 KiB: %s (%s; release %s%s).",
				     k->name, why, doc->kernel_release ? doc->kernel_release : "unknown: the newest",
				     kernel_release_checked_note(doc->kernel_release)) ||
		     (!doc->wide && report_wrapped(out, "", "KERNEL: releases that have it (KSM's checksum: jhash2, "
						   "lookup2's before 2.6.38, xxhash from 5.0); --wide for details.", width));
	return rc ? -1 : 0;
}

int list_report_table(FILE *out, const struct report_document *doc)
{
	struct record_list rows = { &hash_schema, hash_registry, hash_registry_count, sizeof(hash_registry[0]),
				    { .item = doc } };
	struct table *t = doc->wide ? record_table(RECORD_COLUMNS(wide_columns), &rows)
				    : record_table(RECORD_COLUMNS(columns), &rows);
	int rc = -1;

	if (t && !doc->wide)
		table_fit_last(t, report_columns(doc), LIST_NOTE_MIN);
	if (t)
		rc = table_print(t, out);
	table_free(t);
	return rc == 0 ? footer(out, doc, doc->wide ? 0 : report_columns(doc)) : rc;
}
