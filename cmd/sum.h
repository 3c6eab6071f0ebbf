/* Pieces of `ksmbench sum` shared by its files: the options, the digests
 * of a whole file (streamed) and of a page and the --tag names
 * (sum_digest.c), and --check (sum_check.c). */
#ifndef KB_SUM_H
#define KB_SUM_H

#include <stdint.h>

#include "../datasets/dump.h"
#include "../hashes/hash.h"

struct sum_options {
	const struct hash_impl *h; /* -H, default xxhash */
	uint32_t page_size;
	struct dump_options dump;
	int ksm;    /* --ksm: per-page digests as KSM stores them */
	int quiet;  /* --check: no OK lines */
	int status; /* --check: nothing printed, the exit status says it */
};

/* The digest of a whole file, read in pieces (hash_stream.h). */
int sum_file_digest(const struct hash_impl *h, const char *path, char hex[HASH_HEX_MAX], struct kb_err *err);

/* A page's digest as --per-page prints it: the hash, or with --ksm the 32
 * bits KSM keeps (calc_checksum() stores the hash as a u32: its low bits). */
void sum_page_hex(const struct sum_options *o, const unsigned char *page, char hex[HASH_HEX_MAX]);

/* The tag of --tag lines for h ("XXH64" as xxhsum writes it; a hash
 * without one: its name in upper case, into buf). */
const char *sum_tag_of(const struct hash_impl *h, char *buf, size_t size);

/* The hash a tag names, or NULL; for an entry that cannot run here, its
 * family's tag hash where that runs (the same digest). */
const struct hash_impl *sum_hash_of_tag(const char *tag, size_t len);

/* A name in a line (sum_name.c), as GNU's sha256sum escapes it: a line
 * whose name holds a backslash, a newline or a carriage return starts with
 * a backslash (sum_name_escaped tells), and the name is written with those
 * three as \\, \n and \r by sum_name_put (to standard output);
 * sum_name_unescape undoes it in place: 0, or -1 on a backslash followed by
 * anything else. */
int sum_name_escaped(const char *name);
void sum_name_put(const char *name);
int sum_name_unescape(char *name);

/* Verifies the lists (FILE or "-"): the exit status (0, 1 on a mismatch or
 * an unreadable file, 2 on a malformed line), every line reported. */
int sum_check_lists(const struct sum_options *o, char **lists, int nlists);

#endif
