"""Property-based tests: random legal games never break a rule, undo is exact, records replay."""
from hypothesis import HealthCheck, given, settings, strategies as st

from nmbr9.rules import Board, Placement
from nmbr9.rules.record import game_record, parse_record, replay
from nmbr9.rules.tiles import distinct_orientations

from helpers import random_game as play_random

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_board_obeys_every_rule(board: Board) -> None:
    """Check the finished board from scratch, independently of the verdict code."""
    cells = {}
    for i, p in enumerate(board.tiles):
        for sq in p.squares():
            assert (sq, p.level) not in cells, "two tiles share a square"
            cells[(sq, p.level)] = i
    for i, p in enumerate(board.tiles):
        if p.level > 0:
            under = [cells.get((sq, p.level - 1)) for sq in p.squares()]
            assert None not in under, "overhang or hole"
            assert len(set(under)) >= 2, "rests on one tile"
            assert all(u < i for u in under), "rests on a later tile"
        earlier = [j for j, q in enumerate(board.tiles[:i]) if q.level == p.level]
        if earlier:
            touching = any(cells.get(((x + dx, y + dy), p.level)) in earlier
                           for x, y in p.squares() for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            assert touching, "not adjacent to its level"


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 3), upward=st.floats(0, 1))
def test_random_legal_games_never_break_a_rule_and_replay(seed, players, upward):
    game = play_random(seed, players, upward)
    for board in game.boards:
        assert_board_obeys_every_rule(board)
        assert board.score() == sum(p.piece * p.level for p in board.tiles)
    again = replay(parse_record(game_record(game)))
    assert again.ok and again.game.scores() == game.scores()


@SETTINGS
@given(seed=st.integers(0, 10**6), tiles=st.integers(1, 19))
def test_undo_restores_the_exact_board(seed, tiles):
    game = play_random(seed, 1, 0.6)
    board = Board(game.boards[0].tiles[:tiles])
    ids, origin, placed = board.ids.copy(), board.origin, list(board.tiles)
    nxt = game.boards[0].tiles[tiles]
    board.place(nxt)
    assert board.undo() == nxt
    assert board.tiles == placed
    # the grid may have grown: the old part is identical and the rest is empty
    dx, dy = origin[0] - board.origin[0], origin[1] - board.origin[1]
    L, H, W = ids.shape
    assert (board.ids[:L, dy:dy + H, dx:dx + W] == ids).all()
    assert (board.ids >= 0).sum() == (ids >= 0).sum()


@SETTINGS
@given(seed=st.integers(0, 10**6), tiles=st.integers(1, 19), digit=st.integers(0, 9), sample=st.randoms())
def test_listed_placements_are_accepted_and_others_refused_with_a_reason(seed, tiles, digit, sample):
    board = Board(play_random(seed, 1, 0.7).boards[0].tiles[:tiles])
    legal = board.legal_placements(digit)
    assert len(set(legal)) == len(legal)
    for p in legal:
        assert board.verdict(p).ok, p
    x0, y0, x1, y1 = board.bounds()
    orients = distinct_orientations(digit)
    legal_set = set(legal)
    for _ in range(200):
        p = Placement(digit, sample.choice(orients).rotation, sample.randint(x0 - 5, x1 + 2),
                      sample.randint(y0 - 5, y1 + 2), sample.randint(0, board.levels))
        v = board.verdict(p)
        assert v.ok == (p in legal_set), p
        if not v.ok:
            assert v.code in ("overlap", "not_supported", "single_support", "not_adjacent") and v.message
