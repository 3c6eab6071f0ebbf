/* ksm --watch and ksm --profile: the live KSM over time (cmd/ksm_live.c). */
#ifndef KB_KSM_LIVE_H
#define KB_KSM_LIVE_H

#include <stdint.h>

/* count 0: until interrupted. json: one JSON object per line. width: the
 * columns the text fits (0: unabridged, --wide). */
int ksm_live_watch(const char *dir, uint64_t interval_ns, unsigned count, int json, unsigned width);
int ksm_live_profile(const char *dir, uint64_t window_ns, int json, unsigned width);

#endif
