/* Shared pieces of the measuring subcommands (see bench_cli.h). */
#include "bench_cli.h"

#include <signal.h>
#include <string.h>

#include "../bench/context.h"
#include "../bench/pin.h"
#include "../common/size_parse.h"
#include "cli.h"
#include "interrupt.h"
#include "term.h"

int bench_cli_parse_cpu(const char *cmd, const char *text, int *cpu)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, 65535, &v, &err))
		return cli_error(cmd, "--cpu: %s", err.msg);
	*cpu = (int)v;
	return 0;
}

int bench_cli_parse_repeat(const char *cmd, const char *text, unsigned *repeat)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, 1000, &v, &err))
		return cli_error(cmd, "--repeat: %s", err.msg);
	if (v == 0)
		return cli_error(cmd, "--repeat: must be at least 1");
	*repeat = (unsigned)v;
	return 0;
}

int bench_cli_parse_hz(const char *cmd, const char *text, unsigned *hz)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(text, 10000, &v, &err) || v < 8)
		return cli_error(cmd, "--hz '%s' must be from 8 to 10000", text);
	*hz = (unsigned)v;
	return 0;
}

int bench_cli_parse_working_set(const char *cmd, const char *text, uint64_t *bytes)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_size(text, &v, &err))
		return cli_error(cmd, "--working-set: %s", err.msg);
	if (v < (64u << 10) || v > (64ull << 30))
		return cli_error(cmd, "--working-set '%s' must be from 64K to 64G", text);
	*bytes = v;
	return 0;
}

int bench_cli_pin(const char *cmd, int cpu, int *pinned)
{
	struct kb_err err;

	if (cpu < 0)
		cpu = pin_current_cpu();
	if (cpu < 0)
		return cli_error(cmd, "cannot tell which CPU this process runs on");
	if (pin_to_cpu(cpu, &err))
		return cli_fail(cmd, &err);
	*pinned = cpu;
	return 0;
}

int bench_cli_build_set(const char *cmd, const struct bench_set_request *req, struct page_set *set)
{
	struct page_content content;
	struct kb_err err;
	uint64_t ws = req->working_set_bytes ? req->working_set_bytes : page_set_cold_default_bytes(req->llc_bytes);
	int rc;

	if (strcmp(req->data, "zero") == 0)
		rc = page_content_zero(&content, req->page_size, &err);
	else if (strcmp(req->data, "random") == 0)
		rc = page_content_random(&content, req->page_size, req->seed, &err);
	else
		rc = page_content_file(&content, req->data, req->page_size,
				       req->cold ? (size_t)ws : PAGE_SET_HOT_FILE_MAX, &err);
	if (rc)
		return cli_fail(cmd, &err);
	rc = req->cold ? page_set_cold(set, &content, ws, req->misalign, req->seed, &err)
		       : page_set_hot(set, &content, req->misalign, &err);
	page_content_release(&content);
	return rc ? cli_fail(cmd, &err) : 0;
}

int bench_cli_output_open(const char *cmd, const char *path, struct bench_output *o)
{
	struct kb_err err;

	memset(o, 0, sizeof(*o));
	o->fp = stdout;
	if (!path)
		return 0;
	if (atomic_file_open(&o->af, path, 0644, &err))
		return cli_fail(cmd, &err);
	o->fp = o->af.fp;
	o->to_file = 1;
	interrupt_watch_file(o->af.tmp_path);
	return 0;
}

void bench_cli_output_abort(struct bench_output *o)
{
	interrupt_watch_file(NULL);
	if (o->to_file)
		atomic_file_abort(&o->af);
}

int bench_cli_output_close(const char *cmd, struct bench_output *o, int write_rc)
{
	struct kb_err err;

	interrupt_watch_file(NULL);
	if (!o->to_file) {
		if (write_rc != 0 || fflush(stdout) != 0)
			return cli_error(cmd, "cannot write the report");
		return KB_EXIT_OK;
	}
	if (write_rc != 0) {
		atomic_file_abort(&o->af);
		return cli_error(cmd, "cannot write the report");
	}
	if (atomic_file_commit(&o->af, &err))
		return cli_fail(cmd, &err);
	return KB_EXIT_OK;
}

void bench_cli_warnings_to_stderr(const char *cmd, const struct bench_context *ctx)
{
	for (unsigned i = 0; i < ctx->nwarnings; i++)
		fprintf(stderr, "ksmbench %s: warning: %s\n", cmd, ctx->warnings[i]);
}

int bench_cli_measure(const char *cmd, const struct hash_impl *const *hashes, unsigned n,
		      const struct page_set *set, struct bench_config *cfg, struct progress *p,
		      struct bench_result *out, unsigned *nout)
{
	struct kb_err err;
	unsigned k = 0;

	cfg->on_round = progress_round;
	cfg->on_round_arg = p;
	p->total = n;
	for (unsigned i = 0; i < n && !bench_stop_requested(); i++) {
		p->index = i + 1;
		if (bench_measure(hashes[i], set, cfg, &out[k], &err)) {
			progress_clear(p);
			return cli_fail(cmd, &err);
		}
		if (out[k].repeats > 0)
			k++;
	}
	progress_clear(p);
	*nout = k;
	return 0;
}

void bench_cli_note_interruption(const char *cmd, struct bench_context *ctx, unsigned planned, unsigned completed)
{
	int signo = bench_stop_requested();

	ctx->planned = planned;
	ctx->completed = completed;
	ctx->interrupted_by = signo;
	if (signo)
		fprintf(stderr, "ksmbench %s: interrupted by %s: %u of %u measurements reported\n", cmd,
			signo == SIGTERM ? "SIGTERM" : signo == SIGINT ? "SIGINT" : "a signal", completed, planned);
}

int bench_cli_exit_code(int close_rc)
{
	int code = interrupt_exit_code();

	return code ? code : close_rc;
}
