"""Which characters a TrueType font has a glyph for, read from its cmap table.

Used by `nmbr9 i18n check` and the tests to prove the bundled font can
write every letter of every catalogue (no extra dependency: the cmap
formats 4 and 12 are a few lines of struct).
"""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

# Letters each language needs beyond ASCII (upper and lower case).
LETTERS = {
    "de": "äöüßÄÖÜẞ„“‚‘",
    "es": "áéíóúüñÁÉÍÓÚÜÑ¿¡«»",
    "pl": "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ„”",
}


class FontError(ValueError):
    pass


def _cmap_format4(data: bytes, at: int) -> set[int]:
    seg2 = struct.unpack_from(">H", data, at + 6)[0]
    ends = at + 14
    starts = ends + seg2 + 2
    deltas = starts + seg2
    range_offsets = deltas + seg2
    chars = set()
    for i in range(seg2 // 2):
        end, = struct.unpack_from(">H", data, ends + 2 * i)
        start, = struct.unpack_from(">H", data, starts + 2 * i)
        delta, = struct.unpack_from(">h", data, deltas + 2 * i)
        ro_at = range_offsets + 2 * i
        ro, = struct.unpack_from(">H", data, ro_at)
        for c in range(start, end + 1):
            if c == 0xFFFF:
                continue
            if ro == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                glyph, = struct.unpack_from(">H", data, ro_at + ro + 2 * (c - start))
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                chars.add(c)
    return chars


def _cmap_format12(data: bytes, at: int) -> set[int]:
    groups, = struct.unpack_from(">I", data, at + 12)
    chars = set()
    for g in range(groups):
        start, end, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        chars.update(range(start, end + 1))
    return chars


@lru_cache(maxsize=None)
def cmap_chars(path: Path) -> frozenset[int]:
    """Code points the font at `path` maps to a glyph."""
    data = Path(path).read_bytes()
    tables, = struct.unpack_from(">H", data, 4)
    cmap = None
    for i in range(tables):
        tag, _sum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise FontError(f"{path}: no cmap table")
    count, = struct.unpack_from(">H", data, cmap + 2)
    best: set[int] = set()
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue  # Unicode subtables only
        fmt, = struct.unpack_from(">H", data, cmap + offset)
        if fmt == 4:
            found = _cmap_format4(data, cmap + offset)
        elif fmt == 12:
            found = _cmap_format12(data, cmap + offset)
        else:
            continue
        best |= found
    if not best:
        raise FontError(f"{path}: no Unicode cmap of format 4 or 12")
    return frozenset(best)
