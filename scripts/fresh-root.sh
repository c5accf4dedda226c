#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A fresh Debian machine in a directory, for checks that must not see
# what the host has installed (the host hides a missing install step), and
# for the build roots of other releases (scripts/build-root.sh).
#
#   fresh-root.sh prepare         install debootstrap on the host if missing
#   fresh-root.sh create DIR [SUITE]
#                                 debootstrap --variant=minbase SUITE DIR
#                                 (default bookworm), with the host's
#                                 archive and apt settings
#   fresh-root.sh run DIR CMD...  CMD as root in DIR (chroot), with a clean
#                                 environment, DIR bind-mounted on itself
#                                 and /proc, /sys, /dev mounted, for the
#                                 command's lifetime only
#   fresh-root.sh remove DIR      unmount what is left and delete DIR
#   fresh-root.sh host-state      one digest of the host's packages, /boot
#                                 and /lib/modules, to show they did not change
#
# The root reaches the archive exactly as the host does: the mirrors come
# from the host's apt sources, and the host's Acquire:: settings for
# fetching (proxies, snapshot validity, retries) are copied.  A root of the host's own release gets
# the host's sources as they are; a root of another release gets that
# release's suites (SUITE, -updates, -security and, for a release that
# has them, -backports, which apt installs from only when asked) on the
# same mirrors.  Nothing is installed on the host except debootstrap
# itself, when it is missing.
set -eu

die() {
	echo "fresh-root: $*" >&2
	exit 1
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
MARK=.cpurng-fresh-root

# The host's release (bookworm, trixie).
host_suite() {
	. /etc/os-release
	echo "$VERSION_CODENAME"
}

# The URI of the host's Debian archive (SECURITY=1: of its security
# archive), from deb822 .sources files or one-line sources.list entries.
host_mirror() {
	want=${SECURITY:-0}
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v want="$want" '
		     function out() { if (u ~ /debian/ && s ~ / / && (s ~ /-security( |$)/) == want) { print u; u = ""; exit } s = ""; u = "" }
		     /^$/ { out() } /^URIs:/ { u = $2 } /^Suites:/ { s = $0 " " }
		     END { out() }' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk -v want="$want" '$1 == "deb" && ($3 ~ /-security$/) == want && $2 ~ /debian/ { print $2 }'
}

# deb822 sources of SUITE on the host's mirrors.
suite_sources() {
	suite=$1
	mirror=$2
	security=$3
	extra=
	# Backports exist for stable releases; bookworm's are not needed here.
	[ "$suite" = bookworm ] || extra=" $suite-backports"
	cat <<EOS
Types: deb
URIs: $mirror
Suites: $suite $suite-updates$extra
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
}

# Undo every mount under DIR, deepest first.  A path can be listed more
# than once (a mount hidden under another); unmounting the one on top can
# make the one below unreachable by that path until its parent goes, so
# go round until nothing is left.
unmount_all() {
	root=$(realpath "$1")
	for round in 1 2 3 4 5 6 7 8; do
		mounts=$(awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts |
			sort -r)
		[ -n "$mounts" ] || return 0
		for m in $mounts; do
			$SUDO umount -l "$m" 2>/dev/null || true
		done
	done
	die "cannot unmount everything under $root"
}

cmd_prepare() {
	command -v debootstrap >/dev/null && return 0
	echo "fresh-root: installing debootstrap on the host (the only host change)" >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
		--no-install-recommends debootstrap >/dev/null
}

cmd_create() {
	dir=$1
	suite=${2:-bookworm}
	[ ! -e "$dir" ] || die "$dir exists; remove it first (fresh-root.sh remove $dir)"
	cmd_prepare
	mirror=$(host_mirror | head -n 1)
	[ -n "$mirror" ] || die "no Debian archive in the host's apt sources"
	echo "fresh-root: debootstrap --variant=minbase $suite $dir $mirror" >&2
	# The mark that lets "remove" delete this directory and no other.
	$SUDO mkdir -p "$dir"
	echo "$suite" | $SUDO tee "$dir/$MARK" >/dev/null
	$SUDO debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir.debootstrap.log" >&2; die "debootstrap failed (log: $dir.debootstrap.log)"; }
	# The archive as the host sees it: sources, and only the settings that
	# say how to fetch (the host's other apt.conf.d files are its own).
	$SUDO rm -f "$dir/etc/apt/sources.list"
	if [ "$suite" = "$(host_suite)" ]; then
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*; do
			[ -f "$f" ] && $SUDO cp "$f" "$dir$f"
		done
	else
		security=$(SECURITY=1 host_mirror | head -n 1)
		suite_sources "$suite" "$mirror" "${security:-${mirror%/debian}/debian-security}" |
			$SUDO tee "$dir/etc/apt/sources.list.d/debian.sources" >/dev/null
	fi
	# How the host fetches (proxies, a snapshot archive's validity), in a
	# file of our own: copying the host's files themselves would clash
	# with the conffiles of packages the root installs (appstream's).
	apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|Retries|https?|ftp)( |::)' |
		$SUDO tee "$dir/etc/apt/apt.conf.d/00host-fetch" >/dev/null || true
	# No daemon a package installs may start in the root (policy-rc.d(8)).
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$dir/usr/sbin/policy-rc.d" >/dev/null
	$SUDO chmod 755 "$dir/usr/sbin/policy-rc.d"
	cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
}

cmd_run() {
	dir=$1
	shift
	[ -e "$dir/$MARK" ] && [ -x "$dir/bin/sh" ] ||
		die "$dir is not a root made by fresh-root.sh create"
	trap 'unmount_all "$dir"' EXIT INT TERM
	# The root a mount point of its own: a command in it can then make a
	# private mount namespace (unshare, as scripts/build-root.sh does),
	# which needs "/" to be a mount point.
	$SUDO mount --bind "$dir" "$dir"
	$SUDO mount --make-private "$dir"
	$SUDO mount -t proc proc "$dir/proc"
	$SUDO mount -t sysfs sysfs "$dir/sys"
	# /dev with its /dev/pts (apt logs through a pty); a slave, so that
	# unmounting in the root never propagates to the host's /dev.
	$SUDO mount --rbind /dev "$dir/dev"
	$SUDO mount --make-rslave "$dir/dev"
	$SUDO mount -t tmpfs tmpfs "$dir/tmp"
	rc=0
	$SUDO env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		TERM="${TERM:-dumb}" chroot "$dir" "$@" || rc=$?
	unmount_all "$dir"
	trap - EXIT INT TERM
	return $rc
}

cmd_remove() {
	dir=$1
	[ -e "$dir" ] || return 0
	[ -e "$dir/$MARK" ] || die "$dir was not made by fresh-root.sh create; not removing it"
	unmount_all "$dir"
	$SUDO rm -rf --one-file-system "$dir" "$dir.debootstrap.log"
}

cmd_host_state() {
	{
		dpkg-query -W -f='${Package} ${Version} ${Status}\n'
		find /boot /lib/modules -printf '%p %s %T@\n' 2>/dev/null | sort
	} | sha256sum | cut -d' ' -f1
}

action=${1:-}
[ "$action" = prepare ] && { cmd_prepare; exit 0; }
[ "$action" = host-state ] && { cmd_host_state; exit 0; }
[ $# -ge 2 ] || die "usage: fresh-root.sh prepare | create DIR [SUITE] | run DIR CMD... | remove DIR"
shift
case $action in
create) cmd_create "$@" ;;
run) cmd_run "$@" ;;
remove) cmd_remove "$1" ;;
*) die "unknown action $action (create, run or remove)" ;;
esac
