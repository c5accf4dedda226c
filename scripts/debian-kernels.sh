#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debian's kernels for the VM tests and module builds, from their
# packages: each is built in a cached build root of its release
# (scripts/build-root.sh) with that release's compiler, and boots from its
# unpacked package.  Nothing is installed on the host, and its /boot is
# never touched.
#
#   debian-kernels.sh prepare LABEL...
#       For each LABEL, the kernel its Debian metapackage points to today:
#       its headers installed in the build root, its image unpacked into
#       the cache.  Prints make variables (KVER_<L>, KROOT_<L>, KSUITE_<L>;
#       the headers are HEADERS_ROOT/linux-headers-KVER inside KROOT).
#   debian-kernels.sh labels
#       The labels prepare knows.
#
# Labels name a Debian kernel package, not a version, so that next year's
# kernel needs no change here:
#   6.1, 6.12                      Debian 12's linux-image-amd64 and
#                                  linux-image-6.12-amd64
#   13, 13-cloud, 13-rt            Debian 13's linux-image-amd64,
#                                  -cloud-amd64 and -rt-amd64
#   13-bpo, 13-bpo-cloud, 13-bpo-rt  the same from trixie-backports (the
#                                  newest kernel there)
#
# An unpacked kernel is $CPURNG_KERNEL_CACHE/debian/KVER (default
# ~/.cache/cpurng/kernels/debian/KVER) with
#   vmlinuz   the image (a link into the unpacked package)
#   modules   its module tree, with modules.dep made by depmod
#   config    its configuration
#   version   the package version it came from
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BR=$SRC/scripts/build-root.sh
CACHE=${CPURNG_KERNEL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/cpurng/kernels}/debian
LABELS="6.1 6.12 13 13-cloud 13-rt 13-bpo 13-bpo-cloud 13-bpo-rt"

die() {
	echo "debian-kernels: $*" >&2
	exit 1
}
log() {
	echo "debian-kernels: $*" >&2
}

# The packages of KVER's image: linux-image-KVER and, where Debian splits
# it (7.x: linux-binary-, linux-modules-, linux-base-), its parts, all of
# them named after KVER, in the build root of SUITE.
image_packages() {
	suite=$1
	kver=$2
	"$BR" run "$suite" -- apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		"linux-image-$kver" 2>/dev/null |
		sed -n "s/^\(linux-[a-z]*-$(echo "$kver" | sed 's/[.]/\\./g')\)\$/\1/p" |
		grep -v -- '-dbg$' | sort -u
}

