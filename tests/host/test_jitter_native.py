#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpurng-jitter: the module's jitter RNG sources, run natively.

Output of the requested length, different on every run; the module's own
parameter bounds and messages; a benchmark line whose health counters
show the health tests ran.  KTAP.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap import finish, report  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(SRC, 'build'))
JITTER = os.path.join(BUILD, 'tools', 'cpurng-jitter')


def run(*args):
    return subprocess.run([JITTER, *args], capture_output=True, timeout=120)


def default_osr():
    """The module's default osr, from the header both builds use."""
    with open(os.path.join(SRC, 'include/cpurng/jitter.h')) as f:
        m = re.search(r'#define CPURNG_JENT_DEFAULT_OSR\s+(\d+)', f.read())
    return int(m.group(1)) if m else None


def main():
    with tempfile.TemporaryDirectory() as d:
        outs = []
        for i in range(2):
            path = os.path.join(d, f'out{i}')
            p = run('-n', '10000', '-o', path)
            outs.append(open(path, 'rb').read() if p.returncode == 0 else b'')
        report(all(len(o) == 10000 for o in outs), 'writes_the_bytes_asked_for',
               f'lengths {[len(o) for o in outs]}')
        report(outs[0] != outs[1] and len(set(outs[0][i:i + 32] for i in
                                               range(0, 10000 - 32, 32))) > 300,
               'runs_and_blocks_differ')
    p = run('--hex', '-n', '48')
    line = p.stdout.decode().strip()
    report(p.returncode == 0 and len(line) == 96 and
           all(c in '0123456789abcdef' for c in line), 'hex_output', line)
    for args, msg in ((('--osr', '9'), 'osr=9 is out of range [1, 8]'),
                      (('--mem-size', '1000'), 'mem_size=1000 is not a power of two'),
                      (('--fold-loops', '0'), 'fold_loops=0 is out of range'),
                      (('--bytes', 'x'), 'not a number')):
        p = run(*args, '--hex')
        report(p.returncode == 2 and msg in p.stderr.decode(),
               f'refuses_{args[0][2:].replace("-", "_")}_{args[1]}',
               p.stderr.decode().strip())
    p = run('--bench', '1')
    try:
        b = json.loads(p.stdout)
    except ValueError:
        b = {}
    report(p.returncode == 0 and b.get('bytes', 0) > 0 and
           b.get('samples_per_s', 0) > 0 and b.get('startup_ms', -1) >= 0 and
           b.get('osr') == default_osr() and
           b.get('intermittent_failures') == 0,
           'bench_reports_rate_and_startup_with_module_defaults',
           p.stdout.decode().strip() or p.stderr.decode().strip())
    return finish()


if __name__ == '__main__':
    sys.exit(main())
