"""Reading, writing and compiling gettext .po catalogues.

The .po files in the repository are the only form of the translations: at
run time they are compiled in memory to the .mo format and handed to the
standard library's `gettext.GNUTranslations`, which does the lookups and
evaluates each language's Plural-Forms. No build step, no binary files.
"""
from __future__ import annotations

import ast
import io
import struct
import threading
from dataclasses import dataclass, field
from gettext import GNUTranslations
from pathlib import Path


class POError(ValueError):
    """A catalogue that cannot be read; the message names file and line."""


@dataclass
class Entry:
    msgid: str
    msgstr: list[str] = field(default_factory=lambda: [""])  # one per plural form
    msgid_plural: str | None = None
    msgctxt: str | None = None
    references: list[str] = field(default_factory=list)     # "#: path"
    flags: list[str] = field(default_factory=list)          # "#, fuzzy"
    comments: list[str] = field(default_factory=list)       # "# translator comment"
    extracted: list[str] = field(default_factory=list)      # "#. from the source"
    previous: str | None = None                              # "#| msgid" of a fuzzy match
    obsolete: bool = False                                   # "#~" kept for later

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return all(self.msgstr) and not self.fuzzy


@dataclass
class Catalogue:
    header: dict[str, str]
    entries: list[Entry]
    header_comments: list[str] = field(default_factory=list)

    def by_key(self) -> dict:
        return {e.key: e for e in self.entries if not e.obsolete}


# ----- reading ----------------------------------------------------------------------------

# CPython 3.11's ast is not safe in two threads at once ("SystemError: AST constructor recursion depth
# mismatch"): the menu reads the catalogues in the background while the window may read one too
_AST = threading.Lock()


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise POError(f"{where}: expected a quoted string, found {text!r}")
    try:
        # a .po string is a C string; its escapes are a subset of Python's
        with _AST:
            return ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise POError(f"{where}: bad string {text!r}") from None


def parse(text: str, name: str = "<catalogue>") -> Catalogue:
    entries: list[Entry] = []
    cur: dict = {}
    last_field = None

    def finish():
        nonlocal cur, last_field
        if "msgid" in cur:
            plural = cur.get("msgid_plural")
            strs = cur.get("msgstr", {})
            n = max(strs) + 1 if strs else (2 if plural is not None else 1)
            entries.append(Entry(
                msgid=cur["msgid"], msgid_plural=plural, msgctxt=cur.get("msgctxt"),
                msgstr=[strs.get(i, "") for i in range(n)],
                references=cur.get("#:", []), flags=cur.get("#,", []), comments=cur.get("#", []),
                extracted=cur.get("#.", []), previous=cur.get("previous"), obsolete=cur.get("obsolete", False)))
        cur, last_field = {}, None

    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            cur["obsolete"] = True
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#"):
            if "msgid" in cur and last_field is not None and not line.startswith("#|"):
                finish()  # comments start the next entry even without a blank line
            kind, _, rest = line.partition(" ")
            if kind == "#:":
                cur.setdefault("#:", []).extend(rest.split())
            elif kind == "#,":
                cur.setdefault("#,", []).extend(f.strip() for f in rest.split(",") if f.strip())
            elif kind == "#.":
                cur.setdefault("#.", []).append(rest)
            elif kind == "#|":
                if rest.startswith("msgid "):
                    cur["previous"] = _unquote(rest[6:], where)
            elif kind == "#":
                cur.setdefault("#", []).append(rest)
            else:  # "#something" without a space: a translator comment too
                cur.setdefault("#", []).append(line[1:])
            continue
        if line.startswith('"'):
            if last_field is None:
                raise POError(f"{where}: a string continues nothing")
            value = _unquote(line, where)
            if isinstance(last_field, int):
                cur["msgstr"][last_field] += value
            else:
                cur[last_field] += value
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and "msgid" in cur:
            finish()
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            cur[keyword] = _unquote(rest, where)
            last_field = keyword
        elif keyword == "msgstr":
            cur.setdefault("msgstr", {})[0] = _unquote(rest, where)
            last_field = 0
        elif keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            index = int(keyword[7:-1])
            cur.setdefault("msgstr", {})[index] = _unquote(rest, where)
            last_field = index
        else:
            raise POError(f"{where}: unknown keyword {keyword!r}")
    finish()

    header: dict[str, str] = {}
    header_comments: list[str] = []
    if entries and entries[0].msgid == "" and entries[0].msgctxt is None:
        head = entries.pop(0)
        header_comments = head.comments
        for row in head.msgstr[0].splitlines():
            k, sep, v = row.partition(":")
            if sep:
                header[k.strip()] = v.strip()
    seen = set()
    for e in entries:
        if not e.obsolete:
            if e.key in seen:
                raise POError(f"{name}: message {e.msgid!r} appears twice")
            seen.add(e.key)
    return Catalogue(header, entries, header_comments)


