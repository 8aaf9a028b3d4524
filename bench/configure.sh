#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench/configure.sh OUT CC CXX [PEERS] - find which optional peers (of
# PEERS, default "ck absl") this machine can build (header present, and a
# program using it links and runs), and write the answer as make variables to OUT, rewriting OUT only when the
# answer changed so that nothing is rebuilt for nothing.
#
#   Concurrency Kit's MCS lock   Debian libck-dev     BENCH_HAVE_CK
#   abseil's absl::Mutex         Debian libabsl-dev   BENCH_HAVE_ABSL,
#                                and a C++ compiler   BENCH_ABSL_LIBS
set -u
out=$1 cc=$2 cxx=$3 peers=${4-ck absl}
want() { case " $peers " in *" $1 "*) return 0 ;; esac; return 1; }
src=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/kmutex-bench-conf.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

have_ck=
cat > "$dir/ck.c" <<'EOC'
#include <ck_spinlock.h>

int main(void)
{
	ck_spinlock_mcs_t q;
	struct ck_spinlock_mcs node;

	ck_spinlock_mcs_init(&q);
	ck_spinlock_mcs_lock(&q, &node);
	ck_spinlock_mcs_unlock(&q, &node);
	return 0;
}
EOC
# shellcheck disable=SC2086 # CC may carry flags
if want ck && $cc -o "$dir/ck" "$dir/ck.c" >/dev/null 2>&1 && "$dir/ck"; then
	have_ck=1
fi

# abseil: the real shim, linked with what pkg-config says or, without
# pkg-config, with the libraries Debian 12's absl_synchronization needs.
have_absl= absl_libs=
cat > "$dir/absl.c" <<'EOC'
#include "peer_absl.h"

int main(void)
{
	static char m[PEER_ABSL_MUTEX_SIZE] __attribute__((aligned(8)));

	peer_absl_setup();
	peer_absl_init(m);
	peer_absl_loop(m, 10);
	peer_absl_destroy(m);
	return 0;
}
EOC
if want absl && command -v "${cxx%% *}" >/dev/null 2>&1; then
	for libs in "$(pkg-config --libs absl_synchronization 2>/dev/null)" \
		"-labsl_synchronization -labsl_graphcycles_internal -labsl_stacktrace -labsl_symbolize -labsl_debugging_internal -labsl_demangle_internal -labsl_malloc_internal -labsl_time -labsl_civil_time -labsl_strings -labsl_strings_internal -labsl_base -labsl_spinlock_wait -labsl_int128 -labsl_throw_delegate -labsl_raw_logging_internal -labsl_log_severity -labsl_time_zone -lrt"; do
		[ -n "$libs" ] || continue
		# shellcheck disable=SC2086
		if $cc -I"$src" -c -o "$dir/absl_main.o" "$dir/absl.c" \
			>/dev/null 2>&1 &&
		   $cxx -std=c++17 -pthread -I"$src" -o "$dir/absl" \
			"$dir/absl_main.o" "$src/peer_absl.cc" $libs \
			>/dev/null 2>&1 && "$dir/absl"; then
			have_absl=1 absl_libs=$libs
			break
		fi
	done
fi

{
	echo "# written by bench/configure.sh: the optional peers found"
	echo "BENCH_HAVE_CK := $have_ck"
	echo "BENCH_HAVE_ABSL := $have_absl"
	echo "BENCH_ABSL_LIBS := $absl_libs"
} > "$dir/peers.mk"
mkdir -p "$(dirname "$out")"
cmp -s "$dir/peers.mk" "$out" || cp "$dir/peers.mk" "$out"
