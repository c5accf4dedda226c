#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every packaged make target finds what `deps` installed, the first time.

On a fresh machine the kernels appear only while `make check` (or run,
bench, ...) is already running: its `deps` step installs the packages and
then prepares each kernel (scripts/debian-kernels.sh prepare: its build
root and headers), writing what each label points to for the sub-make.
Each target here runs with stand-ins for both (DEPS=, DEBIAN_KERNELS_SH=):
the kernel script creates fake headers under an empty HEADERS_ROOT and
names them, without a build root, as preparing would.  The fake headers'
Makefile stops the build at once and prints the KDIR it was reached with.
A target passes when the kernel build was reached with the headers that
deps prepared, not with the empty values found before.
"""

import os
import subprocess
import sys
import tempfile

from ktap import finish, report

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKE_KVER = '6.1.999-1-amd64'
MARK = 'fake-kbuild-reached'
# Targets whose first step after deps is a module build (lint and
# check-debug start from linux-source instead, through the same do- rule).
TARGETS = ('run', 'shell', 'check', 'check-group', 'check-kernels', 'bench',
           'evidence')

FAKE_DEPS = '''#!/bin/sh
exit 0
'''
# "prepare LABEL...": fake headers, and the make variables of each label.
FAKE_KERNELS = '''#!/bin/sh
set -e
[ "$1" = prepare ] || exit 2
shift
d={root}/linux-headers-{kver}
mkdir -p $d/include/generated
echo '#define UTS_RELEASE "{kver}"' > $d/include/generated/utsrelease.h
printf 'modules:\\n\\t@echo "{mark} KDIR=$(CURDIR) M=$(M)"; exit 3\\n' > $d/Makefile
for label in "$@"; do
	s=$(echo "$label" | tr 'a-z.-' 'A-Z__')
	echo "KVER_$s := {kver}"
	echo "KROOT_$s :="
	echo "KSUITE_$s :="
done
'''


def first_invocation(target):
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, 'usr-src')
        os.makedirs(root)
        deps = os.path.join(tmp, 'deps.sh')
        kernels = os.path.join(tmp, 'debian-kernels.sh')
        for path, text in ((deps, FAKE_DEPS), (kernels, FAKE_KERNELS)):
            with open(path, 'w') as f:
                f.write(text.format(root=root, kver=FAKE_KVER, mark=MARK))
            os.chmod(path, 0o755)
        env = {k: v for k, v in os.environ.items()
               if k not in ('KDIR', 'KVER', 'KIMAGE', 'KMODDIR', 'MAKEFLAGS',
                            'MAKELEVEL', 'MFLAGS')}
        p = subprocess.run(['make', '-C', SRC, '--no-print-directory', target,
                            f'DEPS={deps}', f'DEBIAN_KERNELS_SH={kernels}',
                            f'HEADERS_ROOT={root}',
                            f'BUILD={os.path.join(tmp, "build")}'],
                           env=env, capture_output=True, text=True, timeout=120)
        out = p.stdout + p.stderr
        want = f'{MARK} KDIR={root}/linux-headers-{FAKE_KVER}'
        ok = want in out and 'no kernel headers found' not in out
        last = [l for l in out.splitlines() if l.strip()][-3:]
        report(ok, f'make_{target.replace("-", "_")}_first_invocation_finds_new_headers',
               f'expected "{want}"; got: {last}')


def main():
    for t in TARGETS:
        first_invocation(t)
    return finish()


if __name__ == '__main__':
    sys.exit(main())
