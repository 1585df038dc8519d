"""Play online in the window, offscreen (issue 39): Host, the lobby, the table against a server hosted by the
window, another player joining from a client of their own, the results; Join's refusals in words."""
from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager

import pytest
from direct.showbase.MessengerGlobal import messenger

from nmbr9.net.client import ClientThread
from nmbr9.net.seat import saved_seat
from helpers import frames
from test_screens import buttons, click, picture, texts, until   # (the app fixture: conftest.py)

pytestmark = pytest.mark.render
SHOTS = os.environ.get("NMBR9_SHOTS")   # a folder: the screens' pictures are saved there to be looked at


@pytest.fixture
def online_app(app, monkeypatch):
    """test_screens' offscreen app; a server it hosts listens on any free port; left, its connection closed."""
    from nmbr9.scene.screens import online
    monkeypatch.setattr(online, "HOST_PORT", 0)
    yield app
    app.leave_online()


def shot(app, name: str) -> None:
    if SHOTS:
        picture(app).write(os.path.join(SHOTS, name + ".png"))


def type_into(entry, text: str) -> None:
    entry.enterText(text)


def host(app, name="Ana"):
    app.menu()
    click(app, "Play online")
    assert app.screen.name == "online"
    type_into(app.screen.name_entry, name)
    shot(app, "online")
    click(app, "Host on this computer")
    return until(app, lambda: app.screen.name == "lobby")


def lay_a_tile(app) -> None:
    """The round's tile at a legal spot (the highest), confirmed with Enter, as a player would."""
    s = app.screen
    ps = until(app, lambda: s.ps if s.ps is not None and s.ps.ghost is not None else None)
    options = s.match.legal_placements(s.match.seat)
    p = max(options, key=lambda q: (q.level, -abs(q.x) - abs(q.y)))
    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
    ps.update()
    ps.shown_at = 0   # (the table has been up a while)
    messenger.send("enter")
    frames(app, 3)


def test_host_adds_a_bot_starts_and_plays_to_the_results(online_app):
    app = online_app
    host(app)
    code = app.online.seat["code"]
    shown = texts(app)
    assert f"Code: {' '.join(code)}" in shown and "Address: 127.0.0.1:" in shown and "Ana (you)" in shown
    click(app, "Add an easy bot")
    until(app, lambda: "Bot 1 (easy)" in texts(app))
    shot(app, "lobby")
    click(app, "Start the game")
    until(app, lambda: app.screen.name == "online-play")
    assert saved_seat(app.store.folder)["code"] == code   # Continue can take the seat again
    lay_a_tile(app)
    shot(app, "online-table")
    until(app, lambda: app.screen.match.round == 2 and app.screen.match.card is not None)
    assert "Bot 1: " in texts(app)
    for _ in range(19):
        lay_a_tile(app)
        until(app, lambda: app.screen.name != "online-play" or app.screen.match.phase != "bots")
        if app.screen.name != "online-play":
            break
    until(app, lambda: app.screen.name == "results", 60)
    shot(app, "online-results")
    shown = texts(app)
    assert "Ana" in shown and "Bot 1" in shown
    assert saved_seat(app.store.folder) is None   # over: nothing to continue
    click(app, "Rematch (Enter)")                  # the next game on the same server, the bot along
    until(app, lambda: app.screen.name == "lobby" and "Bot 1 (easy)" in texts(app))
    again = app.online.seat["code"]
    assert again != code and saved_seat(app.store.folder)["code"] == again
    click(app, "Start the game")
    until(app, lambda: app.screen.name == "online-play" and app.screen.match.code == again)
    assert app.screen.match.round == 1 and app.screen.match.card is not None


