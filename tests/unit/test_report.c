/* Unit tests of report/'s building blocks: aligned and Markdown tables, and
 * the results model (record.h) on a small schema of its own: nulls by row
 * class, arrays, nested objects, maps, CSV and TSV escaping, text columns
 * and the ones a narrow table leaves out, and reading back with type
 * checks; escaping foreign strings for a terminal, Markdown and XML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/context.h"
#include "../../report/context_text.h"
#include "../../report/escape.h"
#include "../../report/record_json.h"
#include "../../report/record_load.h"
#include "../../report/record_table.h"
#include "../../report/table.h"
#include "check.h"
#include "groups.h"

/* t as table_print prints it (malloc'd), or NULL. */
static char *printed(const struct table *t)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	if (table_print(t, f) != 0) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

void test_report_table(void)
{
	struct table *t = table_new(3, "lrl");
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	CHECK(t && f);
	CHECK(table_add_rowf(t, "NAME", "MB/s", "NOTE") == 0);
	CHECK(table_add_rowf(t, "jhash2", "1569", "old") == 0);
	CHECK(table_add_rowf(t, "crc32c", "12081", "") == 0);
	CHECK(table_print(t, f) == 0);
	fclose(f);
	CHECK_STR(text, "NAME     MB/s  NOTE\n"
			"-------------------\n"
			"jhash2   1569  old\n"
			"crc32c  12081  \n");
	free(text);
	/* The same table in Markdown, a '|' in a cell escaped. */
	CHECK(table_add_rowf(t, "a|b", "1", "x") == 0);
	f = open_memstream(&text, &size);
	CHECK(f && table_print_markdown(t, f) == 0);
	fclose(f);
	CHECK_STR(text, "| NAME | MB/s | NOTE |\n| --- | ---: | --- |\n| jhash2 | 1569 | old |\n"
			"| crc32c | 12081 |  |\n| a\\|b | 1 | x |\n");
	free(text);
	table_free(t);

	/* The last column cut to fit a width, each cut marked, a minimum kept. */
	t = table_new(2, "ll");
	CHECK(t && table_add_rowf(t, "NAME", "NOTE") == 0 && table_add_rowf(t, "ab", "0123456789") == 0 &&
	      table_add_rowf(t, "abc", "short") == 0);
	table_fit_last(t, 12, 4);
	text = printed(t);
	CHECK_STR(text, "NAME  NOTE\n------------\nab    012...\nabc   short\n");
	free(text);
	table_fit_last(t, 8, 4); /* no room: the minimum */
	text = printed(t);
	CHECK_STR(text, "NAME  NOTE\n----------\nab    0...\nabc   s...\n");
	free(text);
	table_free(t);
	/* A path keeps a third of the room for its start, the rest for its end;
	 * the header and what fits stay whole. */
	t = table_new(2, "lr");
	CHECK(t && table_add_rowf(t, "PATH", "N") == 0 && table_add_rowf(t, "/a/bcdefghij/file.elf", "1") == 0 &&
	      table_add_rowf(t, "/b/short", "22") == 0);
	CHECK(table_width(t) == 25);
	table_fit_middle(t, 0, 18, 8);
	CHECK(table_width(t) == 18);
	text = printed(t);
	CHECK_STR(text, "PATH             N\n------------------\n/a/...file.elf   1\n/b/short        22\n");
	free(text);
	table_free(t);
}

/* A toy record: a name, a count, an optional ratio, readings, a part. */
struct toy {
	const char *name;
	unsigned count;
	double ratio;  /* class 2 only */
	double readings[3];
	size_t nreadings;
	struct toy_part {
		int on;
	} part;
};

struct toy_read {
	const char *name;
	uint64_t count;
	double ratio;
	struct record_array readings;
	struct toy_part_read {
		int on;
	} part;
};

#define TOY(w) ((const struct toy *)(w)->item)

static unsigned toy_class(const struct record_row *w)
{
	return TOY(w)->count > 1 ? 2 : 1;
}

RECORD_GETTER(t_name, record_str(v, TOY(w)->name))
RECORD_GETTER(t_count, record_uint(v, TOY(w)->count))
RECORD_GETTER(t_ratio, record_real(v, TOY(w)->ratio))
RECORD_GETTER(t_reading, record_real(v, TOY(w)->readings[w->index]))
RECORD_GETTER(t_part, record_item(v, &TOY(w)->part))
RECORD_GETTER(t_on, record_bool(v, ((const struct toy_part *)w->item)->on))
RECORD_GETTER(t_parent, record_str(v, TOY(w->up)->name))
RECORD_GETTER(t_entry, (v->key = w->index ? "b" : "a", v->type = RECORD_UINT, record_uint(v, w->index + 10)))
RECORD_GETTER(t_part_entry, (v->key = w->index ? "y" : "x", v->type = RECORD_OBJECT, record_item(v, &TOY(w)->part)))

