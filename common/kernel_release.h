/* Linux kernel releases ("6.18.44-fc-v1272", "4.18.0-553.el8_10.x86_64"):
 * parsed, compared with the "since" releases of the hash registry, and the
 * running one (uname, or KSMBENCH_KERNEL_RELEASE where a test poses as an
 * older kernel). What changed between releases is decided by the callers:
 * KSM's rules (scan/ksm_model.c), the kernel's crc32c (hashes/kernel_crc32c.c). */
#ifndef KB_KERNEL_RELEASE_H
#define KB_KERNEL_RELEASE_H

#include <stddef.h>

struct kernel_release {
	long major, minor, patch; /* patch 0 when the release has none */
};

/* MAJOR.MINOR[.PATCH] at the start of text (numbers of up to 6 digits), then
 * any suffix that starts with neither a digit nor a dot ("-rc1", "-553.el8";
 * a dot after MINOR must begin the patch number: "6.6." and "6.6.x" are not
 * releases): 0, or -1 where text does not start so. */
int kernel_release_parse(const char *text, struct kernel_release *r);

/* The most bytes of a release: uname's field (__NEW_UTS_LEN). */
#define KERNEL_RELEASE_MAX 64

/* Whether text could be uname's release: 1 to KERNEL_RELEASE_MAX bytes,
 * each printable ASCII but the space. Reports print a release as it is,
 * so one given by a user or a dump is checked with this first. */
int kernel_release_plausible(const char *text);

/* r parsed from text, or NULL (the newest kernel) where text is NULL or does
 * not parse: the argument release-aware rules take. */
const struct kernel_release *kernel_release_or_newest(const char *text, struct kernel_release *r);

/* Whether r is since or later. A NULL r is the newest kernel, a NULL since
 * older than any (code in every release that has the caller's feature). */
int kernel_release_at_least(const struct kernel_release *r, const char *since);

/* The newest release whose KSM and crc32c rules were checked against its
 * source: a later one is taken to follow them (nothing newer is known). */
#define KERNEL_RELEASE_NEWEST_CHECKED "6.18"

/* For text naming a release after KERNEL_RELEASE_NEWEST_CHECKED, a clause
 * saying which rules it gets (", taken as 6.18, ..."); else "". */
const char *kernel_release_checked_note(const char *text);

/* The running kernel's release into buf: KSMBENCH_KERNEL_RELEASE where set
 * and not empty (cmd/main.c refuses one that does not parse), else uname's.
 * Returns buf, or NULL when neither is known. */
const char *kernel_release_running(char *buf, size_t cap);

#endif
