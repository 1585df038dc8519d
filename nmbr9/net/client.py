"""The client library: what a window or a bot drives to play on a server (docs/protocol.md).

    client = Client("ws://192.168.1.5:8779")
    await client.connect()
    me = await client.host("Ana")                 # {"address", "code", "seat", "token", ...}: read out the code
    ... another: await Client(url).join(code, "Ben")
    await client.start()
    reply = await client.play({"round": 1, "digit": 3, "rotation": 0, "x": 0, "y": 0})   # ack or refused
    client.view                                   # the latest view of the game; every push is in client.events

A lost connection is retried by itself with growing pauses (and jitter from the
generator passed in); the seat is resumed by its token and a move not yet
acknowledged is sent again under its number, so it is made exactly once.
`ClientThread` runs a client beside a frame loop: calls return futures,
`poll()` hands over what arrived.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import random
import threading

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..rules.game import build_board
from ..rules.record import parse_move
from . import protocol as P

REPLIES = ("welcome", "ok", "ack", "refused", "record", "error")   # answers to a request, by its "id"
FATAL = ("bad_token", "no_game", "version", "replaced")      # a resume that can never work, or a seat taken elsewhere


def board_of(view: dict, seat: int):
    """A seat's board as a view shows it (its own board, or another's as of the viewer's round)."""
    moves = view["moves"] if seat == view["seat"] else view["players"][seat]["moves"]
    start = view.get("start_tiles")
    variant = view["ruleset"]["variant"]
    return build_board([parse_move(i, m, variant) for i, m in enumerate(moves)], start[seat] if start else None)


class ServerError(Exception):
    """The server refused a request: `reply` holds its code and sentence (protocol.say translates it)."""

    def __init__(self, reply: dict):
        super().__init__(reply.get("message", reply.get("code")))
        self.reply = reply
        self.code = reply.get("code")


