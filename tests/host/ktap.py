# SPDX-License-Identifier: GPL-2.0
"""KTAP output for the host tests written in Python.

Each test module records its checks with report() and ends with
sys.exit(finish()): one KTAP plan, a diagnostic line before every failed
check, exit status 1 if any check failed.
"""

results = []


def report(ok, name, diag=None):
    results.append((bool(ok), name, diag))


def finish():
    print('KTAP version 1')
    print(f'1..{len(results)}')
    for i, (ok, name, diag) in enumerate(results, start=1):
        if diag and not ok:
            print(f'# {diag}')
        print(f'{"ok" if ok else "not ok"} {i} {name}')
    return 0 if all(r[0] for r in results) else 1