def read(path: Path) -> Catalogue:
    return parse(Path(path).read_text(encoding="utf-8"), str(path))


# ----- writing ----------------------------------------------------------------------------

def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'


def _chunks(s: str, width: int = 76) -> list[str]:
    """Split after spaces and newlines so long messages wrap like msgmerge's output."""
    out, line = [], ""
    word = ""
    for ch in s:
        word += ch
        if ch in " \n":
            if line and len(line) + len(word) > width:
                out.append(line)
                line = ""
            line += word
            word = ""
            if ch == "\n":
                out.append(line)
                line = ""
    if line and len(line) + len(word) > width:
        out.append(line)
        line = ""
    line += word
    if line:
        out.append(line)
    return out


def _field(keyword: str, value: str, prefix: str = "") -> list[str]:
    if len(value) + len(keyword) + 3 <= 79 and "\n" not in value[:-1]:
        return [f"{prefix}{keyword} {_quote(value)}"]
    return [f'{prefix}{keyword} ""'] + [prefix + _quote(c) for c in _chunks(value)]


def format_entry(e: Entry) -> str:
    lines = [f"# {c}".rstrip() for c in e.comments]
    lines += [f"#. {c}" for c in e.extracted]
    if e.references:
        lines.append("#: " + " ".join(e.references))
    if e.flags:
        lines.append("#, " + ", ".join(e.flags))
    if e.previous is not None:
        lines += _field("msgid", e.previous, "#| ")
    p = "#~ " if e.obsolete else ""
    if e.msgctxt is not None:
        lines += _field("msgctxt", e.msgctxt, p)
    lines += _field("msgid", e.msgid, p)
    if e.msgid_plural is not None:
        lines += _field("msgid_plural", e.msgid_plural, p)
        for i, s in enumerate(e.msgstr):
            lines += _field(f"msgstr[{i}]", s, p)
    else:
        lines += _field("msgstr", e.msgstr[0], p)
    return "\n".join(lines) + "\n"


def format_catalogue(cat: Catalogue) -> str:
    head = "".join(f"{k}: {v}\n" for k, v in cat.header.items())
    parts = ["".join(f"# {c}\n".replace("# \n", "#\n") for c in cat.header_comments)
             + format_entry(Entry("", [head]))]
    parts += [format_entry(e) for e in cat.entries if not e.obsolete]
    parts += [format_entry(e) for e in cat.entries if e.obsolete]
    return "\n".join(parts)


def write(path: Path, cat: Catalogue) -> None:
    """Replace the catalogue whole or not at all: a kill or a full disk keeps a translator's work."""
    from ..store.files import write_atomic   # (store speaks through i18n: imported when used)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_atomic(Path(path), format_catalogue(cat))


# ----- compiling --------------------------------------------------------------------------

def compile_mo(cat: Catalogue) -> bytes:
    """The .mo bytes of the translated entries (fuzzy and empty ones are left out, as msgfmt does)."""
    # the bytes are always UTF-8, whatever the catalogue's header says (or lacks)
    header = {**cat.header, "Content-Type": "text/plain; charset=UTF-8"}
    table = {"": "".join(f"{k}: {v}\n" for k, v in header.items())}
    for e in cat.entries:
        if e.obsolete or not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        if e.msgctxt is not None:
            key = e.msgctxt + "\x04" + key
        table[key] = "\0".join(e.msgstr)
    keys = sorted(table, key=lambda k: k.encode("utf-8"))
    ids = [k.encode("utf-8") for k in keys]
    strs = [table[k].encode("utf-8") for k in keys]
    n = len(keys)
    start = 7 * 4 + 16 * n  # header, then the two index tables
    offsets, data = [], b""
    for s in ids + strs:
        offsets.append((len(s), start + len(data)))
        data += s + b"\0"
    out = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    for length, offset in offsets:
        out += struct.pack("ii", length, offset)
    return out + data


def translations(cat: Catalogue) -> GNUTranslations:
    return GNUTranslations(io.BytesIO(compile_mo(cat)))
