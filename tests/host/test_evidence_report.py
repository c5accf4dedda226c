#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The evidence report's verdicts follow the numbers (KTAP).

scripts/evidence_report.py turns measurements into plain-language answers
and into the verdict on the jitter RNG's oversampling and the DRBG's
credit.  Fed with synthetic results whose answers are known, it must say
so, and its output must be valid reStructuredText.
"""

import io
import math
import os
import sys

from ktap import finish, report

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, 'scripts'))
import evidence_report  # noqa: E402


def ea(h, by='t-tuple'):
    return {'min_entropy': h, 'by': by, 'alphabet': 100}


def spec(peak=1.3, acf=0.01, f=0.01):
    return {'mean': 1000, 'stddev': 100, 'spectral_flatness': 0.99,
            'peak_to_median': peak, 'peak_frequency': f,
            'max_abs_acf': acf, 'max_acf_lag': 1}


def data(normal_h, peak=1.3, restart_ok=True, acf=0.01):
    modes = {'normal': normal_h, 'l1': normal_h * 0.8, 'llc': normal_h * 1.2,
             'fold': normal_h * 0.5, 'mem': normal_h * 0.9}
    r = {}
    for m, h in modes.items():
        r[f'native-jitter-{m}'] = {
            '0': ea(h), '1': ea(0.0), '4': ea(h), '8': ea(h),
            'spectrum': spec(peak, acf), 'shape': {
                'samples': 10 ** 6, 'distinct': 50, 'step': 26,
                'modal': 1066, 'modal_share': 0.03}}
    r['control-iid'] = {'0': ea(9.9, 'mcv'), 'spectrum': spec()}
    # A rejected H_I: one row repeats a value beyond the cutoff, and the
    # largest accepted H_I is a quarter of the raw estimate.
    accepted = normal_h if restart_ok else normal_h / 4
    rs = {'restarts': 1000, 'samples': 1000, 'initial': normal_h,
          'row_max': 100 if restart_ok else 600, 'row_cutoff': 494,
          'col_max': 90, 'col_cutoff': 494, 'sane': restart_ok,
          'rows': {'h': 2.0, 'by': 't-tuple'},
          'cols': {'h': 2.5, 'by': 'lrs'}, 'passed': restart_ok,
          'accepted_initial': accepted,
          'min_entropy': normal_h if restart_ok else None,
          'min_entropy_at_accepted': accepted}
    hdr = {'where': 'native', 'cpu': 'test CPU', 'samples': '1000000',
           'virtualization': 'none detected (CPUID hypervisor bit clear)',
           'rows': '1', 'config': 'mem_size 65536'}
    return {'results': r,
            'headers': {'native-jitter-normal': hdr,
                        'control-iid': {'where': 'synthetic'}},
            'restarts': {'native': rs},
            'boots': {'samples': 1000, 'identical': 990, 'distinct': [3, 3],
                      'modal': 3888, 'modal_share': 0.99, 'other_samples': 10,
                      'median_gap': 100, 'headers': [{}, {}]},
            'pngs': []}


def with_conditions(d, finals):
    """Load conditions whose runs have the given final estimates."""
    conds = []
    for name, values in finals.items():
        runs = [{'condition': name, 'run': i + 1, 'final': v,
                 'h_original': v, 'h_bitstring_per_sample': v * 1.1,
                 'bitstring_width': 18, 'initial': v, 'initial_by': 'lag',
                 'restart_passed': True, 'accepted_initial': v,
                 'quick_min': v * 1.2, 'quick_median': v * 1.4,
                 'capture_s': 2.0, 'entropy_bits_per_s': int(v * 3e6)}
                for i, v in enumerate(sorted(values))]
        conds.append({'condition': name, 'load': f'{name} load',
                      'runs': runs, 'min': min(values),
                      'median': sorted(values)[len(values) // 2],
                      'max': max(values), 'quick_min': min(values) * 1.2,
                      'entropy_bits_per_s_min': int(min(values) * 3e6),
                      'interrupts_per_s': 500, 'cpu_busy': 1.0})
    d['conditions'] = conds
    return d


def flat(text):
    """The report with its line wrapping undone, for phrase checks."""
    return ' '.join(text.split())


def valid_rst(text):
    import docutils.core
    import docutils.utils
    try:
        docutils.core.publish_doctree(
            text, settings_overrides={'halt_level': 2, 'report_level': 2,
                                      'warning_stream': io.StringIO()})
        return True
    except docutils.utils.SystemMessage:
        return False


def main():
    osr = evidence_report.source_default('include/cpurng/jitter.h',
                                         r'#define CPURNG_JENT_DEFAULT_OSR\s+(\d+)')
    report(osr is not None, 'osr_default_read_from_source', str(osr))
    claim = 1 / osr
    good = evidence_report.render(data(claim * 4))
    report('**Justified on this machine**' in good and
           'The measurement supports it.' in good,
           'four_times_the_claim_is_justified')
    report(valid_rst(good), 'report_is_valid_rst')
    report('No spectral peak' in good, 'flat_spectrum_reported_as_flat')
    bad = evidence_report.render(data(claim * 0.75))
    need = math.ceil(1 / (claim * 0.75))
    report('**Not justified on this machine**' in bad and
           (f'osr {need} would be' in bad if need <= 8 else
            'No osr up to 8 is' in bad) and
           'does not support it' in bad,
           'below_the_claim_is_not_justified_and_names_the_osr_needed')
    restart_low = flat(evidence_report.render(data(claim * 2,
                                                   restart_ok=False)))
    report('**Not justified on this machine**' in restart_low and
           'values cluster' in restart_low
           and 'REJECTED' in restart_low and 'REJECTED' not in good,
           'restart_rejection_lowers_the_estimate_used')
    replay = data(claim * 4)
    replay['restarts']['native']['col_max'] = 900
    report('**do** replay' in flat(evidence_report.render(replay)) and
           'do not replay' in flat(good),
           'restart_columns_answer_replay')
    peaked = evidence_report.render(data(claim * 4, peak=500, acf=0.6))
    report('Yes. In 5 of 5 native modes' in peaked and
           'not independent' in peaked, 'spectral_peak_and_acf_reported')
    vm = data(claim * 4)
    vm['headers']['native-jitter-normal']['virtualization'] = \
        "yes, hypervisor 'KVMKVMKVM' (CPUID)"
    caveat = 'The native machine is itself a virtual machine'
    report(caveat not in good and caveat in evidence_report.render(vm),
           'virtualised_host_named_in_the_caveats')

    # idle is fine, one loaded run is not: the minimum decides
    loaded = flat(evidence_report.render(with_conditions(
        data(claim * 4), {'idle': [claim * 4, claim * 3.5, claim * 3.8],
                          'cpu': [claim * 2, claim * 0.8, claim * 1.5]})))
    report('**Not justified on this machine**' in loaded and
           '(*cpu*, run 1)' in loaded and
           f'osr {math.ceil(1 / (claim * 0.8))} would be' in loaded,
           'worst_load_condition_decides_the_verdict')
    report('Under load: conditions and runs' in loaded and
           "Where this differs from NIST's tools" in loaded,
           'conditions_and_nist_differences_sections_present')
    fine_data = with_conditions(
        data(claim * 4), {'idle': [claim * 4] * 3, 'irq': [claim * 1.5] * 3})
    for c in fine_data['conditions']:
        c['quick_min'] = claim * 2.5   # the load-time check passes too
    fine = evidence_report.render(fine_data)
    report('**Justified on this machine, at its worst measured case**: '
           'the minimum is 1.50 times the claim' in flat(fine) and
           valid_rst(fine), 'margin_stated_from_the_minimum')
    low_check = with_conditions(data(claim * 4), {'idle': [claim * 1.2] * 3})
    for c in low_check['conditions']:
        c['quick_min'] = claim * 1.2
    report('**The default osr is too low for this machine**' in
           flat(evidence_report.render(low_check)) and
           'too low' not in fine,
           'default_osr_checked_against_the_load_time_check')
    return finish()


if __name__ == '__main__':
    sys.exit(main())
