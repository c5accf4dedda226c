#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Exit 0 when the module carries an appended signature: the magic string
# and a newline at its very end (the kernel's module signature trailer).
# Usage: scripts/module-signed.sh MODULE.ko
[ "$(tail -c 28 "$1" | head -c 27)" = '~Module signature appended~' ]
