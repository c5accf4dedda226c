#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse every Documentation/*.rst with docutils; fail on any warning."""

import glob
import io
import os
import sys

try:
    import docutils.core
    import docutils.utils
except ImportError:
    sys.exit('check-rst: docutils missing (Debian package python3-docutils)')

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
status = 0
for path in sorted(glob.glob(os.path.join(SRC, 'Documentation', '*.rst'))):
    with open(path) as f:
        text = f.read()
    try:
        docutils.core.publish_doctree(
            text, source_path=path,
            settings_overrides={'halt_level': 2, 'report_level': 2,
                                'warning_stream': io.StringIO()})
    except docutils.utils.SystemMessage as e:
        print(f'{os.path.relpath(path, SRC)}: {e}')
        status = 1
sys.exit(status)
