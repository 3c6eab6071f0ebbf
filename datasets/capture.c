/* Process capture (see capture.h): the layout of every process first
 * (capture_layout.c: the mappings and, from the page map, which of their
 * pages are present and what KSM sees of them), so that the ELF header, the
 * program headers and the notes (capture_elf.c) are written before the
 * data; then the present pages (capture_memory.c), with two snapshots read
 * twice, interval apart, their hashes compared, then read a last time to
 * be written. The file is written front to back: it can go to a pipe. */
#include "capture_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/kernel_timer.h"
#include "../common/monotonic.h"

static void state_free(struct cap_state *c)
{
	if (!c)
		return;
	capture_pagemap_close(&c->pm);
	free(c->buf);
	free(c->phdrs);
	free(c->info);
	free(c->hashes);
	free(c);
}

void capture_interval_auto(struct capture_interval *iv, unsigned pages_to_scan, unsigned sleep_ms)
{
	iv->automatic = 1;
	iv->pages_to_scan = pages_to_scan ? pages_to_scan : 100;
	iv->sleep_ms = sleep_ms;
	struct ksmd_schedule k = ksmd_schedule_running((uint64_t)iv->pages_to_scan, sleep_ms);
	iv->hz = k.hz;
	uint64_t batches = iv->pages / (uint64_t)iv->pages_to_scan;
	batches += batches < UINT64_MAX;
	uint64_t period = (uint64_t)ksmd_batch_period_ns(&k, 0);
	/* (a count of batches whose product would wrap is past the clamp) */
	iv->ns = period && batches > CAPTURE_INTERVAL_MAX_NS / period ? CAPTURE_INTERVAL_MAX_NS + 1 : batches * period;
	if (iv->ns < CAPTURE_INTERVAL_MIN_NS || iv->ns > CAPTURE_INTERVAL_MAX_NS) {
		iv->ns = iv->ns < CAPTURE_INTERVAL_MIN_NS ? CAPTURE_INTERVAL_MIN_NS : CAPTURE_INTERVAL_MAX_NS;
		iv->clamped = 1;
	}
}

/* With --mergeable only the pages KSM may merge count, as scan --mergeable
 * models them; otherwise every page, as scan takes them by default. */
static void choose_interval(struct capture_job *jobs, size_t n, const struct capture_options *o,
			    struct capture_interval *iv)
{
	for (size_t i = 0; i < n; i++) {
		const struct capture_stats *st = jobs[i].state->stats;
		iv->pages += (o->flags & CAPTURE_MERGEABLE) && st->mergeable_known ? st->pages_mergeable
										 : jobs[i].state->ninfo;
	}
	iv->ns = o->interval_ns;
	if (!o->interval_ns)
		capture_interval_auto(iv, o->pages_to_scan, o->sleep_ms);
}

/* The first snapshot of every process, the interval, the second. */
static int two_snapshots(struct capture_job *jobs, size_t n, const struct capture_options *o,
			 struct capture_interval *iv, struct kb_err *err)
{
	for (size_t i = 0; i < n; i++) {
		struct cap_state *c = jobs[i].state;
		if (!(c->hashes = malloc((c->ninfo ? c->ninfo : 1) * sizeof(*c->hashes))))
			return kb_fail(err, "out of memory for the hashes of %zu pages", c->ninfo);
	}
	choose_interval(jobs, n, o, iv);
	if (o->interval_chosen)
		o->interval_chosen(iv, o->interval_arg);
	uint64_t t0 = clock_now_ns();
	for (size_t i = 0; i < n; i++)
		if (capture_read_all(jobs[i].state, PASS_HASH, err))
			return -1;
	uint64_t spent = clock_now_ns() - t0;
	if (spent < iv->ns)
		clock_sleep_ns(iv->ns - spent);
	for (size_t i = 0; i < n; i++)
		if (capture_read_all(jobs[i].state, PASS_COMPARE, err))
			return -1;
	return 0;
}

static int write_core(struct capture_job *job, const struct capture_options *o, uint64_t interval_ns,
		      struct kb_err *err)
{
	struct cap_state *c = job->state;
	uint32_t flags = (c->pm.pfn_known ? KB_PAGES_PFN_KNOWN : 0) |
			 (c->pm.kpageflags_fd >= 0 ? KB_PAGES_KPAGEFLAGS_KNOWN : 0) |
			 (o->snapshots == 2 ? KB_PAGES_INTERVAL : 0) |
			 (c->stats->mergeable_known ? KB_PAGES_MERGEABLE_KNOWN : 0);

	if (capture_write_headers(c, flags, o->snapshots == 2 ? interval_ns : 0, err) || capture_read_all(c, PASS_WRITE, err))
		return -1;
	return fflush(c->out) == 0 ? 0 : kb_fail_errno(err, errno, "cannot write the core file");
}

static int any_page_present(const struct capture_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].stats.pages_present)
			return 1;
	return 0;
}

int capture_processes(struct capture_job *jobs, size_t n, const struct capture_options *o,
		      struct capture_interval *iv, struct kb_err *err)
{
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	for (size_t i = 0; i < n; i++)
		jobs[i].state = NULL;
	for (size_t i = 0; i < n; i++) {
		struct cap_state *c = calloc(1, sizeof(*c));
		if (!c) {
			kb_fail(err, "out of memory");
			goto out;
		}
		memset(&jobs[i].stats, 0, sizeof(jobs[i].stats));
		c->pid = jobs[i].pid;
		c->out = jobs[i].out;
		c->stats = &jobs[i].stats;
		c->pm.pagemap_fd = c->pm.kpageflags_fd = -1;
		jobs[i].state = c;
		if (capture_layout_process(c, o->flags, err))
			goto out;
		c->system_len = capture_system_text(c->system, sizeof(c->system), o->ksm_dir);
	}
	/* A core of no page, after the interval's wait, only tells what
	 * smaps already did: refused, with nothing written. */
	if ((o->flags & CAPTURE_MERGEABLE) && !any_page_present(jobs, n)) {
		/* Without --all a private file mapping's mg is not looked at:
		 * "no mapping has" would deny what smaps shows. */
		if (n == 1)
			kb_fail(err, "process %d has no page KSM may merge (%s): no core written", (int)jobs[0].pid,
				jobs[0].stats.mappings ? "none present in its mappings with VmFlags mg"
				: (o->flags & CAPTURE_ALL)
					? "no mapping has VmFlags mg: no MADV_MERGEABLE, no prctl PR_SET_MEMORY_MERGE"
					: "no private anonymous mapping has VmFlags mg: no MADV_MERGEABLE, no prctl "
					  "PR_SET_MEMORY_MERGE; --all looks at file-backed and shared mappings too");
		else
			kb_fail(err, "none of the %zu processes has a page KSM may merge present (VmFlags mg: "
				"MADV_MERGEABLE or prctl PR_SET_MEMORY_MERGE): no core written", n);
		goto out;
	}
	if (o->snapshots == 2 && two_snapshots(jobs, n, o, iv, err))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (write_core(&jobs[i], o, iv->ns, err))
			goto out;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++) {
		state_free(jobs[i].state);
		jobs[i].state = NULL;
	}
	return rc;
}
