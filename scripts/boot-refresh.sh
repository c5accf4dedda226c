#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# After make install, uninstall, dkms-install or dkms-uninstall on this
# machine: the module index of kernel KVER, its initramfs (where the hook
# loads our modules early, or no longer), and GRUB's kernel parameters
# (config/grub.cfg).  Each step runs only where the system has it.
# Usage: scripts/boot-refresh.sh KVER
set -eu
KVER=$1

depmod -a "$KVER"
if command -v update-initramfs >/dev/null 2>&1 && [ -e "/boot/initrd.img-$KVER" ]; then
	update-initramfs -u -k "$KVER"
fi
if command -v update-grub >/dev/null 2>&1 && [ -e /boot/grub/grub.cfg ]; then
	update-grub
fi