def test_join_with_a_wrong_code_says_so_and_keeps_what_was_typed(online_app):
    app = online_app
    host(app)
    address = "127.0.0.1:%d" % app.online.server.port
    server, app.online.server = app.online.server, None   # (the server stays up: another window's)
    try:
        app.menu()
        click(app, "Play online")
        s = app.screen
        type_into(s.name_entry, "Ben")
        type_into(s.address_entry, address)
        type_into(s.code_entry, "ZZZZZZ")
        click(app, "Join")
        until(app, lambda: "There is no game with the code ZZZZZZ." in texts(app))
        shot(app, "online-wrong-code")
        assert app.screen.code_entry.get() == "ZZZZZZ" and app.screen.address_entry.get() == address
        assert app.settings.online == {"name": "Ben", "address": address, "code": "ZZZZZZ"}
    finally:
        server.stop()


def test_join_where_no_server_answers_says_so(online_app):
    app = online_app
    app.menu()
    click(app, "Play online")
    s = app.screen
    type_into(s.name_entry, "Ben")
    type_into(s.address_entry, "127.0.0.1:9")   # (nothing listens on the discard port)
    type_into(s.code_entry, "ABCDEF")
    click(app, "Join")
    until(app, lambda: "No game server answers at 127.0.0.1:9" in texts(app))


def test_a_lost_connection_is_said_in_a_note_and_the_table_plays_on(online_app):
    app = online_app
    """The window's own server stopped and started again (same port, same games): a note, not a modal, says the
    connection is lost while the client tries again; the table stays usable; once back, the note says so."""
    from nmbr9.net.online import HostedServer
    host(app)
    click(app, "Start the game")
    until(app, lambda: app.screen.name == "online-play")
    lay_a_tile(app)
    until(app, lambda: app.screen.match.round == 2 and app.screen.match.card is not None)
    online = app.online
    port, folder = online.server.port, app.store.folder / "server"
    online.server.stop()
    lost = "The connection to the server is lost: trying again by itself."
    until(app, lambda: lost in texts(app))
    shot(app, "online-connection-lost")
    assert app.screen.ps.ghost is not None and app.screen.ps.verdict.ok   # no modal: the tile in hand is laid
    lay_a_tile(app)                            # laid while the server is away: sent once it is back
    online.server = HostedServer(folder, port=port)
    until(app, lambda: "Connected to the server again." in texts(app), 30)
    until(app, lambda: app.screen.match.round == 3 and app.screen.match.card is not None, 30)
    assert len(app.screen.match.view["moves"]) == 2   # the server has both tiles


def test_a_player_done_first_waits_for_the_others_and_sees_their_rounds(online_app):
    """Ben joins from another computer (a client of his own) and plays slower: Ana lays all her tiles at her own
    pace, the scores show Ben's round, her status says she waits for him; once he is done the results come."""
    from nmbr9.net.online import OnlineMatch
    from test_online import first_view, frames as net_frames
    app = online_app
    host(app)
    ben = ClientThread(app.online.server.url)
    try:
        ben.connect().result(10)
        ben.join(app.online.seat["code"], "Ben").result(10)
        until(app, lambda: "Ben" in texts(app))
        shot(app, "lobby-two")
        click(app, "Start the game")
        until(app, lambda: app.screen.name == "online-play")
        theirs = OnlineMatch(ben, first_view(ben))
        for _ in range(20):
            lay_a_tile(app)
            until(app, lambda: app.screen.match.phase != "bots" or app.screen.match.done)
        until(app, lambda: "Your game is done: waiting for the others to finish (Ben: round 1)." in texts(app))
        assert "Ben: 0 · round 1" in texts(app)
        shot(app, "online-waiting")
        app.screen.look(1)   # his board as it is now (her game is over: every round of his shows)
        assert "Ben's board as it is now (score 0)." in texts(app)
        app.screen.look(None)
        rng = random.Random(2)
        while not theirs.done:   # Ben plays his game
            assert theirs.play(theirs.seat, rng.choice(theirs.game.legal_placements(0)))
            net_frames(theirs, lambda: theirs.phase != "bots" or theirs.done)
        until(app, lambda: app.screen.name == "results", 60)
        assert "Ben" in texts(app)
    finally:
        ben.stop()


