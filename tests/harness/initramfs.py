# SPDX-License-Identifier: GPL-2.0
"""Build the busybox initramfs that the cpurng VM tests boot.

Layout of the guest:
  /init                        tests/vm/init.sh
  /bin/busybox                 applets installed by /init
  /lib/modules/<kver>/kernel/  Debian modules we need, with dependencies
  /lib/modules/<kver>/extra/   our modules (release or testing build)
  /stock/                      Debian modules that must never autoload
                               (jitterentropy_rng: it would take the name);
                               tests load them by path on purpose, after
                               the modules NAME.deps lists (7.x's needs
                               libsha3), which are in the module tree
  /usr/bin, /lib...            kcapi tools and guest programs, with the
                               shared libraries ldd reports
  /kselftest/                  kselftest install tree: run_kselftest.sh,
                               kselftest/, cpurng/ (make kselftest)
  /tests/                      cases, groups, helpers
"""

import lzma
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

# Debian modules the tests need, by module name; dependencies are added
# from modules.dep.  Every kernel has these (as modules or built in):
STOCK_MODULES = [
    'af_alg', 'algif_rng', 'algif_hash', 'algif_skcipher', 'crypto_user',
    'ctr', 'virtio_blk', 'virtio_pci',
]
# and these where the kernel builds them; the tests that use one skip,
# saying why, where it is missing (7.x builds no stock DRBG and no
# ansi_cprng, and calls its generic SHA-3 module sha3).
OPTIONAL_MODULES = [
    'sha3_generic', 'sha3', 'sha512_generic', 'drbg', 'aesni_intel',
    'ansi_cprng',
]
# Kept out of the module tree so that no request_module() can load them.
QUARANTINED_MODULES = ['jitterentropy_rng']

# Strips debug info from unsigned modules (signed ones are left as signed).
STRIP_MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             '..', '..', 'scripts', 'strip-modules.sh')

GUEST_FILES = [
    '/usr/bin/kcapi-rng',
    '/usr/bin/rngtest',
    # GNU timeout: kselftest's runner needs its --foreground (busybox's
    # applet, which /init installs only where nothing is, lacks it).
    '/usr/bin/timeout',
]


def _name_of(path):
    """Module name of a module file: kernel/lib/crypto/libsha3.ko.xz ->
    libsha3 (dashes as underscores, as the kernel names modules)."""
    return os.path.basename(path).split('.ko')[0].replace('-', '_')


def _module_index(kmoddir):
    """Map module name -> (relative path, [dependency paths])."""
    index = {}
    with open(os.path.join(kmoddir, 'modules.dep')) as f:
        for line in f:
            path, _, deps = line.partition(':')
            index[_name_of(path)] = (path, deps.split())
    return index


def builtin_names(kmoddir):
    """Modules built into the kernel (our own kernels build some in)."""
    path = os.path.join(kmoddir, 'modules.builtin')
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {os.path.basename(l.strip()).split('.ko')[0].replace('-', '_')
                for l in f if l.strip()}


def _copy_module(kmoddir, rel, dest):
    src = os.path.join(kmoddir, rel)
    dest.parent.mkdir(parents=True, exist_ok=True)
    if rel.endswith('.xz'):
        dest = dest.with_name(dest.name[:-3])
        with lzma.open(src) as fin, open(dest, 'wb') as fout:
            shutil.copyfileobj(fin, fout)
    else:
        shutil.copy2(src, dest)
    return dest


def _stock_modules(root, kver, kmoddir):
    index = _module_index(kmoddir)
    builtin = builtin_names(kmoddir)
    want = list(STOCK_MODULES) + [m for m in OPTIONAL_MODULES if m in index]
    # A quarantined module's dependencies go into the module tree, so
    # that modprobe finds them before the module is loaded by path.
    for name in QUARANTINED_MODULES:
        if name in index:
            want += [_name_of(d) for d in index[name][1]]
    seen = set()
    while want:
        name = want.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in index and name in builtin:
            continue
        if name not in index:
            raise RuntimeError(f'module {name} not found in {kmoddir}')
        rel, deps = index[name]
        _copy_module(kmoddir, rel, root / 'lib/modules' / kver / rel)
        for d in deps:
            want.append(_name_of(d))
    for name in QUARANTINED_MODULES:
        if name not in index:
            continue    # built in, or not built: nothing can autoload it
        rel, deps = index[name]
        _copy_module(kmoddir, rel, root / 'stock' / os.path.basename(rel))
        (root / 'stock' / f'{name}.deps').write_text(
            ''.join(f'{_name_of(d)}\n' for d in deps))
    for f in ('modules.order', 'modules.builtin', 'modules.builtin.modinfo'):
        src = os.path.join(kmoddir, f)
        if os.path.exists(src):
            shutil.copy2(src, root / 'lib/modules' / kver / f)


