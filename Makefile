# ksmbench build. `make run` and `make test` install missing Debian packages
# first (scripts/install-deps.sh), then build and run.

.DEFAULT_GOAL := all
CC ?= cc
BUILD ?= build/default
OUT ?= ksmbench
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
# libisal and libcpuid are not packaged for every Debian architecture (no
# libisal on i386, no libcpuid on arm64): without them the build goes on and
# their entries list as unavailable (KB_HAVE_LIBISAL, KB_HAVE_LIBCPUID).
# lzo2, snappy and libzstd decode kdump pages stored that way; without one,
# such a page is refused naming the package (datasets/page_codec.h).
PKGS_OPTIONAL := $(foreach p,libisal libcpuid lzo2 snappy libzstd,$(shell $(PKG_CONFIG) --exists $(p) 2>/dev/null && echo $(p)))
PKGS := libxxhash zlib libcjson $(PKGS_OPTIONAL)
have = $(if $(filter $(1),$(PKGS)),-DKB_HAVE_$(2))
HAVE_DEFS := $(call have,libisal,LIBISAL) $(call have,libcpuid,LIBCPUID) $(call have,lzo2,LZO) \
	$(call have,snappy,SNAPPY) $(call have,libzstd,ZSTD)

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ISAL_VERSION := $(shell $(PKG_CONFIG) --modversion libisal 2>/dev/null)
SNAPPY_VERSION := $(shell $(PKG_CONFIG) --modversion snappy 2>/dev/null)
GIT_REVISION := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
# Warnings are errors in the builds the project checks (make test, san-test,
# fuzz, cross-test, CI's clang build pass WERROR=-Werror), not in a plain
# `make` or `make install`: a newer compiler's new warning must not break a
# distribution's build.
WERROR ?=
# 64-bit off_t and inode numbers on 32-bit builds too (readdir and large
# dump files fail with EOVERFLOW otherwise).
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(WARN) $(WERROR) $(CFLAGS) $(PKG_CFLAGS) $(HAVE_DEFS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lm

# xxhash.h's builds at -O3, as xxHash's own Makefile builds it: on Emerald
# Rapids at 4 KiB, AVX-512 187 against 197 TSC cycles at -O2, SSE2 441
# against 537, AVX2 the same (docs/hashes.md).
XXH3_OPT := -O3
# Tuned for an AVX-512 core: GCC's generic tuning takes each stripe's input
# from memory twice (folded into the xor and the swap), Intel's tunings load
# it once; the same instructions with a third fewer loads, 4-12% faster on
# Zen 5, where the AMD tunings were no better than generic (figures in
# docs/hashes.md, Zen 5 section). Clang ignores it.
# The ceiling's probes are built the same way, so that its XXH3 loops load
# as the XXH3 builds do (docs/ceilings.md).
XXH3_TUNE := -mtune=skylake-avx512
ifneq ($(filter aarch64%,$(MACHINE)),)
FLAGS_hashes/xxh3_neon.c := $(XXH3_OPT)
endif

# Target flags of the implementations that need them, keyed by source file:
# one translation unit per instruction set, chosen at run time by CPUID.
ifneq ($(filter x86_64% i386% i686%,$(MACHINE)),)
# GCC's post-RA scheduler groups a fused loop's crc32q together, which keeps
# the crc32 unit and the multipliers from overlapping (docs/hashes.md).
CC_IS_CLANG := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep __clang__)
IN_ORDER := $(if $(CC_IS_CLANG),,-fno-schedule-insns2)
# GCC carries an XXH3 probe's secret loads from one stripe to the next
# (stripe n + 2's lane 0 is stripe n's lane 1) at the price of register
# copies; xxhash.h's builds load each stripe's secret afresh, and so do the
# probes without predictive commoning (docs/ceilings.md).
PROBE_LOADS := $(if $(CC_IS_CLANG),,-fno-predictive-commoning)
FLAGS_hashes/crc32c_sse42.c := -msse4.2
FLAGS_hashes/crc32c_3way.c := -msse4.2 -mpclmul
FLAGS_hashes/crc32c_3way_fit.c := -msse4.2 -mpclmul
FLAGS_hashes/crc32c_vpclmul_avx2.c := -msse4.2 -mpclmul -mavx2 -mvpclmulqdq
FLAGS_hashes/crc32c_fused_avx2.c := -msse4.2 -mpclmul -mavx2 -mvpclmulqdq $(IN_ORDER)
FLAGS_hashes/crc32c_vpclmul.c := -msse4.2 -mpclmul -mavx512f -mvpclmulqdq
FLAGS_hashes/crc32c_fused.c := -msse4.2 -mpclmul -mavx512f -mvpclmulqdq $(IN_ORDER)
FLAGS_hashes/crc32c_fused_intel.c := -msse4.2 -mpclmul -mavx512f -mvpclmulqdq $(IN_ORDER)
FLAGS_hashes/crc32c_fused6.c := -msse4.2 -mpclmul -mavx512f -mvpclmulqdq $(IN_ORDER)
FLAGS_hashes/xxh3_sse2.c := -msse2 $(XXH3_OPT) $(XXH3_TUNE)
FLAGS_bench/ceiling_x86_128.c := -msse4.2 -mpclmul $(IN_ORDER) $(XXH3_TUNE) $(PROBE_LOADS)
FLAGS_bench/ceiling_x86_256.c := -msse4.2 -mpclmul -mavx2 -mvpclmulqdq $(IN_ORDER) $(XXH3_TUNE) $(PROBE_LOADS)
FLAGS_bench/ceiling_x86_512.c := -msse4.2 -mpclmul -mavx512f -mvpclmulqdq $(IN_ORDER) $(XXH3_TUNE) $(PROBE_LOADS)
FLAGS_hashes/xxh3_avx2.c := -mavx2 $(XXH3_OPT) $(XXH3_TUNE)
FLAGS_hashes/xxh3_avx512.c := -mavx512f $(XXH3_OPT) $(XXH3_TUNE)
endif
ifneq ($(filter aarch64%,$(MACHINE)),)
FLAGS_hashes/crc32c_armv8.c := -march=armv8-a+crc+crypto
endif
# A value inside '"..."' on a shell line: its backslashes and double
# quotes escaped for C, its single quotes for the shell.
c_string = $(subst ','\'',$(subst ",\",$(subst \,\\,$(1))))
FLAGS_bench/context.c := -DKB_CFLAGS='"$(call c_string,$(CFLAGS))"'
FLAGS_common/versions.c := -DKB_ISAL_VERSION='"$(ISAL_VERSION)"' -I$(BUILD)
FLAGS_datasets/codec_snappy.c := -DKB_SNAPPY_VERSION='"$(SNAPPY_VERSION)"'

# Files remade only when their line changes: the git revision, so that a
# second `make`, or `sudo make install` after `make`, builds nothing (where
# git cannot tell, no repository or a tree root refused, an existing header
# stays); and the compiler and flags, so that objects built with others are
# rebuilt, not mixed with new ones. Real rules, so that `make clean all`
# makes them again and `make -n` or `-q` says what would change without
# changing it.
# The stamp's lines are make variables (tests/test_build.py passes CC,
# CFLAGS and LDFLAGS back); -Werror is left out, as it changes no object.
REVISION_H := $(BUILD)/git_revision.h
REVISION_LINE := \#define KB_GIT_REVISION "$(GIT_REVISION)"
FLAGS_STAMP := $(BUILD)/flags
define NL


endef
STAMP_LIBS := LIBS=$(PKG_CFLAGS) $(HAVE_DEFS) $(LDLIBS)
FLAGS_LINE := CC=$(CC)$(NL)CFLAGS=$(CFLAGS)$(NL)LDFLAGS=$(LDFLAGS)$(NL)$(STAMP_LIBS)
quoted = '$(subst ','\'',$(1))'
write_line = mkdir -p $(dir $(1)) && printf '%s\n' $(call quoted,$(2)) >$(1)
write_flags = mkdir -p $(dir $(1)) && printf '%s\n' $(call quoted,CC=$(CC)) $(call quoted,CFLAGS=$(CFLAGS)) \
	$(call quoted,LDFLAGS=$(LDFLAGS)) $(call quoted,$(STAMP_LIBS)) >$(1)
.PHONY: FORCE
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_LINE))
$(FLAGS_STAMP): FORCE
endif
ifneq ($(file <$(REVISION_H)),$(REVISION_LINE))
ifneq ($(GIT_REVISION)$(wildcard $(REVISION_H)),unknown$(REVISION_H))
$(REVISION_H): FORCE
endif
endif