static size_t n_readings(const struct record_row *w)
{
	return TOY(w)->nreadings;
}

static size_t two(const struct record_row *w)
{
	(void)w;
	return 2;
}

static const struct record_field part_fields[] = {
	{ .name = "on", .type = RECORD_BOOL, .get = t_on, .load = RECORD_LOAD(struct toy_part_read, on) },
	{ .name = "parent", .type = RECORD_STR, .get = t_parent },
};

static const struct record_schema part_schema = { NULL, RECORD_FIELDS(part_fields), NULL,
						  sizeof(struct toy_part_read) };

#define TL(m) RECORD_LOAD(struct toy_read, m)

static const struct record_field toy_fields[] = {
	{ .name = "name", .type = RECORD_STR, .flags = RECORD_CSV | RECORD_REQUIRED, .get = t_name,
	  .load = TL(name) },
	{ .name = "count", .type = RECORD_UINT, .flags = RECORD_CSV, .get = t_count, .load = TL(count) },
	{ .name = "ratio", .type = RECORD_REAL, .applies = 2, .flags = RECORD_CSV, .format = "%.3f",
	  .get = t_ratio,
	  .load = TL(ratio) },
	{ .name = "readings", .type = RECORD_REAL, .get = t_reading, .count = n_readings,
	  .load = TL(readings) },
	{ .name = "part", .type = RECORD_OBJECT, .get = t_part, .sub = &part_schema, .load = TL(part) },
	{ .name = "map", .type = RECORD_MAP, .get = t_entry, .count = two },
	{ .name = "parts", .type = RECORD_MAP, .get = t_part_entry, .count = two, .sub = &part_schema },
	{ .name = "inline", .type = RECORD_OBJECT, .applies = 2, .flags = RECORD_INLINE, .get = t_part,
	  .sub = &part_schema },
};

static const struct record_schema toy_schema = { NULL, RECORD_FIELDS(toy_fields), toy_class,
						 sizeof(struct toy_read) };

/* The list written with separator sep, or NULL. The stream is closed
 * before its buffer is freed (fclose writes the buffer's last state). */
static char *csv_of(const struct record_list *l, char sep)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int rc = f ? record_write_delimited(f, l, sep) : -1;

	if (f)
		fclose(f);
	if (rc != 0) {
		free(text);
		text = NULL;
	}
	return text;
}

/* The list as CSV and as TSV, each against its expected text. */
static void check_delimited(const struct record_list *l, const char *csv, const char *tsv)
{
	char *text = csv_of(l, ',');

	CHECK_STR(text, csv);
	free(text);
	text = csv_of(l, '\t');
	CHECK_STR(text, tsv);
	free(text);
}

