/* The interference probes (see interference.h). */
#include "interference.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

#include "bench.h"
#include "clock.h"
#include "clock_chain.h"

#define STAT_BUF_BYTES (256u << 10) /* /proc/stat's cpu lines on machines of ~2000 CPUs */

/* One "cpuN user nice system idle iowait irq softirq steal ..." line. */
static int parse_cpu_line(const char *line, int *cpu, uint64_t v[8])
{
	char *end;

	if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
		return -1;
	*cpu = (int)strtol(line + 3, &end, 10);
	for (int i = 0; i < 8; i++) {
		const char *p = end;
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			v[i] = 0; /* older kernels have fewer columns */
	}
	return 0;
}

int interference_parse_stat(const char *text, int cpu, struct interference_mark *m)
{
	int found = 0;

	m->own_total = m->own_steal = m->others_total = m->others_idle = 0;
	m->others = 0;
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		uint64_t v[8], total = 0;
		int n;
		if (parse_cpu_line(line, &n, v))
			continue;
		for (int i = 0; i < 8; i++)
			total += v[i];
		if (n == cpu) {
			m->own_total = total;
			m->own_steal = v[7];
			found = 1;
		} else {
			m->others_total += total;
			m->others_idle += v[3] + v[4];
			m->others++;
		}
	}
	return found ? 0 : -1;
}

int interference_parse_sched(const char *text, uint64_t *migrations)
{
	const char *p = strstr(text, "se.nr_migrations");

	if (!p || !(p = strchr(p, ':')))
		return -1;
	*migrations = strtoull(p + 1, NULL, 10);
	return 0;
}

/* The whole of a /proc file into p->buf (NUL-terminated); -1 on failure. */
static int read_proc(struct interference_probe *p, int fd)
{
	size_t got = 0;
	ssize_t n;

	while (got + 1 < p->buf_size && (n = pread(fd, p->buf + got, p->buf_size - 1 - got, (off_t)got)) > 0)
		got += (size_t)n;
	p->buf[got] = '\0';
	return got ? 0 : -1;
}

#if defined(__linux__)
static int perf_open(uint32_t type, uint64_t config, int exclude_kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = (unsigned)exclude_kernel;
	a.exclude_hv = 1;
	return (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void open_perf(struct interference_probe *p)
{
	/* User-space cycles and instructions of this thread: what hashing costs. */
	int why = 0; /* the errno of the call that failed */
	p->fd_instructions = -1;
	if ((p->fd_cycles = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1)) < 0)
		why = errno;
	else if ((p->fd_instructions = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1)) < 0)
		why = errno;
	if (p->fd_cycles < 0 || p->fd_instructions < 0) {
		snprintf(p->pmu_note, sizeof(p->pmu_note), "perf_event_open: %s",
			 why == ENOENT || why == EOPNOTSUPP ? "no hardware counters (no PMU, e.g. a VM)"
			 : why == EACCES || why == EPERM ? "not permitted (kernel.perf_event_paranoid)"
			 : strerror(why));
		if (p->fd_cycles >= 0)
			close(p->fd_cycles);
		p->fd_cycles = p->fd_instructions = -1;
	}
	/* Migrations happen in the kernel: counted only with kernel events. */
	p->fd_migrations = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0);
}

static uint64_t perf_value(int fd)
{
	uint64_t v = 0;

	return fd >= 0 && read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? v : 0;
}
#else
static void open_perf(struct interference_probe *p)
{
	p->fd_cycles = p->fd_instructions = p->fd_migrations = -1;
	snprintf(p->pmu_note, sizeof(p->pmu_note), "no perf_event_open on this system");
}

static uint64_t perf_value(int fd)
{
	(void)fd;
	return 0;
}
#endif

void interference_open(struct interference_probe *p)
{
	memset(p, 0, sizeof(*p));
	p->cpu = sched_getcpu();
	p->buf_size = STAT_BUF_BYTES;
	p->buf = malloc(p->buf_size);
	p->stat_fd = p->buf ? open("/proc/stat", O_RDONLY | O_CLOEXEC) : -1;
	p->sched_fd = -1;
	open_perf(p);
	if (p->fd_migrations >= 0) {
		p->migrations_source = "perf";
	} else if (p->buf && (p->sched_fd = open("/proc/thread-self/sched", O_RDONLY | O_CLOEXEC)) >= 0) {
		uint64_t m;
		if (read_proc(p, p->sched_fd) == 0 && interference_parse_sched(p->buf, &m) == 0) {
			p->migrations_source = "sched";
		} else {
			close(p->sched_fd);
			p->sched_fd = -1;
		}
	}
	if (!p->migrations_source)
		p->migrations_source = "cpu change";
}

