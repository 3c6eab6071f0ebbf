/* Runtime CPU feature detection (see cpu_features.h). libcpuid is used only to
 * describe the CPU: version 0.6.2 misses AVX-512 on Zen 4, so dispatch relies
 * on CPUID and XGETBV directly. */
#include "cpu_features.h"

#include <stdio.h>
#include <string.h>

#include "../common/quote.h"

#if defined(__x86_64__) || defined(__i386__)
#include "../common/cpuid.h"
#elif defined(__aarch64__) || defined(__arm__)
#include <sys/auxv.h>
#endif

static const struct {
	uint32_t bit;
	const char *name;
} feature_names[] = {
	{ CPU_SSE2, "sse2" },       { CPU_SSE42, "sse4.2" },     { CPU_PCLMUL, "pclmulqdq" },
	{ CPU_AVX, "avx" },         { CPU_AVX2, "avx2" },        { CPU_AVX512F, "avx512f" },
	{ CPU_AVX512VL, "avx512vl" }, { CPU_AVX512BW, "avx512bw" }, { CPU_VPCLMUL, "vpclmulqdq" },
	{ CPU_ARM_CRC32, "crc32" }, { CPU_ARM_PMULL, "pmull" },  { CPU_ARM_NEON, "neon" },
};

static uint32_t disabled_mask;

/* What each feature builds on: hiding one hides those built on it, as a
 * kernel booted without it (arch/x86/kernel/cpu/cpuid-deps.c) or a CPU
 * without it would have them, so that no rule sees avx512bw without
 * avx512f. avx512f also builds on avx2 here, where the kernel has it on avx
 * alone: the compiler takes -mavx512f to include -mavx2, and the AVX-512
 * builds run AVX2 instructions (crc32c-fused6's ymm reduction, xxhash.h's
 * AVX-512 path), so that an entry needing avx512f must not run without
 * avx2. */
static const struct {
	uint32_t bit, needs;
} feature_deps[] = {
	{ CPU_SSE42, CPU_SSE2 },     { CPU_PCLMUL, CPU_SSE2 },         { CPU_AVX, CPU_SSE2 },
	{ CPU_AVX2, CPU_AVX },       { CPU_AVX512F, CPU_AVX | CPU_AVX2 }, { CPU_AVX512VL, CPU_AVX512F },
	{ CPU_AVX512BW, CPU_AVX512F }, { CPU_VPCLMUL, CPU_AVX | CPU_PCLMUL }, { CPU_ARM_PMULL, CPU_ARM_NEON },
};

static uint32_t with_dependents(uint32_t mask)
{
	for (uint32_t before = 0; before != mask;) {
		before = mask;
		for (size_t i = 0; i < sizeof(feature_deps) / sizeof(feature_deps[0]); i++)
			if (feature_deps[i].needs & mask)
				mask |= feature_deps[i].bit;
	}
	return mask;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;
	/* xgetbv by opcode bytes: no -mxsave needed in this translation unit. */
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
	unsigned r[4];
	uint32_t f = 0;

	if (!kb_cpuid(1, 0, r))
		return 0;
	unsigned c = r[2], d = r[3];
	if (d & (1u << 26))
		f |= CPU_SSE2;
	if (c & (1u << 20))
		f |= CPU_SSE42;
	if (c & (1u << 1))
		f |= CPU_PCLMUL;

	int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
	uint64_t xcr0 = osxsave ? read_xcr0() : 0;
	int os_ymm = (xcr0 & 0x6) == 0x6;
	int os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0;
	if (avx && os_ymm)
		f |= CPU_AVX;

	if (kb_cpuid(7, 0, r)) {
		unsigned b = r[1];
		c = r[2];
		if (os_ymm && (b & (1u << 5)))
			f |= CPU_AVX2;
		/* AVX-512 only with AVX2 (feature_deps): a guest may be given
		 * the one without the other. */
		int zmm = os_zmm && (b & (1u << 5));
		if (zmm && (b & (1u << 16)))
			f |= CPU_AVX512F;
		if (zmm && (b & (1u << 31)))
			f |= CPU_AVX512VL;
		if (zmm && (b & (1u << 30)))
			f |= CPU_AVX512BW;
		if (os_ymm && (c & (1u << 10)))
			f |= CPU_VPCLMUL;
	}
	return f;
}
#elif defined(__aarch64__)
static uint32_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint32_t f = 0;

	if (hw & (1ul << 1)) /* HWCAP_ASIMD */
		f |= CPU_ARM_NEON;
	if (hw & (1ul << 4)) /* HWCAP_PMULL */
		f |= CPU_ARM_PMULL;
	if (hw & (1ul << 7)) /* HWCAP_CRC32 */
		f |= CPU_ARM_CRC32;
	return f;
}
#elif defined(__arm__)
static uint32_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	uint32_t f = 0;

	if (hw & (1ul << 12)) /* HWCAP_NEON */
		f |= CPU_ARM_NEON;
	if (hw2 & (1ul << 1)) /* HWCAP2_PMULL */
		f |= CPU_ARM_PMULL;
	if (hw2 & (1ul << 4)) /* HWCAP2_CRC32 */
		f |= CPU_ARM_CRC32;
	return f;
}
#else
static uint32_t detect(void)
{
	return 0;
}
#endif

static uint32_t detected_once(void)
{
	static uint32_t detected;
	static int done;

	if (!done) {
		detected = detect();
		done = 1;
	}
	return detected;
}

uint32_t cpu_features_detected(void)
{
	return detected_once();
}

uint32_t cpu_features(void)
{
	return detected_once() & ~disabled_mask;
}

int cpu_features_disable(const char *names, struct kb_err *err)
{
	char buf[256], q[KB_QUOTE_SIZE];
	uint32_t mask = 0;

	if (strlen(names) >= sizeof(buf))
		return kb_fail(err, "KSMBENCH_DISABLE '%s' is too long (at most %zu bytes)", kb_quote(names, q),
			       sizeof(buf) - 1);
	strcpy(buf, names);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i, n = sizeof(feature_names) / sizeof(feature_names[0]);
		for (i = 0; i < n && strcmp(tok, feature_names[i].name) != 0; i++)
			;
		if (i == n)
			return kb_fail(err, "unknown CPU feature '%s' in KSMBENCH_DISABLE", kb_quote(tok, q));
		mask |= feature_names[i].bit;
	}
	disabled_mask |= with_dependents(mask);
	return 0;
}

void cpu_features_enable_all(void)
{
	disabled_mask = 0;
}

const char *cpu_features_names(uint32_t mask, char *buf, unsigned size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		if (!(mask & feature_names[i].bit))
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? "," : "", feature_names[i].name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

void cpu_vector_state_clean(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* Tested at run time, so this file needs no -mavx; the assembler accepts
	 * vzeroupper regardless of the compiler's target flags. The real CPU
	 * decides, not the mask: libraries dispatch on what the CPU has. */
	if (detected_once() & CPU_AVX)
		__asm__ volatile("vzeroupper" ::: "memory");
#endif
}
