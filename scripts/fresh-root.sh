#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A fresh Debian 12 machine in a directory, for checks that must not see
# what the host has installed (the host hides a missing install step).
#
#   fresh-root.sh prepare         install debootstrap on the host if missing
#   fresh-root.sh create DIR      debootstrap --variant=minbase bookworm DIR,
#                                 with the host's archive and apt settings
#   fresh-root.sh run DIR CMD...  CMD as root in DIR (chroot), with a clean
#                                 environment and /proc, /sys, /dev mounted
#                                 for the command's lifetime only
#   fresh-root.sh remove DIR      unmount what is left and delete DIR
#   fresh-root.sh host-state      one digest of the host's packages, /boot
#                                 and /lib/modules, to show they did not change
#
# The root reaches the archive exactly as the host does: the mirror comes
# from the host's apt sources, and the host's Acquire:: settings (proxies,
# snapshot validity) are copied.  Nothing is installed on the host except
# debootstrap itself, when it is missing.
set -eu

die() {
	echo "fresh-root: $*" >&2
	exit 1
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
MARK=.cpurng-fresh-root

# The URI of the host's bookworm main archive, from deb822 .sources files
# or from one-line sources.list entries.
host_mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^$/ { if (s ~ /(^| )bookworm( |$)/ && u) { print u; exit } s = ""; u = "" }
		     /^URIs:/ { u = $2 } /^Suites:/ { s = $0 }
		     END { if (s ~ /(^| )bookworm( |$)/ && u) print u }' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $3 == "bookworm" { print $2 }'
}

# Undo every mount under DIR, deepest first.
unmount_all() {
	root=$(realpath "$1")
	awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts |
		sort -r | while read -r m; do
			$SUDO umount -l "$m" || die "cannot unmount $m"
		done
}

cmd_prepare() {
	command -v debootstrap >/dev/null && return 0
	echo "fresh-root: installing debootstrap on the host (the only host change)" >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
		--no-install-recommends debootstrap >/dev/null
}

cmd_create() {
	dir=$1
	[ ! -e "$dir" ] || die "$dir exists; remove it first (fresh-root.sh remove $dir)"
	cmd_prepare
	mirror=$(host_mirror | head -n 1)
	[ -n "$mirror" ] || die "no bookworm archive in the host's apt sources"
	echo "fresh-root: debootstrap --variant=minbase bookworm $dir $mirror" >&2
	# The mark that lets "remove" delete this directory and no other.
	$SUDO mkdir -p "$dir"
	$SUDO touch "$dir/$MARK"
	$SUDO debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir.debootstrap.log" >&2; die "debootstrap failed (log: $dir.debootstrap.log)"; }
	# The archive as the host sees it: sources, and only the settings that
	# say how to fetch (the host's other apt.conf.d hooks are its own).
	$SUDO rm -f "$dir/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*; do
		[ -f "$f" ] && $SUDO cp "$f" "$dir$f"
	done
	for f in /etc/apt/apt.conf.d/*; do
		grep -qs '^[[:space:]]*Acquire::' "$f" && $SUDO cp "$f" "$dir$f"
	done
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
[ $# -ge 2 ] || die "usage: fresh-root.sh prepare | create|run|remove DIR [CMD...]"
shift
case $action in
create) cmd_create "$1" ;;
run) cmd_run "$@" ;;
remove) cmd_remove "$1" ;;
*) die "unknown action $action (create, run or remove)" ;;
esac
