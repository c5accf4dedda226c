#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the cpurng test VM.  The kernel passes cpurng_group=<name> (an
# unknown parameter, so it arrives in our environment).  Results go to the
# second serial port as KTAP, never to the console: the host reads them from
# a file of their own, so console noise cannot fake a verdict.
#
#   cpurng_group=<group>  run the cases listed in /tests/groups/<group>.group
#   cpurng_group=demo     run /tests/cases/demo on the console (make run)
#   cpurng_group=shell    interactive shell on the console (make shell)
#   cpurng_group=busy     keep every vCPU busy until killed (a neighbour
#                         VM for the evidence's load conditions)

/bin/busybox --install -s
export PATH=/tests/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# What udev would add: kselftest's runner writes to /dev/stdout.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
chmod 1777 /tmp
# The kernel's request_module() runs /sbin/modprobe (busybox's).
echo /sbin/modprobe > /proc/sys/kernel/modprobe
# Linux 7.3 restricts AF_ALG by default (crypto.af_alg_restrict = 1, a
# sysctl of the af_alg module): no RNG is on its allowlist, so every AF_ALG
# bind of one fails with ENOENT.  The test groups and the shell read our
# drivers through AF_ALG too, so they lift the restriction, as an
# administrator who wants AF_ALG must; the boot's default is kept in
# /tmp/af_alg_restrict.default for the cases that test it.  The demo
# shows the default and lifts it itself.
afalg_unrestrict() {
	modprobe af_alg 2>/dev/null
	[ -w /proc/sys/crypto/af_alg_restrict ] || return 0
	cat /proc/sys/crypto/af_alg_restrict > /tmp/af_alg_restrict.default
	echo 0 > /proc/sys/crypto/af_alg_restrict
}

out=/dev/ttyS1
stty -F $out raw -echo 2>/dev/null
group=${cpurng_group:-}

case "$group" in
shell)
	afalg_unrestrict
	modprobe -a af_alg algif_rng crypto_user cpurng_jitter cpurng_collector
	echo "cpurng VM shell: our modules are loaded (lsmod); try kcapi-rng -n jitterentropy_rng -b 32 --hex"
	echo "status in /sys/kernel/cpurng_jitter, tests in /tests; 'poweroff -f' to leave"
	setsid cttyhack sh
	poweroff -f
	;;
busy)
	# A busy neighbour: a CPU loop and a pipe ping-pong (context switches
	# and kernel entries) per vCPU, until the host stops the VM.
	for i in $(seq $(nproc)); do
		workload pingpong 2000000000 >/dev/null &
		sh -c 'while :; do :; done' &
	done
	echo "cpurng VM busy: $(nproc) vCPUs"
	wait
	poweroff -f
	;;
demo)
	# The demo talks to the console; its verdict goes to the results
	# port, so make run fails when the demo does.
	/tests/cases/demo
	echo "# cpurng-demo exit=$?" > $out
	poweroff -f
	;;
esac

afalg_unrestrict
conf=/tests/groups/$group.group
setting() {
	sed -n "s/^$1[[:space:]]*=[[:space:]]*//p" "$conf" | tail -n 1
}
cases=$(setting cases)
case_timeout=$(setting case_timeout)
expect_panic=$(setting expect_panic)
n=$(echo $cases | wc -w)

{
	echo "KTAP version 1"
	echo "# cpurng-vm group=$group kernel=$(uname -r) cpus=$(nproc) uptime=$(cut -d" " -f1 /proc/uptime)s"
	echo "1..$n"
} > $out
[ -f "$conf" ] || { echo "# no such group: $group" > $out; poweroff -f; }

# Our debug kernels are slow (KASAN, lockdep): the host scales timeouts.
case_timeout=$(( ${case_timeout:-120} * ${cpurng_timeout_scale:-1} ))

i=0
for c in $cases; do
	i=$((i + 1))
	if [ -n "$expect_panic" ] && [ $i -eq $n ]; then
		echo "# expect-panic $i $c" > $out
	fi
	# Stream the case's output as it comes, so a panic keeps what it said.
	{
		timeout $case_timeout /tests/cases/$c 2>&1
		echo $? > /tmp/rc
	} | awk '{ print "    " $0; fflush() }' > $out
	rc=$(cat /tmp/rc)
	case $rc in
	0)
		echo "ok $i $c" ;;
	4)
		reason=$(cat /tmp/skip-reason 2>/dev/null)
		echo "ok $i $c # SKIP ${reason:-no reason given}" ;;
	124|137|143)
		echo "not ok $i $c # TIMEOUT after ${case_timeout}s" ;;
	*)
		echo "not ok $i $c # exit status $rc" ;;
	esac > $out
	rm -f /tmp/skip-reason
done
# On a kernel with kmemleak, a leak is only found by a scan after the
# tests (kmemleak_scan in lib.sh).  The report goes to the console, where
# the harness fails the run on it.
if [ -w /sys/kernel/debug/kmemleak ]; then
	. /tests/lib.sh
	kmemleak_scan
	cat /sys/kernel/debug/kmemleak > /dev/console
	echo "# kmemleak scan done" > $out
fi
echo "# cpurng-vm-done" > $out
poweroff -f
