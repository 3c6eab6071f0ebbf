/* The CPU's identity and caches from libcpuid, for reports and for sizing
 * cold working sets. (Dispatch does not use libcpuid: see cpu_features.c.) */
#include <libcpuid.h>
#include <string.h>
#include <unistd.h>

#include "context.h"

void cpu_describe(struct cpu_description *out)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	memset(out, 0, sizeof(*out));
	out->l1d_kib = out->l2_kib = out->l3_kib = -1;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	out->logical_cpus = online > 0 ? (int)online : 0;
	if (!cpuid_present() || cpuid_get_raw_data(&raw) != 0 || cpu_identify(&raw, &id) != 0)
		return;
	out->known = 1;
	strncpy(out->vendor, id.vendor_str, sizeof(out->vendor) - 1);
	strncpy(out->brand, id.brand_str, sizeof(out->brand) - 1);
	/* Brand strings are padded with blanks. */
	for (size_t n = strlen(out->brand); n > 0 && out->brand[n - 1] == ' '; n--)
		out->brand[n - 1] = '\0';
	out->family = id.family;
	out->model = id.model;
	out->stepping = id.stepping;
	out->ext_family = id.ext_family;
	out->ext_model = id.ext_model;
	out->l1d_kib = id.l1_data_cache;
	out->l2_kib = id.l2_cache;
	out->l3_kib = id.l3_cache;
}

uint64_t cpu_llc_bytes(const struct cpu_description *d)
{
	int kib = d->l3_kib > 0 ? d->l3_kib : d->l2_kib > 0 ? d->l2_kib : 0;
	return (uint64_t)kib << 10;
}
