/* ksmd's profile (see ksmd_profile.h): one sampling event on the ksmd
 * thread, its ring buffer drained every 20 ms, the addresses counted per
 * symbol and the symbols sorted into the parts of KSM's work. */
#include "ksmd_profile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../common/monotonic.h"
#include "kallsyms.h"
#include "ksm_sysfs.h"
#include "ksm_watch.h"

#define RING_PAGES 64u
#define SAMPLE_HZ 4000u

static const char *const part_names[KSMD_PARTS] = { "checksum", "memcmp_pages", "tree walks", "rest" };

const char *ksmd_part_name(enum ksmd_part p)
{
	return part_names[p];
}

/* calc_checksum/xxh64/jhash2: the checksum; memcmp_pages and memcmp:
 * compares; the stable and unstable tree functions and rb-tree helpers:
 * tree walks; anything else: the rest. */
enum ksmd_part ksmd_part_of(const char *s)
{
	static const char *const checksum[] = { "calc_checksum", "xxh64", "xxhash", "xxh32", "jhash2", NULL };
	static const char *const compare[] = { "memcmp_pages", "memcmp", "__memcmp", "pages_identical", "bcmp", NULL };
	static const char *const tree[] = { "stable_tree_search", "stable_tree_insert", "unstable_tree_search_insert",
					    "stable_tree_append", "stable_node_dup", "chain", "chain_prune",
					    "__stable_node_chain", "stable_node_dup_remove_range", "rb_insert_color",
					    "rb_erase", "rb_next", "rb_first", "get_ksm_page", "ksm_get_folio", NULL };
	const char *const *lists[] = { checksum, compare, tree };

	if (!s)
		return KSMD_REST;
	for (int p = 0; p < 3; p++)
		for (const char *const *n = lists[p]; *n; n++)
			if (strcmp(s, *n) == 0)
				return (enum ksmd_part)p;
	return KSMD_REST;
}

/* ksmd's PID from /proc (the kernel thread named ksmd): 0 if none. */
static pid_t ksmd_find(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char path[300], comm[32] = "";
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && strcmp(comm, "ksmd\n") == 0)
			found = (pid_t)atol(e->d_name);
		fclose(f);
	}
	closedir(d);
	return found;
}

/* ksmd's CPU time so far: the first field of /proc/PID/schedstat. */
static uint64_t cpu_ns_of(pid_t pid)
{
	char path[64];
	unsigned long long ns = 0;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

/* A sampling event on pid: cycles, else cpu-clock. */
static int open_event(pid_t pid, const char **event, struct kb_err *err)
{
	struct perf_event_attr a;

	for (int sw = 0; sw < 2; sw++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = sw ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
		a.config = sw ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_HW_CPU_CYCLES;
		a.freq = 1;
		a.sample_freq = SAMPLE_HZ;
		a.sample_type = PERF_SAMPLE_IP;
		a.disabled = 1;
		a.exclude_hv = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			*event = sw ? "cpu-clock" : "cycles";
			return fd;
		}
		if (errno == EACCES || errno == EPERM)
			return kb_fail(err, "perf_event_open on ksmd (PID %d) is not permitted: kernel samples "
					    "need root or CAP_PERFMON (and kernel.perf_event_paranoid <= 1)", (int)pid);
		if (sw)
			return kb_fail_errno(err, errno, "perf_event_open on ksmd (PID %d)", (int)pid);
	}
	return -1;
}

struct symcount {
	const char *name;
	uint64_t n;
};

struct sampler {
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	uint64_t data_size;
	const struct kallsyms *syms;
	struct symcount *counts;
	size_t ncounts, cap;
	struct ksmd_profile *p;
};

static int count_symbol(struct sampler *s, const char *name)
{
	for (size_t i = 0; i < s->ncounts; i++)
		if (s->counts[i].name == name) {
			s->counts[i].n++;
			return 0;
		}
	struct symcount *counts = kb_grow(s->counts, &s->cap, s->ncounts + 1, sizeof(*counts), 64);
	if (!counts)
		return -1;
	s->counts = counts;
	s->counts[s->ncounts++] = (struct symcount){ name, 1 };
	return 0;
}

/* Every record in the ring since the last drain. */
static int drain(struct sampler *s, struct kb_err *err)
{
	uint64_t head = __atomic_load_n(&s->meta->data_head, __ATOMIC_ACQUIRE), tail = s->meta->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		unsigned char rec[64];
		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = s->data[(tail + i) % s->data_size];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		for (size_t i = 0; i < sizeof(rec) && i < h.size; i++)
			rec[i] = s->data[(tail + i) % s->data_size];
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 8) {
			uint64_t ip;
			memcpy(&ip, rec + sizeof(h), 8);
			const char *name = kallsyms_name(s->syms, ip);
			s->p->samples++;
			s->p->part_samples[ksmd_part_of(name)]++;
			s->p->unnamed += name == NULL;
			if (name && count_symbol(s, name))
				return kb_fail(err, "out of memory");
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof(h) + 8, 8);
			s->p->lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&s->meta->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct symcount *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : strcmp(x->name, y->name);
}

