#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test-writing rules of Documentation/testing.rst that a script can see.

Over the VM cases (tests/vm/cases/*):
  - a check must see the errors of the command it judges: no "2>/dev/null"
    and no "|| true" on a check line (use refused <error text> <command>
    for a command that must fail, which also names the expected reason);
  - a skip follows a probed prerequisite, never a failed action: "if !
    ACTION; then skip" and "ACTION || skip" are refused when ACTION starts
    with a command that changes the machine (modprobe, insmod, rmmod, a
    write, a mount, a reload).
Prints each offence as file:line: rule, and exits 1 if there is any.
Arguments: the files to read (default: every VM case).
"""

import glob
import os
import re
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACTIONS = ('modprobe', 'insmod', 'rmmod', 'reload', 'echo', 'printf',
           'mount', 'sysctl', 'load_seeded', 'kconsumer', 'drbg_unload')
ACTION_RE = re.compile(r'^\s*(\S+)')
SKIP_RE = re.compile(r'^\s*(skip|skip_all)\b')


def logical_lines(text):
    """(first line number, joined text) with continuation lines joined."""
    out = []
    buf, start = '', 0
    for n, line in enumerate(text.splitlines(), start=1):
        if not buf:
            start = n
        stripped = line.rstrip()
        if stripped.endswith('\\') or stripped.endswith('||') or \
                stripped.endswith('&&'):
            buf += stripped.rstrip('\\') + ' '
            continue
        out.append((start, buf + line))
        buf = ''
    if buf:
        out.append((start, buf))
    return out


def first_command(cond):
    m = ACTION_RE.match(cond)
    return m.group(1) if m else ''


def offences(path):
    with open(path) as f:
        lines = logical_lines(f.read())
    found = []
    for i, (n, line) in enumerate(lines):
        code = line.split(' #', 1)[0]
        if re.match(r'^\s*check\s', code) and \
                ('2>/dev/null' in code or '|| true' in code):
            found.append((n, 'a check hides the errors of what it judges '
                          '(2>/dev/null or || true)'))
        # ACTION || skip..., and if ! ACTION; then <next line> skip
        m = re.match(r'^\s*(.*?)\|\|\s*(skip|skip_all)\b', code)
        if not m and i + 1 < len(lines) and SKIP_RE.match(lines[i + 1][1]):
            m = re.match(r'^\s*(?:el)?if\s+!\s*(.*?);\s*then\s*$', code)
        action = first_command(m.group(1)) if m else ''
        if action in ACTIONS:
            found.append((n, f'skip after a failed action ({action}); '
                          'probe instead'))
    return found


def main(paths):
    status = 0
    for path in paths or sorted(glob.glob(os.path.join(SRC,
                                                      'tests/vm/cases/*'))):
        for n, why in offences(path):
            print(f'{os.path.relpath(path, SRC)}:{n}: {why}')
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
