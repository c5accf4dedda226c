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
import threading
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import initramfs  # noqa: E402
import ktap  # noqa: E402
import snapshot  # noqa: E402
import vm  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TESTS = os.path.join(SRC, 'tests')


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f'error: {name} is not set (run through make)')
    return value


@dataclass
class Kernel:
    """One kernel the VM groups boot, with our modules built for it."""
    label: str          # '' (the only one), '6.1', '6.12', 'builtin'
    kimage: str
    kmoddir: str
    kver: str
    modules_dir: str    # holds release/ and testing/ (our kbuild trees)
    # Parameters every boot of this kernel gets.  Debian's 6.12 builds the
    # stock jitterentropy_rng into the kernel, where it takes the name our
    # jitter RNG registers: initcall_blacklist keeps it from registering
    # (see Documentation/kernels.rst).  Groups that test the clash itself
    # set stock_jitter_builtin = yes and boot without it.
    cmdline: str = ''
    builtin: frozenset = frozenset()
    config: frozenset = frozenset()     # options set to y

    @property
    def tag(self):
        return f'-{self.label}' if self.label else ''


STOCK_JITTER_BLACKLIST = 'initcall_blacklist=jent_mod_init'


def kernel_config(kmoddir):
    """The options a kernel sets to y, from the configuration beside its
    module tree: an unpacked Debian kernel's config link, 7.x's
    modules/config, or the build tree of one of our own kernels."""
    for path in (os.path.join(os.path.dirname(kmoddir), 'config'),
                 os.path.join(kmoddir, 'config'),
                 os.path.join(kmoddir, 'build', '.config')):
        if os.path.exists(path):
            with open(path) as f:
                return frozenset(l[len('CONFIG_'):].split('=')[0] for l in f
                                 if l.startswith('CONFIG_') and
                                 l.rstrip().endswith('=y'))
    return frozenset()


def load_kernel(label, default_modules):
    """The kernel named @label (env KIMAGE_<L>, ...), or the default one."""
    suffix = '_' + label.upper().replace('.', '_').replace('-', '_') \
        if label else ''
    kmoddir = env('KMODDIR' + suffix)
    builtin = frozenset(initramfs.builtin_names(kmoddir))
    return Kernel(label=label, kimage=env('KIMAGE' + suffix), kmoddir=kmoddir,
                  kver=env('KVER' + suffix), config=kernel_config(kmoddir),
                  modules_dir=os.environ.get('KMODULES' + suffix) or
                  default_modules,
                  cmdline=STOCK_JITTER_BLACKLIST
                  if 'jitterentropy_rng' in builtin else '',
                  builtin=builtin)


def modules(kernel, variant):
    if variant == 'none':   # cpurng is built into the kernel
        return []
    base = os.path.join(kernel.modules_dir, variant)
    kos = sorted(glob.glob(os.path.join(base, 'crypto', '*.ko')))
    if variant == 'testing':
        # test modules, and KUnit suites where the kernel has KUnit
        for d in ('modules', 'kunit'):
            kos += sorted(glob.glob(os.path.join(base, 'tests', d, '*.ko')))
    if not kos:
        sys.exit(f'error: no {variant} modules under {base}; build them first')
    return kos


def guest_bins(build):
    return sorted(glob.glob(os.path.join(build, 'guest', 'bin', '*')) +
                  glob.glob(os.path.join(build, 'tools', '*')))


def make_initramfs(build, variant, kernel):
    out = os.path.join(build, f'initramfs-{variant}{kernel.tag}.cpio')
    initramfs.build(out, kernel.kver, kernel.kmoddir, modules(kernel, variant),
                    guest_bins(build), TESTS,
                    kselftests=os.path.join(build, 'kselftest', 'install'))
    return out


