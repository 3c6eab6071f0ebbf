/* The CPU's vendor, family and model from CPUID leaf 0 and 1 (see
 * cpu_identity.h); libcpuid describes the CPU for reports, this decides. */
#include "cpu_identity.h"

#include <stdlib.h>
#include <string.h>

#include "../common/quote.h"
#include "cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include "../common/cpuid.h"
#endif

static struct cpu_identity detected, simulated;
static int detected_done, simulating;

static void detect(struct cpu_identity *id)
{
	memset(id, 0, sizeof(*id));
#if defined(__x86_64__) || defined(__i386__)
	unsigned r[4];
	if (!kb_cpuid(0, 0, r))
		return;
	memcpy(id->vendor, &r[1], 4);
	memcpy(id->vendor + 4, &r[3], 4);
	memcpy(id->vendor + 8, &r[2], 4);
	if (!kb_cpuid(1, 0, r))
		return;
	unsigned a = r[0], base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
	id->family = base_family + (base_family == 0xf ? (a >> 20) & 0xff : 0);
	id->model = base_model | ((base_family == 0xf || base_family == 0x6) ? ((a >> 16) & 0xf) << 4 : 0);
#endif
}

const struct cpu_identity *cpu_identity(void)
{
	return simulating ? &simulated : cpu_identity_detected();
}

const struct cpu_identity *cpu_identity_detected(void)
{
	if (!detected_done) {
		detect(&detected);
		detected_done = 1;
	}
	return &detected;
}

int cpu_identity_simulate(const char *spec, struct kb_err *err)
{
	struct cpu_identity id;
	const char *colon = strchr(spec, ':');
	char *end, q[KB_QUOTE_SIZE];

	memset(&id, 0, sizeof(id));
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(id.vendor))
		return kb_fail(err, "KSMBENCH_CPU '%s' is not VENDOR:FAMILY:MODEL", kb_quote(spec, q));
	memcpy(id.vendor, spec, (size_t)(colon - spec));
	unsigned long family = strtoul(colon + 1, &end, 0);
	if (end == colon + 1 || *end != ':' || family > 0xfff)
		return kb_fail(err, "KSMBENCH_CPU '%s' is not VENDOR:FAMILY:MODEL", kb_quote(spec, q));
	const char *model_text = end + 1;
	unsigned long model = strtoul(model_text, &end, 0);
	if (end == model_text || *end || model > 0xff)
		return kb_fail(err, "KSMBENCH_CPU '%s' is not VENDOR:FAMILY:MODEL", kb_quote(spec, q));
	id.family = (unsigned)family;
	id.model = (unsigned)model;
	id.simulated = 1;
	simulated = id;
	simulating = 1;
	return 0;
}

void cpu_identity_real(void)
{
	simulating = 0;
}

unsigned cpu_identity_key(void)
{
	/* The feature mask is part of what the CPU "is" for the choices. */
	const struct cpu_identity *id = cpu_identity();
	unsigned h = cpu_features() * 2654435761u;

	for (const char *v = id->vendor; *v; v++)
		h = h * 31 + (unsigned char)*v;
	return h ^ (id->family << 8) ^ id->model ^ (unsigned)id->simulated << 30;
}
