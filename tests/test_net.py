"""The game server and its clients, for real: websockets on 127.0.0.1, random ports (issue 39)."""
from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from nmbr9.net import protocol as P
from nmbr9.net.bench import ServerProcess, Tally, check_records, lay, next_move
from nmbr9.net.client import Client, ServerError, board_of
from nmbr9.net.server import Server
from nmbr9.rules.record import parse_record, replay


@asynccontextmanager
async def serving(folder: Path, seed: int = 1, **limits):
    """A server in this event loop on a free port: (its ws:// address, the Server)."""
    server = Server(folder, rng=random.Random(seed), bot_processes=0, **limits)
    loop = asyncio.get_running_loop()
    ready, stop = loop.create_future(), loop.create_future()
    task = asyncio.ensure_future(server.run("127.0.0.1", 0, ready=ready.set_result, stop=stop))
    port = await asyncio.wait_for(ready, 10)
    try:
        yield f"ws://127.0.0.1:{port}", server
    finally:
        stop.set_result(None)
        await asyncio.wait_for(task, 10)


class Listener(Client):
    """A client that keeps every message it receives, to be inspected."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.received: list[dict] = []

    def _receive(self, msg):
        self.received.append(msg)
        super()._receive(msg)


async def table(url: str, names, rules=None, bots=()) -> list[Client]:
    """Clients seated at one new game (the first hosts), bots added, the game started."""
    clients = [Listener(url, rng=random.Random(i)) for i, _ in enumerate(names)]
    for c in clients:
        await c.connect()
    me = await clients[0].host(names[0], rules)
    for c, name in zip(clients[1:], names[1:]):
        await c.join(me["code"].lower(), name)     # codes are read out: any case will do
    for strength in bots:
        await clients[0].add_bot(strength)
    await clients[0].start()
    for c in clients:
        while c.view is None:
            await asyncio.wait_for(c.events.get(), 10)
    return clients


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_a_whole_game_every_message_hides_the_cards_to_come(tmp_path):
    """Three players and a server bot play to the end; no message tells a player a card before its round."""
    async def main():
        async with serving(tmp_path) as (url, server):
            clients = await table(url, ["Ana", "Ben", "Cy"], bots=["easy"])
            tally = Tally()
            rng = random.Random(6)
            for _ in range(6):   # Ana runs ahead: what the others are sent must not tell them her tiles to come
                reply = await clients[0].play(next_move(clients[0].view, rng))
                tally.acked += reply["moves"]
            await asyncio.gather(*(lay(c, random.Random(7 + i), tally, pace=0.01 * i) for i, c in enumerate(clients)))
            while clients[0].view["state"] != "over":        # the bot may still be playing
                await asyncio.wait_for(clients[0].events.get(), 30)
            record = await clients[0].record()
            for c in clients:
                await c.close()
            return clients, record, tally
    clients, record, tally = run(main())
    deck = record["deck"]
    assert len(tally.acked) == 60                       # 20 tiles for each human, each acknowledged
    for c in clients:
        mine = [m for m in c.received if m.get("type") != "record"]
        known = 1
        for m in mine:
            text = json.dumps(m)
            assert '"deck"' not in text
            if m["type"] == "tiles" and known:          # another's tiles, once this player is past their round
                assert all(x["round"] < known for x in m["moves"])
            view = m.get("view", m) if m.get("type") in ("view", "ack") else None
            if view is None or view["over"]:
                known = None if view else known         # over: everything may be seen
                continue
            known = view["round"]                       # classic: the cards of rounds 1..round
            assert view["seen"] == deck[:known]
            assert view["options"]["digit"] == deck[known - 1]
            assert view["supply"] == sorted(deck[known:])
            for p in view["players"]:                   # the others' tables as of this round
                assert all(x["round"] < known for x in p["moves"])
                assert {x["digit"] for x in p["moves"]} <= set(deck[:known - 1])
                assert p["score"] == board_of(view, p["seat"]).score()   # the score too: as of this round
    # the record replays legal, to the scores the last views showed
    r = replay(parse_record(record))
    assert r.ok and r.game.over and r.game.scores() == clients[0].view["scores"]
    assert record["players"][3] == {"name": "Bot 1", "kind": "bot:easy"}
    assert (tmp_path / "records" / f"{record['online']['code']}.json").exists()


def test_each_sees_the_others_as_of_their_own_round(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            fast, slow = await table(url, ["Fast", "Slow"])
            rng = random.Random(3)
            for _ in range(5):
                assert (await fast.play(next_move(fast.view, rng)))["type"] == "ack"
            await asyncio.sleep(0.1)   # the progress note reaches the slow one
            before = slow.view, [m for m in slow.received if m.get("type") == "progress"]
            await slow.play(next_move(slow.view, rng))
            await asyncio.sleep(0.1)   # Fast's new view: Slow's round-1 tile is one of a round before Fast's
            return fast.view, before, slow.view
    fast, (slow_before, notes), slow_after = run(main())
    ahead = slow_before["players"][0]
    assert ahead["round"] == 6 and ahead["moves"] == [] and ahead["score"] == 0   # how far, not what
    assert notes[-1] == {"type": "progress", "seat": 0, "round": 6, "over": False, "due": True}
    seen = slow_after["players"][0]
    assert [m["round"] for m in seen["moves"]] == [1] and seen["round"] == 6
    assert [m["round"] for m in fast["players"][1]["moves"]] == [1] and fast["players"][1]["round"] == 2
    assert board_of(fast, 0).score() == fast["players"][0]["score"]


def test_seats_are_played_only_with_their_token(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            ana, ben = await table(url, ["Ana", "Ben"])
            codes = {}
            thief = Client(url)
            await thief.connect()
            with pytest.raises(ServerError) as e:
                await thief.resume(ana.code, "not-" + ben.token)
            codes["resume, wrong token"] = e.value.code
            move = next_move(ana.view, random.Random(1))
            with pytest.raises(ServerError) as e:
                await ben.request({"type": "move", "seq": 0, "move": {**move, "player": 0}})
            codes["move for another seat"] = e.value.code
            late = Client(url)
            await late.connect()
            with pytest.raises(ServerError) as e:
                await late.join(ana.code, "Late")
            codes["join after the start"] = e.value.code
            with pytest.raises(ServerError) as e:
                await ben.start()
            codes["start by a guest"] = e.value.code
            # the right token takes the seat from another connection, and plays it
            ben.backoff = (60, 60)   # (told its seat is played elsewhere, today's client would take it back)
            again = Client(url)
            await again.connect()
            welcome = await again.resume(ana.code, ben.token)
            await asyncio.sleep(0.05)
            reply = await again.play(next_move(again.view, random.Random(2)))
            return codes, welcome, reply, ana.view
    codes, welcome, reply, ana_view = run(main())
    assert codes == {"resume, wrong token": "bad_token", "move for another seat": "wrong_seat",
                     "join after the start": "started", "start by a guest": "not_host"}
    assert welcome["seat"] == 1 and reply["type"] == "ack" and reply["moves"][0]["player"] == 1


def test_illegal_placements_are_refused_by_code_and_change_nothing(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            (ana,) = await table(url, ["Ana"])
            first = ana.view["options"]["digit"]
            p = board_of(ana.view, 0).legal_placements(first)[0]
            assert (await ana.play({"round": 1, "digit": first, "rotation": p.rotation, "x": 0, "y": 0}))["type"] == "ack"
            card = ana.view["options"]["digit"]
            tries = {"far away": {"round": 2, "digit": card, "rotation": 0, "x": 40, "y": 40},
                     "on top of the first": {"round": 2, "digit": card, "rotation": 0, "x": 0, "y": 0, "level": 0},
                     "another number": {"round": 2, "digit": (card + 1) % 10, "rotation": 0, "x": 40, "y": 40},
                     "turned 45": {"round": 2, "digit": card, "rotation": 45, "x": 40, "y": 40},
                     "next round's": {"round": 3, "digit": card, "rotation": 0, "x": 40, "y": 40}}
            out = {}
            for what, move in tries.items():
                reply = await ana.play(move)
                out[what] = (reply["type"], reply["code"], reply["message"])
            return out, ana.view, await ana.play(next_move(ana.view, random.Random(1)))
    out, view, reply = run(main())
    assert {k: v[:2] for k, v in out.items()} == {
        "far away": ("refused", "not_adjacent"), "on top of the first": ("refused", "overlap"),
        "another number": ("refused", "wrong_digit"), "turned 45": ("refused", "bad_rotation"),
        "next round's": ("refused", "wrong_turn")}
    assert all(v[2] for v in out.values())                  # each with a sentence
    assert view["round"] == 2 and len(view["moves"]) == 1   # nothing changed
    assert reply["type"] == "ack" and reply["seq"] == 1


def test_hostile_input_gets_an_error_or_a_closed_connection_and_other_games_play_on(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            ana, ben = await table(url, ["Ana", "Ben"])
            out, said = {}, {}
            async with connect(url) as ws:
                for what, frame in {"not JSON": "{nope", "a list": "[1, 2]", "binary": b"\x00\x01",
                                    "unknown": '{"type": "teleport"}', "no type": '{"seq": 1}',
                                    "move first": '{"type": "move", "seq": 0, "move": {}}',
                                    "old version": '{"type": "join", "version": 0, "code": "X", "name": "Eve"}',
                                    "name a list": '{"type": "host", "version": 1, "name": ["Eve"]}',
                                    "rules wrong": '{"type": "host", "version": 1, "name": "Eve", '
                                                   '"ruleset": {"variant": "chess"}}',
                                    "no such game": '{"type": "join", "version": 1, "code": "ZZZZZZ", "name": "Eve"}',
                                    "odd token": json.dumps({"type": "resume", "version": 1, "code": ana.code,
                                                             "token": "\u00e9\ud800"}),
                                    }.items():
                    await ws.send(frame)
                    said[what] = json.loads(await ws.recv())
                    out[what] = said[what]["code"]
                # seated, then moves of every wrong shape
                await ws.send(json.dumps({"type": "host", "version": 1, "name": "Eve"}))
                json.loads(await ws.recv()), json.loads(await ws.recv())
                await ws.send('{"type": "start"}')
                while json.loads(await ws.recv())["type"] != "view":
                    pass
                for what, move in {"seq text": {"seq": "0", "move": {}}, "move a list": {"seq": 0, "move": []},
                                   "x text": {"seq": 0, "move": {"round": 1, "digit": 1, "rotation": 0, "x": "0",
                                                                 "y": 0}},
                                   "huge x": {"seq": 0, "move": {"round": 1, "digit": 1, "rotation": 0,
                                                                 "x": 10 ** 40, "y": 0}},
                                   "seq ahead": {"seq": 5, "move": {}}}.items():
                    await ws.send(json.dumps({"type": "move", **move}))
                    out[what] = json.loads(await ws.recv())["code"]
            async with connect(url, max_size=None) as ws:   # a frame over the limit: closed
                await ws.send("x" * (P.MAX_MESSAGE + 1))
                with pytest.raises(ConnectionClosed) as e:
                    await ws.recv()
                out["too big"] = e.value.rcvd.code
            async with connect(url) as ws:                  # a flood: an error, then closed
                for _ in range(P.BURST * 3):
                    await ws.send('{"type": "unknown"}')
                codes = []
                with pytest.raises(ConnectionClosed) as e:
                    while True:
                        codes.append(json.loads(await ws.recv())["code"])
                out["flood"] = (codes[-1], e.value.rcvd.code)
            reply = await ana.play(next_move(ana.view, random.Random(1)))
            return out, said, reply
    out, said, reply = run(main())
    # said in JSON's words, not Python's ('teleport', 'str')
    assert '"teleport"' in said["unknown"]["message"] and "'name' must be a string" in said["name a list"]["message"]
    assert out == {"not JSON": "bad_json", "a list": "bad_json", "binary": "bad_json", "unknown": "unknown_type",
                   "no type": "unknown_type", "move first": "not_joined", "old version": "version",
                   "name a list": "bad_message", "rules wrong": "bad_rules", "no such game": "no_game", "odd token": "bad_token",
                   "seq text": "bad_message", "move a list": "bad_message", "x text": "bad_message",
                   "huge x": "bad_message", "seq ahead": "bad_seq", "too big": 1009, "flood": ("flood", 1008)}
    assert reply["type"] == "ack"   # the other game never noticed


def test_kill_9_and_restart_lose_nothing_acknowledged_and_the_game_goes_on(tmp_path):
    server = ServerProcess(tmp_path)
    port = server.start()

    async def main():
        url = f"ws://127.0.0.1:{port}"
        clients = await table(url, ["Ana", "Ben", "Cy"], bots=["medium"])   # the bot thinks in its own process
        tally = Tally()
        rng = random.Random(5)
        for c in clients:
            for _ in range(3 + clients.index(c)):
                reply = await c.play(next_move(c.view, rng))
                tally.acked += [(c.code, m["player"], json.dumps(m, sort_keys=True)) for m in reply["moves"]]
        server.kill()
        await asyncio.sleep(0.3)
        await asyncio.to_thread(server.start)            # same port, same data
        await asyncio.gather(*(lay(c, random.Random(9 + i), tally) for i, c in enumerate(clients)))
        while clients[0].view["state"] != "over":        # the bot plays on after the restart too
            await asyncio.wait_for(clients[0].events.get(), 60)
        reconnects = [c.reconnects for c in clients]
        for c in clients:
            await c.close()
        return tally, reconnects

    try:
        tally, reconnects = run(main())
    finally:
        assert server.stop()[0] == 0                         # SIGTERM: a clean stop
    good, lost, problems = check_records(tmp_path, tally.acked)
    assert reconnects == [1, 1, 1] and len(tally.acked) == 60
    assert (good, lost, problems) == (1, 0, [])
    record = json.loads(next((tmp_path / "records").glob("*.json")).read_text())
    assert sum(m["player"] == 3 for m in record["moves"]) == 20


def drawn_by_round(record: dict) -> dict[int, int]:
    """"Level to Level": how many cards of the record's deck are turned once each round has begun."""
    from nmbr9.rules import Game
    played = replay(parse_record(record)).game
    game = Game(played.seats, record["deck"], played.ruleset, played.start_tiles)
    drawn = {1: game.drawn}
    for m in played.moves:
        game.apply(m)
        drawn.setdefault(game.round, game.drawn)
    return drawn


