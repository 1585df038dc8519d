"""Player settings, kept between runs as JSON in the data folder.

A missing file, a corrupt file or a bad value gives the default for that
value; the rest of the file is kept, and what this version can't use (a newer
one's settings, or its values for a setting this one knows) is written back
with it, unless the player changes that very setting. A file that is there but can't be read
(cut off, not UTF-8, not a JSON object) is said once in the menu (Store.settings_message), and renamed
aside when settings are next saved.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from ..i18n import _, available_languages
from ..paths import data_dir
from ..rules.record import JSON_ERRORS, RecordError, json_detail, read_file
from ..rules.text import clean_name
from .files import SaveError, set_aside, write_atomic

FILENAME = "settings.json"


@dataclass(frozen=True)
class Settings:
    window_size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    camera_sensitivity: float = 1.0    # 1.0 = normal; 0.2 to 5
    animation_speed: float = 1.0       # 1.0 = normal; 0 = no animations, up to 4
    sound: bool = True
    language: str | None = None        # None: the system's language
    # the seats and rules of the last game started from New game (or New tournament), offered there again
    new_game: dict | None = None
    # the Puzzles page: the two puzzles offered until one is played, and a name typed there
    puzzles: dict | None = None
    # Play online: the name, the server's address and the game's code last typed there
    online: dict | None = None

    def changed(self, **values) -> "Settings":
        """A copy with some values replaced (checked like values read from the file)."""
        return _checked({**asdict(self), **values})


def _number(v, low, high):
    if isinstance(v, (int, float)) and not isinstance(v, bool) and low <= v <= high:
        return float(v)
    raise ValueError


def _size(v):
    if (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and 200 <= n <= 16384 for n in v)):
        return (v[0], v[1])
    raise ValueError


def _flag(v):
    if isinstance(v, bool):
        return v
    raise ValueError


def _language(v):
    """None (the system's) or a language with a catalogue: "fr" typed in the file played in English while
    Settings' Language button said "fr" (kept in the file for a version that has it: save_settings)."""
    if v is None or isinstance(v, str) and re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", v) and \
            v.split("_")[0] in available_languages():
        return v
    raise ValueError


def _current_kind(kind: str) -> str:
    """A seat's kind as New game offers it now: "bot:hard" for a former "bot:expert"."""
    from ..ai import current_strength
    return "bot:" + current_strength(kind.removeprefix("bot:")) if kind.startswith("bot:") else kind


def _new_game(v):
    """{"seats": [{"name", "kind"}, ...], "variant", "modules", "powers", "practice"}, as New game keeps them."""
    from ..ai import FORMER_STRENGTHS, STRENGTHS
    from ..rules.game import MAX_PLAYERS, MODULES, POWERS, VARIANTS
    if v is None:
        return None
    seats = v.get("seats") if isinstance(v, dict) else None
    kinds = ["human"] + [f"bot:{s}" for s in (*STRENGTHS, *FORMER_STRENGTHS)]
    if (isinstance(seats, list) and 1 <= len(seats) <= MAX_PLAYERS
            and all(isinstance(s, dict) and isinstance(s.get("name"), str) and s.get("kind") in kinds for s in seats)
            and v.get("variant") in VARIANTS and isinstance(v.get("practice"), bool)
            and all(isinstance(v.get(k), list) and all(isinstance(x, str) and x in allowed for x in v[k])
                    for k, allowed in (("modules", MODULES), ("powers", POWERS)))):
        return {"seats": [{"name": clean_name(s["name"]), "kind": _current_kind(s["kind"])} for s in seats],
                "variant": v["variant"],
                "modules": list(v["modules"]), "powers": list(v["powers"]), "practice": v["practice"]}
    raise ValueError


def _puzzles(v):
    """{"offered": [two codes of different puzzles], "player": a name typed on the page, or ""}."""
    from ..puzzle import PuzzleCodeError, decode
    if v is None:
        return None
    offered = v.get("offered") if isinstance(v, dict) else None
    if isinstance(offered, list) and len(offered) == 2 and all(isinstance(c, str) for c in offered) \
            and isinstance(v.get("player"), str):
        try:
            codes = [decode(c).code for c in offered]
        except PuzzleCodeError:
            raise ValueError from None
        if codes[0] != codes[1]:
            return {"offered": codes, "player": clean_name(v["player"])}
    raise ValueError


def _online(v):
    """{"name", "address", "code"}: texts as typed on the Play online page."""
    if v is None:
        return None
    if isinstance(v, dict) and all(isinstance(v.get(k), str) and len(v[k]) <= 200 for k in ("name", "address", "code")):
        return {"name": clean_name(v["name"]), "address": v["address"].strip(), "code": v["code"].strip()}
    raise ValueError


_CHECKS = {
    "window_size": _size,
    "fullscreen": _flag,
    "camera_sensitivity": lambda v: _number(v, 0.2, 5.0),
    "animation_speed": lambda v: _number(v, 0.0, 4.0),
    "sound": _flag,
    "language": _language,
    "new_game": _new_game,
    "puzzles": _puzzles,
    "online": _online,
}


def _usable(key: str, value) -> bool:
    """Whether this version knows setting `key` and can use `value` for it."""
    try:
        _CHECKS[key](value)
    except (KeyError, ValueError):
        return False
    return True


def _checked(data: dict) -> Settings:
    """Settings from a decoded dict: each missing or bad value becomes its default."""
    good = {}
    for f in fields(Settings):
        try:
            good[f.name] = _CHECKS[f.name](data[f.name])
        except (KeyError, ValueError):
            pass
    return replace(Settings(), **good)


def settings_path(folder: Path | None = None) -> Path:
    return Path(folder or data_dir()) / FILENAME


def load_settings(folder: Path | None = None) -> Settings:
    return read_settings(folder)[0]


def _stored(path: Path) -> dict:
    """The settings file decoded: FileNotFoundError, OSError, TypeError (valid JSON, but not the object of
    settings we write), or ValueError (JSON_ERRORS, RecordError: not a plain file, or far too big) when it can't
    be."""
    data = json.loads(read_file(path))
    if not isinstance(data, dict):
        raise TypeError
    return data


def read_settings(folder: Path | None = None) -> tuple[Settings, str | None]:
    """The settings, and a sentence for the player when the file is there but can't be read."""
    path = settings_path(folder)
    try:
        data = _stored(path)
    except FileNotFoundError:
        return Settings(), None
    except (OSError, TypeError, *JSON_ERRORS) as e:   # JSON_ERRORS covers UnicodeDecodeError and RecordError too
        if isinstance(e, TypeError):
            reason = _("not a JSON object of settings")
        elif isinstance(e, OSError):
            reason = e.strerror or str(e)
        elif isinstance(e, RecordError):
            reason = e.text(_)
        elif isinstance(e, UnicodeDecodeError):
            reason = _("not valid JSON: not UTF-8 text")
        elif isinstance(e, json.JSONDecodeError):
            reason = _("not valid JSON ({detail}, line {line})").format(detail=json_detail(e).text(_), line=e.lineno)
        else:
            reason = _("not a usable JSON file: a number too long or nesting too deep")
        return Settings(), _("The settings file {name} could not be read ({reason}); the defaults are used. "
                             "When settings are next saved, it is kept, renamed {name}.corrupt-….").format(
            name=path.name, reason=reason)
    return _checked(data), None


def save_settings(settings: Settings, folder: Path | None = None) -> None:
    """Atomically; SaveError (with a sentence for the player) if the disk refuses. What this version can't
    use, written by a newer one, is kept for it: settings it doesn't know, and values it can't use for a
    setting it knows (played with the default) while the player leaves that setting as it is."""
    path = settings_path(folder)
    data = asdict(settings)
    data["window_size"] = list(settings.window_size)
    default = Settings()
    try:
        data.update({key: value for key, value in _stored(path).items() if not _usable(key, value)
                     and (key not in data or getattr(settings, key) == getattr(default, key))})
    except FileNotFoundError:
        pass
    except (OSError, TypeError, *JSON_ERRORS):   # a file that can't be read (a typo in a hand-edited one, a
        try:                                     # damaged one) is renamed aside whole, never written over
            set_aside(path, "corrupt")
        except OSError as e:
            raise SaveError(_("Could not save {name}: {reason}. The previous copy is kept.").format(
                name=path.name, reason=e.strerror or e)) from e
    write_atomic(path, json.dumps(data, indent=1))
