/* The results document {schema, interrupted, context, results} (bench;
 * thread and select extend it), and reading it back with the same tables
 * (see results_load.h). */
#include <stdlib.h>
#include <string.h>

#include "../datasets/file_input.h"
#include "record_load.h"
#include "report.h"
#include "result_fields.h"
#include "results_load.h"

#define DOC(row) ((const struct report_document *)(row)->item)
#define LD(member) RECORD_LOAD(struct loaded_doc, member)

RECORD_GETTER(d_schema, record_str(v, REPORT_SCHEMA))
RECORD_GETTER(d_interrupted, record_bool(v, DOC(w)->ctx->interrupted_by != 0))
RECORD_GETTER(d_context, record_item(v, DOC(w)->ctx))
RECORD_GETTER(d_result, record_item(v, &DOC(w)->results[w->index]))

static size_t n_results(const struct record_row *w)
{
	return DOC(w)->nresults;
}

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = d_schema },
	{ .name = "interrupted", .type = RECORD_BOOL, .get = d_interrupted, .load = LD(interrupted) },
	{ .name = "context", .type = RECORD_OBJECT, .get = d_context, .sub = &report_context_schema,
	  .load = LD(context) },
	{ .name = "results", .type = RECORD_OBJECT, .flags = RECORD_REQUIRED, .get = d_result,
	  .count = n_results,
	  .sub = &report_result_schema, .load = LD(results_read) },
};

const struct record_schema report_results_document_schema = {
	NULL, RECORD_FIELDS(document_fields), NULL, sizeof(struct loaded_doc),
};

static const char *get_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The shape of text[0..len) as JSON, outside strings: how many values the
 * parser would allocate a node for at most (separators and openings;
 * counting stops past limit), and how many arrays and objects are still
 * open at len (cJSON stops at its nesting limit, which deserves its own
 * message); inside them, where the first \u0000 or control character not
 * escaped is (len if none): JSON has no raw control character in a
 * string, but cJSON takes them, and a NUL either way ends its C string
 * ("xxh64\u0000x" read as "xxh64"). */
struct text_shape {
	size_t values, depth, bad_at;
};

static struct text_shape shape_of(const unsigned char *text, size_t len, size_t limit)
{
	struct text_shape sh = { 1, 0, len };
	int in_string = 0;

	for (size_t i = 0; i < len && sh.values <= limit; i++) {
		if (in_string) {
			if (sh.bad_at == len && (text[i] < 0x20 || (text[i] == '\\' && len - i > 5 &&
								    memcmp(text + i + 1, "u0000", 5) == 0)))
				sh.bad_at = i;
			if (text[i] == '\\')
				i++;
			else if (text[i] == '"')
				in_string = 0;
		} else if (text[i] == '"') {
			in_string = 1;
		} else {
			sh.values += text[i] == ',' || text[i] == '[' || text[i] == '{';
			sh.depth += text[i] == '[' || text[i] == '{';
			sh.depth -= (text[i] == ']' || text[i] == '}') && sh.depth;
		}
	}
	return sh;
}

/* cJSON answers NULL both for text that is not JSON and for memory that
 * ran out: its allocations are counted while a document is parsed. */
static int parse_out_of_memory;

static void *parse_malloc(size_t n)
{
	void *p = malloc(n);

	parse_out_of_memory |= p == NULL;
	return p;
}

