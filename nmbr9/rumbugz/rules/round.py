"""One round of RumBugz: the bag, the hands, the discard pile, the table and the turn's steps (spec/rumbugz.md).

`Position` judges a move from what is public plus the mover's hand, so a `Round` (everything) and a `View` (what
one player may see: their hand, the table, the pile, the sizes of the other hands and of the bag) judge alike;
bots and `legal_moves` work on a View and never see another hand or the bag's order.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...rules.board import N_, Verdict, refuse
from .bugs import HAND_BUGS, KIND_NAMES, PLYT, STEPS, bug_points, hand_bugs, laid_value, read_sequence

CODES = ("wrong_turn", "not_in_hand", "bad_sequence", "kind_taken", "cannot_change", "empty_discard", "bad_bid",
         "no_discard")
HAND_SIZE = 6          # bugs dealt to each player
REPLACEMENTS = 4       # bugs drawn after laying a required sequence
OK = Verdict(None)
# the steps of a turn: "draw" (the turn's draw, bids before it), "play" (lays and changes, then the discard),
# "replace" (the replacement draws), "bidder" (the winning bidder's bag draw), "over"
DRAW, PLAY, REPLACE, BIDDER, OVER = "draw", "play", "replace", "bidder", "over"


def wrong_turn(template: str, **params) -> Verdict:
    return refuse("wrong_turn", template, **params)


@dataclass(frozen=True)
class Laid:
    """A sequence on the table: who laid it, its bugs as written ("3", "P4", ...), its kind."""
    owner: int
    bugs: tuple[str, ...]
    kind: str

    def values(self) -> list[int]:
        return [laid_value(t)[1] for t in self.bugs]

    def to_json(self) -> dict:
        return {"owner": self.owner, "bugs": list(self.bugs), "kind": self.kind}


@dataclass
class Position:
    """Everything public about a round; `hand(p)` is given by the subclass (all hands, or the viewer's)."""
    players: int
    first: int
    turn: int = 0                # whose turn it is, or whose turn comes next while bids are made
    step: str = DRAW
    first_turn: bool = True      # the round's first turn draws from the bag
    table: list[Laid] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)          # the discard pile, its top last
    bag_size: int = 0
    kinds: list[set] = field(default_factory=list)         # the required kinds each player has laid
    hand_sizes: list[int] = field(default_factory=list)
    laid_required: bool = False  # a required sequence laid this turn (one a turn)
    owed: int = 0                # replacement draws owed after the discard, or the bidder's bag draw
    bids: list[int] = field(default_factory=list)
    bid_window: bool = False     # a turn just ended with a discard and the next player has not drawn
    after_bid: bool = False      # a bidder took the discard: this turn draws from the bag
    bidder: int | None = None
    winner: int | None = None
    taken: list[list[str]] = field(default_factory=list)   # bugs each player took from the pile (seen by all)
    bug_set: dict = field(default_factory=dict)             # {"copies", "plyt"}: the bugs in the game
    turns: int = 1               # the turns begun, this one counted

    def hand(self, player: int) -> Counter:
        raise NotImplementedError

    @property
    def over(self) -> bool:
        return self.step == OVER

    def final(self, player: int) -> bool:
        """In the final phase: all four required sequences laid."""
        return len(self.kinds[player]) == len(STEPS)

    def winning_bidder(self) -> int | None:
        """The first bidder after the next player in seat order."""
        return min(self.bids, key=lambda b: (b - self.turn) % self.players) if self.bids else None

    def can_draw_bag(self) -> bool:
        """A bag draw can be made: the bag has a bug, or the pile but its top can be shuffled in (rule 7)."""
        return self.bag_size > 0 or len(self.pile) >= 2

    def can_take_discard(self) -> bool:
        return bool(self.pile) and not self.after_bid and not self.first_turn

    # ----- judging a move -------------------------------------------------------------------------------------

    def check(self, move: dict) -> Verdict:
        """The verdict on one record move (spec's moves; fields already checked for type by the record)."""
        if "reshuffle" in move:
            return self.check_reshuffle(move["reshuffle"])
        if "end" in move:
            return self.check_end()
        player = move["player"]
        if self.over:
            return wrong_turn(N_("The round is over."))
        if "bid" in move:
            return self.check_bid(player)
        if "draw" in move:
            return self.check_draw(player, move["draw"])
        if player != self.turn or self.step != PLAY:
            return self._out_of_order(player)
        if "lay" in move:
            return self.check_lay(player, move["lay"])
        if "change" in move:
            return self.check_change(player, move["change"], move["to"])
        return self.check_discard(player, move["discard"])

    def _out_of_order(self, player: int) -> Verdict:
        """Why `player` may not lay, change or discard now."""
        if self.step == DRAW and player == self.turn:
            return wrong_turn(N_("Draw first: a bug from the bag or the top of the discard pile."))
        if self.step in (REPLACE, BIDDER) and player == (self.bidder if self.step == BIDDER else self.turn):
            return wrong_turn(N_("Draw your bugs from the bag first."))
        return wrong_turn(N_("It is not your turn: it is player {turn}'s."), turn=self.turn)

    def check_draw(self, player: int, source: str) -> Verdict:
        if self.step == DRAW and self.bids and player == self.winning_bidder() and player != self.turn:
            if source != "discard":   # the next player declined: the bidder takes the discard, then a bag bug
                return wrong_turn(N_("The bidder takes the discard first, then a bug from the bag."))
            return OK
        if self.step == BIDDER:
            if player != self.bidder:
                return wrong_turn(N_("Player {player} takes a bug from the bag for their bid first."),
                                  player=self.bidder)
        elif self.step == REPLACE:
            if player != self.turn:
                return wrong_turn(N_("Player {player} draws their replacement bugs first."), player=self.turn)
        elif self.step != DRAW or player != self.turn:
            return self._not_your_draw(player)
        if source == "discard":
            if self.step != DRAW:
                return wrong_turn(N_("These bugs come from the bag, not the discard pile."))
            if not self.pile:
                return refuse("empty_discard", N_("The discard pile is empty: draw from the bag."))
            if self.after_bid:
                return wrong_turn(N_("The discard went to the bidder: draw from the bag."))
            return OK
        if self.step == DRAW and self.bids:
            return wrong_turn(N_("A player bid for the discard: take it yourself, or the bidder takes it first."))
        if self.bag_size == 0:
            if len(self.pile) >= 2:
                return wrong_turn(N_("The bag is empty: the discard pile but its top is shuffled into it first."))
            return wrong_turn(N_("The bag is empty and there is nothing to shuffle into it."))
        return OK

    def _not_your_draw(self, player: int) -> Verdict:
        if player == self.turn and self.step == PLAY:
            return wrong_turn(N_("You have drawn this turn: lay, change or discard."))
        return wrong_turn(N_("It is not your turn: it is player {turn}'s."), turn=self.turn)

    def check_lay(self, player: int, tokens: list) -> Verdict:
        kind, _values, verdict = read_sequence(tokens)
        if not verdict:
            return verdict
        bugs = hand_bugs(tokens)
        missing = self._missing(player, bugs)
        if not missing:
            return missing
        if not self.final(player):
            if kind in self.kinds[player]:
                return refuse("kind_taken", N_("You already have your {kind} sequence: lay the kinds you lack "
                                               "first."), kind=KIND_NAMES[kind])
            if self.laid_required:
                return refuse("kind_taken", N_("One required sequence a turn: you laid one this turn."))
        goes_final = len(self.kinds[player] | {kind}) == len(STEPS)
        return self._keeps_a_discard(player, sum(bugs.values()), goes_final)

    def _missing(self, player: int, bugs: Counter) -> Verdict:
        have = self.hand(player)
        for bug, n in sorted(bugs.items()):
            if have[bug] < n:
                return refuse("not_in_hand", N_("You do not hold {bug}."), bug=_bug_name(bug))
        return OK

    def _keeps_a_discard(self, player: int, leaving: int, final: bool) -> Verdict:
        if not final and sum(self.hand(player).values()) - leaving < 1:
            return refuse("no_discard", N_("Keep a bug to discard: only a player with all four sequences may empty "
                                           "their hand."))
        return OK

    def check_change(self, player: int, index: int, tokens: list) -> Verdict:
        if not self.kinds[player]:
            return refuse("cannot_change", N_("You may change sequences once you have laid one."))
        if not 0 <= index < len(self.table):
            return refuse("cannot_change", N_("There is no sequence {index} on the table."), index=index)
        old = self.table[index]
        kind, values, verdict = read_sequence(tokens)
        if not verdict:
            return verdict
        if kind != old.kind:
            return refuse("cannot_change", N_("A changed sequence stays a {kind} sequence."),
                          kind=KIND_NAMES[old.kind])
        if tuple(tokens) == old.bugs:
            return refuse("cannot_change", N_("That changes nothing."))
        if not _one_sequence(old, values):
            return refuse("cannot_change", N_("A change adds or takes bugs at the ends: it may not move the "
                                              "sequence away or split it."))
        if not _numbers_stay(old, values, tokens):
            return refuse("cannot_change", N_("Only bugs at the ends can be taken off, or a PLYT given back for "
                                              "its number."))
        before, after = hand_bugs(old.bugs), hand_bugs(tokens)
        added, removed = after - before, before - after
        missing = self._missing(player, added)
        if not missing:
            return missing
        return self._keeps_a_discard(player, sum(added.values()) - sum(removed.values()), self.final(player))

    def check_discard(self, player: int, bug) -> Verdict:
        if bug not in HAND_BUGS or not self.hand(player)[bug]:
            return refuse("not_in_hand", N_("You do not hold {bug}."), bug=_bug_name(bug))
        return OK

    def check_bid(self, player: int) -> Verdict:
        if self.players < 3:
            return refuse("bad_bid", N_("Bidding needs 3 or more players."))
        if not self.bid_window or self.step != DRAW:
            return refuse("bad_bid", N_("Bid for a discard after the turn that made it and before the next "
                                        "player draws."))
        if player == self.turn:
            return refuse("bad_bid", N_("The next player may simply take the discard: no bid."))
        if player == (self.turn - 1) % self.players:
            return refuse("bad_bid", N_("You may not bid for your own discard."))
        if player in self.bids:
            return refuse("bad_bid", N_("You have bid for this discard already."))
        return OK

    def check_reshuffle(self, bugs) -> Verdict:
        if self.over or self.bag_size or len(self.pile) < 2 or (self.step == DRAW and self.bids) \
                or self.step == PLAY:
            return wrong_turn(N_("No reshuffle now: only when a bug must be drawn from an empty bag."))
        if Counter(bugs) != Counter(self.pile[:-1]):
            return wrong_turn(N_("The reshuffled bag must hold exactly the discard pile but its top."))
        return OK

    def check_end(self) -> Verdict:
        if self.over or self.step != DRAW or self.bids or self.can_draw_bag() or self.can_take_discard():
            return wrong_turn(N_("The round ends without a winner only when a turn can draw neither from the bag "
                                 "nor the discard pile."))
        return OK

    def scores(self) -> list[int]:
        """The points each player won in the round: the winner the sum of the other hands (PLYT 13)."""
        out = [0] * self.players
        if self.winner is not None:
            out[self.winner] = sum(bug_points(b) * n for p in range(self.players) if p != self.winner
                                   for b, n in self.hand(p).items())
        return out


