/* Kernel text symbols from /proc/kallsyms, to name sampled addresses. */
#ifndef KB_KALLSYMS_H
#define KB_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

struct kallsym {
	uint64_t addr;
	uint32_t name; /* offset in names */
};

struct kallsyms {
	struct kallsym *syms;
	size_t n;
	char *names;
};

/* The most lines a symbol file may hold (a large kernel's has some 300000). */
#define KALLSYMS_MAX_LINES 8000000u

/* Loads the text symbols (types t, T, w, W) of path, a regular file, sorted
 * by address. Fails when there are none, when every address reads as 0
 * (kptr_restrict hides them), and past KALLSYMS_MAX_LINES. name: the file
 * as messages call it ("/proc/kallsyms", or the variable that named
 * another and its value). */
int kallsyms_load(const char *path, const char *name, struct kallsyms *k, struct kb_err *err);

/* The symbol at or below addr, NULL past the table's ends. */
const char *kallsyms_name(const struct kallsyms *k, uint64_t addr);

void kallsyms_free(struct kallsyms *k);

#endif
