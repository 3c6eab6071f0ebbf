/* What the kernel pays to save a task's vector state before it runs SIMD
 * code in process context (kernel_fpu_begin: XSAVE, XRSTOR on the way back
 * to user space), measured from user space on this CPU (xsave_probe.c):
 * the state's size for the features the OS enabled (CPUID leaf 0xD, XCR0)
 * and the time of one XSAVE + XRSTOR pair of it. ksmd, a kernel thread,
 * has no user state and pays neither. */
#ifndef KB_XSAVE_PROBE_H
#define KB_XSAVE_PROBE_H

#include <stdint.h>

struct xsave_cost {
	uint32_t state_bytes; /* 0: not measured (not x86-64, or no OSXSAVE) */
	double save_restore_ns; /* one XSAVE + XRSTOR, the fastest of a few batches */
};

void xsave_measure(struct xsave_cost *out);

#endif
