/* Formatting of error values (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int kb_fail(struct kb_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

int kb_fail_errno(struct kb_err *err, int errnum, const char *fmt, ...)
{
	if (err) {
		char reason[128];
		int r = snprintf(reason, sizeof(reason), ": %s", strerror(errnum));
		size_t rlen = r < 0 ? 0 : (size_t)r < sizeof(reason) ? (size_t)r : sizeof(reason) - 1;
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		size_t len = n < 0 ? 0 : (size_t)n;
		/* The reason is what the line is for: a long path in the message
		 * (a 5000-byte one) is cut, with "...", to leave room for it. */
		if (len + rlen >= sizeof(err->msg)) {
			len = sizeof(err->msg) - 1 - rlen - 3;
			/* Not inside a UTF-8 character: half of one shows as \xHH. */
			for (int back = 0; back < 3 && len > 0 && ((unsigned char)err->msg[len] & 0xc0) == 0x80; back++)
				len--;
			memcpy(err->msg + len, "...", 3);
			len += 3;
		}
		memcpy(err->msg + len, reason, rlen + 1);
	}
	return -1;
}
