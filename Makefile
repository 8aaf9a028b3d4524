# kmutex - the Linux kernel's sleeping locks for userspace, on futex(2).
# SPDX-License-Identifier: MIT
#
#   make            static and shared library in build/
#   make test       the test suite (tests/run): unit, stress, busted-lock
#                   checks, spin model, install + pkg-config
#   make test-clang the test suite built with clang, in build-clang/
#   make test-asan  the test suite under ASan+UBSan, in build-asan/
#   make test-tsan  the test suite under ThreadSanitizer, in build-tsan/
#   make test-memcheck  the C tests under Valgrind's memcheck
#   make test-O0    the test suite built with -O0, in build-O0/
#   make test-musl  the library and the suite against musl (musl-gcc,
#                   Debian's musl-tools), in build-musl/; the debugging
#                   build and the benchmark are skipped, saying why
#   make test-aarch64, make test-armhf  the suite cross-built for
#                   aarch64 and 32-bit ARM, run under qemu-user, in
#                   build-aarch64/, build-armhf/ (docs/portability.md)
#   make test-debug the debugging build's tests, built with gcc and with
#                   clang (build-debug-gcc/, build-debug-clang/)
#   make check-models  the spin models (model/check, model/check_rwsem,
#                   model/check_semaphore, model/check_percpu)
#   make coverage   the suite built with gcov, in build-cov/; prints the
#                   line coverage of src/*.c and src/debug/*.c and fails
#                   below COV_MIN (90) percent
#   make check-all  the whole CI matrix with a summary table: .ci/run
#                   without its apt-get
#                   Each prints a SKIP line for whatever it cannot run
#                   (a tool not installed).
#   make bench      the benchmark (bench/): kmutex against its peers
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

CC       ?= cc
# The binutils of CC's target (make test-aarch64 sets the cross ones;
# AR is make's own variable, ar by default).
OBJCOPY  ?= objcopy
PREFIX   ?= /usr/local
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include/kmutex
MANDIR   ?= $(PREFIX)/share/man
PCDIR    ?= $(LIBDIR)/pkgconfig
VERSION  := 0.1.0
SOMAJOR  := 0

B        := build
OPT      ?= -O2
WARN     := -Wall -Wextra -Werror
# clang: also its thread-safety analysis of the lock annotations
# (kmutex/capability.h), for C only; gcc does not know the option.
TSA_WARN := $(shell $(CC) -Werror -Wthread-safety -x c -c /dev/null \
		-o /dev/null 2>/dev/null && echo -Wthread-safety)
