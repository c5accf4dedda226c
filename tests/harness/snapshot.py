# SPDX-License-Identifier: GPL-2.0
"""Save a running test VM to a file and restore it into clones.

A group with "snapshot = <kind> <kind> ..." (each kind "new" or "same")
runs this way instead of in one QEMU process:

1. The origin VM boots like any group, plus a VM generation ID device
   (-device vmgenid,guid=G0), a QMP socket and a control serial port
   (ttyS2 in the guest, a socket here).
2. A case prints SNAPSHOT_MARK on the results port once the state to be
   cloned is in place, then blocks reading one line from /dev/ttyS2.
3. The harness stops the VM, saves it through QMP (migrate to
   "exec:cat > state") and quits it.
4. For each kind, a fresh QEMU with the same devices restores the file
   (-incoming "exec:cat state"; a VM saved while stopped restores
   paused) with a new generation ID, or G0 again for "same"; the harness
   resumes it (cont), waits for the guest kernel's VM-fork notices on the
   console ("new") or a settle time ("same"), and writes
   "clone <n> <kind>" to its control port.  The guest goes on from where
   it was stopped and finishes the group.
5. Each clone's results (the origin's up to the snapshot, then the
   clone's) are analysed like an ordinary run.  Then the outputs the
   clones printed as "# clone-output <label> <hex>" are compared as the
   group's clone_compare says: "<label>:<new>:<same>", where <new> is the
   expectation between the clones with new IDs and <same> between those
   with the origin's ID: differ, same or any (reported only).

The plumbing (QMP, save, restore) is here for any test of what survives a
snapshot; the comparison rules are the group's.
"""

import json
import os
import re
import shlex
import socket
import subprocess
import time
import uuid

from ktap import count_lines, indent
import vm

SNAPSHOT_MARK = '# cpurng-snapshot-ready'
CLONE_OUTPUT_RE = re.compile(r'#\s*clone-output (\S+) (\S+)\s*$')
# Logged by random.c when the VM generation ID changes, and by each of
# our modules when its vmfork notifier runs (include/cpurng/fork_watch.h).
RANDOM_FORK_NOTICE = 'random: crng reseeded due to virtual machine fork'
OUR_FORK_NOTICE = re.compile(r'cpurng_\w+: VM fork seen')
# How long a clone with a new ID may take to report the fork, and how long
# one with the same ID is watched for a notice that must not come.
NOTICE_TIMEOUT = 60
SAME_ID_SETTLE = 2.0
SAVE_TIMEOUT = 120


class QMPError(Exception):
    pass