def _libraries(binary):
    """Shared libraries (and the loader) a dynamic binary needs."""
    out = subprocess.run(['ldd', binary], capture_output=True, text=True)
    libs = []
    for line in out.stdout.splitlines():
        parts = line.split()
        if '=>' in parts:
            target = parts[parts.index('=>') + 1]
            if target.startswith('/'):
                libs.append(target)
        elif parts and parts[0].startswith('/'):
            libs.append(parts[0])
    return libs


def _install_libraries(root, binary):
    for lib in _libraries(binary):
        real = os.path.realpath(lib)
        for target in {lib, real}:
            d = root / target.lstrip('/')
            if not d.exists():
                d.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(real, d)


def _install_binary(root, src, dest_dir):
    dest = root / dest_dir.lstrip('/') / os.path.basename(src)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dest)
    _install_libraries(root, src)


def _install_kselftests(root, installed):
    """The kselftest install tree (run_kselftest.sh, kselftest/, one
    directory per collection) as /kselftest, with its programs' libraries."""
    dest = root / 'kselftest'
    shutil.copytree(installed, dest, symlinks=True)
    for path in sorted(dest.rglob('*')):
        if path.is_file() and os.access(path, os.X_OK):
            with open(path, 'rb') as f:
                if f.read(4) == b'\x7fELF':
                    _install_libraries(root, str(path))


def build(out, kver, kmoddir, our_modules, guest_bins, tests_dir,
          kselftests=None):
    """Write an uncompressed newc cpio archive to @out; @kselftests is a
    kselftest install tree (make kselftest), if built."""
    with tempfile.TemporaryDirectory(prefix='cpurng-initramfs-') as tmp:
        root = Path(tmp)
        for d in ('bin', 'sbin', 'usr/bin', 'usr/sbin', 'proc', 'sys',
                  'dev', 'tmp', 'etc', 'root', 'tests/bin'):
            (root / d).mkdir(parents=True, exist_ok=True)
        shutil.copy2(shutil.which('busybox') or '/bin/busybox',
                     root / 'bin/busybox')
        os.symlink('busybox', root / 'bin/sh')
        shutil.copy2(os.path.join(tests_dir, 'vm/init.sh'), root / 'init')
        os.chmod(root / 'init', 0o755)
        (root / 'etc/passwd').write_text(
            'root:x:0:0:root:/root:/bin/sh\n'
            'nobody:x:65534:65534:nobody:/tmp:/bin/sh\n')
        (root / 'etc/group').write_text('root:x:0:\nnogroup:x:65534:\n')

        _stock_modules(root, kver, kmoddir)
        extra = root / 'lib/modules' / kver / 'extra'
        extra.mkdir(parents=True, exist_ok=True)
        # Stripped of debug info, as DKMS and "make install" install them;
        # the script leaves signed modules (already stripped) alone.
        for ko in our_modules:
            dest = extra / os.path.basename(ko)
            shutil.copy2(ko, dest)
            subprocess.run([STRIP_MODULES, str(dest)], check=True)
        subprocess.run(['depmod', '-b', str(root), kver], check=True)

        for f in GUEST_FILES:
            _install_binary(root, f, os.path.dirname(f))
        for b in guest_bins:
            _install_binary(root, b, '/tests/bin')

        if kselftests and os.path.isdir(kselftests):
            _install_kselftests(root, kselftests)
        for sub in ('cases', 'groups'):
            shutil.copytree(os.path.join(tests_dir, 'vm', sub),
                            root / 'tests' / sub, dirs_exist_ok=True)
        shutil.copytree(os.path.join(tests_dir, 'vectors'),
                        root / 'tests' / 'vectors', dirs_exist_ok=True)
        shutil.copy2(os.path.join(tests_dir, 'vm/lib.sh'),
                     root / 'tests/lib.sh')

        files = subprocess.run(['find', '.', '-mindepth', '1'], cwd=root,
                               capture_output=True, text=True,
                               check=True).stdout
        with open(out + '.tmp', 'wb') as f:
            subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc',
                            '--owner', '0:0'], cwd=root, input=files.encode(),
                           stdout=f, check=True)
        os.replace(out + '.tmp', out)