void test_report_record(void)
{
	struct toy toys[2] = { { "a,\"b\"", 1, 0.5, { 1, 2 }, 2, { 1 } }, { "tab\there", 7, 0.25, { 3 }, 1, { 0 } } };
	struct record_list l = { &toy_schema, toys, 2, sizeof(toys[0]), { NULL, NULL, 0 } };
	struct record_row row = record_list_row(&l, 0);

	/* JSON: null where the row's class does not apply, nested and arrays,
	 * a map of objects, an inline object's fields (null where it is). */
	cJSON *o = record_json(&toy_schema, &row);
	char *text = cJSON_PrintUnformatted(o);
	CHECK_STR(text, "{\"name\":\"a,\\\"b\\\"\",\"count\":1,\"ratio\":null,\"readings\":[1,2],"
			"\"part\":{\"on\":true,\"parent\":\"a,\\\"b\\\"\"},\"map\":{\"a\":10,\"b\":11},"
			"\"parts\":{\"x\":{\"on\":true,\"parent\":\"a,\\\"b\\\"\"},\"y\":{\"on\":true,\"parent\":\"a,\\\"b\\\"\"}},"
			"\"on\":null,\"parent\":null}");
	free(text);
	cJSON_Delete(o);
	row = record_list_row(&l, 1);
	o = record_json(&toy_schema, &row);
	text = cJSON_PrintUnformatted(o);
	CHECK(text && strstr(text, "\"parts\":{\"x\":{\"on\":false,\"parent\":\"tab\\there\"},") &&
	      strstr(text, "},\"on\":false,\"parent\":\"tab\\there\"}"));
	free(text);
	cJSON_Delete(o);

	/* CSV quotes, TSV escapes; only the CSV fields; null is empty. */
	check_delimited(&l, "name,count,ratio\n\"a,\"\"b\"\"\",1,\ntab\there,7,0.250\n",
			"name\tcount\tratio\na,\"b\"\t1\t\ntab\\there\t7\t0.250\n");
	/* A CR or an LF alone quotes a CSV field (RFC 4180), and TSV escapes
	 * CR and the backslash itself, so its escapes read back unambiguously. */
	struct toy breaks[3] = { { "x\\y\r\nz", 1, 0, { 0 }, 0, { 0 } }, { "cr\ronly", 1, 0, { 0 }, 0, { 0 } },
				 { "lf\nonly", 1, 0, { 0 }, 0, { 0 } } };
	struct record_list lb = { &toy_schema, breaks, 3, sizeof(breaks[0]), { NULL, NULL, 0 } };
	check_delimited(&lb, "name,count,ratio\n\"x\\y\r\nz\",1,\n\"cr\ronly\",1,\n\"lf\nonly\",1,\n",
			"name\tcount\tratio\nx\\\\y\\r\\nz\t1\t\ncr\\ronly\t1\t\nlf\\nonly\t1\t\n");

	/* Text columns: scaled, formatted, "-" for null; an unknown field fails. */
	const struct record_column cols[] = {
		{ .header = "NAME", .align = 'l', .field = "name" },
		{ .header = "RATIO %", .align = 'r', .field = "ratio", .scale = 100, .format = "%.0f" },
		{ .header = "COUNT", .align = 'r', .field = "count" },
	};
	struct table *t = record_table(RECORD_COLUMNS(cols), &l);
	char *printed = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&printed, &size);
	CHECK(t && f && table_print(t, f) == 0);
	fclose(f);
	/* A tab in a cell is shown, not obeyed: it would break the columns. */
	CHECK_STR(printed, "NAME         RATIO %  COUNT\n"
			   "---------------------------\n"
			   "a,\"b\"              -      1\n"
			   "tab\\x09here       25      7\n");
	free(printed);
	table_free(t);
	const struct record_column bad[] = { { .header = "X", .align = 'l', .field = "nosuch" } };
	CHECK(record_table(RECORD_COLUMNS(bad), &l) == NULL);
	CHECK(record_find(&toy_schema, "part") != NULL && record_find(&toy_schema, "on") == NULL);

	/* Reading back: types checked, arrays and nested objects stored. */
	struct toy_read back;
	struct kb_err err;
	cJSON *in = cJSON_Parse("{\"name\":\"n\",\"count\":3,\"ratio\":0.5,\"readings\":[4,5,6],"
				"\"part\":{\"on\":true}}");
	memset(&back, 0, sizeof(back));
	CHECK(record_load(&toy_schema, in, &back, "f.json", NULL, &err) == 0);
	CHECK(strcmp(back.name, "n") == 0 && back.count == 3 && back.ratio == 0.5 && back.part.on == 1);
	CHECK(back.readings.n == 3 && ((double *)back.readings.items)[2] == 6);
	record_load_release(&toy_schema, &back);
	CHECK(back.readings.items == NULL);
	cJSON_Delete(in);
	static const char *const bad_docs[][2] = {
		{ "{\"count\":3}", "\"name\" is missing or not a string" },
		{ "{\"name\":\"n\",\"count\":-1}", "\"count\" is missing or not an integer >= 0" },
		{ "{\"name\":\"n\",\"count\":1.5}", "not an integer" },
		{ "{\"name\":\"n\",\"ratio\":\"x\"}", "\"ratio\" is missing or not a number >= 0" },
		{ "{\"name\":\"n\",\"readings\":[1,-2]}", "f.json: toy: readings[1] is not a number >= 0" },
		{ "{\"name\":\"n\",\"readings\":7}", "\"readings\" is missing or not an array" },
		{ "{\"name\":\"n\",\"part\":{\"on\":1}}", "\"on\" is missing or not true or false" },
	};
	for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		in = cJSON_Parse(bad_docs[i][0]);
		memset(&back, 0, sizeof(back));
		CHECK(record_load(&toy_schema, in, &back, "f.json", "toy", &err) == -1 &&
		      strstr(err.msg, bad_docs[i][1]));
		record_load_release(&toy_schema, &back);
		cJSON_Delete(in);
	}
}

/* The headers of cols[0..n), joined by '|'. */
static void headers_of(const struct record_column *cols, unsigned n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned c = 0; c < n && used < size; c++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", c ? "|" : "", cols[c].header);
}

