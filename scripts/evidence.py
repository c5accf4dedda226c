#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make evidence: capture raw noise, analyse it, write the report.

  1. native captures: the jitter noise core in userspace on this machine
     (cpurng-capture -w native), every mode it can run, and restarts;
  2. load conditions (evidence_conditions.py): the native capture in the
     default configuration again, several runs each while the machine is
     idle, CPU-bound, memory-bound, in an interrupt/IO storm, and beside a
     busy QEMU guest;
  3. VM captures: the "evidence" suite of VM groups (every isolation mode,
     restarts, boot samples, collector events; the deterministic machine
     booted twice), files returned on a virtio disk;
  4. a control: independent uniform samples from os.urandom, analysed the
     same way, so every number has a known-answer neighbour;
  5. analysis: cpurng-ea (SP800-90B estimators, raw values and 1-, 4- and
     8-bit LSBs), cpurng-spectrum, restart tests, timer granularity;
  6. plots (gnuplot) and build/evidence/report/report.rst (rendered by
     evidence_report.py); with --publish the report, plots and results go
     to Documentation/.

Environment: BUILD (default ./build).
"""

import argparse
import concurrent.futures
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evidence_conditions  # noqa: E402
import evidence_report  # noqa: E402
import noise_file  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('BUILD', os.path.join(SRC, 'build'))
TOOLS = os.path.join(BUILD, 'tools')
NATIVE_MODES = ['normal', 'l1', 'llc', 'fold', 'mem']
EXTRACTIONS = [0, 1, 4, 8]
# collector fields: (name, counter?) -- counters are assessed by increments
COLLECTOR_FIELDS = [('cycles', True), ('jiffies', True), ('site', False),
                    ('value', False), ('stack', False)]


def log(msg):
    print(f'evidence: {msg}', flush=True)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def capture_native(out, samples, restarts):
    os.makedirs(out, exist_ok=True)
    cap = os.path.join(TOOLS, 'cpurng-capture')
    for m in NATIVE_MODES:
        log(f'native capture, mode {m}')
        run([cap, '-w', 'native', '-m', m, '-n', str(samples), '-o',
             os.path.join(out, f'native-jitter-{m}.cpn')])
    log('native restart capture')
    run([cap, '-w', 'native', '-r', str(restarts), '-n', '1000', '-o',
         os.path.join(out, 'native-jitter-restart.cpn')])


def capture_conditions(out, runs, samples, restarts):
    """Every load condition, @runs runs each, captures only."""
    done = []
    for cond in evidence_conditions.CONDITIONS:
        for run in range(1, runs + 1):
            log(f'load condition {cond}, run {run}/{runs}')
            done.append(evidence_conditions.capture_run(
                TOOLS, out, cond, run, samples, restarts, SRC,
                dict(os.environ)))
    with open(os.path.join(out, 'runs.json'), 'w') as f:
        json.dump(done, f, indent=1)


def analyse_conditions(out, jobs):
    path = os.path.join(out, 'runs.json')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        runs = json.load(f)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        done = list(pool.map(
            lambda r: evidence_conditions.analyse_run(TOOLS, r), runs))
    log(f'analysed {len(done)} load-condition runs')
    return evidence_conditions.summary(done)


def capture_control(path, samples):
    """Independent samples, uniform over 1024 values: 10 bits each."""
    raw = os.urandom(2 * samples)
    rows = [(3000 + (raw[2 * i] | raw[2 * i + 1] << 8) % 1024,)
            for i in range(samples)]
    noise_file.write(path, {
        'source': 'control', 'where': 'synthetic', 'mode': 'iid',
        'fields': 'delta', 'rows': 1, 'samples': samples,
        'generator': 'os.urandom, 10 bits per sample (3000 + 0..1023)',
        'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, rows)


def capture_vm():
    log('VM captures (suite evidence): several minutes under TCG')
    p = subprocess.run([sys.executable,
                        os.path.join(SRC, 'tests/harness/main.py'),
                        '--build', BUILD, 'check', '--suite', 'evidence'],
                       capture_output=True, text=True)
    tail = [l for l in p.stdout.splitlines() if l.startswith('check:')]
    log(tail[-1] if tail else 'no summary')
    if p.returncode:
        sys.exit('evidence: VM captures failed; see ' +
                 os.path.join(BUILD, 'evidence'))


def ea(path, lsb, field, diff):
    cmd = [os.path.join(TOOLS, 'cpurng-ea'), '--json', '--lsb', str(lsb),
           '--field', field] + (['--diff'] if diff else [])
    return json.loads(run(cmd + [path]))


def quick(path):
    """The module's in-kernel estimate (cpurng-ea --quick) of every block."""
    p = subprocess.run([os.path.join(TOOLS, 'cpurng-ea'), '--json',
                        '--quick', str(evidence_conditions.QUICK_BLOCK),
                        path], capture_output=True, text=True)
    # a capture shorter than one block has no in-kernel estimate
    return json.loads(p.stdout) if p.returncode == 0 else {}


