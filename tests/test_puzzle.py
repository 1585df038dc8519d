"""Puzzle codes rebuild the puzzle exactly; the daily puzzle is the same for everyone."""
import datetime as dt
import random

import pytest

from nmbr9.puzzle import (TOTAL_DECKS, Puzzle, PuzzleCodeError, _rank, _unrank, daily_puzzle, decode,
                          offered_puzzles, random_puzzle)
from nmbr9.rules import Seat
from nmbr9.rules.record import game_record, parse_record, replay


def test_codes_round_trip_for_many_puzzles():
    rng = random.Random(3)
    for _ in range(200):
        p = random_puzzle(rng)
        assert sorted(p.deck) == sorted(list(range(10)) * 2)
        assert decode(p.code) == p
        assert len(p.code) == 14 and p.code.count("-") == 2


def test_rank_covers_first_and_last_orders():
    first = tuple(sorted(list(range(10)) * 2))
    assert _rank(first) == 0 and _unrank(0) == first
    assert _rank(tuple(reversed(first))) == TOTAL_DECKS - 1


def test_typed_codes_forgive_case_and_lookalikes_but_catch_typos():
    p = random_puzzle(random.Random(9))
    assert decode(p.code.lower()) == p
    assert decode(p.code.replace("-", " ")) == p
    assert decode(p.code.replace("1", "l").replace("0", "o")) == p
    body = p.code.replace("-", "")
    wrong = ("Z" if body[3] != "Z" else "Y").join([body[:3], body[4:]])
    with pytest.raises(PuzzleCodeError, match="typing mistake"):
        decode(wrong)
    with pytest.raises(PuzzleCodeError, match="letters and digits"):
        decode("hello")
    with pytest.raises(PuzzleCodeError, match="never holds !, U: it has digits and the letters A to Z but U"):
        decode("U" + body[1:-1] + "!")                # the right length, a letter no code has


def test_daily_puzzle_depends_only_on_the_date():
    day = dt.date(2026, 11, 22)
    assert daily_puzzle(day) == daily_puzzle(dt.date(2026, 11, 22))
    assert daily_puzzle(day) != daily_puzzle(day + dt.timedelta(days=1))


def test_two_offered_puzzles_differ():
    a, b = offered_puzzles(random.Random(1))
    assert a != b


def test_puzzle_game_starts_with_the_first_tile_laid_and_replays_as_a_record():
    p = random_puzzle(random.Random(4))
    game = p.new_game([Seat("Ana"), Seat("Ben")])
    assert game.round == 2 and all(b.tiles == [p.first] for b in game.boards)
    r = replay(parse_record(game_record(game, {"puzzle": p.code})))
    assert r.ok and r.game.round == 2 and r.game.boards[1].tiles == [p.first]


def _high_layout(deck, first):
    """A legal layout of `deck` from `first`, each tile as high as it goes."""
    from nmbr9.rules import Board
    board = Board()
    board.place(first)
    for digit in deck[1:]:
        board.place(max(board.legal_placements(digit), key=lambda p: (p.level, -abs(p.x) - abs(p.y))))
    return board.tiles


def test_a_layout_found_for_the_deck_is_turned_to_start_with_the_puzzles_first_tile():
    from nmbr9.rules import Board, Placement
    rng = random.Random(8)
    for _ in range(12):
        p = random_puzzle(rng)
        found = _high_layout(p.deck, Placement(p.deck[0], rng.choice((0, 90, 180, 270)), rng.randint(-5, 5),
                                               rng.randint(-5, 5), 0))
        laid = p.laid_as_first(found)
        assert sorted(laid[0].squares()) == sorted(p.first.squares()) and laid[0].rotation == p.rotation
        board = Board()
        for tile, was in zip(laid, found):          # every tile still legal, on the level it had
            assert board.place(tile).level == was.level
        assert board.score() == sum(t.piece * t.level for t in found) > 0
