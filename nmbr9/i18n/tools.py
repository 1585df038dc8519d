"""Maintainer tools: `nmbr9 i18n extract` and `nmbr9 i18n check`.

extract: read every `_("...")`, `N_("...")` and `ngettext("...", "...", n)`
literal in nmbr9/ (with the ast, so strings split over lines are found),
write locale/nmbr9.pot, and merge it into each language's .po: new messages
arrive empty (or with a close old translation marked fuzzy), messages gone
from the source are kept at the end as obsolete (#~) in case they return.

check: what a catalogue lacks (missing, untranslated, fuzzy), what it has
too many (obsolete), translations whose {fields} differ from the English,
letters the bundled font lacks, and calls that can never be translated
(an f-string or a formatted string inside `_()`).
"""
from __future__ import annotations

import ast
import difflib
import string
from dataclasses import dataclass, field
from pathlib import Path

from . import DOMAIN, LOCALE_DIR, available_languages, SOURCE_LANGUAGE
from . import po

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent
POT = LOCALE_DIR / f"{DOMAIN}.pot"
MARKERS = {"_": 1, "N_": 1, "ngettext": 2, "pgettext": 2}  # name -> how many leading string arguments

PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
LANGUAGE_TEAM = {"de": "German", "es": "Spanish", "pl": "Polish"}


@dataclass
class Extracted:
    entries: list[po.Entry]
    untranslatable: list[str] = field(default_factory=list)  # "path:line: why"


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _formatted_too_early(arg: ast.expr) -> bool:
    """`_(f"...")`, `_("..." + x)`, `_("...".format(...))`, `_("..." % x)`: no catalogue can hold these."""
    if isinstance(arg, ast.JoinedStr):
        return True
    if isinstance(arg, ast.BinOp) and any(isinstance(s, ast.Constant) and isinstance(s.value, str)
                                          for s in (arg.left, arg.right)):
        return True
    return (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
            and isinstance(arg.func.value, ast.Constant) and isinstance(arg.func.value.value, str))


def extract(package: Path = PACKAGE) -> Extracted:
    found: dict[tuple, po.Entry] = {}
    bad: list[str] = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        except SyntaxError as e:
            bad.append(f"{rel}:{e.lineno}: cannot be parsed ({e.msg})")
            continue
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                       key=lambda n: (n.lineno, n.col_offset))  # source order, so the .pot reads like the code
        for node in calls:
            name = _name(node.func)
            count = MARKERS.get(name)
            if count is None or len(node.args) < count:
                continue
            args = node.args[:count]
            if any(_formatted_too_early(a) for a in args):
                bad.append(f"{rel}:{node.lineno}: {name}() of a string formatted before translation")
                continue
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                continue  # a variable holding a message marked elsewhere with N_()
            context, msgid, plural = None, args[0].value, None
            if name == "pgettext":
                context, msgid = args[0].value, args[1].value
            elif name == "ngettext":
                plural = args[1].value
            if not msgid:
                continue
            key = (context, msgid)
            if key not in found:
                found[key] = po.Entry(msgid, msgid_plural=plural, msgctxt=context,
                                      msgstr=["", ""] if plural else [""])
                if "{" in msgid:
                    found[key].flags.append("python-brace-format")
            entry = found[key]
            if plural and entry.msgid_plural is None:
                entry.msgid_plural, entry.msgstr = plural, ["", ""]
            if rel not in entry.references:
                entry.references.append(rel)
    return Extracted(list(found.values()), bad)


