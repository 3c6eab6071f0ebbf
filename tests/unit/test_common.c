/* Unit tests of common/: atomic output files, the pseudo-random generator,
 * size, number, duration and kernel release parsing, values cut for
 * messages, the shared arithmetic, a kernel sleep in time (ksmd's period),
 * array growth and lines cut, not split. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/arith.h"
#include "../../common/atomic_file.h"
#include "../../common/duration_parse.h"
#include "../../common/grow.h"
#include "../../common/kernel_release.h"
#include "../../common/kernel_timer.h"
#include "../../common/line_read.h"
#include "../../common/meminfo.h"
#include "../../common/prng.h"
#include "../../common/quote.h"
#include "../../common/size_parse.h"
#include "check.h"
#include "groups.h"

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

void test_common_atomic_file(void)
{
	char dir[] = "/tmp/ksmbench-atomic-XXXXXX", path[64], buf[16] = { 0 };
	struct atomic_file af;
	struct kb_err err;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);

	CHECK(atomic_file_open(&af, path, 0600, &err) == 0);
	fputs("partial", af.fp);
	/* Only the temporary, which has no name where O_TMPFILE works. */
	CHECK(count_entries(dir) == (af.unnamed ? 0 : 1) && access(path, F_OK) != 0);
	atomic_file_abort(&af);
	CHECK(count_entries(dir) == 0);

	CHECK(atomic_file_open(&af, path, 0600, &err) == 0);
	fputs("done", af.fp);
	CHECK(atomic_file_flush(&af, &err) == 0);
	CHECK(count_entries(dir) == (af.unnamed ? 0 : 1) && access(path, F_OK) != 0); /* flushed, not yet in place */
	CHECK(atomic_file_commit(&af, &err) == 0);
	FILE *f = fopen(path, "r");
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 4 && strcmp(buf, "done") == 0);
	if (f)
		fclose(f);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(count_entries(dir) == 1);

	/* A device written directly: a flush that fails says where, and the
	 * file is still released by abort. */
	if (access("/dev/full", W_OK) == 0 && atomic_file_open(&af, "/dev/full", 0644, &err) == 0) {
		fputs("lost", af.fp);
		CHECK(atomic_file_flush(&af, &err) == -1 && strstr(err.msg, "cannot write '/dev/full'"));
		atomic_file_abort(&af);
	}
	CHECK(atomic_file_open(&af, dir, 0644, &err) == -1 && strstr(err.msg, "directory"));
	CHECK(atomic_file_open(&af, "/nonexistent-dir/x", 0644, &err) == -1);
	unlink(path);
	rmdir(dir);
}

void test_common_prng(void)
{
	uint64_t a = 42, b = 42;
	unsigned char x[13], y[13];

	prng_fill(&a, x, sizeof(x));
	prng_fill(&b, y, sizeof(y));
	CHECK(memcmp(x, y, sizeof(x)) == 0);
	CHECK(prng_next(&a) == prng_next(&b));
	for (int i = 0; i < 1000; i++)
		CHECK(prng_below(&a, 7) < 7);
}

