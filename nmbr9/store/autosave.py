"""The autosave: the game in progress as a game record, rewritten after every confirmed placement."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from ..match import Match
from ..paths import data_dir
from ..rules.record import FORMAT, JSON_ERRORS, VERSION, RecordError, json_detail, parse_record, read_file, replay
from .files import SaveError, keep_copy, set_aside, write_atomic

FILENAME = "autosave.json"
RUMBUGZ = "rumbugz-game"   # the format of a saved RumBugz game (nmbr9/rumbugz/game.py)


@dataclass
class Resume:
    """What the menu learns at start: a game to continue, and/or a message for the player."""
    match: Match | None = None
    message: str | None = None     # e.g. the save was unreadable and was set aside
    finished: Match | None = None  # a finished game the autosave holds (not to continue; its scores kept)
    tournament: object = None      # the Tournament of that finished game, not over: Continue plays its next game

    @property
    def can_continue(self) -> bool:
        return self.match is not None


class Autosave:
    """The autosave file in the data folder; also a saver for Match (save(match))."""

    def __init__(self, folder: Path | None = None):
        self.path = Path(folder or data_dir()) / FILENAME

    def exists(self) -> bool:
        return self.path.exists()

    def save(self, match: Match) -> None:
        """Write the match's record atomically; SaveError (the old save kept) if the disk refuses."""
        write_atomic(self.path, json.dumps(match.record(), indent=1))

    def clear(self) -> None:
        """Forget the saved game (the player chose to abandon it)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass

    def load(self, **match_kw) -> Resume:
        """The saved game, replayed through the rules to the last confirmed placement.

        A finished game is not offered. A save that can't be read or is not a
        record of this game is renamed aside
        (autosave.json.corrupt-<time>) and a message says so; one with a placement that breaks a rule goes on
        from before it, the file as it was kept (autosave.json.edited-<time>); a save made by a newer
        version of the game is renamed autosave.json.newer-<time>, kept whole for it.
        `match_kw` go to Match (savers, threaded, bot_factory); this autosave is
        added to the savers.
        """
        try:
            text = read_file(self.path)
        except FileNotFoundError:
            return Resume()
        except RecordError as e:   # a pipe (a black window for ever) or a file far too big: set aside unread
            return self._set_aside(e.text(_))
        except UnicodeDecodeError:
            return self._set_aside(_("not valid JSON: not UTF-8 text"))
        except OSError as e:
            return self._set_aside(str(e.strerror or e))
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            detail = json_detail(e).text(_)
            return self._set_aside(_("not valid JSON ({detail}, line {line})").format(detail=detail, line=e.lineno))
        except JSON_ERRORS:
            return self._set_aside(_("not a usable JSON file: a number too long or nesting too deep"))
        version = data.get("version") if isinstance(data, dict) and data.get("format") == FORMAT else None
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            # not damaged: kept whole under a name saying so, for the newer game, not replaced by the next new game
            return self._set_aside(_("it was saved by a newer version of NMBR 9 3D, which can continue it: game "
                                     "record version {found}, this version reads {version}").format(
                found=version, version=VERSION), "newer")
        savers = [self, *match_kw.pop("savers", [])]
        if isinstance(data, dict) and data.get("format") == RUMBUGZ:   # the other game: its own record
            return self._load_rumbugz(data)
        try:
            broken = replay(parse_record(data))
            if broken.error:   # (a hand-edited save, or a rule this version reads more strictly): the game goes on
                # from the last placement before it, not lost whole; the choices after it are dropped with it
                data = {k: v for k, v in data.items() if k != "decided"}
                data["moves"] = data["moves"][:broken.error["move"]]
            match = Match.from_record(data, savers=savers, **match_kw)
        except RecordError as e:
            return self._set_aside(e.text(_))
        found = Resume(finished=match) if match.over else Resume(match)
        if broken.error:
            said = _("A tile of round {round} in the saved game breaks a rule: {refusal} The game goes on from "
                     "before it.").format(round=broken.error["round"], refusal=broken.verdict.text(_))
        elif match.repaired:   # a hand-edited or damaged field
            said = _("The saved game had values it could not use ({fields}): it goes on without them.").format(
                fields=", ".join(f"'{k}'" for k in match.repaired))
        if broken.error or match.repaired:   # said once, the file as it was kept whole beside the game as it
            try:                             # goes on (read again: no word)
                kept = keep_copy(self.path, "edited", text)
                self.save(match)
            except SaveError as e:
                found.message = f"{said} {e.message}"
            else:
                found.message = _("{said} The file as it was is kept as {name} in {folder}.").format(
                    said=said, name=kept.name, folder=kept.parent)
        return found

    def _load_rumbugz(self, data: dict) -> Resume:
        """A RumBugz game: its rounds replayed; one that can't be read is set aside as NMBR 9's is."""
        from ..rumbugz.game import RumbugzGame
        try:   # (NMBR 9's other savers, its personal bests, keep NMBR 9's games only)
            game = RumbugzGame.from_record(data, savers=[self])
        except (RecordError, KeyError, TypeError, ValueError) as e:
            return self._set_aside(e.text(_) if isinstance(e, RecordError) else _("not a RumBugz game ({detail})")
                                   .format(detail=e))
        return Resume() if game.over else Resume(game)   # a finished game is not offered

    def _set_aside(self, reason: str, why: str = "corrupt") -> Resume:
        try:
            moved = set_aside(self.path, why)
        except OSError as e:
            return Resume(message=_("The saved game can't be read ({reason}) nor moved aside ({error}).").format(
                reason=reason, error=e.strerror or e))
        return Resume(message=_("The saved game could not be continued ({reason}). "
                                "It was kept as {name} in {folder}.").format(
            reason=reason, name=moved.name, folder=moved.parent))


__all__ = ["Autosave", "Resume", "SaveError", "FILENAME"]