static void keep_top(struct sampler *s)
{
	if (s->ncounts) /* counts is NULL until a sample is named, and qsort's pointer nonnull */
		qsort(s->counts, s->ncounts, sizeof(*s->counts), by_count);
	for (size_t i = 0; i < s->ncounts && i < KSMD_TOP_SYMBOLS; i++) {
		snprintf(s->p->top[i].name, sizeof(s->p->top[i].name), "%s", s->counts[i].name);
		s->p->top[i].samples = s->counts[i].n;
		s->p->ntop = (unsigned)i + 1;
	}
}

static void ioctl_enable(int fd, int on)
{
	ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* The window itself: counters before, samples drained, counters after. */
static int sample_window(int fd, struct sampler *s, uint64_t window_ns, const char *ksm_dir, struct kb_err *err)
{
	struct ksmd_profile *p = s->p;
	struct ksm_sample a, b;

	ksm_sample_read(ksm_dir, &a);
	uint64_t cpu0 = cpu_ns_of(p->pid), t0 = clock_now_ns();
	struct timespec tick = { 0, 20000000 };

	ioctl_enable(fd, 1);
	while (clock_now_ns() - t0 < window_ns) {
		nanosleep(&tick, NULL);
		if (drain(s, err))
			return -1;
	}
	ioctl_enable(fd, 0);
	p->window_ns = clock_now_ns() - t0;
	uint64_t cpu1 = cpu_ns_of(p->pid);
	p->cpu_ns = cpu1 >= cpu0 ? cpu1 - cpu0 : 0; /* schedstat unreadable at the end: none counted */
	ksm_sample_read(ksm_dir, &b);
	/* A counter missing (or gone back) counts nothing. */
	long long scanned = ksm_counter_growth(a.pages_scanned, b.pages_scanned);
	long long skipped = ksm_counter_growth(a.pages_skipped, b.pages_skipped);
	long long full = ksm_counter_growth(a.full_scans, b.full_scans);
	p->scanned_known = scanned >= 0;
	p->pages_scanned = scanned >= 0 ? (uint64_t)scanned : 0;
	p->full_scans = full >= 0 ? (uint64_t)full : 0;
	p->pages_checksummed = ksm_checksummed_per_s(&b, (double)p->pages_scanned, skipped > 0 ? (double)skipped : 0);
	p->pages_to_scan = b.pages_to_scan >= 0 && b.pages_to_scan <= LONG_MAX ? (long)b.pages_to_scan : -1;
	p->sleep_ms = b.sleep_ms >= 0 && b.sleep_ms <= LONG_MAX ? (long)b.sleep_ms : -1;
	return drain(s, err);
}

int ksmd_profile_run(uint64_t window_ns, const char *ksm_dir, const char *kallsyms, const char *kallsyms_name,
		     struct ksmd_profile *p, struct kb_err *err)
{
	struct kallsyms syms;
	struct sampler s = { .syms = &syms, .p = p };
	long page = sysconf(_SC_PAGESIZE);
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (geteuid() != 0)
		return kb_fail(err, "sampling ksmd needs root (a kernel thread's samples need CAP_PERFMON or "
				    "CAP_SYS_ADMIN, its symbols CAP_SYSLOG)");
	if (!(p->pid = ksmd_find()))
		return kb_fail(err, "no ksmd thread in /proc: this kernel has no KSM (CONFIG_KSM)");
	char named[KSM_DIR_NAMED_SIZE];
	if (ksm_sysfs_number(ksm_dir, "run") != 1)
		return kb_fail(err, "KSM is not running (run in %s is not 1): ksmd has nothing to do",
			       ksm_sysfs_dir_named(ksm_dir, named));
	if (kallsyms_load(kallsyms, kallsyms_name, &syms, err))
		return -1;
	int fd = open_event(p->pid, &p->event, err);
	if (fd < 0) {
		kallsyms_free(&syms);
		return -1;
	}
	size_t len = (size_t)page * (RING_PAGES + 1);
	void *ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		kb_fail_errno(err, errno, "cannot map the perf ring buffer");
	} else {
		s.meta = ring;
		s.data = (unsigned char *)ring + page;
		s.data_size = (uint64_t)page * RING_PAGES;
		rc = sample_window(fd, &s, window_ns, ksm_dir, err);
		keep_top(&s);
		munmap(ring, len);
	}
	close(fd);
	free(s.counts);
	kallsyms_free(&syms);
	return rc;
}