class Report:
    """Top-level KTAP stream: one result per suite, leaves counted."""

    def __init__(self, planned, path):
        self.number = 0
        self.counts = ktap.Counts()
        self.per_kernel = {}
        self.file = open(path, 'w')
        self.emit(['KTAP version 1', f'1..{planned}'])

    def emit(self, lines):
        for line in lines:
            print(line)
            self.file.write(line + '\n')
        sys.stdout.flush()

    def suite(self, name, lines, seconds, kernel='host'):
        self.number += 1
        counts = ktap.count_lines(lines)
        self.counts.add(counts)
        self.per_kernel.setdefault(kernel, ktap.Counts()).add(counts)
        self.emit(ktap.indent(lines))
        self.emit([f'# {name}: {counts} in {seconds:.1f}s'])
        status = 'not ok' if counts.failed else 'ok'
        self.emit([f'{status} {self.number} {name}'])

    def finish(self):
        if len(self.per_kernel) > 1:
            self.emit([f'# {k}: {c}' for k, c in self.per_kernel.items()])
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


@dataclass
class Job:
    """One group on one kernel: its name in the report and where it runs."""
    group: vm.Group
    kernel: Kernel
    name: str
    outdir: str


def plan_jobs(groups, kernels, named, out):
    """Every group on every kernel of the run; a group that names its own
    kernel (kernel = builtin) runs once, on that one."""
    jobs = []
    for g in groups:
        targets = [named(g.kernel)] if g.kernel else kernels
        for k in targets:
            label = k.label if len(kernels) > 1 and not g.kernel else ''
            name = f'{label}_{g.name}' if label else g.name
            jobs.append(Job(g, k, name, os.path.join(out, label, g.name)))
    return jobs


def run_jobs(jobs, start_job, emit, parallel, host_cpus=None):
    """Run up to @parallel jobs at once, a group with alone = yes (it
    measures time) with no other; report each in plan order, whatever
    order they ran in.

    The VMs beside each other never keep more host threads busy than the
    host has CPUs (@host_cpus): a multi-threaded TCG guest whose vCPU
    threads the host preempts can execute stale translations of kernel
    text that another vCPU has just patched (QEMU 7.2; seen as an int3
    Oops during boot-time text patching of Debian's 6.12 with two VMs of
    two vCPU threads each on two CPUs).  Such a VM runs beside another
    only where the host has the CPUs for both."""
    host_cpus = host_cpus or os.cpu_count() or 1
    results = [None] * len(jobs)
    running = {}
    done = threading.Condition()
    reported = 0

    def worker(i):
        outcome = start_job(jobs[i])
        with done:
            results[i] = outcome
            del running[i]
            done.notify_all()

    def flush():
        nonlocal reported
        while reported < len(jobs) and results[reported] is not None:
            emit(jobs[reported], results[reported])
            reported += 1

    def fits(job):
        busy = sum(jobs[r].group.host_threads for r in running)
        return not running or (
            not job.group.alone and len(running) < parallel and
            not any(jobs[r].group.alone for r in running) and
            busy + job.group.host_threads <= host_cpus)

    # The first job in plan order that fits starts: a job that must wait
    # for the host to empty does not hold back the ones that fit beside
    # what is running.
    pending = list(range(len(jobs)))
    with done:
        while pending:
            i = next((p for p in pending if fits(jobs[p])), None)
            if i is None:
                done.wait()
            else:
                pending.remove(i)
                running[i] = threading.Thread(target=worker, args=(i,))
                running[i].start()
            flush()
        while running:
            done.wait()
        flush()


