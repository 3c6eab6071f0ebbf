/* `ksmbench ceiling` as text or JSON (see ceiling_report.h). The largest
 * spread of any probe is reported as the run's stability. */
#include "ceiling_report.h"

#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "table.h"

static double worst_spread(const struct ceiling_figures *f)
{
	double w = 0;

	for (int p = 0; p < CEIL_NPROBES; p++)
		if (f->v[p].measured && f->v[p].spread_pct > w)
			w = f->v[p].spread_pct;
	return w;
}

static void value_text(const struct ceiling_figures *f, enum ceiling_probe_id id, char *buf, size_t size)
{
	const struct ceiling_value *v = &f->v[id];

	if (!v->measured)
		snprintf(buf, size, "-");
	else if (id == CEIL_CORE_CLOCK)
		snprintf(buf, size, "%.3f GHz", v->value / 1e9);
	else if (id == CEIL_MEM_STREAM)
		snprintf(buf, size, "%.1f GB/s", v->value / 1e9);
	else if (id == CEIL_COLD_PAGE)
		snprintf(buf, size, "%.0f ns", v->value);
	else
		snprintf(buf, size, "%.2f %s", v->value, ceiling_probe_unit(id));
}

static int probes_table(const struct ceiling_figures *f, FILE *out)
{
	struct table *t = table_new(3, "lrr");
	char value[64], spread[32];
	int rc = t ? table_add_rowf(t, "LIMIT (best of repeats)", "VALUE", "SPREAD") : -1;

	for (int p = 0; rc == 0 && p < CEIL_NPROBES; p++) {
		value_text(f, (enum ceiling_probe_id)p, value, sizeof(value));
		if (f->v[p].measured)
			snprintf(spread, sizeof(spread), "%.1f%%", f->v[p].spread_pct);
		else
			snprintf(spread, sizeof(spread), "not here");
		rc = table_add_rowf(t, ceiling_probe_label((enum ceiling_probe_id)p), value, spread);
	}
	for (unsigned w = 16; rc == 0 && w <= 64; w *= 2) {
		double o = ceiling_coissue(f, w);
		if (o < 0)
			continue;
		char label[80];
		snprintf(label, sizeof(label), "crc32q / %s overlap in one loop", w == 16 ? "pclmulqdq xmm" :
			 w == 32 ? "vpclmulqdq ymm" : "vpclmulqdq zmm");
		snprintf(value, sizeof(value), "%.0f%%", 100 * o);
		rc = table_add_rowf(t, label, value, "");
	}
	if (rc == 0)
		rc = table_print(t, out);
	table_free(t);
	return rc;
}

static int bounds_table(const struct ceiling_report *r, FILE *out)
{
	struct table *t = table_new(4, "lrrl");
	char hot[32], cold[32];
	int rc = t ? table_add_rowf(t, "HASH", "CEILING GB/s", "COLD GB/s", "LIMITED BY") : -1;

	for (unsigned i = 0; rc == 0 && i < r->nhashes; i++) {
		struct ceiling_bound b;
		if (ceiling_bound(r->figures, r->hashes[i], r->page_size, &b))
			continue;
		snprintf(hot, sizeof(hot), "%.1f", b.bytes_per_s / 1e9);
		snprintf(cold, sizeof(cold), "%.1f", b.cold_bytes_per_s / 1e9);
		rc = table_add_rowf(t, r->hashes[i]->name, hot, cold, b.limit);
	}
	if (rc == 0)
		rc = table_print(t, out);
	table_free(t);
	return rc;
}

int ceiling_report_table(const struct ceiling_report *r, FILE *out)
{
	const struct ceiling_figures *f = r->figures;

	if (fprintf(out, "ceiling: %s (family %d, model %d), %.2f s, best of %u repeats, largest spread %.1f%%\n\n",
		    r->cpu->known ? r->cpu->brand : "unknown CPU", r->cpu->ext_family, r->cpu->ext_model, f->elapsed_s,
		    f->repeats, worst_spread(f)) < 0 ||
	    probes_table(f, out))
		return -1;
	if (fprintf(out, "\nceilings at %zu B per call (hot: L1; cold: streamed from memory); docs/ceilings.md\n\n",
		    r->page_size) < 0)
		return -1;
	return bounds_table(r, out);
}

