/* The effective core clock, from a fixed chain of dependent additions: each
 * addition waits for the one before, so the chain takes one core cycle per
 * addition whatever the TSC says, and its length over its time is the clock
 * the core ran at. Timed around every round (bench/interference.h): a
 * round whose clock dropped (host frequency, throttling, a slower core) is
 * told apart from one the hash itself made slow. It does not see an SMT
 * sibling's load, which shares the core's units but not its clock: the
 * core's throughput does, from a fixed block of independent additions
 * (twelve chains of SSE2 vector adds beside ten of scalar adds on x86-64,
 * four scalar chains elsewhere)
 * that a free core runs at full width and a shared one at about half, be
 * the sibling this machine's other CPU or, in a VM, another tenant's on
 * the host (which /proc/stat never shows). */
#ifndef KB_CLOCK_CHAIN_H
#define KB_CLOCK_CHAIN_H

#include <stdint.h>

/* Additions per chain: ~10 us at 3 GHz, so three chains around a round of
 * 50 ms cost ~0.1% of it, and a 10 ns clock step is 0.1% of a chain. */
#define CLOCK_CHAIN_ADDS 32768u

/* The clock in Hz: the fastest of three chains (an interruption only makes
 * one slower), timed with CLOCK_MONOTONIC. */
double clock_chain_hz(void);

/* Independent additions per ns, the fastest of three blocks of about
 * CLOCK_CHAIN_ADDS (with eight chains: 22.6 on a free Zen 3 core of the
 * development VM, ~12 with its SMT sibling busy; with twelve vector and
 * ten scalar: about 64, 18.6 a cycle, on a free Zen 5 core, with the loop
 * placed as clock_chain.c places it in every build). */
double clock_chain_throughput(void);

#endif
