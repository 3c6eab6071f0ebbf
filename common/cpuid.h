/* CPUID for x86 (x86-64 and i386), in place of <cpuid.h>'s __get_cpuid:
 * clang's version hands rbx to the register allocator as an "=r" operand
 * and swaps it around the instruction, and under its sanitizers (LLVM bug
 * 17907, google/sanitizers#1738) clang 14 gave that operand rcx, which
 * cpuid also writes: rbx came back holding leaf 1's ecx, and the next use
 * of the pointer it held crashed (test_bench_ksmd_cycle under TSan). Here
 * rbx is saved in rsi (esi), named as an output, so nothing is left to the
 * allocator. */
#ifndef KB_CPUID_H
#define KB_CPUID_H

#if defined(__x86_64__) || defined(__i386__)
#if defined(__x86_64__)
#define KB_CPUID_SWAP "xchgq %%rbx, %q1\n\t"
#else
#define KB_CPUID_SWAP "xchgl %%ebx, %1\n\t"
#endif

static inline void kb_cpuid_raw(unsigned leaf, unsigned sub, unsigned r[4])
{
	__asm__ volatile(KB_CPUID_SWAP "cpuid\n\t" KB_CPUID_SWAP
			 : "=a"(r[0]), "=S"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "0"(leaf), "2"(sub));
}

/* Leaf leaf, subleaf sub, into r[] = eax, ebx, ecx, edx: 1, or 0 (r
 * zeroed) where the CPU's highest leaf of that range (basic or extended)
 * is below it. */
static inline int kb_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	kb_cpuid_raw(leaf & 0x80000000u, 0, r);
	if (r[0] < leaf) {
		r[0] = r[1] = r[2] = r[3] = 0;
		return 0;
	}
	kb_cpuid_raw(leaf, sub, r);
	return 1;
}
#endif

#endif
