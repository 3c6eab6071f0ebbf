/* The measuring processes' lines (see wire.h). */
#include "wire.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interference.h"

#define KNOWN_ALL (INTERFERENCE_BUSY | INTERFERENCE_STEAL | INTERFERENCE_OFF_CPU | INTERFERENCE_SWITCHES | \
		   INTERFERENCE_MIGRATIONS | INTERFERENCE_CLOCK | INTERFERENCE_PMU | INTERFERENCE_THROUGHPUT)

int wire_write_header(FILE *out, unsigned measurements, unsigned process)
{
	return fprintf(out, "ksmbench-worker 1 %u %u\n", measurements, process) < 0 ? -1 : 0;
}

int wire_write_set(FILE *out, unsigned m, uint64_t set_pages, uint64_t working_set_bytes)
{
	return fprintf(out, "set %u %llu %llu\n", m, (unsigned long long)set_pages,
		       (unsigned long long)working_set_bytes) < 0 ? -1 : 0;
}

int wire_write_note(FILE *out, unsigned step)
{
	return fprintf(out, "note %u\n", step) < 0 ? -1 : 0;
}

int wire_write_progress(FILE *out, unsigned m, unsigned round, unsigned rounds, unsigned slot, unsigned slots)
{
	return fprintf(out, "progress %u %u %u %u %u\n", m, round, rounds, slot, slots) < 0 ? -1 : 0;
}

int wire_write_round(FILE *out, unsigned m, const struct bench_round *r)
{
	return fprintf(out,
		       "round %u %u %u %u %.17g %llu %.17g %.17g %.17g %.17g %.17g %llu %u %.17g %.17g %.17g %llu "
		       "%llu %.17g %.17g %.17g %.17g %.17g %.17g %u %.17g %.17g\n",
		       m, r->process, r->round, r->sequence, r->ns_per_page, (unsigned long long)r->calls,
		       r->elapsed_ns, r->ticks_p10, r->ticks_median, r->ticks_p90, r->ticks_mean,
		       (unsigned long long)r->batch, r->known, r->other_busy_share, r->steal_share, r->off_cpu_share,
		       (unsigned long long)r->involuntary_switches, (unsigned long long)r->migrations, r->clock_hz,
		       r->core_cycles, r->instructions, r->throughput, r->first_ticks, r->slept_ns,
		       r->interrupted_pages, r->uninterrupted_ns_per_page, r->fence_ns) < 0 ? -1 : 0;
}

int wire_write_end(FILE *out, int signo)
{
	return fprintf(out, "end %d\n", signo) < 0 ? -1 : 0;
}

/* Fields of a line, split in place. */
struct fields {
	char *f[32];
	unsigned n;
};