/* A narrow table leaves out a column only as its fit says: SAME where
 * every row shows the same value (said once, escaped, in common), EMPTY
 * where every row shows "-"; a column the same everywhere without the
 * flag that fits its value stays, and a wide table keeps every one. */
void test_report_columns_fit(void)
{
	/* count 1: class 1, so ratio is null ("-") in every row */
	struct toy toys[3] = { { "x", 1, 0, { 0 }, 0, { 0 } }, { "y", 1, 0, { 0 }, 0, { 0 } },
			       { "z", 1, 0, { 0 }, 0, { 0 } } };
	struct record_list l = { &toy_schema, toys, 3, sizeof(toys[0]), { NULL, NULL, 0 } };
	const struct record_column cols[] = {
		{ .header = "NAME", .align = 'l', .field = "name", .fit = RECORD_FIT_SAME },
		{ .header = "COUNT", .align = 'r', .field = "count", .fit = RECORD_FIT_SAME },
		{ .header = "RATIO", .align = 'r', .field = "ratio", .fit = RECORD_FIT_EMPTY },
		{ .header = "RATIO SAME", .align = 'r', .field = "ratio", .fit = RECORD_FIT_SAME },
		{ .header = "COUNT EMPTY", .align = 'r', .field = "count", .fit = RECORD_FIT_EMPTY },
		{ .header = "COUNT ALWAYS", .align = 'r', .field = "count" },
		{ .header = "RATIO BOTH", .align = 'r', .field = "ratio", .fit = RECORD_FIT_SAME | RECORD_FIT_EMPTY },
		{ .header = "COUNT BOTH", .align = 'r', .field = "count", .fit = RECORD_FIT_SAME | RECORD_FIT_EMPTY },
	};
	enum { N = sizeof(cols) / sizeof(cols[0]) };
	struct record_column out[N];
	char common[128], headers[256];

	unsigned n = record_columns_fit(cols, N, &l, 0, out, common, sizeof(common));
	headers_of(out, n, headers, sizeof(headers));
	CHECK_STR(headers, "NAME|RATIO SAME|COUNT EMPTY|COUNT ALWAYS");
	CHECK_STR(common, "COUNT 1, COUNT BOTH 1");
	CHECK(n == 4 && out[0].field == cols[0].field && out[3].fit == 0);

	n = record_columns_fit(cols, N, &l, 1, out, common, sizeof(common));
	CHECK(n == N && common[0] == '\0');
	for (unsigned c = 0; c < n && c < N; c++)
		CHECK(out[c].header == cols[c].header);

	/* A value said once is escaped as a cell would be. */
	for (unsigned i = 0; i < 3; i++)
		toys[i].name = "tab\there";
	n = record_columns_fit(cols, 2, &l, 0, out, common, sizeof(common));
	CHECK(n == 0);
	CHECK_STR(common, "NAME tab\\x09here, COUNT 1");
	/* No rows: nothing is the same everywhere, so nothing goes. */
	l.count = 0;
	n = record_columns_fit(cols, N, &l, 0, out, common, sizeof(common));
	CHECK(n == N && common[0] == '\0');
}

/* A hostile string through escape_str for target. */
static const char *escaped(const char *s, enum escape_target target)
{
	static char buf[256];

	return escape_str(s, target, buf, sizeof(buf));
}

