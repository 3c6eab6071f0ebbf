/* "1 page", "2 pages": the plural ending of a count in output text. */
#ifndef KB_PLURAL_H
#define KB_PLURAL_H

/* "" for 1, "s" for any other count (0 pages, 2 pages). */
static inline const char *kb_s(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

/* "" for 1, "es" for any other count (1 process, 2 processes). */
static inline const char *kb_es(unsigned long long n)
{
	return n == 1 ? "" : "es";
}

#endif
