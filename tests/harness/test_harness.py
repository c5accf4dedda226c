#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the harness's verdict logic, in KTAP.

The harness decides pass or fail from what a VM leaves behind; these tests
feed it synthetic results and consoles to show that each way a run can go
wrong is reported as a failure, including a panic with the wrong message
(Debian's "signature verification failed in FIPS mode" instead of ours).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ktap import count_lines  # noqa: E402
from main import (Job, Kernel, demo_problem, kernel_config,  # noqa: E402
                  mttcg_boot_crash, plan_jobs, run_job, run_jobs)
from snapshot import clone_outputs, compare, parse_compare  # noqa: E402
from vm import DEFAULT_QEMU, Group, analyse, load_group, load_groups  # noqa: E402

GOOD_RESULTS = """KTAP version 1
# cpurng-vm group=t kernel=6.1 cpus=2
1..2
    KTAP version 1
    1..2
    ok 1 a
    ok 2 b
ok 1 first
ok 2 second # SKIP not built
# cpurng-vm-done
"""

CLEAN_CONSOLE = "[    1.0] Linux version 6.1\n[    2.0] cpurng_jitter: registered\n"
WARN_CONSOLE = CLEAN_CONSOLE + "[    3.0] WARNING: CPU: 1 PID: 77 at crypto/x.c:1 f+0x1/0x2\n"
OUR_PANIC = ("[    3.0] Kernel panic - not syncing: cpurng_jitter: permanent RCT "
             "health test failure in FIPS mode\n[    3.1] Call Trace:\n")
SIG_PANIC = ("[    3.0] Kernel panic - not syncing: Module cpurng_jitter "
             "signature verification failed in FIPS mode\n")
PANIC_RESULTS = """KTAP version 1
1..2
ok 1 setup
# expect-panic 2 boom
    KTAP version 1
    1..1
"""

GROUP = Group(name='t', cases=['first', 'second'])
PANIC_GROUP = Group(name='p', cases=['setup', 'boom'],
                    expect_panic='^cpurng_jitter: permanent RCT health test failure in FIPS mode$')

TESTS = []


def case(fn):
    TESTS.append(fn)
    return fn


def counts(group, results, console, timed_out=False, status=0):
    return count_lines(analyse(group, results, console, timed_out, status))


@case
def clean_run_counts_leaves_and_skips():
    c = counts(GROUP, GOOD_RESULTS, CLEAN_CONSOLE)
    # a, b, second (skip), console_clean, vm_finished
    return (c.passed, c.failed, c.skipped) == (4, 0, 1)


@case
def warn_on_console_fails_run():
    return counts(GROUP, GOOD_RESULTS, WARN_CONSOLE).failed == 1


@case
def missing_done_marker_fails_run():
    results = GOOD_RESULTS.replace('# cpurng-vm-done\n', '')
    return counts(GROUP, results, CLEAN_CONSOLE).failed == 1


@case
def lost_results_fail_run():
    results = GOOD_RESULTS.replace('ok 2 second # SKIP not built\n', '')
    return counts(GROUP, results, CLEAN_CONSOLE).failed >= 1


@case
def no_results_at_all_fails_run():
    return counts(GROUP, '', CLEAN_CONSOLE).failed >= 1


@case
def timeout_fails_run():
    return counts(GROUP, GOOD_RESULTS, CLEAN_CONSOLE, timed_out=True).failed == 1


@case
def failed_case_without_subtest_failure_counts():
    results = GOOD_RESULTS.replace('ok 1 first', 'not ok 1 first # exit status 1')
    return counts(GROUP, results, CLEAN_CONSOLE).failed == 1


def case_output(inner, verdict='ok 1 first'):
    """GOOD_RESULTS with case "first" replaced by inner lines and a verdict."""
    nested = ''.join(f'    {line}\n' for line in inner)
    return GOOD_RESULTS.replace(
        '    KTAP version 1\n    1..2\n    ok 1 a\n    ok 2 b\nok 1 first\n',
        nested + verdict + '\n')


@case
def planned_results_none_reported_exit_zero_fails():
    # The case planned 3, reported nothing and exited 0: 3 lost results.
    c = counts(GROUP, case_output(['KTAP version 1', '1..3']), CLEAN_CONSOLE)
    return c.failed == 3 and c.passed == 2


@case
def fewer_results_than_planned_exit_zero_fails():
    c = counts(GROUP, case_output(['KTAP version 1', '1..3', 'ok 1 a']),
               CLEAN_CONSOLE)
    return c.failed == 2 and c.passed == 3


@case
def case_timed_out_after_some_results_fails():
    c = counts(GROUP, case_output(['KTAP version 1', '1..3', 'ok 1 a'],
                                  'not ok 1 first # TIMEOUT after 300s'),
               CLEAN_CONSOLE)
    return c.failed == 2


@case
def case_skipped_as_a_whole_after_its_plan_skips():
    c = counts(GROUP, case_output(['KTAP version 1', '1..3', '# SKIP no rt'],
                                  'ok 1 first # SKIP no rt'), CLEAN_CONSOLE)
    return (c.passed, c.failed, c.skipped) == (2, 0, 2)


def lib_sh_exit(script):
    """Exit status of a case script run with the guest's lib.sh."""
    import subprocess
    lib = os.path.join(HERE, '..', 'vm', 'lib.sh')
    return subprocess.run(['sh', '-c', f'. {lib}; {script}'],
                          stdout=subprocess.DEVNULL).returncode


@case
def lib_sh_finish_fails_a_case_that_reported_fewer_than_planned():
    return (lib_sh_exit('plan 2; ok a; finish') == 1 and
            lib_sh_exit('plan 2; finish') == 1 and
            lib_sh_exit('plan 1; ok a; ok b; finish') == 1 and
            lib_sh_exit('ok a; finish') == 1 and
            lib_sh_exit('plan 2; ok a; ok b; finish') == 0 and
            lib_sh_exit('plan 2; skip a x; skip b y; finish') == 4)


def rule_offences(text):
    """Offences check-test-rules.py finds in a case with this text."""
    import subprocess
    import tempfile
    script = os.path.join(HERE, '..', '..', 'scripts', 'check-test-rules.py')
    with tempfile.NamedTemporaryFile('w', suffix='_case') as f:
        f.write(text)
        f.flush()
        out = subprocess.run([sys.executable, script, f.name],
                             capture_output=True, text=True).stdout
    return len(out.splitlines())


@case
def test_rules_refuse_hidden_errors_and_skips_after_actions():
    return (rule_offences('check "x" eval "! rmmod m 2>/dev/null"\n') == 1 and
            rule_offences('check "x" eval "f || true"\n') == 1 and
            rule_offences('modprobe m x=1 ||\n\tskip_all "no x"\n') == 1 and
            rule_offences('if ! reload x=1; then\n\tskip "y" "z"\nfi\n') == 1 and
            rule_offences('if ! grep -q x /f; then\n\tskip "y" "z"\nfi\n') == 0 and
            rule_offences('[ -f /p ] || skip_all "no p"\n') == 0 and
            rule_offences('check "x" refused "Invalid argument" rmmod m\n') == 0)


INT3_BOOT = ['KTAP version 1', '1..2',
             '# console: [    1.029354] Oops: int3: 0000 [#1] SMP NOPTI',
             'not ok 1 console_clean', 'not ok 2 vm_finished']
MT_GROUP = Group(name='j', cases=['a'], qemu='-smp 2')
ST_GROUP = Group(name='d', cases=['a'], qemu='-smp 2 -accel tcg,thread=single')


def kernel_with(builtin=()):
    return Kernel(label='13', kimage='', kmoddir='', kver='7.3.4',
                  modules_dir='', builtin=frozenset(builtin))


@case
def mttcg_boot_crash_before_init_is_booted_again():
    return mttcg_boot_crash(MT_GROUP, kernel_with(), INT3_BOOT)


@case
def no_second_boot_after_init_single_threaded_or_with_cpurng_built_in():
    after_init = INT3_BOOT[:2] + ['# cpurng-vm group=j kernel=7.3.4 cpus=2'] + INT3_BOOT[2:]
    other_oops = [l.replace('int3', 'general protection fault') for l in INT3_BOOT]
    return not (mttcg_boot_crash(MT_GROUP, kernel_with(), after_init) or
                mttcg_boot_crash(ST_GROUP, kernel_with(), INT3_BOOT) or
                mttcg_boot_crash(MT_GROUP, kernel_with(['cpurng_jitter']), INT3_BOOT) or
                mttcg_boot_crash(MT_GROUP, kernel_with(), other_oops))


@case
def expected_panic_with_our_message_passes():
    c = counts(PANIC_GROUP, PANIC_RESULTS, CLEAN_CONSOLE + OUR_PANIC)
    return c.failed == 0 and c.passed == 4


@case
def expected_panic_with_wrong_message_fails():
    return counts(PANIC_GROUP, PANIC_RESULTS, CLEAN_CONSOLE + SIG_PANIC).failed == 1


@case
def expected_panic_that_never_happens_fails():
    return counts(PANIC_GROUP, PANIC_RESULTS, CLEAN_CONSOLE).failed >= 1


@case
def warn_before_expected_panic_fails():
    return counts(PANIC_GROUP, PANIC_RESULTS, WARN_CONSOLE + OUR_PANIC).failed == 1


PARTIAL_PANIC_RESULTS = PANIC_RESULTS + "    ok 1 armed\n"


@case
def expected_panic_forgives_results_planned_after_it():
    c = counts(PANIC_GROUP, PARTIAL_PANIC_RESULTS, CLEAN_CONSOLE + OUR_PANIC)
    return c.failed == 0 and c.passed == 4


@case
def failure_reported_before_expected_panic_counts():
    results = PARTIAL_PANIC_RESULTS.replace('    ok 1 armed', '    not ok 1 armed')
    return counts(PANIC_GROUP, results, CLEAN_CONSOLE + OUR_PANIC).failed == 1


@case
def unexpected_panic_fails():
    results = GOOD_RESULTS.replace('# cpurng-vm-done\n', '')
    return counts(GROUP, results, CLEAN_CONSOLE + OUR_PANIC).failed >= 2


@case
def kmemleak_report_fails_run():
    leak = (CLEAN_CONSOLE + "unreferenced object 0xffff888003a1c000 (size 64):\n"
            "  comm \"insmod\", pid 90, jiffies 4294893296 (age 8.120s)\n")
    return counts(GROUP, GOOD_RESULTS, leak).failed == 1


@case
def group_names_its_kernel_and_variant():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'b.group')
        with open(path, 'w') as f:
            f.write('cases = x\nkernel = builtin\nvariant = none\n'
                    'suite = builtin\n')
        g = load_group(path)
    return (g.kernel, g.variant, g.suites) == ('builtin', 'none', ('builtin',))


