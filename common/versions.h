/* Versions of the libraries ksmbench links, for provenance and reports. */
#ifndef KB_VERSIONS_H
#define KB_VERSIONS_H

#define KSMBENCH_VERSION "0.1.0"

/* The git revision the binary was built from ("unknown" outside a checkout). */
const char *kb_git_revision(void);

/* Version of a library by key: "libxxhash", "xxhash.h" (the header compiled
 * into the xxh3-<isa> entries), "zlib", "libisal", "libcjson", "libcpuid".
 * Run-time versions where the library reports one, else the version it was
 * built against. NULL for an unknown key or a library not linked in. */
const char *kb_library_version(const char *key);

/* The keys above, NULL-terminated, for listing them all. */
extern const char *const kb_library_keys[];

#endif
