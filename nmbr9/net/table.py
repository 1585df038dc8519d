"""One online game: its seats and their secret tokens, the lobby, and the rules layer's games.

Each player lays at their own pace (the online edition, seed 004): every seat
plays its own `Game` on the same deck, so nobody waits for anyone, and each
sees the others' boards as they stood at the start of their own round. The
rules of one player never depend on another's board, except in "Level to
Level", where a level marker becomes active when *any* player has two tiles
on its level: there all seats share one `Game` and play the rounds together.
The deck lives here and leaves only through `record()`, once the game is
over; `view(seat)` is all a player is sent.
"""
from __future__ import annotations

import bisect
import copy
import json
import random
import secrets
from dataclasses import dataclass

from ..rules import BREAKING_RULES, LEVEL_TO_LEVEL, POWERS, Game, Ruleset, Seat, Verdict
from ..rules.game import VARIANT_MAX_PLAYERS
from ..rules.record import RecordError, game_record, parse_move
from .protocol import encode

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
ALL_ROUNDS = 10 ** 6     # seen_before once a player's game is over: every round


@dataclass
class Chair:
    """A seat at an online table: who sits there and the secret that lets them play it."""
    name: str
    kind: str            # "human" or "bot:<strength>"
    token: str


def ruleset_from_json(data) -> Ruleset:
    """The ruleset a client asks for; ValueError says what is wrong."""
    if data is None:
        return Ruleset()
    if not isinstance(data, dict) or not isinstance(data.get("variant", "classic"), str) \
            or not all(isinstance(v, list) and all(isinstance(x, str) for x in v)
                       for v in (data.get("modules", []), data.get("powers", []))):
        raise ValueError("'ruleset' must be {\"variant\": text, \"modules\": [texts], \"powers\": [texts]}")
    rules = Ruleset(data.get("variant", "classic"), tuple(data.get("modules", [])), tuple(data.get("powers", [])))
    # Breaking Rules without powers chosen: two are drawn when the game starts
    drawn = not rules.powers and rules.uses(BREAKING_RULES)
    problem = Ruleset(rules.variant, rules.modules, POWERS[:2] if drawn else rules.powers).problem()
    if problem:
        raise ValueError(str(problem))
    return rules