def test_continue_online_for_a_game_the_server_no_longer_has_says_so_and_is_offered_no_more(online_app):
    from nmbr9.net.seat import save_seat
    app = online_app
    host(app)
    url = app.online.server.url
    server, app.online.server = app.online.server, None   # (the server stays up: another computer's)
    try:
        save_seat(app.store.folder, {"url": url, "code": "ZZZZZZ", "token": "gone", "hosted": False})
        app.menu()
        click(app, "Continue online")
        until(app, lambda: "There is no game with the code ZZZZZZ." in texts(app))
        app.menu()
        assert "Continue online" not in buttons(app) and "Play online" in buttons(app)
    finally:
        server.stop()


def test_a_server_that_never_answers_does_not_hold_up_the_window(online_app):
    """Join an address where something takes the connection but never answers: the page says "Connecting…" and
    the frames go on (the network is on its own thread); after the client's time limit it says no server answers."""
    import socket
    app = online_app
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()   # the kernel takes the connection; nobody ever reads or answers it
    try:
        app.menu()
        click(app, "Play online")
        s = app.screen
        type_into(s.address_entry, "127.0.0.1:%d" % silent.getsockname()[1])
        type_into(s.code_entry, "ABCDEF")
        click(app, "Join")
        assert "Connecting…" in texts(app)
        slowest, last, deadline = 0.0, time.monotonic(), time.monotonic() + 20
        while "No game server answers at" not in texts(app) and time.monotonic() < deadline:
            frames(app, 1)
            now = time.monotonic()
            slowest, last = max(slowest, now - last), now
        assert "No game server answers at 127.0.0.1:%d (" % silent.getsockname()[1] in texts(app)
        assert slowest < 0.5
    finally:
        silent.close()


def test_host_for_the_network_listens_beyond_this_computer_and_shows_its_network_address(online_app):
    from nmbr9.net.online import network_address
    app = online_app
    app.menu()
    click(app, "Play online")
    click(app, "Host for the network")
    until(app, lambda: app.screen.name == "lobby")
    port = app.online.server.port
    shown = texts(app)
    assert app.online.server.host == "0.0.0.0"
    assert f"Address: {network_address()}:{port}" in shown
    assert "Read out the address and the code: the others choose Play online, then Join." in shown


def test_host_picks_2_of_3_with_reserve_and_plays_it_on_the_plus_table_the_server_judging(online_app):
    """The lobby's rules picker (New game's widgets) sets the server's rules; the table is NMBR 9 ++'s; a reject,
    a tile built and a tile set aside with Reserve each go to the server, which judges and keeps them."""
    from nmbr9.scene.plus_play import PlusSessionScreen
    app = online_app
    host(app)
    lobby = lambda: app.screen.lobby["ruleset"]   # noqa: E731 (the rules as the server holds them)
    click(app, "Base game")
    until(app, lambda: lobby()["variant"] == "two_of_three" and "2 of 3" in buttons(app))
    click(app, "Breaking Rules: off")
    until(app, lambda: lobby()["modules"] == ["breaking_rules"])
    click(app, "\u25a3 Reserve")
    until(app, lambda: lobby()["powers"] == ["reserve"])
    click(app, "Add an easy bot")
    until(app, lambda: "Bot 1 (easy)" in texts(app))
    shot(app, "lobby-plus")
    click(app, "Start the game")
    s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
    assert isinstance(s, PlusSessionScreen) and s.match.game.ruleset.powers == ("reserve",)
    m = s.match
    kinds = lambda: [mv.get("kind", "place") for mv in m.view["moves"]]   # noqa: E731 (what the server kept)
    until(app, lambda: "Reject it with your marker (R)" in texts(app), 10)
    messenger.send("i")   # a hint in words works on the seat's mirror too
    until(app, lambda: "Hint: the strongest bot would " in texts(app))
    messenger.send("r")   # (the question's keys: R rejects, B builds)
    until(app, lambda: kinds() == ["reject"] and m.phase != "bots")
    until(app, lambda: "Build the " in texts(app) and s.ps is not None)
    messenger.send("b")
    lay_a_tile(app)
    until(app, lambda: kinds() == ["reject", "place"] and m.phase != "bots")
    shot(app, "online-plus-table")
    assert s.hud.card["text"] == str(m.view["seen"][2])   # the third card as the server turned it
    until(app, lambda: "Build the " in texts(app) and s.ps is not None)
    messenger.send("b")
    until(app, lambda: s.ps is not None and s.ps.ghost is not None)
    s.ps.act("toggle_power", "reserve")
    frames(app, 2)
    messenger.send("enter")   # Reserve armed: Enter sets the tile aside
    until(app, lambda: kinds() == ["reject", "place", "reserve"] and m.phase != "bots")
    assert m.refusal is None and len(m.mirror.moves) == 3 and m.round == 2


