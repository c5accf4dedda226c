# SPDX-License-Identifier: GPL-2.0
"""Load conditions for the entropy evidence: the noise captured natively,
in the module's default configuration, while the machine does something
else, several runs per condition.

Each run: start the load, let it settle, capture 10^6 samples and a
restart matrix (1000 x 1000) with cpurng-capture, measure the native
jitter RNG's sample rate with cpurng-jitter --bench, and record what the
load did (interrupts per second, the CPUs' busy share).  Analysis comes after every
capture, so no analysis perturbs a capture: the full SP800-90B assessment
(cpurng-ea: symbols and bitstring), the restart test at that estimate
(its largest accepted H_I when rejected), and the module's own in-kernel
estimate of the same samples (cpurng-ea --quick).
"""

import json
import os
import signal
import subprocess
import sys
import time

SETTLE_S = 2
# The block the module estimates at load (CPURNG_JENT_ASSESS_SAMPLES).
QUICK_BLOCK = 8192

# name -> what it is; the worst of all of them decides the verdict.
CONDITIONS = {
    'idle': 'nothing else running',
    'cpu': 'a CPU-bound loop on every other core',
    'mem': 'a memory-bandwidth hog on every other core (copying 256 MiB '
           'buffers)',
    'irq': 'an interrupt and I/O storm: O_DIRECT + fdatasync writes to '
           'disk and a 20 us sleep loop (timer interrupts)',
    'qemu': 'another QEMU guest (TCG, 1 vCPU) running a CPU loop and a '
            'pipe ping-pong',
}

CPU_HOG = 'while True: pass'
MEM_HOG = ('a = bytearray(256 << 20); b = bytearray(256 << 20)\n'
           'while True: b[:] = a')
TIMER_HOG = 'import time\nwhile True: time.sleep(0.00002)'
IO_HOG = ('import os\n'
          'fd = os.open({path!r}, os.O_WRONLY | os.O_CREAT | os.O_DIRECT)\n'
          'import mmap\nbuf = mmap.mmap(-1, 1 << 16)\n'
          'while True:\n'
          '    os.lseek(fd, 0, 0)\n'
          '    for _ in range(16):\n'
          '        os.write(fd, buf)\n'
          '    os.fdatasync(fd)\n')


def interrupts():
    """Total interrupts so far (every CPU, every source)."""
    total = 0
    with open('/proc/interrupts') as f:
        next(f)
        for line in f:
            for field in line.split()[1:]:
                if not field.isdigit():
                    break
                total += int(field)
    return total


