# SPDX-License-Identifier: MIT
#
# bench/bench.mk - `make bench`: build build/bench/kmutex-bench and run it
# with its default settings (about three minutes); pass options with
# BENCH_ARGS, e.g. `make bench BENCH_ARGS=--quick`.  Beside it, the two
# builds of bench/debug/cost.c (production, debug) whose ratio the
# program reports as the debugging build's cost, and the production one
# again for a run under Helgrind.  Included by the
# top-level Makefile, whose variables (B, CC, KCFLAGS, ...) it uses.
#
# The optional peers (Concurrency Kit's MCS lock, abseil's absl::Mutex)
# are found by bench/configure.sh at build time; absent ones are compiled
# out and the program lists them as skipped.

BENCH_B    := $(B)/bench
BENCH_BIN  := $(BENCH_B)/kmutex-bench
BENCH_ARGS ?=
# The optional peers to look for; `make bench BENCH_PEERS=` looks for none.
BENCH_PEERS ?= ck absl

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_HDRS := $(wildcard bench/*.h)

# Look for the peers only when something of the benchmark is wanted, so
# that `make` and `make test` do not pay for it.
ifneq ($(filter bench $(BENCH_B)/%,$(MAKECMDGOALS)),)
-include $(BENCH_B)/peers.mk
endif

BENCH_DEFS := $(if $(BENCH_HAVE_CK),-DBENCH_HAVE_CK) \
	      $(if $(BENCH_HAVE_ABSL),-DBENCH_HAVE_ABSL)
BENCH_OBJS := $(BENCH_SRCS:bench/%.c=$(BENCH_B)/%.o) \
	      $(if $(BENCH_HAVE_ABSL),$(BENCH_B)/peer_absl.o)
# absl::Mutex brings C++: then the C++ compiler links.
BENCH_LD   := $(if $(BENCH_HAVE_ABSL),$(CXX),$(CC))

.PHONY: bench bench-configure
bench: $(BENCH_BIN)
	$(BENCH_BIN) $(BENCH_ARGS)

# Re-run every time (a peer may have been installed since); the file is
# rewritten, and the objects rebuilt, only when the answer changes.
$(BENCH_B)/peers.mk: bench/configure.sh bench-configure
	@sh bench/configure.sh $@ "$(CC)" "$(CXX)" "$(BENCH_PEERS)"

$(BENCH_B)/%.o: bench/%.c $(BENCH_HDRS) $(LIB_HDRS) $(BENCH_B)/peers.mk
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) $(CFLAGS) $(BENCH_DEFS) -c $< -o $@

$(BENCH_B)/peer_absl.o: bench/peer_absl.cc bench/peer_absl.h \
		$(BENCH_B)/peers.mk
	$(CXX) -std=c++17 $(WARN) $(CFLAGS) -pthread -Ibench -c $< -o $@

# The debugging build's cost: bench/debug/cost.c against each library,
# built with kmutex-bench (order-only) and run by it (debug_cost.c).
BENCH_COST := $(BENCH_B)/cost-production $(BENCH_B)/cost-debug \
	      $(BENCH_B)/cost-helgrind

$(BENCH_B)/cost-production: bench/debug/cost.c $(LIB_HDRS) $(B)/libkmutex.a
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) $(CFLAGS) $< -o $@ $(B)/libkmutex.a

# The production build for Helgrind: without debug sections, which
# Valgrind 3.19 cannot read when clang wrote them.
$(BENCH_B)/cost-helgrind: $(BENCH_B)/cost-production
	objcopy --strip-debug $< $@

$(BENCH_B)/cost-debug: bench/debug/cost.c $(LIB_HDRS) $(DEBUG_HDRS) \
		$(B)/libkmutex-debug.a
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) $(CFLAGS) $(DEBUG_CFLAGS) $< -o $@ \
		$(B)/libkmutex-debug.a $(DEBUG_LDFLAGS)

$(BENCH_BIN): $(BENCH_OBJS) $(B)/libkmutex.a | $(BENCH_COST)
	$(BENCH_LD) $(CFLAGS) -pthread -o $@ $(BENCH_OBJS) $(B)/libkmutex.a \
		$(if $(BENCH_HAVE_ABSL),$(BENCH_ABSL_LIBS)) -lm
