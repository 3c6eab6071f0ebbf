/* The live KSM state: /sys/kernel/mm/ksm (one value per file) and a
 * process's /proc/PID/ksm_stat and ksm_merging_pages, with what each
 * counter means. Files this kernel does not have are left out. */
#ifndef KB_KSM_SYSFS_H
#define KB_KSM_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

#include "../common/err.h"

#define KSM_SYSFS_DIR "/sys/kernel/mm/ksm"
#define KSM_VALUES_MAX 64

struct ksm_value {
	char name[64];
	char text[128];       /* the file's content, trimmed; for "[a] b" choices the chosen one */
	int is_number;
	long long number;
	const char *meaning;  /* NULL for a file this program does not know */
};

/* The kernel's page size, the pages ksmd scans (4096 where sysconf
 * cannot say). */
unsigned ksm_page_size(void);

/* The directory KSM's files are read from: KSMBENCH_KSM_DIR where set and
 * not empty (tests pose as other kernels' KSM), else KSM_SYSFS_DIR. */
const char *ksm_sysfs_dir(void);

/* Room for ksm_sysfs_dir_named's text. */
#define KSM_DIR_NAMED_SIZE 96

/* dir as an error names it: "KSMBENCH_KSM_DIR '...'" (the value cut,
 * common/quote.h) where the variable gave it, else dir itself (cut too);
 * in buf, returned. */
const char *ksm_sysfs_dir_named(const char *dir, char buf[KSM_DIR_NAMED_SIZE]);

/* ", a kernel without KSM?" after an error reading dir where it is the
 * kernel's directory; "" where a test named another. */
const char *ksm_sysfs_missing_hint(const char *dir);

/* Reads every regular file of dir (KSM_SYSFS_DIR): the known ones in a
 * fixed order, then the others by name. Fails if dir cannot be opened. */
int ksm_read_sysfs(const char *dir, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err);

/* /proc/PID/ksm_stat ("name value" lines, 6.1+) and
 * /proc/PID/ksm_merging_pages (5.19+, the only one before 6.1). */
int ksm_read_process(pid_t pid, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err);
/* The same from a process's directory (tests give one of their own). */
int ksm_read_process_dir(const char *dir, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err);

#endif
