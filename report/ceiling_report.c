/* The ceiling document (ksmbench ceiling): this CPU's measured limits (the
 * figures, which a results document's context also carries as "ceiling"),
 * how much crc32q and carry-less multiply overlap, and each
 * implementation's ceiling at the page size; fields for JSON, columns for
 * the text tables. The largest spread of any probe is reported as the
 * run's stability. */
#include "ceiling_report.h"

#include <stdlib.h>

#include "kinds.h"
#include "record_table.h"
#include "../common/plural.h"

#define DOC(row) ((const struct report_document *)(row)->item)
#define FIG(row) ((const struct ceiling_figures *)(row)->item)
#define VAL(row) ((const struct ceiling_value *)(row)->item)
#define PROBE(row) ((enum ceiling_probe_id)(row)->index)
#define CPU(row) ((const struct cpu_description *)(row)->item)
#define HASH(row) (*(const struct hash_impl *const *)(row)->item)

static double worst_spread(const struct ceiling_figures *f)
{
	double w = 0;

	for (int p = 0; p < CEIL_NPROBES; p++)
		if (f->v[p].measured && f->v[p].spread_pct > w)
			w = f->v[p].spread_pct;
	return w;
}

/* One probe: its row's index is the probe. */
RECORD_GETTER(p_measured, record_bool(v, VAL(w)->measured))
RECORD_GETTER(p_value, VAL(w)->measured && record_real(v, VAL(w)->value))
RECORD_GETTER(p_spread, VAL(w)->measured && record_real(v, VAL(w)->spread_pct))
RECORD_GETTER(p_unit, record_str(v, ceiling_probe_unit(PROBE(w))))
RECORD_GETTER(p_what, record_str(v, ceiling_probe_label(PROBE(w))))

static const struct record_field probe_fields[] = {
	{ .name = "measured", .type = RECORD_BOOL, .get = p_measured },
	{ .name = "value", .type = RECORD_REAL, .get = p_value },
	{ .name = "spread_pct", .type = RECORD_REAL, .get = p_spread },
	{ .name = "unit", .type = RECORD_STR, .get = p_unit },
	{ .name = "what", .type = RECORD_STR, .get = p_what },
};

static const struct record_schema probe_schema = { NULL, RECORD_FIELDS(probe_fields), NULL, 0 };

static size_t n_probes(const struct record_row *w)
{
	(void)w;
	return CEIL_NPROBES;
}

/* The register widths at which the overlap of crc32q and carry-less
 * multiply is measured, with the multiply's name at each. */
static const struct {
	unsigned bytes;
	const char *reg, *clmul;
} coissue_widths[] = { { 16, "xmm", "pclmulqdq" }, { 32, "ymm", "vpclmulqdq" }, { 64, "zmm", "vpclmulqdq" } };

#define NWIDTHS (sizeof(coissue_widths) / sizeof(coissue_widths[0]))

static size_t n_widths(const struct record_row *w)
{
	(void)w;
	return NWIDTHS;
}

static int f_limit(const struct record_row *w, struct record_value *v)
{
	v->key = ceiling_probe_key((enum ceiling_probe_id)w->index);
	v->type = RECORD_OBJECT;
	return record_item(v, &FIG(w)->v[w->index]);
}

/* The overlap of crc32q and (v)pclmulqdq per register width, null where
 * not measured. */
static int f_coissue(const struct record_row *w, struct record_value *v)
{
	double o = ceiling_coissue(FIG(w), coissue_widths[w->index].bytes);

	v->key = coissue_widths[w->index].reg;
	v->type = RECORD_REAL;
	return o >= 0 && record_real(v, o);
}

RECORD_GETTER(f_elapsed, record_real(v, FIG(w)->elapsed_s))
RECORD_GETTER(f_repeats, record_uint(v, FIG(w)->repeats))
RECORD_GETTER(f_rounds, record_uint(v, FIG(w)->rounds))
RECORD_GETTER(f_shared, record_uint(v, FIG(w)->rounds_shared))
RECORD_GETTER(f_spread, record_real(v, worst_spread(FIG(w))))
RECORD_GETTER(f_stream, record_uint(v, FIG(w)->stream_bytes))
/* Made cold the way page sets are (cold_by): null when no memory probe ran. */
RECORD_GETTER(f_stream_cold, FIG(w)->stream_bytes && record_str(v, FIG(w)->stream_flushed ? "flush" : "size"))

static const struct record_field figures_fields[] = {
	{ .name = "elapsed_s", .type = RECORD_REAL, .get = f_elapsed },
	{ .name = "repeats", .type = RECORD_UINT, .get = f_repeats },
	{ .name = "rounds", .type = RECORD_UINT, .get = f_rounds },
	{ .name = "rounds_shared", .type = RECORD_UINT, .get = f_shared },
	{ .name = "largest_spread_pct", .type = RECORD_REAL, .get = f_spread },
	{ .name = "stream_bytes", .type = RECORD_UINT, .get = f_stream },
	{ .name = "stream_cold_by", .type = RECORD_STR, .get = f_stream_cold },
	{ .name = "limits", .type = RECORD_MAP, .get = f_limit, .count = n_probes, .sub = &probe_schema },
	{ .name = "coissue", .type = RECORD_MAP, .get = f_coissue, .count = n_widths },
};

