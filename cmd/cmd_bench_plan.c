/* The plan of a bench run from its options (see cmd_bench.h): one step per
 * combination of the swept options (each twice with --ksmd), and the
 * hashes asked for. */
#include <string.h>

#include "cli.h"
#include "cmd_bench.h"

/* --ksmd: every combination twice, in ksmd's duty cycle and without its
 * sleep (rdtsc, calls one after the other) over the same cold set, so that
 * the table shows what the sleep costs beside the figure without it. The
 * set is cold by its size: the steps are built under the window timer,
 * which flushes nothing. */
static unsigned build_ksmd_steps(const struct bench_opts *o, uint64_t llc_bytes, struct bench_step *steps)
{
	struct bench_opts plain = *o;
	struct bench_step one[STEPS_MAX];

	plain.ksmd = 0;
	unsigned n = cmd_bench_build_steps(&plain, llc_bytes, one);
	for (unsigned i = 0; i < n; i++) {
		steps[2 * i] = steps[2 * i + 1] = one[i];
		steps[2 * i].cfg.timer = BENCH_TIMER_KSMD;
		steps[2 * i].name = "ksmd duty cycle";
		steps[2 * i + 1].cfg.timer = BENCH_TIMER_RDTSC;
		steps[2 * i + 1].name = "without the sleep";
	}
	return 2 * n;
}

/* The cross product of the swept options, data outermost, misalignment
 * innermost: the table's rows come grouped that way. */
unsigned cmd_bench_build_steps(const struct bench_opts *o, uint64_t llc_bytes, struct bench_step *steps)
{
	const struct sweep *s = &o->sweep;
	unsigned n = 0;

	if (o->ksmd)
		return build_ksmd_steps(o, llc_bytes, steps);
	for (unsigned d = 0; d < s->ndata; d++)
		for (unsigned c = 0; c < s->ncache; c++)
			for (unsigned p = 0; p < s->npage; p++)
				for (unsigned m = 0; m < s->nmisalign; m++) {
					struct bench_step *st = &steps[n++];
					*st = o->base;
					st->set.data = s->data[d];
					st->set.cold = s->cold[c] && !o->selfcheck;
					st->set.page_size = s->page[p];
					st->set.misalign = s->misalign[m];
					st->set.llc_bytes = llc_bytes;
					st->set.flushed = bench_timer_flushes(&st->cfg);
					if (!page_set_data_is_file(s->data[d]))
						st->set.dump = (struct dump_options){ 0 };
					st->building_note = st->set.cold ? "building the cold working set" : NULL;
				}
	return n;
}

/* The hashes asked for, each implementation once (aliases grouped). */
int cmd_bench_choose_hashes(const struct bench_opts *o, const struct hash_impl **hashes, struct bench_names *names,
			    unsigned *n)
{
	struct kb_err err;
	int got = hash_select_list(o->hashes, hashes, MAX_HASHES, &err);

	if (got < 0)
		return cli_fail("bench", &err);
	for (int i = 0; i < got; i++)
		for (unsigned p = 0; p < o->sweep.npage; p++)
			if (hash_check_len(hashes[i], o->sweep.page[p], &err))
				return cli_fail("bench", &err);
	*n = o->selfcheck ? (unsigned)got : bench_names_group(hashes, (unsigned)got, names, strcmp(o->hashes, "all") == 0);
	return 0;
}