def hides_the_cards_to_come(view: dict, deck: list[int], drawn: dict[int, int]) -> bool:
    """A "Level to Level" view of a game not over tells the cards of the rounds begun, and the others' tiles of
    the rounds before, no more."""
    turned = drawn[view["round"]]
    return view["seen"] == deck[:turned] and view["supply"] == sorted(deck[turned:]) and \
        all(m["round"] < view["round"] for p in view["players"] for m in p["moves"])


def test_rematch_and_level_to_level_round_by_round(tmp_path):
    rules = {"variant": "level_to_level", "modules": []}
    clients = []
    async def main():
        async with serving(tmp_path) as (url, server):
            ana, ben = await table(url, ["Ana", "Ben"], rules=rules)
            clients.extend((ana, ben))
            rng = random.Random(4)
            await ana.play(next_move(ana.view, rng))
            waiting = ana.view["options"]["step"]           # the round goes on when Ben has laid too
            tally = Tally()
            await asyncio.gather(lay(ana, random.Random(1), tally), lay(ben, random.Random(2), tally))
            record = await ben.record()
            first = await ben.rematch()
            second = await ana.rematch()
            await asyncio.sleep(0.05)
            return waiting, record, first, second, ana.lobby
    waiting, record, first, second, lobby = run(main())
    assert waiting == "done"
    assert replay(parse_record(record)).ok and record["ruleset"]["variant"] == "level_to_level"
    drawn = drawn_by_round(record)   # every message either seat got hid the cards of the rounds to come
    views = [m.get("view", m) for c in clients for m in c.received if m.get("type") in ("view", "ack")]
    assert len(views) > 20 and all(hides_the_cards_to_come(v, record["deck"], drawn) for v in views if not v["over"])
    assert all('"deck"' not in json.dumps(m) for c in clients for m in c.received if m.get("type") != "record")
    assert first["code"] == second["code"] != record["online"]["code"]
    assert (first["seat"], second["seat"], first["host"]) == (0, 1, True)
    assert [s["name"] for s in lobby["seats"]] == ["Ben", "Ana"] and lobby["ruleset"] == rules


