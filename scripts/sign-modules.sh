#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Sign the modules built under DIR with the signing key of the kernel tree
# KDIR, when it has one (our own kernels from scripts/kernel.sh do; Debian's
# headers do not, and then this does nothing).  A module that already
# carries a signature is left alone, so rebuilding is idempotent.  Debug
# info is stripped first: stripping a signed module drops its signature.
# Usage: scripts/sign-modules.sh KDIR DIR
set -eu

KDIR=$1
DIR=$2
KEY=$KDIR/certs/signing_key.pem
CERT=$KDIR/certs/signing_key.x509
SIGN=$KDIR/scripts/sign-file

[ -f "$KEY" ] && [ -f "$CERT" ] && [ -x "$SIGN" ] || exit 0
find "$DIR" -name '*.ko' | while read -r ko; do
	"$(dirname "$0")/module-signed.sh" "$ko" && continue
	"$(dirname "$0")/strip-modules.sh" "$ko"
	"$SIGN" sha256 "$KEY" "$CERT" "$ko"
done
