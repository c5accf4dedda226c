#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Validation of cpurng-ea's SP800-90B estimators on data with known answers.

- uniform random bytes: about 8 bits per byte from every estimator;
- independent biased bits, P(1) = 0.7: -log2(0.7) = 0.515 bits, which no
  estimator may exceed by more than its sampling error, and none may fall
  far below;
- a periodic sequence: the predictors must see through it (near 0);
- hand-checkable cases: the MCV bound on a short sequence, the Markov
  estimate of 0101...;
- restart tests: independent restarts pass, identical restarts fail the
  sanity check (what a deterministic machine produces), and a rejected
  H_I comes with the largest H_I the data accept, which then passes.

The data come from seeded generators, so every run sees the same input.
"""

import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from ktap import finish, report

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('BUILD', os.path.join(SRC, 'build'))
EA = os.path.join(BUILD, 'tools', 'cpurng-ea')
SPECTRUM = os.path.join(BUILD, 'tools', 'cpurng-spectrum')
CAPTURE = os.path.join(BUILD, 'tools', 'cpurng-capture')



def write_capture(path, values, rows=1):
    """A one-field capture file of u64 values."""
    with open(path, 'wb') as f:
        f.write(b'cpurng-noise 1\nsource: test\nwhere: host\nmode: synthetic\n'
                b'fields: value\n')
        f.write(f'rows: {rows}\nsamples: {len(values) // rows}\n\n'.encode())
        f.write(struct.pack(f'<{len(values)}Q', *values))


def assess(values, lsb, rows=1, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'data.cpn')
        write_capture(path, values, rows)
        json_opt = [] if '--restart' in extra else ['--json']
        p = subprocess.run([EA, '--lsb', str(lsb)] + json_opt + list(extra) +
                           [path], capture_output=True, text=True)
    if '--restart' in extra:
        return p
    return json.loads(p.stdout) if p.returncode == 0 else None


def estimates(res, which='symbols', scale=1):
    return {e['estimator']: e['h'] for e in res['estimates']
            if e['set'] == which and e['h'] >= 0}


def test_uniform():
    rng = random.Random(1)
    data = [rng.getrandbits(8) for _ in range(200000)]
    res = assess(data, 8)
    sym = estimates(res)
    bits = estimates(res, 'bitstring')
    report(all(7.0 <= h <= 8.0 for h in sym.values()) and len(sym) == 7,
           'uniform_bytes_every_symbol_estimator_7_to_8_bits', str(sym))
    # 200000 bytes: the 99 % bound alone costs about 0.25 bit
    report(sym.get('mcv', 0) >= 7.6, 'uniform_bytes_mcv_above_7.6_bits', str(sym))
    # the first 10^6 bits (SP800-90B 6.3): compression's bound costs most
    report(all(h >= 6.5 for h in bits.values()) and len(bits) == 10,
           'uniform_bytes_bitstring_estimators_near_1_bit_per_bit', str(bits))


def test_biased_bits():
    """Estimators aimed at the most likely value find -log2(0.7); LRS and
    Lag measure collisions, -log2(p^2 + q^2); compression is conservative."""
    rng = random.Random(2)
    data = [1 if rng.random() < 0.7 else 0 for _ in range(200000)]
    res = assess(data, 1)
    est = estimates(res)
    diag = json.dumps({k: round(v, 4) for k, v in est.items()})
    expect = -math.log2(0.7)
    collide = -math.log2(0.7 ** 2 + 0.3 ** 2)
    aimed = ('mcv', 'collision', 'markov', 't-tuple', 'multi-mcw',
             'multi-mmc', 'lz78y')
    report(len(est) == 10 and all(abs(est[k] - expect) < 0.03 for k in aimed),
           'biased_bits_value_estimators_within_0.03_of_0.515', diag)
    report(all(abs(est.get(k, 0) - collide) < 0.03 for k in ('lrs', 'lag')),
           'biased_bits_lrs_and_lag_near_collision_entropy_0.786', diag)
    report(0.25 <= est.get('compression', 0) <= expect,
           'biased_bits_compression_conservative', diag)
    report(res['min_entropy'] <= expect + 0.01,
           'biased_bits_min_never_above_0.525', str(res['min_entropy']))


def test_periodic():
    data = [i % 17 for i in range(200000)]
    res = assess(data, 0)
    est = estimates(res)
    predictors = [est.get(k, 1) for k in ('lag', 'multi-mmc', 'lz78y')]
    report(all(h < 0.05 for h in predictors),
           'period_17_predictors_near_zero', str(est))
    report(res['min_entropy'] < 0.05, 'period_17_min_entropy_near_zero',
           str(res['min_entropy']))


def test_hand_checked():
    # 20 symbols with 8 of the most common value: p = 0.4, n = 20
    data = [0, 1, 1, 2, 0, 1, 2, 2, 0, 1, 0, 1, 1, 0, 2, 2, 1, 0, 2, 1]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'd.cpn')
        write_capture(path, data)
        out = subprocess.run([EA, path], capture_output=True, text=True).stdout
    pu = 0.4 + 2.576 * math.sqrt(0.4 * 0.6 / 19)
    got = [l for l in out.splitlines() if ' mcv ' in l]
    report(got and abs(float(got[0].split()[2]) + math.log2(pu)) < 1e-3,
           'mcv_of_a_20_symbol_sequence_matches_the_formula',
           f'expected {-math.log2(pu):.4f}, {got}')
    # 0101...: P0 = 1/2, P01 = P10 = 1: the likeliest 128 bits have p = 1/2
    res = assess([i % 2 for i in range(10000)], 1)
    report(abs(estimates(res)['markov'] - 1 / 128) < 1e-6,
           'markov_of_alternating_bits_is_1_over_128',
           str(estimates(res).get('markov')))


def test_counter_increments():
    # a cycle counter read at each event: every raw value is new, so the
    # symbol estimators see a huge alphabet; its increments are constant
    counter = [5000 + 26 * i for i in range(100000)]
    raw = assess(counter, 0)
    inc = assess(counter, 0, extra=('--diff',))
    report(raw['alphabet'] == 100000 and inc['alphabet'] == 1 and
           inc['samples'] == 99999 and inc['min_entropy'] == 0,
           'counter_increments_are_constant',
           f"raw {raw['alphabet']} symbols, increments {inc['alphabet']}, "
           f"{inc['min_entropy']} bits")
    rng = random.Random(5)
    walk, t = [], 0
    for _ in range(100000):
        t += 1000 + rng.getrandbits(4)
        walk.append(t)
    inc = assess(walk, 0, extra=('--diff',))
    report(3.5 < inc['h_original'] <= 4, 'random_increments_4_bits_at_most',
           str(inc['h_original']))
    # SP800-90B 6.3: non-binary samples are assessed as a bitstring too,
    # of their raw values (1000..1015: 10 bits each, as ea_non_iid takes
    # the highest bit in use), the first 10^6 bits; the lower result counts
    both = min(inc['h_original'], 10 * inc['h_bitstring'])
    report(inc['bitstring_width'] == 10 and
           inc['bitstring_bits'] == 999990 and
           abs(inc['min_entropy'] - both) < 1e-4,
           'raw_values_final_is_min_of_original_and_width_x_bitstring',
           f"width {inc['bitstring_width']}, bits {inc['bitstring_bits']}, "
           f"H_original {inc['h_original']:.4f}, H_bitstring "
           f"{inc['h_bitstring']:.4f}, final {inc['min_entropy']:.4f}")


def spectrum(values):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'data.cpn')
        write_capture(path, values)
        p = subprocess.run([SPECTRUM, '--json', path,
                            os.path.join(tmp, 'out')],
                           capture_output=True, text=True)
        files = all(os.path.getsize(os.path.join(tmp, 'out' + ext)) > 0
                    for ext in ('.spectrum', '.acf', '.hist'))
    return json.loads(p.stdout) if p.returncode == 0 and files else None


def test_spectrum():
    rng = random.Random(7)
    white = spectrum([1000 + rng.getrandbits(8) for _ in range(200000)])
    report(white and white['spectral_flatness'] > 0.95 and
           white['peak_to_median'] < 3 and white['max_abs_acf'] < 0.05,
           'spectrum_of_white_noise_is_flat', str(white))
    tone = spectrum([1000 + rng.getrandbits(8) + (200 if i % 64 < 32 else 0)
                     for i in range(200000)])
    report(tone and abs(tone['peak_frequency'] - 1 / 64) < 1e-3 and
           tone['peak_to_median'] > 100 and tone['max_acf_lag'] % 32 == 0 and
           abs(tone['max_abs_acf']) > 0.5,
           'spectrum_finds_a_period_of_64', str(tone))


def test_native_capture():
    """The capture tool's own records: sizes, fields and timestamps agree."""
    sys.path.insert(0, os.path.join(SRC, 'scripts'))
    import noise_file
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'n.cpn')
        p = subprocess.run([CAPTURE, '-w', 'native', '-n', '2000', '-o', path],
                           capture_output=True, text=True)
        ok = p.returncode == 0
        h = noise_file.header(path) if ok else {}
        cols = {f: noise_file.column(path, f)
                for f in h.get('fields', '').split()}
    start, delta = cols.get('start', []), cols.get('delta', [])
    report(ok and h['fields'] == 'delta fold mem start' and
           len(start) == 2000 and all(d > 0 for d in delta) and
           all(b - a >= d for a, b, d in zip(start, start[1:], delta)),
           'native_capture_timestamps_increase_by_at_least_the_delta',
           p.stderr or str(h))


