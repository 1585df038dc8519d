"""Bots under NMBR 9 ++ rules: a whole turn planned through the rules' own API.

The classic bots answer one Placement for a classic View. Under the modules and
variants a turn is several actions (decide, choose a marker, powers, the turn's
tile, gap fillers, the reserved tile, Relocate, end), and only the rules know
which placements are legal (start tiles, level caps, bridges), so here every
candidate comes from `game.legal_placements` and every action is tried on a
copy of the game before it is planned: the plan is legal by construction.

Placements are compared by the classic evaluation (points + the learnt value
of the table for the cards still to come), computed for any list of
placements, flipped tiles and gap fillers included (they score 0 but raise
the table). The turn's tile without a power is the strength's own choice
(with its lookahead) whenever the rules accept it.

    actions = plan_turn(game, seat, "hard", seed)    # [(action name, args), ...]
    apply_plan(game, seat, actions)                  # the same calls on the real game
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np

from ..rules import Board, Placement, tile_points
from ..rules.game import (BRIDGE, CHOOSE, DECIDE, EXTRAS, FLIP, LEVEL_TO_LEVEL, LONER, PLACE_TILE, RELOCATE, RESERVE,
                          SINGLE_SUPPORT)
from . import STRONGEST, View, make_bot
from .evaluate import NBASE, SHORTLIST, features, footing_features
from .grid import Grid
from .weights import WEIGHTS

PLACING = (FLIP, SINGLE_SUPPORT, BRIDGE, LONER)
# A power or gap filler is used once a game: early it must add this much to the estimated final
# score (a better chance may come), at the end any gain will do (an unused one is worth nothing).
# The tuned evaluation (calibrated in points) values what a power opens more soberly than the
# regression did (a 9 lifted by Loner onto level 1 early: +0.8), so the bar for powers is lower.
POWER_GAIN = 1.0
FILLER_GAIN = 2.0
RELOCATE_GAIN = 4.0
LAST_GAIN = 0.5
L2L_MARGIN = 1.0   # "Level to Level": how much worse (by this evaluation) the classic bot's choice may be
FILLER_TRIES = 6      # filler squares tried before the turn's tile (the best by themselves)
PAD = 6               # squares around the table where a new piece may reach


def remaining(game) -> dict[int, float]:
    """The composition of the cards still to come (never their order). In "Level to Level" a
    player takes one of the tiles shown under the active markers, a tile a round, the last round
    (too few cards for every marker) too: only that share is theirs."""
    per = max(len(game.deck) // 10, 1)
    left = Counter({d: per for d in range(10)})
    left.subtract(Counter(game.seen()))
    cards = sum(n for n in left.values() if n > 0)
    share = 1.0
    if game.variant == LEVEL_TO_LEVEL and not game.over and cards:
        share = -(-cards // max(game.active, 1)) / cards   # rounds left (the markers active now) per card left
    return {d: n * share for d, n in left.items() if n > 0}


def board_values(board: Board, placements, left: dict[int, int], w=None) -> np.ndarray:
    """Estimated final score of `board` after each of `placements` (None: as it is)."""
    w = np.asarray(WEIGHTS if w is None else w, np.float64)
    g = Grid.from_board(board)
    H = np.pad(g.H, PAD)
    T = np.pad(g.T, PAD, constant_values=-1)
    oy, ox = g.oy - PAD, g.ox - PAD
    K = len(placements)
    cells = [None if p is None else np.array(p.squares()) - (ox, oy) for p in placements]
    built = np.nonzero(H)
    rows = [built[0]] + [c[:, 1] for c in cells if c is not None]
    cols = [built[1]] + [c[:, 0] for c in cells if c is not None]
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    if len(rows):
        r0, r1 = max(rows.min() - 5, 0), rows.max() + 6
        c0, c1 = max(cols.min() - 5, 0), cols.max() + 6
    else:
        r0, r1, c0, c1 = 0, H.shape[0], 0, H.shape[1]
    Hs = np.broadcast_to(H[r0:r1, c0:c1], (K,) + H[r0:r1, c0:c1].shape).copy()
    Ts = np.broadcast_to(T[r0:r1, c0:c1], Hs.shape).copy()
    points = np.full(K, float(board.score()))
    for k, (p, c) in enumerate(zip(placements, cells)):
        if p is None:
            continue
        Hs[k, c[:, 1] - r0, c[:, 0] - c0] = p.level + 1
        Ts[k, c[:, 1] - r0, c[:, 0] - c0] = g.count
        points[k] += tile_points(p)
    base = points + features(Hs, left) @ w[:NBASE]
    if not np.any(w[NBASE:]) or not left:
        return base
    # the footing per number is the costly part: only for the best few
    top = np.argsort(-base, kind="stable")[:SHORTLIST]
    out = np.full(K, -np.inf)
    out[top] = base[top] + footing_features(Hs[top], Ts[top], left) @ w[NBASE:]
    return out


def _best(board, placements, left):
    """(value, placement) of the best of `placements` on `board`; (-inf, None) if none."""
    if not placements:
        return -np.inf, None
    v = board_values(board, placements, left)
    k = int(np.argmax(v))
    return float(v[k]), placements[k]


def _without(board: Board, index: int) -> Board:
    """The table without tile `index`, for valuing where it could move (not for the rules:
    the tiles after it lose their index)."""
    b = board.lifted(index)
    b.tiles = b.tiles[:index] + b.tiles[index + 1:]
    return b


class _Planner:
    """Works on its own copy of the game; every action is checked there before it is kept."""

    def __init__(self, game, seat: int, strength: str, seed: int, bot=None):
        self.g = copy.deepcopy(game)
        self.seat, self.strength, self.seed = seat, strength, seed
        self.bot = bot if bot is not None else make_bot(strength, seed)
        self.actions: list[tuple[str, tuple]] = []
        self.left = remaining(self.g)
        self.last_step = not self.left   # no card to come: nothing left to prepare
        self.to_come = sum(self.left.values()) / len(self.g.deck)

    @property
    def board(self) -> Board:
        return self.g.boards[self.seat]

    def bar(self, gain: float) -> float:
        """The gain a once-a-game resource must bring now."""
        return LAST_GAIN + (gain - LAST_GAIN) * self.to_come

    def act(self, name: str, *args) -> None:
        v = getattr(self.g, name)(self.seat, *args)
        if not v:
            raise RuntimeError(f"bot planned a refused {name}{args}: {v.message}")
        self.actions.append((name, args))

    def now(self) -> float:
        return float(board_values(self.board, [None], self.left)[0])

    # ----- the turn -------------------------------------------------------------------
    def plan(self) -> list[tuple[str, tuple]]:
        o = self.g.options(self.seat)
        if o.step == DECIDE:
            build = o.can_build
            if o.can_build and o.can_reject:
                build = self.worth_building(o)
            self.act("decide", build)
        o = self.g.options(self.seat)
        if o.step == CHOOSE:
            # the shown tile whose best legal placement (under its marker's cap) is worth most
            worth = {m: _best(self.board, self.g.legal_placements(self.seat, marker=m), self.left)[0]
                     for m in sorted(o.choices)}
            self.act("choose", max(worth, key=lambda m: (worth[m], m)))
        if self.g.options(self.seat).step == PLACE_TILE:
            self.place_tile()
        while self.g.options(self.seat).step == EXTRAS:
            if not self.extra():
                self.act("end_turn")
        return self.actions

    def worth_building(self, o) -> bool:
        """"2 of 3", a free choice: one of the round's three cards is rejected; reject this one
        when it is likely the worst of the cards still open this round (its gain on the table
        against the gain of each number still to come, weighted by how many are left)."""
        now = self.now()
        gain = _best(self.board, self.g.legal_placements(self.seat), self.left)[0] - now
        if not self.left:
            return True
        worse = 0.0
        for d, n in self.left.items():
            other = _best(self.board, self.board.legal_placements(d), self.left)[0] - now
            worse += n * (1.0 if other < gain else 0.5 if other == gain else 0.0)
        p = worse / sum(self.left.values())     # chance a later card gains less than this one
        others = 2 if o.slot == 0 else 1         # open cards after this one, all to be compared
        return (1 - p) ** others < 0.5

    def classic_choice(self, digit: int) -> Placement | None:
        """The strength's own choice (its lookahead included), if the rules accept it."""
        g = self.g
        view = View(self.board.copy(), digit, tuple(g.seen()), g.ruleset, len(g.deck))
        try:
            p = self.bot.choose(view)
        except Exception:   # a classic bot that can't answer here: the evaluated best is played instead
            return None
        return p if isinstance(p, Placement) and g.check(self.seat, p) else None

    def plain_choice(self, digit: int, spots: list[Placement]) -> tuple[float, Placement | None, Placement | None]:
        """(value, placement) of the best of `spots` (the tile's legal placements without a
        power), and the strength's choice: its classic choice where the rules accept it."""
        plain_value, plain_best = _best(self.board, spots, self.left)
        chosen = self.classic_choice(digit) or plain_best
        if self.g.variant == LEVEL_TO_LEVEL and self.strength != "easy" and chosen != plain_best:
            # the classic bots count all 40 cards as theirs and so build too wide: keep their choice
            # only when it is about as good for the cards this player will really get
            if float(board_values(self.board, [chosen], self.left)[0]) < plain_value - L2L_MARGIN:
                chosen = plain_best
        return plain_value, plain_best, chosen

    def hint(self, powers: tuple[str, ...], reserved: bool, filler: str | None = None,
             moving: tuple[int, int, int] | None = None) -> Placement | None:
        """Where this strength would lay the piece in hand: the turn's tile under the powers the
        player armed, the reserved tile, a gap filler, or the tile being relocated (at `moving`)."""
        if filler is not None:
            return _best(self.board, self.g.legal_placements(self.seat, piece=filler), self.left)[1]
        if moving is not None:
            targets = self.g.relocation_targets(self.seat, moving)
            return _best(_without(self.board, self.board.tile_at(*moving)), targets, self.left)[1]
        spots = self.g.legal_placements(self.seat, powers=powers, reserved=reserved)
        if powers:   # a spot the armed powers open (a marker spent on a spot that needs none is wasted)
            plain = set(self.g.legal_placements(self.seat, powers=tuple(q for q in powers if q == FLIP),
                                                reserved=reserved))
            spots = [p for p in spots if p not in plain] or spots
        if powers or reserved:
            return _best(self.board, spots, self.left)[1]
        return self.plain_choice(self.g.options(self.seat).digit, spots)[2]

    def place_tile(self) -> None:
        g, o = self.g, self.g.options(self.seat)
        plain = g.legal_placements(self.seat)
        plain_value, plain_best, chosen = self.plain_choice(o.digit, plain)
        # each placing power on its own, where it opens placements the plain rules don't
        best_power = (plain_value + self.bar(POWER_GAIN), None, None)
        seen = set(plain)
        for power in (p for p in o.powers_now if p in PLACING):
            extra = [p for p in g.legal_placements(self.seat, powers=(power,)) if p not in seen]
            v, p = _best(self.board, extra, self.left)
            if v > best_power[0]:
                best_power = (v, p, power)
        # a gap filler first, where it lets the tile rest higher or better
        best_filler = (plain_value + self.bar(FILLER_GAIN), None, None)
        if not self.last_step:
            for piece in o.fillers:
                spots = g.legal_placements(self.seat, piece=piece)
                if not spots:
                    continue
                order = np.argsort(-board_values(self.board, spots, self.left), kind="stable")[:FILLER_TRIES]
                for k in order:
                    trial = copy.deepcopy(g)
                    if not trial.play(self.seat, spots[k]):
                        continue
                    v, p = _best(trial.boards[self.seat], trial.legal_placements(self.seat), self.left)
                    if v > best_filler[0]:
                        best_filler = (v, spots[k], p)
        if RESERVE in o.powers_now and self.should_reserve(o.digit, plain_best):
            self.act("reserve")
        elif best_power[1] is not None and best_power[0] - self.bar(POWER_GAIN) >= best_filler[0] - self.bar(FILLER_GAIN):
            self.act("play", best_power[1], (best_power[2],))
        elif best_filler[1] is not None:
            self.act("play", best_filler[1])
            self.act("play", best_filler[2])
        else:
            self.act("play", chosen)

    def should_reserve(self, digit: int, best: Placement) -> bool:
        """Keep a big tile that can only lie low now while the table is already higher:
        it may rest on the higher level in a later turn (it must be built by then)."""
        top = self.board.top_level()
        return (not self.last_step and digit >= 6 and top >= 1 and best is not None
                and best.level < top and sum(self.left.values()) >= 2)

    def extra(self) -> bool:
        """One optional action worth doing (True), or nothing to gain (False)."""
        g, o = self.g, self.g.options(self.seat)
        now = self.now()
        if o.reserve_ready:
            r = g.players[self.seat].reserve
            v, p = _best(self.board, g.legal_placements(self.seat, reserved=True), self.left)
            last = self.last_step or any(w.code == "reserve_last_turn" for w in o.warnings)
            if p is not None and (last or p.level >= max(r.below, 1)):
                self.act("play", p, (), True)
                return True
        r = g.players[self.seat].reserve
        # a filler above the reserve's level would make this the reserve's last turn: not while it can't be built
        cap = r.below if o.reserved is not None and not o.reserve_ready else None
        if not self.last_step:
            for piece in o.fillers:
                spots = [p for p in g.legal_placements(self.seat, piece=piece) if cap is None or p.level <= cap]
                v, p = _best(self.board, spots, self.left)
                if p is not None and v - now >= self.bar(FILLER_GAIN):
                    self.act("play", p)
                    return True
        if RELOCATE in o.powers_now:
            best = (now + self.bar(RELOCATE_GAIN), None, None)
            for at in g.movable_tiles(self.seat) if len(self.board.tiles) > 1 else ():
                targets = g.relocation_targets(self.seat, at)
                if not targets:
                    continue
                v, p = _best(_without(self.board, self.board.tile_at(*at)), targets, self.left)
                if v > best[0]:
                    best = (v, at, p)
            if best[1] is not None:
                self.act("relocate", best[1], best[2])
                return True
        return False