# Unpack the .deb files in $2 into the kernel cache entry $1 and make its
# links and modules.dep.  Called with the entry's lock held.
unpack() {
	dir=$1
	debs=$2
	kver=$3
	version=$4
	rm -rf "$dir.new"
	mkdir -p "$dir.new/root"
	for d in "$debs"/*.deb; do
		dpkg-deb -x "$d" "$dir.new/root"
	done
	mods=
	for m in "$dir.new/root/usr/lib/modules/$kver" "$dir.new/root/lib/modules/$kver"; do
		[ -d "$m/kernel" ] && mods=$m && break
	done
	image=
	for i in "$dir.new/root/boot/vmlinuz-$kver" "$dir.new/root/usr/lib/modules/$kver/vmlinuz" \
		 "$dir.new/root/lib/modules/$kver/vmlinuz"; do
		[ -f "$i" ] && image=$i && break
	done
	[ -n "$mods" ] && [ -n "$image" ] ||
		die "no image or module tree of $kver in $(ls "$debs" | tr '\n' ' ')"
	# depmod -b wants BASE/lib/modules/KVER.
	depmod -b "${mods%/lib/modules/$kver}" "$kver"
	ln -s "${image#"$dir.new/"}" "$dir.new/vmlinuz"
	ln -s "${mods#"$dir.new/"}" "$dir.new/modules"
	for c in "$dir.new/root/boot/config-$kver" "$mods/config"; do
		[ -f "$c" ] && ln -s "${c#"$dir.new/"}" "$dir.new/config" && break
	done
	echo "$version" >"$dir.new/version"
	rm -rf "$dir"
	mv "$dir.new" "$dir"
}

# The cache entry of KVER holds VERSION, or is (re)made by running
# "$fetch" in a new directory (which downloads the packages there).
ensure_image() {
	kver=$1
	version=$2
	fetch=$3
	dir=$CACHE/$kver
	mkdir -p "$CACHE"
	(
		flock 9
		if [ "$(cat "$dir/version" 2>/dev/null)" != "$version" ] ||
		   [ ! -e "$dir/config" ]; then
			log "unpacking linux-image-$kver $version"
			debs=$(mktemp -d "$CACHE/.debs.XXXXXX")
			trap 'rm -rf "$debs"' EXIT
			(cd "$debs" && $fetch >&2) || die "could not download linux-image-$kver $version"
			unpack "$dir" "$debs" "$kver" "$version"
		fi
	) 9>"$CACHE/.$kver.lock"
}

label_suite() {
	case $1 in
	6.*) echo bookworm ;;
	*) echo trixie ;;
	esac
}
# The metapackage's name after linux-image-.
label_flavour() {
	case $1 in
	6.12) echo 6.12-amd64 ;;
	*-cloud) echo cloud-amd64 ;;
	*-rt) echo rt-amd64 ;;
	*) echo amd64 ;;
	esac
}
label_release() {
	case $1 in
	*-bpo*) echo "-t $(label_suite "$1")-backports" ;;
	*) echo "" ;;
	esac
}

# KVER of LABEL: what its metapackage's candidate depends on.
resolve() {
	label=$1
	suite=$(label_suite "$label")
	meta=linux-image-$(label_flavour "$label")
	rel=$(label_release "$label")
	"$BR" run "$suite" -- sh -c "v=\$(apt-cache $rel policy $meta | sed -n 's/^  Candidate: //p') &&
		apt-cache show $meta=\$v | sed -n 's/^Depends:.*linux-image-\([0-9][^ ,]*\) (.*/\1/p' | head -n 1"
}

cmd_prepare() {
	[ $# -gt 0 ] || die "usage: debian-kernels.sh prepare LABEL..."
	for label in "$@"; do
		echo " $LABELS " | grep -q " $label " || die "unknown kernel $label (known: $LABELS)"
	done
	# Each release's build root made (or refreshed) first.
	suites=$(for label in "$@"; do label_suite "$label"; done | sort -u)
	for suite in $suites; do
		"$BR" path "$suite" >/dev/null
	done
	kvers=
	for label in "$@"; do
		kver=$(resolve "$label")
		[ -n "$kver" ] || die "no kernel for $label in the $(label_suite "$label") archive"
		kvers="$kvers $label:$kver"
	done
	# The headers of every kernel at once (one apt-get run).
	for suite in $suites; do
		headers=$(for lk in $kvers; do
			[ "$(label_suite "${lk%%:*}")" = "$suite" ] && echo "linux-headers-${lk#*:}"
		done | sort -u)
		"$BR" install "$suite" $headers
	done
	for lk in $kvers; do
		label=${lk%%:*}
		kver=${lk#*:}
		suite=$(label_suite "$label")
		root=$("$BR" path "$suite")
		version=$("$BR" run "$suite" -- dpkg-query -W -f='${Version}' "linux-headers-$kver")
		pkgs=$(image_packages "$suite" "$kver")
		[ -n "$pkgs" ] || die "no image packages for $kver"
		ensure_image "$kver" "$version" \
			"$BR run $suite -- apt-get download -q -o APT::Sandbox::User=root $(for p in $pkgs; do printf '%s=%s ' "$p" "$version"; done)"
		s=$(echo "$label" | tr 'a-z.-' 'A-Z__')
		echo "KVER_$s := $kver"
		echo "KROOT_$s := $root"
		echo "KSUITE_$s := $suite"
	done
}

action=${1:-}
[ $# -ge 1 ] || die "usage: debian-kernels.sh prepare LABEL... | labels"
shift
case $action in
prepare) cmd_prepare "$@" ;;
labels) echo "$LABELS" ;;
*) die "unknown action $action (prepare or labels)" ;;
esac