CFLAGS   ?= $(OPT) -g
KCFLAGS  := -std=gnu11 $(WARN) $(TSA_WARN) -D_GNU_SOURCE -Iinclude -pthread
LIBCFLAGS = $(KCFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden

LIB_SRCS := $(wildcard src/*.c)
LIB_HDRS := $(wildcard src/*.h include/*/*.h)

.PHONY: all test bench install uninstall clean
.SECONDARY:
all: $(B)/libkmutex.a $(B)/libkmutex.so

# --- the library --------------------------------------------------------
$(B)/obj/%.o: src/%.c $(LIB_HDRS) | $(B)/obj
	$(CC) $(LIBCFLAGS) -c $< -o $@

# A static archive would leave the library's internal (hidden) functions
# global, free to clash with a program's own names: link the objects into
# one relocatable object first and make its hidden symbols local, so the
# archive defines only kmutex_ names, as the shared library exports.
define make_archive
	$(CC) -r -nostdlib -o $(@:.a=.o) $(1)
	$(OBJCOPY) --localize-hidden $(@:.a=.o)
	rm -f $@ && $(AR) rcs $@ $(@:.a=.o)
endef

$(B)/libkmutex.a: $(LIB_SRCS:src/%.c=$(B)/obj/%.o)
	$(call make_archive,$^)

$(B)/libkmutex.so.$(SOMAJOR): $(LIB_SRCS:src/%.c=$(B)/obj/%.o) src/libkmutex.map
	$(CC) $(CFLAGS) -shared -pthread -Wl,-soname,libkmutex.so.$(SOMAJOR) \
		-Wl,--version-script=src/libkmutex.map -o $@ \
		$(LIB_SRCS:src/%.c=$(B)/obj/%.o)

$(B)/libkmutex.so: $(B)/libkmutex.so.$(SOMAJOR)
	ln -sf libkmutex.so.$(SOMAJOR) $@

# Deliberately broken variants, which the stress tests must catch
# (as locktorture's busted lock): 1 lets two owners in now and then,
# 2 drops a wake-up now and then (see KMUTEX_BUSTED in src/mutex.c);
# 3 lets a woken reader in beside a writer now and then, 4 leaves all
# but one of a batch of woken readers asleep (src/rwsem.c); 5 lets a
# second ww_mutex owner in now and then, 6 never backs a ww context off
# (src/ww_mutex.c).
$(B)/busted%/libkmutex.a: $(LIB_SRCS) $(LIB_HDRS)
	mkdir -p $(@D)/obj
	for s in $(LIB_SRCS); do \
		$(CC) $(LIBCFLAGS) -DKMUTEX_BUSTED=$* -c $$s \
			-o $(@D)/obj/$$(basename $$s .c).o || exit 1; done
	$(call make_archive,$(@D)/obj/*.o)

# Variants for tests named after them: race points (src/race.h) for the
# tests race_*.c; the mutex policy fixed to "keep" (src/mutex.c,
# MUTEX_FORCE_KEEP), so that the stress tests keep_*.c run the timed
# first waiter, which the adaptive policy may never choose in a test;
# the policy fixed to "move" and counting what it timed
# (src/policy_count.h) for the tests count_*.c.
VARIANT_FLAGS_race := -DKMUTEX_RACE_POINTS
VARIANT_FLAGS_keep := -DMUTEX_FORCE_KEEP=1
VARIANT_FLAGS_count := -DMUTEX_POLICY_COUNT=1
VARIANTS := race keep count
$(VARIANTS:%=$(B)/%/libkmutex.a): $(B)/%/libkmutex.a: $(LIB_SRCS) $(LIB_HDRS)
	mkdir -p $(@D)/obj
	for s in $(LIB_SRCS); do \
		$(CC) $(LIBCFLAGS) $(VARIANT_FLAGS_$*) -c $$s \
			-o $(@D)/obj/$$(basename $$s .c).o || exit 1; done
	$(call make_archive,$(@D)/obj/*.o)

$(B)/obj $(B)/tests:
	mkdir -p $@

# --- tests ----------------------------------------------------------------
TEST_SRCS := $(filter-out tests/debug_%.c,$(wildcard tests/*.c))
TEST_SH   := $(filter-out tests/lib.sh,$(wildcard tests/*.sh))
TESTS     := $(TEST_SRCS:tests/%.c=$(B)/tests/%) $(TEST_SH:tests/%.sh=$(B)/tests/%)
BUSTED    := 1 2 3 4 5 6
# The tests that tests/run's BUSTED_CATCHERS runs against them.
BUSTED_TESTS := mutex_exclusion mutex_wakeups mutex_interruptible rwsem \
		stress_mutex_signals ww_mutex_stress
TEST_LIBS := $(B)/libkmutex.a $(BUSTED:%=$(B)/busted%/libkmutex.a) \
	     $(VARIANTS:%=$(B)/%/libkmutex.a)
# The library a test links: a variant's for tests named VARIANT_*.
test_lib = $(B)/$(firstword $(foreach v,$(VARIANTS),$(if $(filter $(v)_%,$(1)),$(v)/)))libkmutex.a

# TEST_LDLIBS: more for the link of the test programs (make coverage).
TEST_LDLIBS ?=
$(B)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB_HDRS) $(TEST_LIBS) | $(B)/tests
	$(CC) $(KCFLAGS) $(CFLAGS) $< -o $@ \
		$(call test_lib,$*) $(TEST_LDLIBS)
	case " $(BUSTED_TESTS) " in *" $* "*) \
		for n in $(BUSTED); do \
			$(CC) $(KCFLAGS) $(CFLAGS) $< -o $@.busted$$n \
				$(B)/busted$$n/libkmutex.a $(TEST_LDLIBS) || exit 1; \
		done ;; esac

# Shell tests run from the source root with CC, B (build dir) in the env.
$(B)/tests/%: tests/%.sh | $(B)/tests
	install -m 755 $< $@

test: all $(TESTS)
	@CC="$(CC)" B="$(B)" tests/run $(B)

# The whole suite again under a sanitizer, each in its own build
# directory (instrumented objects must not mix with plain ones).
# KMUTEX_SANITIZER tells tests/run which tests cannot work there (it
# skips them, saying why); KMUTEX_TEST_SCALE shortens the stress tests,
# which run several times slower instrumented.
.PHONY: test-asan test-tsan
SAN_SCALE ?= 0.25
test-asan:
	KMUTEX_SANITIZER=asan KMUTEX_TEST_SCALE=$(SAN_SCALE) $(NO_SOURCE_TESTS) \
		$(MAKE) test B=build-asan CFLAGS="-O1 -g -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all"
test-tsan:
	KMUTEX_SANITIZER=tsan KMUTEX_TEST_SCALE=$(SAN_SCALE) $(NO_SOURCE_TESTS) \
		$(MAKE) test B=build-tsan CFLAGS="-O1 -g -fsanitize=thread"

# The C tests under Valgrind's memcheck, in build-memcheck/ (DWARF 4:
# Valgrind 3.19 cannot read the DWARF 5 clang writes).  Scripts, and the
# busted-lock and one-CPU reruns, are left to make test.  The stress
# tests keep their length: Valgrind runs one thread at a time, and in
# a shortened run some threads never get a turn.  --fair-sched=yes:
# Valgrind's default hands its big lock unfairly, which starved a
# waiting writer in tests/rwsem for seconds (a test bound, not a bug).
.PHONY: test-memcheck
MEMCHECK ?= valgrind -q --tool=memcheck --fair-sched=yes --error-exitcode=99 \
	    --trace-children=yes \
	    --leak-check=full --show-leak-kinds=definite \
	    --errors-for-leak-kinds=definite
MEMCHECK_SCALE ?= 1
test-memcheck:
	KMUTEX_SANITIZER=memcheck KMUTEX_TEST_SCALE=$(MEMCHECK_SCALE) \
		KMUTEX_TEST_WRAPPER="$(MEMCHECK)" $(MAKE) test \
		B=build-memcheck CFLAGS="-O1 -g -gdwarf-4"

# --- the debugging build (issue 4) -------------------------------------------
# build/libkmutex-debug.{a,so}: src/*.c compiled with -DKMUTEX_DEBUG (the
# same slow paths against the debug fields of include/linux/*.h)
# plus the checker in src/debug/.  Programs link with DEBUG_LDFLAGS, as
# kmutex-debug.pc's Libs: see kmutex-debug(3).
# tests/debug_*.c are built against this library, not the production one.
DB          := $(B)/debug
DEBUG_SRCS  := $(LIB_SRCS)
DEBUG_CSRCS := $(wildcard src/debug/*.c)
DEBUG_HDRS  := $(wildcard src/debug/*.h)
DEBUG_OBJS  := $(DEBUG_SRCS:src/%.c=$(DB)/obj/%.o) \
	       $(DEBUG_CSRCS:src/debug/%.c=$(DB)/obj/debug/%.o)
# -funwind-tables: glibc's backtrace() walks the unwind tables, which
# gcc emits for C by default on x86-64 and aarch64 but not on 32-bit ARM
# (there the reports' backtraces came out empty: make test-armhf).
DEBUG_CFLAGS  := -DKMUTEX_DEBUG -fno-optimize-sibling-calls -funwind-tables
DEBUG_LDFLAGS := -pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal \
		 -Wl,--wrap=free
DEBUG_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/debug_*.c))

# elfutils' libdw (Debian libdw-dev), if CC can link with it: report
# backtraces then give file:line (src/debug/symbolize.c); without it
# static functions are named from the ELF .symtab.  The library then
# needs -ldw: kmutex-debug.pc's Libs.private, and $(DB)/libs for the
# in-tree static links of tests/debug_link.sh.
LIBDW_TEST := printf '\043include <elfutils/libdwfl.h>\nint main(void) { return !dwfl_begin; }\n'
HAVE_LIBDW := $(shell $(LIBDW_TEST) | $(CC) -x c - -o /dev/null -ldw \
		2>/dev/null && echo yes)
ifeq ($(HAVE_LIBDW),yes)
DEBUG_LIBCFLAGS := -DKMUTEX_HAVE_LIBDW
DEBUG_LIBS      := -ldw
DEBUG_LDFLAGS   += -ldw
endif

# DEBUG_BUILD=no leaves it out (make test-musl: musl has no backtrace()).
DEBUG_BUILD ?= yes
ifneq ($(DEBUG_BUILD),no)
all: $(B)/libkmutex-debug.a $(B)/libkmutex-debug.so
test: $(DEBUG_TESTS)
install: install-debug
uninstall: uninstall-debug
endif

$(DB)/obj/%.o: src/%.c $(LIB_HDRS) $(DEBUG_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LIBCFLAGS) -DKMUTEX_DEBUG -funwind-tables $(DEBUG_LIBCFLAGS) \
		-c $< -o $@

$(B)/libkmutex-debug.a: $(DEBUG_OBJS)
	$(call make_archive,$^)
	echo "$(DEBUG_LIBS)" > $(DB)/libs

$(B)/libkmutex-debug.so.$(SOMAJOR): $(DEBUG_OBJS) src/libkmutex.map
	$(CC) $(CFLAGS) -shared -pthread \
		-Wl,-soname,libkmutex-debug.so.$(SOMAJOR) \
		-Wl,--version-script=src/libkmutex.map -o $@ $(DEBUG_OBJS) -ldl \
		$(DEBUG_LIBS)

$(B)/libkmutex-debug.so: $(B)/libkmutex-debug.so.$(SOMAJOR)
	ln -sf libkmutex-debug.so.$(SOMAJOR) $@

$(DEBUG_TESTS): $(B)/tests/%: tests/%.c $(wildcard tests/*.h) \
		tests/valgrind_annotations.c \
		$(LIB_HDRS) $(B)/libkmutex-debug.a | $(B)/tests
	$(CC) $(KCFLAGS) $(CFLAGS) $(DEBUG_CFLAGS) $(DEBUG_LIBCFLAGS) $< -o $@ \
		$(B)/libkmutex-debug.a $(DEBUG_LDFLAGS) $(TEST_LDLIBS)

# The cost of the checks: uncontended lock+unlock (mutex, rwsem read and
# write), production vs debug, and the production build under Helgrind (a
# copy without debug sections, which Valgrind 3.19 cannot read from
# clang; some thousand times slower, so fewer loops).
.PHONY: bench-debug install-debug uninstall-debug
HELGRIND_LOOPS ?= 20000
bench-debug: bench/debug/cost.c all
	@mkdir -p $(DB)
	$(CC) $(KCFLAGS) $(CFLAGS) $< -o $(DB)/cost-production $(B)/libkmutex.a
	$(CC) $(KCFLAGS) $(CFLAGS) $(DEBUG_CFLAGS) $< -o $(DB)/cost-debug \
		$(B)/libkmutex-debug.a $(DEBUG_LDFLAGS)
	objcopy --strip-debug $(DB)/cost-production $(DB)/cost-helgrind
	@{ $(DB)/cost-production; $(DB)/cost-debug; \
	   if command -v valgrind > /dev/null; then \
		valgrind -q --tool=helgrind $(DB)/cost-helgrind \
		$(HELGRIND_LOOPS) | sed 's/^production/helgrind/'; \
	   else echo "helgrind skipped: valgrind not installed"; fi; } | awk \
		'{ print; ns[$$1 " " $$2] = $$3 } END { \
		  n = split("single nested deep rwsem_read rwsem_write", c, " "); \
		  for (i = 1; i <= n; i++) printf "debug/production %s: %.1fx\n", \
		    c[i], ns["debug " c[i]] / ns["production " c[i]]; \
		  for (i = 1; i <= n; i++) if (("helgrind " c[i]) in ns) \
		    printf "helgrind/production %s: %.0fx\n", \
		    c[i], ns["helgrind " c[i]] / ns["production " c[i]] }'

install-debug: all $(B)/kmutex-debug.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR)
	install -m 644 $(B)/libkmutex-debug.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/libkmutex-debug.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/
	ln -sf libkmutex-debug.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libkmutex-debug.so
	install -m 644 $(B)/kmutex-debug.pc $(DESTDIR)$(PCDIR)/

uninstall-debug:
	rm -f $(DESTDIR)$(LIBDIR)/libkmutex-debug.* $(DESTDIR)$(PCDIR)/kmutex-debug.pc

# --- benchmark ------------------------------------------------------------
-include bench/bench.mk

# --- install ----------------------------------------------------------------
# The man pages, aliases included: an alias is a one-line ".so man3/PAGE.3",
# which man(1) resolves against the man tree it searched, so `man guard`
# works once installed and `man -M man guard` in the source tree (not
# `man -l FILE`, which resolves it against the current directory).
MAN_PAGES := $(wildcard man/man3/*.3)

# Made anew on every install: PREFIX may differ from the last one.
.PHONY: FORCE
$(B)/%.pc: %.pc.in FORCE
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@DEBUG_LIBS@|$(DEBUG_LIBS)|' $< > $@

install: all $(B)/kmutex.pc
	install -d $(DESTDIR)$(INCDIR)/linux $(DESTDIR)$(INCDIR)/kmutex \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(MANDIR)/man3
	install -m 644 include/linux/*.h $(DESTDIR)$(INCDIR)/linux/
	install -m 644 include/kmutex/*.h $(DESTDIR)$(INCDIR)/kmutex/
	install -m 644 $(B)/libkmutex.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/libkmutex.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/
	ln -sf libkmutex.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libkmutex.so
	install -m 644 $(B)/kmutex.pc $(DESTDIR)$(PCDIR)/
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man3/

uninstall:
	rm -rf $(DESTDIR)$(INCDIR)
	rm -f $(DESTDIR)$(LIBDIR)/libkmutex.* $(DESTDIR)$(PCDIR)/kmutex.pc
	rm -f $(MAN_PAGES:man/man3/%=$(DESTDIR)$(MANDIR)/man3/%)

# $(B), and the build directories of the matrix (make test-asan, ...,
# check-all) and of .ci/run's passes.
clean:
	rm -rf $(B) build-clang build-gcc build-O0 build-asan build-tsan \
		build-musl build-debug-gcc build-debug-clang build-cov \
		build-memcheck build-aarch64 build-armhf

# --- the rest of the CI matrix -------------------------------------------------
# make test-O0, test-musl, test-debug, check-models, coverage, check-all;
# last, as it uses the variables above (DEBUG_TESTS, ...).
include tests/matrix.mk