$(REVISION_H):
	@$(call write_line,$@,$(REVISION_LINE))

$(FLAGS_STAMP):
	@$(call write_flags,$@)

# `make clean all`: the clean first, alone, then the rest.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

LIB_SRCS := $(wildcard common/*.c hashes/*.c datasets/*.c bench/*.c report/*.c scan/*.c)
CMD_SRCS := $(wildcard cmd/*.c)
TEST_SRCS := $(wildcard tests/unit/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(BUILD)/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)
UNIT := $(BUILD)/unit-tests

.PHONY: all deps bench bench-ceiling repro-check run test check san-build san-test tsan-test fuzz fuzz-build cross-test bench-scan clean install uninstall

all: $(OUT)

$(OUT): $(LIB_OBJS) $(CMD_OBJS) $(FLAGS_STAMP)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

$(UNIT): $(LIB_OBJS) $(TEST_OBJS) $(FLAGS_STAMP)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)

# The hashes and the timed loops start on a cache line (as the kernel's
# CONFIG_DEBUG_FORCE_FUNCTION_ALIGN_64B does for the same reason): otherwise
# code added anywhere moves their loops within a line, and on Zen 5 one such
# placement halved crc32c-3way's back-to-back rate at 256 bytes against the
# same loop in crc32c-sse42 (docs/hashes.md, "Short inputs").
HOT_CODE := hashes/% bench/loop_%
HOT_ALIGN := -falign-functions=64

# Flags live in this file and the stamp: objects are rebuilt when either changes.
$(BUILD)/%.o: %.c Makefile $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(if $(filter $(HOT_CODE),$<),$(HOT_ALIGN)) $(FLAGS_$<) -c -o $@ $<

$(BUILD)/common/versions.o: $(REVISION_H)

deps:
	@scripts/install-deps.sh

# The fast hashes' speed targets (scripts/bench_targets.py), on a hot page.
# 21 rounds of each: the best of 7 often missed every unshared phase of a
# busy host's sibling, while the ceiling it is set against keeps the best of
# its unshared rounds (docs/measurement.md).
bench:
	@scripts/install-deps.sh --bench
	@$(MAKE) --no-print-directory all
	scripts/bench_targets.py ./$(OUT) --repeat 21

# How far `ksmbench ceiling` moves between runs (scripts/ceiling_spread.py).
bench-ceiling: $(OUT)
	scripts/ceiling_spread.py ./$(OUT) --runs 5

# Issue 15's goals: figures that hold from one run to the next
# (scripts/repro-check, docs/measurement.md); about five minutes, final only
# on an idle machine.
repro-check: $(OUT)
	scripts/repro-check ./$(OUT)

# make run and make test build on every CPU unless the command line gave -j
# (a -j given to a sub-make would end the jobserver's sharing).
PARALLEL = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

run: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all
	./$(OUT)

# The whole suite: the unit tests and the CLI tests against the built binary,
# one per CPU at a time (tests/run.py).
check: $(OUT) $(UNIT)
	tests/run.py $(UNIT) ./$(OUT)

# (install-deps.sh --test checks the build's packages too: one list, one
# apt-get line for a user who is not root, not the build's first and the
# tests' after it.)
test:
	@scripts/install-deps.sh --test
	@$(MAKE) --no-print-directory $(PARALLEL) WERROR=-Werror check

# The suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
# GCC's and clang's "undefined" leaves out float-cast-overflow: named here.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
san-build:
	@$(MAKE) --no-print-directory $(PARALLEL) BUILD=build/san OUT=build/san/ksmbench CFLAGS="$(SAN_FLAGS)" \
		WERROR=-Werror build/san/ksmbench build/san/unit-tests

san-test: san-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run.py build/san/unit-tests build/san/ksmbench

# The threads under ThreadSanitizer (clang): the unit tests (the read-ahead
# and segment pager threads) and the CLI tests of the dump readers and scan
# (dumps read ahead, a kdump inflated on two threads, the census's digests
# on the read-ahead thread). A race ends the process (halt_on_error), which
# fails its test.
tsan-test:
	@$(MAKE) --no-print-directory CC=clang BUILD=build/tsan OUT=build/tsan/ksmbench CFLAGS="-O1 -g -fsanitize=thread" \
		WERROR=-Werror build/tsan/ksmbench build/tsan/unit-tests
	TSAN_OPTIONS=halt_on_error=1 KSMBENCH_TESTS="unit dumps scan" tests/run.py build/tsan/unit-tests build/tsan/ksmbench

# libFuzzer targets of the dump readers, the LiME range parser and the results reader
# (tests/fuzz/), built with clang, ASan and UBSan, seeded by tests/dumpgen.py and by
# results documents the built ksmbench writes; each runs FUZZ_SECONDS. Inputs up to
# 64 KiB, 256 KiB for the results reader: its select seed (94 KB) was cut at 64 KiB
# and never parsed (coverage 47 against 346 in five minutes).
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_SAN := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB_SRCS := $(LIB_SRCS)

fuzz-build:
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) WERROR=-Werror \
		CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_TARGETS)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_reader.h $(FUZZ_LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(WARN) -Werror $(FUZZ_SAN) $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o) $(LDLIBS)

fuzz: fuzz-build $(OUT)
	python3 tests/dumpgen.py $(FUZZ_BUILD)/seeds
	./$(OUT) bench --no-ceiling -H xxh64,jhash2 --repeat 3 --processes 2 --window 1ms --format json \
		-o $(FUZZ_BUILD)/seeds/bench.json
	./$(OUT) select --no-ceiling --repeat 1 --processes 1 --format json -o $(FUZZ_BUILD)/seeds/select.json
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $$t.corpus; \
		echo "== $$t for $(FUZZ_SECONDS) s"; \
		case $$t in *fuzz_results) len=262144;; *) len=65536;; esac; \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $$t -max_total_time=$(FUZZ_SECONDS) \
			-timeout=10 -rss_limit_mb=1024 -max_len=$$len -print_final_stats=1 \
			$$t.corpus $(FUZZ_BUILD)/seeds 2>$$t.log || { tail -n 60 $$t.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^Done' $$t.log | tr '\n' ' '; echo; \
	done

# The unit tests and the architecture-sensitive CLI tests for arm64 and 32-bit
# x86, built with Debian's cross compilers and run under qemu-user
# (tests/cross-test.sh installs them; KSMBENCH_TESTS= runs every script).
cross-test:
	tests/cross-test.sh aarch64
	tests/cross-test.sh i386

# The scan's rate and peak memory on a generated 2 GiB raw dump (kept in build/).
bench-scan: $(OUT)
	python3 scripts/bench-scan.py ./$(OUT) build/bench-scan.raw

# make install PREFIX=/usr/local DESTDIR=/staging: the binary, the man page
# and the bash completion; make uninstall (same PREFIX, DESTDIR) removes them.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALLED := "$(DESTDIR)$(BINDIR)/ksmbench" "$(DESTDIR)$(MANDIR)/ksmbench.1" "$(DESTDIR)$(COMPLETIONDIR)/ksmbench"

install: $(OUT)
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(COMPLETIONDIR)"
	install -m 755 "$(OUT)" "$(DESTDIR)$(BINDIR)/ksmbench"
	install -m 644 ksmbench.1 "$(DESTDIR)$(MANDIR)/ksmbench.1"
	install -m 644 completion/ksmbench.bash "$(DESTDIR)$(COMPLETIONDIR)/ksmbench"

uninstall:
	rm -f $(INSTALLED)

clean:
	rm -rf build $(OUT)

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(TEST_OBJS:.o=.d)