static int by_key(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A key given twice in one object, anywhere in the document (cJSON keeps
 * both and its lookups find the first: a second "results" was read
 * silently), or NULL. keys has room for every key on the way down (the
 * document's values are at least as many). */
static const char *duplicate_key(const cJSON *v, const char **keys, size_t room)
{
	size_t n = 0;

	for (const cJSON *c = v->child; c; c = c->next) {
		if (cJSON_IsObject(v) && n < room)
			keys[n++] = c->string;
		if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
			const char *d = duplicate_key(c, keys + n, room - n);
			if (d)
				return d;
		}
	}
	qsort(keys, n, sizeof(*keys), by_key);
	for (size_t i = 1; i < n; i++)
		if (strcmp(keys[i - 1], keys[i]) == 0)
			return keys[i];
	return NULL;
}

/* The document's text as JSON: within the limits, one value and nothing
 * after it but white space, no key twice in an object; then its schema. */
static int parse(const char *path, const char *text, size_t len, struct loaded_doc *doc, struct kb_err *err)
{
	const char *end = NULL;

	if (len > RESULTS_MAX_BYTES)
		return kb_fail(err, "%s is larger than %zu bytes, the most a results document may hold", path,
			       RESULTS_MAX_BYTES);
	struct text_shape shape = shape_of((const unsigned char *)text, len, RESULTS_MAX_VALUES);
	size_t values = shape.values;
	if (values > RESULTS_MAX_VALUES)
		return kb_fail(err, "%s: more than %d JSON values, the most a results document may hold", path,
			       RESULTS_MAX_VALUES);
	cJSON_Hooks counted = { parse_malloc, free };
	parse_out_of_memory = 0;
	cJSON_InitHooks(&counted);
	doc->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	cJSON_InitHooks(NULL);
	if (!doc->root && parse_out_of_memory)
		return kb_fail(err, "%s: out of memory reading it (%zu bytes)", path, len);
	if (!doc->root) {
		/* cJSON leaves end at the byte it stopped on, the last one when
		 * the text ran out (a truncated file). */
		size_t at = end ? (size_t)(end - text) : 0;
		if (len == 0)
			return kb_fail(err, "%s: not a JSON document (empty)", path);
		if (shape_of((const unsigned char *)text, at, SIZE_MAX).depth >= CJSON_NESTING_LIMIT)
			return kb_fail(err, "%s: JSON nested deeper than %d levels (at byte %zu)", path,
				       CJSON_NESTING_LIMIT, at);
		return kb_fail(err, "%s: not a JSON document (invalid at byte %zu of %zu%s)", path, at, len,
			       at + 1 >= len ? ": cut short?" : "");
	}
	for (size_t at = (size_t)(end - text); at < len; at++)
		if (!strchr(" \t\r\n", text[at]) || !text[at])
			return kb_fail(err, "%s: trailing data after the JSON document (at byte %zu)", path, at);
	if (shape.bad_at < len && text[shape.bad_at] == '\\')
		return kb_fail(err, "%s: a string holds \\u0000 (at byte %zu): a NUL character would end it early",
			       path, shape.bad_at);
	if (shape.bad_at < len)
		return kb_fail(err, "%s: not a JSON document (control character 0x%02x in a string at byte %zu)", path,
			       (unsigned char)text[shape.bad_at], shape.bad_at);
	const char **keys = malloc((values + 1) * sizeof(*keys));
	if (!keys)
		return kb_fail(err, "%s: out of memory reading it (%zu bytes)", path, len);
	const char *twice = duplicate_key(doc->root, keys, values + 1);
	free(keys);
	if (twice)
		return kb_fail(err, "%s: the key \"%.100s\" is given twice in one object", path, twice);
	const char *schema = get_string(doc->root, "schema");
	if (!cJSON_IsObject(doc->root) || !schema)
		return kb_fail(err, "%s: not a ksmbench results document (no \"schema\"; write one with "
				    "ksmbench bench --format json)", path);
	if (strcmp(schema, REPORT_SCHEMA) == 0)
		doc->version = 2;
	else if (strcmp(schema, REPORT_SCHEMA_V1) == 0)
		doc->version = 1;
	else
		return kb_fail(err, "%s: schema \"%.100s\" is not %s (or %s)", path, schema, REPORT_SCHEMA,
			       REPORT_SCHEMA_V1);
	return 0;
}

/* The values compare judges: a version-1 result is one process whose
 * value is its median, and not known to be stable. */
static void derive_values(const struct loaded_doc *doc, struct loaded_result *r)
{
	if (doc->version == 2 && r->processes_read.n == 0 && !(r->bytes_per_second_median > 0)) {
		r->values = NULL; /* no rate: its rounds were faster than the timer resolved */
		r->nvalues = 0;
		r->unstable = 1;
		r->why = "no rate";
		return;
	}
	if (doc->version == 1 || r->processes_read.n == 0) {
		r->values = &r->bytes_per_second_median;
		r->nvalues = 1;
		r->unstable = 1;
		r->why = doc->version == 1 ? "a version-1 document: the rounds of one process" : "no per-process values";
		return;
	}
	r->values = r->processes_read.items;
	r->nvalues = r->processes_read.n;
	r->unstable = !r->stability || strcmp(r->stability, "stable") != 0;
	r->why = r->stability_text ? r->stability_text : "";
}

/* What the readers use besides the fields as read. */
static void derive(struct loaded_doc *doc)
{
	doc->results = doc->results_read.items;
	doc->n = doc->results_read.n;
	doc->date = doc->context.date;
	doc->git_revision = doc->context.git_revision;
	doc->cpu_brand = doc->context.cpu.brand;
	for (size_t i = 0; i < doc->n; i++) {
		struct loaded_result *r = &doc->results[i];
		if (!r->impl)
			r->impl = r->hash;
		r->bytes_per_second_min = bench_bytes_per_s((uint32_t)r->page_size, r->ns_per_page_max);
		r->bytes_per_second_max = bench_bytes_per_s((uint32_t)r->page_size, r->ns_per_page_min);
		r->rounds = r->rounds_read.n ? r->rounds_read.items : NULL;
		r->nrounds = r->rounds_read.n;
		snprintf(r->timer_label, sizeof(r->timer_label), "%.40s%s", r->timer, r->apart ? " apart" : "");
		derive_values(doc, r);
	}
}

int results_parse(const char *path, const void *text, size_t len, struct loaded_doc *doc, struct kb_err *err)
{
	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	if (parse(path, text, len, doc, err) ||
	    record_load(&report_results_document_schema, doc->root, doc, path, NULL, err)) {
		results_release(doc);
		return -1;
	}
	derive(doc);
	return 0;
}

int results_load(const char *path, struct loaded_doc *doc, struct kb_err *err)
{
	struct file_blob blob;
	int rc;

	memset(doc, 0, sizeof(*doc));
	if (file_blob_load(path, RESULTS_MAX_BYTES, &blob, err))
		return -1;
	rc = results_parse(path, blob.data, blob.len, doc, err);
	file_blob_release(&blob);
	return rc;
}

void results_release(struct loaded_doc *doc)
{
	record_load_release(&report_results_document_schema, doc);
	cJSON_Delete(doc->root);
	memset(doc, 0, sizeof(*doc));
}

int results_dataset(const struct loaded_result *r, char *buf, size_t size)
{
	return snprintf(buf, size, "%s%s", strncmp(r->data, "file:", 5) == 0 ? "file:" : "",
			report_stable_data(r->data));
}
