# SPDX-License-Identifier: GPL-2.0
#
# KTAP results for the host-side check scripts (fresh-root-check.sh,
# package-check.sh), sourced by them.  result ok|fail NAME prints one
# numbered result and counts it in $passed / $failed; elapsed T0 prints
# the seconds since T0.
passed=0
failed=0
n=0

result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		echo "not ok $n $2"
	fi
}

elapsed() {
	echo $(($(date +%s) - $1))
}
