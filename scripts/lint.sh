#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make lint: checkpatch, sparse and kernel-doc over cpurng's code.
#
# checkpatch.pl and kernel-doc come from Debian's linux-source-6.1 package
# (the tarball under /usr/src; on Debian 13, which has no 6.1,
# linux-source-6.12), unpacked once into a cache outside the checkout.
# Environment: KDIR (kernel headers), BUILD (build directory).
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
TARBALL=$(ls /usr/src/linux-source-6.1.tar.* /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
TOP=$(basename "${TARBALL:-none}" | sed 's/\.tar\..*//')
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/cpurng/lint-scripts/$TOP

fetch_scripts() {
	[ -x "$CACHE/scripts/checkpatch.pl" ] && return 0
	[ -n "$TARBALL" ] || {
		echo "lint: linux-source-6.1 (or -6.12) is not installed (make deps)" >&2
		exit 1
	}
	echo "lint: unpacking checkpatch and kernel-doc from $TARBALL" >&2
	mkdir -p "$CACHE"
	tar -xf "$TARBALL" -C "$CACHE" --strip-components=1 \
		$TOP/scripts/checkpatch.pl \
		$TOP/scripts/spelling.txt \
		$TOP/scripts/const_structs.checkpatch \
		$TOP/scripts/kernel-doc
}

fetch_scripts
cd "$SRC"
status=0

# Kernel code, and the headers the host tests share with it.
KERNEL_C=$(ls crypto/*.c include/cpurng/*.h tests/modules/*.[ch] tests/kunit/*.c)
# Userspace C follows kernel style too (tools, tests).
USER_C=$(ls tests/lib/*.h tests/host/*.[ch] tests/vm/progs/*.c tests/selftests/*/*.c \
	 tools/*.c tools/*/*.[ch] 2>/dev/null || true)

echo "== checkpatch"
# Userspace code has the C library's types and no kernel macros (BIT,
# noinline, READ_ONCE, ARRAY_SIZE) or CONFIG_X86, so those preferences do
# not apply; the capture tool needs rdtsc and cpuid on x86; OpenSSL's names
# (SHA256_Init, in tools/native) are not ours to choose.
if ! "$CACHE/scripts/checkpatch.pl" --no-tree --quiet --strict \
	--show-types -f $KERNEL_C; then
	status=1
fi
if ! "$CACHE/scripts/checkpatch.pl" --no-tree --quiet --strict \
	--show-types --ignore PREFER_KERNEL_TYPES,SPLIT_STRING,NEW_TYPEDEFS,BIT_MACRO,VOLATILE,PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,ARCH_DEFINES,CAMELCASE \
	-f $USER_C; then
	status=1
fi

echo "== sparse"
log=$(mktemp)
make -s -C "$SRC" BUILD="$BUILD" lint-sparse-build >"$log" 2>&1 || {
	cat "$log"
	status=1
}
if grep -E '(warning|error):' "$log"; then
	status=1
fi
rm -f "$log"

echo "== kernel-doc"
out=$("$CACHE/scripts/kernel-doc" -none $KERNEL_C 2>&1 || true)
if [ -n "$out" ]; then
	echo "$out"
	status=1
fi

echo "== test rules"
# Documentation/testing.rst, "Rules for checks": what a script can see.
if ! python3 "$SRC/scripts/check-test-rules.py"; then
	status=1
fi

echo "== rst"
if ! python3 "$SRC/scripts/check-rst.py"; then
	status=1
fi

[ $status -eq 0 ] && echo "lint: clean"
exit $status