def test_nmbr9_serve_never_imports_panda3d_and_stops_on_sigterm(tmp_path):
    code = ("import sys, os, signal, threading, time\n"
            "def stop():\n"
            "    while signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:   # until serve takes SIGTERM\n"
            "        time.sleep(0.05)\n"
            "    print('panda3d' in sys.modules, flush=True)\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "threading.Thread(target=stop, daemon=True).start()\n"
            "from nmbr9.cli import main\n"
            f"sys.exit(main(['serve', '--port', '0', '--data', {str(tmp_path)!r}]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "False"
    log = out.stderr.splitlines()
    assert "listening on ws://127.0.0.1:" in log[0] and log[-1].endswith("stopped")


def test_six_play_a_round_and_each_is_sent_the_tiles_of_those_behind_once_they_lay_them(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            clients = await table(url, ["Ana", "Ben", "Cy", "Di", "Ed", "Flo"])
            rng = random.Random(2)
            replies = [await c.play(next_move(c.view, rng)) for c in clients]
            await asyncio.sleep(0.1)
            return replies, [c.view for c in clients]
    replies, views = run(main())
    assert [r["type"] for r in replies] == ["ack"] * 6
    assert [v["round"] for v in views] == [2] * 6
    # Ana laid first; the others' round-1 tiles came to her as they laid them
    assert [len(p["moves"]) for p in views[0]["players"]] == [1] * 6


def test_a_full_lobby_refuses_a_seventh(tmp_path):
    async def main():
        async with serving(tmp_path) as (url, server):
            host = Client(url)
            await host.connect()
            me = await host.host("Ana")
            for _ in range(5):
                await host.add_bot("easy")
            guest = Client(url)
            await guest.connect()
            with pytest.raises(ServerError) as e:
                await guest.join(me["code"], "Gus")
            with pytest.raises(ServerError) as too_many:   # "2 of 3" is for at most four
                await host.set_rules({"variant": "two_of_three", "modules": []})
                await host.start()
            return e.value.code, too_many.value.code
    assert run(main()) == ("full", "bad_rules")


def test_a_window_drives_the_client_from_its_frame_loop_over_tls(tmp_path):
    """ClientThread: calls from a plain thread return futures; poll() hands over what arrived. The server speaks
    TLS (--cert/--key) and the client trusts its certificate."""
    import ssl
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    server = ServerProcess(tmp_path / "data", 0, "--cert", str(cert), "--key", str(key))
    port = server.start()
    context = ssl.create_default_context(cafile=str(cert))
    from nmbr9.net.client import ClientThread
    window = ClientThread(f"wss://127.0.0.1:{port}", ssl=context)
    try:
        window.connect().result(10)
        me = window.host("Ana").result(10)
        window.start().result(10)
        arrived, deadline = [], time.monotonic() + 10
        while not any(m["type"] == "view" for m in arrived) and time.monotonic() < deadline:
            arrived += window.poll()   # a frame's worth of what came
            time.sleep(0.01)
        view = next(m for m in arrived if m["type"] == "view")
        reply = window.play(next_move(view, random.Random(1))).result(10)
        seat, reconnects = window.seat, window.reconnects
    finally:
        window.stop()
        assert server.stop()[0] == 0
    assert me["address"].startswith("wss://") and len(me["code"]) == P.CODE_LENGTH
    assert [m["type"] for m in arrived][:2] == ["lobby", "view"]
    assert reply["type"] == "ack" and reply["view"]["round"] == 2
    assert (seat, reconnects) == (0, 0)


def test_nmbr9_serve_says_what_is_wrong_with_its_options(tmp_path, capsys):
    from nmbr9.cli import main
    (tmp_path / "a file").write_text("")
    said = {}
    for what, args in {"port": ["--port", "70000"], "data": ["--data", str(tmp_path / "a file"), "--port", "0"],
                       "tls": ["--cert", "c.pem", "--port", "0"],
                       "limit": ["--max-games-per-address", "-1", "--port", "0"]}.items():
        status = main(["serve", *args])
        said[what] = (status, capsys.readouterr().err.strip())
    assert said["port"] == (2, "The port must be a number from 0 to 65535.")
    assert said["data"][0] == 2 and said["data"][1].startswith(f"Can't use the data folder {tmp_path / 'a file'}: ")
    assert said["tls"] == (2, "TLS needs both --cert and --key.")
    assert said["limit"] == (2, "A limit per address must be 0 (none) or more.")


def test_nmbr9_plus_rules_played_online_at_each_ones_pace_replay_legal(tmp_path):
    rules = {"variant": "two_of_three", "modules": ["start_tiles", "gap_fillers", "breaking_rules"]}
    async def main():
        async with serving(tmp_path) as (url, server):
            ana, ben = await table(url, ["Ana", "Ben"], rules=rules)
            tally = Tally()
            await asyncio.gather(lay(ana, random.Random(1), tally), lay(ben, random.Random(2), tally, pace=0.002))
            return await ana.record(), ana.view
    record, view = run(main())
    r = replay(parse_record(record))
    assert r.ok and r.game.over and r.game.scores() == view["scores"]
    assert len(record["ruleset"]["powers"]) == 2 and len(set(record["start_tiles"])) == 2   # drawn, dealt
    assert {m.get("kind") for m in record["moves"]} == {None, "end"}   # tiles, and turns ended with fillers left
    assert {m["slot"] for m in record["moves"]} == {0, 1, 2}


def test_level_to_level_a_refused_tile_does_not_bind_its_marker():
    """A tile refused under one level marker leaves the player free to take another marker's tile."""
    from nmbr9.net.table import Table, ruleset_from_json
    t = Table("ABCDEF", ruleset_from_json({"variant": "level_to_level", "modules": []}), "now")
    for name in ("Ana", "Ben"):
        t.sit(name, "human", name)
    t.start(11)
    rng = random.Random(3)
    while len(t.view(0)["options"]["choices"]) < 2:   # from round 3 a second marker shows a tile
        for seat in (0, 1):
            v, _ = t.act(seat, next_move(t.view(seat), rng))
            assert v
    view = t.view(0)
    (first, digit), (other, _) = view["options"]["choices"][:2]
    far = {"round": view["round"], "marker": first, "digit": digit, "rotation": 0, "x": 99, "y": 99}
    refused, added = t.act(0, far)
    again = next_move(view, rng)
    while again.get("marker") != other:
        again = next_move(view, rng)
    accepted, _ = t.act(0, again)
    assert (refused.code, added, accepted.code) == ("not_adjacent", [], None)


def test_a_move_the_database_refuses_is_not_made_and_the_game_goes_on(tmp_path):
    import sqlite3

    async def main():
        async with serving(tmp_path) as (url, server):
            (ana,) = await table(url, ["Ana"])
            rng = random.Random(4)
            await ana.play(next_move(ana.view, rng))
            commit = server.store.commit

            def full_disk(*args):
                server.store.staged = []
                raise sqlite3.OperationalError("database or disk is full")
            server.store.commit = full_disk
            move = next_move(ana.view, rng)
            with pytest.raises(ServerError) as e:
                await ana.request({"type": "move", "seq": 1, "move": move})
            server.store.commit = commit
            view = server.tables[ana.code].ready().view(0)
            reply = await ana.play(move)
            return e.value.code, view, reply
    code, view, reply = run(main())
    assert code == "storage"
    assert view["round"] == 2 and len(view["moves"]) == 1      # not made: the table is what the database holds
    assert reply["type"] == "ack" and reply["seq"] == 1         # the same move, sent again, is made


def test_one_address_holds_a_limited_number_of_connections_and_hosted_games(tmp_path):
    async def main():
        async with serving(tmp_path, max_connections=3, max_games=2) as (url, server):
            ana, ben = Client(url), Client(url)
            await ana.connect(), await ben.connect()
            async with connect(url) as third:
                async with connect(url) as fourth:   # one too many from 127.0.0.1: told why, then closed
                    said = json.loads(await asyncio.wait_for(fourth.recv(), 10))
                    with pytest.raises(ConnectionClosed) as e:
                        await fourth.recv()
                    closed = e.value.rcvd.code
            games = [(await ana.host("Ana"))["code"], (await ben.host("Ben"))["code"]]
            with pytest.raises(ServerError) as e:
                await ana.host("Ana")
            refused = e.value.reply
            await ben.start()   # Ben plays his game alone to its end: then Ana may host again
            await lay(ben, random.Random(3), Tally())
            again = await ana.host("Ana")
            for c in (ana, ben):
                await c.close()
            return said, closed, refused, again, games
    said, closed, refused, again, games = run(main())
    assert (said["code"], closed) == ("too_many_connections", 1013)
    assert said["message"] == "Too many connections from your address (at most 3): close one and try again."
    assert refused["code"] == "too_many_games" and "already hosts 2 games" in refused["message"]
    assert again["seat"] == 0 and again["code"] not in games


def test_a_seat_resumed_on_a_second_connection_leaves_the_first_and_no_move_is_made_twice(tmp_path):
    """Ben's old connection sends a move and, before its answer, his seat is resumed elsewhere and the same
    move sent again (as after a lost connection): it is made once; the old connection is told why, closed, and
    does not take the seat back (two windows on one seat would otherwise take it from each other for ever)."""
    async def main():
        async with serving(tmp_path) as (url, server):
            ana, ben = await table(url, ["Ana", "Ben"])
            move = next_move(ben.view, random.Random(4))
            first = asyncio.ensure_future(ben.play(move))
            await asyncio.sleep(0)
            newer = Listener(url, backoff=(60, 60))
            await newer.connect()
            welcome = await newer.resume(ben.code, ben.token)
            again = await newer.request({"type": "move", "seq": 0, "move": move})
            told = await asyncio.wait_for(ben.events.get(), 10)
            while told["type"] != "error":
                told = await asyncio.wait_for(ben.events.get(), 10)
            await asyncio.wait_for(ben._task, 10)   # ben's client stops rather than resume the seat again
            gone = (ben.failed, ben.reconnects)
            reply = await newer.play(next_move(newer.view, random.Random(5)))
            made = server.tables[ben.code].moves_of(1)
            for c in (ana, ben, newer):
                await c.close()
            return welcome, first.result(), again, told, gone, reply, made
    welcome, first, again, told, gone, reply, made = run(main())
    assert welcome["seat"] == 1 and first["type"] == "ack"
    assert again["type"] == "ack" and again["again"] and again["moves"] == first["moves"]
    assert told["code"] == "replaced" and gone == (told, 0)
    assert told["message"] == "Your seat is now played from another window or computer: this connection was closed."
    assert reply["type"] == "ack" and reply["seq"] == 1
    assert [m["round"] for m in made] == [1, 2]   # round 1's tile once