static cJSON *probes_json(const struct ceiling_figures *f)
{
	cJSON *o = cJSON_CreateObject();

	for (int p = 0; p < CEIL_NPROBES; p++) {
		cJSON *e = cJSON_AddObjectToObject(o, ceiling_probe_key((enum ceiling_probe_id)p));
		cJSON_AddBoolToObject(e, "measured", f->v[p].measured);
		if (f->v[p].measured) {
			cJSON_AddNumberToObject(e, "value", f->v[p].value);
			cJSON_AddNumberToObject(e, "spread_pct", f->v[p].spread_pct);
		} else {
			cJSON_AddNullToObject(e, "value");
			cJSON_AddNullToObject(e, "spread_pct");
		}
		cJSON_AddStringToObject(e, "unit", ceiling_probe_unit((enum ceiling_probe_id)p));
		cJSON_AddStringToObject(e, "what", ceiling_probe_label((enum ceiling_probe_id)p));
	}
	return o;
}

static cJSON *bounds_json(const struct ceiling_report *r)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned i = 0; arr && i < r->nhashes; i++) {
		struct ceiling_bound b;
		cJSON *e = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, e);
		cJSON_AddStringToObject(e, "hash", r->hashes[i]->name);
		int rc = ceiling_bound(r->figures, r->hashes[i], r->page_size, &b);
		if (rc == 0) {
			cJSON_AddNumberToObject(e, "ceiling_bytes_per_second", b.bytes_per_s);
			cJSON_AddNumberToObject(e, "cold_ceiling_bytes_per_second", b.cold_bytes_per_s);
			cJSON_AddStringToObject(e, "formula", b.formula);
		} else {
			cJSON_AddNullToObject(e, "ceiling_bytes_per_second");
			cJSON_AddNullToObject(e, "cold_ceiling_bytes_per_second");
			cJSON_AddNullToObject(e, "formula");
		}
		cJSON_AddStringToObject(e, "limited_by", b.limit);
	}
	return arr;
}

int ceiling_report_json(const struct ceiling_report *r, FILE *out)
{
	const struct ceiling_figures *f = r->figures;
	cJSON *root = cJSON_CreateObject(), *cpu = cJSON_AddObjectToObject(root, "cpu");
	int rc = 0;

	cJSON_AddStringToObject(cpu, "brand", r->cpu->known ? r->cpu->brand : "");
	cJSON_AddStringToObject(cpu, "vendor", r->cpu->known ? r->cpu->vendor : "");
	cJSON_AddNumberToObject(cpu, "family", r->cpu->ext_family);
	cJSON_AddNumberToObject(cpu, "model", r->cpu->ext_model);
	cJSON_AddNumberToObject(root, "elapsed_s", f->elapsed_s);
	cJSON_AddNumberToObject(root, "repeats", f->repeats);
	cJSON_AddNumberToObject(root, "largest_spread_pct", worst_spread(f));
	cJSON_AddNumberToObject(root, "stream_bytes", (double)f->stream_bytes);
	cJSON_AddItemToObject(root, "limits", probes_json(f));
	cJSON *co = cJSON_AddObjectToObject(root, "coissue");
	static const char *const widths[] = { "xmm", "ymm", "zmm" };
	for (unsigned i = 0, w = 16; i < 3; i++, w *= 2) {
		double o = ceiling_coissue(f, w);
		if (o < 0)
			cJSON_AddNullToObject(co, widths[i]);
		else
			cJSON_AddNumberToObject(co, widths[i], o);
	}
	cJSON_AddNumberToObject(root, "page_size", (double)r->page_size);
	cJSON_AddItemToObject(root, "ceilings", bounds_json(r));
	char *text = cJSON_Print(root);
	if (!text || fprintf(out, "%s\n", text) < 0)
		rc = -1;
	free(text);
	cJSON_Delete(root);
	return rc;
}
