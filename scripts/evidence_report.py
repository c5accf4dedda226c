# SPDX-License-Identifier: GPL-2.0
"""Render the entropy evidence report (reStructuredText) from results.json.

Every number and every verdict in the report is computed here from the
measurements; the prose around them is fixed.  Rerender without
recapturing: python3 scripts/evidence_report.py \
    build/evidence/report/evidence/results.json
"""

import json
import math
import os
import re
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LSBS = ['0', '1', '4', '8']
MODE_NAMES = {
    'normal': 'normal (as the RNG runs)',
    'irqoff': 'interrupts disabled',
    'preemptoff': 'preemption disabled',
    'l1': 'memory in L1 (4 KiB)',
    'llc': 'memory beyond LLC (64 MiB)',
    'fold': 'folding only',
    'mem': 'memory access only',
    'boot': 'first samples after load',
    'iid': 'control: independent uniform',
}
# A spectral peak this many times the control's is structure, not chance.
PEAK_FACTOR = 10
# |autocorrelation| above this at any lag 1..256 is a dependency worth naming
# (for 10^6 independent samples the standard error is 0.001).
ACF_NOTABLE = 0.05


OSR_PATTERN = r'#define CPURNG_JENT_DEFAULT_OSR\s+(\d+)'
MARGIN_PATTERN = r'#define CPURNG_JENT_ASSESS_MARGIN\s+(\d+)'


def source_default(path, pattern):
    """A default read from the source, so the verdict follows the code."""
    with open(os.path.join(SRC, path)) as f:
        m = re.search(pattern, f.read())
    return int(m.group(1)) if m else None