def test_restart():
    rng = random.Random(3)
    independent = [rng.getrandbits(8) for _ in range(1000 * 1000)]
    p = assess(independent, 0, rows=1000, extra=('--restart', '--initial', '7'))
    report(p.returncode == 0 and 'sanity check' in p.stdout and
           'passed' in p.stdout, 'restart_independent_rows_pass',
           p.stdout.splitlines()[-3:])
    row = [rng.getrandbits(8) for _ in range(1000)]
    p = assess(row * 1000, 0, rows=1000, extra=('--restart', '--initial', '7'))
    report(p.returncode == 1 and 'FAILED' in p.stdout,
           'restart_identical_rows_fail_sanity_check',
           p.stdout.splitlines()[-4:])
    # One value fills 60 % of every restart (and so of every column):
    # H_I = 7 is rejected, and the largest accepted H_I (about 0.9 for a
    # row maximum near 600 of 1000) is accepted when given back.
    clustered = []
    for _ in range(1000):
        r = [0] * 600 + [1 + rng.getrandbits(8) for _ in range(400)]
        rng.shuffle(r)
        clustered += r
    p = assess(clustered, 0, rows=1000,
               extra=('--restart', '--json', '--initial', '7'))
    res = json.loads(p.stdout) if p.stdout else {}
    ok = (p.returncode == 1 and res.get('passed') is False and
          res['row_max'] > res['row_cutoff'] and
          0.5 < res['accepted_initial'] < 1.2 and res['min_entropy'] is None)
    if ok:
        again = assess(clustered, 0, rows=1000, extra=(
            '--restart', '--json', '--initial',
            f"{res['accepted_initial'] * 0.98:.6f}"))
        ok = again.returncode == 0 and json.loads(again.stdout)['passed']
    report(ok, 'restart_clustered_rows_reject_and_name_largest_accepted',
           res)