def spectrum(path, prefix, field, diff):
    cmd = [os.path.join(TOOLS, 'cpurng-spectrum'), '--json', '--field',
           field] + (['--diff'] if diff else [])
    return json.loads(run(cmd + [path, prefix]))


def restart(path, initial):
    """SP800-90B 3.1.4 on a restart capture, initial estimate H_I.

    cpurng-ea exits 1 when H_I is rejected and still prints its JSON,
    including the largest H_I the same restarts accept.
    """
    p = subprocess.run([os.path.join(TOOLS, 'cpurng-ea'), '--restart',
                        '--json', '--initial', f'{initial:.6f}', path],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f'evidence: cpurng-ea --restart {path}: {p.stderr.strip()}')
    return json.loads(p.stdout)


def describe(path, field='delta'):
    """Timer granularity and shape of the raw values of one field.

    The step is the greatest common divisor of the values seen in at least
    0.1 % of the samples: a timer that counts in steps of s makes every
    delta a multiple of s, and only rare outliers escape it.
    """
    values = noise_file.column(path, field)
    counts = Counter(values)
    common = [v for v, c in counts.items() if c * 1000 >= len(values)]
    step = 0
    for v in common:
        step = math.gcd(step, v)
    modal, modal_count = counts.most_common(1)[0]
    return {'samples': len(values), 'distinct': len(counts), 'step': step,
            'modal': modal, 'modal_share': modal_count / len(values)}


def plan(files):
    """(key, what) -> callable for every analysis of every capture."""
    tasks = {}
    out = os.path.join(BUILD, 'evidence', 'report')
    for name, path in files.items():
        if 'restart' in name:
            continue
        if 'collector' in name:
            fields = COLLECTOR_FIELDS
        else:
            fields = [('delta', False)]
            tasks[(name, 'shape')] = (describe, path)
            if 'jitter' in name:
                tasks[(name, 'quick')] = (quick, path)
        for field, diff in fields:
            key = name if field == 'delta' else f'{name}:{field}'
            timing = field in ('delta', 'cycles')
            for lsb in EXTRACTIONS if timing else [0]:
                tasks[(key, lsb)] = (ea, path, lsb, field, diff)
            if timing:
                prefix = os.path.join(out, key.replace(':', '-'))
                tasks[(key, 'spectrum')] = (spectrum, path, prefix, field,
                                            diff)
    return tasks


def analyse(files, jobs):
    tasks = plan(files)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futs = {pool.submit(*t): k for k, t in tasks.items()}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            key, what = futs[fut]
            results.setdefault(key, {})[what] = fut.result()
            log(f'analysed {key} {what} ({n}/{len(futs)})')
    return results


