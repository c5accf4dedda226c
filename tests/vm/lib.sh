# SPDX-License-Identifier: GPL-2.0
#
# Helpers for shell test cases in the cpurng VM.  A case sources this file,
# calls plan N, reports each check, and ends with "finish".  Exit codes
# follow kselftest: 0 pass, 1 fail, 4 skip.

_n=0
_planned=
_failed=0
_skipped=0

plan() {
	_planned=$1
	echo "KTAP version 1"
	echo "1..$1"
}

diag() {
	echo "# $*"
}

ok() {
	_n=$((_n + 1))
	echo "ok $_n $1"
}

not_ok() {
	_n=$((_n + 1))
	_failed=$((_failed + 1))
	echo "not ok $_n $1"
	shift
	[ $# -gt 0 ] && diag "$*"
	return 0
}

# check <name> <command...>: ok if the command succeeds.
check() {
	local _name=$1
	shift
	if "$@"; then ok "$_name"; else not_ok "$_name" "failed: $*"; fi
}

# refused <error text> <command...>: the command fails and its error
# output names the expected reason (the strerror text of the errno), so a
# refusal for another reason (a module not loaded, a missing file) does not
# pass as the one the check is about.
refused() {
	local _want=$1 _said
	shift
	if _said=$("$@" 2>&1 >/dev/null); then
		diag "not refused: $*"
		return 1
	fi
	case $_said in
	*"$_want"*)
		return 0 ;;
	esac
	diag "refused for another reason: ${_said:-no message}"
	return 1
}

skip() {
	_n=$((_n + 1))
	_skipped=$((_skipped + 1))
	echo "ok $_n $1 # SKIP $2"
}

# skip_all <reason>: the whole case cannot run here.
skip_all() {
	echo "$*" > /tmp/skip-reason
	echo "# SKIP $*"
	exit 4
}

# finish: a case that reported fewer or more results than it planned, or
# never planned, fails whatever its checks said.
finish() {
	if [ "$_n" != "${_planned:-none}" ]; then
		diag "planned ${_planned:-no plan}, reported $_n results"
		exit 1
	fi
	[ $_failed -gt 0 ] && exit 1
	[ $_n -gt 0 ] && [ $_skipped -eq $_n ] && exit 4
	exit 0
}

# Indent a program's KTAP as subtests, one line at a time: if the kernel
# panics, every line written before is already on the serial port.
nest() {
	awk '{ print "    " $0; fflush() }'
}

# kselftest <result name> [run_kselftest.sh options]: run kselftest
# programs of /kselftest (make kselftest) with the kernel's own runner.
# Without perl the runner comments each program's output out ("# "); that
# output is indented instead, so every kselftest case nests under the
# runner's result for its program and counts.  Arguments for a program go
# in KSELFTEST_<PROGRAM>_ARGS, as the runner reads them.
kselftest() {
	local _name=$1
	shift
	# Appending: the runner reopens /dev/stdout for the programs' output,
	# and both must write at the end of the file.
	: > /tmp/kselftest.raw
	/kselftest/run_kselftest.sh "$@" >> /tmp/kselftest.raw 2>&1
	awk '/^# selftests: / { inside = 1; print; fflush(); next }
	     /^(not )?ok [0-9]+ selftests: / { inside = 0 }
	     inside && /^# / { print "    " substr($0, 3); fflush(); next }
	     { print; fflush() }' /tmp/kselftest.raw > /tmp/kselftest.out
	nest < /tmp/kselftest.out
	if grep -q '^ok [0-9]* selftests: ' /tmp/kselftest.out &&
	   ! grep -q '^not ok [0-9]* selftests: ' /tmp/kselftest.out; then
		ok "$_name"
	else
		not_ok "$_name" "run_kselftest.sh $*: a program failed or none ran"
	fi
}

# builtin_module <name>: the running kernel has the module built in (Debian's
# 6.12 builds drbg and jitterentropy_rng in).
builtin_module() {
	grep -q "/$1\.ko" /lib/modules/$(uname -r)/modules.builtin 2>/dev/null
}

# module_available <name>: the running kernel has it, as a module or built
# in (7.x builds no stock drbg and no ansi_cprng).
module_available() {
	builtin_module "$1" || grep -q "/$1\.ko" /lib/modules/$(uname -r)/modules.dep
}

# The reason a case gives for skipping what needs the kernel's own DRBG.
NO_STOCK_DRBG="$(uname -r) has no stock DRBG (Linux 7.2 dropped all but HMAC-SHA512, Debian's 7.x builds none)"

# stock_deps <name>: load what /stock/<name>.ko needs before it is loaded
# by path (7.x's jitterentropy_rng needs the SHA-3 library, libsha3).
stock_deps() {
	[ -f /stock/$1.deps ] || return 0
	for d in $(cat /stock/$1.deps); do
		modprobe $d || return 1
	done
}

# module_present <name>: loaded as a module, or built in.
module_present() {
	grep -q "^$1 " /proc/modules || builtin_module "$1"
}

# dmesg lines logged since mark_dmesg was called.
mark_dmesg() {
	_dmesg_mark=$(dmesg | wc -l)
}

new_dmesg() {
	dmesg | tail -n +$((${_dmesg_mark:-0} + 1))
}

# sysfs value of the jitter RNG's status.
jstat() {
	cat /sys/kernel/cpurng_jitter/$1
}

