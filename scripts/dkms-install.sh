#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make dkms-install / dkms-uninstall: register cpurng VERSION with DKMS
# from this checkout and build and install it for kernel KVER; or remove
# every kernel's build and the source again.  A failed build leaves DKMS
# and /usr/src as they were.
# Usage: scripts/dkms-install.sh install VERSION KVER
#        scripts/dkms-install.sh uninstall VERSION
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
ACTION=$1
VERSION=$2
DKMS_SRC=/usr/src/cpurng-$VERSION

die() {
	echo "error: $*" >&2
	exit 1
}

command -v dkms >/dev/null 2>&1 ||
	die "dkms is not installed (apt-get install dkms)"
[ "$(id -u)" = 0 ] || die "DKMS needs root"

case $ACTION in
install)
	KVER=$3
	if dpkg-query -W -f='${Status}' cpurng-dkms 2>/dev/null | grep -q 'ok installed'; then
		die "the package cpurng-dkms is installed; it already registers cpurng with DKMS (remove it first)"
	fi
	if [ -n "$(dkms status -m cpurng -v "$VERSION")" ] || [ -e "$DKMS_SRC" ]; then
		die "cpurng/$VERSION is already registered with DKMS or $DKMS_SRC exists (make dkms-uninstall first)"
	fi
	make --no-print-directory -C "$SRC" install-dkms-source DESTDIR= VERSION="$VERSION"
	if ! { dkms add -m cpurng -v "$VERSION" &&
	       dkms build -m cpurng -v "$VERSION" -k "$KVER" &&
	       dkms install -m cpurng -v "$VERSION" -k "$KVER"; }; then
		dkms remove -m cpurng -v "$VERSION" --all >/dev/null 2>&1 || true
		rm -rf "$DKMS_SRC"
		die "DKMS could not build cpurng/$VERSION for $KVER (log above); nothing was installed"
	fi
	dkms status -m cpurng -v "$VERSION"
	;;
uninstall)
	if [ -n "$(dkms status -m cpurng -v "$VERSION")" ]; then
		dkms remove -m cpurng -v "$VERSION" --all
	fi
	rm -rf "$DKMS_SRC"
	;;
*)
	die "usage: $0 install VERSION KVER | uninstall VERSION"
	;;
esac
