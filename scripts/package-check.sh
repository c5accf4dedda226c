#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages on a fresh Debian 12 or 13 root, as an administrator
# would use them: the release's kernels installed (Debian 12: 6.1 and
# 6.12; Debian 13: 6.12 and trixie-backports' newest), the packages built
# there (make deb, lintian clean) and installed with apt-get.  DKMS must
# build for every one of those kernels, and skip, saying which and why, a
# kernel the sources do not support (a stand-in 6.0 kernel with headers);
# the installation must not fail for it.  Then QEMU boots each kernel with
# the initramfs Debian's mkinitramfs made in the root, and the guest
# (tests/package/guest-check.sh) checks that our modules came from the
# initramfs by name, passed their self-tests, hold stdrng and
# jitterentropy_rng, and serve kcapi-rng.  Then the packages are purged and
# nothing of them may be left: dkms status, /lib/modules, /usr/src, the
# initramfs contents, every other file.
#
# The root is the one make fresh-root-check leaves with FRESH_ROOT_KEEP=1
# (this commit is checked out in it again); without one, a new root is made
# and the project's packages installed there with make deps.  The host's
# packages, /boot and /lib/modules must come out unchanged.  KTAP out; the
# last line is "check: N passed, N failed, N skipped"; exit 1 on failure.
#
# Usage: scripts/package-check.sh [DIR]   (default: build/fresh-root-SUITE)
# ROOT_SUITE=bookworm (default) or trixie; FRESH_ROOT_KEEP=1 keeps the root.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${ROOT_SUITE:-bookworm}
ROOT=$(realpath -m "${1:-$SRC/build/fresh-root-$SUITE}")
FR=$SRC/scripts/fresh-root.sh
LOGS=$SRC/build/package-check
# A guest boot under TCG takes about a minute; two run side by side.
BOOT_TIMEOUT=900
# The 9p file system the guest's root is, and the tag QEMU exports it as.
TAG=cpurngroot
GUEST_INIT=/usr/local/sbin/cpurng-package-guest
NINEP_HOOK=/etc/initramfs-tools/hooks/zz-cpurng-check-9p-root
# The administrator's choice of initramfs contents for this check: only
# what hooks ask for.  Faster to build than "most", and stricter: every
# module ours need must come from our hook.
INITRAMFS_CONF=/etc/initramfs-tools/conf.d/zz-cpurng-check-modules
# A kernel the sources do not support, with headers: DKMS must skip it.
UNSUPPORTED=6.0.0-cpurng-check-unsupported
# The kernels an administrator of each release would have.
case $SUITE in
bookworm)
	KERNEL_INSTALL="apt-get install -y -q linux-image-amd64 linux-headers-amd64 linux-image-6.12-amd64 linux-headers-6.12-amd64"
	;;
trixie)
	KERNEL_INSTALL="apt-get install -y -q linux-image-amd64 linux-headers-amd64 &&
		apt-get install -y -q -t trixie-backports linux-image-amd64 linux-headers-amd64"
	;;
*)
	echo "package-check: ROOT_SUITE=$SUITE: bookworm or trixie" >&2
	exit 2
	;;
esac

. "$SRC/scripts/ktap-lib.sh"

check() {
	name=$1
	shift
	if "$@"; then result ok "$name"; else result fail "$name"; fi
}

# Whether text $1 has a line matching the basic regular expression $2.
has() {
	printf '%s\n' "$1" | grep -q -- "$2"
}

in_root() {
	"$FR" run "$ROOT" "$@"
}

# Run CMD in the root with its output in LOG, shown indented.
logged() {
	log=$LOGS/$1.log
	shift
	rc=0
	in_root "$@" >"$log" 2>&1 || rc=$?
	sed 's/^/# /' "$log"
	return $rc
}

finish() {
	echo "# package-check: $(elapsed $t_all) s in all"
	[ "${FRESH_ROOT_KEEP:-0}" = 1 ] || "$FR" remove "$ROOT"
	if [ "$("$FR" host-state)" = "$host_before" ]; then
		result ok host_packages_boot_and_modules_unchanged
	else
		result fail host_packages_boot_and_modules_unchanged
	fi
	echo "check: $passed passed, $failed failed, 0 skipped"
	[ $failed = 0 ]
	exit
}

echo "KTAP version 1"
t_all=$(date +%s)
"$FR" prepare
host_before=$("$FR" host-state)
rm -rf "$LOGS"
mkdir -p "$LOGS"
commit=$(git -C "$SRC" rev-parse HEAD)

