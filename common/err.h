/* Error values passed from library code up to cmd/, which alone prints them. */
#ifndef KB_ERR_H
#define KB_ERR_H

#include <stddef.h>

/* Library functions return 0 (or a count) on success and -1 on failure, with
 * a one-line, user-facing message in the caller's kb_err. */
struct kb_err {
	char msg[512];
};

#if defined(__GNUC__)
#define KB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KB_PRINTF(a, b)
#endif

/* Formats the message into err (if non-NULL) and returns -1. */
int kb_fail(struct kb_err *err, const char *fmt, ...) KB_PRINTF(2, 3);

/* Like kb_fail, with ": strerror(errnum)" appended. */
int kb_fail_errno(struct kb_err *err, int errnum, const char *fmt, ...) KB_PRINTF(3, 4);

#endif
