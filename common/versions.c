/* Versions of the libraries ksmbench links (see versions.h). */
#include "versions.h"

#include <stdio.h>
#include <string.h>

#include <cJSON.h>
#ifdef KB_HAVE_LIBCPUID
#include <libcpuid.h>
#endif
#include <xxhash.h>
#include <zlib.h>

/* The Makefile writes the revision into this header when it changes. */
#if defined(__has_include)
#if __has_include("git_revision.h")
#include "git_revision.h"
#endif
#endif

/* Set by the Makefile from pkg-config: ISA-L reports no version at run time. */
#ifndef KB_ISAL_VERSION
#define KB_ISAL_VERSION "unknown"
#endif
#ifndef KB_GIT_REVISION
#define KB_GIT_REVISION "unknown"
#endif

#define KB_STR2(x) #x
#define KB_STR(x) KB_STR2(x)

const char *const kb_library_keys[] = { "libxxhash", "xxhash.h", "zlib", "libisal", "libcjson", "libcpuid", NULL };

const char *kb_git_revision(void)
{
	return KB_GIT_REVISION;
}

const char *kb_library_version(const char *key)
{
	static char xxh[32];

	if (strcmp(key, "libxxhash") == 0) {
		unsigned v = XXH_versionNumber();
		snprintf(xxh, sizeof(xxh), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
		return xxh;
	}
	/* The header compiled into the xxh3-<isa> entries, not the library. */
	if (strcmp(key, "xxhash.h") == 0)
		return KB_STR(XXH_VERSION_MAJOR) "." KB_STR(XXH_VERSION_MINOR) "." KB_STR(XXH_VERSION_RELEASE);
	if (strcmp(key, "zlib") == 0)
		return zlibVersion();
	if (strcmp(key, "libisal") == 0)
		return KB_ISAL_VERSION;
	if (strcmp(key, "libcjson") == 0)
		return cJSON_Version();
#ifdef KB_HAVE_LIBCPUID
	if (strcmp(key, "libcpuid") == 0)
		return cpuid_lib_version();
#endif
	return NULL;
}
