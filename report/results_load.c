/* Loading a results document (see results_load.h). */
#include "results_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../datasets/file_input.h"
#include "results.h"

static const char *get_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A finite number, or -1 with *ok cleared. */
static double get_number(const cJSON *o, const char *key, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0) {
		*ok = 0;
		return -1;
	}
	return v->valuedouble;
}

static int load_result(const cJSON *o, size_t i, struct loaded_doc *doc, size_t *store_used,
		       struct kb_err *err)
{
	static const char *const strings[] = { "hash", "data", "cache", "timer" };
	static const char *const numbers[] = { "page_size_bytes", "bytes_per_second_best",
					       "bytes_per_second_median", "ns_per_page_min", "ns_per_page_max" };
	struct loaded_result *r = &doc->results[i];
	double v[5];
	int ok = 1;

	if (!cJSON_IsObject(o))
		return kb_fail(err, "%s: results[%zu] is not an object", doc->path, i);
	for (unsigned k = 0; k < 4; k++)
		if (!get_string(o, strings[k]))
			return kb_fail(err, "%s: results[%zu]: \"%s\" is missing or not a string", doc->path, i,
				       strings[k]);
	for (unsigned k = 0; k < 5; k++) {
		v[k] = get_number(o, numbers[k], &ok);
		if (!ok)
			return kb_fail(err, "%s: results[%zu]: \"%s\" is missing or not a number >= 0", doc->path, i,
				       numbers[k]);
	}
	r->hash = get_string(o, "hash");
	r->impl = get_string(o, "implementation");
	if (!r->impl)
		r->impl = r->hash;
	r->data = get_string(o, "data");
	r->cache = get_string(o, "cache");
	r->timer = get_string(o, "timer");
	if (v[0] < 1 || v[0] > 1e9)
		return kb_fail(err, "%s: results[%zu]: page_size_bytes %.0f is out of range", doc->path, i, v[0]);
	r->page_size = (unsigned)v[0];
	r->bytes_per_second_best = v[1];
	r->bytes_per_second_median = v[2];
	r->bytes_per_second_min = v[4] > 0 ? r->page_size * 1e9 / v[4] : 0;
	r->bytes_per_second_max = v[3] > 0 ? r->page_size * 1e9 / v[3] : 0;
	ok = 1;
	double mis = get_number(o, "misalign_bytes", &ok);
	r->misalign = ok ? (unsigned)mis : 0;
	ok = 1;
	double rep = get_number(o, "repeats", &ok);
	r->repeats = ok ? (unsigned)rep : 0;
	r->interrupted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "interrupted"));

	const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(o, "bytes_per_second_rounds");
	if (rounds && !cJSON_IsNull(rounds)) {
		if (!cJSON_IsArray(rounds))
			return kb_fail(err, "%s: results[%zu]: \"bytes_per_second_rounds\" is not an array", doc->path, i);
		const cJSON *x;
		size_t k = 0;
		r->rounds = doc->round_store + *store_used;
		cJSON_ArrayForEach(x, rounds) {
			if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < 0)
				return kb_fail(err, "%s: results[%zu]: bytes_per_second_rounds[%zu] is not a number >= 0",
					       doc->path, i, k);
			doc->round_store[(*store_used)++] = x->valuedouble;
			k++;
		}
		r->nrounds = k;
		if (k == 0)
			r->rounds = NULL;
	}
	return 0;
}

int results_load(const char *path, struct loaded_doc *doc, struct kb_err *err)
{
	struct file_blob blob;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	if (file_blob_load(path, &blob, err))
		return -1;
	doc->root = cJSON_ParseWithLength((const char *)blob.data, blob.len);
	file_blob_release(&blob);
	if (!doc->root)
		return kb_fail(err, "%s: not a JSON document", path);

	const char *schema = get_string(doc->root, "schema");
	if (!cJSON_IsObject(doc->root) || !schema) {
		results_release(doc);
		return kb_fail(err, "%s: not a ksmbench results document (no \"schema\"; write one with "
				    "ksmbench bench --format json)", path);
	}
	if (strcmp(schema, REPORT_SCHEMA) != 0) {
		kb_fail(err, "%s: schema \"%.100s\" is not %s", path, schema, REPORT_SCHEMA);
		results_release(doc);
		return -1;
	}
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc->root, "results");
	if (!cJSON_IsArray(arr)) {
		results_release(doc);
		return kb_fail(err, "%s: \"results\" is missing or not an array", path);
	}
	size_t n = (size_t)cJSON_GetArraySize(arr), nrounds = 0, used = 0;
	const cJSON *o, *x;
	cJSON_ArrayForEach(o, arr) {
		const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(o, "bytes_per_second_rounds");
		cJSON_ArrayForEach(x, rounds)
			nrounds++;
	}
	doc->results = calloc(n ? n : 1, sizeof(*doc->results));
	doc->round_store = calloc(nrounds ? nrounds : 1, sizeof(double));
	if (!doc->results || !doc->round_store) {
		results_release(doc);
		return kb_fail(err, "out of memory reading %s", path);
	}
	size_t i = 0;
	cJSON_ArrayForEach(o, arr) {
		if (load_result(o, i, doc, &used, err)) {
			results_release(doc);
			return -1;
		}
		i++;
	}
	doc->n = n;
	doc->interrupted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc->root, "interrupted"));
	const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc->root, "context");
	doc->date = get_string(ctx, "date");
	doc->git_revision = get_string(ctx, "git_revision");
	doc->cpu_brand = get_string(cJSON_GetObjectItemCaseSensitive(ctx, "cpu"), "brand");
	return 0;
}

void results_release(struct loaded_doc *doc)
{
	cJSON_Delete(doc->root);
	free(doc->results);
	free(doc->round_store);
	memset(doc, 0, sizeof(*doc));
}

void results_dataset(const struct loaded_result *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", strncmp(r->data, "file:", 5) == 0 ? "file:" : "", report_stable_data(r->data));
}
