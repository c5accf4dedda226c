#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, natively: the jitter RNG's start-up time and output rate.

cpurng-jitter runs the module's own generator sources in userspace with
the module's defaults, on the real cycle counter of this machine, which a
TCG guest's emulated clock cannot stand for.  RUNS runs of SECONDS each;
median, minimum and maximum.  KTAP; it fails only if a run fails.
"""

import json
import os
import platform
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap import finish, report  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(SRC, 'build'))
JITTER = os.path.join(BUILD, 'tools', 'cpurng-jitter')
RUNS = 5
SECONDS = 3


def cpu_model():
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def spread(values, unit, fmt='{:.1f}'):
    return (f'median {fmt.format(statistics.median(values))} {unit} '
            f'(min {fmt.format(min(values))}, max {fmt.format(max(values))})')


def main():
    runs, errors = [], []
    for _ in range(RUNS):
        p = subprocess.run([JITTER, '--bench', str(SECONDS)],
                           capture_output=True, text=True, timeout=SECONDS * 20)
        try:
            runs.append(json.loads(p.stdout))
        except ValueError:
            errors.append(p.stderr.strip() or f'exit {p.returncode}')
    print(f'# native, {cpu_model()}, {os.cpu_count()} CPUs; {RUNS} runs of '
          f'{SECONDS} s, module defaults (osr {runs[0]["osr"] if runs else "?"})')
    ok = len(runs) == RUNS
    if ok:
        rate = [r['bytes_per_s'] / 1024 for r in runs]
        start = [r['startup_ms'] for r in runs]
        samples = [r['samples_per_s'] / 1e6 for r in runs]
        print(f'# output rate: {spread(rate, "KiB/s")}')
        print(f'# start-up (instance + start-up test): {spread(start, "ms", "{:.2f}")}')
        print(f'# noise samples: {spread(samples, "M/s", "{:.2f}")}')
    report(ok, 'native_jitter_rate_and_startup', '; '.join(errors))
    return finish()


if __name__ == '__main__':
    sys.exit(main())
