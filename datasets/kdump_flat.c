/* The flattened makedumpfile layer (see kdump_flat.h). */
#include "kdump_flat.h"

#include <stdlib.h>
#include <string.h>

#define FLAT_HEADER_BYTES 4096u
#define FLAT_MAX_WRAPS 64

struct flat_stream {
	struct kb_stream base;
	struct kb_stream *inner;
	int have;      /* a record is loaded */
	uint64_t rec;  /* inner offset of its header */
	uint64_t voff; /* where its bytes go in the reconstructed file */
	uint64_t vsize;
	unsigned wraps;
	int seen_end;  /* the end marker was read */
};

static const unsigned char flat_signature[16] = "makedumpfile";

int kdump_flat_detect(const unsigned char *head, size_t len)
{
	return len >= sizeof(flat_signature) && memcmp(head, flat_signature, sizeof(flat_signature)) == 0;
}

/* Loads the record whose header is at `at`: 1, 0 at the end marker, -1.
 * makedumpfile always writes the end marker: the data ending without it
 * means records were lost. */
static int flat_load(struct flat_stream *f, uint64_t at, struct kb_err *err)
{
	unsigned char hdr[16];
	ssize_t n = kb_stream_read(f->inner, at, hdr, sizeof(hdr), err);

	f->have = 0;
	if (n < 0)
		return -1;
	if (n < 16)
		return kb_fail(err, "'%s' is truncated: the flattened records end at offset %llu "
				    "without their end marker", f->base.path, (unsigned long long)at);
	uint64_t off = kb_get64(hdr, 1), size = kb_get64(hdr + 8, 1);
	if (off == UINT64_MAX && size == UINT64_MAX) {
		f->seen_end = 1;
		return 0;
	}
	if (off > (uint64_t)INT64_MAX || size > (uint64_t)INT64_MAX || off > UINT64_MAX - size)
		return kb_fail(err, "'%s' is corrupt: flattened record at offset %llu has offset "
				    "%lld and size %lld", f->base.path, (unsigned long long)at,
			       (long long)off, (long long)size);
	if (kb_stream_check_range(f->inner, at + 16, size, "flattened record data", err))
		return -1;
	f->have = 1;
	f->rec = at;
	f->voff = off;
	f->vsize = size;
	return 1;
}

static int flat_holds(const struct flat_stream *f, uint64_t off)
{
	return f->have && off >= f->voff && off - f->voff < f->vsize;
}

/* Makes the record holding off current: 1; 0 when no record holds it and
 * none lies past it (the end of the data); -1, also when a record lies
 * past it (a record is missing). Scans forward from the current record,
 * then once from the first one up to where it began. */
static int flat_find(struct flat_stream *f, uint64_t off, struct kb_err *err)
{
	if (flat_holds(f, off))
		return 1;
	int from_middle = f->have, wrapped = !f->have;
	uint64_t start = f->rec, next_start = UINT64_MAX;
	if (f->have && f->voff > off)
		next_start = f->voff;
	int rc = flat_load(f, f->have ? f->rec + 16 + f->vsize : FLAT_HEADER_BYTES, err);

	for (;;) {
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (wrapped)
				break;
			if (++f->wraps > FLAT_MAX_WRAPS)
				return kb_fail(err, "'%s': the flattened records are out of order too "
						    "often (more than %d rescans)", f->base.path,
					       FLAT_MAX_WRAPS);
			wrapped = 1;
			rc = flat_load(f, FLAT_HEADER_BYTES, err);
			continue;
		}
		if (flat_holds(f, off))
			return 1;
		if (f->voff > off && f->voff < next_start)
			next_start = f->voff;
		if (from_middle && wrapped && f->rec >= start)
			break;
		rc = flat_load(f, f->rec + 16 + f->vsize, err);
	}
	if (next_start == UINT64_MAX)
		return 0;
	return kb_fail(err, "'%s' is corrupt: no flattened record holds offset %llu of the data, "
			    "though records go on from offset %llu (a record is missing)", f->base.path,
		       (unsigned long long)off, (unsigned long long)next_start);
}

static ssize_t flat_read_at(struct kb_stream *s, uint64_t off, void *buf, size_t len,
			    struct kb_err *err)
{
	struct flat_stream *f = (struct flat_stream *)s;
	size_t done = 0;

	while (done < len) {
		int rc = flat_find(f, off, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		uint64_t avail = f->vsize - (off - f->voff);
		size_t want = avail < len - done ? (size_t)avail : len - done;
		if (kb_stream_read_exact(f->inner, f->rec + 16 + (off - f->voff),
					 (unsigned char *)buf + done, want, "flattened record data", err))
			return -1;
		done += want;
		off += want;
	}
	return (ssize_t)done;
}

/* The records from the current one on, to the end marker: a reader that
 * needs nothing past its last record's bytes (an ELF core's last segment)
 * never looks further, and a file cut after them (its end marker lost) was
 * read as whole. */
static int flat_finish(struct kb_stream *s, struct kb_err *err)
{
	struct flat_stream *f = (struct flat_stream *)s;
	int rc = f->seen_end ? 0 : f->have ? 1 : flat_load(f, FLAT_HEADER_BYTES, err);

	while (rc == 1)
		rc = flat_load(f, f->rec + 16 + f->vsize, err);
	return rc < 0 ? -1 : kb_stream_finish(f->inner, err);
}

static void flat_close(struct kb_stream *s)
{
	struct flat_stream *f = (struct flat_stream *)s;

	kb_stream_close(f->inner);
	free(f);
}

static const struct kb_stream_ops flat_ops = { flat_read_at, flat_close, flat_finish, NULL };

/* The header's type and version (both 1 in every makedumpfile), and at
 * least one record: a header alone is not an empty dump but a lost one. */
static int flat_check_start(struct flat_stream *f, struct kb_err *err)
{
	unsigned char h[32];

	if (kb_stream_read_exact(f->inner, 0, h, sizeof(h), "the flattened header", err))
		return -1;
	if (kb_get64(h + 16, 1) != 1 || kb_get64(h + 24, 1) != 1)
		return kb_fail(err, "'%s': flattened header of type %lld, version %lld (only type 1, "
				    "version 1 is known)", f->base.path, (long long)kb_get64(h + 16, 1),
			       (long long)kb_get64(h + 24, 1));
	int rc = flat_load(f, FLAT_HEADER_BYTES, err);
	if (rc == 0)
		return kb_fail(err, "'%s' is a flattened makedumpfile file without any data record",
			       f->base.path);
	return rc < 0 ? -1 : 0;
}

struct kb_stream *kdump_flat_open(struct kb_stream *inner, struct kb_err *err)
{
	struct flat_stream *f = calloc(1, sizeof(*f));

	if (!f) {
		kb_stream_close(inner);
		return kb_fail(err, "out of memory"), NULL;
	}
	f->base.ops = &flat_ops;
	f->base.size = KB_STREAM_SIZE_UNKNOWN;
	f->base.path = inner->path;
	f->inner = inner;
	if (flat_check_start(f, err)) {
		flat_close(&f->base);
		return NULL;
	}
	return &f->base;
}
