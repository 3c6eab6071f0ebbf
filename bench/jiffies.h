/* The kernel's jiffies, emulated from CLOCK_MONOTONIC, and the arithmetic of
 * the v2 KSM patch's self-test: count hashes of one page for HZ>>3 jiffies and
 * print count * PAGE_SIZE >> 17 as "MB/s" (MiB per 1/8 s, times 8). */
#ifndef KB_JIFFIES_H
#define KB_JIFFIES_H

#include <stdint.h>

/* The tick count at CLOCK_MONOTONIC time ns for a kernel built with hz:
 * 64 bits, as jiffies_64, on every build. The patch's loop compared
 * jiffies with time_before(), which survives a wrap; an unsigned long
 * count wrapped on 32-bit builds after 2^32 ticks (49.7 days of uptime at
 * HZ=1000, 199 at 250), and a window past it ended before it began. */
static inline uint64_t jiffies_from_ns(uint64_t ns, unsigned hz)
{
	return ns / 1000000000u * hz + ns % 1000000000u * hz / 1000000000u;
}

/* The first CLOCK_MONOTONIC time (ns) at which the tick count reaches j. */
static inline uint64_t jiffies_start_ns(uint64_t j, unsigned hz)
{
	return (uint64_t)(j / hz) * 1000000000u + ((uint64_t)(j % hz) * 1000000000u + hz - 1) / hz;
}

/* HZ >> 3: the length of the patch's window in jiffies (31 at HZ=250). */
static inline unsigned jiffies_window(unsigned hz)
{
	return hz >> 3;
}

/* The patch's figure: count * PAGE_SIZE >> 17. */
static inline long jiffies_kernel_mb_per_s(uint64_t count, uint32_t page_size)
{
	return (long)((count * page_size) >> 17);
}

/* The rate the kernel's figure claims, in bytes per second: it takes the
 * window to be exactly 1/8 s. */
static inline double jiffies_kernel_claimed_bytes_per_s(uint64_t count, uint32_t page_size)
{
	return (double)count * page_size * 8.0;
}

/* The kernel figure's bias against the true rate, in percent: positive when
 * the kernel overstates the speed. */
static inline double jiffies_bias_percent(uint64_t count, uint32_t page_size, uint64_t elapsed_ns)
{
	double true_rate = (double)count * page_size * 1e9 / (double)elapsed_ns;
	return (jiffies_kernel_claimed_bytes_per_s(count, page_size) / true_rate - 1.0) * 100.0;
}

/* Valid hz values: 8 (a one-jiffy window) to 10000; the kernel offers 100,
 * 250, 300 and 1000. */
int jiffies_hz_valid(unsigned hz);

#endif