@case
def group_in_several_suites():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'c.group')
        with open(path, 'w') as f:
            f.write('cases = x\nsuite = check core\n')
        g = load_group(path)
        with open(path, 'w') as f:
            f.write('cases = x\n')
        default = load_group(path)
    return g.suites == ('check', 'core') and default.suites == ('check',)


@case
def group_needing_an_option_skips_with_the_reason_elsewhere():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        moddir = os.path.join(d, 'modules')
        os.makedirs(moddir)
        with open(os.path.join(d, 'config'), 'w') as f:
            f.write('CONFIG_PREEMPT_RT=y\n# CONFIG_KASAN is not set\nCONFIG_HZ=250\n')
        config = kernel_config(moddir)
    g = Group(name='rt', cases=['x'], needs_config='PREEMPT_RT')
    plain = Kernel('13', 'i', 'm', '6.12.1-amd64', 'b')
    skipped = run_job(Job(g, plain, 'rt', '/nonexistent'), 'initrd')
    return (config == frozenset({'PREEMPT_RT'}) and
            skipped.lines[-1] == 'ok 1 rt # SKIP 6.12.1-amd64 does not set CONFIG_PREEMPT_RT' and
            skipped.counts.skipped == 1)


ALLOC_SPLAT = ("[ 16.4] failnth_sweep: vmalloc error: size 104537, vm_struct allocation failed\n"
               "[ 16.4] Call Trace:\n[ 16.4]  <TASK>\n[ 16.4]  dump_stack_lvl+0x51/0x66\n"
               "[ 16.4]  </TASK>\n[ 16.5] Mem-Info:\n")
