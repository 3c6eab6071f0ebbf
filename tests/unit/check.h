/* A minimal unit-test harness: CHECK records a pass or a failure and goes on. */
#ifndef KB_CHECK_H
#define KB_CHECK_H

#include <stdio.h>

extern unsigned check_passed, check_failed;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (cond) {                                                              \
			check_passed++;                                                  \
		} else {                                                                 \
			check_failed++;                                                  \
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                        \
	} while (0)

#define CHECK_STR(a, b)                                                                    \
	do {                                                                               \
		const char *a_ = (a), *b_ = (b);                                           \
		if (a_ && b_ && strcmp(a_, b_) == 0) {                                     \
			check_passed++;                                                    \
		} else {                                                                   \
			check_failed++;                                                    \
			fprintf(stderr, "FAIL %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");          \
		}                                                                          \
	} while (0)

/* Each test file defines one or more of these and lists them in main.c. */
typedef void (*unit_test_fn)(void);

#endif
