#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make install and make uninstall, staged with DESTDIR, on both default kernels.

A staged install must put exactly the modules (built for that kernel, and
compressed as its own modules are), the tools, their man pages and the boot
files in place; uninstall must take every one of them away again.  Bad
input (an unknown kernel) must fail with a message and create nothing.
The initramfs hook and the GRUB snippet must do nothing on a machine where
cpurng is not installed, which this host is.  Installing into / and the
Debian packages are checked on a fresh root (scripts/package-check.sh).
"""

import os
import subprocess
import sys
import tempfile

from ktap import finish, report

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The two default kernels: Debian 12's 6.1 and Debian 13's 6.12, whose
# modules are compressed with xz.
KERNELS = ('6.1', '13')
MODULES = ('cpurng_jitter', 'cpurng_collector', 'cpurng_drbg')
TOOLS = sorted(f[:-2] for f in os.listdir(os.path.join(SRC, 'tools'))
               if f.endswith('.c'))
CONFIG = ('etc/modprobe.d/cpurng.conf', 'etc/modules-load.d/cpurng.conf',
          'etc/initramfs-tools/hooks/cpurng', 'etc/default/grub.d/cpurng.cfg')


def make(*args):
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'KERNEL', 'KDIR',
                        'KVER', 'KIMAGE', 'KMODDIR', 'KMODULES')}
    p = subprocess.run(['make', '-C', SRC, '--no-print-directory', *args],
                       env=env, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, fs in os.walk(root) for f in fs)


def kver_of(kernel):
    rc, out = make('-s', 'require-kdir', f'KERNEL={kernel}')
    for word in out.split():
        if word.startswith('KVER='):
            return word[5:]
    return None


def staged_install(kernel):
    name = kernel.replace('.', '_')
    kver = kver_of(kernel)
    if not kver:
        report(False, f'install_staged_{name}', f'no headers for {kernel}')
        return
    xz = '.xz' if kernel == '13' else ''
    with tempfile.TemporaryDirectory() as dest:
        rc, out = make('install', f'KERNEL={kernel}', f'DESTDIR={dest}')
        want = sorted([f'lib/modules/{kver}/updates/cpurng/{m}.ko{xz}' for m in MODULES] +
                      [f'usr/local/bin/{t}' for t in TOOLS] +
                      [f'usr/local/share/man/man1/{t}.1' for t in TOOLS] +
                      list(CONFIG))
        got = files_under(dest)
        report(rc == 0 and got == want, f'install_staged_{name}_installs_exactly_its_files',
               f'rc {rc}; missing {sorted(set(want) - set(got))}, '
               f'extra {sorted(set(got) - set(want))}; {out[-300:]}')
        mod = os.path.join(dest, f'lib/modules/{kver}/updates/cpurng/cpurng_drbg.ko{xz}')
        p = subprocess.run(['modinfo', '-F', 'vermagic', mod], capture_output=True, text=True)
        report(p.stdout.split()[:1] == [kver], f'install_staged_{name}_modules_built_for_{kver}',
               f'vermagic {p.stdout.strip()!r} {p.stderr.strip()}')
        rc, out = make('uninstall', f'KERNEL={kernel}', f'DESTDIR={dest}')
        left = files_under(dest)
        # The one directory no Debian package owns goes with the files.
        if os.path.isdir(os.path.join(dest, 'etc/default/grub.d')):
            left.append('etc/default/grub.d/')
        report(rc == 0 and not left, f'uninstall_staged_{name}_removes_every_file',
               f'rc {rc}; left {left}; {out[-300:]}')


def unknown_kernel_refused():
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, 'dest')
        rc, out = make('install', 'KERNEL=5.10', f'DESTDIR={dest}')
        report(rc != 0 and 'KERNEL=5.10: Debian kernels are' in out and not os.path.exists(dest),
               'install_unknown_kernel_refused_and_nothing_created', out[-300:])


def hook_without_modules():
    """The initramfs hook, run as mkinitramfs runs it, for a kernel that has
    no cpurng modules: one warning per module, nothing to load."""
    with tempfile.TemporaryDirectory() as dest:
        os.makedirs(os.path.join(dest, 'conf'))
        env = dict(os.environ, DESTDIR=dest, version='6.1.999-no-such-kernel',
                   verbose='n', MODULESDIR='/lib/modules/6.1.999-no-such-kernel')
        p = subprocess.run(['sh', os.path.join(SRC, 'config/initramfs-hook')],
                           env=env, capture_output=True, text=True)
        conf = os.path.join(dest, 'conf/modules')
        loaded = open(conf).read() if os.path.exists(conf) else ''
        report(p.returncode == 0 and p.stderr.count('W: cpurng:') == 3 and not loaded.strip(),
               'initramfs_hook_warns_and_loads_nothing_without_modules',
               f'rc {p.returncode}; conf/modules {loaded!r}; {p.stderr[-300:]}')


def grub_snippet_without_cpurng():
    p = subprocess.run(['sh', '-c', 'GRUB_CMDLINE_LINUX="quiet"; . "$1"; echo "$GRUB_CMDLINE_LINUX"',
                        'sh', os.path.join(SRC, 'config/grub.cfg')],
                       capture_output=True, text=True)
    installed = any(os.path.exists(f) for f in ('/usr/lib/modprobe.d/cpurng.conf',
                                                 '/etc/modprobe.d/cpurng.conf'))
    want = 'quiet initcall_blacklist=jent_mod_init' if installed else 'quiet'
    report(p.stdout.strip() == want, 'grub_snippet_adds_the_parameter_only_with_cpurng_installed',
           f'got {p.stdout.strip()!r}, want {want!r}')


def main():
    for k in KERNELS:
        staged_install(k)
    unknown_kernel_refused()
    hook_without_modules()
    grub_snippet_without_cpurng()
    return finish()


if __name__ == '__main__':
    sys.exit(main())
