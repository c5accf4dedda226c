# SPDX-License-Identifier: GPL-2.0
"""KTAP parsing and counting for the cpurng test harness.

A test program (host or guest) prints KTAP; the harness nests each program's
output under one result line of its own.  Counting is done on the leaves: a
case with subtests counts its subtests, a case without counts itself.  A
case reported "not ok" whose subtests all passed (it crashed, timed out or
exited non-zero after its last subtest) adds one failure of its own, and a
plan that announced more results than arrived adds one failure per lost
result.  That holds for a case that planned results and reported none,
whatever its exit status: only a case reported skipped as a whole may end
before its first result.
"""

import re
from dataclasses import dataclass, field

RESULT_RE = re.compile(r'^(not )?ok (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$')
PLAN_RE = re.compile(r'^1\.\.(\d+)')


@dataclass
class Result:
    ok: bool
    number: int
    name: str
    directive: str = ''
    children: list = field(default_factory=list)
    plan: int = -1

    @property
    def skipped(self):
        return self.directive.upper().startswith('SKIP')


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def __str__(self):
        return (f'{self.passed} passed, {self.failed} failed, '
                f'{self.skipped} skipped')


def _indent(line):
    return len(line) - len(line.lstrip(' '))


def parse(lines, level=0):
    """Parse KTAP lines at an indentation level into (plan, [Result])."""
    results = []
    plan = -1
    pending = []          # more-indented lines preceding the next result
    prefix = ' ' * level
    for raw in lines:
        line = raw.rstrip('\r\n')
        if not line.strip():
            continue
        if _indent(line) > level:
            pending.append(line)
            continue
        if _indent(line) < level:
            continue
        body = line[len(prefix):]
        m = RESULT_RE.match(body)
        if m:
            r = Result(ok=not m.group(1), number=int(m.group(2)),
                       name=m.group(3).strip(), directive=m.group(4) or '')
            r.plan, r.children = parse(pending, level + 4)
            pending = []
            results.append(r)
            continue
        m = PLAN_RE.match(body)
        if m and plan < 0:
            plan = int(m.group(1))
    return plan, results


def count(plan, results):
    """Leaf counts for one level, including lost results."""
    c = Counts()
    for r in results:
        # A plan with no result under it is a case that ended early; it
        # counts its lost results unless the case was skipped as a whole.
        if r.children or (r.plan > 0 and not r.skipped):
            sub = count(r.plan, r.children)
            c.add(sub)
            if not r.ok and not sub.failed:
                c.failed += 1
        elif r.skipped:
            c.skipped += 1
        elif r.ok:
            c.passed += 1
        else:
            c.failed += 1
    if plan > len(results):
        c.failed += plan - len(results)
    return c


def count_lines(lines):
    plan, results = parse(lines)
    return count(plan, results)


def indent(lines, by=4):
    return [(' ' * by + l) if l.strip() else l for l in lines]
