/* Unit tests: atomic output files and the pseudo-random generator. */
#include <dirent.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/atomic_file.h"
#include "../../common/prng.h"
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

void test_atomic_file(void)
{
	char dir[] = "/tmp/ksmbench-atomic-XXXXXX", path[64], buf[16] = { 0 };
	struct atomic_file af;
	struct kb_err err;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);

	CHECK(atomic_file_open(&af, path, 0600, &err) == 0);
	fputs("partial", af.fp);
	CHECK(count_entries(dir) == 1 && access(path, F_OK) != 0); /* only the temporary */
	atomic_file_abort(&af);
	CHECK(count_entries(dir) == 0);

	CHECK(atomic_file_open(&af, path, 0600, &err) == 0);
	fputs("done", af.fp);
	CHECK(atomic_file_commit(&af, &err) == 0);
	FILE *f = fopen(path, "r");
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 4 && strcmp(buf, "done") == 0);
	if (f)
		fclose(f);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(count_entries(dir) == 1);

	CHECK(atomic_file_open(&af, dir, 0644, &err) == -1 && strstr(err.msg, "directory"));
	CHECK(atomic_file_open(&af, "/nonexistent-dir/x", 0644, &err) == -1);
	unlink(path);
	rmdir(dir);
}

void test_prng(void)
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
