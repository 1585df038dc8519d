"""Game records (spec/game-record.md): read, write, replay move by move."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from .board import Placement
from .game import Game, Ruleset, Seat, MAX_PLAYERS

FORMAT = "nmbr9-record"
VERSION = 1
VARIANTS = {"classic": 20}  # variant -> cards in its deck
MODULES: set[str] = set()   # the NMBR 9 ++ modules register here


class RecordError(ValueError):
    """The file can't be read or is not a game record (code bad_record)."""


@dataclass
class Record:
    seats: list[Seat]
    deck: list[int]
    ruleset: Ruleset
    moves: list[dict]          # as in the file, validated for types
    extra: dict                # fields this version does not interpret, kept on rewrite


@dataclass
class Replay:
    """The outcome of checking a record move by move."""
    game: Game
    error: dict | None = None  # {"code", "move", "round", "player", "message"}

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict:
        if self.error:
            return {"ok": False, "error": self.error}
        g = self.game
        return {"ok": True, "complete": g.over, "rounds": min(g.round - 1, g.rounds), "scores": g.scores()}


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_record(data) -> Record:
    """Validate a decoded JSON value as a record; RecordError says what is wrong."""
    _need(isinstance(data, dict), "not a game record: the file holds no JSON object")
    _need(data.get("format") == FORMAT, f"not a game record: format is {data.get('format')!r}, expected {FORMAT!r}")
    _need(data.get("version") == VERSION, f"unsupported record version {data.get('version')!r} (this game reads {VERSION})")
    for key in ("ruleset", "players", "deck", "moves"):
        _need(key in data, f"the record has no {key!r} field")
    rs = data["ruleset"]
    _need(isinstance(rs, dict) and isinstance(rs.get("variant"), str)
          and isinstance(rs.get("modules", []), list), "'ruleset' must be an object with a 'variant' and a 'modules' list")
    _need(rs["variant"] in VARIANTS, f"unknown variant {rs['variant']!r}")
    for m in rs.get("modules", []):
        _need(isinstance(m, str) and m in MODULES, f"unknown module {m!r}")
    players = data["players"]
    _need(isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS,
          f"'players' must be a list of 1 to {MAX_PLAYERS} players")
    seats = []
    for i, p in enumerate(players):
        _need(isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), str),
              f"player {i} needs a 'name' and a 'kind' (strings)")
        seats.append(Seat(p["name"], p["kind"]))
    deck = data["deck"]
    _need(isinstance(deck, list) and all(_is_int(c) and 0 <= c <= 9 for c in deck),
          "'deck' must be a list of card numbers 0 to 9")
    size = VARIANTS[rs["variant"]]
    _need(len(deck) == size and all(n == size // 10 for n in Counter(deck).values()) and len(set(deck)) == 10,
          f"the {rs['variant']} deck has {size} cards, each number {size // 10} times")
    moves = data["moves"]
    _need(isinstance(moves, list), "'moves' must be a list")
    for i, m in enumerate(moves):
        _need(isinstance(m, dict), f"move {i} is not an object")
        for key in ("round", "player", "digit", "rotation", "x", "y"):
            _need(_is_int(m.get(key)), f"move {i} needs an integer {key!r}")
        _need(m.get("level") is None or _is_int(m["level"]), f"move {i}: 'level' must be an integer")
    known = {"format", "version", "ruleset", "players", "deck", "moves"}
    return Record(seats, list(deck), Ruleset(rs["variant"], tuple(rs.get("modules", []))), moves,
                  {k: v for k, v in data.items() if k not in known})


def load_record(path) -> Record:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"can't read {path}: {e}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"not a game record: {path} is not valid JSON ({e.msg}, line {e.lineno})") from None
    return parse_record(data)


def replay(record: Record) -> Replay:
    """Play the record's moves through the rules; stop at the first illegal one."""
    game = Game(record.seats, record.deck, record.ruleset)
    for i, m in enumerate(record.moves):
        p = Placement(m["digit"], m["rotation"], m["x"], m["y"], m.get("level"))
        player = m["player"]
        if m["round"] != game.round:
            v = game.check(-1, p)  # a skipped or repeated round is a wrong turn
        else:
            v = game.play(player, p)
        if not v:
            return Replay(game, {"code": v.code, "move": i, "round": m["round"], "player": player,
                                 "message": v.message})
    return Replay(game)


def game_record(game: Game, extra: dict | None = None) -> dict:
    """The record of a game so far, as a JSON-ready dict."""
    return {"format": FORMAT, "version": VERSION, "ruleset": game.ruleset.to_json(),
            "players": [{"name": s.name, "kind": s.kind} for s in game.seats],
            "deck": list(game.deck), "moves": [m.to_json() for m in game.moves], **(extra or {})}


def record_game(record: Record) -> Game:
    """The game a legal record describes; RecordError if a move breaks a rule."""
    r = replay(record)
    if not r.ok:
        e = r.error
        raise RecordError(f"move {e['move']} (round {e['round']}, player {e['player']}) is illegal: {e['message']}")
    return r.game
