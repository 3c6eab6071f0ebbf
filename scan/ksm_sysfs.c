/* Reading the live KSM counters (see ksm_sysfs.h). The meanings follow the
 * kernel's Documentation/admin-guide/mm/ksm.rst, in our words. */
#include "ksm_sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/line_read.h"
#include "../common/quote.h"

static const struct {
	const char *name, *meaning;
} meanings[] = {
	{ "run", "0: ksmd stopped (merged pages stay merged), 1: ksmd runs, 2: unmerge every page and stop" },
	{ "pages_to_scan", "pages ksmd scans per batch before it sleeps" },
	{ "sleep_millisecs", "ms ksmd sleeps between batches" },
	{ "pages_shared", "KSM pages in use (each maps one content for several processes or addresses)" },
	{ "pages_sharing", "further mappings of KSM pages: the pages saved" },
	{ "pages_unshared", "pages scanned repeatedly but unique so far (in the unstable tree)" },
	{ "pages_volatile", "pages changing too fast to be put in a tree" },
	{ "pages_skipped", "pages smart_scan skipped (merging failed for them before)" },
	{ "pages_scanned", "pages scanned since KSM was started" },
	{ "full_scans", "full scans of all mergeable memory completed" },
	{ "use_zero_pages", "1: pages of zeros are mapped to the zero page (after a full compare), not to a KSM page" },
	{ "ksm_zero_pages", "pages mapped to the zero page by use_zero_pages" },
	{ "general_profit", "bytes saved: pages_sharing (+ ksm_zero_pages from 6.6) * PAGE_SIZE - rmap items * their size" },
	{ "max_page_sharing", "most mappings per KSM page; more copies make further KSM pages (stable node chains)" },
	{ "merge_across_nodes", "1: merge pages of different NUMA nodes" },
	{ "stable_node_chains", "contents with more than max_page_sharing copies (chains of KSM pages)" },
	{ "stable_node_dups", "KSM pages in those chains" },
	{ "stable_node_chains_prune_millisecs", "how often stale chain entries are pruned" },
	{ "smart_scan", "1: skip pages that did not merge in earlier scans, for more and more scans" },
	{ "advisor_mode", "none, or scan-time: pages_to_scan is tuned to reach advisor_target_scan_time" },
	{ "advisor_target_scan_time", "scan-time advisor: seconds a full scan should take" },
	{ "advisor_max_cpu", "scan-time advisor: most CPU percent ksmd may use" },
	{ "advisor_min_pages_to_scan", "scan-time advisor: lowest pages_to_scan" },
	{ "advisor_max_pages_to_scan", "scan-time advisor: highest pages_to_scan" },
	/* /proc/PID/ksm_stat */
	{ "ksm_rmap_items", "pages of the process KSM tracks (one rmap item each)" },
	{ "ksm_merging_pages", "pages of the process mapped to KSM pages" },
	{ "ksm_process_profit", "bytes the process saves, its rmap items deducted" },
	{ "ksm_merge_any", "the whole process is mergeable (prctl PR_SET_MEMORY_MERGE)" },
	{ "ksm_mergeable", "the process has mergeable memory" },
};

#define NMEANINGS (sizeof(meanings) / sizeof(meanings[0]))

/* A counter's line in meanings, NMEANINGS if unknown: its place in the
 * listing too (known ones first, in this order). */
static int known_rank(const char *name)
{
	for (size_t i = 0; i < NMEANINGS; i++)
		if (strcmp(meanings[i].name, name) == 0)
			return (int)i;
	return (int)NMEANINGS;
}