class Table:
    """One online game from its lobby to its end (see the module's note)."""

    def __init__(self, code: str, rules: Ruleset, created: str):
        self.code = code
        self.rules = rules              # as chosen in the lobby (powers may be drawn at the start)
        self.created = created
        self.chairs: list[Chair] = []
        self.state = LOBBY
        self.seed: int | None = None
        self.games: list[Game] = []
        self.rematch: str | None = None  # the code of the next game, once someone asked for one
        self._moves: dict[int, Moves] = {}   # seat -> its moves as the record writes them, kept as they come
        self.stored: list[tuple[int, dict]] = []   # (seat, move) read back after a restart, made again by ready()
        self._entered: dict[int, list[int]] = {}   # seat -> its score as it entered round 1, 2, ...

    # ----- the lobby ----------------------------------------------------------------
    @property
    def capacity(self) -> int:
        return VARIANT_MAX_PLAYERS[self.rules.variant]

    def sit(self, name: str, kind: str, token: str) -> int:
        self.chairs.append(Chair(name, kind, token))
        return len(self.chairs) - 1

    def seat_of(self, token: str) -> int | None:
        given = token.encode("utf-8", "surrogatepass")   # (any text a client sends, compared in constant time)
        return next((i for i, c in enumerate(self.chairs) if secrets.compare_digest(c.token.encode(), given)), None)

    def start(self, seed: int) -> None:
        """Deal the deck (and powers, start tiles) from the seed; the games begin."""
        full = Game.new(self.seats, self.rules, random.Random(seed))
        self.setup(seed, full.ruleset, full.deck, full.start_tiles)

    def setup(self, seed: int, ruleset: Ruleset, deck: list[int], start_tiles: list[str] | None) -> None:
        self.seed, self.state = seed, PLAYING
        if self.shared:
            self.games = [Game(self.seats, list(deck), ruleset, start_tiles)]
        else:
            self.games = [Game([s], list(deck), ruleset, [start_tiles[i]] if start_tiles else None)
                          for i, s in enumerate(self.seats)]
        self._entered = {s: [] for s in range(len(self.chairs))}
        self._settle()

    @property
    def seats(self) -> list[Seat]:
        return [Seat(c.name, c.kind) for c in self.chairs]

    @property
    def shared(self) -> bool:
        """All seats play one Game, round by round ("Level to Level": see the module's note)."""
        return self.rules.variant == LEVEL_TO_LEVEL

    @property
    def ruleset(self) -> Ruleset:
        return self.games[0].ruleset if self.games else self.rules

    # ----- play ---------------------------------------------------------------------
    def game_of(self, seat: int) -> tuple[Game, int]:
        """The game `seat` plays and its player number in it."""
        return (self.games[0], seat) if self.shared else (self.games[seat], 0)

    def moves_of(self, seat: int) -> list[dict]:
        """The seat's moves so far, as the record writes them."""
        return list(self._kept(seat).moves)

    def _kept(self, seat: int) -> "Moves":
        g, i = self.game_of(seat)
        kept = self._moves.get(seat)
        if kept is None:
            kept = self._moves[seat] = Moves()
        kept.add([move_json(m, seat) for m in g.moves[kept.read:] if m.player == i], len(g.moves))
        return kept

    def seen_before(self, seat: int) -> int:
        """`seat` sees the others' tiles of the rounds before this one (all of them once its game is over)."""
        g, _i = self.game_of(seat)
        return ALL_ROUNDS if g.over else g.round

    def score_seen(self, seat: int, round_: int) -> int:
        """The seat's score before `round_`: now while it has not reached that round, else as it entered it."""
        g, i = self.game_of(seat)
        return g.boards[i].score() if g.round < round_ else self._entered[seat][round_ - 1]

    def _note_rounds(self) -> None:
        """Each seat's score as it enters each round, kept for the slower players' views."""
        for seat, scores in self._entered.items():
            g, i = self.game_of(seat)
            while len(scores) < g.round:
                scores.append(g.boards[i].score())

    def act(self, seat: int, move: dict) -> tuple[Verdict, list[dict]]:
        """Judge and, if legal, make one move (a record move of spec/game-record.md, docs/record-plus.md) for
        `seat`: (the verdict, the moves the record gains). RecordError if the move is not one."""
        g, i = self.game_of(seat)
        m = parse_move(0, {**move, "player": i}, g.variant)
        if m.marker is not None and i not in g.decided():
            # "Level to Level": the rules take the marker's tile before laying it; a refused tile must not bind
            # the player to that marker (a choice no record keeps), so it is tried on a copy first
            v = copy.deepcopy(g).apply(m)
            if not v:
                return v, []
        before = len(g.moves)
        v = g.apply(m)
        if v:
            self._settle()
        return v, self._since(seat, before)

    def act_bot(self, seat: int, actions) -> list[dict]:
        """Make a bot's planned turn (`think`); the moves the record gains. A refusal here is a bug."""
        g, i = self.game_of(seat)
        before = len(g.moves)
        for name, args in actions:
            v = getattr(g, name)(i, *args)
            if not v:
                raise RuntimeError(f"bot action {name}{args} refused: {v.message}")
        if i in g.waiting() and g.options(i).can_end:
            g.end_turn(i)   # bots skip optional actions they did not plan
        self._settle()
        return self._since(seat, before)

    def ready(self) -> "Table":
        """The table with its stored moves made again: at its first use after a restart, so that a server with
        many games listens at once and a player waits only for their own game's replay."""
        stored, self.stored = self.stored, []
        for seat, move in stored:
            v, _added = self.act(seat, move)
            if not v:   # it was legal when it was stored: the rules changed under it
                raise RecordError("stored move {move} no longer replays: {refusal}", move=move, refusal=v)
        return self

    def _since(self, seat: int, before: int) -> list[dict]:
        """The moves of `seat`'s game from index `before` on, as the record writes them."""
        return [move_json(m, seat) for m in self.game_of(seat)[0].moves[before:]]

    def _settle(self) -> None:
        self._note_rounds()
        if self.games and all(g.over for g in self.games):
            self.state = OVER

    def due(self, seat: int) -> bool:
        """Does `seat` have something to do now?"""
        if self.state != PLAYING:
            return False
        g, i = self.game_of(seat)
        return i in g.waiting()

    def progress(self, seat: int) -> tuple:
        """What the others see of a seat's game: it changes when the seat's round or step does."""
        g, i = self.game_of(seat)
        return g.step, g.round, g.over, i in g.waiting()

    # ----- what a player is sent ----------------------------------------------------------
    def lobby(self) -> dict:
        return {"type": "lobby", "code": self.code, "state": self.state, "ruleset": self.rules.to_json(),
                "seats": [{"seat": i, "name": c.name, "kind": c.kind} for i, c in enumerate(self.chairs)],
                "capacity": self.capacity, "rematch": self.rematch}

    def view(self, seat: int) -> dict:
        """`view_text` read back (for whoever wants it as an object)."""
        return json.loads(self.view_text(seat))

    def view_text(self, seat: int) -> str:
        """The game as `seat` may see it, as sent: its own moves, options and the cards turned for it; the
        others' boards as they stood at the start of its round (all of them once its game is over); no card to
        come. Each move is turned into JSON once (Moves): a view is sent with every acknowledgement."""
        g, i = self.game_of(seat)
        upto = self.seen_before(seat)
        others = []
        for s in range(len(self.chairs)):
            og, _oi = self.game_of(s)
            others.append(with_json({"seat": s, "name": self.chairs[s].name, "kind": self.chairs[s].kind,
                                     "round": og.round, "over": og.over, "due": self.due(s),
                                     "score": self.score_seen(s, upto)},
                                    moves=self._kept(s).text_before(upto)))
        out = {"type": "view", "code": self.code, "seat": seat, "state": self.state, "ruleset": g.ruleset.to_json(),
               "round": g.round, "rounds": g.rounds, "over": g.over, "seen": g.seen(), "supply": g.supply(),
               "options": options_json(g.options(i))}
        if g.start_tiles:
            out["start_tiles"] = [self.game_of(s)[0].start_tiles[self.game_of(s)[1]] for s in range(len(self.chairs))]
        if self.state == OVER:
            out["scores"] = scores = self.scores()
            out["winners"] = [s for s, v in enumerate(scores) if v == max(scores)]
        return with_json(out, moves=self._kept(seat).text_before(ALL_ROUNDS), players="[" + ",".join(others) + "]")

    def scores(self) -> list[int]:
        """Every seat's score now."""
        return [self.game_of(s)[0].boards[self.game_of(s)[1]].score() for s in range(len(self.chairs))]

    def record(self) -> dict:
        """The game record (spec/game-record.md): every seat's moves merged round by round; it replays with
        `nmbr9 replay`. Holds the deck: sent only once the game is over."""
        out = game_record(self.games[0], {"seed": self.seed, "created": self.created, "online": {"code": self.code}})
        out["players"] = [{"name": c.name, "kind": c.kind} for c in self.chairs]
        if self.shared:
            return out
        if out.get("start_tiles"):
            out["start_tiles"] = [g.start_tiles[0] for g in self.games]
        moves = [m for s in range(len(self.chairs)) for m in self.moves_of(s)]
        out["moves"] = sorted(moves, key=lambda m: (m["round"], m.get("slot", 0)))   # stable: seat order kept
        return out


