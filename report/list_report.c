/* The list document: every registered hash, whether this CPU runs it, and
 * where it comes from (ksmbench list). */
#include "../hashes/cpu_features.h"
#include "../hashes/hash.h"
#include "kinds.h"
#include "record_table.h"

#define HASH(row) (*(const struct hash_impl *const *)(row)->item)
#define IMPL(row) hash_resolve(HASH(row))

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

RECORD_GETTER(l_name, record_str(v, HASH(w)->name))
RECORD_GETTER(l_bits, record_uint(v, IMPL(w)->bits))
RECORD_GETTER(l_available, record_bool(v, hash_available(HASH(w))))
RECORD_GETTER(l_missing, (record_str(v, cpu_features_names(hash_missing_features(HASH(w)), v->buf, sizeof(v->buf))), 1))
RECORD_GETTER(l_needs, (record_str(v, cpu_features_names(IMPL(w)->cpu_needs, v->buf, sizeof(v->buf))), 1))
RECORD_GETTER(l_provenance, record_str(v, hash_provenance(HASH(w), v->buf, sizeof(v->buf))))
RECORD_GETTER(l_alias_of, IMPL(w) != HASH(w) && record_str(v, IMPL(w)->name))
RECORD_GETTER(l_family, record_str(v, IMPL(w)->family))
RECORD_GETTER(l_description, record_str(v, HASH(w)->description))
RECORD_GETTER(l_entry, record_item(v, &hash_registry[w->index]))

/* Feature lists are "" when empty, not null. */
static const struct record_field hash_fields[] = {
	{ .name = "name", .type = RECORD_STR, .get = l_name },
	{ .name = "bits", .type = RECORD_UINT, .get = l_bits },
	{ .name = "available", .type = RECORD_BOOL, .get = l_available },
	{ .name = "missing_features", .type = RECORD_STR, .get = l_missing },
	{ .name = "needs_features", .type = RECORD_STR, .get = l_needs },
	{ .name = "provenance", .type = RECORD_STR, .get = l_provenance },
	{ .name = "alias_of", .type = RECORD_STR, .get = l_alias_of },
	{ .name = "family", .type = RECORD_STR, .get = l_family },
	{ .name = "description", .type = RECORD_STR, .get = l_description },
};

static const struct record_schema hash_schema = { NULL, RECORD_FIELDS(hash_fields), NULL, 0 };

static size_t n_hashes(const struct record_row *w)
{
	(void)w;
	return hash_registry_count;
}

static const struct record_field document_fields[] = {
	{ .name = "hashes", .type = RECORD_OBJECT, .get = l_entry, .count = n_hashes, .sub = &hash_schema },
};

const struct record_schema list_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

static const struct record_column columns[] = {
	{ "NAME", 'l', "name", 0, NULL, NULL },
	{ "BITS", 'r', "bits", 0, NULL, NULL },
	{ "AVAILABLE", 'l', NULL, 0, NULL, availability },
	{ "PROVENANCE", 'l', "provenance", 0, NULL, NULL },
	{ "DESCRIPTION", 'l', "description", 0, NULL, NULL },
};

int list_report_table(FILE *out, const struct report_document *doc)
{
	struct record_list rows = { &hash_schema, hash_registry, hash_registry_count, sizeof(hash_registry[0]),
				    { .item = doc } };
	struct table *t = record_table(RECORD_COLUMNS(columns), &rows);
	int rc = t ? table_print(t, out) : -1;

	table_free(t);
	return rc;
}