class Report:
    def __init__(self, data):
        self.r = data['results']
        self.headers = data['headers']
        self.restarts = data.get('restarts') or {}
        self.boots = data.get('boots')
        self.conditions = data.get('conditions') or []
        self.pngs = data.get('pngs') or []
        self.out = []

    # -- access ----------------------------------------------------------
    def h(self, key, lsb='0'):
        return self.r.get(key, {}).get(lsb, {}).get('min_entropy')

    def by(self, key, lsb='0'):
        return self.r.get(key, {}).get(lsb, {}).get('by', '-')

    def sp(self, key):
        return self.r.get(key, {}).get('spectrum', {})

    def shape(self, key):
        return self.r.get(key, {}).get('shape', {})

    def keys(self, prefix):
        order = list(MODE_NAMES)
        ks = [k for k in self.r if k.startswith(prefix) and ':' not in k]
        return sorted(ks, key=lambda k: order.index(k.rsplit('-', 1)[1])
                      if k.rsplit('-', 1)[1] in order else 99)

    # -- output ----------------------------------------------------------
    def w(self, *lines):
        self.out.extend(lines)

    def blank(self):
        if self.out and self.out[-1] != '':
            self.out.append('')

    def title(self, text, ch):
        self.blank()
        self.w('', text, ch * len(text), '')

    def table(self, head, rows):
        rows = [[str(c) for c in r] for r in rows]
        widths = [max(len(r[i]) for r in rows + [head])
                  for i in range(len(head))]
        line = '  '.join('=' * w for w in widths)

        def fmt(r):
            return '  '.join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
        self.blank()
        self.w(line, fmt(head), line, *[fmt(r) for r in rows], line, '')

    def bullets(self, items):
        for i in items:
            self.w(*wrap(i, first='* ', rest='  '))
        self.w('')

    def para(self, text):
        self.blank()
        self.w(*wrap(text), '')

    # -- sections --------------------------------------------------------
    def env_table(self):
        head = ['capture', 'where', 'CPU', 'virtualisation', 'clock',
                'kernel', 'timer', 'when']
        seen, rows = set(), []
        for key, h in sorted(self.headers.items()):
            where = h.get('where')
            group = 'deterministic VM' if key.startswith('icount') else \
                {'native': 'native', 'kernel': 'VM (TCG)'}.get(where, where)
            if group in seen:
                continue
            seen.add(group)
            rows.append([group, where, h.get('cpu', '-'),
                         h.get('virtualization', '-'),
                         h.get('clocksource', '-'), h.get('kernel', '-'),
                         h.get('timer', '-'), h.get('date', '-')])
        self.table(head, rows)

    def mode_table(self, prefix, extra=()):
        head = ['mode', 'raw', '1 LSB', '4 LSBs', '8 LSBs', 'values',
                'step', 'mean', 'sd', 'flatness', 'peak/median @ f',
                'max ACF @ lag']
        rows = []
        for key in list(self.keys(prefix)) + list(extra):
            if key not in self.r:
                continue
            mode = key.rsplit('-', 1)[1]
            cells = [MODE_NAMES.get(mode, mode)]
            for lsb in LSBS:
                v = self.h(key, lsb)
                cells.append(f'{v:.3f} ({self.by(key, lsb)})'
                             if v is not None else '-')
            s, sh = self.sp(key), self.shape(key)
            cells += [sh.get('distinct', '-'), sh.get('step', '-'),
                      f"{s.get('mean', 0):.0f}", f"{s.get('stddev', 0):.1f}",
                      f"{s.get('spectral_flatness', 0):.3f}",
                      f"{s.get('peak_to_median', 0):.1f} @ "
                      f"{s.get('peak_frequency', 0):.5f}",
                      f"{s.get('max_abs_acf', 0):+.3f} @ "
                      f"{s.get('max_acf_lag', 0)}"]
            rows.append(cells)
        self.table(head, rows)

    def render(self):
        osr = source_default('include/cpurng/jitter.h', OSR_PATTERN)
        credit = source_default('include/cpurng/drbg.h',
                                r'CPURNG_DRBG_CREDIT_MAX\s+(\d+)')
        nat = self.headers.get('native-jitter-normal', {})
        self.w('.. SPDX-License-Identifier: GPL-2.0', '')
        t = 'Entropy evidence: raw noise, isolation experiments, SP800-90B'
        self.w('=' * len(t), t, '=' * len(t), '')
        self.para('Written by ``make evidence`` (``scripts/evidence.py``, '
                  'rendered by ``scripts/evidence_report.py``); every '
                  'number and every verdict below is computed from the '
                  'captures, none is typed in.  Do not edit: rerun.  The '
                  'raw results are in `evidence/results.json`_.')
        self.w('.. _evidence/results.json: evidence/results.json', '')
        self.reproduce()
        self.title('Where and how this was measured', '=')
        self.env_table()
        self.para(
            f"Native captures: the jitter RNG's noise code "
            f"(``crypto/jitter_noise.c``, built at -O0 as in the module) "
            f"run in userspace by ``cpurng-capture -w native``, "
            f"{nat.get('samples', '?')} samples per mode, configuration "
            f"``{nat.get('config', '?')}`` (the module's defaults).  VM "
            f"captures: the module itself in QEMU TCG through its debugfs "
            f"raw-noise interface.  Deterministic VM: the same module under "
            f"QEMU ``-icount shift=0,sleep=off`` (the guest clock counts "
            f"instructions), booted twice.")
        self.caveats()
        self.answers(osr)
        self.title('Per-mode results', '=')
        self.para('Min-entropy is in bits per sample: the lowest of the '
                  'SP800-90B 6.3 estimators (named in brackets) on the raw '
                  'deltas mapped to symbols, and on their 1-, 4- and 8-bit '
                  'LSBs (with the bitstring estimators of 6.3 scaled by the '
                  'bit count).  *values*: distinct deltas; *step*: the timer '
                  'granularity (the greatest common divisor of every delta '
                  'seen in at least 0.1 % of the samples).  Mean, sd, '
                  'spectrum and autocorrelation are of the deltas clipped '
                  'to their 0.1 % and 99.9 % quantiles; flatness is 1 for '
                  'white noise; the peak is relative to the median spectral '
                  'power, at *f* cycles per sample.')
        for where, prefix, extra in (
                ('Native', 'native-jitter-', ['control-iid']),
                ('VM (QEMU TCG, emulated counter)', 'vm-jitter-', []),
                ('Deterministic VM (QEMU -icount)', 'icount-jitter-', [])):
            if self.keys(prefix):
                self.title(where, '-')
                self.mode_table(prefix, extra)
        self.restart_section()
        self.conditions_section(osr)
        self.boot_section()
        self.collector_section()
        self.plots()
        self.nist_differences()
        self.justification(osr, credit)
        return '\n'.join(self.out).rstrip('\n') + '\n'

    def reproduce(self):
        self.title('Reproduce', '=')
        self.w('::', '',
               '  make evidence                          # capture + analyse '
               '(about 18 minutes on 2 cores)',
               '  make evidence EVIDENCE_ARGS=--publish  # ... and replace '
               'this file',
               '  make evidence EVIDENCE_ARGS=--skip-capture  # reanalyse '
               'earlier captures', '')
        self.para('The tools work on their own too: ``cpurng-capture`` '
                  '(native or from the module\'s debugfs interface, '
                  'module parameter ``raw_capture=1``), ``cpurng-ea`` and '
                  '``cpurng-spectrum``; see their man pages in ``tools/``.')

    def caveats(self):
        self.title('Caveats', '-')
        nat = self.headers.get('native-jitter-normal', {})
        virt = nat.get('virtualization', '')
        items = []
        if virt.startswith('yes'):
            items.append(
                f"The native machine is itself a virtual machine "
                f"({virt}).  Its counter is the hardware TSC read by "
                f"``rdtsc`` without a trap, but the hypervisor's scheduling "
                f"and interrupts are part of what is measured; a bare-metal "
                f"run may show less (or more) variation.")
        items += [
            'The VM captures run under QEMU TCG: the guest cycle counter is '
            'emulated from the host clock, so their variation is the '
            "emulator's and the host's, not the guest CPU's.  They prove "
            'that every capture path works; they are not entropy evidence.',
            'Interrupts cannot be disabled from userspace, so the '
            '*interrupts disabled* and *preemption disabled* modes exist only '
            'in the kernel module; on this host they were measured in the VM '
            'only.  On a bare-metal machine: load the module with '
            '``raw_capture=1`` and run ``cpurng-capture -w kernel -m irqoff``.',
            'Estimators measure predictability by a fixed set of predictors; '
            'no statistical test can tell entropy from the output of a '
            'deterministic process with a large hidden state (see the answer '
            'to Anvin below).',
            'One machine, one day.  Entropy of timing depends on the CPU, its '
            'clock and power management, and the load; every deployment '
            'should rerun ``make evidence`` on its own hardware.',
        ]
        self.bullets(items)

    # -- Ts'o's questions --------------------------------------------------
    def answers(self, osr):
        self.title("Answers to Ts'o's questions", '=')
        n_l1, n_llc = 'native-jitter-l1', 'native-jitter-llc'
        n_norm = 'native-jitter-normal'
        ctrl = self.sp('control-iid')

        self.title('Does variation persist with interrupts off and memory '
                   'in L1?', '-')
        h_l1 = self.h(n_l1)
        if h_l1 is not None:
            verdict = 'Yes' if h_l1 >= 0.1 else 'Barely' if h_l1 > 0 else 'No'
            self.para(
                f"{verdict}, natively with the memory walk confined to 4 KiB "
                f"(it stays in L1): the deltas take "
                f"{self.shape(n_l1).get('distinct')} distinct values, sd "
                f"{self.sp(n_l1).get('stddev', 0):.1f} ticks, min-entropy "
                f"{h_l1:.3f} bits/sample ({self.by(n_l1)}).  Interrupts "
                f"were on (userspace); see the caveats.")
        vm_irq = self.h('vm-jitter-irqoff')
        if vm_irq is not None:
            self.para(
                f"In the VM, interrupts disabled around each measurement: "
                f"{vm_irq:.3f} bits/sample ({self.by('vm-jitter-irqoff')}); "
                f"preemption disabled: "
                f"{fmt(self.h('vm-jitter-preemptoff'))}.  The path works; "
                f"the numbers are the emulator's timing.")
        if self.boots:
            b = self.boots
            self.para(
                f"With every source of uncertainty removed -- the "
                f"deterministic machine, whose clock counts instructions -- "
                f"{100 * b['modal_share']:.2f} % of the "
                f"{b['samples']} deltas equal {b['modal']} ticks; the other "
                f"{b['other_samples']} fall every {b['median_gap']} samples "
                f"(median), which is the periodic timer interrupt landing "
                f"inside a measurement.  The noise code itself adds no "
                f"variation: what the other captures show comes from the "
                f"machine, not from the algorithm.")

        self.title('What does DRAM add?', '-')
        if h_l1 is not None and self.h(n_llc) is not None:
            s1, s2 = self.sp(n_l1), self.sp(n_llc)
            h_llc = self.h(n_llc)
            self.para(
                f"Walking a 64 MiB buffer (beyond the last-level cache) "
                f"instead of 4 KiB, the mean delta "
                f"{change(s1.get('mean', 0), s2.get('mean', 0), '.0f')} "
                f"ticks and its sd "
                f"{change(s1.get('stddev', 0), s2.get('stddev', 0), '.1f')}; "
                f"min-entropy {change(h_l1, h_llc, '.3f')} bits/sample "
                f"({ratio(h_llc, h_l1)} that in L1).")
            hf, hm = self.h('native-jitter-fold'), self.h('native-jitter-mem')
            if hf is not None and hm is not None:
                self.para(
                    f"Split by noise path: folding alone (no memory access) "
                    f"{hf:.3f} bits/sample, memory access alone {hm:.3f}, "
                    f"both as the RNG runs {fmt(self.h(n_norm))}.")

        self.title('Is there periodic structure?', '-')
        peaks = [(k, self.sp(k)) for k in self.keys('native-jitter-')]
        base = ctrl.get('peak_to_median') or 1
        struct = [(k, s) for k, s in peaks
                  if s.get('peak_to_median', 0) > PEAK_FACTOR * base]
        if peaks:
            if struct:
                k, s = max(struct, key=lambda x: x[1]['peak_to_median'])
                f = s['peak_frequency']
                self.para(
                    f"Yes.  In {len(struct)} of {len(peaks)} native modes the "
                    f"strongest spectral peak exceeds {PEAK_FACTOR} times the "
                    f"control's ({base:.1f} x median for independent "
                    f"samples); the largest, in mode "
                    f"*{k.rsplit('-', 1)[1]}*, is "
                    f"{s['peak_to_median']:.0f} x the median at "
                    f"{f:.5f} cycles/sample (a period of about "
                    f"{1 / f:.0f} samples).  {self.describe_peak(f)}")
            else:
                self.para(
                    f"No spectral peak in any native mode exceeds "
                    f"{PEAK_FACTOR} times the control's ({base:.1f} x "
                    f"median).")
            acf = [(k, s.get('max_abs_acf', 0), s.get('max_acf_lag'))
                   for k, s in peaks if abs(s.get('max_abs_acf', 0))
                   > ACF_NOTABLE]
            if acf:
                worst = max(acf, key=lambda x: abs(x[1]))
                self.para(
                    f"Successive deltas are not independent: the "
                    f"autocorrelation reaches {worst[1]:+.2f} (lag "
                    f"{worst[2]}, mode *{worst[0].rsplit('-', 1)[1]}*; the "
                    f"control's largest is "
                    f"{ctrl.get('max_abs_acf', 0):+.3f}).  This is why "
                    f"only the non-IID estimators of SP800-90B 6.3 are "
                    f"used: their predictors (Markov, lag, MultiMMC, "
                    f"LZ78Y) measure what remains after exploiting such "
                    f"dependence.")

        self.title('What is the physical process?', '-')
        step = self.shape(n_norm).get('step')
        if step:
            self.para(
                f"The timer is coarser than it looks: natively every common "
                f"delta is a multiple of {step} ticks, so the counter is "
                f"updated in steps of {step}, less often than its nominal "
                f"rate.  The low bits of a raw delta therefore carry almost "
                f"no entropy (1 LSB: {fmt(self.h(n_norm, '1'))} bits/sample) "
                f"and the estimates on whole deltas are the meaningful ones; "
                f"the conditioning hashes whole deltas, so nothing is lost "
                f"to the coarse steps beyond what the estimates show.")
        self.para(
            'What varies is how long a fixed instruction sequence takes: '
            'the memory walk depends on cache and TLB state, the memory '
            'controller and DRAM refresh, and on the other agents (cores, '
            'the hypervisor, devices) sharing them; the folding loop depends '
            'on pipeline and clock-domain timing.  The isolation modes above '
            'show how much each contributes on this machine.  The '
            'deterministic machine shows that none of it comes from the '
            'code.')

        self.title("Anvin: is it a PRNG with a large, obscure state?", '-')
        parts = []
        if self.boots:
            b = self.boots
            parts.append(
                f"On a machine whose clock counts instructions the two boots "
                f"agree on {b['identical']} of {b['samples']} deltas "
                f"({100 * b['identical'] / b['samples']:.2f} %): "
                f"the code by itself is no generator of variation, and the "
                f"rest differ only where the timer interrupt landed.")
        rs = self.restarts.get('native')
        if rs:
            parts.append(self.restart_replay(rs))
        parts.append(
            'None of this excludes a deterministic process hidden in the '
            'hardware (caches, DRAM controller, hypervisor) whose state an '
            'attacker could model; no black-box statistic can.  That is why '
            f'the RNG claims only 1/{osr} bit per sample, far below the '
            'estimates, and why the collector claims nothing.')
        self.para(' '.join(parts))

    def describe_peak(self, f):
        if f < 0.002:
            return ('A peak at the lowest frequencies is slow drift of the '
                    'mean delta over thousands of samples (clock-frequency '
                    'changes, other load on the host), not a fixed pattern '
                    'of the noise code.')
        return ('A peak at this frequency means the deltas repeat a '
                'pattern of about that period.')

    def restart_replay(self, rs):
        """What the columns (same index, different restarts) and rows say."""
        shape = restart_shape(rs)
        cols_ok = rs['col_max'] <= rs['col_cutoff']
        text = (f"Natively, {shape}: across restarts the most common value "
                f"at any one sample index appeared {rs['col_max']} times "
                f"(SP800-90B 3.1.4.3 cutoff {rs['col_cutoff']}) and the "
                f"column data estimate {rs['cols']['h']:.3f} bits/sample, "
                + ("so restarts from the same software state do not replay "
                   "the same deltas." if cols_ok else
                   "so restarts from the same software state **do** replay "
                   "the same deltas more often than chance allows."))
        if rs['row_max'] > rs['row_cutoff']:
            text += (f"  Within one restart, though, values cluster: one "
                     f"value filled {rs['row_max']} of {rs['samples']} "
                     f"samples of a row (cutoff {rs['row_cutoff']}), more "
                     f"than the long-run estimate of "
                     f"{rs['initial']:.3f} bits allows.  Short windows are "
                     f"less random than a million samples suggest; the "
                     f"restart test accepts at most "
                     f"{rs['accepted_initial']:.3f} bits/sample, and that "
                     f"figure is used below.")
        return text

    def restart_section(self):
        if not self.restarts:
            return
        self.title('Restart tests (SP800-90B 3.1.4)', '=')
        self.para('Each capture restarts the noise source from the same '
                  'state 1000 times and keeps the first 1000 samples of '
                  'each.  Rows are restarts, columns are sample indices.  '
                  'The initial estimate H_I is the normal mode\'s raw '
                  'estimate; the test accepts it when no row or column '
                  'repeats a value more than CRITBINOM(1000, 2^-H_I, '
                  '1 - 0.000005) times and the row and column estimates are '
                  'both at least H_I / 2.  Where H_I is rejected, the '
                  'largest H_I the same data accept is given.')
        rows = []
        for where, rs in sorted(self.restarts.items()):
            rows.append([
                where, f"{rs['initial']:.3f}",
                f"{rs['row_max']} / {rs['row_cutoff']}",
                f"{rs['col_max']} / {rs['col_cutoff']}",
                f"{rs['rows']['h']:.3f} ({rs['rows']['by']})",
                f"{rs['cols']['h']:.3f} ({rs['cols']['by']})",
                'accepted' if rs['passed'] else 'REJECTED',
                f"{rs['accepted_initial']:.3f}",
                f"{restart_final(rs):.3f}"])
        self.table(['where', 'H_I', 'row max / cutoff', 'column max / cutoff',
                    'row data', 'column data', 'result', 'largest accepted',
                    'final'], rows)

    def worst(self):
        """The run with the lowest final estimate over every condition."""
        runs = [r for c in self.conditions for r in c['runs']]
        return min(runs, key=lambda r: r['final']) if runs else None

    def conditions_section(self, osr):
        if not self.conditions:
            return
        self.title('Under load: conditions and runs', '=')
        n = len(self.conditions[0]['runs'])
        self.para(
            f"The noise is captured natively in the module's default "
            f"configuration, {n} runs per condition, each run "
            f"{self.conditions[0]['runs'][0].get('capture_s', '?')} s or so "
            f"of 10^6 samples plus a 1000 x 1000 restart matrix while the "
            f"load runs.  *final* is the SP800-90B figure: the lower of "
            f"the symbol and bitstring assessments (6.3), then the restart "
            f"test (3.1.4) at that estimate, and where the test rejects it "
            f"the largest estimate it accepts.  *in-kernel* is the module's "
            f"own load-time estimate (``crypto/jitter_estimate.c``, blocks "
            f"of 8192 samples) of the same capture, its lowest block.  "
            f"*entropy/s* multiplies the lowest final estimate by the "
            f"native jitter RNG's sample rate measured under the same "
            f"load (``cpurng-jitter --bench``).")
        rows = []
        for c in self.conditions:
            rows.append([
                c['condition'], c['load'], len(c['runs']),
                c['interrupts_per_s'], f"{100 * c['cpu_busy']:.0f} %",
                f"{c['min']:.3f}", f"{c['median']:.3f}", f"{c['max']:.3f}",
                f"{c['quick_min']:.3f}",
                f"{c['entropy_bits_per_s_min'] / 1e6:.2f} Mbit/s"])
        self.table(['condition', 'load', 'runs', 'interrupts/s', 'CPU busy',
                    'final min', 'median', 'max', 'in-kernel min',
                    'entropy/s (min)'], rows)
        rows = []
        for c in self.conditions:
            for r in c['runs']:
                rows.append([
                    c['condition'], r['run'], f"{r['h_original']:.3f}",
                    f"{r['h_bitstring_per_sample']:.3f} "
                    f"({r['bitstring_width']} bits)",
                    f"{r['initial']:.3f} ({r['initial_by']})",
                    'accepted' if r['restart_passed'] else
                    f"rejected, accepts {r['accepted_initial']:.3f}",
                    f"{r['final']:.3f}", f"{r['quick_min']:.3f}",
                    f"{r['quick_median']:.3f}"])
        self.table(['condition', 'run', 'H_original', 'width x H_bitstring',
                    'initial', 'restart test', 'final', 'in-kernel min',
                    'in-kernel median'], rows)
        w = self.worst()
        self.para(
            f"The worst run: *{w['condition']}* run {w['run']}, "
            f"{w['final']:.3f} bits/sample.  That figure, not the idle "
            f"machine's, is set against the credit below.")
        rows = []
        for key, where in (('native-jitter-normal', 'native, quiet'),
                           ('vm-jitter-normal', 'VM (QEMU TCG)'),
                           ('icount-jitter-normal', 'deterministic VM')):
            q = self.r.get(key, {}).get('quick') or {}
            if q:
                rows.append([where, q['blocks'], f"{q['first']['h']:.3f}",
                             f"{q['min']:.3f}", f"{q['median']:.3f}",
                             f"{q['max']:.3f}"])
        if rows:
            self.para('The in-kernel estimate of the normal-mode captures, '
                      'block by block (the module takes one block at load):')
            self.table(['capture', 'blocks', 'first', 'min', 'median',
                        'max'], rows)

    def nist_differences(self):
        self.title("Where this differs from NIST's tools", '=')
        items = [
            "NIST's ``ea_non_iid`` and ``ea_restart`` take samples of 1 to 8 "
            "bits.  The raw deltas here are wider, so they are mapped to "
            "symbols by rank, as ``ea_non_iid`` translates sparse samples, "
            "and the bitstring is built the way ``ea_non_iid`` builds it: "
            "from the raw values, not the ranks, with as many bits per "
            "sample as the highest bit in use.",
            "The bitstring is cut to its first 10^6 bits, like "
            "``ea_non_iid`` without ``-a`` (``cpurng-ea --all-bits`` uses "
            "every bit).  The final figure is min(H_original, width x "
            "H_bitstring), as in SP800-90B 6.3.",
            "Restart sanity check: SP800-90B 3.1.4.3 gives the cutoff as "
            "CRITBINOM(1000, 2^-H_I, 1 - alpha) with alpha = 0.01 / 2000, "
            "and that is what is used here, for rows and columns alike.  "
            "``ea_restart`` instead simulates a worst-case distribution "
            "(floor(2^H_I) symbols at probability 2^-H_I) with alpha = 1 - "
            "0.99^(1/2000), which gives a cutoff at least as large.  Ours "
            "rejects at least as often: the stricter reading.",
            "Restart row and column data: ``ea_restart`` assesses the "
            "symbols only; here the bitstring is assessed too and the lower "
            "figure counts, as for the initial estimate.",
            "When the restart test rejects H_I, ``ea_restart`` reports a "
            "failure and nothing else.  Here the largest H_I that the same "
            "restarts accept is found by bisection and reported; the verdict "
            "uses it (SP800-90B 3.1.4.3 makes the final estimate "
            "min(H_r, H_c, H_I) for an accepted H_I).",
            "The in-kernel estimate is a subset: most common value (6.3.1), "
            "t-tuple (6.3.5, t at most 256) and the lag predictor's global "
            "performance (6.3.8 without the longest-run term), in integer "
            "arithmetic, on 8192 samples.  Being a subset on a short block "
            "it reads at or above the full assessment of the same samples "
            "(``tests/host/test_ea.py`` checks each of its estimators "
            "against ``cpurng-ea``'s floating-point one), which is why the "
            "module asks it for twice the credit.",
        ]
        self.bullets(items)

    def boot_section(self):
        if not self.boots:
            return
        b = self.boots
        self.title('The deterministic machine: two boots compared', '=')
        self.table(['samples', 'identical', 'distinct values (a, b)',
                    'modal delta', 'modal share', 'other samples',
                    'median gap'],
                   [[b['samples'], b['identical'],
                     f"{b['distinct'][0]}, {b['distinct'][1]}", b['modal'],
                     f"{100 * b['modal_share']:.3f} %", b['other_samples'],
                     b['median_gap']]])
        key = 'icount-jitter-normal'
        if self.h(key) is not None:
            self.para(
                f"The estimators on boot a: {self.h(key):.4f} bits/sample "
                f"({self.by(key)}).  This is the figure for a machine with "
                f"no physical noise; the jitter RNG's start-up test refuses "
                f"such a machine.")

    def collector_section(self):
        keys = sorted(k for k in self.r if k.startswith('vm-collector:'))
        if not keys:
            return
        self.title("Collector inputs (VM)", '=')
        self.para(
            "Per-event inputs of the CPU-randomness collector, captured in "
            "the VM (the events are diverted from the pools while "
            "recording).  Counters (*cycles*, *jiffies*) are assessed by "
            "their increments between successive events; pointers as raw "
            "values.  The collector credits zero entropy whatever these "
            "say: the values are the emulator's, and call sites and "
            "pointers are largely predictable from the kernel's layout.")
        rows = []
        for k in keys:
            field = k.split(':', 1)[1]
            res = self.r[k].get('0', {})
            rows.append([field, 'increments' if res.get('diff') else 'values',
                         res.get('alphabet', '-'),
                         f"{res.get('min_entropy', 0):.3f} "
                         f"({res.get('by', '-')})"])
        self.table(['field', 'assessed', 'symbols', 'min-entropy'], rows)

    def plots(self):
        if not self.pngs:
            return
        self.title('Plots', '=')
        for png in self.pngs:
            self.w(f'.. image:: {png}', f'   :alt: {png}', '')

    def justification(self, osr, credit):
        self.title('What this justifies', '=')
        key = 'native-jitter-normal'
        h = self.h(key)
        rs = self.restarts.get('native')
        if h is None or osr is None:
            self.para('No native capture: nothing is justified by this run.')
            return
        h_idle = min(h, restart_final(rs)) if rs else h
        worst = min((self.h(k), k) for k in self.keys('native-jitter-')
                    if self.h(k) is not None)
        claim = 1 / osr
        self.para(
            f"The jitter RNG credits each health-tested sample 1/osr bit; "
            f"the default osr is {osr} (``include/cpurng/jitter.h``), a claim "
            f"of {claim:.3f} bits/sample.  Measured natively in the mode the "
            f"RNG runs, on the quiet machine: {h:.3f} bits/sample "
            f"({self.by(key)})"
            + (f", {h_idle:.3f} after the restart tests"
               + ('' if rs['passed'] else
                  f" (which reject {rs['initial']:.3f} and accept at most "
                  f"{rs['accepted_initial']:.3f})") if rs else '')
            + f"; the lowest of any native isolation mode is "
            f"{worst[0]:.3f} (*{worst[1].rsplit('-', 1)[1]}*).")
        w = self.worst()
        h_final = w['final'] if w else h_idle
        if w:
            runs = sum(len(c['runs']) for c in self.conditions)
            self.para(
                f"Under load ({len(self.conditions)} conditions, {runs} "
                f"runs) the lowest final estimate is {h_final:.3f} "
                f"bits/sample (*{w['condition']}*, run {w['run']}).  The "
                f"verdict uses that minimum.")
        margin = h_final / claim
        if h_final >= claim:
            self.para(
                ("**Justified on this machine, at its worst measured "
                 "case**" if w else "**Justified on this machine**") +
                f": the minimum is {margin:.2f} times the claim.  A "
                f"machine measuring below {claim:.3f} needs a higher "
                f"``osr`` (module parameter, up to 8, or ``osr=auto``).")
        else:
            need = math.ceil(1 / h_final) if h_final > 0 else None
            self.para(
                f"**Not justified on this machine**: the minimum "
                f"{h_final:.3f} < {claim:.3f} (margin {margin:.2f})."
                + (f"  osr {need} would be." if need and need <= 8 else
                   '  No osr up to 8 is.'))
        margin_check = source_default('include/cpurng/jitter.h',
                                      MARGIN_PATTERN)
        if w and margin_check:
            qmin = min(c['quick_min'] for c in self.conditions)
            pick = math.ceil(margin_check / qmin) if qmin > 0 else None
            self.para(
                f"The module checks the claim again where it runs: at load "
                f"its own estimate must reach {margin_check} x "
                f"{claim:.3f} = {margin_check * claim:.3f} bits/sample, or it "
                f"refuses to register.  Its lowest block of 8192 samples "
                f"over every run above read {qmin:.3f}"
                + (f", so ``osr=auto`` would have chosen osr {pick} at "
                   f"worst on this machine." if pick and pick <= 8 else
                   ', which no osr up to 8 covers with that margin.'))
            need_sp = math.ceil(1 / h_final) if h_final > 0 else 99
            rec = max(need_sp, pick or 99)
            if rec <= osr:
                self.para(
                    f"The smallest osr that both the minimum and the "
                    f"load-time check support on this machine is {rec}; the "
                    f"default is {osr}, so the module loads with its "
                    f"defaults here even at the worst measured case.")
            else:
                self.para(
                    f"**The default osr is too low for this machine**: the "
                    f"smallest osr that both the minimum and the load-time "
                    f"check support is "
                    + (f"{rec}, the default {osr}." if rec <= 8 else
                       f"above 8, the largest there is."))
        if credit is not None:
            ok = h_final >= claim
            self.para(
                f"The DRBG credits the jitter RNG's output {credit} bits per "
                f"byte (full entropy; ``crypto/drbg_sources.c``).  That "
                f"stands or falls with the line above: each 256-bit block "
                f"is conditioned by SHA-256 from (256 + 64) x osr credited "
                f"samples, which SP800-90B 3.1.5.1.2 accepts as full "
                f"entropy when each sample carries at least 1/osr bit.  "
                + ('The measurement supports it.' if ok else
                   'The measurement does not support it; lower the credit '
                   '(``sources=jitterentropy_rng:N``) or raise osr.'))


def restart_shape(rs):
    return f"{rs['restarts']} restarts x {rs['samples']} samples"


def restart_final(rs):
    """SP800-90B 3.1.4.3 final estimate: min(H_I, row, column) when H_I is
    accepted; otherwise the same at the largest accepted H_I."""
    if rs['passed']:
        return rs['min_entropy']
    return rs['min_entropy_at_accepted']


def fmt(v):
    return f'{v:.3f}' if v is not None else '-'


def change(a, b, spec):
    if f'{a:{spec}}' == f'{b:{spec}}':
        return f'stays at {a:{spec}}'
    return f"{'rises' if b > a else 'falls'} from {a:{spec}} to {b:{spec}}"


def ratio(a, b):
    if not b:
        return 'no ratio'
    return f'{a / b:.2f} times'


def wrap(text, width=76, first='', rest=''):
    words, lines, cur = text.split(), [], first
    for w in words:
        if len(cur) + len(w) + 1 > width and cur.strip():
            lines.append(cur.rstrip())
            cur = rest
        cur += w + ' '
    lines.append(cur.rstrip())
    return lines


def render(data):
    return Report(data).render()


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: evidence_report.py results.json')
    with open(sys.argv[1]) as f:
        sys.stdout.write(render(json.load(f)))
