/* Kernel release parsing and comparison (see kernel_release.h). */
#include "kernel_release.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

/* A number of up to 6 digits at *p, no sign (sscanf's %u took "-1" and
 * "99999999999999999999" as numbers); -1 where there is none. */
static long release_number(const char **p)
{
	long v = 0;
	int digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 7)
		v = v * 10 + (*(*p)++ - '0'), digits++;
	return digits == 0 || digits > 6 ? -1 : v;
}

int kernel_release_parse(const char *text, struct kernel_release *r)
{
	const char *p = text;

	r->patch = 0;
	if ((r->major = release_number(&p)) < 0 || *p++ != '.' || (r->minor = release_number(&p)) < 0)
		return -1;
	if (*p == '.') {
		p++;
		if ((r->patch = release_number(&p)) < 0)
			return -1;
	}
	return 0; /* a number stops at a non-digit, or fails at its seventh digit */
}

int kernel_release_plausible(const char *text)
{
	size_t n = 0;

	for (; text[n]; n++)
		if (n == KERNEL_RELEASE_MAX || (unsigned char)text[n] <= ' ' || (unsigned char)text[n] > '~')
			return 0;
	return n > 0;
}

const struct kernel_release *kernel_release_or_newest(const char *text, struct kernel_release *r)
{
	return text && kernel_release_parse(text, r) == 0 ? r : NULL;
}

int kernel_release_at_least(const struct kernel_release *r, const char *since)
{
	struct kernel_release s;

	if (!r || !since)
		return 1;
	if (kernel_release_parse(since, &s))
		return 1; /* the registry's are checked by test_registry */
	if (r->major != s.major)
		return r->major > s.major;
	if (r->minor != s.minor)
		return r->minor > s.minor;
	return r->patch >= s.patch;
}

const char *kernel_release_checked_note(const char *text)
{
	struct kernel_release r, newest;

	if (!text || kernel_release_parse(text, &r) || kernel_release_parse(KERNEL_RELEASE_NEWEST_CHECKED, &newest))
		return "";
	if (r.major < newest.major || (r.major == newest.major && r.minor <= newest.minor))
		return "";
	return ", taken as " KERNEL_RELEASE_NEWEST_CHECKED ", the newest release checked";
}

const char *kernel_release_running(char *buf, size_t cap)
{
	const char *posed = getenv("KSMBENCH_KERNEL_RELEASE");
	struct utsname u;

	if (posed && *posed)
		snprintf(buf, cap, "%s", posed);
	else if (uname(&u) == 0)
		snprintf(buf, cap, "%s", u.release);
	else
		return NULL;
	return buf;
}