void test_common_size_parse(void)
{
	struct kb_err err;
	uint64_t v = 0;
	uint32_t ps = 0;

	CHECK(kb_parse_size("4096", &v, &err) == 0 && v == 4096);
	CHECK(kb_parse_size("4K", &v, &err) == 0 && v == 4096);
	CHECK(kb_parse_size("64k", &v, &err) == 0 && v == 65536);
	CHECK(kb_parse_size("2MiB", &v, &err) == 0 && v == 2u << 20);
	CHECK(kb_parse_size("1G", &v, &err) == 0 && v == 1u << 30);
	CHECK(kb_parse_size("", &v, &err) == -1);
	CHECK(kb_parse_size("4X", &v, &err) == -1 && strstr(err.msg, "not a size"));
	CHECK(kb_parse_size("-4", &v, &err) == -1);
	CHECK(kb_parse_size("99999999999999999999", &v, &err) == -1 && strstr(err.msg, "too large"));
	CHECK(kb_parse_size("17179869184G", &v, &err) == -1);

	CHECK(kb_parse_page_size("4K", &ps, &err) == 0 && ps == 4096);
	CHECK(kb_parse_page_size("64", &ps, &err) == 0 && ps == 64);
	CHECK(kb_parse_page_size("100", &ps, &err) == -1 && strstr(err.msg, "multiple of 64"));
	CHECK(kb_parse_page_size("0", &ps, &err) == -1);
	CHECK(kb_parse_page_size("32M", &ps, &err) == -1);

	CHECK(kb_parse_uint("17", 100, &v, &err) == 0 && v == 17);
	CHECK(kb_parse_uint("101", 100, &v, &err) == -1);
	CHECK(kb_parse_uint("1x", 100, &v, &err) == -1);
	/* 2^64 is one past what fits: refused, not wrapped to 0; 2^64 - 1
	 * fits exactly (the overflow test is not off by one). */
	CHECK(kb_parse_uint("18446744073709551616", UINT64_MAX, &v, &err) == -1 && strstr(err.msg, "too large"));
	CHECK(kb_parse_size("18446744073709551616", &v, &err) == -1 && strstr(err.msg, "too large"));
	CHECK(kb_parse_uint("18446744073709551615", UINT64_MAX, &v, &err) == 0 && v == UINT64_MAX);
	CHECK(kb_parse_size("18446744073709551615", &v, &err) == 0 && v == UINT64_MAX);
	/* A B after the unit, or alone after bytes. */
	CHECK(kb_parse_size("4KB", &v, &err) == 0 && v == 4096);
	CHECK(kb_parse_size("4096B", &v, &err) == 0 && v == 4096);
}