void interference_close(struct interference_probe *p)
{
	int fds[] = { p->stat_fd, p->sched_fd, p->fd_cycles, p->fd_instructions, p->fd_migrations };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(p->buf);
	memset(p, 0, sizeof(*p));
	p->stat_fd = p->sched_fd = p->fd_cycles = p->fd_instructions = p->fd_migrations = -1;
}

static void read_counters(struct interference_probe *p, struct interference_mark *m)
{
	struct rusage ru;

	m->stat_ok = p->stat_fd >= 0 && read_proc(p, p->stat_fd) == 0 &&
		     interference_parse_stat(p->buf, p->cpu, m) == 0;
	m->involuntary = getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
	m->cpu = sched_getcpu();
	if (p->fd_migrations >= 0)
		m->migrations = perf_value(p->fd_migrations);
	else if (p->sched_fd >= 0 && (read_proc(p, p->sched_fd) != 0 || interference_parse_sched(p->buf, &m->migrations)))
		m->migrations = 0;
	m->cycles = perf_value(p->fd_cycles);
	m->instructions = perf_value(p->fd_instructions);
	m->thread_ns = clock_thread_ns();
	m->wall_ns = clock_now_ns();
}

void interference_mark(struct interference_probe *p, struct interference_mark *m, int with_clock, int at_end)
{
	memset(m, 0, sizeof(*m));
	if (with_clock && !at_end) {
		m->clock_hz = clock_chain_hz();
		m->throughput = clock_chain_throughput();
	}
	read_counters(p, m);
	if (with_clock && at_end) {
		m->throughput = clock_chain_throughput();
		m->clock_hz = clock_chain_hz();
	}
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

void interference_measure(const struct interference_probe *p, const struct interference_mark *a,
			  const struct interference_mark *b, struct bench_round *r)
{
	r->known = 0;
	int stat = a->stat_ok && b->stat_ok;
	if (stat && b->own_total >= a->own_total + 2) {
		r->steal_share = share(b->own_steal - a->own_steal, b->own_total - a->own_total);
		r->known |= INTERFERENCE_STEAL;
	}
	if (stat && b->others && b->others_total >= a->others_total + 2 * (uint64_t)b->others) {
		uint64_t total = b->others_total - a->others_total, idle = b->others_idle - a->others_idle;
		r->other_busy_share = idle < total ? share(total - idle, total) : 0;
		r->known |= INTERFERENCE_BUSY;
	}
	uint64_t wall = b->wall_ns - a->wall_ns, on = b->thread_ns - a->thread_ns;
	/* A ksmd round sleeps on purpose: that time is not time taken from it. */
	uint64_t slept = r->slept_ns > 0 ? (uint64_t)r->slept_ns : 0;
	wall = wall > slept ? wall - slept : 0;
	if (wall > 0 && a->thread_ns && b->thread_ns) {
		r->off_cpu_share = on < wall ? share(wall - on, wall) : 0;
		r->known |= INTERFERENCE_OFF_CPU;
	}
	if (a->involuntary >= 0 && b->involuntary >= a->involuntary) {
		r->involuntary_switches = (uint64_t)(b->involuntary - a->involuntary);
		r->known |= INTERFERENCE_SWITCHES;
	}
	if (p->fd_migrations >= 0 || p->sched_fd >= 0)
		r->migrations = b->migrations - a->migrations;
	else
		r->migrations = a->cpu != b->cpu; /* at least one */
	r->known |= INTERFERENCE_MIGRATIONS;
	if (a->clock_hz > 0 && b->clock_hz > 0) {
		r->clock_hz = (a->clock_hz + b->clock_hz) / 2;
		r->known |= INTERFERENCE_CLOCK;
	}
	/* The lower of the two: a core shared at either edge was likely shared inside. */
	if (a->throughput > 0 && b->throughput > 0) {
		r->throughput = a->throughput < b->throughput ? a->throughput : b->throughput;
		r->known |= INTERFERENCE_THROUGHPUT;
	}
	if (p->fd_cycles >= 0 && b->cycles > a->cycles) {
		r->core_cycles = (double)(b->cycles - a->cycles);
		r->instructions = (double)(b->instructions - a->instructions);
		r->known |= INTERFERENCE_PMU;
	}
}