def _bug_name(bug) -> str:
    return "PLYT" if bug == PLYT else str(bug)


def _one_sequence(old: Laid, values: list[int]) -> bool:
    """The old and the new sequence make one run together (spec ruling: no split, no jump away): they overlap or
    touch, at the same step. A sequence of PLYT only may be given any numbers."""
    if all(laid_value(t)[0] == PLYT for t in old.bugs):
        return True
    step, before = STEPS[old.kind], old.values()
    if step == 0:
        return values[0] == before[0]
    return (values[0] - before[0]) % step == 0 and values[0] <= before[-1] + step and before[0] <= values[-1] + step


def _numbers_stay(old: Laid, values: list[int], tokens: list) -> bool:
    """A number bug may leave a run only from a place the new run no longer covers (taken off an end); where the
    runs overlap a number stays, or a number takes a PLYT's place."""
    if STEPS[old.kind] == 0:
        return True   # a match's bugs have no places: add or take anywhere
    new = {v: laid_value(t)[0] for v, t in zip(values, tokens)}
    return all(new.get(v, bug) == bug for v, bug in ((laid_value(t)[1], laid_value(t)[0]) for t in old.bugs)
               if bug != PLYT)


@dataclass
class View(Position):
    """A round as one player may see it: their own hand; of the others only how many bugs they hold."""
    me: int = 0
    my_hand: Counter = field(default_factory=Counter)

    def hand(self, player: int) -> Counter:
        if player != self.me:
            raise ValueError(f"player {self.me}'s view does not show player {player}'s hand")
        return self.my_hand

    def to_json(self) -> dict:
        """What a screen or a bot is given (spec/rumbugz.md: never another hand, never the bag's order)."""
        return {"player": self.me, "hand": sorted(self.my_hand.elements(), key=bug_points),
                "table": [laid.to_json() for laid in self.table], "pile": list(self.pile), "bag": self.bag_size,
                "hands": list(self.hand_sizes), "turn": self.turn, "step": self.step,
                "kinds": [sorted(k) for k in self.kinds], "bids": list(self.bids), "winner": self.winner,
                "taken": [list(t) for t in self.taken], "set": dict(self.bug_set)}