void test_common_duration_parse(void)
{
	struct kb_err err;
	uint64_t ns;

	CHECK(kb_parse_duration_ns("125ms", 0, UINT64_MAX, &ns, &err) == 0 && ns == 125000000u);
	CHECK(kb_parse_duration_ns("125", 0, UINT64_MAX, &ns, &err) == 0 && ns == 125000000u);
	CHECK(kb_parse_duration_ns("2s", 0, UINT64_MAX, &ns, &err) == 0 && ns == 2000000000u);
	CHECK(kb_parse_duration_ns("500us", 0, UINT64_MAX, &ns, &err) == 0 && ns == 500000u);
	CHECK(kb_parse_duration_ns("7ns", 0, UINT64_MAX, &ns, &err) == 0 && ns == 7u);
	CHECK(kb_parse_duration_ns("", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("1h", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("-1ms", 0, UINT64_MAX, &ns, &err) == -1);
	CHECK(kb_parse_duration_ns("0", 100000, 1000000000, &ns, &err) == -1 &&
	      strstr(err.msg, "must be from 100 us to 1 s"));
	CHECK(kb_parse_duration_ns("1ms", 10000000, 3600000000000ull, &ns, &err) == -1 &&
	      strstr(err.msg, "must be from 10 ms to 3600 s"));
	CHECK(kb_parse_duration_ns("99999999999999999999s", 0, UINT64_MAX, &ns, &err) == -1);
	/* A bare number out of range says its unit; one with a unit does not. */
	CHECK(kb_parse_duration_ns("1", 10000000, 3600000000000ull, &ns, &err) == -1 &&
	      strstr(err.msg, "duration '1' (a bare number is in ms) must be from 10 ms to 3600 s"));
	CHECK(kb_parse_duration_ns("0s", 10000000, 3600000000000ull, &ns, &err) == -1 && !strstr(err.msg, "bare"));
	/* The bounds are inclusive: the minimum itself is taken. */
	CHECK(kb_parse_duration_ns("100us", 100000, 1000000000, &ns, &err) == 0 && ns == 100000);
	/* 18446744074 s is past 2^64 ns: refused, not wrapped to 0.29 s. */
	CHECK(kb_parse_duration_ns("18446744074s", 0, UINT64_MAX, &ns, &err) == -1);
	/* No minimum: the message names the maximum only. */
	CHECK(kb_parse_duration_ns("2s", 0, 1000000000, &ns, &err) == -1 &&
	      strcmp(err.msg, "duration '2s' must be at most 1 s") == 0);
}

void test_common_kernel_release(void)
{
	struct kernel_release r;
	char buf[128];

	CHECK(kernel_release_parse("6.18.44-fc-v1272", &r) == 0 && r.major == 6 && r.minor == 18 && r.patch == 44);
	CHECK(kernel_release_parse("4.18.0-553.el8_10.x86_64", &r) == 0 && r.minor == 18 && r.patch == 0);
	CHECK(kernel_release_parse("6.1-rc1", &r) == 0 && r.minor == 1 && r.patch == 0);
	CHECK(kernel_release_parse("5.0", &r) == 0 && r.major == 5 && r.minor == 0);
	CHECK(kernel_release_parse("linux", &r) == -1);
	CHECK(kernel_release_parse("6", &r) == -1);
	CHECK(kernel_release_parse("6.", &r) == -1);
	CHECK(kernel_release_parse("-1.2", &r) == -1);
	CHECK(kernel_release_parse("6.1.", &r) == -1 && kernel_release_parse("6.6.x", &r) == -1);
	CHECK(kernel_release_parse("6.6+", &r) == 0 && kernel_release_parse("6.6-x", &r) == 0);
	CHECK(kernel_release_parse("6-1", &r) == -1 && kernel_release_parse("6_1.2", &r) == -1); /* a dot only */
	CHECK(kernel_release_parse("1234567.1", &r) == -1); /* 7 digits */
	CHECK(kernel_release_parse("6.99999999999999999999", &r) == -1);
	CHECK(kernel_release_parse("", &r) == -1);

	/* Only a release after the newest checked one is said to be taken as it. */
	CHECK(strcmp(kernel_release_checked_note("99.0"), ", taken as " KERNEL_RELEASE_NEWEST_CHECKED
		     ", the newest release checked") == 0);
	CHECK(*kernel_release_checked_note("6.19-rc1") && *kernel_release_checked_note("7.0.1"));
	CHECK(!*kernel_release_checked_note(KERNEL_RELEASE_NEWEST_CHECKED ".44-fc") &&
	      !*kernel_release_checked_note("6.9") && !*kernel_release_checked_note("5.99") &&
	      !*kernel_release_checked_note(NULL) && !*kernel_release_checked_note("linux"));

	/* Compared field by field (6.9 is older than 6.17), a missing patch 0. */
	CHECK(kernel_release_parse("6.9.12", &r) == 0);
	CHECK(!kernel_release_at_least(&r, "6.17") && kernel_release_at_least(&r, "6.9") &&
	      kernel_release_at_least(&r, "6.9.12") && !kernel_release_at_least(&r, "6.9.13") &&
	      kernel_release_at_least(&r, "5.19") && !kernel_release_at_least(&r, "7.0"));
	CHECK(kernel_release_parse("2.6.37", &r) == 0);
	CHECK(!kernel_release_at_least(&r, "2.6.38") && kernel_release_at_least(&r, "2.6.32"));
	/* The newest kernel, and code in every release. */
	CHECK(kernel_release_at_least(NULL, "6.17") && kernel_release_at_least(&r, NULL));
	CHECK(kernel_release_or_newest("6.1.0-28-amd64", &r) == &r && r.minor == 1);
	CHECK(kernel_release_or_newest("linux", &r) == NULL && kernel_release_or_newest(NULL, &r) == NULL);
	/* What uname could show: printable ASCII, no space, 64 bytes at most. */
	char long_release[KERNEL_RELEASE_MAX + 2];
	memset(long_release, 'x', sizeof(long_release) - 1);
	long_release[sizeof(long_release) - 1] = '\0';
	CHECK(kernel_release_plausible("4.18.0-553.el8_10.x86_64") && kernel_release_plausible("6.1+~"));
	CHECK(!kernel_release_plausible("") && !kernel_release_plausible("6.1 x") && !kernel_release_plausible("6.1\n"));
	CHECK(!kernel_release_plausible("6.1\x7f") && !kernel_release_plausible("6.1\xc3\xa9"));
	CHECK(!kernel_release_plausible(long_release) && kernel_release_plausible(long_release + 1));

	/* The running one: posed where set and not empty, else uname's. */
	const char *posed = getenv("KSMBENCH_KERNEL_RELEASE");
	char saved[128];
	snprintf(saved, sizeof(saved), "%s", posed ? posed : "");
	setenv("KSMBENCH_KERNEL_RELEASE", "4.18.0", 1);
	CHECK(kernel_release_running(buf, sizeof(buf)) == buf && strcmp(buf, "4.18.0") == 0);
	setenv("KSMBENCH_KERNEL_RELEASE", "", 1);
	CHECK(kernel_release_running(buf, sizeof(buf)) == buf && kernel_release_parse(buf, &r) == 0);
	if (posed)
		setenv("KSMBENCH_KERNEL_RELEASE", saved, 1);
	else
		unsetenv("KSMBENCH_KERNEL_RELEASE");
}

void test_common_quote(void)
{
	char q[KB_QUOTE_SIZE], v[200];

	CHECK(strcmp(kb_quote(NULL, q), "") == 0 && strcmp(kb_quote("abc", q), "abc") == 0);
	memset(v, 'a', KB_QUOTE_MAX);
	v[KB_QUOTE_MAX] = '\0';
	CHECK(strcmp(kb_quote(v, q), v) == 0); /* at most KB_QUOTE_MAX: whole */
	v[KB_QUOTE_MAX] = 'b';
	v[KB_QUOTE_MAX + 1] = '\0';
	CHECK(strncmp(kb_quote(v, q), v, KB_QUOTE_MAX) == 0 && strcmp(q + KB_QUOTE_MAX, "...") == 0);
	/* A cut inside a UTF-8 character (U+20AC, 3 bytes, from byte 59) keeps none of it. */
	memcpy(v + KB_QUOTE_MAX - 1, "\xe2\x82\xac", 3);
	v[KB_QUOTE_MAX + 2] = 'z';
	v[KB_QUOTE_MAX + 3] = '\0';
	CHECK(strlen(kb_quote(v, q)) == KB_QUOTE_MAX - 1 + 3 && strcmp(q + KB_QUOTE_MAX - 1, "...") == 0);
	/* Bytes that are not UTF-8 at all: cut at most 3 bytes early. */
	memset(v, 0x80, sizeof(v) - 1);
	v[sizeof(v) - 1] = '\0';
	CHECK(strlen(kb_quote(v, q)) == KB_QUOTE_MAX - 3 + 3);
}

/* kb_fail_errno keeps its reason: a message too long for the buffer (a
 * 5000-byte path) is cut, with "...", before it; a short one is whole. */
void test_common_fail_errno(void)
{
	struct kb_err err;
	static char path[5001];
	const char *reason = ": No such file or directory";

	memset(path, 'a', sizeof(path) - 1);
	CHECK(kb_fail_errno(&err, ENOENT, "cannot open '%s'", path) == -1);
	size_t len = strlen(err.msg);
	CHECK(len == sizeof(err.msg) - 1 && strcmp(err.msg + len - strlen(reason), reason) == 0 &&
	      strncmp(err.msg + len - strlen(reason) - 3, "...", 3) == 0 && strncmp(err.msg, "cannot open 'aaa", 16) == 0);
	CHECK(kb_fail_errno(&err, ENOENT, "cannot open '%s'", "x") == -1 &&
	      strcmp(err.msg, "cannot open 'x': No such file or directory") == 0);
	/* Exactly full without the reason, and a cut that would fall inside
	 * a UTF-8 character (U+20AC) keeps none of it. */
	size_t at = sizeof(err.msg) - 1 - strlen(reason) - 3 - 1;
	memset(path, 'b', sizeof(path) - 1);
	memcpy(path + at, "\xe2\x82\xac", 3);
	CHECK(kb_fail_errno(&err, ENOENT, "%s", path) == -1);
	CHECK(strlen(err.msg) == at + 3 + strlen(reason) && strncmp(err.msg + at, "...", 3) == 0);
	CHECK(kb_fail_errno(NULL, ENOENT, "%s", path) == -1);
}

void test_common_div_up(void)
{
	CHECK(kb_div_up(0, 4096) == 0 && kb_div_up(1, 4096) == 1 && kb_div_up(4096, 4096) == 1);
	CHECK(kb_div_up(4097, 4096) == 2);
	/* No overflow where (a + b - 1) / b would wrap. */
	CHECK(kb_div_up(UINT64_MAX, 2) == (UINT64_MAX >> 1) + 1);
	CHECK(kb_div_up(UINT64_MAX, UINT64_MAX) == 1);
}

/* ksmd's period: the batch periods measured on 6.18 at HZ=250 (2026-12-06,
 * ksmd's full scans timed one by one, one batch a scan, docs/scan-model.md):
 * 1, 2 and 4 ms slept 8 ms; 5, 8: 12; 10, 12: 16; 20: 24; 21: 28; 50: 56;
 * 72: 76; 90: 96; 100: 104; 101: 108; 150: 156; 200: 204; 250: 256 (63
 * jiffies due: level 1 already, whose multiple of 8 is the 64 that level 0
 * would give too); 260: 288 and 300: 320 (level 1, a multiple of 8
 * jiffies). */
void test_common_kernel_timer(void)
{
	static const unsigned measured[][2] = { { 1, 8 },     { 2, 8 },     { 4, 8 },     { 5, 12 },    { 8, 12 },
						{ 10, 16 },   { 12, 16 },   { 20, 24 },   { 21, 28 },   { 50, 56 },
						{ 72, 76 },   { 90, 96 },   { 100, 104 }, { 101, 108 }, { 150, 156 },
						{ 200, 204 }, { 250, 256 }, { 260, 288 }, { 300, 320 } };
	for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++) {
		struct ksmd_schedule k = { 100, measured[i][0], 250, 1, 1 };
		CHECK(ksmd_batch_period_ns(&k, 0) == measured[i][1] * 1e6);
		CHECK(ksmd_batch_period_ns(&k, 3.9e6) == measured[i][1] * 1e6); /* the work within a jiffy */
	}
	/* msecs_to_jiffies rounds up: HZ 100, 300, 1000. */
	CHECK(kernel_msecs_to_jiffies(20, 100) == 2 && kernel_msecs_to_jiffies(21, 100) == 3);
	CHECK(kernel_msecs_to_jiffies(20, 300) == 6 && kernel_msecs_to_jiffies(1, 300) == 1);
	CHECK(kernel_msecs_to_jiffies(20, 1000) == 20 && kernel_msecs_to_jiffies(0, 1000) == 0);
	struct ksmd_schedule k = { 100, 20, 1000, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 0) == 21e6);
	k.hz = 100;
	CHECK(ksmd_batch_period_ns(&k, 0) == 30e6);
	/* Work past a jiffy delays the sleep's start: 5 ms of work at HZ 250
	 * arms it in the second jiffy, 20 ms (5 jiffies) later, a tick late. */
	k = (struct ksmd_schedule){ 100, 20, 250, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 5e6) == 28e6);
	/* Level 1 from a multiple of 8 jiffies: 65 due, 2 worked: 72. */
	k.sleep_ms = 260;
	CHECK(ksmd_batch_period_ns(&k, 8.5e6) == 72 * 4e6);
	CHECK(ksmd_batch_period_ns(&k, 28.5e6) == 80 * 4e6); /* 7 worked: 72 jiffies due */
	/* Before 4.8 the cascading wheel fired at the jiffy due. */
	k = (struct ksmd_schedule){ 100, 20, 250, 0, 0 };
	CHECK(ksmd_batch_period_ns(&k, 0) == 20e6 && ksmd_batch_period_ns(&k, 5e6) == 24e6);
	/* No sleep: the work alone; unknown HZ: the sleep as it is. */
	k = (struct ksmd_schedule){ 100, 0, 250, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 1e5) == 1e5 && ksmd_cpu_share(&k, 1000, 1.0) == 1.0);
	/* Before 5.0 a sleep of 0 still waited for the next tick, on either wheel. */
	k.zero_sleep_skips = 0;
	CHECK(ksmd_batch_period_ns(&k, 1e5) == 4e6 && ksmd_batch_period_ns(&k, 5e6) == 8e6);
	k.wheel_rounds_up = 0;
	CHECK(ksmd_batch_period_ns(&k, 1e5) == 4e6 && ksmd_batch_period_ns(&k, 5e6) == 8e6);
	/* The release's rules: 4.4 neither, 4.19 the new wheel only, 5.0 both. */
	const char *rel[] = { "4.4", "4.19", "5.0" };
	for (int i = 0; i < 3; i++) {
		struct kernel_release r;
		CHECK(kernel_release_parse(rel[i], &r) == 0);
		ksmd_schedule_rules(&k, &r);
		CHECK(k.wheel_rounds_up == (i > 0) && k.zero_sleep_skips == (i > 1));
	}
	ksmd_schedule_rules(&k, NULL);
	CHECK(k.wheel_rounds_up && k.zero_sleep_skips);
	/* Level 1 from 63 jiffies due (LVL_START(1)): 248 ms at HZ 250 is 62
	 * (level 0: 63), 252 ms 63 (level 1: 64). */
	k = (struct ksmd_schedule){ 100, 248, 250, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 0) == 63 * 4e6);
	k.sleep_ms = 252;
	CHECK(ksmd_batch_period_ns(&k, 0) == 64 * 4e6);
	/* The wheel's last level bounds the granularity: 8^8 jiffies at HZ
	 * 1000 (nine levels), 8^7 at HZ 100 (eight). */
	k = (struct ksmd_schedule){ 100, 4000000000u, 1000, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 0) == (double)((4000000000ull / 16777216 + 1) * 16777216) * 1e6);
	k.hz = 100;
	CHECK(ksmd_batch_period_ns(&k, 0) == (double)((400000000ull / 2097152 + 1) * 2097152) * 10e6);
	k = (struct ksmd_schedule){ 100, 20, 0, 1, 1 };
	CHECK(ksmd_batch_period_ns(&k, 1e5) == 20.1e6);
	/* The share: 100 pages of 1 us a batch every 24 ms; half of them. */
	k = (struct ksmd_schedule){ 100, 20, 250, 1, 1 };
	CHECK(fabs(ksmd_cpu_share(&k, 1000, 1.0) - 0.1 / 24) < 1e-12);
	CHECK(fabs(ksmd_cpu_share(&k, 1000, 0.5) - 0.05 / 24) < 1e-12);
	CHECK(ksmd_cpu_share(&k, 0, 1.0) == 0);
	/* The running kernel's HZ is one of CONFIG_HZ's (or unknown). */
	unsigned hz = kernel_hz_running();
	CHECK(hz == 0 || (hz >= KERNEL_HZ_MIN && hz <= KERNEL_HZ_MAX));
	struct ksmd_schedule running = ksmd_schedule_running(100, 20);
	CHECK(running.hz == (hz ? hz : KERNEL_HZ_DEFAULT) && running.pages_to_scan == 100 && running.sleep_ms == 20);
}