# --- the root -------------------------------------------------------------
start=$(date +%s)
if [ -d "$ROOT/root/cpurng/.git" ] && [ "$(cat "$ROOT/.cpurng-fresh-root" 2>/dev/null)" = "$SUITE" ] &&
   in_root dpkg-query -W -f='${Status}' qemu-system-x86 2>/dev/null | grep -q 'ok installed'; then
	echo "# reusing the fresh root $ROOT (its project packages installed by make run)"
	git -C "$ROOT/root/cpurng" fetch -q "$SRC" "$commit" &&
		git -C "$ROOT/root/cpurng" checkout -q --force "$commit"
	rc=$?
else
	echo "# a new fresh root $ROOT"
	"$FR" remove "$ROOT"
	rc=0
	"$FR" create "$ROOT" "$SUITE" &&
		git clone -q "$SRC" "$ROOT/root/cpurng" &&
		git -C "$ROOT/root/cpurng" checkout -q "$commit" &&
		install -D -m 0755 "$SRC/tests/package/9p-root-hook" "$ROOT$NINEP_HOOK" &&
		logged deps sh -c 'export DEBIAN_FRONTEND=noninteractive
			apt-get update -q && apt-get install -y -q --no-install-recommends make &&
			/root/cpurng/scripts/deps.sh' || rc=$?
fi
echo "# commit $commit; root ready in $(elapsed $start) s"
[ $rc = 0 ] || { result fail root_ready; finish; }

# --- the kernels, as the administrator installs them -----------------------
# The guest's root file system is this directory over 9p, so Debian's
# initramfs needs the 9p modules: an administrator's hook in /etc (not
# part of the packages, and there before and after them), in place before
# the kernels are installed so that their first initramfs has it.
start=$(date +%s)
install -D -m 0755 "$SRC/tests/package/9p-root-hook" "$ROOT$NINEP_HOOK"
echo MODULES=list | install -D -m 0644 /dev/stdin "$ROOT$INITRAMFS_CONF"
rc=0
logged kernels sh -c "export DEBIAN_FRONTEND=noninteractive; $KERNEL_INSTALL" >/dev/null || rc=$?
KVERS=$(cd "$ROOT/boot" 2>/dev/null && ls -v vmlinuz-* 2>/dev/null | sed 's/^vmlinuz-//')
DKMS_INSTALL=${PACKAGE_CHECK_DKMS_INSTALL:-0}
echo "1..$((8 + 3 * $(echo $KVERS | wc -w) + 2 * DKMS_INSTALL))"
result ok "root_ready # $SUITE"
if [ $rc = 0 ] && [ "$(echo $KVERS | wc -w)" -ge 2 ]; then
	result ok "kernels_installed # $(echo $KVERS), $(elapsed $start) s"
else
	result fail "kernels_installed # $(echo $KVERS)"
fi

# --- build ----------------------------------------------------------------
start=$(date +%s)
if logged deb make -C /root/cpurng deb; then
	result ok "packages_built_lintian_clean # $(elapsed $start) s"
else
	result fail packages_built_lintian_clean
fi
debs=$(cd "$ROOT/root/cpurng/build/deb" 2>/dev/null && ls cpurng-dkms_*_all.deb cpurng-tools_*_amd64.deb 2>/dev/null)
for d in $debs; do
	echo "# $d: $(stat -c %s "$ROOT/root/cpurng/build/deb/$d") bytes"
done
[ "$(echo $debs | wc -w)" = 2 ] || { echo "# the two packages were not built"; finish; }

