/* /proc/kallsyms (see kallsyms.h): a sorted array of addresses and one
 * block of names. */
#include "kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../common/line_read.h"

static int by_addr(const void *a, const void *b)
{
	const struct kallsym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int add(struct kallsyms *k, size_t *cap, size_t *ncap, size_t *nlen, uint64_t addr, const char *name,
	       struct kb_err *err)
{
	size_t len = strlen(name) + 1;

	struct kallsym *syms = kb_grow(k->syms, cap, k->n + 1, sizeof(*syms), 65536);
	if (syms)
		k->syms = syms;
	char *names = syms ? kb_grow(k->names, ncap, *nlen + len, 1, 65536) : NULL;
	if (!names)
		return kb_fail(err, "out of memory for the kernel's symbols");
	k->names = names;
	k->syms[k->n].addr = addr;
	k->syms[k->n++].name = (uint32_t)*nlen;
	memcpy(k->names + *nlen, name, len);
	*nlen += len;
	return 0;
}

int kallsyms_load(const char *path, const char *name, struct kallsyms *k, struct kb_err *err)
{
	/* Not blocking: a FIFO in its place (a KSMBENCH_KALLSYMS of tests)
	 * waited for a writer, forever; refused below, as a device is. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char line[512], sym[256], type;
	size_t cap = 0, ncap = 0, nlen = 0, nonzero = 0;
	uint64_t addr;

	uint64_t lines = 0;
	struct stat st;

	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return kb_fail_errno(err, errno, "cannot read %s", name);
	/* /proc/kallsyms is a regular file; a device (/dev/zero) never ends. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return kb_fail(err, "%s is not a regular file (a symbol table, as /proc/kallsyms)", name);
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		int e = errno;
		close(fd);
		return kb_fail_errno(err, e, "cannot read %s", name);
	}
	while (kb_read_line(f, line, sizeof(line))) {
		/* A large kernel with its modules has some 300000 symbols: a bound,
		 * so that a runaway file ends. */
		if (++lines > KALLSYMS_MAX_LINES) {
			fclose(f);
			kallsyms_free(k);
			return kb_fail(err, "%s has more than %u lines: not a symbol table", name, KALLSYMS_MAX_LINES);
		}
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) != 3 || !strchr("tTwW", type))
			continue;
		nonzero += addr != 0;
		if (add(k, &cap, &ncap, &nlen, addr, sym, err)) {
			fclose(f);
			kallsyms_free(k);
			return -1;
		}
	}
	int read_error = ferror(f) ? errno : 0;
	fclose(f);
	if (read_error || !k->n) {
		kallsyms_free(k);
		if (read_error)
			return kb_fail_errno(err, read_error, "cannot read %s", name);
		return kb_fail(err, "%s holds no kernel text symbols (lines 'ADDRESS t|T|w|W NAME', as /proc/kallsyms)",
			       name);
	}
	if (!nonzero) {
		kallsyms_free(k);
		return kb_fail(err, "%s shows every address as 0: kernel.kptr_restrict hides them (run as root, "
				    "with sysctl kernel.kptr_restrict=0 or 1)", name);
	}
	qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
	return 0;
}

const char *kallsyms_name(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return k->names + k->syms[lo].name;
}

void kallsyms_free(struct kallsyms *k)
{
	free(k->syms);
	free(k->names);
	memset(k, 0, sizeof(*k));
}
