# SPDX-License-Identifier: GPL-2.0
"""Boot one test group in QEMU and turn what it left behind into KTAP.

Verdicts come from the second serial port (results file) only.  The
console is read for one purpose: finding what must fail the run even when
every case said "ok" (WARN, oops, BUG, lockdep, sanitizer reports, an
unexpected panic), and matching the message of a panic a group expects.
"""

import os
import re
import shlex
import subprocess
import time
from dataclasses import dataclass, field

from ktap import Counts, count_lines

# Console lines that fail a run.  A WARN also panics (panic_on_warn=1).
PROBLEM_PATTERNS = [
    r'WARNING: CPU: \d+ PID: ',
    r'\bBUG: ',
    r'\bOops\b',
    r'general protection fault',
    r'Kernel panic - not syncing',
    r'Call Trace:',
    r'\bUBSAN: ',
    r'\bKASAN: ',
    r'kmemleak: .*unreferenced',
    r'unreferenced object 0x',
    r'new suspected memory leak',
    r'INFO: task .* blocked for more than',
    r'rcu: INFO: .* detected stalls',
    r'watchdog: BUG: soft lockup',
    r'possible circular locking dependency',
    r'inconsistent lock state',
]
PROBLEM_RE = re.compile('|'.join(f'(?:{p})' for p in PROBLEM_PATTERNS))


@dataclass(frozen=True)
class Report:
    """A multi-line console report, from its first line to its last."""
    start: str          # regex of the first line
    last: str = ''      # regex of the last line; '' = while lines are indented
    require: str = ''   # regex a line of the report must match to be this one
    one_line: bool = False


# Reports a group may declare expected: "known_splats" lets them pass and
# lists each in the results; "expect_reports" also fails the group if one
# never appears (positive controls of the debug kernel's checkers).  A
# report that starts like one of these but lacks its required line is
# scanned as usual.
KNOWN_SPLATS = {
    # An injected allocation failure: the allocator's warning and its stack.
    'alloc-failure': Report(r'(vmalloc error|page allocation failure): ',
                            r'</TASK>'),
    # Linux 6.1's crypto manager WARNs when its own allocation for a
    # self-test thread fails (crypto/api.c, crypto_wait_for_test); the
    # algorithm then registers untested.  Stock behaviour, not ours.
    'cryptomgr-test-alloc': Report(r'WARNING: CPU: \d+ PID: \d+ at crypto/api\.c:\d+ '
                                   r'crypto_wait_for_test', r'---\[ end trace'),
    # The deliberate bugs of tests/modules/cpurng_test_detectors.c.
    'kmemleak-control': Report(r'^unreferenced object 0x', '',
                               r'cpurng-test-leak|detectors_leak'),
    # kmemleak's console notice after a scan that found the leaks above.
    'kmemleak-control-notice': Report(r'kmemleak: \d+ new suspected memory leaks',
                                      one_line=True),
    'kasan-control': Report(r'BUG: KASAN: slab-out-of-bounds in detectors_oob_read',
                            r'={40,}'),
    'ubsan-control': Report(r'UBSAN: array-index-out-of-bounds in .*cpurng_test_detectors\.c',
                            r'={40,}'),
    'lockdep-control': Report(r'WARNING: possible circular locking dependency detected',
                              r'</TASK>', r'detectors_lock_[ab]'),
}
PANIC_RE = re.compile(r'Kernel panic - not syncing: (.*)')
DONE_MARK = '# cpurng-vm-done'
EXPECT_RE = re.compile(r'^# expect-panic (\d+) (\S+)')

# The guest writes its KTAP header within seconds of boot; if nothing has
# arrived after this long, it never will (no /init, a crash during boot).
STARTUP_TIMEOUT = 120

BASE_CMDLINE = ('console=ttyS0 panic=-1 panic_on_warn=1 oops=panic '
                'loglevel=6 printk.time=1')


# Two vCPUs on one host thread.  Patching live kernel text (attaching a
# tracepoint probe, flipping a static key) under QEMU 7.2's multi-threaded
# TCG can stall or crash the guest (an int3 Oops: a vCPU executes a stale
# translation of text another vCPU just patched; group
# qemu-mttcg-text-poke).  Our collector patches text at load, so every VM
# runs single-threaded TCG unless its group asks for threads (qemu = -smp
# 2) to measure concurrency, and then keeps the collector out or accepts
# the risk.
DEFAULT_QEMU = '-smp 2 -accel tcg,thread=single'