const struct record_schema ceiling_figures_schema = { NULL, RECORD_FIELDS(figures_fields), NULL, 0 };

/* The CPU as `ceiling` names it: "" where libcpuid does not know it. */
RECORD_GETTER(u_brand, (record_str(v, CPU(w)->known ? CPU(w)->brand : ""), 1))
RECORD_GETTER(u_vendor, (record_str(v, CPU(w)->known ? CPU(w)->vendor : ""), 1))
RECORD_GETTER(u_family, record_int(v, CPU(w)->ext_family))
RECORD_GETTER(u_model, record_int(v, CPU(w)->ext_model))

static const struct record_field cpu_fields[] = {
	{ .name = "brand", .type = RECORD_STR, .get = u_brand },
	{ .name = "vendor", .type = RECORD_STR, .get = u_vendor },
	{ .name = "family", .type = RECORD_INT, .get = u_family },
	{ .name = "model", .type = RECORD_INT, .get = u_model },
};

static const struct record_schema cpu_schema = { NULL, RECORD_FIELDS(cpu_fields), NULL, 0 };

/* One implementation's bound; its row is nested in the document's. */
static int bound(const struct record_row *w, struct ceiling_bound *b)
{
	const struct ceiling_report *r = DOC(w->up)->ceiling;

	return ceiling_bound(r->figures, HASH(w), r->page_size, 0, b) == 0;
}

static int b_hot(const struct record_row *w, struct record_value *v)
{
	struct ceiling_bound b;

	return bound(w, &b) && record_real(v, b.bytes_per_s);
}

static int b_cold(const struct record_row *w, struct record_value *v)
{
	struct ceiling_bound b;

	return bound(w, &b) && record_real(v, b.cold_bytes_per_s);
}

static int b_formula(const struct record_row *w, struct record_value *v)
{
	struct ceiling_bound b;

	return bound(w, &b) && record_str(v, b.formula);
}

/* The resource that binds, or why there is no bound. */
static int b_limit(const struct record_row *w, struct record_value *v)
{
	struct ceiling_bound b;

	bound(w, &b);
	return record_str(v, b.limit);
}

RECORD_GETTER(b_hash, record_str(v, HASH(w)->name))

static const struct record_field bound_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .get = b_hash },
	{ .name = "ceiling_bytes_per_second", .type = RECORD_REAL, .get = b_hot },
	{ .name = "cold_ceiling_bytes_per_second", .type = RECORD_REAL, .get = b_cold },
	{ .name = "formula", .type = RECORD_STR, .get = b_formula },
	{ .name = "limited_by", .type = RECORD_STR, .get = b_limit },
};

static const struct record_schema bound_schema = { NULL, RECORD_FIELDS(bound_fields), NULL, 0 };

RECORD_GETTER(d_cpu, record_item(v, DOC(w)->ceiling->cpu))
RECORD_GETTER(d_figures, record_item(v, DOC(w)->ceiling->figures))
RECORD_GETTER(d_page, record_uint(v, DOC(w)->ceiling->page_size))
RECORD_GETTER(d_pinned, record_int(v, DOC(w)->ceiling->pinned_cpu))
RECORD_GETTER(d_pin_rule, record_str(v, DOC(w)->ceiling->pin_rule))
RECORD_GETTER(d_bound, record_item(v, &DOC(w)->ceiling->hashes[w->index]))

static size_t n_hashes(const struct record_row *w)
{
	return DOC(w)->ceiling->nhashes;
}

RECORD_GETTER(d_schema, record_str(v, "ksmbench-ceiling/1"))

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = d_schema },
	{ .name = "cpu", .type = RECORD_OBJECT, .get = d_cpu, .sub = &cpu_schema },
	{ .name = "pinned_cpu", .type = RECORD_INT, .get = d_pinned },
	{ .name = "pinned_cpu_rule", .type = RECORD_STR, .get = d_pin_rule },
	{ .name = "figures", .type = RECORD_OBJECT, .flags = RECORD_INLINE, .get = d_figures,
	  .sub = &ceiling_figures_schema },
	{ .name = "page_size", .type = RECORD_UINT, .get = d_page },
	{ .name = "ceilings", .type = RECORD_OBJECT, .get = d_bound, .count = n_hashes, .sub = &bound_schema },
};

const struct record_schema ceiling_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

