#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A cached build root of a Debian release, the way Debian's sbuild builds:
# a debootstrap root (scripts/fresh-root.sh create) entered with chroot.
# Modules for another release's kernels are built here with that
# release's compiler (trixie's kernels with its gcc-14), never by
# installing that release's packages on the host.
#
#   build-root.sh path SUITE           make or refresh the root, print it
#   build-root.sh install SUITE PKG... apt-get install PKG in the root
#   build-root.sh run SUITE [--bind DIR]... -- CMD...
#                                      CMD in the root as the caller, with
#                                      each DIR (and the working directory)
#                                      at its own path
#
# Roots live in $CPURNG_ROOT_CACHE (default ~/.cache/cpurng/roots) under a
# key of the suite and the base packages below; a changed list makes a new
# root.  The package lists are refreshed (apt-get update, then upgrade)
# when they are older than CPURNG_ROOT_MAX_AGE seconds (default a day), so
# "the newest kernel of trixie-backports" follows the archive.
#
# Each run has its own mount namespace (unshare): its /proc, /dev and bind
# mounts vanish with it, whatever happens, and runs side by side share
# nothing but the root's files.  Changes to the root (path, install) hold
# its lock exclusively; runs hold it shared.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
FR=$SRC/scripts/fresh-root.sh
CACHE=${CPURNG_ROOT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/cpurng/roots}
MAX_AGE=${CPURNG_ROOT_MAX_AGE:-86400}
# What a module build needs besides the kernel headers (which bring their
# compiler): make, the C library headers, kmod for modinfo, pahole for
# the BTF some kernels' module builds generate, sparse for make lint.
BASE_PACKAGES="build-essential kmod pahole sparse xz-utils"

die() {
	echo "build-root: $*" >&2
	exit 1
}
log() {
	echo "build-root: $*" >&2
}

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo

# Roots made by an older recipe are remade: bump when make_root changes.
ROOT_FORMAT=2

root_of() {
	key=$(echo "$1 $BASE_PACKAGES $ROOT_FORMAT" | sha256sum | cut -c1-8)
	echo "$CACHE/$1-$key"
}

# apt-get in the root, without prompts.
apt_in() {
	dir=$1
	shift
	"$FR" run "$dir" env DEBIAN_FRONTEND=noninteractive apt-get -q -y \
		-o Dpkg::Use-Pty=0 "$@" >>"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; return 1; }
}

# Called with the lock held exclusively.
make_root() {
	suite=$1
	dir=$2
	if [ ! -f "$dir/.cpurng-build-root" ]; then
		# Older roots of this suite (other keys) are stale.
		for old in "$CACHE/$suite"-*; do
			[ -d "$old" ] && [ "$old" != "$dir" ] || continue
			log "removing the stale root $old"
			"$FR" remove "$old"
			rm -f "$old.log" "$old.lock"
		done
		"$FR" remove "$dir"
		start=$(date +%s)
		"$FR" create "$dir" "$suite"
		: >"$dir.log"
		# Kernel images come in as dependencies of their headers (6.12);
		# nothing boots this root, so no initramfs is made for them.
		"$FR" run "$dir" sh -c 'dpkg-divert --quiet --local --rename \
			--add /usr/sbin/update-initramfs &&
			ln -s /bin/true /usr/sbin/update-initramfs' ||
			die "could not divert update-initramfs in $dir"
		apt_update "$dir"
		apt_in "$dir" install --no-install-recommends $BASE_PACKAGES ||
			die "installing $BASE_PACKAGES in $dir failed (log: $dir.log)"
		$SUDO touch "$dir/.cpurng-build-root"
		log "$suite root ready in $(($(date +%s) - start)) s: $dir"
	elif [ $(($(date +%s) - $(stat -c %Y "$dir/.cpurng-build-root"))) -gt "$MAX_AGE" ]; then
		log "refreshing the $suite root's package lists and packages"
		apt_update "$dir" && apt_in "$dir" dist-upgrade ||
			die "refreshing $dir failed (log: $dir.log)"
		$SUDO touch "$dir/.cpurng-build-root"
	fi
}

apt_update() {
	"$FR" run "$1" apt-get -q update >>"$1.log" 2>&1 ||
		{ tail -n 20 "$1.log" >&2; die "apt-get update in $1 failed"; }
}

locked() {
	mode=$1
	dir=$2
	shift 2
	mkdir -p "$CACHE"
	(
		flock "$mode" 9
		"$@"
	) 9>"$dir.lock"
}

cmd_path() {
	suite=$1
	dir=$(root_of "$suite")
	locked -x "$dir" make_root "$suite" "$dir"
	echo "$dir"
}

cmd_install() {
	suite=$1
	shift
	dir=$(cmd_path "$suite")
	locked -x "$dir" apt_in "$dir" install --no-install-recommends "$@" ||
		die "apt-get install $* in the $suite root failed (log: $dir.log)"
}

enter() {
	dir=$1
	shift
	# The caller's identity inside: files the build makes are theirs.
	user=
	[ "$(id -u)" -ne 0 ] && user="--userspec=$(id -u):$(id -g)"
	$SUDO unshare --mount --propagation private -- /bin/sh -c '
		set -e
		root=$1
		user=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --rbind "$1" "$root$1"
			shift
		done
		shift
		exec chroot $user "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/tmp LANG=C.UTF-8 TERM="${TERM:-dumb}" \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$@"
	' sh "$dir" "$user" "$@"
}

cmd_run() {
	suite=$1
	shift
	binds=$(pwd)
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		[ "$1" = --bind ] && [ $# -ge 2 ] || die "usage: build-root.sh run SUITE [--bind DIR]... -- CMD..."
		binds="$binds $(realpath -m "$2")"
		shift 2
	done
	[ $# -ge 2 ] || die "usage: build-root.sh run SUITE [--bind DIR]... -- CMD..."
	shift
	dir=$(root_of "$suite")
	[ -f "$dir/.cpurng-build-root" ] || cmd_path "$suite" >/dev/null
	# Only directories that exist, each once, parents before children.
	binds=$(for b in $binds; do [ -d "$b" ] && echo "$b"; done | sort -u)
	locked -s "$dir" enter "$dir" $binds -- "$(pwd)" "$@"
}

action=${1:-}
[ $# -ge 2 ] || die "usage: build-root.sh path|install|run SUITE ..."
shift
case $action in
path) cmd_path "$1" ;;
install) cmd_install "$@" ;;
run) cmd_run "$@" ;;
*) die "unknown action $action (path, install or run)" ;;
esac
