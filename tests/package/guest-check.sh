#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the package check's guest (scripts/package-check.sh).  Debian's
# kernel booted with the initramfs Debian's mkinitramfs made in the fresh
# root, and that root, with cpurng-dkms and cpurng-tools installed, is the
# root file system (9p, read-only).  Checks what the installed packages
# did, in KTAP, then powers the guest off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# First, before this script runs anything that could load a module: what
# the initramfs left loaded.  Nothing else ran between it and this init.
loaded=$(cut -d' ' -f1 /proc/modules)
MODULES="cpurng_jitter cpurng_collector cpurng_drbg"
D=/sys/kernel/cpurng_drbg

n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
	fi
}

# "name driver priority" of every algorithm in /proc/crypto called $1,
# highest priority first.
drivers_of() {
	awk -F': ' -v want="$1" '/^name/ { n = $2 } /^driver/ { d = $2 }
		/^priority/ && n == want { print n, d, $2 }' /proc/crypto |
		sort -k3,3nr
}

echo "KTAP version 1"
echo "1..8"
echo "# kernel $(uname -r); cmdline: $(cat /proc/cmdline)"

rc=0
for m in $MODULES; do
	echo "$loaded" | grep -qx "$m" || { echo "# $m was not loaded by the initramfs"; rc=1; }
done
result $rc modules_loaded_by_the_initramfs

# The loaded modules are the files DKMS installed, found by name through
# modules.dep in updates/dkms, and the only cpurng modules this kernel has
# (so the initramfs can have copied no other).
rc=0
for m in $MODULES; do
	file=$(modinfo -F filename "$m" 2>/dev/null)
	echo "# $m: $file, taint $(cat /sys/module/$m/taint 2>/dev/null)"
	case $file in
	/lib/modules/$(uname -r)/updates/dkms/$m.ko*) ;;
	*) rc=1 ;;
	esac
done
others=$(find /lib/modules/$(uname -r) -name 'cpurng*' ! -path '*/updates/dkms/*')
[ -z "$others" ] || { echo "# other cpurng modules: $others"; rc=1; }
result $rc modules_are_the_dkms_builds

echo "# drbg self-tests: $(cat $D/selftest 2>&1)"
echo "# jitter start-up test: $(cat /sys/kernel/cpurng_jitter/startup 2>&1)"
rc=0
grep -q '^passed' $D/selftest 2>/dev/null || rc=1
grep -q '^failed' /sys/kernel/cpurng_jitter/startup 2>/dev/null && rc=1
[ -e /sys/kernel/cpurng_jitter/startup ] || rc=1
dmesg | grep -E 'cpurng_(jitter|collector|drbg): (registered|self-test)' | sed 's/^/# /'
result $rc selftests_passed_at_load

# The name the stock DRBG asks for is ours, and a request for it would
# load ours too (modprobe.d alias), not the stock module.  Where the stock
# jitter RNG is a module (6.1), even loading it by name must not take the
# name (the GRUB snippet's initcall_blacklist stops its init).
rc=0
if ! grep -q '/jitterentropy_rng\.ko' /lib/modules/$(uname -r)/modules.builtin &&
   modinfo jitterentropy_rng >/dev/null 2>&1; then
	out=$(modprobe jitterentropy_rng 2>&1)
	e=$?
	echo "# modprobe jitterentropy_rng (the stock module, by name): exit $e: $out"
	[ $e != 0 ] || rc=1
fi
drivers_of jitterentropy_rng | sed 's/^/# /'
resolved=$(modprobe -R crypto-jitterentropy_rng 2>&1)
echo "# modprobe -R crypto-jitterentropy_rng: $resolved"
[ "$(drivers_of jitterentropy_rng | cut -d' ' -f2)" = jitterentropy_rng-cpurng ] || rc=1
[ "$resolved" = cpurng_jitter ] || rc=1
result $rc jitterentropy_rng_is_ours

top=$(drivers_of stdrng | head -n 1)
echo "# stdrng: $top (of $(drivers_of stdrng | wc -l) drivers)"
rc=0
case $top in
stdrng\ *-cpurng\ *) ;;
*) rc=1 ;;
esac
[ "$(modprobe -R crypto-stdrng 2>&1)" = cpurng_drbg ] || rc=1
result $rc stdrng_is_ours

# Linux 7.3 and later serve no RNG through AF_ALG until the administrator
# lifts the restriction (crypto.af_alg_restrict, a sysctl of af_alg).
modprobe af_alg
restricted=$(cat /proc/sys/crypto/af_alg_restrict 2>/dev/null)
if [ -n "$restricted" ] && [ "$restricted" != 0 ]; then
	out=$(kcapi-rng -n stdrng -b 16 --hex </dev/null 2>&1) && restricted=ignored
	echo "# af_alg_restrict $restricted; kcapi-rng -n stdrng: $out; lifting it"
	echo 0 > /proc/sys/crypto/af_alg_restrict
fi
seeds=$(cat $D/seeds 2>/dev/null || echo 0)
out=$(kcapi-rng -n stdrng -b 64 --hex </dev/null 2>&1)
echo "# kcapi-rng -n stdrng -b 64: $out"
echo "# last_seed: $(cat $D/last_seed 2>&1)"
rc=0
[ "$restricted" != ignored ] || rc=1
echo "$out" | grep -Eqx '[0-9a-f]{128}' || rc=1
[ "$(cat $D/seeds 2>/dev/null || echo 0)" -gt "$seeds" ] || rc=1
grep -q -- '-cpurng' $D/last_seed 2>/dev/null || rc=1
result $rc kcapi_rng_reads_stdrng_from_ours

status=$(cpurng-status 2>&1)
rc=$?
echo "$status" | head -n 12 | sed 's/^/# /'
result $rc cpurng_status_from_the_tools_package

rc=0
dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace' && rc=1
result $rc no_kernel_warnings

echo "guest-check done"
echo 1 > /proc/sys/kernel/sysrq
echo o > /proc/sysrq-trigger
# Power-off is asynchronous, and the root (9p) goes away under it: wait
# with the shell alone, since PID 1 must not exit.
while :; do :; done