@contextmanager
def ben_joins_anas_game(app, rules: dict):
    """Ana hosts a game with `rules` from a client of her own (on a server this window starts, kept up as if on
    her computer); Ben's window joins it and is in its lobby. Yields Ana's client."""
    host(app, "Ben")
    url = app.online.server.url
    server, app.online.server = app.online.server, None
    ana = ClientThread(url)
    try:
        ana.connect().result(10)
        code = ana.host("Ana", rules).result(10)["code"]
        app.leave_online()
        app.menu()
        click(app, "Play online")
        type_into(app.screen.address_entry, url.split("://")[1])
        type_into(app.screen.code_entry, code)
        click(app, "Join")
        until(app, lambda: app.screen.name == "lobby" and "Ben (you)" in texts(app))
        yield ana
    finally:
        ana.stop()
        server.stop()


def test_a_joined_player_sees_the_rules_the_host_picks_and_cannot_change_them(online_app):
    """Ana picks the rules; Ben's window, joined, says them and offers no rules buttons; her next pick shows
    there too."""
    app = online_app
    with ben_joins_anas_game(app, {"variant": "two_of_three", "modules": ["breaking_rules"],
                                   "powers": ["reserve", "flip"]}) as ana:
        assert "Rules: 2 of 3, Breaking Rules: Reserve, Flip" in texts(app)
        assert not {"2 of 3", "Base game", "Breaking Rules: on"} & set(buttons(app))
        shot(app, "lobby-joined-plus")
        ana.set_rules({"variant": "classic", "modules": ["gap_fillers"]}).result(10)
        until(app, lambda: "Rules: Gap fillers" in texts(app))