@dataclass
class Group:
    name: str
    cases: list
    description: str = ''
    cmdline: str = ''
    qemu: str = DEFAULT_QEMU
    timeout: int = 600
    expect_panic: str = ''
    # The suites it belongs to ("suite = check core": both).
    suites: tuple = ('check',)
    variant: str = 'testing'
    memory: str = '1024'
    disk: int = 0       # MiB of virtio disk; the guest leaves a tar there
    # '' boots KIMAGE; another name boots KIMAGE_<NAME> with KMODDIR_<NAME>
    # and KVER_<NAME> (our kernel with cpurng built in: kernel = builtin).
    kernel: str = ''
    known_splats: tuple = ()    # names from KNOWN_SPLATS
    expect_reports: tuple = ()  # names from KNOWN_SPLATS that must appear
    # It measures time (benchmarks, evidence): no other VM runs beside it.
    alone: bool = False
    # Runs only on kernels that build this module in (skipped elsewhere).
    needs_builtin: str = ''
    # Runs only on kernels whose configuration sets this option to y
    # (PREEMPT_RT), and is skipped elsewhere.
    needs_config: str = ''
    # Boots without the kernel's initcall_blacklist of the built-in stock
    # jitter RNG, to test what happens when it holds the name.
    stock_jitter_builtin: bool = False
    # Snapshot groups (snapshot.py): the kinds of clone to restore ("new"
    # or "same" VM generation ID), how their outputs must compare, and how
    # many of our modules log a VM fork.
    snapshot: tuple = ()
    clone_compare: tuple = ()
    fork_notices: int = 0

    @property
    def host_threads(self):
        """Host CPUs the VM keeps busy: one under single-threaded TCG
        (thread=single, or -icount, which implies it), else one per vCPU."""
        if re.search(r'thread=single|-icount', self.qemu):
            return 1
        smp = re.search(r'-smp\s+(?:cpus=)?(\d+)', self.qemu)
        return int(smp.group(1)) if smp else 1


def load_group(path):
    settings = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            key, _, value = line.partition('=')
            settings[key.strip()] = value.strip()
    g = Group(name=os.path.basename(path)[:-len('.group')],
              cases=settings.get('cases', '').split())
    for key in ('description', 'cmdline', 'qemu', 'expect_panic',
                'variant', 'memory', 'kernel', 'needs_builtin', 'needs_config'):
        if key in settings:
            setattr(g, key, settings[key])
    if 'suite' in settings:
        g.suites = tuple(settings['suite'].split())
        if not g.suites:
            raise ValueError(f'{path}: suite names no suite')
    for key in ('alone', 'stock_jitter_builtin'):
        if key in settings:
            if settings[key] not in ('yes', 'no'):
                raise ValueError(f'{path}: {key} must be yes or no')
            setattr(g, key, settings[key] == 'yes')
    for key in ('known_splats', 'expect_reports'):
        if key in settings:
            setattr(g, key, tuple(settings[key].split()))
            unknown = set(getattr(g, key)) - set(KNOWN_SPLATS)
            if unknown:
                raise ValueError(f'{path}: unknown {key} {sorted(unknown)}')
    for key in ('timeout', 'disk', 'fork_notices'):
        if key in settings:
            setattr(g, key, int(settings[key]))
    if 'snapshot' in settings:
        g.snapshot = tuple(settings['snapshot'].split())
        if not g.snapshot or set(g.snapshot) - {'new', 'same'}:
            raise ValueError(f'{path}: snapshot must list new and same clones')
    if 'clone_compare' in settings:
        from snapshot import parse_compare  # snapshot imports this module
        g.clone_compare = tuple(parse_compare(settings['clone_compare']))
    return g


def load_groups(groups_dir):
    return sorted((load_group(os.path.join(groups_dir, f))
                   for f in os.listdir(groups_dir) if f.endswith('.group')),
                  key=lambda g: g.name)


