/* Layer detection and cursors over an input file (see dump_input.h). */
#include "dump_input.h"

#include "gzip_input.h"
#include "kdump_flat.h"

static struct kb_stream *add_flat(const struct dump_input *in, struct kb_stream *s, struct kb_err *err)
{
	return in->flat ? kdump_flat_open(s, err) : s;
}

struct kb_stream *dump_input_cursor(const struct dump_input *in, struct kb_err *err)
{
	if (!in->reopenable)
		return kb_fail(err, "'%s' is not a regular file and this format must be read in "
				    "several places at once: save it to a file first", in->path), NULL;
	struct kb_stream *s = kb_stream_open_file(in->path, err);
	if (s && in->gzip)
		s = gzip_input_open(s, err);
	return s ? add_flat(in, s, err) : NULL;
}

struct kb_stream *dump_input_open(struct dump_input *in, const char *path, int allow_flat,
				  struct kb_err *err)
{
	unsigned char head[32];
	struct kb_stream *s = kb_stream_open_file(path, err);

	in->path = path;
	in->gzip = in->flat = 0;
	if (!s)
		return NULL;
	in->reopenable = s->size != KB_STREAM_SIZE_UNKNOWN;
	ssize_t n = kb_stream_read(s, 0, head, sizeof(head), err);
	if (n < 0)
		goto fail;
	if (gzip_input_detect(head, (size_t)n)) {
		in->gzip = 1;
		if (!(s = gzip_input_open(s, err)))
			return NULL;
		if ((n = kb_stream_read(s, 0, head, sizeof(head), err)) < 0)
			goto fail;
	}
	if (allow_flat && kdump_flat_detect(head, (size_t)n)) {
		in->flat = 1;
		return kdump_flat_open(s, err);
	}
	return s;
fail:
	kb_stream_close(s);
	return NULL;
}