# --- make dkms-install and dkms-uninstall (PACKAGE_CHECK_DKMS_INSTALL=1) ---
# Not in CI: with the initramfs rebuilt three times it adds about 4 min.
if [ "$DKMS_INSTALL" = 1 ]; then
	k=$(echo $KVERS | cut -d' ' -f1)
	start=$(date +%s)
	rc=0
	logged dkms-install make -C /root/cpurng dkms-install KERNEL="$(echo "$k" | cut -d. -f1,2)" || rc=$?
	st=$(in_root dkms status cpurng 2>&1)
	echo "# dkms status: $st"
	if [ $rc = 0 ] && has "$st" "^cpurng/[^,]*, $k, x86_64: installed" &&
	   [ -e "$ROOT/etc/modprobe.d/cpurng.conf" ] &&
	   in_root lsinitramfs "/boot/initrd.img-$k" | grep -q 'updates/dkms/cpurng_drbg'; then
		result ok "make_dkms_install_for_$k # $(elapsed $start) s"
	else
		result fail "make_dkms_install_for_$k"
	fi
	rc=0
	logged dkms-uninstall make -C /root/cpurng dkms-uninstall || rc=$?
	left=$(in_root sh -c "dkms status cpurng; ls -d /usr/src/cpurng-* /etc/modprobe.d/cpurng.conf;
		lsinitramfs /boot/initrd.img-$k | grep cpurng_" 2>/dev/null)
	[ -z "$left" ] || echo "$left" | sed 's/^/# left: /'
	if [ $rc = 0 ] && [ -z "$left" ]; then
		result ok make_dkms_uninstall_leaves_nothing
	else
		result fail make_dkms_uninstall_leaves_nothing
	fi
fi

# --- the guest's plumbing, and the root as it is before the install -------
# The guest's root file system is this directory over 9p, so Debian's
# initramfs needs the 9p modules: an administrator's hook in /etc (not
# part of the packages, and there before and after them).  The fresh-root
# check puts it in place before the kernels are installed; only a root
# without it needs its initramfs rebuilt here.
cp "$SRC/tests/package/guest-check.sh" "$ROOT$GUEST_INIT"
# The stand-in unsupported kernel: headers (a configuration) but Linux 6.0.
mkdir -p "$ROOT/lib/modules/$UNSUPPORTED/build"
printf 'CONFIG_CRYPTO_RNG=y\nCONFIG_TRACEPOINTS=y\n' >"$ROOT/lib/modules/$UNSUPPORTED/build/.config"

# Every file of the root but the volatile ones (package manager state,
# logs, caches, the checkout), and what each initramfs holds.
snapshot() {
	(cd "$ROOT" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev \
		-o -path ./tmp -o -path ./run -o -path ./var/cache -o -path ./var/log \
		-o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./root/cpurng \
		-o -path ./var/lib/initramfs-tools \) -prune -o -print) | sort >"$LOGS/$1.files"
	for k in $KVERS; do
		in_root lsinitramfs "/boot/initrd.img-$k" | sort >"$LOGS/$1.initrd-$k"
	done
}
snapshot before

# --- install --------------------------------------------------------------
start=$(date +%s)
rc=0
logged install sh -c "cd /root/cpurng/build/deb && DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q $(for d in $debs; do printf './%s ' "$d"; done)" || rc=$?
if [ $rc = 0 ]; then
	result ok "packages_installed_with_apt # $(elapsed $start) s"
else
	result fail packages_installed_with_apt
fi

status=$(in_root dkms status cpurng 2>&1)
echo "$status" | sed 's/^/# dkms status: /'
line=$(grep "^cpurng: not built for $UNSUPPORTED: " "$LOGS/install.log")
echo "# ${line:-no line about $UNSUPPORTED}"
if [ -n "$line" ] && ! has "$status" "$UNSUPPORTED" &&
   [ -z "$(ls "$ROOT/var/lib/dkms/cpurng/"*"/$UNSUPPORTED" 2>/dev/null)" ]; then
	result ok unsupported_kernel_skipped_with_a_message
else
	result fail unsupported_kernel_skipped_with_a_message
fi
for k in $KVERS; do
	check "dkms_built_and_installed_for_$k" \
		has "$status" "^cpurng/[^,]*, $k, x86_64: installed"
done

