"""Puzzles (the online edition's mode): a fixed card order whose first tile is
already laid in the middle of the table. A puzzle is a classic game whose
round 1 is played the same for everyone, so its record replays as a classic
game; the record carries the puzzle's code in the extra field "puzzle".

A code is the deck's rank among all orders of the 20 cards plus the first
tile's rotation, written in Crockford's base 32 with a check character, so
friends can type it in (case, I/L/1 and O/0 mix-ups forgiven).
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import random
from dataclasses import dataclass
from math import factorial

from .i18n import N_, _
from .rules import Game, Placement, Seat
from .rules.tiles import canonical_rotation, distinct_orientations

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"   # Crockford base 32
CODE_LENGTH = 11                                 # 53 bits: rank x rotation
CARDS = tuple(d for d in range(10) for _ in range(2))


def _orders(counts: list[int]) -> int:
    """How many distinct orders the remaining cards (counts per number) have."""
    n = factorial(sum(counts))
    for c in counts:
        n //= factorial(c)
    return n


TOTAL_DECKS = _orders([2] * 10)


# a puzzle's bots, by strength: stored in English (the seat's name in the record and on the leaderboard),
# shown in the language of the moment (match.seat_name)
BOT_NAMES = {"bot:easy": N_("Easy bot"), "bot:medium": N_("Medium bot"), "bot:hard": N_("Hard bot")}


class PuzzleCodeError(ValueError):
    pass


@dataclass(frozen=True)
class Puzzle:
    deck: tuple[int, ...]
    rotation: int            # of the first tile, laid at (0, 0)

    @property
    def first(self) -> Placement:
        return Placement(self.deck[0], self.rotation, 0, 0, 0)

    @property
    def code(self) -> str:
        return encode(self)

    def laid_as_first(self, placements: list[Placement]) -> list[Placement]:
        """A layout of this deck turned and moved as a whole so that its first tile lies as the
        puzzle's does (a layout found for the deck alone may start anywhere, in any direction)."""
        target = sorted(self.first.squares())
        for quarters in range(4):
            turned = [turn(p, quarters) for p in placements]
            squares = sorted(turned[0].squares())
            dx, dy = target[0][0] - squares[0][0], target[0][1] - squares[0][1]
            if [(x + dx, y + dy) for x, y in squares] == target:
                return [p._replace(x=p.x + dx, y=p.y + dy) for p in turned]
        return list(placements)

    def new_game(self, seats: list[Seat]) -> Game:
        """A game at round 2 with the first tile laid on every table."""
        game = Game(seats, list(self.deck))
        for player in range(len(seats)):
            game.play(player, self.first)
        return game


def turn(p: Placement, quarters: int) -> Placement:
    """`p` after the whole table is turned `quarters` quarter turns clockwise about (0, 0)."""
    squares = p.squares()
    for _ in range(quarters):
        squares = [(-y, x) for x, y in squares]
    return p._replace(rotation=canonical_rotation(p.piece, (p.rotation + 90 * quarters) % 360, p.flipped),
                      x=min(x for x, _y in squares), y=min(y for _x, y in squares))


def _rank(deck) -> int:
    counts, rank = [2] * 10, 0
    for card in deck:
        for smaller in range(card):
            if counts[smaller]:
                counts[smaller] -= 1
                rank += _orders(counts)
                counts[smaller] += 1
        counts[card] -= 1
    return rank


def _unrank(rank: int) -> tuple[int, ...]:
    counts, deck = [2] * 10, []
    for _ in range(20):
        for card in range(10):
            if not counts[card]:
                continue
            counts[card] -= 1
            n = _orders(counts)
            if rank < n:
                deck.append(card)
                break
            rank -= n
            counts[card] += 1
    return tuple(deck)


def _rotations(digit: int) -> list[int]:
    return [o.rotation for o in distinct_orientations(digit)]


def encode(p: Puzzle) -> str:
    n = _rank(p.deck) * 4 + (p.rotation // 90)
    chars = []
    for _ in range(CODE_LENGTH):
        n, r = divmod(n, 32)
        chars.append(ALPHABET[r])
    body = "".join(reversed(chars))
    check = ALPHABET[sum((i + 1) * ALPHABET.index(c) for i, c in enumerate(body)) % 32]
    return f"{body[:4]}-{body[4:8]}-{body[8:]}{check}"


def decode(code: str) -> Puzzle:
    """The puzzle a code stands for; PuzzleCodeError says what is wrong with a mistyped one."""
    text = code.strip().upper().replace("-", "").replace(" ", "")
    text = text.translate(str.maketrans({"I": "1", "L": "1", "O": "0"}))
    if len(text) != CODE_LENGTH + 1:
        raise PuzzleCodeError(_("A puzzle code has {count} letters and digits, like 0ABC-DEFG-HJKM.").format(
            count=CODE_LENGTH + 1))
    strange = sorted({c for c in text if c not in ALPHABET})
    if strange:
        raise PuzzleCodeError(_("A puzzle code never holds {letters}: it has digits and the letters "
                                "A to Z but U.").format(letters=", ".join(strange)))
    body, check = text[:-1], text[-1]
    if ALPHABET[sum((i + 1) * ALPHABET.index(c) for i, c in enumerate(body)) % 32] != check:
        raise PuzzleCodeError(_("That puzzle code has a typing mistake (its check letter does not match)."))
    n = 0
    for c in body:
        n = n * 32 + ALPHABET.index(c)
    rank, turn = divmod(n, 4)
    if rank >= TOTAL_DECKS:
        raise PuzzleCodeError(_("No puzzle has that code: check it letter by letter."))
    deck = _unrank(rank)
    if turn * 90 not in _rotations(deck[0]):
        raise PuzzleCodeError(_("No puzzle has that code: check it letter by letter."))
    return Puzzle(deck, turn * 90)


def is_puzzle_of(code, match) -> bool:
    """Whether a game's puzzle code stands for the deck it plays (an edited or damaged code: a plain game,
    whose results go to no puzzle's leaderboard)."""
    try:
        return isinstance(code, str) and list(decode(code).deck) == list(match.game.deck)
    except PuzzleCodeError:
        return False


def random_puzzle(rng: random.Random) -> Puzzle:
    deck = list(CARDS)
    rng.shuffle(deck)
    return Puzzle(tuple(deck), rng.choice(_rotations(deck[0])))


def offered_puzzles(rng: random.Random) -> tuple[Puzzle, Puzzle]:
    """The two random puzzles the challenger picks from (never the same one twice)."""
    first = random_puzzle(rng)
    second = random_puzzle(rng)
    while second == first:
        second = random_puzzle(rng)
    return first, second


def daily_puzzle(day: _dt.date) -> Puzzle:
    """The same puzzle for everyone on a given date, on every computer."""
    digest = hashlib.sha256(f"nmbr9-daily-{day.isoformat()}".encode()).digest()
    return random_puzzle(random.Random(int.from_bytes(digest[:8], "big")))
