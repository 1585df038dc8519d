"""Game flow: the deck, the rounds, every player's board, and who has placed."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .board import Board, Placement, Verdict, N_, refuse

DIGITS = tuple(range(10))
MAX_PLAYERS = 6


@dataclass(frozen=True)
class Seat:
    """A player at the table: a name and 'human' or 'bot:<strength>'."""
    name: str
    kind: str = "human"

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot")

    @property
    def strength(self) -> str | None:
        return self.kind.split(":", 1)[1] if self.kind.startswith("bot:") else None


@dataclass(frozen=True)
class Ruleset:
    variant: str = "classic"
    modules: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"variant": self.variant, "modules": list(self.modules)}


@dataclass(frozen=True)
class Move:
    """One confirmed placement in a game, as the record stores it."""
    round: int
    player: int
    placement: Placement

    def to_json(self) -> dict:
        p = self.placement
        return {"round": self.round, "player": self.player, "digit": p.piece,
                "rotation": p.rotation, "x": p.x, "y": p.y, "level": p.level}


def new_deck(rng: random.Random) -> list[int]:
    """The 20 cards, two of each number, shuffled by the generator passed in."""
    deck = [d for d in DIGITS for _ in range(2)]
    rng.shuffle(deck)
    return deck


@dataclass
class Game:
    """A classic game for 1-6 players, all placing the round's tile on their own board."""
    seats: list[Seat]
    deck: list[int]
    ruleset: Ruleset = field(default_factory=Ruleset)
    boards: list[Board] = field(init=False)
    moves: list[Move] = field(default_factory=list, init=False)
    round: int = field(default=1, init=False)
    placed: set[int] = field(default_factory=set, init=False)  # seats done this round

    def __post_init__(self):
        if not 1 <= len(self.seats) <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players")
        self.boards = [Board() for _ in self.seats]

    @property
    def rounds(self) -> int:
        return len(self.deck)

    @property
    def over(self) -> bool:
        return self.round > self.rounds

    @property
    def card(self) -> int | None:
        """The number turned this round, or None after the last round."""
        return None if self.over else self.deck[self.round - 1]

    def waiting(self) -> list[int]:
        """Seats that still have to place this round, in seat order."""
        return [] if self.over else [i for i in range(len(self.seats)) if i not in self.placed]

    def supply(self) -> list[int]:
        """Cards still to come after this round's card (what every player can see)."""
        return sorted(self.deck[self.round:]) if not self.over else []

    def seen(self) -> list[int]:
        """Cards turned so far, this round's included."""
        return list(self.deck[:min(self.round, self.rounds)])

    def check(self, player: int, p: Placement) -> Verdict:
        """The verdict for `player` laying `p` now, turn and card included."""
        if self.over or not 0 <= player < len(self.seats) or player in self.placed:
            return refuse("wrong_turn", N_("It is not this player's turn to place a tile."))
        if p.piece != self.card:
            return refuse("wrong_digit", N_("This round's card is {card}, not {digit}."),
                          card=self.card, digit=p.piece)
        return self.boards[player].verdict(p)

    def play(self, player: int, p: Placement) -> Verdict:
        """Commit `p` for `player` if legal; advance the round when all have placed."""
        v = self.check(player, p)
        if v:
            placed = self.boards[player].place(p.at(v.level))
            self.moves.append(Move(self.round, player, placed))
            self.placed.add(player)
            if len(self.placed) == len(self.seats):
                self.round += 1
                self.placed = set()
        return v

    def take_back(self) -> Move:
        """Undo the last confirmed move (solo practice only; the table has no undo)."""
        m = self.moves.pop()
        self.boards[m.player].undo()
        if m.round != self.round:
            self.round = m.round
            self.placed = {x.player for x in self.moves if x.round == m.round}
        else:
            self.placed.discard(m.player)
        return m

    def scores(self) -> list[int]:
        return [b.score() for b in self.boards]

    def winners(self) -> list[int]:
        """Seats with the highest score: ties share the win."""
        s = self.scores()
        return [i for i, v in enumerate(s) if v == max(s)]

    def board_at_round(self, player: int, round_: int) -> Board:
        """A player's board as it stood before `round_` (for looking at opponents)."""
        return Board([m.placement for m in self.moves if m.player == player and m.round < round_])