# The initramfs of each kernel holds our modules and loads them by name
# (conf/modules, written by the hook through force_load).
for k in $KVERS; do
	listing=$(in_root lsinitramfs "/boot/initrd.img-$k" | grep 'cpurng_.*\.ko')
	echo "$listing" | sed 's/^/# initrd: /'
	conf=$(in_root sh -c "unmkinitramfs /boot/initrd.img-$k /tmp/i &&
		cat /tmp/i/main/conf/modules 2>/dev/null || cat /tmp/i/conf/modules" 2>/dev/null)
	echo "# $k conf/modules: $(echo $conf)"
	if [ "$(printf '%s\n' "$listing" | grep -c 'updates/dkms/cpurng_')" = 3 ] &&
	   has "$conf" '^cpurng_jitter$' && has "$conf" '^cpurng_collector$' &&
	   has "$conf" '^cpurng_drbg$'; then
		result ok "initramfs_loads_cpurng_$k"
	else
		result fail "initramfs_loads_cpurng_$k"
	fi
done

# --- boot each kernel -----------------------------------------------------
# The kernel parameters GRUB would add from the package's snippet.
params=$(in_root sh -c 'GRUB_CMDLINE_LINUX=; . /etc/default/grub.d/cpurng.cfg; echo "$GRUB_CMDLINE_LINUX"')
echo "# from /etc/default/grub.d/cpurng.cfg: $params"
boot() {
	k=$1
	timeout $BOOT_TIMEOUT qemu-system-x86_64 -nodefaults -no-reboot -nographic \
		-m 1024 -cpu max -smp 1 -nic none -serial stdio \
		-kernel "$ROOT/boot/vmlinuz-$k" -initrd "$ROOT/boot/initrd.img-$k" \
		-virtfs "local,path=$ROOT,mount_tag=$TAG,security_model=none,readonly=on" \
		-append "console=ttyS0 panic=-1 root=$TAG rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144 ro fsck.mode=skip init=$GUEST_INIT $params" \
		</dev/null >"$LOGS/guest-$k.log" 2>&1
}
start=$(date +%s)
for k in $KVERS; do
	boot "$k" &
done
wait
echo "# guests booted and checked in $(elapsed $start) s (side by side)"
for k in $KVERS; do
	log=$LOGS/guest-$k.log
	sed -n '/^KTAP version 1/,/^guest-check done/p' "$log" | tr -d '\r' | sed 's/^/# /'
	if ! grep -q '^guest-check done' "$log"; then
		tail -n 30 "$log" | sed 's/^/# console: /'
		result fail "guest_$k # the guest did not finish"
		continue
	fi
	total=$(tr -d '\r' <"$log" | grep -c '^ok \|^not ok ')
	bad=$(tr -d '\r' <"$log" | grep -c '^not ok ')
	if [ "$bad" = 0 ] && [ "$total" = 8 ]; then
		result ok "guest_$k # 8/8 in the guest"
	else
		result fail "guest_$k # $bad of $total failed in the guest"
	fi
done

# --- purge ----------------------------------------------------------------
start=$(date +%s)
if logged purge sh -c \
	'DEBIAN_FRONTEND=noninteractive apt-get purge -y -q cpurng-dkms cpurng-tools'; then
	result ok "packages_purged # $(elapsed $start) s"
else
	result fail packages_purged
fi
snapshot after
rc=0
left=$(in_root sh -c 'dkms status cpurng; find /lib/modules /usr/src /etc /usr/share/initramfs-tools -name "*cpurng*"' 2>&1 |
	grep -v -e "^$NINEP_HOOK\$" -e "^$INITRAMFS_CONF\$" -e "^/lib/modules/$UNSUPPORTED\$")
[ -z "$left" ] || { echo "$left" | sed 's/^/# left: /'; rc=1; }
# dkms makes the machine's module signing key at its first build, for
# every DKMS module (mokutil enrols it for Secure Boot), and keeps it: it
# is dkms's, which stays installed, not ours.
for f in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
	if grep -qx ".$f" "$LOGS/after.files" && ! grep -qx ".$f" "$LOGS/before.files"; then
		echo "# kept by dkms, not ours: $f"
		grep -vx ".$f" "$LOGS/after.files" >"$LOGS/after.files.new"
		mv "$LOGS/after.files.new" "$LOGS/after.files"
	fi
done
if ! diff -u "$LOGS/before.files" "$LOGS/after.files" >"$LOGS/diff.files"; then
	sed 's/^/# /' "$LOGS/diff.files"
	rc=1
fi
# The initramfs made before the install predates the packages installed
# since (make deb's: dkms ships /etc/modprobe.d/dkms.conf, which every
# initramfs made afterwards copies).  A difference is ours unless the
# file was in the root before our install and belongs to another package.
for k in $KVERS; do
	diff "$LOGS/before.initrd-$k" "$LOGS/after.initrd-$k" | sed -n 's/^[<>] //p' |
	while read -r f; do
		owner=$(in_root dpkg -S "/$f" 2>/dev/null | cut -d: -f1)
		if grep -qx "./$f" "$LOGS/before.files" && [ -n "$owner" ] &&
		   [ "${owner#cpurng}" = "$owner" ]; then
			echo "# initramfs of $k: /$f of $owner, installed before ours"
		else
			echo "# initramfs of $k differs: $f"
			echo differs
		fi
	done >"$LOGS/diff.initrd-$k"
	grep -v '^differs$' "$LOGS/diff.initrd-$k"
	! grep -qx differs "$LOGS/diff.initrd-$k" || rc=1
done
[ $rc = 0 ] && result ok nothing_left_behind || result fail nothing_left_behind
rm -rf "$ROOT$GUEST_INIT" "$ROOT/lib/modules/$UNSUPPORTED"
finish