static void set_value(struct ksm_value *v, const char *name, const char *text)
{
	char *end;

	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	/* "[none] scan-time": the bracketed choice */
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(v->text, sizeof(v->text), "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(v->text, sizeof(v->text), "%s", text);
	errno = 0;
	v->number = strtoll(v->text, &end, 10);
	v->is_number = v->text[0] && *end == '\0' && errno == 0;
	int rank = known_rank(name);
	v->meaning = rank < (int)NMEANINGS ? meanings[rank].meaning : NULL;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

static int value_cmp(const void *a, const void *b)
{
	const struct ksm_value *x = a, *y = b;
	int rx = known_rank(x->name), ry = known_rank(y->name);

	return rx != ry ? rx - ry : strcmp(x->name, y->name);
}

int ksm_read_sysfs(const char *dir, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096], buf[256], named[KSM_DIR_NAMED_SIZE];

	*n = 0;
	ksm_sysfs_dir_named(dir, named);
	if (!d)
		return kb_fail_errno(err, errno, "cannot read %s%s", named, ksm_sysfs_missing_hint(dir));
	while ((de = readdir(d))) {
		struct stat sb;
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path)) {
			closedir(d);
			return kb_fail(err, "%s: a path in it is too long", named);
		}
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		/* Every file, or an error: the known ones sort first, and a cut
		 * list left run and pages_to_scan out without a word, as did a
		 * file that could not be read (out of descriptors, its mode). */
		FILE *f = fopen(path, "r");
		if (!f || *n == max) {
			/* Said before closedir, which frees the entry's name. */
			int e = errno;
			int rc = f ? kb_fail(err, "%s holds more than %zu files: not KSM's directory", named, max)
				   : kb_fail_errno(err, e, "cannot read %.255s in %s", de->d_name, named);
			if (f)
				fclose(f);
			closedir(d);
			return rc;
		}
		if (fgets(buf, sizeof(buf), f)) {
			trim(buf);
			set_value(&out[(*n)++], de->d_name, buf);
		}
		fclose(f);
	}
	closedir(d);
	if (*n == 0)
		return kb_fail(err, "%s holds no KSM settings or counters: not KSM's directory", named);
	qsort(out, *n, sizeof(*out), value_cmp);
	return 0;
}

int ksm_read_process(pid_t pid, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err)
{
	char dir[32];

	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	return ksm_read_process_dir(dir, out, max, n, err);
}

int ksm_read_process_dir(const char *dir, struct ksm_value *out, size_t max, size_t *n, struct kb_err *err)
{
	char path[4096], line[256];
	struct stat sb;
	FILE *f;

	*n = 0;
	if (stat(dir, &sb) != 0)
		return kb_fail_errno(err, errno, "cannot read %s (no such process?)", dir);
	snprintf(path, sizeof(path), "%s/ksm_stat", dir);
	if (!(f = fopen(path, "r")) && errno != ENOENT)
		return kb_fail_errno(err, errno, "cannot read %s", path);
	while (f && kb_read_line(f, line, sizeof(line)) && *n < max) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		if (sp > line && sp[-1] == ':') /* "ksm_merge_any: no" */
			sp[-1] = '\0';
		trim(sp + 1);
		set_value(&out[(*n)++], line, sp + 1);
	}
	int stat_file = f != NULL;
	if (f)
		fclose(f);
	/* ksm_stat repeats it on recent kernels; 5.19 and 6.0 have only this file. */
	int have = 0;
	for (size_t i = 0; i < *n; i++)
		have |= strcmp(out[i].name, "ksm_merging_pages") == 0;
	snprintf(path, sizeof(path), "%s/ksm_merging_pages", dir);
	if (!stat_file && access(path, F_OK) != 0)
		return kb_fail(err, "%s has neither ksm_stat (6.1+) nor ksm_merging_pages (5.19+): a kernel before "
				    "5.19", dir);
	if (!have && *n < max && (f = fopen(path, "r"))) {
		if (fgets(line, sizeof(line), f)) {
			trim(line);
			set_value(&out[(*n)++], "ksm_merging_pages", line);
		}
		fclose(f);
	}
	/* Both files are empty for a task without memory of its own. */
	if (*n == 0)
		return kb_fail(err, "%s has no KSM counters: the process has no user memory (a kernel thread, or "
				    "exiting)", dir);
	return 0;
}

const char *ksm_sysfs_dir(void)
{
	const char *dir = getenv("KSMBENCH_KSM_DIR");

	return dir && *dir ? dir : KSM_SYSFS_DIR;
}

const char *ksm_sysfs_dir_named(const char *dir, char buf[KSM_DIR_NAMED_SIZE])
{
	const char *env = getenv("KSMBENCH_KSM_DIR");
	char q[KB_QUOTE_SIZE];

	snprintf(buf, KSM_DIR_NAMED_SIZE, env && *env && strcmp(env, dir) == 0 ? "KSMBENCH_KSM_DIR '%s'" : "%s",
		 kb_quote(dir, q));
	return buf;
}

const char *ksm_sysfs_missing_hint(const char *dir)
{
	return strcmp(dir, KSM_SYSFS_DIR) == 0 ? " (a kernel without KSM?)" : "";
}

unsigned ksm_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (unsigned)page : 4096u;
}
