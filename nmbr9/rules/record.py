"""Game records (spec/game-record.md): read, write, replay move by move."""
from __future__ import annotations

import errno
import json
import os
import stat
from collections import Counter
from dataclasses import dataclass

from .board import N_, Placement, Reason, Verdict
from .game import (FILLER, MAX_PLAYERS, MODULES, MOVE_KINDS, PLACE, RELOCATE_MOVE, RESERVE_MOVE, START_TILES_MODULE,
                   TWO_OF_THREE, VARIANTS, Game, Move, Ruleset, Seat)
from .text import as_json
from .tiles import FILLERS, START_TILES

FORMAT = "nmbr9-record"
VERSION = 1
# Every integer of a move lies within this (docs/record-fields.md): far more room than any
# game needs, and the rules' numpy arithmetic on coordinates never overflows.
MOVE_INT_LIMIT = 10 ** 9
# The most a file the game reads may hold (a record, the autosave, the settings): a six-player NMBR 9 ++ game
# is under 100 KB; a 34 MB record of 400,000 moves took a minute to be refused.
RECORD_SIZE_LIMIT = 2 ** 20
# What decoding JSON raises on bad input: a syntax error (JSONDecodeError), a number of more
# than 4300 digits (ValueError), or arrays and objects nested too deep (RecursionError).
JSON_ERRORS = (ValueError, RecursionError)
# VARIANTS (variant -> cards in its deck) and MODULES come from game.py; the
# fields NMBR 9 ++ adds are documented in docs/record-plus.md.


# Python's own words for what is wrong in a JSON text (JSONDecodeError.msg), marked to be said in the
# player's language (json_detail)
JSON_DETAILS = (N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
                N_("Expecting ':' delimiter"), N_("Expecting ',' delimiter"), N_("Unterminated string starting at"),
                N_("Invalid control character at"), N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"),
                N_("Extra data"), N_("Illegal trailing comma before end of object"),
                N_("Illegal trailing comma before end of array"))


def json_detail(e: json.JSONDecodeError) -> Reason:
    """What is wrong in a JSON text, as a Reason: text(_) says Python's words in the player's language; an
    empty file or one cut off (Python's "Expecting value" and "Expecting ',' delimiter" at its end) said so."""
    if not e.doc.strip():
        return Reason.of(N_("the file is empty"))
    rest = e.doc[e.pos:].strip()   # where Python stopped: nothing, a string to the end, or "fal" of false
    if not rest or e.msg == "Unterminated string starting at" or any(w.startswith(rest) for w in ("true", "false",
                                                                                                   "null")):
        return Reason.of(N_("the file ends part way through: cut off"))
    return Reason.of(e.msg) if e.msg in JSON_DETAILS else Reason.of("{detail}", detail=e.msg)


class RecordError(ValueError):
    """The file can't be read or is not a game record (code bad_record).

    Made of a sentence marked with N_ and its {fields}: str() is the English (the JSON output stays
    English, spec/game-record.md), `text(_)` the player's language where a person reads it.
    """

    def __init__(self, template: str, **params):
        self.reason = Reason.of(template, **params)
        super().__init__(str(self.reason))

    def text(self, translate) -> str:
        return self.reason.text(translate)


@dataclass
class Record:
    seats: list[Seat]
    deck: list[int]
    ruleset: Ruleset
    moves: list[dict]          # as in the file: replay reads each (parse_move) as it comes to it
    extra: dict                # fields this version does not interpret, kept on rewrite
    start_tiles: list[str] | None = None  # with the start tiles module: one per player


@dataclass
class Replay:
    """The outcome of checking a record move by move."""
    game: Game
    error: dict | None = None  # {"code", "move", "round", "player", "message"}
    verdict: Verdict | None = None  # the refusal, for showing its sentence translated

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict:
        if self.error:
            return {"ok": False, "error": self.error}
        g = self.game
        return {"ok": True, "complete": g.over, "rounds": g.rounds_played, "scores": g.scores()}


def _need(cond: bool, template: str, **params) -> None:
    if not cond:
        raise RecordError(template, **params)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _move_int(v) -> bool:
    return _is_int(v) and -MOVE_INT_LIMIT <= v <= MOVE_INT_LIMIT


def need_format(data, format: str, version: int) -> None:
    """A record of this format and version (NMBR 9's, RumBugz's), or RecordError says what it is."""
    _need(isinstance(data, dict), N_("the file holds no JSON object"))
    _need(data.get("format") == format, N_("format is {found}, expected {format}"),
          found=as_json(data.get("format")), format=as_json(format))
    _need(_is_int(data.get("version")) and data["version"] == version,  # 1.0 and true are not 1
          N_("unsupported record version {found} (this game reads {version})"),
          found=as_json(data.get("version")), version=version)