class Moves:
    """A seat's moves as the record writes them, each also as JSON text, made once: moves are never taken back."""

    def __init__(self):
        self.read = 0                     # the game's moves read so far
        self.moves: list[dict] = []
        self.texts: list[str] = []
        self.rounds: list[int] = []

    def add(self, moves: list[dict], read: int) -> None:
        self.read = read
        self.moves += moves
        self.texts += [encode(m) for m in moves]
        self.rounds += [m["round"] for m in moves]

    def text_before(self, round_: int) -> str:
        """The moves of the rounds before `round_` as a JSON list (they come round by round)."""
        return "[" + ",".join(self.texts[:bisect.bisect_left(self.rounds, round_)]) + "]"


def with_json(obj: dict, **texts: str) -> str:
    """`obj` as JSON with the fields `texts`, given as JSON text already."""
    head = encode(obj)
    return head[:-1] + "".join(f'{"," if obj or n else ""}"{k}":{v}' for n, (k, v) in enumerate(texts.items())) + "}"


def move_json(m, seat: int) -> dict:
    """A move of a seat's game as the table's record writes it: under the seat's number."""
    return {**m.to_json(), "player": seat}


def options_json(o) -> dict:
    """What a player may do now (rules.Options) as JSON."""
    return {"round": o.round, "slot": o.slot, "step": o.step, "digit": o.digit, "max_level": o.max_level,
            "can_build": o.can_build, "can_reject": o.can_reject, "decisions": list(o.decisions),
            "cards": list(o.cards), "choices": [[m, d] for m, d in o.choices.items()], "marker": o.marker,
            "fillers": list(o.fillers), "powers": list(o.powers), "powers_left": list(o.powers_left),
            "powers_now": list(o.powers_now), "markers_left": o.markers_left, "reserved": o.reserved,
            "reserve_ready": o.reserve_ready, "can_end": o.can_end,
            "warnings": [{"code": w.code, "message": w.message} for w in o.warnings],
            "supply": sorted(o.supply.items()) if o.supply is not None else None}


def think(game: Game, player: int, strength: str, seed: int) -> list[tuple[str, tuple]]:
    """A bot's whole turn in its game (Game method, arguments), deterministic given the seed. A function of the
    module: the server runs it in a process of its own, so the tables never wait for a bot."""
    from ..ai import View, make_bot
    if game.ruleset != Ruleset():
        from ..ai.plus import plan_turn
        return plan_turn(game, player, strength, seed)
    bot = make_bot(strength, seed)
    card = game.options(player).digit
    return [("play", (bot.choose(View(game.boards[player].copy(), card, tuple(game.seen()), game.ruleset,
                                      len(game.deck))),))]