def cmd_check(args):
    suites = args.suite or ['check']
    groups = [g for g in vm.load_groups(os.path.join(TESTS, 'vm', 'groups'))
              if (g.name in args.group if args.group else
                  set(g.suites) & set(suites))]
    # Groups this run leaves out on purpose: reported as skipped, with why.
    skipped = [g.name for g in groups if g.name in args.skip_group]
    groups = [g for g in groups if g.name not in args.skip_group]
    # Slow kernels (KASAN, lockdep) stretch every timeout, in the host's
    # watchdog and in the guest's per-case limit alike; so does sharing
    # the CPUs with a second VM.
    parallel = max(1, args.jobs)
    scale = int(os.environ.get('CPURNG_TIMEOUT_SCALE', '1'))
    if parallel > 1:
        scale *= 2
    # Kernel parameters for every group of this run (our own kernels).
    extra = os.environ.get('CPURNG_KERNEL_CMDLINE', '')
    for g in groups:
        g.timeout *= scale
        if scale != 1:
            g.cmdline = f'{g.cmdline} cpurng_timeout_scale={scale}'.strip()
        g.cmdline = f'{extra} {g.cmdline}'.strip()
    if args.group and len(groups) + len(skipped) != len(args.group):
        known = {g.name for g in vm.load_groups(os.path.join(TESTS, 'vm', 'groups'))}
        sys.exit(f'error: unknown group(s): {sorted(set(args.group) - known)}')
    out = os.path.join(args.build,
                       '-'.join(suites) if not args.group else 'check')
    os.makedirs(out, exist_ok=True)

    default_modules = args.build
    # The default kernel only where a group boots it (the builtin groups
    # name their own).
    kernels = [load_kernel(label, default_modules) for label in args.kernel] \
        or ([load_kernel('', default_modules)]
            if any(not g.kernel for g in groups) else [])
    extra_kernels = {}

    def named(label):
        if label not in extra_kernels:
            extra_kernels[label] = load_kernel(label, default_modules)
        return extra_kernels[label]

    jobs = plan_jobs(groups, kernels, named, out)
    report = Report(len(args.host_test) + len(skipped) + len(jobs),
                    os.path.join(out, 'results.ktap'))
    for k in kernels + list(extra_kernels.values()):
        report.emit([f'# kernel {k.label or "default"}: {k.kver} '
                     f'({k.kimage}){" cmdline " + k.cmdline if k.cmdline else ""}'])
    if parallel > 1:
        report.emit([f'# up to {parallel} VMs at once, with no more vCPU '
                     f'threads than the {os.cpu_count()} host CPUs; groups '
                     'that measure time run alone; timeouts x2'])

    for exe in args.host_test:
        lines, seconds = run_host_test(exe)
        report.suite('host_' + os.path.basename(exe).split('.')[0], lines,
                     seconds)

    for name in skipped:
        report.suite('vm_' + name,
                     [f'ok 1 {name} # SKIP {args.skip_reason or "left out of this run"}'], 0)

    initrds = {}
    for j in jobs:
        key = (j.group.variant, j.kernel.label)
        if key not in initrds:
            initrds[key] = make_initramfs(args.build, j.group.variant,
                                          j.kernel)

    def start_job(j):
        return run_job(j, initrds[(j.group.variant, j.kernel.label)])

    def emit(j, outcome):
        report.suite('vm_' + j.name, outcome.lines, outcome.seconds,
                     j.kernel.label or 'default')
        if outcome.counts.failed:
            report.emit([f'# logs: {j.outdir}'])

    run_jobs(jobs, start_job, emit, parallel)
    return report.finish()


