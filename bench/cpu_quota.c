/* A cgroup's CPU limit, walked up from this process's cgroup (see
 * cpu_quota.h). */
#include "cpu_quota.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/line_read.h"

/* The first line of path, "" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = '\0';
		fclose(f);
	}
}

/* The limit in dir (v2: cpu.max "QUOTA PERIOD" or "max PERIOD"; v1: a
 * quota of -1 is none), or 0. */
static double limit_in(const char *dir, int v2, unsigned long long *quota, unsigned long long *period)
{
	char path[PATH_MAX + 32], line[64];
	long long q;

	if (v2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		read_line(path, line, sizeof(line));
		if (sscanf(line, "%llu %llu", quota, period) != 2)
			return 0;
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		read_line(path, line, sizeof(line));
		if (sscanf(line, "%lld", &q) != 1 || q <= 0)
			return 0;
		*quota = (unsigned long long)q;
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		read_line(path, line, sizeof(line));
		if (sscanf(line, "%llu", period) != 1)
			return 0;
	}
	return *quota && *period ? (double)*quota / (double)*period : 0;
}

/* The tightest limit from mount + cgroup up to mount. */
static void walk_up(const char *mount, const char *cgroup, int v2, struct cpu_quota *q)
{
	char dir[PATH_MAX];
	unsigned long long quota, period;

	if (snprintf(dir, sizeof(dir), "%s%s", mount, strcmp(cgroup, "/") == 0 ? "" : cgroup) >= (int)sizeof(dir))
		return;
	for (size_t top = strlen(mount);;) {
		double cpus = limit_in(dir, v2, &quota, &period);
		if (cpus > 0 && (q->cpus == 0 || cpus < q->cpus)) {
			q->cpus = cpus;
			q->quota_us = quota;
			q->period_us = period;
			q->file = v2 ? "cpu.max" : "cpu.cfs_quota_us";
		}
		char *slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < top)
			return;
		*slash = '\0';
	}
}

void cpu_quota_find(const char *cgroup_file, const char *root, struct cpu_quota *q)
{
	FILE *f = fopen(cgroup_file, "re");
	char line[PATH_MAX + 64], mount[PATH_MAX];

	memset(q, 0, sizeof(*q));
	if (!f)
		return;
	/* "ID:CONTROLLERS:PATH": v1's cpu controller, or v2's single line "0::PATH". */
	while (kb_read_line(f, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		char *controllers = strchr(line, ':'), *path = controllers ? strchr(controllers + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		controllers++;
		if (*controllers == '\0') {
			snprintf(mount, sizeof(mount), "%s", root);
			walk_up(mount, path, 1, q);
			snprintf(mount, sizeof(mount), "%s/unified", root); /* the hybrid layout */
			walk_up(mount, path, 1, q);
			continue;
		}
		char *save = NULL;
		for (char *c = strtok_r(controllers, ",", &save); c; c = strtok_r(NULL, ",", &save))
			if (strcmp(c, "cpu") == 0) {
				/* Mounted as cpu, or as cpu,cpuacct with cpu a link to it: read once. */
				snprintf(mount, sizeof(mount), "%s/cpu", root);
				if (access(mount, F_OK) != 0)
					snprintf(mount, sizeof(mount), "%s/cpu,cpuacct", root);
				walk_up(mount, path, 0, q);
			}
	}
	fclose(f);
}