def quick(values, block):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'data.cpn')
        write_capture(path, values)
        p = subprocess.run([EA, '--json', '--quick', str(block), path],
                           capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 else p


def lag_global(res):
    """-log2(max(P_global', 1/k)) from the full lag estimator's note."""
    for e in res['estimates']:
        if e['set'] == 'symbols' and e['estimator'] == 'lag':
            pg = float(e['note'].split("P_global' ")[1].split(',')[0])
            return -math.log2(max(pg, 1 / res['alphabet']))
    return None


def test_quick_matches_full():
    """The module's integer estimator (crypto/jitter_estimate.c, run by
    --quick) against the floating-point one on the same block: MCV and
    t-tuple must agree, lag with the global part of the full estimator."""
    rng = random.Random(7)
    walk, x = [], 1000
    for _ in range(8192):
        # sticky random walk: repeats and short patterns, like timing deltas
        if rng.random() < 0.4:
            x += rng.choice((-3, -1, 1, 3))
        walk.append(x)
    for name, data in (('walk', walk),
                       ('uniform', [3000 + rng.getrandbits(6)
                                    for _ in range(8192)])):
        full = assess(data, 0)
        q = quick(data, len(data))
        if full is None or not isinstance(q, dict):
            report(False, f'quick_{name}_runs', str(q))
            continue
        sym = estimates(full)
        first = q['first']
        report(abs(first['mcv'] - sym['mcv']) < 0.002,
               f'quick_{name}_mcv_equals_full', f"{first['mcv']} {sym['mcv']}")
        report('t-tuple' in sym and abs(first['t_tuple'] - sym['t-tuple']) < 0.002,
               f'quick_{name}_t_tuple_equals_full',
               f"{first['t_tuple']} {sym.get('t-tuple')}")
        lg = lag_global(full)
        report(lg is not None and abs(first['lag'] - lg) < 0.002,
               f'quick_{name}_lag_equals_full_global_part',
               f"{first['lag']} {lg}")
        report(first['h'] >= full['min_entropy'] - 0.002,
               f'quick_{name}_subset_not_below_full',
               f"{first['h']} {full['min_entropy']}")
    # Only which values are equal matters: with bit j of each value moved
    # to its own byte, at a bit position of its own (an interrupt's delta
    # can span all eight bytes), a block must score the same.  The module
    # groups equal values with one radix pass per byte that varies: a byte
    # or a bit it skipped would merge values.
    def spread(x, first):
        return sum((x >> j & 1) << (8 * (first + j) + j * 5 % 8)
                   for j in range(8 - first)) + 1
    uniform = [rng.getrandbits(6) for _ in range(8192)]
    for name, data, wide in (
            ('walk', walk, [spread(v - 800, 0) for v in walk]),
            ('uniform', uniform, [spread(u, 2) for u in uniform])):
        qw, qn = quick(wide, 8192), quick(data, 8192)
        report(isinstance(qw, dict) and isinstance(qn, dict) and
               qw['first'] == qn['first'],
               f'quick_{name}_over_8_bytes_groups_as_narrow',
               f"{qw['first'] if isinstance(qw, dict) else qw} "
               f"{qn['first'] if isinstance(qn, dict) else qn}")
    q = quick([4242] * 4096, 4096)
    report(isinstance(q, dict) and q['first']['h'] == 0 and q['min'] == 0,
           'quick_constant_block_is_0_bits', str(q))
    per = [1000 + (i % 7) for i in range(4096)]
    q = quick(per, 4096)
    report(isinstance(q, dict) and q['first']['lag'] < 0.01,
           'quick_lag_sees_through_period_7', str(q))
    p = quick(walk, 100)
    report(not isinstance(p, dict) and p.returncode == 2,
           'quick_block_below_512_refused', str(p))


def main():
    test_uniform()
    test_biased_bits()
    test_periodic()
    test_hand_checked()
    test_counter_increments()
    test_spectrum()
    test_native_capture()
    test_restart()
    test_quick_matches_full()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