CRYPTOMGR_WARN = ("[ 154.0] WARNING: CPU: 1 PID: 75 at crypto/api.c:170 "
                  "crypto_wait_for_test+0x42/0x79\n[ 154.0] Call Trace:\n"
                  "[ 154.0]  crypto_register_alg+0xfd/0x11a\n"
                  "[ 154.1] ---[ end trace 0000000000000000 ]---\n")


@case
def known_splats_allowed_only_where_declared():
    console = CLEAN_CONSOLE + ALLOC_SPLAT + CRYPTOMGR_WARN
    declared = Group(name='f', cases=['first', 'second'],
                     known_splats=('alloc-failure', 'cryptomgr-test-alloc'))
    return (counts(declared, GOOD_RESULTS, console).failed == 0 and
            counts(GROUP, GOOD_RESULTS, console).failed == 1)


@case
def other_warn_after_known_splat_still_fails():
    console = CLEAN_CONSOLE + ALLOC_SPLAT + WARN_CONSOLE
    declared = Group(name='f', cases=['first', 'second'],
                     known_splats=('alloc-failure',))
    return counts(declared, GOOD_RESULTS, console).failed == 1


OUR_LEAK = ("unreferenced object 0xffff888004e5a340 (size 32):\n"
            "  comm \"sh\", pid 75, jiffies 4294672110 (age 16.150s)\n"
            "  hex dump (first 32 bytes):\n"
            "    63 70 75 72 6e 67 2d 74 65 73 74 2d 6c 65 61 6b  cpurng-test-leak\n"
            "  backtrace:\n"
            "    [<000000002f1c4a8e>] detectors_leak+0x3a/0x90 [cpurng_test_detectors]\n")
