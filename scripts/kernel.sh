#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build (or find in the cache) one of the project's own test kernels from
# Debian's linux-source-6.1 or -6.12: "make tinyconfig" plus the fragments
# under tests/kernels/.  Prints the kernel's directory, which holds
#   build/                  the O= tree (KDIR for our out-of-tree modules,
#                           with the module signing key under certs/)
#   build/arch/x86/boot/bzImage
#   mod/lib/modules/<kver>/ its modules
#
# Usage: scripts/kernel.sh debug|builtin
#   debug    base + debug fragments: KASAN, lockdep, kmemleak, UBSAN,
#            failslab; CRYPTO_FIPS and module signing (6.1, the default
#            Debian 12 kernel)
#   builtin  base + builtin fragments: cpurng linked into the tree (=y)
#            (6.12: the out-of-tree builds already cover both kernels'
#            headers; this one proves the in-tree build on a 6.12 tree)
#
# Kernels are cached outside the checkout ($CPURNG_KERNEL_CACHE, default
# ~/.cache/cpurng/kernels) under a key made of the source package version
# and the fragments, so a second run starts at once and a changed fragment
# builds a new kernel.  The builtin kernel contains our sources, so it is
# always remade (incrementally: only what changed is recompiled).
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
VARIANT=${1:?usage: kernel.sh debug|builtin}
CACHE=${CPURNG_KERNEL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/cpurng/kernels}
JOBS=${JOBS:-$(nproc)}
case "$VARIANT" in
debug) SERIES=6.1 ;;
builtin) SERIES=6.12 ;;
*) echo "kernel.sh: unknown kernel '$VARIANT' (debug or builtin)" >&2; exit 2 ;;
esac
TARBALL=$(ls /usr/src/linux-source-$SERIES.tar.* 2>/dev/null | head -n 1)
if [ -z "$TARBALL" ]; then
	echo "kernel.sh: linux-source-$SERIES is not installed (make deps)" >&2
	exit 1
fi
FRAGS="$SRC/tests/kernels/base.config $SRC/tests/kernels/$VARIANT.config"
VERSION=$(dpkg-query -W -f='${Version}' linux-source-$SERIES)
KEY=$( (echo "$VERSION $VARIANT"; cat $FRAGS) | sha256sum | cut -c1-12)
DIR="$CACHE/$VARIANT-$KEY"
log() { echo "kernel.sh: $*" >&2; }

mkdir -p "$CACHE"
# One build per cache entry at a time: a second run (CI beside a developer,
# two terminals) waits here instead of unpacking into the same tree.
exec 9>"$CACHE/.$VARIANT.lock"
flock 9
if [ -f "$DIR/done" ] && [ "$VARIANT" != builtin ]; then
	echo "$DIR"
	exit 0
fi
mkdir -p "$DIR"
# Older kernels of this variant (other keys) are stale: free their space.
for old in "$CACHE/$VARIANT"-*; do
	[ "$old" = "$DIR" ] || [ ! -d "$old" ] || rm -rf "$old"
done
start=$(date +%s)
# The unpacked tree counts only once tar has finished: an interrupted
# unpack (Ctrl-C, a killed CI job) leaves src.partial, never a src/ that
# has a Makefile but lacks half of scripts/.
if [ ! -f "$DIR/src/.cpurng-unpacked" ]; then
	log "unpacking $(basename "$TARBALL") for the $VARIANT kernel"
	rm -rf "$DIR/src" "$DIR/src.partial" "$DIR/build"
	mkdir -p "$DIR/src.partial"
	tar -xf "$TARBALL" -C "$DIR/src.partial" --strip-components=1
	touch "$DIR/src.partial/.cpurng-unpacked"
	mv "$DIR/src.partial" "$DIR/src"
fi
if [ "$VARIANT" = builtin ]; then
	# The in-tree build, as the top-level Kconfig describes it.  The link
	# is remade every time: the cached kernel must build this checkout,
	# not the one that first created the cache entry.
	ln -sfn "$SRC" "$DIR/src/crypto/cpurng"
	grep -q 'crypto/cpurng/Kconfig' "$DIR/src/crypto/Kconfig" ||
		echo 'source "crypto/cpurng/Kconfig"' >> "$DIR/src/crypto/Kconfig"
	grep -q '^obj-y += cpurng/' "$DIR/src/crypto/Makefile" ||
		echo 'obj-y += cpurng/' >> "$DIR/src/crypto/Makefile"
fi

kmake() {
	make -s -C "$DIR/src" O="$DIR/build" ARCH=x86_64 "$@"
}

if [ ! -f "$DIR/build/.config" ]; then
	log "configuring: tinyconfig + $(echo $FRAGS | sed "s|$SRC/||g")"
	mkdir -p "$DIR/build"
	kmake tinyconfig >/dev/null
	"$DIR/src/scripts/kconfig/merge_config.sh" -m -O "$DIR/build" \
		"$DIR/build/.config" $FRAGS >/dev/null
	kmake olddefconfig >/dev/null
	# A fragment line Kconfig dropped (unmet dependency, typo) would
	# silently give a kernel without the checker we think we test with.
	# The last fragment to name a symbol wins, as in merge_config.sh.
	bad=0
	cat $FRAGS | grep -E '^(CONFIG_|# CONFIG_)' |
	awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s); last[s] = $0 }
	     END { for (s in last) print last[s] }' |
	while read -r line; do
		case "$line" in
		"# CONFIG_"*)
			sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$DIR/build/.config" ||
				{ log "$sym is set, fragment says not"; echo x; } ;;
		*)
			grep -qxF "$line" "$DIR/build/.config" ||
				{ log "fragment line '$line' did not survive olddefconfig"; echo x; } ;;
		esac
	done | grep -q x && bad=1
	if [ "$bad" = 1 ]; then
		mv "$DIR/build/.config" "$DIR/build/.config.rejected"
		exit 1
	fi
fi

log "building the $VARIANT kernel in $DIR (jobs $JOBS)"
kmake -j"$JOBS" bzImage modules
rm -rf "$DIR/mod"
kmake INSTALL_MOD_PATH="$DIR/mod" modules_install >/dev/null
touch "$DIR/done"
log "$VARIANT kernel ready in $(( $(date +%s) - start )) s"
echo "$DIR"