def qemu_command(kimage, initrd, group_name, cmdline='',
                 qemu_extra=DEFAULT_QEMU,
                 memory='1024', console='file', results=None):
    cmd = ['qemu-system-x86_64', '-nodefaults', '-no-reboot', '-nographic',
           '-m', memory, '-cpu', 'max', '-nic', 'none',
           '-kernel', kimage, '-initrd', initrd,
           '-append', f'{BASE_CMDLINE} cpurng_group={group_name} {cmdline}'.strip()]
    cmd += ['-serial', console]
    if results:
        cmd += ['-serial', f'file:{results}']
    cmd += shlex.split(qemu_extra)
    return cmd


@dataclass
class Outcome:
    lines: list = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    seconds: float = 0.0


def _report_end(report, lines, i):
    """Index just past the report whose first line is lines[i]."""
    if report.one_line:
        return i + 1
    for j in range(i + 1, len(lines)):
        if report.last:
            if re.search(report.last, lines[j]):
                return j + 1
        elif not lines[j][:1].isspace():
            return j
    return len(lines)


def console_scan(console, until=None, known=()):
    """(problem lines, [(report name, its first line)] of known reports)."""
    lines = console.splitlines()
    if until is not None:
        lines = lines[:until]
    problems, skipped = [], []
    i = 0
    while i < len(lines):
        name = next((k for k in known
                     if re.search(KNOWN_SPLATS[k].start, lines[i])), None)
        if name is None:
            if PROBLEM_RE.search(lines[i]):
                problems.append(lines[i].strip())
            i += 1
            continue
        report = KNOWN_SPLATS[name]
        j = _report_end(report, lines, i)
        span = lines[i:j]
        if report.require and not any(re.search(report.require, l)
                                      for l in span):
            # Not the expected report: its first line is a problem like
            # any other, and scanning resumes right after it.
            if PROBLEM_RE.search(lines[i]):
                problems.append(lines[i].strip())
            i += 1
            continue
        skipped.append((name, lines[i].strip()))
        i = j
    return problems, skipped


def analyse(group, results_text, console, timed_out, exit_status):
    """KTAP lines for a finished group run."""
    lines = [l.rstrip('\r') for l in results_text.splitlines()]
    guest = [l for l in lines if l.strip()]
    done = DONE_MARK in guest
    plan_n = 0
    for l in guest:
        m = re.match(r'^1\.\.(\d+)$', l)
        if m:
            plan_n = int(m.group(1))
            break

    expect = None
    for l in guest:
        m = EXPECT_RE.match(l)
        if m:
            expect = (int(m.group(1)), m.group(2))

    console_lines = console.splitlines()
    panic_at, panic_msg = None, None
    for i, l in enumerate(console_lines):
        m = PANIC_RE.search(l)
        if m:
            panic_at, panic_msg = i, m.group(1).strip()
            break

    known = tuple(dict.fromkeys(group.known_splats + group.expect_reports))
    extra = []
    if group.expect_panic:
        number, case = expect if expect else (plan_n, group.cases[-1])
        if expect is None:
            extra.append(f'not ok {number} {case} # the guest never reached the case that should panic')
        elif panic_msg is None:
            extra.append(f'not ok {number} {case} # expected a panic matching /{group.expect_panic}/, none happened')
        elif not re.search(group.expect_panic, panic_msg):
            extra.append(f'not ok {number} {case} # panicked, but not as expected: "{panic_msg}"')
        else:
            extra.append(f'ok {number} {case} # panicked as expected: "{panic_msg}"')
        problems, skipped = console_scan(console, panic_at, known)
    else:
        problems, skipped = console_scan(console, None, known)

    checks = []
    firsts = [first for _, first in skipped]
    allowed = [f'# known report ({len(firsts)} in all): {s}'
               for s in sorted(set(firsts))[:10]]
    if problems:
        checks.append(('not ok', 'console_clean',
                       allowed + [f'# console: {p}' for p in problems[:20]]))
    else:
        checks.append(('ok', 'console_clean', allowed))
    if group.expect_reports:
        seen = {name for name, _ in skipped}
        missing = [n for n in group.expect_reports if n not in seen]
        checks.append(('not ok' if missing else 'ok', 'expected_reports',
                       [f'# expected report never appeared: {n}' for n in missing] +
                       [f'# expected report seen: {n}' for n in group.expect_reports
                        if n in seen]))
    complete = done or (group.expect_panic and expect is not None)
    if timed_out:
        checks.append(('not ok', 'vm_finished', [f'# timed out after {group.timeout}s']))
    elif not complete:
        checks.append(('not ok', 'vm_finished',
                       [f'# results incomplete: guest stopped early (qemu exit {exit_status})']))
    else:
        checks.append(('ok', 'vm_finished', []))

    # Re-plan: the guest's cases plus the harness's own checks.  Inside a
    # case that panicked as expected, what it planned after the panic can
    # never arrive: drop its nested plans, keep the results it did report.
    out, planned, in_panic_case = [], False, False
    for l in guest:
        if not planned and re.match(r'^1\.\.\d+$', l):
            l = f'1..{plan_n + len(checks)}'
            planned = True
        if EXPECT_RE.match(l):
            in_panic_case = True
        elif in_panic_case and re.match(r'^\s+1\.\.\d+$', l):
            continue
        out.append(l)
    if not planned:
        out = ['KTAP version 1', f'1..{len(checks)}'] + out
        plan_n = 0
    out += extra
    for i, (status, name, diags) in enumerate(checks, start=plan_n + 1):
        out += diags
        out.append(f'{status} {i} {name}')
    return out