class QMP:
    """A QMP client on a unix socket: commands in, replies out, events kept."""

    def __init__(self, path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.settimeout(timeout)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise QMPError(f'no QMP socket at {path}')
                time.sleep(0.05)
        self.file = self.sock.makefile('rwb')
        self.events = []
        self._read()                    # greeting
        self.command('qmp_capabilities')

    def _read(self):
        line = self.file.readline()
        if not line:
            raise QMPError('QMP connection closed')
        return json.loads(line)

    def command(self, name, **arguments):
        msg = {'execute': name}
        if arguments:
            msg['arguments'] = arguments
        self.file.write(json.dumps(msg).encode() + b'\n')
        self.file.flush()
        while True:
            reply = self._read()
            if 'event' in reply:
                self.events.append(reply)
            elif 'error' in reply:
                raise QMPError(f'{name}: {reply["error"].get("desc")}')
            else:
                return reply.get('return')

    def wait_status(self, wanted, timeout):
        """Poll query-status until the VM is in one of @wanted."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.command('query-status')['status']
            if status in wanted:
                return status
            if time.monotonic() > deadline:
                raise QMPError(f'VM status {status}, not {"/".join(wanted)} '
                               f'after {timeout}s')
            time.sleep(0.05)

    def quit(self):
        try:
            self.command('quit')
        except (QMPError, OSError):
            pass                        # QEMU may close before replying
        self.sock.close()


def save(qmp, path, timeout=SAVE_TIMEOUT):
    """Stop the VM and write its whole state to @path; (seconds, bytes)."""
    start = time.monotonic()
    qmp.command('stop')
    qmp.command('migrate', uri=f'exec:cat > {shlex.quote(path)}')
    while True:
        info = qmp.command('query-migrate')
        status = info.get('status')
        if status == 'completed':
            break
        if status in ('failed', 'cancelled'):
            raise QMPError(f'migration {status}: {info.get("error-desc", "")}')
        if time.monotonic() - start > timeout:
            raise QMPError(f'migration not done after {timeout}s')
        time.sleep(0.05)
    return time.monotonic() - start, os.path.getsize(path)


def device_args(workdir, tag, guid):
    """QEMU arguments of one VM of a snapshot run: VM generation ID, QMP
    and the control port (ttyS2; IRQ 5, since COM3's usual IRQ 4 is
    COM1's too, and Linux does not share legacy serial IRQs)."""
    return ['-device', f'vmgenid,guid={guid}',
            '-qmp', f'unix:{os.path.join(workdir, tag + ".qmp")},server=on,wait=off',
            '-chardev', f'socket,id=ctl,path={os.path.join(workdir, tag + ".ctl")},'
                        'server=on,wait=off',
            '-device', 'isa-serial,chardev=ctl,index=2,irq=5']


def _wait_for(path, pattern, proc, timeout):
    """Seconds until @pattern (a string) appears in file @path, or None."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if pattern in vm.read_text(path):
            return time.monotonic() - start
        if proc.poll() is not None:
            return None
        time.sleep(0.01)
    return None


class Machine:
    """One QEMU process of a snapshot run: the origin or a clone."""

    def __init__(self, group, kimage, initrd, workdir, tag, guid, cmdline,
                 incoming=None):
        self.console = os.path.join(workdir, f'console-{tag}.log')
        self.results = os.path.join(workdir, f'results-{tag}.ktap')
        for p in (self.console, self.results,
                  os.path.join(workdir, tag + '.qmp'),
                  os.path.join(workdir, tag + '.ctl')):
            if os.path.exists(p):
                os.unlink(p)
        cmd = vm.qemu_command(kimage, initrd, group.name, cmdline, group.qemu,
                              group.memory, f'file:{self.console}',
                              self.results)
        cmd += device_args(workdir, tag, guid)
        if incoming:
            cmd += ['-incoming', f'exec:cat {shlex.quote(incoming)}']
        with open(os.path.join(workdir, f'qemu-{tag}.cmd'), 'w') as f:
            f.write(shlex.join(cmd) + '\n')
        self.ctl_path = os.path.join(workdir, tag + '.ctl')
        self.ctl = None
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(workdir, f'qemu-{tag}.stderr'), 'w'))
        self.qmp = QMP(os.path.join(workdir, tag + '.qmp'))

    def tell(self, line):
        """Write one line to the guest's control port.  The connection
        stays open until QEMU exits: QEMU drops what a client sent if the
        client hangs up before the serial port has taken it."""
        self.ctl = socket.socket(socket.AF_UNIX)
        self.ctl.settimeout(10)
        self.ctl.connect(self.ctl_path)
        self.ctl.sendall(line.encode() + b'\n')

    def wait(self, timeout):
        """(exit status, timed out)."""
        try:
            status, timed_out = self.proc.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            self.kill()
            status, timed_out = self.proc.wait(), True
        self._close()
        return status, timed_out

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close()

    def _close(self):
        if self.ctl:
            self.ctl.close()
            self.ctl = None


def clone_outputs(text):
    """{label: value} of the "# clone-output" lines of a clone's results."""
    out = {}
    for line in text.splitlines():
        m = CLONE_OUTPUT_RE.search(line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def parse_compare(spec):
    """[(label, expectation between new-ID clones, between same-ID ones)]."""
    rules = []
    for item in spec.split():
        parts = item.split(':')
        if len(parts) != 3 or not all(p in ('differ', 'same', 'any')
                                      for p in parts[1:]):
            raise ValueError(f'clone_compare: {item!r} is not '
                             '<label>:<differ|same|any>:<differ|same|any>')
        rules.append(tuple(parts))
    return rules


def compare(rules, clones):
    """KTAP (status, name, diagnostics) per rule and kind of clone pair.
    @clones: [(kind, {label: value})] in restore order."""
    checks = []
    for label, *expect in rules:
        for kind, want in zip(('new', 'same'), expect):
            values = [outs.get(label) for k, outs in clones if k == kind]
            if len(values) < 2:
                continue
            name = f'{label}_{kind}_id_clones_{want}'
            diags = [f'# {label} clone {i + 1}: {v}' for i, v in
                     enumerate(values)]
            if any(v is None or not re.fullmatch(r'[0-9a-f]+', v)
                   for v in values):
                checks.append(('not ok', name, diags +
                               ['# a clone gave no output for it']))
                continue
            identical = len(set(values)) == 1
            distinct = len(set(values)) == len(values)
            seen = 'identical' if identical else 'distinct' if distinct \
                else 'partly identical'
            if want == 'any':
                checks.append(('ok', name, diags + [f'# {seen} (not asserted)']))
            elif (want == 'same' and identical) or (want == 'differ' and distinct):
                checks.append(('ok', name, diags + [f'# {seen}, as expected']))
            else:
                checks.append(('not ok', name,
                               diags + [f'# {seen}, expected {want}']))
    return checks


def run(group, kimage, initrd, outdir, cmdline):
    """Run a snapshot group; returns vm.Outcome."""
    os.makedirs(outdir, exist_ok=True)
    start = time.monotonic()
    state = os.path.join(outdir, 'vm.state')
    guid0 = str(uuid.uuid4())
    top, checks = [], []

    def finish():
        lines = ['KTAP version 1', f'1..{len(checks)}'] + top
        for i, (status, name, diags, nested) in enumerate(checks, start=1):
            lines += indent(nested) + diags + [f'{status} {i} {name}']
        return vm.Outcome(lines=lines, counts=count_lines(lines),
                          seconds=time.monotonic() - start)

    origin = Machine(group, kimage, initrd, outdir, 'origin', guid0, cmdline)
    reached = _wait_for(origin.results, SNAPSHOT_MARK, origin.proc,
                        group.timeout)
    if reached is None:
        timed_out = origin.proc.poll() is None
        origin.kill()
        nested = vm.analyse(group, vm.read_text(origin.results),
                            vm.read_text(origin.console), timed_out,
                            origin.proc.returncode)
        # A guest whose cases all skipped (a kernel without what they
        # need) finishes cleanly without a snapshot point: report that.
        clean = vm.DONE_MARK in vm.read_text(origin.results) and \
            not count_lines(nested).failed
        checks.append(('ok' if clean else 'not ok',
                       'origin_reached_snapshot_point' if not clean
                       else 'origin_finished_without_snapshot_point',
                       ['# the guest never printed the snapshot mark'], nested))
        return finish()
    checks.append(('ok', 'origin_reached_snapshot_point',
                   [f'# after {reached:.1f}s; VM generation ID {guid0}'], []))
    try:
        seconds, size = save(origin.qmp, state)
        checks.append(('ok', 'vm_saved',
                       [f'# stop + migrate to a file: {seconds:.1f}s, '
                        f'{size / 1e6:.0f} MB'], []))
    except (QMPError, OSError) as e:
        checks.append(('not ok', 'vm_saved', [f'# {e}'], []))
        origin.kill()
        return finish()
    origin.qmp.quit()
    origin.wait(30)
    before = vm.read_text(origin.results)
    before = before[:before.index(SNAPSHOT_MARK) + len(SNAPSHOT_MARK)] + '\n'

    clones = []
    for n, kind in enumerate(group.snapshot, start=1):
        guid = guid0 if kind == 'same' else str(uuid.uuid4())
        tag = f'clone{n}'
        c = Machine(group, kimage, initrd, outdir, tag, guid, cmdline,
                    incoming=state)
        diags = [f'# clone {n}: VM generation ID {guid} ({kind})']
        try:
            c.qmp.wait_status(('paused',), SAVE_TIMEOUT)
            c.qmp.command('cont')
            if kind == 'new':
                t = _wait_for(c.console, RANDOM_FORK_NOTICE, c.proc,
                              NOTICE_TIMEOUT)
                diags.append(f'# resume -> "{RANDOM_FORK_NOTICE}": '
                             + (f'{t * 1000:.0f} ms' if t is not None
                                else 'never'))
                ours, deadline = 0, time.monotonic() + NOTICE_TIMEOUT
                while t is not None and ours < group.fork_notices and \
                        time.monotonic() < deadline:
                    ours = len(OUR_FORK_NOTICE.findall(
                        vm.read_text(c.console)))
                    time.sleep(0.01)
                diags.append(f'# our modules\' VM-fork notices: {ours}')
            else:
                time.sleep(SAME_ID_SETTLE)
                text = vm.read_text(c.console)
                diags.append(f'# {SAME_ID_SETTLE:.0f}s after resume: '
                             f'random.c notice {RANDOM_FORK_NOTICE in text}, '
                             f'ours {len(OUR_FORK_NOTICE.findall(text))}')
            c.tell(f'clone {n} {kind}')
        except (QMPError, OSError) as e:
            diags.append(f'# restore failed: {e}')
        c.qmp.sock.close()
        status, timed_out = c.wait(group.timeout)
        after = vm.read_text(c.results)
        nested = vm.analyse(group, before + after,
                            vm.read_text(origin.console) +
                            vm.read_text(c.console),
                            timed_out, status)
        failed = count_lines(nested).failed
        checks.append(('not ok' if failed else 'ok', f'clone{n}_{kind}_id',
                       diags, nested))
        clones.append((kind, clone_outputs(after)))
    for status, name, diags in compare(group.clone_compare, clones):
        checks.append((status, name, diags, []))
    os.unlink(state)
    return finish()