def plan_turn(game, seat: int, strength: str, seed: int, bot=None) -> list[tuple[str, tuple]]:
    """The bot's whole turn in this step, as (Game method, arguments) pairs, each checked legal
    on a copy of `game` in order; deterministic given the game and the seed. `bot` (default
    make_bot(strength, seed)) chooses the turn's tile where no power or filler does better."""
    return _Planner(game, seat, strength, seed, bot).plan()


def advice(game, seat: int, seed: int) -> tuple[str, tuple]:
    """The strongest bot's first step of a player's turn ("2 of 3": build or reject; "Level to Level":
    which shown tile): a hint in words. A function of this module, so it can be sent to a thinking
    process (ai/worker.py)."""
    return plan_turn(game, seat, STRONGEST, seed)[0]


def hint_placement(game, seat: int, seed: int, powers: tuple[str, ...] = (), reserved: bool = False,
                   filler: str | None = None, moving: tuple[int, int, int] | None = None) -> Placement | None:
    """The strongest bot's placement for a player's hint: legal under the powers they armed (or for
    their reserved tile, the gap filler `filler` in hand, or the tile at `moving` being
    relocated); its own classic choice when it is legal and nothing is armed."""
    return _Planner(game, seat, STRONGEST, seed).hint(tuple(powers), reserved, filler, moving)


def apply_plan(game, seat: int, actions) -> None:
    """Do the planned actions on the real game; a refusal here is a bug, reported as such."""
    for name, args in actions:
        v = getattr(game, name)(seat, *args)
        if not v:
            raise RuntimeError(f"bot action {name}{args} refused: {v.message}")