def unpack_disk(disk, dest, lines):
    """Extract the tar the guest wrote to its disk; a failure is reported
    as a failed check of the group."""
    import tarfile
    try:
        with tarfile.open(disk) as tar:
            tar.extractall(dest)
            names = tar.getnames()
        ok, diag = bool(names), f'# files from the guest: {len(names)}'
    except (tarfile.TarError, OSError) as e:
        ok, diag = False, f'# no files from the guest: {e}'
    os.unlink(disk)
    plan = next((i for i, l in enumerate(lines) if re.match(r'^1\.\.\d+$', l)),
                None)
    if plan is None:
        return lines
    n = int(lines[plan][3:]) + 1
    lines[plan] = f'1..{n}'
    return lines + [diag, f'{"ok" if ok else "not ok"} {n} files_from_guest']


def read_text(path):
    """What a VM left in @path so far ('' if it wrote nothing)."""
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''


def run_group(group, kimage, initrd, outdir, log=print, cmdline=None):
    os.makedirs(outdir, exist_ok=True)
    console_path = os.path.join(outdir, 'console.log')
    results_path = os.path.join(outdir, 'results.ktap')
    for p in (console_path, results_path):
        if os.path.exists(p):
            os.unlink(p)
    cmd = qemu_command(kimage, initrd, group.name,
                       group.cmdline if cmdline is None else cmdline, group.qemu,
                       group.memory, f'file:{console_path}', results_path)
    disk = os.path.join(outdir, 'disk.img')
    if group.disk:
        with open(disk, 'wb') as f:
            f.truncate(group.disk << 20)
        cmd += ['-drive', f'file={disk},if=virtio,format=raw']
    with open(os.path.join(outdir, 'qemu.cmd'), 'w') as f:
        f.write(shlex.join(cmd) + '\n')

    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(outdir, 'qemu.stderr'), 'w'))
    timed_out = False
    limit = group.timeout
    while True:
        try:
            status = proc.wait(timeout=1)
            break
        except subprocess.TimeoutExpired:
            elapsed = time.monotonic() - start
            started = os.path.exists(results_path) and \
                os.path.getsize(results_path) > 0
            if elapsed > limit or (not started and elapsed > STARTUP_TIMEOUT):
                proc.kill()
                status = proc.wait()
                timed_out = True
                if not started:
                    log(f'# {group.name}: no results after {elapsed:.0f}s, guest never started')
                break
    seconds = time.monotonic() - start
    lines = analyse(group, read_text(results_path), read_text(console_path),
                    timed_out, status)
    if group.disk:
        lines = unpack_disk(disk, os.path.join(outdir, 'files'), lines)
    return Outcome(lines=lines, counts=count_lines(lines), seconds=seconds)
