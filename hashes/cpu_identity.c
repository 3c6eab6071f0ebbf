/* The CPU's vendor, family and model from CPUID leaf 0 and 1 (see
 * cpu_identity.h); libcpuid describes the CPU for reports, this decides. */
#include "cpu_identity.h"

#include <ctype.h>
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

/* A number of KSMBENCH_CPU at *p, up to max: decimal, or hexadecimal after
 * 0x, and nothing else (strtoul's base 0 took "025" as octal 21, and
 * signs and leading spaces). *p moves past it; -1 where there is none. */
static int spec_number(const char **p, unsigned long max, unsigned *out)
{
	int hex = (*p)[0] == '0' && ((*p)[1] == 'x' || (*p)[1] == 'X');
	const char *s = *p + (hex ? 2 : 0), *start = s;
	unsigned long v = 0;

	for (; hex ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s); s++) {
		unsigned d = isdigit((unsigned char)*s) ? (unsigned)(*s - '0') : (unsigned)(tolower(*s) - 'a' + 10);
		if ((v = v * (hex ? 16 : 10) + d) > max)
			return -1;
	}
	if (s == start)
		return -1;
	*p = s;
	*out = (unsigned)v;
	return 0;
}

int cpu_identity_simulate(const char *spec, struct kb_err *err)
{
	struct cpu_identity id;
	const char *colon = strchr(spec, ':'), *p = colon ? colon + 1 : spec;
	char q[KB_QUOTE_SIZE];

	memset(&id, 0, sizeof(id));
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(id.vendor) ||
	    spec_number(&p, 0xfff, &id.family) || *p++ != ':' || spec_number(&p, 0xff, &id.model) || *p)
		return kb_fail(err, "KSMBENCH_CPU '%s' is not VENDOR:FAMILY:MODEL (numbers decimal or 0x-prefixed)",
			       kb_quote(spec, q));
	memcpy(id.vendor, spec, (size_t)(colon - spec));
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