OTHER_LEAK = ("unreferenced object 0xffff888004e5a400 (size 64):\n"
              "  comm \"sh\", pid 75, jiffies 4294672110 (age 16.150s)\n"
              "  backtrace:\n"
              "    [<00000000c3d2b1a0>] drbg_alloc_state+0x21/0x300 [cpurng_drbg]\n")
LEAK_GROUP = Group(name='d', cases=['first', 'second'],
                   expect_reports=('kmemleak-control', 'kmemleak-control-notice'))
NOTICE = "[   20.0] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)\n"


@case
def expected_report_seen_passes():
    console = CLEAN_CONSOLE + NOTICE + OUR_LEAK + OUR_LEAK + "[   21.0] reboot: Power down\n"
    return counts(LEAK_GROUP, GOOD_RESULTS, console).failed == 0


@case
def expected_report_missing_fails():
    # The checker stayed silent: the positive control fails the group.
    return counts(LEAK_GROUP, GOOD_RESULTS, CLEAN_CONSOLE + NOTICE).failed == 1


@case
def other_leak_next_to_expected_one_fails():
    console = CLEAN_CONSOLE + NOTICE + OUR_LEAK + OTHER_LEAK + OUR_LEAK
    lines = analyse(LEAK_GROUP, GOOD_RESULTS, console, False, 0)
    return (count_lines(lines).failed == 1 and
            any('0xffff888004e5a400' in l for l in lines))


@case
def expected_panic_report_before_panic_passes():
    kasan = ("[    5.0] ==================================================================\n"
             "[    5.0] BUG: KASAN: slab-out-of-bounds in detectors_oob_read+0x9e/0xc0 [cpurng_test_detectors]\n"
             "[    5.0] Read of size 1 at addr ffff888004a1b2d0 by task sh/80\n"
             "[    5.0] Call Trace:\n"
             "[    5.1] ==================================================================\n"
             "[    5.1] Kernel panic - not syncing: KASAN: panic_on_warn set ...\n")
    g = Group(name='k', cases=['setup', 'boom'], expect_panic='^KASAN: panic_on_warn set',
              expect_reports=('kasan-control',))
    other = kasan.replace('detectors_oob_read', 'drbg_generate')
    return (counts(g, PANIC_RESULTS, CLEAN_CONSOLE + kasan).failed == 0 and
            counts(g, PANIC_RESULTS, CLEAN_CONSOLE + other).failed == 2)


