# SPDX-License-Identifier: GPL-2.0
"""Read and write "cpurng-noise 1" capture files (see tools/cpurng-capture.1).

A file is a text header (key: value lines, ended by an empty line) followed
by rows * samples records of one little-endian u64 per field.
"""

import array
import os
import struct
import sys


def _split(path):
    with open(path, 'rb') as f:
        data = f.read()
    head, _, body = data.partition(b'\n\n')
    lines = head.decode().split('\n')
    if lines[0] != 'cpurng-noise 1':
        raise ValueError(f'{path}: not a cpurng-noise 1 file')
    h = dict(l.split(': ', 1) for l in lines[1:] if ': ' in l)
    return h, body


def header(path):
    """The header of @path as a dict of strings."""
    return _split(path)[0]


def column(path, field):
    """Every value of one field, in capture order."""
    h, body = _split(path)
    fields = h['fields'].split()
    n = len(fields)
    values = array.array('Q')
    values.frombytes(body[:len(body) // (8 * n) * 8 * n])
    if sys.byteorder != 'little':
        values.byteswap()
    return values[fields.index(field)::n]


def write(path, hdr, rows):
    """Write @rows (tuples, one value per field of hdr['fields'])."""
    n = len(hdr['fields'].split())
    lines = ['cpurng-noise 1'] + [f'{k}: {v}' for k, v in hdr.items()]
    with open(path + '.tmp', 'wb') as f:
        f.write(('\n'.join(lines) + '\n\n').encode())
        for r in rows:
            f.write(struct.pack(f'<{n}Q', *r))
    os.replace(path + '.tmp', path)
