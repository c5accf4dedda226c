#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Strip debug info from modules in place, as Kbuild's INSTALL_MOD_STRIP=1
# and DKMS do (a 2 MB module takes tens of ms more to load under TCG).
# A signed module is left alone: its signature is appended after the ELF
# image, objcopy would drop it, and a kernel that enforces signatures (our
# own FIPS kernels) would then refuse or, in FIPS mode, panic.
# scripts/sign-modules.sh strips before it signs.
# Usage: scripts/strip-modules.sh MODULE.ko...
set -eu

for ko in "$@"; do
	"$(dirname "$0")/module-signed.sh" "$ko" ||
		objcopy --strip-debug "$ko"
done
