"""RumBugz records (spec/rumbugz.md, version 1): read, write, replay move by move."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...rules.board import N_
from ...rules.record import RecordError, Replay as GameReplay, _is_int, _need, need_format, read_json
from .bugs import set_of_bugs
from .round import HAND_SIZE, Round

FORMAT = "rumbugz-record"
VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 6
COPIES, PLYTS = range(2, 9), range(0, 9)     # the sets a game may choose (spec ruling)
ACTIONS = ("draw", "lay", "change", "discard", "bid", "reshuffle", "end")

__all__ = ["FORMAT", "VERSION", "Record", "RecordError", "Replay", "load_record", "parse_record", "replay",
           "round_record"]


@dataclass
class Record:
    set: dict                  # {"copies", "plyt"}
    players: list[dict]        # [{"name", "kind"}]
    first: int
    bag: list[str]             # every bug of the set, in the order drawn
    moves: list[dict]


@dataclass
class Replay(GameReplay):
    """As NMBR 9's: `game` is the Round the record's moves reach; `error` ({"code", "move", "player",
    "message"}) the first illegal move."""
    players: list[dict] | None = None   # the record's seats

    def to_json(self) -> dict:
        if self.error:
            return super().to_json()
        r = self.game
        return {"ok": True, "complete": r.over, "winner": r.winner, "scores": r.scores(), "hands": r.hand_sizes}


def _strings(v) -> bool:
    return isinstance(v, list) and all(isinstance(s, str) for s in v)


def parse_record(data) -> Record:
    """Check a decoded JSON value is a RumBugz record; RecordError says what is wrong."""
    need_format(data, FORMAT, VERSION)
    for key in ("set", "players", "first", "bag", "moves"):
        _need(key in data, N_("the record has no '{key}' field"), key=key)
    bugs = data["set"]
    _need(isinstance(bugs, dict) and bugs.get("copies") in COPIES and bugs.get("plyt") in PLYTS
          and _is_int(bugs.get("copies")) and _is_int(bugs.get("plyt")),
          N_("'set' must give 'copies' of each number (2 to 8) and 'plyt' (0 to 8)"))
    players = data["players"]
    _need(isinstance(players, list) and MIN_PLAYERS <= len(players) <= MAX_PLAYERS,
          N_("'players' must be a list of {low} to {top} players"), low=MIN_PLAYERS, top=MAX_PLAYERS)
    for i, p in enumerate(players):
        _need(isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), str),
              N_("player {player} needs a 'name' and a 'kind' (strings)"), player=i)
    whole = set_of_bugs(bugs["copies"], bugs["plyt"])
    _need(len(whole) > HAND_SIZE * len(players),
          N_("a set of {count} bugs can't deal six to each of {players} players and draw"), count=len(whole),
          players=len(players))
    _need(_is_int(data["first"]) and 0 <= data["first"] < len(players),
          N_("'first' must be a player, 0 to {last}"), last=len(players) - 1)
    _need(_strings(data["bag"]) and Counter(data["bag"]) == Counter(whole),
          N_("'bag' must hold every bug of the set once: {copies} of each number \"1\" to \"12\" and {plyt} \"P\""),
          copies=bugs["copies"], plyt=bugs["plyt"])
    _need(isinstance(data["moves"], list), N_("'moves' must be a list"))
    for i, m in enumerate(data["moves"]):
        parse_move(i, m, len(players))
    return Record(dict(bugs), [dict(p) for p in players], data["first"], list(data["bag"]), list(data["moves"]))


def parse_move(i: int, m, players: int) -> None:
    """A move's fields have the spec's types; RecordError names the move and the field."""
    _need(isinstance(m, dict), N_("move {move} is not an object"), move=i)
    actions = [a for a in ACTIONS if a in m]
    _need(len(actions) == 1, N_("move {move} needs exactly one of {actions}"), move=i, actions=", ".join(ACTIONS))
    action = actions[0]
    if action == "reshuffle":
        _need(_strings(m["reshuffle"]), N_("move {move}: 'reshuffle' must be a list of bugs"), move=i)
    elif action == "end":
        _need(m["end"] == "no_winner", N_("move {move}: 'end' must be \"no_winner\""), move=i)
    if action in ("reshuffle", "end"):
        _need("player" not in m, N_("move {move}: a {action} has no 'player'"), move=i, action=action)
        return
    _need(_is_int(m.get("player")) and 0 <= m["player"] < players,
          N_("move {move} needs a 'player' from 0 to {last}"), move=i, last=players - 1)
    if action == "draw":
        _need(m["draw"] in ("bag", "discard"), N_("move {move}: 'draw' must be \"bag\" or \"discard\""), move=i)
    elif action == "lay":
        _need(_strings(m["lay"]), N_("move {move}: 'lay' must be a list of bugs"), move=i)
    elif action == "change":
        _need(_is_int(m["change"]) and _strings(m.get("to")),
              N_("move {move}: 'change' needs a sequence's index and 'to', a list of bugs"), move=i)
    elif action == "discard":
        _need(isinstance(m["discard"], str), N_("move {move}: 'discard' must be a bug"), move=i)
    else:
        _need(m["bid"] is True, N_("move {move}: 'bid' must be true"), move=i)


def load_record(path) -> Record:
    return parse_record(read_json(path))


def replay(record: Record) -> Replay:
    """Play the record's moves through the rules; stop at the first illegal one."""
    game = Round(len(record.players), record.first, record.bag)
    for i, m in enumerate(record.moves):
        verdict = game.apply(m)
        if not verdict:
            return Replay(game, {"code": verdict.code, "move": i, "player": m.get("player"),
                                 "message": verdict.message}, verdict, record.players)
    return Replay(game, players=record.players)


def round_record(game: Round, bugs: dict, players: list[dict]) -> dict:
    """The record of a round so far, as a JSON-ready dict."""
    return {"format": FORMAT, "version": VERSION, "set": dict(bugs), "players": [dict(p) for p in players],
            "first": game.first, "bag": list(game.start_bag), "moves": [dict(m) for m in game.moves]}
