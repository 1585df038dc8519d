"""Text a player types or a file brings (names, values), made safe to keep and short enough to show."""
from __future__ import annotations

import json
import re

# A lone UTF-16 surrogate ("A\ud800B" is valid JSON) can't be written as UTF-8: SQLite and every file refused
# it, at the last tile and at every start after. A control character (a line break) split one-line messages.
UNUSABLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
# The most of a name (or of a value a file holds) shown in a message or on a screen: a little more than New
# game's field takes ("Cleopatra Wolkenstein-Ramirez"); a 50 MB name was printed whole.
SHOWN_LENGTH = 32


def clean_name(name: str) -> str:
    """A name as kept: what can't be written or shown on one line replaced by "\ufffd"."""
    return UNUSABLE.sub("\ufffd", name)


def shown(text: str) -> str:
    """`text` cut to SHOWN_LENGTH characters, with "…" where it was cut."""
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH - 1] + "…"


def as_json(value) -> str:
    """A value from a JSON file as JSON writes it (null, true, "a", {"a": 1}), not as Python does
    (None, True, 'a'), cut short (shown)."""
    if isinstance(value, str):   # cut first (a 50 MB string is not written out whole), quotes kept
        return clean_name(json.dumps(shown(value), ensure_ascii=False))
    return clean_name(shown(json.dumps(value, ensure_ascii=False)))