def compare_boots(a, b):
    """Sample-by-sample comparison of the two deterministic boots."""
    da, db = noise_file.column(a, 'delta'), noise_file.column(b, 'delta')
    n = min(len(da), len(db))
    modal = Counter(da).most_common(1)[0][0]
    odd = [i for i in range(n) if da[i] != modal]
    gaps = sorted(j - i for i, j in zip(odd, odd[1:]))
    return {'samples': n,
            'identical': sum(da[i] == db[i] for i in range(n)),
            'distinct': [len(set(da)), len(set(db))],
            'modal': modal, 'modal_share': da.count(modal) / len(da),
            'other_samples': len(odd),
            'median_gap': gaps[len(gaps) // 2] if gaps else 0,
            'headers': [noise_file.header(a), noise_file.header(b)]}


PLOT = """set terminal pngcairo size 900,500 font ',10'
set output '{png}'
set title '{title}'
set xlabel '{xlabel}'
set ylabel '{ylabel}'
set key outside right
{extra}
plot {series}
"""


def plot(out, png, title, xlabel, ylabel, series, extra=''):
    spec = ', '.join(f"'{f}' using 1:2 with lines title '{t}'"
                     for f, t in series)
    script = PLOT.format(png=png, title=title, xlabel=xlabel, ylabel=ylabel,
                         extra=extra, series=spec)
    subprocess.run(['gnuplot'], input=script, text=True, check=True, cwd=out)


def plots(out, results):
    groups = {
        'native': [k for k in results if k.startswith('native-jitter-')],
        'vm': [k for k in results if k.startswith('vm-jitter-') and
               'boot' not in k],
    }
    control = 'control-iid' if 'control-iid' in results else None
    os.makedirs(os.path.join(out, 'evidence'), exist_ok=True)
    made = []
    for where, keys in groups.items():
        if not keys:
            continue
        keys = sorted(keys)
        with_control = keys + ([control] if control else [])

        def label(k):
            return 'control (iid)' if k == control else k.rsplit('-', 1)[1]

        plot(out, f'evidence/{where}-hist.png', f'Histogram of raw deltas ({where})',
             'delta (timer ticks)', 'samples',
             [(f'{k}.hist', label(k)) for k in keys])
        plot(out, f'evidence/{where}-spectrum.png',
             f'Power spectrum of raw deltas ({where}; mean of 4096-sample '
             'periodograms, each normalised to its median)',
             'frequency (cycles/sample)', 'power / median power',
             [(f'{k}.spectrum', label(k)) for k in with_control],
             'set logscale y')
        plot(out, f'evidence/{where}-acf.png',
             f'Autocorrelation of raw deltas ({where})', 'lag (samples)',
             'autocorrelation', [(f'{k}.acf', label(k))
                                 for k in with_control])
        made += [f'evidence/{where}-{what}.png'
                 for what in ('hist', 'spectrum', 'acf')]
    return made


def plot_conditions(out, conditions, claim):
    """Every run's final estimate per condition, with the credit."""
    if not conditions:
        return []
    data = os.path.join(out, 'conditions.dat')
    with open(data, 'w') as f:
        for i, c in enumerate(conditions):
            for r in c['runs']:
                f.write(f"{i} {r['final']:.4f} {r['quick_min']:.4f}\n")
    labels = ', '.join(f'"{c["condition"]}" {i}'
                       for i, c in enumerate(conditions))
    script = f"""set terminal pngcairo size 900,500 font ',10'
set output 'evidence/conditions.png'
set title 'Min-entropy per load condition (native, default configuration)'
set ylabel 'bits per sample'
set xtics ({labels})
set xrange [-0.5:{len(conditions) - 0.5}]
set yrange [0:*]
set key outside right
plot 'conditions.dat' using ($1-0.1):2 with points pt 7 title 'SP800-90B final (each run)', \\
     'conditions.dat' using ($1+0.1):3 with points pt 6 title 'in-kernel estimate (lowest block)', \\
     {claim} with lines dt 2 title 'credit 1/osr', \\
     {2 * claim} with lines dt 3 title 'load-time check: 2 x credit'
"""
    subprocess.run(['gnuplot'], input=script, text=True, check=True, cwd=out)
    return ['evidence/conditions.png']


def collect_files():
    ev = os.path.join(BUILD, 'evidence')
    paths = (glob.glob(os.path.join(ev, 'native', '*.cpn')) +
             glob.glob(os.path.join(ev, 'evidence-vm', 'files', '*.cpn')))
    files = {os.path.basename(p)[:-4]: p for p in paths}
    files['control-iid'] = os.path.join(ev, 'control', 'control-iid.cpn')
    icount = [os.path.join(ev, f'evidence-icount-{b}', 'files',
                           'icount-jitter-normal.cpn') for b in 'ab']
    if os.path.exists(icount[0]):
        files['icount-jitter-normal'] = icount[0]
    return files, icount


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--samples', type=int, default=1000000)
    p.add_argument('--restarts', type=int, default=1000)
    p.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    p.add_argument('--condition-runs', type=int, default=5,
                   help='runs per load condition (0: none)')
    p.add_argument('--skip-vm', action='store_true',
                   help='reuse the VM captures of an earlier run')
    p.add_argument('--skip-capture', action='store_true',
                   help='reuse every capture of an earlier run')
    p.add_argument('--publish', action='store_true',
                   help='copy the report to Documentation/')
    args = p.parse_args()
    ev = os.path.join(BUILD, 'evidence')
    out = os.path.join(ev, 'report')
    start = time.time()
    if not args.skip_capture:
        capture_native(os.path.join(ev, 'native'), args.samples,
                       args.restarts)
        if args.condition_runs:
            capture_conditions(os.path.join(ev, 'conditions'),
                               args.condition_runs, args.samples,
                               args.restarts)
        os.makedirs(os.path.join(ev, 'control'), exist_ok=True)
        capture_control(os.path.join(ev, 'control', 'control-iid.cpn'),
                        args.samples)
        if not args.skip_vm:
            capture_vm()
    os.makedirs(out, exist_ok=True)
    files, icount = collect_files()
    missing = [k for k, f in files.items() if not os.path.exists(f)]
    if missing:
        sys.exit(f'evidence: no capture for {", ".join(missing)}; '
                 'run without --skip-capture')
    results = analyse(files, args.jobs)
    conditions = analyse_conditions(os.path.join(ev, 'conditions'),
                                    args.jobs)

    restarts = {}
    for where in ('native', 'vm'):
        key = f'{where}-jitter-restart'
        if key in files and f'{where}-jitter-normal' in results:
            initial = results[f'{where}-jitter-normal'][0]['min_entropy']
            restarts[where] = restart(files[key], initial)
            restarts[where]['header'] = noise_file.header(files[key])
    boots = (compare_boots(*icount) if all(map(os.path.exists, icount))
             else None)
    pngs = plots(out, results)
    osr = evidence_report.source_default(
        'include/cpurng/jitter.h', evidence_report.OSR_PATTERN)
    pngs += plot_conditions(out, conditions, 1 / osr)
    headers = {k: noise_file.header(f) for k, f in files.items()}
    data = {'results': {k: {str(w): v for w, v in r.items()}
                        for k, r in results.items()},
            'headers': headers, 'restarts': restarts, 'boots': boots,
            'conditions': conditions,
            'pngs': pngs}
    with open(os.path.join(out, 'evidence', 'results.json'), 'w') as f:
        json.dump(data, f, indent=1)
    report = os.path.join(out, 'report.rst')
    with open(report, 'w') as f:
        f.write(evidence_report.render(data))
    log(f'report: {report} ({time.time() - start:.0f} s)')
    if args.publish:
        doc = os.path.join(SRC, 'Documentation')
        shutil.rmtree(os.path.join(doc, 'evidence'), ignore_errors=True)
        shutil.copytree(os.path.join(out, 'evidence'),
                        os.path.join(doc, 'evidence'))
        shutil.copy(report, os.path.join(doc, 'entropy-evidence.rst'))
        log('published to Documentation/entropy-evidence.rst')


if __name__ == '__main__':
    main()
