#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host checks of build properties, in KTAP.

Run after "make modules-release modules-testing" (make check does).
"""

import os
import re
import subprocess
import sys
import tempfile

from ktap import finish, report

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(SRC, 'build'))
# Our modules for the kernel of this run (make passes KMODULES).
KMODULES = os.environ.get('KMODULES', os.path.join(BUILD, '6.1'))
RELEASE_KO = os.path.join(KMODULES, 'release/crypto/cpurng_jitter.ko')
TESTING_KO = os.path.join(KMODULES, 'testing/crypto/cpurng_jitter.ko')



def last_opt_level(cmd_file):
    """The -O flag that wins (the last one) in a Kbuild .cmd file."""
    with open(cmd_file) as f:
        text = f.read()
    levels = re.findall(r'(?<!\S)-O([0-3sz]|fast)?(?!\S)', text)
    return levels[-1] if levels else None


def noise_core_refuses_optimisation():
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run(['cc', '-O2', '-c', '-o', os.path.join(tmp, 'n.o'),
                            os.path.join(SRC, 'crypto/jitter_noise.c')],
                           capture_output=True, text=True)
    report(p.returncode != 0 and 'must be built with -O0' in p.stderr,
           'noise_core_build_fails_when_optimised',
           p.stderr.strip().splitlines()[-1:] if p.stderr else None)


def kernel_objects_optimisation():
    d = os.path.join(KMODULES, 'release/crypto')
    noise = last_opt_level(os.path.join(d, '.jitter_noise.o.cmd'))
    report(noise == '0', 'kernel_noise_core_built_at_O0', f'-O{noise}')
    others = {f: last_opt_level(os.path.join(d, f'.{f}.o.cmd'))
              for f in ('jitter_health', 'jitter_timer', 'jitter_pool',
                        'jitter_instance', 'jitter_kcapi')}
    report(all(v == '2' for v in others.values()),
           'kernel_glue_timer_health_pool_optimised', str(others))


def modinfo_params(ko):
    p = subprocess.run(['modinfo', '-F', 'parm', ko], capture_output=True,
                       text=True)
    if p.returncode:
        return None
    return [l.split(':')[0] for l in p.stdout.splitlines() if ':' in l]


def test_hooks_only_in_testing_build():
    release, testing = modinfo_params(RELEASE_KO), modinfo_params(TESTING_KO)
    report(testing is not None and
           {'test_force', 'test_fips', 'test_coarse_timer'} <= set(testing),
           'testing_build_has_test_hooks', str(testing))
    report(release is not None and 'osr' in release and
           not [p for p in release if p.startswith('test_')],
           'release_build_has_no_test_hooks', str(release))


def tools_documented():
    """Each tool has a man page beside it, --help works, and every long
    option of the source appears in both the help text and the man page."""
    import glob
    for src in sorted(glob.glob(os.path.join(SRC, 'tools', '*.c'))):
        name = os.path.basename(src)[:-2]
        exe = os.path.join(BUILD, 'tools', name)
        man = os.path.join(SRC, 'tools', name + '.1')
        with open(src) as f:
            opts = set(re.findall(r'\{ "([a-z-]+)", (?:no|required)_argument', f.read()))
        help_text = subprocess.run([exe, '--help'], capture_output=True,
                                   text=True)
        # roff escapes hyphens ("\-\-seed\-file"): compare without them
        page = open(man).read().replace('\\', '') if os.path.exists(man) else ''
        missing = sorted(o for o in opts
                         if f'--{o}' not in help_text.stdout or
                         f'--{o}' not in page)
        report(help_text.returncode == 0 and page and opts and not missing,
               f'{name}_man_page_and_help_cover_every_option',
               f'undocumented: {missing}')


def main():
    tools_documented()
    noise_core_refuses_optimisation()
    kernel_objects_optimisation()
    test_hooks_only_in_testing_build()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