def test_level_to_level_at_the_online_table_each_round_chosen_laid_and_waited_for(online_app):
    """Ana hosts "Level to Level" from a client of her own; Ben's window joins (seat 1). Each round he takes a
    card shown under an active marker (its key), lays it, is told he waits for Ana by name, and the next round
    comes by itself once she lays; marker 1 becomes active on his table as on the server; her board shows as it
    stood at the start of his round; closed mid-round and continued, the table is back at his tile, waiting."""
    from nmbr9.net.online import OnlineMatch
    from nmbr9.rules.game import CHOOSE
    from test_online import first_view, frames as net_frames
    app = online_app
    with ben_joins_anas_game(app, {"variant": "level_to_level", "modules": []}) as ana:
        assert "Rules: Level to Level" in texts(app)
        ana.start().result(10)
        s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
        m, hers, rng = s.match, OnlineMatch(ana, first_view(ana)), random.Random(3)
        assert m.seat == 1 and m.names == ["Ana", "Ben"]
        for round_ in range(1, 5):
            until(app, lambda: m.round == round_ and m.waiting() and s.ps is not None)
            o = m.options(m.seat)
            if round_ >= 3:   # two tiles on level 0 (everyone has them): marker 1 is active, its card shown
                assert o.step == CHOOSE and sorted(o.choices) == [0, 1]
                assert s.plus_hud.piles_frame is not None and len(m.view["seen"]) == 2 + 2 * (round_ - 2)
                messenger.send("1")   # the card under marker 1: built on level 0 or 1
                until(app, lambda: m.options(m.seat).marker == 1)
            lay_a_tile(app)
            until(app, lambda: f"Your turn in round {round_} is done: waiting for Ana." in texts(app))
            if round_ == 3:
                shot(app, "online-ltl-waiting")
                # the scores: everyone plays round 3, so a tick says who has built it (Ben), not the round
                assert "Ana: 0" in texts(app) and f"\u25b6 Ben: {m.board(1).score()} \u2713" in texts(app)
                s.look(0)   # her board as it stood at the start of round 3: two tiles
                assert "Ana's board as it stood at the start of round 3 (score " in texts(app)
                assert len(s.board_of(0).tiles) == 2
                s.look(None)
            if round_ == 4:   # Ben closes the table mid-round and comes back: at his tile laid, still waiting
                messenger.send("m")
                until(app, lambda: app.screen.name == "menu")
                click(app, "Continue online")
                s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
                m = s.match
                until(app, lambda: "Your turn in round 4 is done: waiting for Ana." in texts(app))
                assert len(m.view["moves"]) == 4 and m.mirror.active == 2
            net_frames(hers, lambda: hers.round == round_ and hers.waiting())
            o = hers.options(hers.seat)
            if o.step == CHOOSE:
                assert hers.choose(hers.seat, max(o.choices)).ok
            assert hers.play(hers.seat, rng.choice(hers.legal_placements(hers.seat))).ok
        until(app, lambda: m.round == 5 and m.waiting())
        assert len(m.view["moves"]) == 4 and m.mirror.active >= 2 and m.board(m.seat).tiles == s.table.board.tiles


def test_host_picks_level_to_level_in_the_lobby_for_up_to_four_and_plays_its_rounds_with_bots(online_app):
    """The lobby's variant button walks to "Level to Level" (1-4 players: a fourth bot can't be added); the
    table is NMBR 9 ++'s with the markers' piles; Ana lays round 1's card and round 2 comes once the bots,
    on the server, have laid theirs."""
    from nmbr9.scene.plus_play import PlusSessionScreen
    app = online_app
    host(app)
    click(app, "Base game")
    until(app, lambda: "2 of 3" in buttons(app))
    click(app, "2 of 3")
    until(app, lambda: app.screen.lobby["ruleset"]["variant"] == "level_to_level" and "Level to Level" in buttons(app))
    for n in (1, 2, 3):
        click(app, "Add an easy bot")
        until(app, lambda: f"Bot {n} (easy)" in texts(app))
    assert "Add an easy bot" not in buttons(app)   # four at the table: full
    click(app, "Start the game")
    s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
    assert isinstance(s, PlusSessionScreen) and s.match.names == ["Ana", "Bot 1", "Bot 2", "Bot 3"]
    lay_a_tile(app)
    until(app, lambda: s.match.round == 2 and s.match.waiting(), 30)
    assert len(s.match.mirror.moves) == 4 and s.match.view["seen"] == s.match.mirror.seen()   # everyone's round 1


def test_a_joined_seat_folds_the_controls_help_once_it_has_laid_a_tile_as_the_host_does(online_app):
    """Ben's window sits at seat 1 (its mirror plays his game as its only player): the controls' help is shown
    for his first tile and folded once he has laid one, as at seat 0, also when the table starts again
    (Continue): it counted his tiles as seat 0's, none, and came back open."""
    app = online_app
    with ben_joins_anas_game(app, {"variant": "classic"}) as ana:
        ana.start().result(10)
        s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
        until(app, lambda: s.ps is not None and s.ps.ghost is not None)
        assert s.match.seat == 1 and not s.hud.folded
        lay_a_tile(app)
        until(app, lambda: s.match.round == 2 and s.ps is not None and s.ps.ghost is not None)
        assert s.hud.folded
        messenger.send("m")   # to the menu, and back to the table (the help as the table starts it)
        until(app, lambda: app.screen.name == "menu")
        click(app, "Continue online")
        s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
        until(app, lambda: s.ps is not None and s.ps.ghost is not None)
        assert s.match.round == 2 and s.hud.folded and "H: show the controls" in texts(app)


