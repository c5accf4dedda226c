#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpurng test driver.

  main.py check [--suite NAME]... [--group NAME]... [--host-test EXE]...
      Run host test programs and VM groups; print KTAP and the line
      "check: N passed, N failed, N skipped"; exit 1 on any failure.
  main.py demo | shell
      Boot the VM with the release modules and run the demo, or a shell,
      on the terminal.  demo exits 1 unless the guest reports that the
      demo ran to its end and succeeded.

Build products are found under --build (default: ./build).
"""

import argparse
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import initramfs  # noqa: E402
import ktap  # noqa: E402
import vm  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TESTS = os.path.join(SRC, 'tests')


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f'error: {name} is not set (run through make)')
    return value


def modules(build, variant):
    if variant == 'none':   # cpurng is built into the kernel
        return []
    kos = sorted(glob.glob(os.path.join(build, variant, 'crypto', '*.ko')))
    if variant == 'testing':
        kos += sorted(glob.glob(os.path.join(build, variant, 'tests',
                                             'modules', '*.ko')))
    if not kos:
        sys.exit(f'error: no {variant} modules under {build}; build them first')
    return kos


def guest_bins(build):
    return sorted(glob.glob(os.path.join(build, 'guest', 'bin', '*')) +
                  glob.glob(os.path.join(build, 'tools', '*')))


def kernel_env(kernel, name):
    """KIMAGE, KMODDIR or KVER of the default kernel or of a named one."""
    return env(f'{name}_{kernel.upper()}' if kernel else name)


def make_initramfs(build, variant, kernel=''):
    suffix = f'-{kernel}' if kernel else ''
    out = os.path.join(build, f'initramfs-{variant}{suffix}.cpio')
    initramfs.build(out, kernel_env(kernel, 'KVER'),
                    kernel_env(kernel, 'KMODDIR'), modules(build, variant),
                    guest_bins(build), TESTS)
    return out


class Report:
    """Top-level KTAP stream: one result per suite, leaves counted."""

    def __init__(self, planned, path):
        self.number = 0
        self.counts = ktap.Counts()
        self.file = open(path, 'w')
        self.emit(['KTAP version 1', f'1..{planned}'])

    def emit(self, lines):
        for line in lines:
            print(line)
            self.file.write(line + '\n')
        sys.stdout.flush()

    def suite(self, name, lines, seconds):
        self.number += 1
        counts = ktap.count_lines(lines)
        self.counts.add(counts)
        self.emit(ktap.indent(lines))
        self.emit([f'# {name}: {counts} in {seconds:.1f}s'])
        status = 'not ok' if counts.failed else 'ok'
        self.emit([f'{status} {self.number} {name}'])

    def finish(self):
        self.emit([f'check: {self.counts}'])
        self.file.close()
        return 1 if self.counts.failed or not self.number else 0


def run_host_test(exe, timeout=600):
    start = time.monotonic()
    cmd = [sys.executable, exe] if exe.endswith('.py') else [exe]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
        lines = p.stdout.splitlines()
        if p.returncode not in (0, 4):
            lines += [f'# {l}' for l in p.stderr.splitlines()[-20:]]
            lines += [f'# exit status {p.returncode}']
            # A failing exit with no failed case is a failure of its own.
            if not ktap.count_lines(lines).failed:
                lines += ['not ok 0 exit_status']
    except subprocess.TimeoutExpired:
        lines = [f'not ok 1 {os.path.basename(exe)} # TIMEOUT after {timeout}s']
    return lines, time.monotonic() - start


def cmd_check(args):
    suites = args.suite or ['check']
    groups = [g for g in vm.load_groups(os.path.join(TESTS, 'vm', 'groups'))
              if (g.name in args.group if args.group else g.suite in suites)]
    # Slow kernels (KASAN, lockdep) stretch every timeout, in the host's
    # watchdog and in the guest's per-case limit alike.
    scale = int(os.environ.get('CPURNG_TIMEOUT_SCALE', '1'))
    # Kernel parameters for every group of this run (our own kernels).
    extra = os.environ.get('CPURNG_KERNEL_CMDLINE', '')
    for g in groups:
        g.timeout *= scale
        if scale != 1:
            g.cmdline = f'{g.cmdline} cpurng_timeout_scale={scale}'.strip()
        g.cmdline = f'{extra} {g.cmdline}'.strip()
    if args.group and len(groups) != len(args.group):
        known = {g.name for g in vm.load_groups(os.path.join(TESTS, 'vm', 'groups'))}
        sys.exit(f'error: unknown group(s): {sorted(set(args.group) - known)}')
    out = os.path.join(args.build,
                       '-'.join(suites) if not args.group else 'check')
    os.makedirs(out, exist_ok=True)
    report = Report(len(args.host_test) + len(groups),
                    os.path.join(out, 'results.ktap'))

    for exe in args.host_test:
        lines, seconds = run_host_test(exe)
        report.suite('host_' + os.path.basename(exe).split('.')[0], lines,
                     seconds)

    initrds = {}
    for g in groups:
        key = (g.variant, g.kernel)
        if key not in initrds:
            initrds[key] = make_initramfs(args.build, g.variant, g.kernel)
        outcome = vm.run_group(g, kernel_env(g.kernel, 'KIMAGE'), initrds[key],
                               os.path.join(out, g.name))
        report.suite('vm_' + g.name, outcome.lines, outcome.seconds)
        if outcome.counts.failed:
            report.emit([f'# logs: {os.path.join(out, g.name)}'])
    return report.finish()


# The demo takes about 10 s of guest time under TCG; past this it has hung.
DEMO_TIMEOUT = 300


def terminal_vm(args, group, **kwargs):
    """The QEMU command of a release VM whose console is this terminal."""
    return vm.qemu_command(env('KIMAGE'), make_initramfs(args.build, 'release'),
                           group, qemu_extra='-smp 2', console='mon:stdio',
                           **kwargs)


def cmd_demo(args):
    """make run: the demo on the terminal, its verdict from the results port."""
    outdir = os.path.join(args.build, 'demo')
    os.makedirs(outdir, exist_ok=True)
    results = os.path.join(outdir, 'results')
    if os.path.exists(results):
        os.unlink(results)
    cmd = terminal_vm(args, 'demo', cmdline='quiet', results=results)
    start = time.monotonic()
    try:
        status = subprocess.call(cmd, timeout=DEMO_TIMEOUT)
    except subprocess.TimeoutExpired:
        status = None
    seconds = time.monotonic() - start
    text = open(results, errors='replace').read() \
        if os.path.exists(results) else ''
    problem = demo_problem(status, text)
    if problem:
        print(f'\nmake run: FAILED: {problem}', file=sys.stderr)
        return 1
    print(f'\nmake run: demo passed in {seconds:.0f}s')
    return 0


def demo_problem(status, results):
    """Why the demo failed, or None: qemu's status (None: timed out) and
    what the guest wrote to the results port."""
    verdict = [l for l in results.splitlines()
               if l.startswith('# cpurng-demo exit=')]
    if status is None:
        return f'the demo did not finish within {DEMO_TIMEOUT}s'
    if not verdict:
        return f'the guest stopped before the demo ended (qemu exit {status})'
    if verdict[-1] != '# cpurng-demo exit=0':
        return f'the demo failed ({verdict[-1][2:]})'
    return None


def cmd_shell(args):
    return subprocess.call(terminal_vm(args, 'shell'))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('command', choices=['check', 'demo', 'shell'])
    p.add_argument('--build', default=os.path.join(SRC, 'build'))
    p.add_argument('--suite', action='append', default=[],
                   help='suite(s) of VM groups to run (default: check)')
    p.add_argument('--group', action='append', default=[])
    p.add_argument('--host-test', action='append', default=[])
    args = p.parse_args()
    if args.command == 'check':
        return cmd_check(args)
    if args.command == 'demo':
        return cmd_demo(args)
    return cmd_shell(args)


if __name__ == '__main__':
    sys.exit(main())