def template(extracted: Extracted) -> po.Catalogue:
    header = {
        "Project-Id-Version": "nmbr9",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    return po.Catalogue(header, extracted.entries,
                        ["Messages of NMBR 9 3D. Made by `nmbr9 i18n extract`; do not edit by hand."])


def catalogue_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def merge(pot: po.Catalogue, old: po.Catalogue | None, code: str) -> po.Catalogue:
    header = {
        "Project-Id-Version": "nmbr9",
        "Language": code,
        "Language-Team": LANGUAGE_TEAM.get(code, code),
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS.get(code, "nplurals=2; plural=(n != 1);"),
    }
    nplurals = int(header["Plural-Forms"].split("nplurals=")[1].split(";")[0])
    if old is not None:
        header = {**header, **{k: v for k, v in old.header.items() if k not in ("Project-Id-Version",)}}
    olds = {} if old is None else {e.key: e for e in old.entries}  # obsolete ones too: they may return
    wanted = {t.key for t in pot.entries}
    spare = [k[1] for k in olds if k not in wanted and k[0] is None and olds[k].translated]
    entries = []
    for t in pot.entries:
        e = po.Entry(t.msgid, msgid_plural=t.msgid_plural, msgctxt=t.msgctxt, references=list(t.references),
                     flags=[f for f in t.flags if f != "fuzzy"])
        e.msgstr = [""] * (nplurals if t.msgid_plural else 1)
        prev = olds.get(t.key)
        if prev is not None:
            e.comments = prev.comments
            if prev.fuzzy:
                e.flags.append("fuzzy")
                e.previous = prev.previous
        else:
            close = difflib.get_close_matches(t.msgid, spare, n=1, cutoff=0.75)
            if close:
                prev = olds[(None, close[0])]
                e.flags.append("fuzzy")
                e.previous = prev.msgid
        if prev is not None:
            strs = prev.msgstr if bool(prev.msgid_plural) == bool(t.msgid_plural) else [prev.msgstr[0]]
            e.msgstr = (list(strs) + [""] * len(e.msgstr))[:len(e.msgstr)]
        entries.append(e)
    for key, prev in olds.items():
        if key not in wanted and any(prev.msgstr):
            entries.append(po.Entry(prev.msgid, list(prev.msgstr), prev.msgid_plural, prev.msgctxt,
                                    comments=prev.comments, obsolete=True))
    comments = old.header_comments if old is not None else [
        f"{LANGUAGE_TEAM.get(code, code)} messages of NMBR 9 3D. New messages come from `nmbr9 i18n extract`."]
    return po.Catalogue(header, entries, comments)


def languages() -> list[str]:
    return [c for c in available_languages() if c != SOURCE_LANGUAGE]


def cmd_extract(langs: list[str] | None = None) -> int:
    extracted = extract()
    pot = template(extracted)
    po.write(POT, pot)
    report = [f"{POT.relative_to(ROOT)}: {len(pot.entries)} messages"]
    for code in langs or languages():
        path = catalogue_path(code)
        old = po.read(path) if path.exists() else None
        cat = merge(pot, old, code)
        po.write(path, cat)
        todo = sum(1 for e in cat.entries if not e.obsolete and not e.translated)
        report.append(f"{path.relative_to(ROOT)}: {todo} to translate")
    report += [f"warning: {line}" for line in extracted.untranslatable]
    print("\n".join(report))  # after every file is written
    return 0


def _fields(s: str) -> set[str]:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f is not None}
    except ValueError:
        return {"<unbalanced braces>"}


@dataclass
class Report:
    """What `check` found for one language (or, for "", the source tree)."""
    missing: list[str] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)
    bad_fields: list[str] = field(default_factory=list)
    missing_glyphs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.untranslated or self.fuzzy or self.obsolete
                    or self.bad_fields or self.missing_glyphs)


def check_catalogue(pot: po.Catalogue, cat: po.Catalogue, font_chars: set[int] | None = None) -> Report:
    r = Report()
    have = cat.by_key()
    wanted = {e.key for e in pot.entries}
    for t in pot.entries:
        e = have.get(t.key)
        if e is None:
            r.missing.append(t.msgid)
        elif e.fuzzy:
            r.fuzzy.append(t.msgid)
        elif not all(e.msgstr):
            r.untranslated.append(t.msgid)
    for e in have.values():
        if e.key not in wanted:
            r.obsolete.append(e.msgid)
        # a translation may use only the English {fields}; a singular one must use all of them
        # (a Polish plural form such as "jeden punkt" may leave out {n})
        want = _fields(e.msgid) | (_fields(e.msgid_plural) if e.msgid_plural else set())
        for s in e.msgstr:
            if s and (_fields(s) - want or (not e.msgid_plural and _fields(s) != want)):
                r.bad_fields.append(f"{e.msgid!r} -> {s!r}")
        if font_chars is not None:
            for s in e.msgstr:
                lost = sorted({c for c in s if ord(c) not in font_chars and c not in "\n\t"})
                if lost:
                    r.missing_glyphs.append(f"{''.join(lost)!r} in {s[:40]!r}")
    return r


def cmd_check() -> int:
    from ..paths import FONT, FONT_BOLD
    from .fonts import cmap_chars
    extracted = extract()
    pot = template(extracted)
    chars = cmap_chars(FONT) & cmap_chars(FONT_BOLD)
    problems = 0
    current = POT.exists() and [(e.key, e.msgid_plural) for e in po.read(POT).entries] == \
        [(e.key, e.msgid_plural) for e in pot.entries]
    if not current:
        print(f"{POT.relative_to(ROOT)}: out of date; run `nmbr9 i18n extract`")
        problems += 1
    for line in extracted.untranslatable:
        print("untranslatable:", line)
        problems += 1
    for code in languages():
        path = catalogue_path(code)
        r = check_catalogue(pot, po.read(path), chars)
        total = len(pot.entries)
        done = total - len(r.missing) - len(r.untranslated) - len(r.fuzzy)
        print(f"{code}: {done}/{total} translated")
        for kind in ("missing", "untranslated", "fuzzy", "obsolete", "bad_fields", "missing_glyphs"):
            for msg in getattr(r, kind):
                print(f"  {kind}: {msg[:100]!r}" if kind in ("missing", "untranslated", "fuzzy", "obsolete")
                      else f"  {kind}: {msg[:140]}")
        problems += not r.ok
    print("ok" if not problems else "problems found")
    return 1 if problems else 0


def main(args) -> int:
    if args.action == "extract":
        from ..store.files import SaveError
        try:
            return cmd_extract(args.lang or None)
        except SaveError as e:   # a full disk: one line; each catalogue is the old or the new one, whole
            print(e.message)
            return 1
    return cmd_check()