void test_report_escape(void)
{
	/* Terminal: C0 (tab, newline, ESC), DEL, C1, bidi overrides, line
	 * separators and invalid UTF-8 shown as codes; other UTF-8 kept. */
	CHECK_STR(escaped("a\tb\nc\033[2Jd\x7f", ESCAPE_TERM), "a\\x09b\\x0ac\\x1b[2Jd\\x7f");
	CHECK_STR(escaped("\xc2\x9b" "31m \xe2\x80\xae \xe2\x80\xa8 \xe2\x81\xa6", ESCAPE_TERM),
		  "\\u009b31m \\u202e \\u2028 \\u2066");
	CHECK_STR(escaped("caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80", ESCAPE_TERM), "caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80");
	CHECK_STR(escaped("\xff \xc0\xaf \xed\xa0\x80 \xe2\x84", ESCAPE_TERM),
		  "\\xff \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x84");
	CHECK_STR(escaped("<b>|#`", ESCAPE_TERM), "<b>|#`");
	/* Markdown: markup and a leading # escaped, a # later is not a heading. */
	CHECK_STR(escaped("# x|y`z` *a* [l](u) <s> a#b", ESCAPE_MARKDOWN),
		  "\\# x\\|y\\`z\\` \\*a\\* \\[l\\](u) \\<s\\> a#b");
	CHECK_STR(escaped("a\n### 0 regressions", ESCAPE_MARKDOWN), "a\\x0a### 0 regressions");
	/* GitHub Actions' workflow commands ("::" starting a line, "##[" in
	 * one) lose their first character in every target. */
	CHECK_STR(escaped("::error::x ##[warning]y :a# ###[", ESCAPE_TERM),
		  "\\x3a:error\\x3a:x \\x23#[warning]y :a# #\\x23#[");
	CHECK_STR(escaped(":::", ESCAPE_TERM), "\\x3a\\x3a:");
	CHECK_STR(escaped("::error::x ##[w]", ESCAPE_MARKDOWN), "\\::error\\::x \\##\\[w\\]");
	CHECK_STR(escaped("::error::x ##[w]", ESCAPE_XML), "&#58;:error&#58;:x &#35;#[w]");
	/* XML: the five specials as entities, controls XML cannot hold as codes. */
	CHECK_STR(escaped("<script>&\"'\x01", ESCAPE_XML), "&lt;script&gt;&amp;&quot;&#39;\\x01");
	CHECK_STR(escaped(NULL, ESCAPE_XML), "");
	/* Widths in columns; a cut escape is left out whole, never half written. */
	CHECK(escape_width("caf\xc3\xa9\t", ESCAPE_TERM) == 4 + 4);
	char small[6];
	CHECK_STR(escape_str("ab\033", ESCAPE_TERM, small, sizeof(small)), "ab");
	CHECK_STR(escape_str("abc", ESCAPE_TERM, small, 1), "");
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	CHECK(f && escape_put(f, "x<\x1b", ESCAPE_XML) == 0);
	fclose(f);
	CHECK_STR(text, "x&lt;\\x1b");
	free(text);
	/* JSON text: a byte that is not UTF-8 becomes the escaped text \xHH;
	 * UTF-8 and cJSON's own escapes pass as they are. */
	text = NULL;
	f = open_memstream(&text, &size);
	CHECK(f && escape_put_json(f, "{\"d\": \"a\xff\xc3\xa9\\n\xe2\x84\"}") == 0);
	fclose(f);
	CHECK_STR(text, "{\"d\": \"a\\\\xff\xc3\xa9\\n\\\\xe2\\\\x84\"}");
	free(text);
	/* "##[" in a string: its '#' as \u0023; "::" never starts a line of it. */
	text = NULL;
	f = open_memstream(&text, &size);
	CHECK(f && escape_put_json(f, "{\"d\": \"##[error]x ::error::y\"}") == 0);
	fclose(f);
	CHECK_STR(text, "{\"d\": \"\\u0023#[error]x ::error::y\"}");
	free(text);
}

/* ctx's context line, unwrapped (malloc'd), or NULL. */
static char *context_line(const struct bench_context *ctx)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	report_context_line(f, ctx, 0);
	fclose(f);
	return text;
}

/* The CPU the processes ran on: one named alone, several each with its
 * processes' count (four at most, the rest together). */
void test_report_context_cpus(void)
{
	struct bench_context *ctx = calloc(1, sizeof(*ctx));
	static const int many[] = { 1, 1, 0, 1, 3, 2, 5, 6 };
	char *line;

	CHECK(ctx != NULL);
	if (!ctx)
		return;
	ctx->pinned_cpu = 1;
	ctx->pin_rule = "fastest allowed";
	ctx->nprocess_cpus = 3;
	ctx->process_cpus[0] = ctx->process_cpus[1] = ctx->process_cpus[2] = 1;
	CHECK((line = context_line(ctx)) && strstr(line, ", CPU 1 pinned (fastest allowed), "));
	free(line);
	ctx->process_cpus[1] = 0;
	CHECK((line = context_line(ctx)) && strstr(line, ", CPUs 1 (2), 0 (1) pinned (fastest allowed, for each process), "));
	free(line);
	memcpy(ctx->process_cpus, many, sizeof(many));
	ctx->nprocess_cpus = 8;
	CHECK((line = context_line(ctx)) &&
	      strstr(line, ", CPUs 1 (3), 0 (1), 3 (1), 2 (1), others (2) pinned (fastest allowed, for each process), "));
	free(line);
	ctx->nprocess_cpus = 0; /* no process recorded (a ceiling, a scan): the pinned CPU */
	CHECK((line = context_line(ctx)) && strstr(line, ", CPU 1 pinned (fastest allowed), "));
	free(line);
	free(ctx);
}