# Kernel consumer (tests/modules/cpurng_test_rng.ko): "get <alg> <bytes>",
# "reset-get <alg> <bytes>" (crypto_rng_reset() first, as a DRBG needs).
kconsumer() {
	[ -d /sys/kernel/debug/cpurng_test_rng ] || modprobe cpurng_test_rng
	echo "$*" > /sys/kernel/debug/cpurng_test_rng/ctl &&
		cat /sys/kernel/debug/cpurng_test_rng/ctl
}

field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# default_get <bytes>: kconsumer default-get, with the driver that served.
# Linux 7.1 and later no longer show it (driver=unexposed); then it is the
# one of our DRBG instances that the request created or advanced, or
# "other" if none did.
default_get() {
	_before=$(dstat instances 2>/dev/null)
	_r=$(kconsumer default-get $1)
	if [ "$(field driver "$_r")" = unexposed ]; then
		_d=$(dstat instances 2>/dev/null | grep -vxF "$_before" |
			awk '$1 ~ /^[0-9]+$/ { print $2 }' | head -n 1)
		_r=$(echo "$_r" | sed "s/driver=unexposed/driver=${_d:-other}/")
	fi
	echo "$_r"
}

# sysfs value of the collector's status.
cstat() {
	cat /sys/kernel/cpurng_collector/$1
}

# Reload the collector (optional parameters): its boot phase, with the
# probes attached all the time, starts at load.
collector_fresh() {
	rmmod cpurng_collector 2>/dev/null
	modprobe cpurng_collector "$@"
}

# The kernel keeps the default RNG (crypto_get_default_rng()) allocated,
# and its module loaded, until CRYPTO_MSG_DELRNG: release it before rmmod.
release_default_rng() {
	modprobe crypto_user
	crypto_delrng >/dev/null
}

# Unload the DRBG, releasing the kernel's default RNG first.
drbg_unload() {
	release_default_rng
	rmmod cpurng_drbg
}

# sysfs value of the DRBG's status.
dstat() {
	cat /sys/kernel/cpurng_drbg/$1
}

# Wait (up to 10 s) until no seed source is still loading in the
# background: a seed goes without a loading source when the others suffice.
dsources_settled() {
	n=0
	while dstat source_state | grep -q ' loading '; do
		[ $n -ge 500 ] && return 1
		sleep 0.02; n=$((n + 1))
	done
}

# Fields of our DRBG instance line for a driver, from the instances table:
# "<id> <driver> <level> <bits> <reseeds> <reseed_counter> <seconds>".
dinstance() {
	dstat instances | awk -v d="$1" '$2 == d' | tail -n 1
}

# FIPS semantics for a test: none when the kernel was booted with a real
# fips=1 (our own signed kernels), else the modules' test switch (Debian's
# kernel panics on any unsigned module under fips=1).
fips_param() {
	[ "$(cat /proc/sys/crypto/fips_enabled 2>/dev/null)" = 1 ] || echo test_fips=1
}

# The crypto_rng names the AF_ALG fuzzer aims at: ours by cra_name and
# driver name, a few DRBG mechanisms, and names that do not exist.
fuzz_names() {
	echo jitterentropy_rng jitterentropy_rng-cpurng cpu_randomness \
		cpu_randomness-cpurng stdrng drbg_nopr_hmac_sha256 \
		drbg_pr_hmac_sha256-cpurng drbg_nopr_ctr_aes256-cpurng \
		drbg_pr_sha512 drbg_nopr_sha1-cpurng no_such_rng
}

# Run the fuzzer; cpurng_fuzz_seed=<n> on the kernel command line replays
# a run.  Extra arguments go to afalg_fuzz before the names.
fuzz() {
	afalg_fuzz ${cpurng_fuzz_seed:+-s $cpurng_fuzz_seed} "$@" $(fuzz_names)
}

# Failslab for fail-nth sweeps: fail sleeping allocations too (the default
# fails only atomic ones), and quietly (verbose mode prints a stack trace
# per failure, which the harness would take for a splat).
failslab_setup() {
	local page=/sys/kernel/debug/fail_page_alloc a
	# Page allocations too, of every order and gfp (the defaults skip
	# order 0 and sleeping allocations, i.e. nearly all of ours).
	if [ -d $page ]; then
		diag "injecting into slab and page allocations"
		echo N > $page/ignore-gfp-highmem
		echo 0 > $page/min-order
	else
		diag "injecting into slab allocations only (no CONFIG_FAIL_PAGE_ALLOC)"
		page=
	fi
	for a in /sys/kernel/debug/failslab $page; do
		echo N > $a/ignore-gfp-wait
		echo 0 > $a/verbose
		echo -1 > $a/times
	done
}

# kmemleak_scan: make kmemleak report every leak present now.  It skips
# objects younger than 5 s, and objects whose contents changed since its
# previous scan (a new object's checksum starts at zero), so a new leak
# needs the wait and two scans.
kmemleak_scan() {
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
}

# nested <name> <program...>: run a KTAP-printing program, indent its
# output as subtests, and report <name> by its exit status (4: skipped).
nested() {
	local _name=$1 _r
	shift
	"$@" > /tmp/nested.out 2>&1
	_r=$?
	nest < /tmp/nested.out
	case $_r in
	0) ok "$_name" ;;
	4) skip "$_name" "$(sed -n 's/^.*# SKIP //p' /tmp/nested.out | head -1)" ;;
	*) not_ok "$_name" "exit status $_r" ;;
	esac
}
