#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# doc_examples - every C example in README.md and docs/*.md, and every
# program in examples/, still compiles (and the complete programs still
# run), so that none of them rots (issue 14).
#
# The examples are taken from the Markdown itself, not from copies: each
# fenced block whose info string starts with "c" is one.  The words
# after "c" say what it is:
#   (none)         a complete program: compiled, linked against
#                  $B/libkmutex.a (and $B/libkmutex-debug.a, with
#                  -DKMUTEX_DEBUG, when built) and run; it must exit 0.
#   fragment       file-scope code (declarations, functions): compiled
#                  (-c) after the includes of every <linux/*.h> kmutex
#                  has and <errno.h>, <pthread.h>, <stdio.h>, <stdlib.h>.
#   body           statements: the same includes, wrapped in a function.
#   examples/F.c   the block is that file of examples/, character for
#                  character (the file is the source: edit it, then copy
#                  it into the block).
#   quote examples/F.c
#                  the block is a part of that file, word for word; it is
#                  not built on its own (the file is).
# Any other word fails the test, as does a ```c block left open.
# Each is built with $CC -std=gnu11 -Wall -Wextra -Werror, and with
# clang -Wthread-safety (compile only) when clang is installed.  Every
# examples/*.c is built the same way; those no document shows are
# compiled and linked, not run (a demo may run long).
# Run from the source root with CC and B (the build dir) set.
. tests/lib.sh || exit 1
n=0

WARN="-std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude"
DEBUG_LIBS="-pthread -ldl -rdynamic -Wl,--wrap=sigaction -Wl,--wrap=signal -Wl,--wrap=free"
# What the debugging archive needs besides (libdw, when it was built with it).
DEBUG_LIBS="$DEBUG_LIBS $(cat "$B/debug/libs" 2>/dev/null)"
CLANG=
[ -z "${KMUTEX_ARCH:-}" ] && command -v clang > /dev/null && CLANG=clang
[ -n "$CLANG" ] || echo "SKIP: clang -Wthread-safety pass (clang not installed, or cross build)"
[ -f "$B/libkmutex-debug.a" ] ||
	echo "SKIP: the debugging build's pass (no $B/libkmutex-debug.a)"

# cc_log WHAT CMD...: run a compiler command, FAIL with its output.
cc_log() {
	local what=$1
	shift
	if ! "$@" > "$tmp/cc.log" 2>&1; then
		bad "$what does not build: $*"
		sed 's/^/    /' "$tmp/cc.log" | head -n 15
		return 1
	fi
}

# run_it WHAT EXE: run it; it must exit 0.
run_it() {
	local out rc
	out=$(timeout 120 "${RUN[@]}" "$2" 2>&1)
	rc=$?
	[ $rc = 0 ] && return
	bad "$1: exits $rc when run:"
	echo "$out" | head -n 15 | sed 's/^/    /'
}

# build WHAT SRC KIND(program|object) RUN(yes|no)
build() {
	local what=$1 src=$2 kind=$3 run=$4 exe=$tmp/prog
	n=$((n + 1))
	if [ -n "$CLANG" ]; then
		# shellcheck disable=SC2086
		cc_log "$what (clang -Wthread-safety)" $CLANG $WARN \
			-Wthread-safety -fsyntax-only "$src" || return
	fi
	if [ "$kind" = object ]; then
		# shellcheck disable=SC2086
		cc_log "$what" $CC $WARN -c "$src" -o "$tmp/obj.o"
		return
	fi
	# shellcheck disable=SC2086
	cc_log "$what" $CC $WARN "$src" -o "$exe" "$B/libkmutex.a" -pthread ||
		return
	[ "$run" = yes ] && run_it "$what" "$exe"
	[ -f "$B/libkmutex-debug.a" ] || return
	# shellcheck disable=SC2086
	cc_log "$what (debugging build)" $CC $WARN -DKMUTEX_DEBUG "$src" \
		-o "$exe" "$B/libkmutex-debug.a" $DEBUG_LIBS || return
	[ "$run" = yes ] && run_it "$what (debugging build)" "$exe"
}

