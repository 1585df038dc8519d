"""Play online in the window, its headless half: a seat played through OnlineMatch against a server hosted as the
window hosts it (HostedServer on 127.0.0.1), the address typed, the seat kept for Continue (issue 39)."""
from __future__ import annotations

import random
import time

import pytest

from nmbr9.match import BOTS, OVER, PLACE
from nmbr9.net.client import ClientThread
from nmbr9.net.online import HostedServer, OnlineMatch, server_url
from nmbr9.net.seat import forget_seat, save_seat, saved_seat


def frames(match, until, seconds=20.0):
    """Call update() as the window's frames do until `until()` holds."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the server did not answer in time"
        match.update()
        time.sleep(0.005)


def first_view(net):
    deadline, arrived = time.monotonic() + 10, []
    while not any(m["type"] == "view" for m in arrived):
        assert time.monotonic() < deadline
        arrived += net.poll()
        time.sleep(0.005)
    return next(m for m in arrived if m["type"] == "view")


def test_a_seat_plays_a_whole_game_against_a_bot_on_a_hosted_server(tmp_path):
    server = HostedServer(tmp_path / "server", port=0)
    net = ClientThread(server.url)
    try:
        net.connect().result(10)
        me = net.host("Ana").result(10)
        net.add_bot("easy").result(10)
        net.start().result(10)
        match = OnlineMatch(net, first_view(net))
        assert match.names == ["Ana", "Bot 1"] and match.phase == PLACE and match.round == 1
        rng = random.Random(3)
        while not match.done:
            card = match.card
            assert card is not None and card == match.view["seen"][-1]   # the card the server turned for us
            options = match.game.legal_placements(0)
            verdict = match.play(match.seat, rng.choice(options))
            assert verdict.ok
            assert match.phase == BOTS and match.card is None     # the next card comes with the server's answer
            frames(match, lambda: match.phase != BOTS or match.done)
        frames(match, lambda: match.over, 60)
        assert match.phase == OVER
        # the record the server keeps has every tile the mirror laid, and the same score
        moves = [m for m in match.record["moves"] if m["player"] == match.seat]
        assert len(moves) == 20 and len(match.game.moves) == 20
        assert match.record["deck"][:20] == match.view["seen"]
        assert me["code"] == match.code
    finally:
        net.stop()
        server.stop()


def test_the_table_shows_the_board_the_server_keeps(tmp_path):
    """The server has another tile than the one laid here (the seat played meanwhile from another window, so
    this one's tile was answered as already made): the table takes the server's board."""
    server = HostedServer(tmp_path / "server", port=0)
    net = ClientThread(server.url)
    try:
        net.connect().result(10)
        net.host("Ana").result(10)
        net.start().result(10)
        match = OnlineMatch(net, first_view(net))
        # another window on the same seat laid round 1's tile meanwhile: this one's tile 1 is refused
        other = match.game.legal_placements(0)[0]
        from nmbr9.net.table import move_json
        from nmbr9.rules import Game, Seat
        g = Game([Seat("Ana", "human")], match.view["seen"] + match.view["supply"])
        g.play(0, other)
        net.play(move_json(g.moves[-1], 0)).result(10)
        net.client.seq = 0
        mine = [p for p in match.game.legal_placements(0) if p != other][0]
        assert match.play(0, mine).ok
        frames(match, lambda: match.rebuilt)
        assert match.rebuilt and len(match.game.moves) == 1
        assert match.game.boards[0].tiles[0].x == other.x and match.game.boards[0].tiles[0].y == other.y
    finally:
        net.stop()
        server.stop()


@pytest.mark.parametrize("typed, url", [("192.168.1.5", "ws://192.168.1.5:8779"),
                                        (" club.example:9000 ", "ws://club.example:9000"),
                                        ("wss://club.example", "wss://club.example:8779")])
def test_an_address_as_typed(typed, url):
    assert server_url(typed) == url


@pytest.mark.parametrize("typed", ["", "http://x:80", "a b", "host:port", "host:99999"])
def test_an_address_that_is_none_is_refused(typed):
    with pytest.raises(ValueError):
        server_url(typed)


def test_the_seat_is_kept_for_continue(tmp_path):
    seat = {"url": "ws://127.0.0.1:8779", "code": "ABCDEF", "token": "t", "hosted": True, "name": "Ana"}
    assert saved_seat(tmp_path) is None
    save_seat(tmp_path, seat)
    assert saved_seat(tmp_path) == seat
    (tmp_path / "online.json").write_text("{not json")
    assert saved_seat(tmp_path) is None
    forget_seat(tmp_path)
    assert saved_seat(tmp_path) is None


def test_the_window_side_of_online_play_imports_no_panda3d():
    """nmbr9/net/online.py is the net layer's: the server and bots may use it without a window."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", "import sys, nmbr9.net.online; "
                           "print([m for m in sys.modules if m.split('.')[0] in ('panda3d', 'direct')])"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


def test_a_seat_plays_a_whole_2_of_3_game_with_every_module_and_power_each_action_judged_by_the_server(tmp_path):
    """NMBR 9 ++ online: the seat's every action (reject, tile, gap filler, Reserve, Relocate, ending a turn) is
    made on the mirror and sent; the server, judging each again, keeps the same game: the same moves, the same
    score, in the record it sends at the end."""
    from nmbr9.ai.plus import plan_turn
    from nmbr9.net.table import move_json
    from nmbr9.rules.game import MODULES, POWERS
    server = HostedServer(tmp_path / "server", port=0)
    net = ClientThread(server.url)
    try:
        net.connect().result(10)
        net.host("Ana", {"variant": "two_of_three", "modules": list(MODULES), "powers": list(POWERS)}).result(10)
        net.add_bot("easy").result(10)
        net.start().result(10)
        match = OnlineMatch(net, first_view(net))
        laid = lambda: [move_json(m, match.seat) for m in match.mirror.moves]   # noqa: E731 (the mirror's moves)
        assert match.game.ruleset.powers == tuple(POWERS) and match.view["start_tiles"]
        kinds, step = set(), 0
        while not match.done:
            name, args = plan_turn(match.mirror, 0, "easy", step)[0]
            step += 1
            assert getattr(match, name)(match.seat, *args).ok, (name, args)
            kinds |= {m.kind for m in match.mirror.moves}
            frames(match, lambda: match.phase != BOTS or match.done)
            assert match.refusal is None and match.view["moves"] == laid()
        frames(match, lambda: match.over, 60)
        mine = [m for m in match.record["moves"] if m["player"] == match.seat]
        assert mine == laid() and {"reject", "place"} <= kinds
        assert match.view["scores"][match.seat] == match.mirror.boards[0].score()
    finally:
        net.stop()
        server.stop()


def test_three_seats_and_a_bot_play_a_whole_level_to_level_game_round_by_round_through_their_mirrors(tmp_path):
    """"Level to Level" online: the seats share one game, so each window's mirror holds everyone's tiles of the
    rounds before; markers activate on it as on the server (someone's two tiles on a level), each seat chooses
    one of the round's cards and lays it, waits for the others by name, and gets the next round by itself.
    No view tells a card before its round; a seat that closes mid-round comes back at its last tile; the scores
    are the rules layer's replay of the record."""
    from nmbr9.rules.game import CHOOSE
    from nmbr9.rules.record import parse_record, replay
    from test_net import drawn_by_round, hides_the_cards_to_come
    server = HostedServer(tmp_path / "server", port=0)
    nets = [ClientThread(server.url) for _ in range(3)]
    try:
        for n in nets:
            n.connect().result(10)
        code = nets[0].host("Ana", {"variant": "level_to_level", "modules": []}).result(10)["code"]
        nets[1].join(code, "Ben").result(10)
        nets[2].join(code, "Cy").result(10)
        nets[0].add_bot("easy").result(10)   # four at the table: each has a supply of their own
        nets[0].start().result(10)
        matches = [OnlineMatch(n, first_view(n)) for n in nets]
        rng, views, told, resumed = random.Random(5), [], {}, False
        deadline = time.monotonic() + 90
        while not all(m.over for m in matches):
            assert time.monotonic() < deadline, "the game did not end in time"
            for seat in rng.sample(range(3), 3):   # who lays first changes
                m = matches[seat]
                m.update()
                views.append(m.view)
                if not m.waiting():
                    if not m.done and not m.game.sending and m.waiting_for():   # done: who the round waits for
                        told.setdefault((seat, m.round), tuple(m.names[s] for s in m.waiting_for()))
                    continue
                lead = m.round - 3   # rounds 3, 4, 5: seat 0, 1, 2 lays first, the others once it was told
                if seat != lead and 0 <= lead < 3 and (lead, m.round) not in told:
                    continue
                o = m.options(seat)
                if o.step == CHOOSE:   # the highest marker shown builds highest: more markers come
                    assert m.choose(seat, max(o.choices)).ok
                    o = m.options(seat)
                p = max(m.legal_placements(seat), key=lambda q: (q.level, rng.random()))
                assert m.play(seat, p).ok
                if seat == 0 and m.round >= 5 and not resumed:
                    round_ = m.round
                    frames(m, lambda: not m.game.sending)
                    if m.round != round_ or not {1, 2} & set(m.waiting_for()):
                        continue   # the round ended with her tile, or may end with the bot's before she is back
                    nets[0].stop()   # Ana closes her window mid-round, comes back
                    nets[0] = ClientThread(server.url)
                    nets[0].connect().result(10)
                    nets[0].resume(code, m.net.client.token).result(10)
                    back = OnlineMatch(nets[0], first_view(nets[0]))
                    assert back.round == round_ and back.waiting() == [] and back.view["moves"] == m.view["moves"]
                    assert back.mirror.active == m.mirror.active and back.board(0).tiles == m.board(0).tiles
                    matches[0], resumed = back, True
            time.sleep(0.002)
        record = matches[0].record
        played = replay(parse_record(record))
        assert played.ok and played.game.scores() == matches[0].view["scores"] == matches[2].view["scores"]
        assert all(m.mirror.scores() == played.game.scores() for m in matches)   # each mirror ended as the server
        assert played.game.active >= 3 and resumed   # markers 1 and 2 became active
        # whoever was done with a round was told who still builds
        assert {"Ben", "Cy"} <= set(told[0, 3]) and {"Ana", "Cy"} <= set(told[1, 4]) and \
            {"Ana", "Ben"} <= set(told[2, 5])
        assert played.game.players[0].supply is not None and all(   # (four players: supplies of their own)
            m.mirror.players[i].supply == played.game.players[i].supply for m in matches for i in range(4))
        # the cards each view holds are those of the rounds reached, never one more
        drawn = drawn_by_round(record)
        assert all(hides_the_cards_to_come(v, record["deck"], drawn) for v in views if not v["over"])
    finally:
        for n in nets:
            n.stop()
        server.stop()
