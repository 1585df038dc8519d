"""`nmbr9 bench server`: bot clients against a real server process (docs/serving.md).

Each game has P clients on one event loop, each laying a random legal tile as
soon as its card is known (full speed). Measured: placements a second, the
time from sending a move to its acknowledgement, reconnects, and placements
acknowledged but missing from the server's records (must be 0). With
--faults the server is killed (SIGKILL) and restarted mid-bench and clients
are cut off at random; every game must still end, and every record replay legal.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..rules.game import build_board
from ..rules.record import parse_move
from .client import Client, ServerError, board_of


class Tally:
    """What the bench measures, across all its clients."""

    def __init__(self):
        self.acked: list[tuple] = []      # (game code, seat, move) of every acknowledged placement
        self.latencies: list[float] = []  # seconds from sending a move to its acknowledgement
        self.clients: list[Client] = []   # clients playing now
        self.reconnects = 0
        self.games = 0


def next_move(view: dict, rng: random.Random, board=None) -> dict:
    """A random legal move for the seat's turn now (any ruleset; no Breaking Rules powers, no gap fillers), on
    `board` (the seat's, kept up to date by the caller) or the view's."""
    o = view["options"]
    move = {"round": view["round"], **({"slot": o["slot"]} if o["slot"] is not None else {})}
    if o["step"] == "extras":
        return {**move, "kind": "end"}
    if o["step"] == "decide" and not o["can_build"]:
        return {**move, "kind": "reject"}
    marker, digit = (rng.choice(o["choices"]) if o["step"] == "choose" else (o["marker"], o["digit"]))
    if marker is not None:
        move["marker"] = marker
    board = board or board_of(view, view["seat"])
    p = rng.choice(board.legal_placements(digit, max_level=o["max_level"]))
    return {**move, "digit": p.piece, "rotation": p.rotation, "x": p.x, "y": p.y}


async def lay(client: Client, rng: random.Random, tally: Tally, pace: float = 0.0) -> None:
    """Play this client's seat to the end of its game, a random legal move as soon as it may (or after `pace`
    seconds, as a player would think)."""
    board = None
    while True:
        view = client.view
        if view is None or view["state"] == "lobby" or view["options"]["step"] in ("done", "over") \
                and not view["over"]:
            await client.events.get()   # the start; in "Level to Level" the others finishing the round
            continue
        if view["over"]:
            return
        if pace:
            await asyncio.sleep(rng.uniform(pace / 2, pace * 3 / 2))
        if board is None or len(board.tiles) != len(view["moves"]) + bool(view.get("start_tiles")):
            board = board_of(view, view["seat"])   # (after a reconnect: as the server has it)
        t = time.perf_counter()
        reply = await client.play(next_move(view, rng, board))   # sent again by the client after a reconnect
        tally.latencies.append(time.perf_counter() - t)
        if reply["type"] != "ack":
            raise RuntimeError(f"a legal move was refused: {reply}")
        variant = view["ruleset"]["variant"]
        build_board([parse_move(0, m, variant) for m in reply["moves"]], board=board)
        tally.acked.extend((client.code, m["player"], json.dumps(m, sort_keys=True)) for m in reply["moves"])


async def seated(url: str, players: int, rng: random.Random) -> list[Client]:
    """Clients at a new started game; set up again if the server goes away meanwhile (fault mode): a lobby
    request whose answer was lost is not sent again (hosting twice would make two games)."""
    while True:
        clients = [Client(url, rng=random.Random(rng.random())) for _ in range(players)]
        try:
            for c in clients:
                await c.connect()
            me = await clients[0].host("Host")
            for i, c in enumerate(clients[1:], 1):
                await c.join(me["code"], f"Player {i + 1}")
            await clients[0].start()
            return clients
        except (ConnectionError, OSError, ServerError):
            for c in clients:
                await c.close()
            await asyncio.sleep(0.2)


async def one_game(url: str, players: int, rng: random.Random, tally: Tally, pace: float = 0.0) -> None:
    clients = await seated(url, players, rng)
    tally.clients += clients
    await asyncio.gather(*(lay(c, random.Random(rng.random()), tally, pace) for c in clients))
    for c in clients:
        tally.clients.remove(c)
        tally.reconnects += c.reconnects
        await c.close()
    tally.games += 1


class ServerProcess:
    """`nmbr9 serve` in a process of its own, on 127.0.0.1 (a free port the first time, the same one after)."""

    def __init__(self, data: Path, port: int = 0, *options: str):
        self.data, self.port, self.options = data, port, options
        self.proc = None
        self.cpu_at_start = 0.0   # the server's CPU seconds when it began listening (its start-up, left out)

    def cpu(self) -> float:
        """The server process's CPU seconds so far (user + system; Linux's /proc)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def start(self) -> int:
        self.proc = subprocess.Popen([sys.executable, "-m", "nmbr9", "serve", "--port", str(self.port),
                                      "--data", str(self.data), *self.options], stderr=subprocess.PIPE, text=True)
        for line in self.proc.stderr:
            m = re.search(r"listening on wss?://[\d.]+:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                self.cpu_at_start = self.cpu()
                break
        else:
            raise RuntimeError("the server did not start")
        # the rest of its log is read and dropped, so that it never blocks on a full pipe
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()
        return self.port

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> tuple[int, float]:
        """SIGTERM: (its exit status, its CPU seconds from listening to its end, getrusage)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.proc.send_signal(signal.SIGTERM)
        status = self.proc.wait(30)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)   # only this child was reaped meanwhile
        return status, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime - self.cpu_at_start


def check_records(data: Path, acked: list) -> tuple[int, int, list[str]]:
    """(records replaying legal and complete, acknowledged placements missing from them, problems)."""
    from ..rules.record import load_record, replay
    moves, good, problems = set(), 0, []
    for path in sorted((data / "records").glob("*.json")):
        rec = json.loads(path.read_text())
        code = rec["online"]["code"]
        moves |= {(code, m["player"], json.dumps(m, sort_keys=True)) for m in rec["moves"]}
        r = replay(load_record(path))
        if r.ok and r.game.over:
            good += 1
        else:
            problems.append(f"{path.name}: {r.to_json()}")
    return good, sum(1 for a in acked if a not in moves), problems


async def _bench(args, server: ServerProcess, tally: Tally) -> None:
    rng = random.Random(args.seed)
    url = f"ws://127.0.0.1:{server.port}"
    deadline = time.perf_counter() + args.seconds

    async def table(seed: float) -> None:
        rng = random.Random(seed)
        while True:
            await one_game(url, args.players, rng, tally, args.pace)
            if time.perf_counter() > deadline:
                return

    async def faults() -> None:
        """kill -9 a third of the way in and restart at once on the same port; cut clients off at random."""
        killed = False
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.uniform(0.05, 0.3))
            if tally.clients:
                rng.choice(tally.clients).drop()
            if not killed and time.perf_counter() > deadline - args.seconds * 2 / 3:
                server.kill()
                print("  server killed (SIGKILL), restarted", flush=True)
                await asyncio.to_thread(server.start)
                killed = True

    await asyncio.gather(*[table(rng.random()) for _ in range(args.games)], *([faults()] if args.faults else []))


def bench_server(args) -> int:
    if args.games < 1 or not 1 <= args.players <= 6 or args.seconds < 0:
        print("--games must be at least 1, --players 1 to 6, --seconds 0 or more")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        # every bench client comes from 127.0.0.1: the limits per address would refuse most of them
        server = ServerProcess(data, 0, "--max-connections-per-address", "0", "--max-games-per-address", "0")
        server.start()
        tally = Tally()
        print(f"bench server: {args.games} games x {args.players} players, {args.seconds:g} s"
              f"{f', a move every {args.pace:g} s' if args.pace else ', full speed'}"
              f"{', faults' if args.faults else ''}; load average before {os.getloadavg()[0]:.2f}", flush=True)
        t0 = time.perf_counter()
        asyncio.run(_bench(args, server, tally))
        wall = time.perf_counter() - t0
        status, cpu = server.stop()
        good, lost, problems = check_records(data, tally.acked)
        ms = sorted(x * 1000 for x in tally.latencies)
        q = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
        print(f"  games complete: {tally.games}, records replaying legal and complete: {good}")
        print(f"  placements: {len(ms)} in {wall:.1f} s = {len(ms) / wall:.0f}/s")
        print(f"  ack latency ms: p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {ms[-1]:.1f}")
        print(f"  server CPU after its start: {cpu:.2f} s = {cpu * 1000 / max(1, len(ms)):.2f} ms a placement"
              f" (getrusage)")
        print(f"  reconnects: {tally.reconnects}   lost placements: {lost}   server exit status {status}"
              f"   load average after {os.getloadavg()[0]:.2f}")
        for p in problems[:5]:
            print("  problem:", p)
        return 0 if lost == 0 and good == tally.games and not problems else 1