def test_a_joined_seat_lays_gap_fillers_and_relocates_at_the_online_table_the_server_keeping_them(online_app):
    """NMBR 9 ++ at the online table, played from Ben's window at seat 1 with its buttons and keys: a gap filler
    laid beside his tile, Relocate (the tile picked with Enter, laid elsewhere), and the turns ended; the server
    judges each and keeps the same moves and score as his table."""
    from test_scene_plus import lay, press
    app = online_app
    rules = {"variant": "classic", "modules": ["gap_fillers", "breaking_rules"], "powers": ["relocate", "flip"]}
    with ben_joins_anas_game(app, rules) as ana:
        ana.start().result(10)
        s = until(app, lambda: app.screen if app.screen.name == "online-play" else None)
        m = s.match
        kinds = lambda: [mv.get("kind", "place") for mv in m.view["moves"]]   # noqa: E731 (what the server kept)
        ready = lambda: s.ps if m.waiting() and s.ps is not None and not s.ps.settling else None  # noqa: E731
        for round_ in (1, 2):
            until(app, lambda: m.round == round_ and ready())
            lay(app, m.legal_placements(m.seat)[0])
            until(app, lambda: ready() and "End turn" in texts(app))   # the fillers left: the turn stays open
            if round_ == 2:
                press(app, "filler_F2")
                assert s.ps.piece == "F2"
                lay(app, m.legal_placements(m.seat, "F2")[0])
                until(app, lambda: kinds()[-1] == "filler" and ready())
            press(app, "end_turn")
        until(app, lambda: m.round == 3 and ready())
        lay(app, m.legal_placements(m.seat)[0])
        until(app, lambda: len(kinds()) == 6 and ready())
        press(app, "power_relocate")
        assert s.ps.mode == "pick"
        movable = m.game.movable_tiles(m.seat)
        messenger.send("enter")   # the first free tile taken up
        until(app, lambda: s.ps.mode == "move")
        lay(app, m.game.relocation_targets(m.seat, movable[0])[0])
        until(app, lambda: kinds()[-1] == "relocate" and ready())
        press(app, "end_turn")
        until(app, lambda: m.round == 4 and ready())
        assert kinds() == ["place", "end", "place", "filler", "end", "place", "relocate", "end"]
        assert m.refusal is None and m.view["players"][m.seat]["score"] == m.board(m.seat).score()
        assert [t.piece for t in m.board(m.seat).tiles].count("F2") == 1


def test_the_menu_loads_no_network_library_and_play_online_says_when_it_cant_load(app, monkeypatch):
    """The menu (the built game's first frame) starts without websockets and its ssl, which in a built game need
    the computer's OpenSSL to be new enough; where they can't load, Play online says so and the menu stays."""
    import subprocess
    import sys
    from test_screens import frames
    loaded = subprocess.run([sys.executable, "-c", "import sys, nmbr9.scene.screens.menu; "
                             "print(sorted(m for m in ('ssl', 'websockets') if m in sys.modules))"],
                            capture_output=True, text=True, timeout=60)
    assert loaded.stdout.strip() == "[]", loaded.stdout + loaded.stderr
    from nmbr9.scene.screens.menu import MenuScreen
    menu = app.goto(MenuScreen)
    monkeypatch.setitem(sys.modules, "nmbr9.scene.screens.online", None)   # its import fails, as without OpenSSL 3.3
    menu.play_online()
    frames(app)
    assert app.screen is menu and "Play online can't start on this computer: " in texts(app)
