/* The system note of a capture (capture_note.h): the kernel release, the
 * page size, HZ, the THP mode and the KSM settings when the core is written,
 * read from uname and /sys/kernel/mm (a setting the kernel lacks is left
 * out). */
#include "capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../common/kernel_timer.h"
#include "capture_note.h"

static const char *const ksm_settings[] = {
	"run", "pages_to_scan", "sleep_millisecs", "max_page_sharing", "use_zero_pages",
	"merge_across_nodes", "smart_scan", "advisor_mode", "stable_node_chains_prune_millisecs",
};

/* A sysfs file's value, trimmed; for "a [b] c" choices the chosen one.
 * A regular file only, opened without blocking: a FIFO in a setting's
 * place (a KSMBENCH_KSM_DIR of tests) waited for a writer, for ever. */
static int sysfs_value(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
	char line[256];

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		snprintf(buf, len, "%s", open + 1);
	} else {
		snprintf(buf, len, "%s", line);
	}
	return 0;
}

size_t capture_system_text(char *buf, size_t cap, const char *ksm_dir)
{
	struct utsname u;
	char path[4096], value[256];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, cap - n, "%s\n", KB_NOTE_SYSTEM_TAG);
	if (uname(&u) == 0 && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "kernel_release=%s\nmachine=%s\n", u.release, u.machine);
	if (n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "page_size=%ld\n", sysconf(_SC_PAGESIZE));
	unsigned hz = kernel_hz_running();
	if (hz && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "hz=%u\n", hz);
	if (n < cap && sysfs_value("/sys/kernel/mm/transparent_hugepage/enabled", value, sizeof(value)) == 0)
		n += (size_t)snprintf(buf + n, cap - n, "thp.enabled=%s\n", value);
	for (size_t i = 0; i < sizeof(ksm_settings) / sizeof(ksm_settings[0]) && n < cap; i++) {
		snprintf(path, sizeof(path), "%s/%s", ksm_dir, ksm_settings[i]);
		if (sysfs_value(path, value, sizeof(value)) == 0)
			n += (size_t)snprintf(buf + n, cap - n, "ksm.%s=%s\n", ksm_settings[i], value);
	}
	return n < cap ? n : cap - 1;
}
