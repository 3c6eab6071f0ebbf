# ksmbench build. `make run` and `make test` install missing Debian packages
# first (scripts/install-deps.sh), then build and run.

CC ?= cc
BUILD ?= build/default
OUT ?= ksmbench
CFLAGS ?= -O2 -g
PKGS := libxxhash zlib libcpuid libcjson libisal
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ISAL_VERSION := $(shell pkg-config --modversion libisal 2>/dev/null)
GIT_REVISION := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lm

# Target flags of the implementations that need them, keyed by source file:
# one translation unit per instruction set, chosen at run time by CPUID.
ifneq ($(filter x86_64% i386% i686%,$(MACHINE)),)
FLAGS_hashes/crc32c_sse42.c := -msse4.2
endif
FLAGS_bench/context.c := -DKB_CFLAGS='"$(CFLAGS)"'
FLAGS_common/versions.c := -DKB_ISAL_VERSION='"$(ISAL_VERSION)"' -DKB_GIT_REVISION='"$(GIT_REVISION)"'

LIB_SRCS := $(wildcard common/*.c hashes/*.c datasets/*.c bench/*.c report/*.c)
CMD_SRCS := $(wildcard cmd/*.c)
TEST_SRCS := $(wildcard tests/unit/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(BUILD)/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)
UNIT := $(BUILD)/unit-tests

.PHONY: all deps run test check san-test clean FORCE

all: $(OUT)

$(OUT): $(LIB_OBJS) $(CMD_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(UNIT): $(LIB_OBJS) $(TEST_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FLAGS_$<) -c -o $@ $<

# The git revision is baked in: rebuild it every time.
$(BUILD)/common/versions.o: FORCE

deps:
	@scripts/install-deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	./$(OUT)

# The whole suite: unit tests, then the CLI tests against the built binary.
check: $(OUT) $(UNIT)
	tests/run.sh $(UNIT) ./$(OUT)

test: deps
	@scripts/install-deps.sh --test
	@$(MAKE) --no-print-directory check

# The suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
san-test:
	@$(MAKE) --no-print-directory BUILD=build/san OUT=build/san/ksmbench CFLAGS="$(SAN_FLAGS)" \
		build/san/ksmbench build/san/unit-tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run.sh build/san/unit-tests build/san/ksmbench

clean:
	rm -rf build $(OUT)

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(TEST_OBJS:.o=.d)