static void split(char *s, struct fields *f)
{
	f->n = 0;
	for (char *save = NULL, *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (f->n < 32)
			f->f[f->n++] = t;
		else
			f->n = 33; /* too many: rejected by the count checks */
}

static int get_u64(const char *t, uint64_t max, uint64_t *v)
{
	char *end;

	if (*t < '0' || *t > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(t, &end, 10);
	if (*end || errno || x > max)
		return -1;
	*v = x;
	return 0;
}

static int get_uint(const char *t, unsigned max, unsigned *v)
{
	uint64_t x;

	if (get_u64(t, max, &x))
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* A finite number >= 0. */
static int get_real(const char *t, double *v)
{
	char *end;
	double x = strtod(t, &end);

	if (end == t || *end || !isfinite(x) || x < 0)
		return -1;
	*v = x;
	return 0;
}

static int parse_round(struct fields *f, unsigned measurements, struct wire_msg *msg)
{
	struct bench_round *r = &msg->r;
	uint64_t calls, batch, sw, mig;
	int bad = f->n != 28;

	memset(r, 0, sizeof(*r));
	bad = bad || get_uint(f->f[1], measurements - 1, &msg->m) || get_uint(f->f[2], UINT32_MAX, &r->process) ||
	      get_uint(f->f[3], BENCH_REPEAT_MAX, &r->round) || get_uint(f->f[4], UINT32_MAX, &r->sequence);
	bad = bad || get_real(f->f[5], &r->ns_per_page) || get_u64(f->f[6], UINT64_MAX, &calls) ||
	      get_real(f->f[7], &r->elapsed_ns) || get_real(f->f[8], &r->ticks_p10) ||
	      get_real(f->f[9], &r->ticks_median) || get_real(f->f[10], &r->ticks_p90) ||
	      get_real(f->f[11], &r->ticks_mean) || get_u64(f->f[12], BENCH_KSMD_PAGES_MAX, &batch);
	bad = bad || get_uint(f->f[13], KNOWN_ALL, &r->known) || get_real(f->f[14], &r->other_busy_share) ||
	      get_real(f->f[15], &r->steal_share) || get_real(f->f[16], &r->off_cpu_share) ||
	      get_u64(f->f[17], UINT64_MAX, &sw) || get_u64(f->f[18], UINT64_MAX, &mig) ||
	      get_real(f->f[19], &r->clock_hz) || get_real(f->f[20], &r->core_cycles) ||
	      get_real(f->f[21], &r->instructions) || get_real(f->f[22], &r->throughput) ||
	      get_real(f->f[23], &r->first_ticks) || get_real(f->f[24], &r->slept_ns) ||
	      get_uint(f->f[25], UINT32_MAX, &r->interrupted_pages) || get_real(f->f[26], &r->uninterrupted_ns_per_page) ||
	      get_real(f->f[27], &r->fence_ns);
	/* 0 ns a page: a round shorter than the timer resolves, kept as it is in one process. */
	if (bad || calls == 0 || r->ns_per_page < 0 || r->other_busy_share > 1 || r->steal_share > 1 ||
	    r->off_cpu_share > 1)
		return -1;
	r->calls = calls;
	r->batch = batch;
	r->involuntary_switches = sw;
	r->migrations = mig;
	return 0;
}

static int parse_fields(struct fields *f, unsigned measurements, unsigned steps, struct wire_msg *msg)
{
	const char *k = f->f[0];
	unsigned sig;

	if (f->n == 0)
		return -1;
	if (strcmp(k, "ksmbench-worker") == 0) {
		msg->kind = WIRE_HEADER;
		return f->n == 4 && strcmp(f->f[1], "1") == 0 && !get_uint(f->f[2], UINT32_MAX, &msg->measurements) &&
		       !get_uint(f->f[3], UINT32_MAX, &msg->process) ? 0 : -1;
	}
	if (strcmp(k, "set") == 0) {
		msg->kind = WIRE_SET;
		return f->n == 4 && measurements && !get_uint(f->f[1], measurements - 1, &msg->m) &&
		       !get_u64(f->f[2], UINT64_MAX, &msg->set_pages) &&
		       !get_u64(f->f[3], UINT64_MAX, &msg->working_set_bytes) ? 0 : -1;
	}
	if (strcmp(k, "note") == 0) {
		msg->kind = WIRE_NOTE;
		return f->n == 2 && steps && !get_uint(f->f[1], steps - 1, &msg->step) ? 0 : -1;
	}
	if (strcmp(k, "progress") == 0) {
		msg->kind = WIRE_PROGRESS;
		return f->n == 6 && measurements && !get_uint(f->f[1], measurements - 1, &msg->m) &&
		       !get_uint(f->f[2], BENCH_REPEAT_MAX, &msg->round) && !get_uint(f->f[3], BENCH_REPEAT_MAX, &msg->rounds) &&
		       !get_uint(f->f[4], UINT32_MAX, &msg->slot) && !get_uint(f->f[5], UINT32_MAX, &msg->slots) ? 0 : -1;
	}
	if (strcmp(k, "round") == 0) {
		msg->kind = WIRE_ROUND;
		return measurements ? parse_round(f, measurements, msg) : -1;
	}
	if (strcmp(k, "end") == 0) {
		msg->kind = WIRE_END;
		if (f->n != 2 || get_uint(f->f[1], 64, &sig))
			return -1;
		msg->signo = (int)sig;
		return 0;
	}
	return -1;
}

int wire_parse(const char *line, unsigned measurements, unsigned steps, struct wire_msg *msg, struct kb_err *err)
{
	char buf[WIRE_LINE_MAX];
	struct fields f;

	memset(msg, 0, sizeof(*msg));
	if (strlen(line) >= sizeof(buf))
		return kb_fail(err, "a line of %zu bytes", strlen(line));
	strcpy(buf, line);
	split(buf, &f);
	if (parse_fields(&f, measurements, steps, msg))
		return kb_fail(err, "'%.60s%s'", line, strlen(line) > 60 ? "..." : "");
	return 0;
}
