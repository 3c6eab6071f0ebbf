/* Cache-line flushes from user space (see cache_flush.h). Inline assembly
 * rather than intrinsics: clflush is in every x86 CPU since the Pentium 4,
 * and the 32-bit build is not compiled for SSE2. */
#include <stdint.h>

#include "cache_flush.h"

#if defined(__x86_64__) || defined(__i386__)
#include "../common/cpuid.h"

/* CPUID leaf 1: EDX bit 19 is clflush; EBX bits 15..8 its line size in
 * 8-byte units. */
static size_t line_bytes(void)
{
	unsigned r[4];

	if (!kb_cpuid(1, 0, r) || !(r[3] & (1u << 19)) || ((r[1] >> 8) & 0xff) == 0)
		return 0;
	return ((r[1] >> 8) & 0xff) * 8u;
}

static void flush_line(const char *p)
{
	__asm__ volatile("clflush %0" : : "m"(*(const volatile char *)p) : "memory");
}

static void flush_wait(void)
{
	__asm__ volatile("mfence" : : : "memory");
}
#elif defined(__aarch64__)
/* CTR_EL0 bits 19..16: log2 of the smallest data cache line in 4-byte
 * words. Linux lets user code read it and run dc civac. */
static size_t line_bytes(void)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return (size_t)4 << ((ctr >> 16) & 0xf);
}

static void flush_line(const char *p)
{
	__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
}

static void flush_wait(void)
{
	__asm__ volatile("dsb ish" : : : "memory");
}
#else
static size_t line_bytes(void)
{
	return 0;
}

static void flush_line(const char *p)
{
	(void)p;
}

static void flush_wait(void)
{
}
#endif

/* Read once: CPUID traps to the hypervisor in a VM, a microsecond each. */
static size_t line_once(void)
{
	static size_t line;
	static int done;

	if (!done) {
		line = line_bytes();
		done = 1;
	}
	return line;
}

int cache_flush_available(void)
{
	return line_once() != 0;
}

int cache_flush(const void *p, size_t len)
{
	size_t line = line_once();

	if (line == 0)
		return -1;
	if (len == 0)
		return 0;
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(line - 1), end = (uintptr_t)p + len;
	for (; a < end; a += line)
		flush_line((const char *)a);
	flush_wait();
	return 0;
}

int cache_warm_translations(const unsigned char *const *pages, size_t n)
{
	if (line_once() == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		flush_line((const char *)pages[i]);
	flush_wait();
	return 0;
}
