#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages cpurng needs.  Idempotent; prints nothing when
# everything is already there.
# Usage: scripts/deps.sh [--list] [packaging]
#   packaging  what building and checking the Debian packages needs instead
set -eu

PACKAGES="
build-essential
linux-headers-amd64
linux-image-amd64
linux-headers-6.12-amd64
linux-image-6.12-amd64
pahole
linux-source-6.1
linux-source-6.12
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
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet.
if ! $SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null; then
	$SUDO apt-get update -q >/dev/null
	$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
