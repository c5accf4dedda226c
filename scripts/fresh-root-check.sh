#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The README's first command on a fresh Debian 12 or 13 machine, from
# nothing: a debootstrap root without any of the project's packages, the
# commit cloned into it, the README's prerequisites (make), then `make
# run`, once, to the end of its demo.  The project's own `deps` must
# install everything else (and make the build root of the release's
# default kernel, inside this root), and the host must come out unchanged
# (its packages, /boot and /lib/modules).  KTAP out; the last line is
# "check: N passed, N failed, N skipped"; exit 1 on any failure.
#
# Usage: scripts/fresh-root-check.sh [DIR]   (default: build/fresh-root-SUITE)
# ROOT_SUITE=bookworm (default) or trixie; FRESH_ROOT_KEEP=1 keeps the root
# for inspection or for make package-check; FRESH_ROOT_MAKE_CHECK=1 runs
# the README's second command, make check, there too (about 30 minutes).
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${ROOT_SUITE:-bookworm}
ROOT=$(realpath -m "${1:-$SRC/build/fresh-root-$SUITE}")
FR=$SRC/scripts/fresh-root.sh
# The packages the README asks a new user to have (to clone and to run make).
PREREQUISITES="make"
# What the first command's run may take at most (about 8 min measured
# here, the build root included).
TIMEOUT=2400

. "$SRC/scripts/ktap-lib.sh"

in_root() {
	"$FR" run "$ROOT" "$@"
}

MAKE_CHECK=${FRESH_ROOT_MAKE_CHECK:-0}
echo "KTAP version 1"
echo "1..$((6 + MAKE_CHECK))"
commit=$(git -C "$SRC" rev-parse HEAD)
echo "# fresh $SUITE root $ROOT, commit $commit"
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	echo "# note: uncommitted changes in $SRC are not part of this check"

"$FR" prepare
t_all=$(date +%s)
before=$("$FR" host-state)
"$FR" remove "$ROOT"
start=$(date +%s)
if "$FR" create "$ROOT" "$SUITE"; then
	result ok "root_created_by_debootstrap # $(elapsed $start) s"
else
	result fail "root_created_by_debootstrap"
	echo "check: $passed passed, $((failed + 5)) failed, 0 skipped"
	exit 1
fi

git clone -q "$SRC" "$ROOT/root/cpurng" && git -C "$ROOT/root/cpurng" checkout -q "$commit"
# Nothing the project needs may be there yet: the point is that deps
# installs it.  (Packages of priority required, which every Debian has,
# are allowed.)  The list is the root's release's (deps.sh --list there).
present=$(in_root sh -c "dpkg-query -W -f='\${Package} \${Status} \${Priority}\n' \
	\$(sh /root/cpurng/scripts/deps.sh --list) 2>/dev/null |
	awk '\$4 == \"installed\" && \$5 != \"required\" { print \$1 }'")
if [ -z "$present" ]; then
	result ok "root_has_none_of_the_project_packages"
else
	echo "# already in the root: $present"
	result fail "root_has_none_of_the_project_packages"
fi

start=$(date +%s)
log=$ROOT.make-run.log
if in_root sh -c "export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $PREREQUISITES >/dev/null &&
	cd /root/cpurng && exec timeout $TIMEOUT make run </dev/null" >"$log" 2>&1; then
	rc=0
else
	rc=$?
fi
seconds=$(elapsed $start)
sed 's/^/# /' "$log"
if [ $rc = 0 ]; then
	result ok "make_run_first_invocation # $seconds s"
else
	echo "# make run exited $rc after $seconds s"
	result fail "make_run_first_invocation"
fi
grep -q '^deps: installing:' "$log" && result ok "deps_installed_the_packages" ||
	result fail "deps_installed_the_packages"
grep -q '^demo done' "$log" && grep -q '^make run: demo passed' "$log" &&
	result ok "demo_ran_to_its_end" || result fail "demo_ran_to_its_end"

if [ "$MAKE_CHECK" = 1 ]; then
	start=$(date +%s)
	log=$ROOT.make-check.log
	rc=0
	in_root sh -c "cd /root/cpurng && exec make check </dev/null" >"$log" 2>&1 || rc=$?
	sed 's/^/# /' "$log"
	summary=$(grep '^check: ' "$log" | tail -n 1)
	if [ $rc = 0 ] && [ -n "$summary" ]; then
		result ok "make_check_second_command # $(elapsed $start) s, $summary"
	else
		result fail "make_check_second_command # exit $rc after $(elapsed $start) s, ${summary:-no summary}"
	fi
fi

[ "${FRESH_ROOT_KEEP:-0}" = 1 ] || "$FR" remove "$ROOT"
if [ "$("$FR" host-state)" = "$before" ]; then
	result ok "host_packages_boot_and_modules_unchanged"
else
	result fail "host_packages_boot_and_modules_unchanged"
fi
echo "# fresh-root-check: $(elapsed $t_all) s in all"
echo "check: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
