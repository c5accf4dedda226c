#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages cpurng needs on a Debian 12 or 13 host.
# Idempotent; prints nothing when everything is already there.
# Usage: scripts/deps.sh [--list] [packaging]
#   packaging  what building and checking the Debian packages needs instead
set -eu

# Debian's kernels are built in build roots and boot from their unpacked
# packages (scripts/debian-kernels.sh, run by make after this): the host
# gets no kernel package.  linux-source-6.12 gives the kselftest framework
# and the debug lane's builtin kernel, linux-source-6.1 (Debian 12 only)
# its debug kernel and checkpatch; debootstrap makes the build roots.
# initramfs-tools: the host test of our initramfs hook runs it with
# Debian's hook-functions (a host without a kernel package lacks them).
. /etc/os-release
case ${VERSION_CODENAME:-} in
bookworm) KERNEL_SOURCES="linux-source-6.1 linux-source-6.12" ;;
trixie) KERNEL_SOURCES="linux-source-6.12" ;;
*)
	echo "deps: this is ${PRETTY_NAME:-an unknown system}; cpurng supports Debian 12 (bookworm) and 13 (trixie) hosts" >&2
	exit 1
	;;
esac

PACKAGES="
build-essential
debootstrap
$KERNEL_SOURCES
qemu-system-x86
busybox-static
cpio
kmod
xz-utils
python3
python3-docutils
libkcapi-dev
libssl-dev
kcapi-tools
rng-tools5
sparse
gnuplot-nox
flex
bison
bc
libelf-dev
openssl
rsync
initramfs-tools
"

# make deb and the packaged install on a fresh root (initramfs-tools
# builds the initramfs the guest boots from).
PACKAGING="
dpkg-dev
debhelper
dh-dkms
dkms
lintian
libkcapi-dev
initramfs-tools
"

list=0
if [ "${1:-}" = "--list" ]; then
	list=1
	shift
fi
if [ "${1:-}" = packaging ]; then
	PACKAGES=$PACKAGING
fi
if [ $list = 1 ]; then
	echo $PACKAGES
	exit 0
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	     grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -n "$missing" ]; then
	echo "deps: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	export DEBIAN_FRONTEND=noninteractive
	log=$(mktemp)
	# A fresh machine may have no package lists yet.  apt's output is shown
	# only when the installation fails.
	if ! $SUDO apt-get install -y -q --no-install-recommends $missing >"$log" 2>&1 &&
	   ! { $SUDO apt-get update -q && $SUDO apt-get install -y -q \
		--no-install-recommends $missing; } >>"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -f "$log"
		echo "deps: installing$missing failed" >&2
		exit 1
	fi
	rm -f "$log"
fi
