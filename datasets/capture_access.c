/* Why capture cannot read a process (see capture_state.h): no such
 * process, one without user memory, or a refusal with its cause (another
 * user's process, Yama's ptrace_scope, dumpability), as one error. */
#include "capture_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/line_read.h"

long capture_read_number(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (kb_read_line(f, line, sizeof(line))) {
		if (!key) {
			v = strtol(line, NULL, 10);
			break;
		}
		if (strncmp(line, key, strlen(key)) == 0) {
			v = strtol(line + strlen(key), NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Why this process may not read pid's memory, as one phrase (ownership,
 * Yama ptrace_scope, CAP_SYS_PTRACE, dumpability). */
static void capture_permission_cause(pid_t pid, char *buf, size_t len)
{
	char path[64];
	int cap = capture_has_cap_sys_ptrace();

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	long uid = capture_read_number(path, "Uid:");
	long scope = capture_read_number("/proc/sys/kernel/yama/ptrace_scope", NULL);
	uid_t me = geteuid();

	if (uid >= 0 && (uid_t)uid != me && !cap)
		snprintf(buf, len, "process %d belongs to another user (uid %ld, you are uid %u) and you "
			 "lack CAP_SYS_PTRACE: run as that user or as root", (int)pid, uid, (unsigned)me);
	else if (scope == 3)
		snprintf(buf, len, "Yama ptrace_scope is 3: no process may read another's memory "
			 "until reboot");
	else if (scope == 2 && !cap)
		snprintf(buf, len, "Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE may "
			 "read another's memory (run as root)");
	else if (scope == 1 && !cap)
		snprintf(buf, len, "Yama ptrace_scope is 1: only an ancestor may read a process's "
			 "memory (run as root, or sysctl kernel.yama.ptrace_scope=0)");
	else
		snprintf(buf, len, "process %d is not dumpable (setuid or PR_SET_DUMPABLE 0) or a "
			 "security module forbids reading it", (int)pid);
}

int capture_fail_access(pid_t pid, int e, const char *what, struct kb_err *err)
{
	char cause[256];

	if (e == ESRCH || e == ENOENT) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (access(path, F_OK) == 0)
			return kb_fail(err, "PID %d has no user memory to read (a kernel thread, or a process that "
					    "is exiting)", (int)pid);
		return kb_fail(err, "no process with PID %d", (int)pid);
	}
	if (e != EACCES && e != EPERM)
		return kb_fail_errno(err, e, "cannot read %s of process %d", what, (int)pid);
	capture_permission_cause(pid, cause, sizeof(cause));
	return kb_fail(err, "permission denied reading %s of process %d: %s", what, (int)pid, cause);
}