def run_job(job, initrd):
    """Boot one group on its kernel, or skip it where it cannot run."""
    g, k = job.group, job.kernel
    reason = None
    if g.needs_builtin and g.needs_builtin not in k.builtin:
        reason = f'{g.needs_builtin} is not built into {k.kver}'
    elif g.needs_config and g.needs_config not in k.config:
        reason = f'{k.kver} does not set CONFIG_{g.needs_config}'
    if reason:
        return vm.Outcome(lines=['KTAP version 1', '1..1',
                                 f'ok 1 {g.name} # SKIP {reason}'],
                          counts=ktap.count_lines(['ok 1 x # SKIP']))
    cmdline = g.cmdline
    if k.cmdline and not g.stock_jitter_builtin:
        cmdline = f'{k.cmdline} {cmdline}'.strip()
    if g.snapshot:
        return snapshot.run(g, k.kimage, initrd, job.outdir, cmdline)
    outcome = vm.run_group(g, k.kimage, initrd, job.outdir, cmdline=cmdline)
    if mttcg_boot_crash(g, k, outcome.lines):
        # Documentation/testing.rst, "Single-threaded TCG by default".
        first = outcome.lines
        outcome = vm.run_group(g, k.kimage, initrd, job.outdir,
                               cmdline=cmdline)
        outcome.lines[2:2] = [
            '# booted again: the first boot died in boot-time text patching '
            '(Oops: int3) under multi-threaded TCG, before /init ran:'] + \
            [f'#   {l.strip()}' for l in first if 'Oops: int3' in l]
    return outcome


def mttcg_boot_crash(group, kernel, lines):
    """QEMU 7.2's multi-threaded TCG can run a stale translation of kernel
    text that another vCPU has just patched (Oops: int3).  A boot that died
    so before /init ran, on a kernel without cpurng built in, ran no code of
    ours: such a boot is tried once more.  Anything else is a result."""
    return (group.host_threads > 1 and
            not any(n.startswith('cpurng_') for n in kernel.builtin) and
            not any('# cpurng-vm group=' in l for l in lines) and
            any('Oops: int3' in l for l in lines))


# The demo takes about 10 s of guest time under TCG; past this it has hung.
DEMO_TIMEOUT = 300


def terminal_vm(args, group, cmdline='', results=None):
    """The QEMU command of a release VM whose console is this terminal."""
    k = load_kernel('', args.build)
    print(f'{group}: KERNEL={os.environ.get("KERNEL", "?")} {k.kver} '
          f'({k.kimage}){" " + k.cmdline if k.cmdline else ""}', flush=True)
    return vm.qemu_command(k.kimage, make_initramfs(args.build, 'release', k),
                           group, cmdline=f'{k.cmdline} {cmdline}'.strip(),
                           qemu_extra=vm.DEFAULT_QEMU,
                           console='mon:stdio',
                           results=results)


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


def cmd_neighbour(args):
    """A release VM with one vCPU kept busy until this process is killed:
    the evidence's "another QEMU guest" load condition."""
    k = load_kernel('', args.build)
    cmd = vm.qemu_command(k.kimage, make_initramfs(args.build, 'release', k),
                          'busy', cmdline=k.cmdline, qemu_extra='-smp 1',
                          memory='512', console='null')
    os.execvp(cmd[0], cmd)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('command', choices=['check', 'demo', 'shell', 'neighbour'])
    p.add_argument('--build', default=os.path.join(SRC, 'build'))
    p.add_argument('--suite', action='append', default=[],
                   help='suite(s) of VM groups to run (default: check)')
    p.add_argument('--group', action='append', default=[])
    p.add_argument('--host-test', action='append', default=[])
    p.add_argument('--skip-group', action='append', default=[],
                   help='leave this group out, reported as skipped')
    p.add_argument('--skip-reason', default='',
                   help='the reason the skipped groups report')
    p.add_argument('--kernel', action='append', default=[],
                   help='run the groups on this kernel (KIMAGE_<K>, '
                   'KMODDIR_<K>, KVER_<K>, KMODULES_<K>); repeatable')
    p.add_argument('--jobs', type=int,
                   default=int(os.environ.get('CPURNG_VM_JOBS', '2')),
                   help='VMs at once (default 2, CPURNG_VM_JOBS)')
    args = p.parse_args()
    if args.command == 'check':
        return cmd_check(args)
    if args.command == 'demo':
        return cmd_demo(args)
    if args.command == 'neighbour':
        return cmd_neighbour(args)
    return cmd_shell(args)


if __name__ == '__main__':
    sys.exit(main())