def parse_record(data) -> Record:
    """Validate a decoded JSON value as a record; RecordError says what is wrong."""
    need_format(data, FORMAT, VERSION)
    for key in ("ruleset", "players", "deck", "moves"):
        _need(key in data, N_("the record has no '{key}' field"), key=key)
    rs = data["ruleset"]
    _need(isinstance(rs, dict) and isinstance(rs.get("variant"), str) and isinstance(rs.get("modules", []), list),
          N_("'ruleset' must be an object with a 'variant' and a 'modules' list"))
    _need(rs["variant"] in VARIANTS, N_("unknown variant {variant}"), variant=as_json(rs["variant"]))
    for m in rs.get("modules", []):
        _need(isinstance(m, str) and m in MODULES, N_("unknown module {module}"), module=as_json(m))
    powers = rs.get("powers", [])
    _need(isinstance(powers, list) and all(isinstance(p, str) for p in powers),
          N_("'powers' must be a list of names"))
    players = data["players"]
    _need(isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS,
          N_("'players' must be a list of 1 to {top} players"), top=MAX_PLAYERS)
    ruleset = Ruleset(rs["variant"], tuple(rs.get("modules", [])), tuple(powers))
    problem = ruleset.problem(len(players))
    _need(problem is None, N_("bad ruleset: {problem}"), problem=problem)
    seats = []
    for i, p in enumerate(players):
        _need(isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), str),
              N_("player {player} needs a 'name' and a 'kind' (strings)"), player=i)
        seats.append(Seat(p["name"], p["kind"]))
    deck = data["deck"]
    _need(isinstance(deck, list) and all(_is_int(c) and 0 <= c <= 9 for c in deck),
          N_("'deck' must be a list of card numbers 0 to 9"))
    size = VARIANTS[rs["variant"]]
    _need(len(deck) == size and all(n == size // 10 for n in Counter(deck).values()) and len(set(deck)) == 10,
          N_("the {variant} deck has {size} cards, each number {each} times"),
          variant=rs["variant"], size=size, each=size // 10)
    start_tiles = None
    if ruleset.uses(START_TILES_MODULE):
        start_tiles = data.get("start_tiles")
        _need(isinstance(start_tiles, list) and len(start_tiles) == len(seats)
              and all(isinstance(t, str) and t in START_TILES for t in start_tiles)
              and len(set(start_tiles)) == len(start_tiles),
              N_("'start_tiles' must list a different start tile ({tiles}) for each player"),
              tiles=", ".join(sorted(START_TILES)))
    moves = data["moves"]
    _need(isinstance(moves, list), N_("'moves' must be a list"))   # each move is read as it is replayed
    known = {"format", "version", "ruleset", "players", "deck", "moves", "start_tiles"}
    return Record(seats, list(deck), ruleset, moves, {k: v for k, v in data.items() if k not in known},
                  list(start_tiles) if start_tiles else None)


def parse_move(i: int, m, variant: str) -> Move:
    """One move of the file as a Move; RecordError names the move and the field."""
    _need(isinstance(m, dict), N_("move {move} is not an object"), move=i)
    kind = m.get("kind", PLACE)
    if kind not in MOVE_KINDS:   # (as_json only then: a server reads every move it is sent)
        _need(False, N_("move {move}: unknown kind {kind}"), move=i, kind=as_json(kind))
    limits = dict(low=-MOVE_INT_LIMIT, high=MOVE_INT_LIMIT)

    def ints(*keys):
        for key in keys:
            _need(_move_int(m.get(key)), N_("move {move} needs an integer '{key}' from {low} to {high}"),
                  move=i, key=key, **limits)

    def optional(key, check, template, **params):
        _need(m.get(key) is None or check(m[key]), template, move=i, key=key, **params)

    ints("round", "player")
    if variant == TWO_OF_THREE:
        _need(m.get("slot") in (0, 1, 2) and _is_int(m.get("slot")), N_("move {move} needs a 'slot' 0, 1 or 2"),
              move=i)
    else:
        _need("slot" not in m, N_("move {move}: 'slot' is only used in the two_of_three variant"), move=i)
    for key in ("marker", "level"):
        optional(key, _move_int, N_("move {move}: '{key}' must be an integer from {low} to {high}"), **limits)
    for key in ("flipped", "reserved"):
        optional(key, lambda v: isinstance(v, bool), N_("move {move}: '{key}' must be true or false"))
    optional("powers", lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v),
             N_("move {move}: '{key}' must be a list of names"))
    common = dict(round=m["round"], player=m["player"], kind=kind, slot=m.get("slot"), marker=m.get("marker"))
    placement = None
    if kind in (PLACE, FILLER, RELOCATE_MOVE):
        ints("rotation", "x", "y")
        if kind == FILLER:
            _need(isinstance(m.get("piece"), str) and m["piece"] in FILLERS,  # a list can't be looked up
                  N_("move {move} needs a 'piece' ({pieces})"), move=i, pieces=", ".join(FILLERS))
            piece = m["piece"]
        else:
            ints("digit")
            piece = m["digit"]
        placement = Placement(piece, m["rotation"], m["x"], m["y"], m.get("level"), bool(m.get("flipped")))
    if kind == RESERVE_MOVE:
        ints("digit")
    source = None
    if kind == RELOCATE_MOVE:
        src = m.get("from")
        _need(isinstance(src, list) and len(src) == 3 and all(_move_int(v) for v in src),
              N_("move {move} needs 'from': [x, y, level] of a square of the tile moved"), move=i)
        source = tuple(src)
    return Move(placement=placement, powers=tuple(m.get("powers") or ()), reserved=bool(m.get("reserved")),
                source=source, digit=m.get("digit") if kind == RESERVE_MOVE else None, **common)


NOT_A_FILE = N_("not a file but a pipe, a device or a socket")


def special_file(path) -> bool:
    """Whether `path` is a pipe, a device or a socket: opened to be read or written, it may wait for ever."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_file(path) -> str:
    """The text of a file a player or the data folder hands in (a record, the autosave, the settings; a BOM
    first, as Notepad writes, skipped). RecordError at once for what is not a plain file (`mkfifo f.json` waited
    for a writer for ever) or holds more than RECORD_SIZE_LIMIT; OSError (FileNotFoundError,
    IsADirectoryError, ...), UnicodeDecodeError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))   # a pipe opens at once, not once written
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise RecordError(NOT_A_FILE)
        with os.fdopen(fd, "rb") as f:
            fd = None
            data = f.read(RECORD_SIZE_LIMIT + 1)
    finally:
        if fd is not None:
            os.close(fd)
    if len(data) > RECORD_SIZE_LIMIT:
        raise RecordError(N_("more than {mb} MB: far more than the game ever writes"), mb=RECORD_SIZE_LIMIT // 2 ** 20)
    return data.decode("utf-8-sig")


def load_record(path) -> Record:
    return parse_record(read_json(path))


def read_json(path):
    """The JSON value in a record file (NMBR 9's or RumBugz's); RecordError says why it can't be read."""
    try:
        text = read_file(path)
    except RecordError as e:
        raise RecordError(N_("can't read {path}: {error}"), path=path, error=e.reason) from None
    except FileNotFoundError:
        raise RecordError(N_("no such file: {path}"), path=path) from None
    except IsADirectoryError:   # (the system's "Is a directory" is English in every language)
        raise RecordError(N_("{path} is a folder: give the name of a game record file"), path=path) from None
    except UnicodeDecodeError:
        raise RecordError(N_("can't read {path}: {error}"), path=path,
                          error=Reason.of(N_("not valid JSON: not UTF-8 text"))) from None
    except OSError as e:   # the system's words ("Is a directory"), not Python's "[Errno 21] ... '/tmp'"
        raise RecordError(N_("can't read {path}: {error}"), path=path, error=e.strerror or e) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(N_("{path} is not valid JSON ({detail}, line {line})"),
                          path=path, detail=json_detail(e), line=e.lineno) from None
    except JSON_ERRORS:
        raise RecordError(N_("{path} is not a usable JSON file: a number too long or nesting too deep"),
                          path=path) from None


def replay(record: Record) -> Replay:
    """Play the record's moves through the rules; stop at the first illegal one (RecordError at the first one
    of the wrong shape: the moves after either are never looked at)."""
    game = Game(record.seats, record.deck, record.ruleset, record.start_tiles)
    for i, m in enumerate(record.moves):
        v = game.apply(parse_move(i, m, record.ruleset.variant))
        if not v:
            return Replay(game, {"code": v.code, "move": i, "round": m["round"], "player": m["player"],
                                 "message": v.message}, v)
    return Replay(game)


def game_record(game: Game, extra: dict | None = None) -> dict:
    """The record of a game so far, as a JSON-ready dict."""
    out = {"format": FORMAT, "version": VERSION, "ruleset": game.ruleset.to_json(),
           "players": [{"name": s.name, "kind": s.kind} for s in game.seats], "deck": list(game.deck)}
    if game.start_tiles:
        out["start_tiles"] = list(game.start_tiles)
    return {**out, "moves": [m.to_json() for m in game.moves], **(extra or {})}


def record_game(record: Record) -> Game:
    """The game a legal record describes; RecordError if a move breaks a rule."""
    r = replay(record)
    if not r.ok:
        e = r.error
        raise RecordError(N_("move {move} (round {round}, player {player}) is illegal: {refusal}"),
                          move=e["move"], round=e["round"], player=e["player"], refusal=r.verdict)
    return r.game
