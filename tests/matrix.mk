# SPDX-License-Identifier: MIT
#
# tests/matrix.mk - the CI matrix's passes beside `make test` (issue 6),
# each in its own build directory.  Included by the top-level Makefile,
# whose variables (B, CC, DEBUG_TESTS, ...) it uses.  .ci/run lists the
# passes of the matrix and runs them; `make check-all` is .ci/run
# without its apt-get.
#
# A pass that cannot run for want of a tool prints a SKIP line saying
# which, then "0 passed, 0 failed" as tests/run would, and succeeds.

.PHONY: test-O0 test-musl test-debug test-debug-build check-models \
	test-cov-suite coverage check-all

# Tests that check the sources, not the build (the spin models, the man
# pages, clang's -Wthread-safety on tests/thread_safety/, which names
# its compilers itself): the variant passes leave them to `make test`,
# which saves CI ~10 of its 90 minutes (.ci/run).
SOURCE_TESTS := model_* man_pages thread_safety
NO_SOURCE_TESTS := KMUTEX_SKIP='$(SOURCE_TESTS)' KMUTEX_SKIP_REASON='it checks \
	the sources, not the build: make test checks it'

# skipped WHAT WHY: the lines of a pass that cannot run.
skipped = echo "SKIP: $(1): $(2)"; echo "1 skipped (see SKIP lines above)"; \
	echo "0 passed, 0 failed"

# --- clang ----------------------------------------------------------------
# make test with clang, in build-clang/ (CLANG names it).
CLANG ?= clang
.PHONY: test-clang
test-clang:
	@if ! command -v $(CLANG) > /dev/null; then \
		$(call skipped,test-clang,$(CLANG) not installed); exit 0; fi; \
	$(NO_SOURCE_TESTS) $(MAKE) test CC=$(CLANG) B=build-clang

# --- the production build at -O0 ------------------------------------------
test-O0:
	$(NO_SOURCE_TESTS) $(MAKE) test B=build-O0 CFLAGS="-O0 -g"

# --- musl -----------------------------------------------------------------
# The library, its tests and the install against musl libc.  Not built
# there: the debugging build (glibc's backtrace() and dladdr1()) and the
# benchmark (its peers are glibc and C++ programs).
MUSL_CC ?= musl-gcc
test-musl:
	@if ! command -v $(MUSL_CC) > /dev/null; then \
		$(call skipped,test-musl,$(MUSL_CC) not installed \
			(Debian: musl-tools)); exit 0; fi; \
	echo "SKIP: test-musl: the debugging build (libkmutex-debug," \
	     "tests/debug_*.c): it needs glibc's backtrace() and dladdr1()"; \
	KMUTEX_LIBC=musl $(NO_SOURCE_TESTS) $(MAKE) test B=build-musl \
		CC=$(MUSL_CC) DEBUG_BUILD=no

# --- other CPUs, under qemu-user ------------------------------------------
# make test-aarch64, make test-armhf: the library (static and shared),
# the debugging build, the tests and the install built with Debian's
# cross compiler for that CPU (crossbuild-essential-arm64, -armhf), in
# build-aarch64/, build-armhf/, and the suite run under qemu-user:
# tests/run runs each program through KMUTEX_TEST_WRAPPER, and
# QEMU_LD_PREFIX points qemu at the target's C library.  armhf is the
# 32-bit one: 32-bit long and time_t, and weakly ordered.  What cannot
# run there is skipped, saying why (KMUTEX_ARCH, tests/run's ARCH_SKIP);
# the stress tests run at CROSS_SCALE of their length, as qemu's
# translation makes them several times slower (at 0.25, mutex_wakeups'
# rings were at times too short under qemu-arm for every thread to get
# the lock twice).
CROSS_aarch64 := aarch64-linux-gnu
CROSS_armhf   := arm-linux-gnueabihf
QEMU_aarch64  := qemu-aarch64
QEMU_armhf    := qemu-arm
CROSS_SCALE   ?= 0.5
.PHONY: test-aarch64 test-armhf
test-aarch64 test-armhf: test-%:
	@t=$(CROSS_$*); \
	if ! command -v $$t-gcc > /dev/null; then \
		$(call skipped,test-$*,$$t-gcc not installed \
			(Debian: crossbuild-essential-$(subst aarch64,arm64,$*))); \
		exit 0; fi; \
	if ! command -v $(QEMU_$*) > /dev/null; then \
		$(call skipped,test-$*,$(QEMU_$*) not installed \
			(Debian: qemu-user)); exit 0; fi; \
	KMUTEX_ARCH=$* KMUTEX_TEST_WRAPPER=$(QEMU_$*) \
		QEMU_LD_PREFIX=/usr/$$t KMUTEX_TEST_SCALE=$(CROSS_SCALE) \
		$(NO_SOURCE_TESTS) $(MAKE) test B=build-$* CC=$$t-gcc AR=$$t-ar \
		OBJCOPY=$$t-objcopy NM=$$t-nm READELF=$$t-readelf