/* A probe's value for reading: the unit chosen by what it measures. */
static int value_cell(const struct record_row *w, char *buf, size_t size)
{
	enum ceiling_probe_id id = PROBE(w);
	double x = VAL(w)->value;

	if (!VAL(w)->measured)
		return 0;
	if (id == CEIL_CORE_CLOCK)
		snprintf(buf, size, "%.3f GHz", x / 1e9);
	else if (id == CEIL_MEM_STREAM)
		snprintf(buf, size, "%.1f GB/s", x / 1e9);
	else if (id == CEIL_COLD_PAGE)
		snprintf(buf, size, "%.0f ns", x);
	else
		snprintf(buf, size, "%.2f %s", x, ceiling_probe_unit(id));
	return 1;
}

static int spread_cell(const struct record_row *w, char *buf, size_t size)
{
	if (VAL(w)->measured)
		snprintf(buf, size, "%.1f%%", VAL(w)->spread_pct);
	else
		snprintf(buf, size, "not here");
	return 1;
}

static const struct record_column probe_columns[] = {
	{ .header = "LIMIT (best of rounds)", .align = 'l', .field = "what" },
	{ .header = "VALUE", .align = 'r', .cell = value_cell },
	{ .header = "SPREAD", .align = 'r', .cell = spread_cell },
};

static const struct record_column bound_columns[] = {
	{ .header = "HASH", .align = 'l', .field = "hash" },
	{ .header = "CEILING GB/s", .align = 'r', .field = "ceiling_bytes_per_second", .scale = 1e-9,
	  .format = "%.1f" },
	{ .header = "COLD GB/s", .align = 'r', .field = "cold_ceiling_bytes_per_second", .scale = 1e-9,
	  .format = "%.1f" },
	{ .header = "LIMITED BY", .align = 'l', .field = "limited_by" },
};

/* The probes, then a line per register width whose overlap was measured. */
static int probes_table(FILE *out, const struct ceiling_figures *f)
{
	struct record_list rows = { &probe_schema, f->v, CEIL_NPROBES, sizeof(f->v[0]), { .item = f } };
	struct table *t = record_table(RECORD_COLUMNS(probe_columns), &rows);
	int rc = t ? 0 : -1;

	for (unsigned i = 0; rc == 0 && i < NWIDTHS; i++) {
		double o = ceiling_coissue(f, coissue_widths[i].bytes);
		char label[80], value[16];
		if (o < 0)
			continue;
		snprintf(label, sizeof(label), "crc32q / %s %s overlap in one loop", coissue_widths[i].clmul,
			 coissue_widths[i].reg);
		snprintf(value, sizeof(value), "%.0f%%", 100 * o);
		rc = table_add_rowf(t, label, value, "");
	}
	if (rc == 0)
		rc = table_print(t, out);
	table_free(t);
	return rc;
}

/* The implementations that have a ceiling (the JSON also lists the others,
 * saying why they have none). */
static int bounds_table(FILE *out, const struct report_document *doc)
{
	const struct ceiling_report *r = doc->ceiling;
	const struct hash_impl **modelled = malloc((r->nhashes ? r->nhashes : 1) * sizeof(*modelled));
	struct ceiling_bound b;
	size_t n = 0;

	if (!modelled)
		return -1;
	for (unsigned i = 0; i < r->nhashes; i++)
		if (ceiling_bound(r->figures, r->hashes[i], r->page_size, 0, &b) == 0)
			modelled[n++] = r->hashes[i];
	struct record_list rows = { &bound_schema, modelled, n, sizeof(*modelled), { .item = doc } };
	struct table *t = record_table(RECORD_COLUMNS(bound_columns), &rows);
	int rc = t ? table_print(t, out) : -1;
	table_free(t);
	free(modelled);
	return rc;
}

int ceiling_report_table(FILE *out, const struct report_document *doc)
{
	const struct ceiling_report *r = doc->ceiling;
	const struct ceiling_figures *f = r->figures;

	unsigned rounds = f->rounds ? f->rounds : f->repeats;
	char shared[80] = "";

	if (f->rounds_shared)
		snprintf(shared, sizeof(shared), " (%u on a shared core, out of the spread)", f->rounds_shared);
	if (fprintf(out, "ceiling: %s (family %d, model %d), CPU %d pinned (%s), %.2f s, best of %u round%s%s, largest "
			 "spread %.1f%%\n\n",
		    r->cpu->known ? r->cpu->brand : "unknown CPU", r->cpu->ext_family, r->cpu->ext_model, r->pinned_cpu,
		    r->pin_rule ? r->pin_rule : "given", f->elapsed_s,
		    rounds, kb_s(rounds), shared, worst_spread(f)) < 0 ||
	    probes_table(out, f))
		return -1;
	if (fprintf(out, "\nceilings at %zu B per call (hot: L1; cold: streamed from memory); docs/ceilings.md\n\n",
		    r->page_size) < 0)
		return -1;
	return bounds_table(out, doc);
}