@case
def demo_verdict_only_from_its_end_marker():
    # make run passes only when the guest says the demo ended with 0.
    return (demo_problem(0, '# cpurng-demo exit=0\n') is None and
            'failed' in demo_problem(0, '# cpurng-demo exit=1\n') and
            'stopped' in demo_problem(0, '') and
            'stopped' in demo_problem(0, 'KTAP version 1\n') and
            'within' in demo_problem(None, '') and
            demo_problem(1, '# cpurng-demo exit=0\n') is None)


def scheduled(groups, parallel, host_cpus=2):
    """Run fake jobs; return the report order and the most seen at once,
    overall and while a group with alone = yes was running.  The most
    host threads busy at once goes to scheduled.threads."""
    import threading
    import time
    k = Kernel('x', 'img', 'mods', 'kver', 'build')
    jobs = [Job(g, k, g.name, '') for g in groups]
    lock = threading.Lock()
    now, peak, alone_peak, order = set(), [0], [0], []
    scheduled.threads = 0

    def start(job):
        with lock:
            now.add(job.name)
            peak[0] = max(peak[0], len(now))
            if any(j.group.alone for j in jobs if j.name in now):
                alone_peak[0] = max(alone_peak[0], len(now))
            scheduled.threads = max(scheduled.threads, sum(
                j.group.host_threads for j in jobs if j.name in now))
        time.sleep(0.05 if job.name != 'a' else 0.15)
        with lock:
            now.discard(job.name)
        return job.name

    run_jobs(jobs, start, lambda j, o: order.append(o), parallel, host_cpus)
    return order, peak[0], alone_peak[0]


SINGLE = '-smp 2 -accel tcg,thread=single'


def single(name, **kwargs):
    """A group whose VM runs on single-threaded TCG (one host thread)."""
    return Group(name=name, cases=[], qemu=SINGLE, **kwargs)


@case
def two_vms_at_once_reported_in_plan_order():
    names = ['a', 'b', 'c', 'd']
    order, peak, _ = scheduled([single(n) for n in names], 2)
    return order == names and peak == 2


@case
def group_that_measures_time_runs_alone():
    groups = [single('a'), single('bench', alone=True), single('c'),
              single('d')]
    order, peak, alone_peak = scheduled(groups, 2)
    return order == ['a', 'bench', 'c', 'd'] and alone_peak == 1 and peak == 2


@case
def vcpu_threads_never_exceed_host_cpus():
    # Multi-threaded TCG with -smp 2 keeps two host threads busy: on two
    # CPUs it runs beside nothing, on four beside another like it.
    mttcg = [Group(name=n, cases=[], qemu='-smp 2') for n in 'abcd']
    _, peak2, _ = scheduled(mttcg, 2, host_cpus=2)
    _, peak4, _ = scheduled(mttcg, 2, host_cpus=4)
    threads4 = scheduled.threads
    mixed = [Group(name='a', cases=[], qemu='-smp 2'), single('b'), single('c')]
    _, peak_mixed, _ = scheduled(mixed, 2, host_cpus=2)
    return (peak2 == 1 and peak4 == 2 and threads4 == 4 and peak_mixed == 2 and
            scheduled.threads == 2)


@case
def job_that_fits_runs_before_one_that_waits():
    # b needs both CPUs: c runs beside a meanwhile; the report keeps the
    # plan order.
    groups = [single('a'), Group(name='b', cases=[], qemu='-smp 2'), single('c')]
    order, peak, _ = scheduled(groups, 2, host_cpus=2)
    return order == ['a', 'b', 'c'] and peak == 2


@case
def host_threads_of_a_group():
    def threads(qemu):
        return Group(name='g', cases=[], qemu=qemu).host_threads
    return (threads('-smp 2') == 2 and threads(SINGLE) == 1 and
            threads('-smp 1 -icount shift=0,sleep=off') == 1 and
            threads('-smp 4') == 4 and threads('') == 1)