void test_common_grow(void)
{
	size_t cap = 0;
	int *v = kb_grow(NULL, &cap, 1, sizeof(int), 16);

	CHECK(v != NULL && cap == 16);
	for (int i = 0; v && i < 16; i++)
		v[i] = i;
	/* Room enough: the same array, cap unchanged. */
	CHECK(kb_grow(v, &cap, 16, sizeof(int), 16) == v && cap == 16);
	/* One more doubles; far more doubles until it fits; the elements stay. */
	int *w = kb_grow(v, &cap, 17, sizeof(int), 16);
	CHECK(w != NULL && cap == 32);
	v = w ? w : v;
	w = kb_grow(v, &cap, 1000, sizeof(int), 16);
	CHECK(w != NULL && cap == 1024);
	v = w ? w : v;
	int same = 1;
	for (int i = 0; i < 16; i++)
		same &= v[i] == i;
	CHECK(same);
	/* A size past SIZE_MAX fails, leaving the array and cap as they were. */
	size_t was = cap;
	CHECK(kb_grow(v, &cap, SIZE_MAX / 2, sizeof(int), 16) == NULL && cap == was);
	CHECK(kb_grow(v, &cap, SIZE_MAX, 1, 16) == NULL && cap == was);
	CHECK(v[15] == 15);
	free(v);
	/* Nothing needed of nothing: one element, not a NULL read as failure. */
	cap = 0;
	char *one = kb_grow(NULL, &cap, 0, 8, 16);
	CHECK(one != NULL && cap == 16);
	free(one);
	/* No first size given: it starts at one element. */
	cap = 0;
	char *first = kb_grow(NULL, &cap, 1, 1, 0);
	CHECK(first != NULL && cap == 1);
	free(first);
	cap = 0;
	char *c = kb_grow(NULL, &cap, 3, 1, 0);
	CHECK(c != NULL && cap == 4);
	free(c);
}

