/* ksmbench verify: known-answer tests and cross-checks for every hash. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../hashes/cpu_features.h"
#include "../hashes/hash.h"
#include "../hashes/selftest.h"
#include "cli.h"
#include "../common/plural.h"

static void usage(void)
{
	printf("usage: ksmbench verify [-H NAME[,NAME...]] [--quick]\n\n"
	       "Checks every available hash (or those named) against known answers, then\n"
	       "against an independent reference and another implementation of the same\n"
	       "function on random buffers of every length 0..4200 at every start offset\n"
	       "0..63. One line per hash; exit 1 on any mismatch.\n\n"
	       "  -H, --hash LIST  only these hashes ('crc32c-*': a glob over the names)\n"
	       "  --quick          lengths 0..600 at offsets 0..7 (for valgrind and emulators)\n");
}

/* The hashes of list, or every registered one; -1 with err. */
static int choose(const char *list, const struct hash_impl **chosen, unsigned max, struct kb_err *err)
{
	int n = 0;

	if (list)
		return hash_select_list(list, chosen, max, err);
	for (unsigned i = 0; i < hash_registry_count && (unsigned)n < max; i++)
		chosen[n++] = hash_registry[i];
	return n;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'H' },
		{ "quick", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct hash_impl *chosen[64];
	const char *list = NULL;
	struct selftest_opts so;
	struct kb_err err;
	unsigned ok = 0, failed = 0, skipped = 0;
	int write_errno = 0; /* the first failed write's */
	int c, n;

	selftest_default_opts(&so);
	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "H:h", opts, NULL)) != -1) {
		switch (c) {
		case 'H': list = optarg; break;
		case 'q': so.max_len = 600; so.max_offset = 7; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("verify", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("verify", "unexpected argument '%s'", argv[optind]);
	if ((n = choose(list, chosen, 64, &err)) < 0)
		return cli_fail("verify", &err);
	so.beside = chosen;
	so.nbeside = (unsigned)n;

	for (int i = 0; i < n; i++) {
		const struct hash_impl *h = chosen[i];
		struct selftest_result res;
		char why[160];

		if (hash_unavailable_reason(h, why, sizeof(why))) {
			printf("skip  %-19s not available here (%s)\n", h->name, why);
			skipped++;
			continue;
		}
		if (selftest_run(h, &so, &res, &err))
			return cli_fail("verify", &err);
		cpu_vector_state_clean();
		printf("%-5s %-19s %u known answer%s, %lu cross-check%s; %s\n", res.failed ? "FAIL" : "ok", h->name,
		       res.kats, kb_s(res.kats), res.checks, kb_s(res.checks), res.detail);
		if (fflush(stdout) != 0 && !write_errno)
			write_errno = errno;
		if (res.failed)
			failed++;
		else
			ok++;
	}
	printf("verify: %u ok, %u failed, %u skipped\n", ok, failed, skipped);
	/* A verdict nobody could read is no pass (> /dev/full, a closed pipe);
	 * the first failed write's errno says why. */
	if (fflush(stdout) != 0 && !write_errno)
		write_errno = errno;
	if (write_errno || ferror(stdout))
		return cli_error("verify", "cannot write the results to standard output: %s",
				 strerror(write_errno ? write_errno : EIO));
	return failed ? KB_EXIT_FAIL : KB_EXIT_OK;
}