@case
def test_groups_that_patch_text_run_single_threaded():
    # The collector attaches tracepoint probes at load (live text
    # patching), which QEMU 7.2's multi-threaded TCG can crash on: every
    # group of the test suites whose cases load it, or the DRBG whose
    # default sources load it, and the default, run on one host thread.
    vmdir = os.path.join(HERE, '..', 'vm')
    bad = []
    for g in load_groups(os.path.join(vmdir, 'groups')):
        if not set(g.suites) & {'check', 'core', 'debug', 'builtin'}:
            continue
        text = ''.join(open(os.path.join(vmdir, 'cases', c)).read()
                       for c in g.cases)
        if (g.kernel == 'builtin' or 'cpurng_drbg' in text or
                'cpurng_collector' in text) and g.host_threads != 1:
            bad.append(g.name)
    if bad:
        print(f'# multi-threaded TCG with the collector: {bad}')
    return not bad and Group(name='g', cases=[]).host_threads == 1 and \
        'thread=single' in DEFAULT_QEMU


@case
def every_group_on_every_kernel_named_by_kernel():
    ks = [Kernel('6.1', 'i1', 'm1', 'v1', 'b1'), Kernel('6.12', 'i2', 'm2', 'v2', 'b2')]
    own = Kernel('builtin', 'i3', 'm3', 'v3', 'b3')
    groups = [Group(name='g', cases=[]), Group(name='b', cases=[], kernel='builtin')]
    jobs = plan_jobs(groups, ks, lambda label: own, '/out')
    return ([(j.name, j.kernel.label, j.outdir) for j in jobs] ==
            [('6.1_g', '6.1', '/out/6.1/g'), ('6.12_g', '6.12', '/out/6.12/g'),
             ('b', 'builtin', '/out/b')])


# The snapshot runner's comparison of clone outputs (snapshot.py).
RULES = parse_compare('ours:differ:same stock:same:same coll:differ:any')


def clone(kind, **outs):
    return (kind, outs)


@case
def clone_outputs_are_read_from_nested_results():
    text = ('    # clone-output u_stdrng 00ff\n'
            '        # clone-output k_jitter error=-14\n# other 1\n')
    return clone_outputs(text) == {'u_stdrng': '00ff', 'k_jitter': 'error=-14'}


@case
def clones_that_differ_and_a_control_that_repeats_pass():
    checks = compare(RULES, [clone('new', ours='aa', stock='cc', coll='01'),
                             clone('new', ours='bb', stock='cc', coll='02'),
                             clone('same', ours='dd', stock='cc', coll='03'),
                             clone('same', ours='dd', stock='cc', coll='03')])
    return [c[0] for c in checks] == ['ok'] * 6


@case
def repeated_output_in_new_id_clones_fails():
    checks = compare(RULES, [clone('new', ours='aa', stock='cc', coll='01'),
                             clone('new', ours='aa', stock='cc', coll='02')])
    return [(c[0], c[1]) for c in checks] == [
        ('not ok', 'ours_new_id_clones_differ'),
        ('ok', 'stock_new_id_clones_same'), ('ok', 'coll_new_id_clones_differ')]


@case
def negative_control_that_differs_fails():
    checks = compare(RULES, [clone('new', ours='aa', stock='c1', coll='01'),
                             clone('new', ours='bb', stock='c2', coll='02')])
    return checks[1][0] == 'not ok'


@case
def clone_without_output_fails():
    checks = compare(RULES, [clone('new', ours='aa', stock='cc', coll='01'),
                             clone('new', ours='error=-11', stock='cc')])
    return checks[0][0] == 'not ok' and checks[2][0] == 'not ok'


@case
def bad_compare_rule_is_refused():
    try:
        parse_compare('ours:differ')
    except ValueError:
        return True
    return False


def main():
    print('KTAP version 1')
    print(f'1..{len(TESTS)}')
    failed = 0
    for i, fn in enumerate(TESTS, start=1):
        ok = fn()
        failed += not ok
        print(f'{"ok" if ok else "not ok"} {i} {fn.__name__}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