def cpu_times():
    """(busy, total) jiffies of every CPU together, from /proc/stat."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


class Load:
    """A running load condition; stop() ends every process it started."""

    def __init__(self, name, workdir, src, env):
        self.name, self.procs = name, []
        others = max(1, (os.cpu_count() or 2) - 1)
        py = [sys.executable, '-c']
        if name == 'cpu':
            self.start([py + [CPU_HOG] for _ in range(others)])
        elif name == 'mem':
            self.start([py + [MEM_HOG] for _ in range(others)])
        elif name == 'irq':
            path = os.path.join(workdir, 'io-storm.dat')
            self.start([py + [IO_HOG.format(path=path)], py + [TIMER_HOG]])
        elif name == 'qemu':
            self.start([[sys.executable,
                         os.path.join(src, 'tests/harness/main.py'),
                         '--build', os.environ.get('BUILD',
                                                   os.path.join(src, 'build')),
                         'neighbour']], env)
        elif name != 'idle':
            raise ValueError(f'unknown load condition {name}')

    def start(self, cmds, env=None):
        for c in cmds:
            self.procs.append(subprocess.Popen(
                c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env, start_new_session=True))

    def alive(self):
        return all(p.poll() is None for p in self.procs)

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def capture_run(tools, out, cond, run, samples, restarts, src, env):
    """One run under one condition: captures and the load's own figures."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, f'{cond}-{run}')
    load = Load(cond, out, src, env)
    try:
        # the neighbour VM needs its boot before it is busy
        time.sleep(SETTLE_S + (8 if cond == 'qemu' else 0))
        if not load.alive():
            sys.exit(f'evidence: the {cond} load stopped by itself')
        irq0, cpu0, t0 = interrupts(), cpu_times(), time.monotonic()
        cap = os.path.join(tools, 'cpurng-capture')
        subprocess.run([cap, '-w', 'native', '-n', str(samples), '-o',
                        base + '.cpn'], check=True, capture_output=True)
        subprocess.run([cap, '-w', 'native', '-r', str(restarts), '-n',
                        '1000', '-o', base + '-restart.cpn'], check=True,
                       capture_output=True)
        bench = json.loads(subprocess.run(
            [os.path.join(tools, 'cpurng-jitter'), '--bench', '1'],
            check=True, capture_output=True, text=True).stdout)
        seconds = time.monotonic() - t0
        irq_rate = (interrupts() - irq0) / seconds
        cpu1 = cpu_times()
        busy = (cpu1[0] - cpu0[0]) / max(1, cpu1[1] - cpu0[1])
        if not load.alive():
            sys.exit(f'evidence: the {cond} load stopped during run {run}')
    finally:
        load.stop()
    return {'condition': cond, 'run': run, 'file': base + '.cpn',
            'restart_file': base + '-restart.cpn',
            'interrupts_per_s': round(irq_rate),
            'cpu_busy': round(busy, 2), 'capture_s': round(seconds, 1),
            'samples_per_s': bench['samples_per_s'],
            'bytes_per_s': bench['bytes_per_s']}


def analyse_run(tools, r):
    """Full assessment, restart test at its result, in-kernel estimate."""
    ea = os.path.join(tools, 'cpurng-ea')
    full = json.loads(subprocess.run(
        [ea, '--json', '--lsb', '0', r['file']], check=True,
        capture_output=True, text=True).stdout)
    p = subprocess.run([ea, '--restart', '--json', '--initial',
                        f"{full['min_entropy']:.6f}", r['restart_file']],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"evidence: cpurng-ea --restart {r['restart_file']}: "
                 f'{p.stderr.strip()}')
    rs = json.loads(p.stdout)
    quick = json.loads(subprocess.run(
        [ea, '--json', '--quick', str(QUICK_BLOCK), r['file']], check=True,
        capture_output=True, text=True).stdout)
    final = rs['min_entropy'] if rs['passed'] else \
        rs['min_entropy_at_accepted']
    out = dict(r)
    out.update({
        'h_original': full['h_original'],
        'h_bitstring_per_sample': full['h_bitstring'] *
        full['bitstring_width'],
        'bitstring_width': full['bitstring_width'],
        'initial': full['min_entropy'], 'initial_by': full['by'],
        'restart_passed': rs['passed'],
        'accepted_initial': rs['accepted_initial'],
        'final': final,
        'quick_min': quick['min'], 'quick_median': quick['median'],
        'entropy_bits_per_s': round(final * r['samples_per_s']),
    })
    for k in ('file', 'restart_file'):
        out[k] = os.path.basename(out[k])
    return out


def summary(runs):
    """Per condition: min / median / max of the final estimates."""
    out = []
    for cond, what in CONDITIONS.items():
        rs = sorted((r for r in runs if r['condition'] == cond),
                    key=lambda r: r['final'])
        if not rs:
            continue
        finals = [r['final'] for r in rs]
        out.append({'condition': cond, 'load': what, 'runs': rs,
                    'min': finals[0], 'median': finals[len(finals) // 2],
                    'max': finals[-1],
                    'quick_min': min(r['quick_min'] for r in rs),
                    'entropy_bits_per_s_min':
                        min(r['entropy_bits_per_s'] for r in rs),
                    'interrupts_per_s': sorted(
                        r['interrupts_per_s'] for r in rs)[len(rs) // 2],
                    'cpu_busy': sorted(
                        r['cpu_busy'] for r in rs)[len(rs) // 2]})
    return out
