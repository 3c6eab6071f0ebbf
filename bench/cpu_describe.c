/* The CPU's identity and caches, for reports and for sizing cold working
 * sets: from libcpuid where the build has it, else from /proc/cpuinfo and
 * glibc's cache sizes (libcpuid is not packaged for every architecture).
 * Dispatch does not use any of this: see hashes/cpu_features.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef KB_HAVE_LIBCPUID
#include <libcpuid.h>
#endif

#include "../common/line_read.h"
#include "cpu_describe.h"

static void trim_blanks(char *s)
{
	for (size_t n = strlen(s); n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'); n--)
		s[n - 1] = '\0';
}

#ifdef KB_HAVE_LIBCPUID
static int identify(struct cpu_description *out, struct cpu_raw_data_t *raw, struct cpu_id_t *id)
{
	if (!cpuid_present() || cpuid_get_raw_data(raw) != 0 || cpu_identify(raw, id) != 0)
		return -1;
	strncpy(out->vendor, id->vendor_str, sizeof(out->vendor) - 1);
	strncpy(out->brand, id->brand_str, sizeof(out->brand) - 1);
	out->family = id->family;
	out->model = id->model;
	out->stepping = id->stepping;
	out->ext_family = id->ext_family;
	out->ext_model = id->ext_model;
	out->l1d_kib = id->l1_data_cache;
	out->l2_kib = id->l2_cache;
	out->l3_kib = id->l3_cache;
	return 0;
}

/* libcpuid's structures are several KiB: on the heap. */
static int describe(struct cpu_description *out)
{
	struct cpu_raw_data_t *raw = malloc(sizeof(*raw));
	struct cpu_id_t *id = malloc(sizeof(*id));
	int rc = raw && id ? identify(out, raw, id) : -1;

	free(raw);
	free(id);
	return rc;
}
#else
static int cache_kib(int name)
{
	long bytes = sysconf(name);
	return bytes > 0 ? (int)(bytes >> 10) : -1;
}

/* "key : value" lines of /proc/cpuinfo, first CPU only. */
static int describe(struct cpu_description *out)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int found = 0;

	if (!f)
		return -1;
	while (kb_read_line(f, line, sizeof(line)) && line[0] != '\n') {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *value = colon + 1 + (colon[1] == ' ');
		*colon = '\0';
		trim_blanks(line);
		trim_blanks(value);
		if (!strcmp(line, "vendor_id") || !strcmp(line, "CPU implementer"))
			found |= snprintf(out->vendor, sizeof(out->vendor), "%s", value) > 0;
		else if (!strcmp(line, "model name"))
			found |= snprintf(out->brand, sizeof(out->brand), "%s", value) > 0;
		else if (!strcmp(line, "cpu family") || !strcmp(line, "CPU architecture"))
			out->ext_family = out->family = atoi(value);
		else if (!strcmp(line, "model") || !strcmp(line, "CPU part"))
			out->ext_model = out->model = (int)strtol(value, NULL, 0);
		else if (!strcmp(line, "stepping") || !strcmp(line, "CPU revision"))
			out->stepping = atoi(value);
	}
	fclose(f);
	out->l1d_kib = cache_kib(_SC_LEVEL1_DCACHE_SIZE);
	out->l2_kib = cache_kib(_SC_LEVEL2_CACHE_SIZE);
	out->l3_kib = cache_kib(_SC_LEVEL3_CACHE_SIZE);
	return found ? 0 : -1;
}
#endif

void cpu_describe(struct cpu_description *out)
{
	memset(out, 0, sizeof(*out));
	out->l1d_kib = out->l2_kib = out->l3_kib = -1;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	out->logical_cpus = online > 0 ? (int)online : 0;
	if (describe(out) != 0)
		return;
	out->known = 1;
	trim_blanks(out->brand); /* brand strings are padded with blanks */
}

uint64_t cpu_llc_bytes(const struct cpu_description *d)
{
	int kib = d->l3_kib > 0 ? d->l3_kib : d->l2_kib > 0 ? d->l2_kib : 0;
	return (uint64_t)kib << 10;
}