/* MemAvailable in bytes, from a file shaped as /proc/meminfo; -1 without
 * the line (kernels before 3.14), a figure, or one past what bytes hold. */
static long long meminfo_of(const char *text)
{
	char path[] = "/tmp/ksmbench-meminfo-XXXXXX";
	int fd = mkstemp(path);
	long long v;

	if (fd < 0)
		return -2;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		v = -2;
	else
		v = meminfo_available_bytes(path);
	close(fd);
	unlink(path);
	return v;
}

void test_common_meminfo(void)
{
	CHECK(meminfo_of("MemTotal:       24683724 kB\nMemFree:        23000000 kB\n"
			 "MemAvailable:   24192400 kB\nBuffers:            1000 kB\n") == 24192400LL * 1024);
	CHECK(meminfo_of("MemTotal:       24683724 kB\nMemFree:        23000000 kB\n") == -1);
	CHECK(meminfo_of("MemAvailable:   kB\n") == -1);
	CHECK(meminfo_of("MemAvailable:   99999999999999999999 kB\n") == -1);
	CHECK(meminfo_of("MemAvailable:   9007199254740992 kB\n") == -1); /* 2^53 KiB: past 2^63 bytes */
	CHECK(meminfo_available_bytes("/nonexistent/meminfo") == -1);
	CHECK(meminfo_available_bytes(MEMINFO_PATH) != 0);
}

/* A line longer than the buffer comes back cut, and the next call gives
 * the next line, not the rest of it: the rest of a long file name in
 * /proc/PID/maps read as a mapping of its own (capture_layout.c). */
void test_common_read_line(void)
{
	static char text[] = "short\n0123456789abcdef10000-11000 rw-p 00000000 00:00 0\nlast";
	FILE *f = fmemopen(text, strlen(text), "r");
	char buf[17];

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(kb_read_line(f, buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "short\n");
	CHECK(kb_read_line(f, buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "0123456789abcdef");
	CHECK(kb_read_line(f, buf, sizeof(buf)) == 1);
	CHECK_STR(buf, "last");
	CHECK(kb_read_line(f, buf, sizeof(buf)) == 0);
	fclose(f);
}
