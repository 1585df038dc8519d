"""Game flow: rounds, turns, the round's card, the end, shared wins; the rules stay pure."""
import random
import subprocess
import sys
from pathlib import Path

from nmbr9.rules import Game, Placement, Seat, new_deck

from helpers import random_game


def test_deck_has_two_of_each_number_and_is_seeded():
    d = new_deck(random.Random(5))
    assert sorted(d) == sorted(list(range(10)) * 2)
    assert d == new_deck(random.Random(5)) and d != new_deck(random.Random(6))


def test_round_advances_when_every_player_has_placed():
    g = Game([Seat("Ana"), Seat("Ben")], [3] * 2 + [d for d in range(10) if d != 3] * 2)
    assert g.card == 3 and g.waiting() == [0, 1]
    assert g.play(1, Placement(3, 0, 0, 0))
    assert g.round == 1 and g.waiting() == [0]
    assert g.play(1, Placement(3, 0, 3, 0)).code == "wrong_turn"   # twice in a round
    assert g.play(0, Placement(4, 0, 0, 0)).code == "wrong_digit"
    assert g.play(2, Placement(3, 0, 0, 0)).code == "wrong_turn"   # no such player
    assert g.play(0, Placement(3, 90, 5, 5))
    assert g.round == 2 and g.waiting() == [0, 1]


def test_game_ends_after_the_last_card_and_ties_share_the_win():
    g = random_game(3, players=3)
    assert g.over and g.card is None and g.waiting() == []
    assert len(g.moves) == 60
    assert g.play(0, Placement(0, 0, 50, 50)).code == "wrong_turn"
    assert g.winners() == [i for i, s in enumerate(g.scores()) if s == max(g.scores())]
    tie = Game([Seat("a"), Seat("b")], new_deck(random.Random(1)))
    assert tie.winners() == [0, 1]


def test_take_back_returns_to_the_previous_position():
    g = random_game(4)
    scores, moves = g.scores(), list(g.moves)
    last = g.take_back()
    assert g.round == 20 and g.card == last.placement.piece and not g.over
    assert g.play(0, last.placement)
    assert g.scores() == scores and g.moves == moves


def test_board_at_round_shows_what_stood_then():
    g = random_game(2, players=2)
    b = g.board_at_round(1, 6)
    assert len(b.tiles) == 5 and b.tiles == g.boards[1].tiles[:5]


def test_rules_layer_imports_nothing_above_it():
    """Both games' rules layers (nmbr9/rules, nmbr9/rumbugz/rules): no panda3d, no scene, no network, no bots."""
    code = ("import sys, nmbr9.rules, nmbr9.rules.record, nmbr9.rumbugz.rules; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('panda3d', 'direct', 'websockets', 'socket', 'asyncio') "
            "or m.startswith(('nmbr9.scene', 'nmbr9.store', 'nmbr9.ai', 'nmbr9.i18n', 'nmbr9.net', "
            "'nmbr9.rumbugz.bots', 'nmbr9.rumbugz.play', 'nmbr9.rumbugz.cli'))]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]"
    package = Path(__file__).resolve().parent.parent / "nmbr9"
    for path in [*(package / "rules").glob("*.py"), *(package / "rumbugz" / "rules").glob("*.py")]:
        text = path.read_text()
        for banned in ("import panda3d", "from panda3d", "from direct", "import direct", "..scene", "..store",
                       "..ai", "..i18n", "nmbr9.scene", "..net", "websockets", "import socket", "..bots", "..play"):
            assert banned not in text, f"{path.name} imports {banned}"
