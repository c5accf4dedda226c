#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make mutation-check [MUTATIONS="name ..."]: show that checks can fail.
#
# Each tests/mutations/NAME.mutation breaks one thing: the feature a check
# guards, or the condition the check exists to see (a reader that holds no
# socket, a capture with too few samples).  Its header names the group to
# run, the kernel label (default 6.1) and the checks that must then report
# "not ok"; a diff follows.  In one throw-away worktree of HEAD (commit
# first: uncommitted changes are not taken) each diff in turn is applied,
# the group is run, and the tree is restored before the next (so only what
# a mutation touched is rebuilt).  A mutation is caught when every named
# check failed.  KTAP: one result per mutation, "ok" when caught.  Each
# run's output stays in build/mutations/NAME.log.
#
#   # what: the reader of each module holds no socket
#   # group: userspace
#   # kernel: 6.1
#   # catches: cpurng_jitter_refused_while_reader_open
#   --- a/tests/vm/cases/userspace_privileges
#   +++ b/tests/vm/cases/userspace_privileges
#   ...
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
LOGS=$BUILD/mutations
mkdir -p "$LOGS"

if [ $# -gt 0 ]; then
	files=
	for m in "$@"; do
		f=$SRC/tests/mutations/$m.mutation
		[ -f "$f" ] || { echo "mutation-check: no $f" >&2; exit 2; }
		files="$files $f"
	done
else
	files=$(ls "$SRC"/tests/mutations/*.mutation)
fi

header() {
	sed -n "s/^# $1: //p" "$2" | head -n 1
}

wt=$(mktemp -d /tmp/cpurng-mutation.XXXXXX)
git -C "$SRC" worktree add -q --detach "$wt" HEAD || exit 2
trap 'git -C "$SRC" worktree remove --force "$wt"' EXIT

echo "KTAP version 1"
echo "1..$(echo $files | wc -w)"
i=0
failed=0
for f in $files; do
	i=$((i + 1))
	name=$(basename "$f" .mutation)
	group=$(header group "$f")
	kernel=$(header kernel "$f")
	kernel=${kernel:-6.1}
	catches=$(header catches "$f")
	log=$LOGS/$name.log
	echo "# $name: $(header what "$f")"
	if [ -z "$group" ] || [ -z "$catches" ]; then
		echo "not ok $i $name # no group or no catches in its header"
		failed=$((failed + 1))
		continue
	fi
	if ! git -C "$wt" apply "$f" >"$log" 2>&1; then
		echo "not ok $i $name # the diff does not apply to HEAD"
		failed=$((failed + 1))
		continue
	fi
	t0=$(date +%s)
	# The worktree's own build directory, not the caller's (make exports
	# BUILD).  The harness prints every group's KTAP, snapshot clones'
	# included: the log is what is judged.
	env -u BUILD make -C "$wt" check-group GROUP="$group" KERNEL="$kernel" >>"$log" 2>&1
	missed=
	for c in $catches; do
		grep -Eq "^ *not ok [0-9]+ $c( |\$)" "$log" ||
			missed="$missed $c"
	done
	if [ -z "$missed" ]; then
		echo "ok $i $name # caught by $catches in $(($(date +%s) - t0)) s"
	else
		echo "not ok $i $name # survived: these checks did not fail:$missed"
		failed=$((failed + 1))
	fi
	git -C "$wt" checkout -q -- .
done
echo "# mutation-check: $((i - failed)) of $i caught"
[ $failed -eq 0 ]
