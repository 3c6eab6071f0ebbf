/* The CPU time this process's cgroup may use: a container's CPU limit
 * (cgroup v2's cpu.max, v1's cpu.cfs_quota_us over cpu.cfs_period_us), the
 * tightest of the cgroup and its ancestors. Under a quota below one CPU the
 * measuring thread is stopped for part of every period. */
#ifndef KB_CPU_QUOTA_H
#define KB_CPU_QUOTA_H

struct cpu_quota {
	double cpus;                    /* quota / period; 0: no limit found */
	unsigned long long quota_us, period_us;
	const char *file;               /* "cpu.max" or "cpu.cfs_quota_us" */
};

/* Reads the limit of the cgroup that cgroup_file (/proc/self/cgroup) names,
 * under root (/sys/fs/cgroup); q->cpus 0 when there is none or nothing can
 * be read (never an error: the limit is context, not a precondition). */
void cpu_quota_find(const char *cgroup_file, const char *root, struct cpu_quota *q);

#endif