class Round(Position):
    """The whole round: every hand and the bag. `apply(move)` judges a record move and, if legal, makes it."""

    def __init__(self, players: int, first: int, bag: list[str]):
        whole = Counter(bag)
        super().__init__(players, first, turn=first, kinds=[set() for _ in range(players)],
                         taken=[[] for _ in range(players)],
                         bug_set={"copies": whole["1"], "plyt": whole[PLYT]})
        self.start_bag, self.bag = list(bag), list(bag)   # the record's bag, and what is left of it
        self.hands = [Counter() for _ in range(players)]
        for i in range(players):   # six at a time from the front, to the first player, then clockwise
            self.hands[(first + i) % players].update(self.bag[:HAND_SIZE])
            del self.bag[:HAND_SIZE]
        self.moves: list[dict] = []
        self.ended = False      # rule 7: no winner
        self._sync()

    def hand(self, player: int) -> Counter:
        return self.hands[player]

    def _sync(self) -> None:
        self.bag_size = len(self.bag)
        self.hand_sizes = [sum(h.values()) for h in self.hands]

    def view(self, player: int) -> View:
        """What `player` may see; changing the view changes nothing here."""
        public = {f: getattr(self, f) for f in ("players", "first", "turn", "step", "first_turn", "bag_size",
                                                 "laid_required", "owed", "bid_window", "after_bid", "bidder",
                                                 "winner", "bug_set", "turns")}
        return View(**public, table=list(self.table), pile=list(self.pile), kinds=[set(k) for k in self.kinds],
                    hand_sizes=list(self.hand_sizes), bids=list(self.bids), taken=[list(t) for t in self.taken],
                    me=player, my_hand=Counter(self.hands[player]))

    def apply(self, move: dict) -> Verdict:
        verdict = self.check(move)
        if verdict:
            self._make(move)
            self.moves.append(move)
            self._sync()
        return verdict

    def _make(self, move: dict) -> None:
        if "reshuffle" in move:
            self.bag, self.pile = list(move["reshuffle"]), self.pile[-1:]
            return
        if "end" in move:
            self.step, self.ended = OVER, True
            return
        player = move["player"]
        if "bid" in move:
            self.bids.append(player)
        elif "draw" in move:
            self._draw(player, move["draw"])
        elif "lay" in move:
            tokens = tuple(move["lay"])
            kind = read_sequence(tokens)[0]
            self.hands[player] -= hand_bugs(tokens)
            self.table.append(Laid(player, tokens, kind))
            if not self.final(player):
                self.kinds[player].add(kind)
                self.laid_required = True
                self.owed = 0 if self.final(player) else REPLACEMENTS   # the fourth draws no replacements
        elif "change" in move:
            old, tokens = self.table[move["change"]], tuple(move["to"])
            before, after = hand_bugs(old.bugs), hand_bugs(tokens)
            self.hands[player] += before - after
            self.hands[player] -= after - before
            self.table[move["change"]] = Laid(old.owner, tokens, old.kind)
        else:
            self.hands[player] -= Counter([move["discard"]])
            self.pile.append(move["discard"])
            self.step = REPLACE   # the replacement draws owed, if any, then the next turn
        self._went_out(player)
        self._advance()

    def _draw(self, player: int, source: str) -> None:
        self.bid_window = False
        if source == "discard":
            bug = self.pile.pop()
            self.hands[player][bug] += 1
            self.taken[player].append(bug)
            if player != self.turn:   # the winning bidder: the discard and a bag bug
                self.step, self.bidder, self.owed, self.after_bid = BIDDER, player, 1, True
            else:
                self.step = PLAY
            self.bids = []
            return
        self.hands[player][self.bag.pop(0)] += 1
        if self.step == DRAW:
            self.step = PLAY
        else:
            self.owed -= 1

    def _went_out(self, player: int) -> None:
        if self.step != OVER and self.final(player) and not self.hands[player]:
            self.winner, self.step = player, OVER

    def _advance(self) -> None:
        """Steps that need no move: replacement draws the bag can't give are skipped (rule 7), a finished turn
        passes to the next player."""
        self._sync()
        if self.step in (REPLACE, BIDDER) and (self.owed == 0 or not self.can_draw_bag()):
            if self.step == BIDDER:
                self.step, self.bidder, self.owed = DRAW, None, 0
                return
            self.turn = (self.turn + 1) % self.players
            self.turns += 1
            self.step, self.first_turn, self.after_bid, self.laid_required, self.owed = DRAW, False, False, False, 0
            self.bid_window = self.players >= 3


def who_starts(players: int, bugs: list[str], rng) -> int:
    """Rule 1: each player draws a bug, the highest starts; a PLYT or a tie draws again among the tied."""
    drawing = list(range(players))
    while True:
        drawn = {p: b for p, b in zip(drawing, rng.sample(bugs, len(drawing)))}
        top = max((int(b) for b in drawn.values() if b != PLYT), default=None)
        tied = [p for p, b in drawn.items() if b != PLYT and int(b) == top]
        if len(tied) == 1:
            return tied[0]
        drawing = tied or drawing