class Client:
    def __init__(self, url: str, *, rng: random.Random | None = None, ssl=None, backoff=(0.05, 5.0),
                 on_event=None, open_timeout: float = 5.0):
        self.url = url
        self.rng = rng or random.Random(0)
        self.ssl, self.backoff, self.open_timeout = ssl, backoff, open_timeout
        self.code: str | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.view: dict | None = None
        self.lobby: dict | None = None
        self.events: asyncio.Queue = asyncio.Queue()
        self.on_event = on_event or self.events.put_nowait
        self.reconnects = 0
        self.seq = 0                   # this seat's moves acknowledged so far
        self.failed: dict | None = None   # why the seat can't be resumed (then the client stops)
        self._ws = None
        self._ids = 0
        self._pending: dict[int, asyncio.Future] = {}
        self._move: tuple[dict, asyncio.Future] | None = None   # the move in flight, sent again after a reconnect
        self._up = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closing = False

    # ----- the connection -----------------------------------------------------------
    async def connect(self) -> "Client":
        """Connect (the first time, an error if the server can't be reached); reconnects by itself after."""
        self._task = asyncio.ensure_future(self._run(await self._open()))
        return self

    async def _open(self):
        return await connect(self.url, ssl=self.ssl, max_size=2 ** 22, compression=None,
                             open_timeout=self.open_timeout)

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._task:
            self._task.cancel()   # (it may be waiting to reconnect)
            await asyncio.gather(self._task, return_exceptions=True)
        if self._move is not None and not self._move[1].done():
            self._move[1].set_exception(ConnectionError("the connection to the server was closed"))

    def drop(self) -> None:
        """Cut the connection as a network would (tests, the bench's fault mode): it is reconnected."""
        if self._ws is not None and self._ws.transport is not None:
            self._ws.transport.abort()

    async def _run(self, ws) -> None:
        attempt = 0
        while True:
            if ws is not None:
                attempt = 0
                self._ws = ws
                try:
                    if self.token:
                        self._send({"type": "resume", "version": P.VERSION, "code": self.code, "token": self.token,
                                    "id": self._id()})
                    if self._move is not None:
                        self._send(self._move[0])
                    self._up.set()
                    async for frame in ws:
                        self._receive(P.decode(frame))
                except ConnectionClosed:
                    pass
                self._up.clear()
                self._ws = None
                for f in self._pending.values():   # a request whose answer was lost: the caller decides
                    if not f.done():
                        f.set_exception(ConnectionError("the connection to the server was lost"))
                self._pending.clear()
            if self._closing or self.failed:
                break
            self.on_event({"type": "reconnecting", "attempt": attempt})
            low, high = self.backoff
            await asyncio.sleep(min(high, low * 2 ** attempt) * (0.5 + self.rng.random() / 2))
            attempt += 1
            try:
                ws = await self._open()
                self.reconnects += 1
            except (OSError, InvalidHandshake, InvalidURI, asyncio.TimeoutError):
                ws = None
        if self._move is not None and not self._move[1].done():
            self._move[1].set_exception(ConnectionError("the connection to the server was closed"))

    def _id(self) -> int:
        self._ids += 1
        return self._ids

    def _send(self, msg: dict) -> None:
        asyncio.ensure_future(self._send_now(msg))

    async def _send_now(self, msg: dict) -> None:
        try:
            await self._ws.send(P.encode(msg))
        except (ConnectionClosed, AttributeError):
            pass   # sent again, or failed, once the connection is back

    def _receive(self, msg: dict | None) -> None:
        if msg is None:
            return
        kind = msg.get("type")
        if kind == "welcome":
            self.code, self.seat, self.token = msg["code"], msg["seat"], msg["token"]
        if kind == "view" or kind == "ack" and "view" in msg:
            self.view = msg if kind == "view" else msg["view"]
            self.seq = len(self.view["moves"])
        if kind == "lobby":
            self.lobby = msg
        if kind in ("progress", "tiles") and self.view is not None:   # another player's round, and tiles now seen
            other = self.view["players"][msg["seat"]]
            other.update(round=msg["round"], over=msg["over"], due=msg.get("due", False))
            if kind == "tiles":
                other["moves"] = other["moves"] + msg["moves"]
                other["score"] = msg["score"]
        move = self._move
        if kind in ("ack", "refused") and move is not None and msg.get("seq") == move[0]["seq"]:
            self._move = None
            if not move[1].done():
                move[1].set_result(msg)
        elif kind == "error" and msg.get("code") in FATAL and self.token and msg.get("id") not in self._pending:
            self.failed = msg   # the seat's resume was refused: no use retrying
            if move is not None and not move[1].done():
                move[1].set_exception(ServerError(msg))
            self._move = None
        f = self._pending.pop(msg.get("id"), None) if kind in REPLIES else None
        if f is not None and not f.done():
            f.set_exception(ServerError(msg)) if kind == "error" else f.set_result(msg)
        if f is None and kind not in ("ack", "refused"):
            self.on_event(msg)

    async def request(self, msg: dict) -> dict:
        """Send and wait for the answer; ServerError if the server refuses it."""
        if self._ws is None:
            await asyncio.wait_for(self._up.wait(), 30)
        rid = self._id()
        fut = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        await self._send_now({**msg, "id": rid})
        return await fut

    # ----- what a player does -----------------------------------------------------------
    async def host(self, name: str, ruleset: dict | None = None) -> dict:
        """A new game on the server, this client at seat 0: its address and code to read out."""
        msg = {"type": "host", "version": P.VERSION, "name": name}
        if ruleset is not None:
            msg["ruleset"] = ruleset
        return {**await self.request(msg), "address": self.url}

    async def join(self, code: str, name: str) -> dict:
        return await self.request({"type": "join", "version": P.VERSION, "code": code, "name": name})

    async def resume(self, code: str, token: str) -> dict:
        """Take a seat again by its secret token (Continue)."""
        return await self.request({"type": "resume", "version": P.VERSION, "code": code, "token": token})

    async def add_bot(self, strength: str) -> None:
        await self.request({"type": "add_bot", "strength": strength})

    async def set_rules(self, ruleset: dict) -> None:
        await self.request({"type": "set_rules", "ruleset": ruleset})

    async def start(self) -> None:
        await self.request({"type": "start"})

    async def play(self, move: dict) -> dict:
        """One move (as a record writes it: {"round", "digit", "rotation", "x", "y"}, NMBR 9 ++ kinds too): the
        server's "ack" (with the new view) or "refused" (its code and sentence). Sent again after a lost
        connection until answered; made once."""
        if self._move is not None:
            raise RuntimeError("a move is already waiting for its answer")
        msg = {"type": "move", "seq": self.seq, "move": move}
        fut = asyncio.get_running_loop().create_future()
        self._move = (msg, fut)
        if self._ws is not None:
            await self._send_now(msg)
        return await fut

    async def record(self) -> dict:
        return (await self.request({"type": "record"}))["record"]

    async def rematch(self) -> dict:
        return await self.request({"type": "rematch"})


class ClientThread:
    """A Client on an event loop of its own thread, for a window's frame loop: each call returns a
    concurrent.futures.Future; `poll()` returns the pushes (lobby, view, progress, ...) that arrived."""

    def __init__(self, url: str, **kw):
        self.loop = asyncio.new_event_loop()
        self.inbox: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self.loop.run_forever, name="nmbr9-net", daemon=True)
        self.thread.start()
        self.client = self._call(self._make(url, kw)).result()

    async def _make(self, url, kw) -> Client:
        return Client(url, on_event=self.inbox.put, **kw)

    def _call(self, coro) -> concurrent.futures.Future:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def __getattr__(self, name):
        """The client's coroutines as calls returning futures (host, join, play, ...); its other attributes
        (view, lobby, seat, reconnects) as they are."""
        value = getattr(self.client, name)
        if not asyncio.iscoroutinefunction(value):
            return value
        return lambda *args, **kw: self._call(value(*args, **kw))

    def poll(self) -> list[dict]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def stop(self) -> None:
        self._call(self.client.close()).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
