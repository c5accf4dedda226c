#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's kselftest framework (lib.mk, kselftest_harness.h,
# kselftest.h, run_kselftest.sh and kselftest/runner.sh) from Debian's
# linux-source-6.12, unpacked once into the cache; prints the directory
# that stands for tools/testing/selftests.  6.12's harness, not 6.1's,
# because it can select tests (-f/-v/-t), which the VM cases use; the
# programs it builds run on either kernel.
set -eu

SERIES=6.12
CACHE=${CPURNG_KERNEL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/cpurng/kernels}
TARBALL=$(ls /usr/src/linux-source-$SERIES.tar.* 2>/dev/null | head -n 1)
if [ -z "$TARBALL" ]; then
	echo "kselftest-src.sh: linux-source-$SERIES is not installed (make deps)" >&2
	exit 1
fi
VERSION=$(dpkg-query -W -f='${Version}' linux-source-$SERIES)
DIR="$CACHE/kselftest-$VERSION"
SELFTESTS="$DIR/tools/testing/selftests"

mkdir -p "$CACHE"
exec 9>"$CACHE/.kselftest.lock"
flock 9
if [ ! -f "$DIR/done" ]; then
	rm -rf "$DIR" "$CACHE"/kselftest-*
	mkdir -p "$DIR"
	top=$(basename "$TARBALL" | sed 's/\.tar\..*//')
	tar -xf "$TARBALL" -C "$DIR" --strip-components=1 --wildcards \
		"$top/tools/testing/selftests/kselftest*" \
		"$top/tools/testing/selftests/lib.mk" \
		"$top/tools/testing/selftests/run_kselftest.sh"
	touch "$DIR/done"
fi
echo "$SELFTESTS"