# The includes a fragment gets: every public header, and the usual.
prelude() {	# DOC LINE: #line maps errors to the document
	local h
	for h in include/linux/*.h; do
		echo "#include <linux/${h##*/}>"
	done
	printf '#include <%s.h>\n' errno pthread stdio stdlib
	echo "#line $2 \"$1\""
}

# extract DOC: write each ```c block of DOC to $tmp/blocks/N.c and a line
# "N LINE INFO..." to $tmp/blocks/list (indented blocks, in a list, lose
# their fence's indentation).
extract() {
	rm -rf "$tmp/blocks"
	mkdir "$tmp/blocks"
	awk -v dir="$tmp/blocks" '
	# A fence opens a block; the same fence alone closes it.
	!inb && match($0, /^ *```+/) {
		info = substr($0, RLENGTH + 1)
		inb = 1; ind = RSTART + RLENGTH - 1
		fence = substr($0, RSTART, RLENGTH); sub(/^ */, "", fence)
		ind = ind - length(fence)	# the fence'"'"'s indentation
		isc = info ~ /^[cC]($|[ \t])/
		if (isc) {
			k++; f = dir "/" k ".c"
			printf "" > f
			print k, NR + 1, info > (dir "/list")
		}
		next
	}
	inb && $0 ~ ("^ *" fence "[ \t]*$") {
		if (isc) close(f)
		inb = 0; next
	}
	inb && isc {
		for (i = 0; i < ind && substr($0, 1, 1) == " "; i++)
			$0 = substr($0, 2)
		print >> f
	}
	END { if (inb && isc) print "unclosed", NR > (dir "/list") }
	' "$1"
}

declare -A shown=()
docs=(README.md docs/*.md)
for doc in "${docs[@]}"; do
	extract "$doc"
	[ -f "$tmp/blocks/list" ] || continue
	while read -r k line lang words; do
		if [ "$k" = unclosed ]; then
			bad "$doc: a \`\`\`c block is not closed"
			continue
		fi
		src=$tmp/blocks/$k.c
		what="$doc:$line"
		kind=program file=
		for w in $words; do
			case $w in
			fragment|body|quote) kind=$w ;;
			examples/*.c) file=$w ;;
			*) bad "$what: unknown word '$w' after \`\`\`$lang"
			   continue 2 ;;
			esac
		done
		if [ "$kind" = quote ]; then
			if [ -z "$file" ]; then
				bad "$what: \`quote' names no examples/F.c"
			elif [[ $(cat "$file") != *"$(cat "$src")"* ]]; then
				bad "$what: the quote is no longer in $file"
			fi
			continue
		fi
		if [ -n "$file" ]; then
			shown[$file]=1
			if ! diff -u "$file" "$src" > "$tmp/diff"; then
				bad "$what differs from $file (the file is the source):"
				sed 's/^/    /' "$tmp/diff" | head -n 20
				continue
			fi
		fi
		case $kind in
		program)
			{ echo "#line $line \"$doc\""; cat "$src"; } > "$tmp/ex.c"
			build "$what" "$tmp/ex.c" program yes ;;
		fragment)
			{ prelude "$doc" "$line"; cat "$src"; } > "$tmp/ex.c"
			build "$what" "$tmp/ex.c" object no ;;
		body)
			{ prelude "$doc" $((line - 2))
			  echo "void doc_example(void);"
			  echo "void doc_example(void) {"; cat "$src"
			  echo "}"; } > "$tmp/ex.c"
			build "$what" "$tmp/ex.c" object no ;;
		esac
	done < "$tmp/blocks/list"
done

for f in examples/*.c; do
	[ -f "$f" ] || continue
	[ -n "${shown[$f]:-}" ] && continue	# built and run above
	build "$f" "$f" program no
done

echo "$n examples built"
exit $fail
