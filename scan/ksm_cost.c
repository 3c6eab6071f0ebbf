/* The cold checksum cost (see ksm_cost.h). */
#include "ksm_cost.h"

#include "../bench/bench.h"
#include "../datasets/page_set.h"

void ksm_cost_config(struct bench_config *cfg)
{
	bench_config_default(cfg);
	cfg->timer = BENCH_TIMER_RDTSC;
	cfg->repeat = 3;
	cfg->window_ns = 50000000u;
	cfg->warmup_ns = cfg->window_ns / 4;
	cfg->apart = bench_apart_by_default(BENCH_TIMER_KSMD);
}

int ksm_cost_cold_ns(const struct hash_impl *h, uint32_t page_size, double *ns, struct kb_err *err)
{
	struct page_content content;
	struct page_set set;
	struct bench_config cfg;
	struct bench_result res;

	ksm_cost_config(&cfg);
	if (hash_check_len(h, page_size, err) || page_content_random(&content, page_size, 1, err))
		return -1;
	int rc = page_set_cold(&set, &content, page_set_cold_default_bytes(0), 0, 1, err);
	page_content_release(&content);
	if (rc)
		return -1;
	rc = bench_measure(h, &set, &cfg, &res, err);
	page_set_release(&set);
	if (rc)
		return -1;
	*ns = bench_ticks_ns(&res.counter, res.rdtsc.ticks_per_call_median);
	bench_result_release(&res);
	return 0;
}
