"""RumBugz bots: easy, medium and hard behind one interface, given only their player's view.

`make_bot(level, seed).act(view)` returns the next move as a record move, or None to pass (not to bid, or, the
discard bid for, to leave it to the bidder). Every choice is made from the view and the bot's own seeded random
generator, so a seed replays a game exactly.

- easy lays what it sees and discards at random, planning a discard one time in five;
- medium keeps the bugs closest to the four kinds it lacks (the plan below) and takes a discard that brings
  it closer;
- hard plans with what it has seen (numbers all out of play are worth less, the rest weighted by how many may
  still come), takes PLYT and bugs off the table's sequences, bids, plans its last kind so what is left can go
  onto the table, and does not discard what the next player visibly collects or could lay off.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from .rules import legal_moves
from .rules.bugs import NUMBERS, PLYT, STEPS, kind_of, laid_value
from .rules.round import DRAW, PLAY, View

STRENGTHS = ("easy", "medium", "hard")
TEMPLATES = {kind: tuple(tuple(start + step * i for i in range(4)) for start in NUMBERS
                         if start + step * 3 <= 12) for kind, step in STEPS.items()}
BEST_TEMPLATES = 5      # the plan tries this many of each kind's closest runs (4^5 plans at most)


@lru_cache(maxsize=200_000)
def plan_cost(counts: tuple, plyt: int, needed: tuple, weights: tuple, stuck: tuple, extra: float) -> float:
    """How far a hand is from laying one run of each needed kind: the weight of the numbers its best choice of
    runs (no bug used twice) still lacks, the most costly covered by its PLYT; plus `extra` for each bug left
    over that could go nowhere on the table (`stuck[n]`), which must then be discarded one a turn.

    counts[n] is how many n the hand holds (index 0 unused); weights[n] what a missing n costs."""
    if not needed:
        return extra * sum(c for n, c in enumerate(counts) if stuck[n])
    options = []
    for kind in needed:
        ranked = sorted(TEMPLATES[kind], key=lambda run: _missing(counts, run, weights))
        options.append(ranked[:BEST_TEMPLATES])
    best = float("inf")

    def walk(i: int, have: list, lacking: list) -> None:
        nonlocal best
        if best == 0:
            return   # nothing is better than nothing lacking
        if i == len(options):
            cost = sum(sorted(lacking)[:max(len(lacking) - plyt, 0)]) if plyt else sum(lacking)
            if extra:
                cost += extra * sum(c for n, c in enumerate(have) if stuck[n])
            best = min(best, cost)
            return
        for run in options[i]:
            taken, lack = [], []
            for n in run:
                if have[n]:
                    have[n] -= 1
                    taken.append(n)
                else:
                    lack.append(weights[n])
            walk(i + 1, have, lacking + lack)
            for n in taken:
                have[n] += 1

    walk(0, list(counts), [])
    return best


def _missing(counts: tuple, run: tuple, weights: tuple) -> float:
    """The weight of the numbers of `run` the hand lacks."""
    used, cost = Counter(), 0.0
    for n in run:
        used[n] += 1
        if used[n] > counts[n]:
            cost += weights[n]
    return cost


class Bot:
    """One interface for every strength; the strengths differ only in the switches set in `make_bot`."""

    def __init__(self, level: str, seed: int):
        if level not in STRENGTHS:
            raise ValueError(f"unknown RumBugz bot {level!r} (choose from {', '.join(STRENGTHS)})")
        self.level = level
        self.rng = random.Random(seed)
        hard = level == "hard"
        self.plans = level != "easy"       # keeps the bugs of its best plan (easy: now and then)
        self.counts_seen = hard            # weighs numbers by how many may still come
        self.takes = level != "easy"       # gives a number for a PLYT on the table
        self.takes_ends = hard             # takes bugs its plan wants off the table's ends
        self.bids = hard
        self.blocks = hard
        self.extra = 0.35 if hard else 0.0   # what a bug that could go nowhere costs, planning the last kind
        self.lookahead = 0.5 if hard else 0.0   # how much a discard is judged by the bag draw expected next
        self.random_discards = 0.8 if level == "easy" else 0.0

    # ----- what the bot knows ----------------------------------------------------------------------------------

    def _setup(self, view: View) -> None:
        """The weights and the table's open ends, from the view only."""
        seen = Counter()
        for laid in view.table:
            seen.update(laid_value(t)[0] for t in laid.bugs)
        seen.update(view.pile)
        seen.update(view.hand(view.me))
        if self.counts_seen:   # what the others took from the pile is likely still in their hands
            for player, taken in enumerate(view.taken):
                if player != view.me:
                    seen.update(taken)
        self.unseen = {str(n): max(view.bug_set["copies"] - seen[str(n)], 0) for n in NUMBERS}
        self.weights = (0.0,) + tuple(self.weigh(u) if self.counts_seen else 1.0 for u in self.unseen.values())
        self.ends = self._ends(view)
        self.stuck = tuple(n not in self.ends for n in range(13))

    @staticmethod
    def weigh(unseen: int) -> float:
        """What a missing number costs: more the fewer copies may still come; one all seen only a PLYT gives."""
        return 1 + 0.6 / unseen if unseen else 3.0

    @staticmethod
    def _ends(view: View) -> set[int]:
        """Numbers that can be added to some sequence on the table now."""
        out = set()
        for laid in view.table:
            values, step = laid.values(), STEPS[laid.kind]
            out.update(v for v in (values[0] - step, values[-1] + step) if 1 <= v <= 12)
        return out

    def cost(self, hand: Counter, needed) -> float:
        counts = tuple(hand.get(str(n), 0) if n else 0 for n in range(13))
        return plan_cost(counts, hand.get(PLYT, 0), tuple(sorted(needed)), self.weights, self.stuck,
                         self.extra if len(needed) <= 1 else 0.0)

    # ----- the decisions -----------------------------------------------------------------------------------------

    def act(self, view: View) -> dict | None:
        me = view.me
        self._setup(view)
        if view.step == PLAY:
            return self._play(view)
        if view.step != DRAW:
            return {"player": me, "draw": "bag"}
        if me != view.turn:
            if view.bids and me == view.winning_bidder():
                return {"player": me, "draw": "discard"}
            bid = {"player": me, "bid": True}
            return bid if self.bids and view.check(bid) and self._wants_discard(view, bidding=True) else None
        take = {"player": me, "draw": "discard"}
        if view.check(take) and (not view.can_draw_bag() or self._wants_discard(view)):
            return take
        return None if view.bids else {"player": me, "draw": "bag"}

    def needed(self, view: View) -> set[str]:
        return set(STEPS) - view.kinds[view.me]

    def _wants_discard(self, view: View, bidding: bool = False) -> bool:
        hand, top = view.hand(view.me), view.pile[-1]
        if view.final(view.me):
            return not bidding and (top == PLYT or int(top) in self.ends)
        needed = self.needed(view)
        if not self.plans:   # easy: only a discard that completes a kind at once
            return self._completes(hand, top, needed)
        now = self.cost(hand, needed)
        gain = now - self.cost(hand + Counter([top]), needed)
        if self.counts_seen:   # against what a bag draw is expected to bring
            return gain > max(self._bag_gain(view, hand, needed, now), 0.5 if bidding else 0.3)
        return gain >= 1

    def _completes(self, hand: Counter, top: str, needed) -> bool:
        return any(self._closest(hand + Counter([top]), kind) == 0 < self._closest(hand, kind) for kind in needed)

    def _closest(self, hand: Counter, kind: str) -> int:
        counts = tuple(hand.get(str(n), 0) if n else 0 for n in range(13))
        return max(min(_missing(counts, run, (1,) * 13) for run in TEMPLATES[kind]) - hand.get(PLYT, 0), 0)

    def _bag_gain(self, view: View, hand: Counter, needed, now: float) -> float:
        """The expected gain of a bag draw: each number as likely as its unseen copies."""
        total = sum(self.unseen.values()) or 1
        return sum(w / total * (now - self.cost(hand + Counter([b]), needed)) for b, w in self.unseen.items() if w)

    def _play(self, view: View) -> dict:
        me = view.me
        moves = legal_moves(view)
        laying = [m for m in moves if "lay" in m]
        changes = [m for m in moves if "change" in m]
        discards = [m for m in moves if "discard" in m]
        if view.final(me):
            return self._final(view, laying, changes, discards)
        needed = self.needed(view)
        if self.takes:
            take = self._take(view, changes, needed)
            if take:
                return take
        if laying:
            if not self.plans:
                shortest = min(len(m["lay"]) for m in laying)
                return self.rng.choice([m for m in laying if len(m["lay"]) == shortest])
            return min(laying, key=lambda m: self._after_lay(view, m, needed))
        return self._discard(view, discards, needed)

    def _after_lay(self, view: View, move: dict, needed) -> tuple:
        """How good the hand is after this lay: the plan for the kinds still lacking; laying the last kind,
        as many bugs as possible."""
        kind = _kind(move["lay"])
        rest = view.hand(view.me) - Counter(laid_value(t)[0] for t in move["lay"])
        left = needed - {kind}
        if not left:
            stuck = sum(c for b, c in rest.items() if b != PLYT and int(b) not in self.ends)
            return (sum(rest.values()) + (stuck if self.extra else 0), 0)
        return (self.cost(rest, left), len(move["lay"]))

    def _take(self, view: View, changes: list, needed) -> dict | None:
        """A change that takes a PLYT or a bug the plan wants off the table (hard)."""
        hand, now = view.hand(view.me), self.cost(view.hand(view.me), needed)
        best, best_cost = None, now - 0.2
        for move in changes:
            old = view.table[move["change"]]
            gained = Counter(laid_value(t)[0] for t in old.bugs) - Counter(laid_value(t)[0] for t in move["to"])
            if not gained or (PLYT not in gained and not self.takes_ends):
                continue
            lost = Counter(laid_value(t)[0] for t in move["to"]) - Counter(laid_value(t)[0] for t in old.bugs)
            after = self.cost(hand + gained - lost, needed) - (0.25 if PLYT in gained else 0)
            if after < best_cost:
                best, best_cost = move, after
        return best

    def _discard(self, view: View, discards: list, needed) -> dict:
        hand = view.hand(view.me)
        if self.rng.random() < self.random_discards:
            plain = [m for m in discards if m["discard"] != PLYT] or discards
            return self.rng.choice(plain)
        block = self._collected(view) if self.blocks else set()

        left = {m["discard"]: self.cost(hand - Counter([m["discard"]]), needed) for m in discards}
        best = min(left.values())

        def worth(move):
            bug = move["discard"]
            now = left[bug]
            if self.lookahead and now <= best + 1:   # the close ones: what the next bag draw may make of them
                now -= self.lookahead * self._bag_gain(view, hand - Counter([bug]), needed, now)
            return (now + (0.4 if bug in block else 0), -(13 if bug == PLYT else int(bug)))
        return min(discards, key=worth)

    def _collected(self, view: View) -> set[str]:
        """What the next player visibly wants: what they took from the pile, or could add to the table."""
        after = (view.turn + 1) % view.players
        wanted = set(view.taken[after])
        if view.final(after):
            wanted |= {str(n) for n in self.ends} | {PLYT}
        return wanted

    def _final(self, view: View, laying: list, changes: list, discards: list) -> dict:
        """All four kinds laid: lay off as many bugs as possible, then discard what could go nowhere."""
        if laying:
            return max(laying, key=lambda m: (len(m["lay"]), -_plyts(m["lay"])))
        dumps = [m for m in changes
                 if len(m["to"]) > len(view.table[m["change"]].bugs)]
        if dumps:   # numbers first: a PLYT fits almost anywhere, later too
            return min(dumps, key=lambda m: (_plyts(m["to"]) > _plyts(view.table[m["change"]].bugs),
                                             self.rng.random()))
        if self.rng.random() < self.random_discards:
            return self.rng.choice(discards)
        block = self._collected(view) if self.blocks else set()

        def keep(move):   # a PLYT fits later; the highest number counts most if another player goes out
            bug = move["discard"]
            return (bug == PLYT, bug in block, -(13 if bug == PLYT else int(bug)))
        return min(discards, key=keep)


def _kind(tokens: list[str]) -> str:
    return kind_of([laid_value(t)[1] for t in tokens])


def _plyts(tokens) -> int:
    return sum(t.startswith(PLYT) for t in tokens)


def make_bot(level: str, seed: int) -> Bot:
    return Bot(level, seed)