# --- the debugging build --------------------------------------------------
# Its tests (tests/debug_*) with each compiler in DEBUG_CCS, each in
# build-debug-CC/.
DEBUG_CCS ?= gcc clang
test-debug:
	@rc=0; for cc in $(DEBUG_CCS); do \
		echo "=== the debugging build with $$cc ==="; \
		if ! command -v $$cc > /dev/null; then \
			$(call skipped,test-debug,$$cc not installed); \
			continue; fi; \
		$(MAKE) --no-print-directory test-debug-build CC=$$cc \
			B=build-debug-$$cc || rc=1; \
	done; exit $$rc

test-debug-build: all $(DEBUG_TESTS) \
		$(patsubst tests/%.sh,$(B)/tests/%,$(wildcard tests/debug_*.sh))
	@CC="$(CC)" B="$(B)" KMUTEX_TESTS='debug_*' tests/run $(B)

# --- the spin models ------------------------------------------------------
check-models: $(B)/tests/model_mutex $(B)/tests/model_rwsem \
		$(B)/tests/model_semaphore $(B)/tests/model_ww \
		$(B)/tests/model_percpu
	@CC="$(CC)" B="$(B)" KMUTEX_TESTS='model_*' tests/run $(B)

# --- coverage -------------------------------------------------------------
# The suite built with gcov (gcc, -O0) in build-cov/, then the share of
# the lines of src/*.c (the production build's objects) and of
# src/debug/*.c (the debugging build's) that ran: tests/gcov/report.
# The test programs write their counts also when they end in abort() or
# _exit(), and forked children keep theirs (tests/gcov/flush.c).  Built
# anew every time: no counts, and no objects, of an earlier run.
COV_B      := build-cov
COV_MIN    ?= 90
COV_CC     ?= gcc
COV_CFLAGS := -O0 -g --coverage -fprofile-update=atomic
COV_FLUSH  := $(COV_B)/gcov/flush.o
test-cov-suite:
	rm -rf $(COV_B)
	mkdir -p $(dir $(COV_FLUSH))
	$(COV_CC) $(KCFLAGS) -O2 -c tests/gcov/flush.c -o $(COV_FLUSH)
	KMUTEX_SANITIZER=coverage $(NO_SOURCE_TESTS) $(MAKE) test B=$(COV_B) \
		CC=$(COV_CC) CFLAGS="$(COV_CFLAGS)" TEST_LDLIBS="$(COV_FLUSH) \
		-Wl,--wrap=abort -Wl,--wrap=_exit -Wl,--wrap=__gcov_fork"

coverage:
	@if ! command -v gcov > /dev/null || ! command -v $(COV_CC) > /dev/null; \
	then $(call skipped,coverage,gcov or $(COV_CC) not installed); \
		exit 0; fi; \
	rc=0; $(MAKE) --no-print-directory test-cov-suite || rc=1; \
	tests/gcov/report $(COV_B) $(COV_MIN) || rc=1; exit $$rc

# --- everything -----------------------------------------------------------
check-all:
	@.ci/run --no-install
