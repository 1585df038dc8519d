"""The game server: many online tables at once over websockets (docs/protocol.md); no panda3d.

One asyncio loop handles every connection; the rules layer judges each move
(`Table.act`), the store commits it, and only then is it acknowledged. Bots
think in a process of their own so that no table waits for them. A message
that can't be used gets an error and changes nothing; a frame over
MAX_MESSAGE or a flood closes that connection only.
"""
from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import json
import logging
import os
import random
import secrets
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from ..ai import STRENGTHS
from ..match import derive_seed, utc_now
from ..rules import Ruleset
from ..rules.record import RecordError
from ..rules.text import as_json
from . import protocol as P
from .store import Store
from .table import LOBBY, OVER, Table, ruleset_from_json, think, with_json

log = logging.getLogger("nmbr9.serve")
OUTBOX = 256          # messages waiting for a slow client; beyond them it is disconnected
MAX_CONNECTIONS = 64  # connections one address may hold at once (a club or family behind one router: several)
MAX_GAMES = 16        # games hosted from one address that are not over


class BadMessage(Exception):
    def __init__(self, error: str, **params):
        super().__init__(error)
        self.code, self.params = error, params


# a field's type as JSON names it, for the error sent back (not Python's 'str')
JSON_TYPES = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}


def need(msg: dict, key: str, kind, optional: bool = False):
    """The field `key` of the message, of type `kind`; BadMessage says which is missing or wrong."""
    if key not in msg and optional:
        return None
    v = msg.get(key)
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        raise BadMessage("bad_message", detail=f"'{key}' must be {JSON_TYPES.get(kind, 'a value of another type')}")
    return v


def player_name(msg: dict) -> str:
    name = " ".join(need(msg, "name", str).split())
    if not 1 <= len(name) <= P.MAX_NAME or not name.isprintable():
        raise BadMessage("bad_message", detail=f"'name' must be 1 to {P.MAX_NAME} printable characters")
    return name


class Outgoing:
    """What the server sends while moves wait for their commit (Server.flush, at the end of the loop's turn):
    held, in order, and sent once committed; what tells of a move whose commit failed is dropped."""

    def __init__(self):
        self.held: list[tuple] | None = None   # (connection, message, the table it tells about) while moves wait
        self.about: str | None = None          # the table whose moves the messages pushed now tell of


class Connection:
    """One client: the seat it plays (once joined), its outbox and its message allowance."""

    def __init__(self, ws, peer: str, address: str, outgoing: Outgoing):
        self.ws, self.peer, self.address, self.outgoing = ws, peer, address, outgoing
        self.code: str | None = None
        self.seat: int | None = None
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.allowance, self.last = float(P.BURST), asyncio.get_running_loop().time()

    def push(self, msg: dict | str) -> None:
        """Send `msg` (or its JSON text) once the moves it may tell of are committed."""
        self._out(msg if isinstance(msg, str) else P.encode(msg))

    def _out(self, item: str | tuple) -> None:
        if self.outgoing.held is not None:
            self.outgoing.held.append((self, item, self.outgoing.about))
        else:
            self.deliver(item)

    def deliver(self, item: str | tuple) -> None:
        """Queue a message's text, or close_after's close, for the writer."""
        if isinstance(item, tuple) or self.outbox.qsize() < OUTBOX:
            self.outbox.put_nowait(item)
        else:    # it reads nothing: the others must not wait for it
            asyncio.ensure_future(self.ws.close(1008, "too slow"))

    def within_rate(self) -> bool:
        now = asyncio.get_running_loop().time()
        self.allowance = min(P.BURST, self.allowance + (now - self.last) * P.RATE)
        self.last = now
        self.allowance -= 1
        return self.allowance >= 0

    def close_after(self, msg: dict, code: int, reason: str) -> None:
        """Send `msg` after what waits in the outbox, then close the connection with `code`."""
        self.push(msg)
        self._out((code, reason))

    async def write(self) -> None:
        try:
            while True:
                out = await self.outbox.get()
                if isinstance(out, tuple):   # close_after's close
                    await self.ws.close(*out)
                    return
                await self.ws.send(out)
        except ConnectionClosed:
            pass


class Server:
    def __init__(self, folder: Path, rng: random.Random | None = None, bot_processes: int = 1,
                 max_connections: int = MAX_CONNECTIONS, max_games: int = MAX_GAMES):
        """`rng` deals the games' seeds (a test passes a seeded one); tokens and codes are always secret.
        `max_connections` and `max_games` limit one address (0: no limit)."""
        self.folder = Path(folder)
        self.store = Store(self.folder)
        self.tables: dict[str, Table] = {t.code: t for t in self.store.load()}
        self.rng = rng or random.SystemRandom()
        self.seated: dict[tuple[str, int], Connection] = {}   # (code, seat) -> the connection playing it
        self.max_connections, self.max_games = max_connections, max_games
        self.connections: dict[str, int] = {}      # address -> its connections now
        self.hosted: dict[str, set[str]] = {}      # address -> codes of the games hosted from it since the start
        self.outgoing = Outgoing()
        self.staged: list[tuple] = []   # (code, connection or None for a bot, request id) of moves to commit
        self.ending: set[str] = set()   # games whose last move waits for its commit (then their record is written)
        self.thinking: set[tuple[str, int]] = set()
        self.bots: set[asyncio.Future] = set()      # the bots' turns under way
        self.pool = ProcessPoolExecutor(bot_processes, mp_context=get_context("spawn")) if bot_processes else None
        self.records = self.folder / "records"
        self.records.mkdir(exist_ok=True)

    # ----- running -----------------------------------------------------------------
    async def run(self, host: str, port: int, ssl=None, ready=None, stop: asyncio.Future | None = None) -> None:
        """Serve until `stop` is done; `ready(port)` is called once listening. Closes the server at the end."""
        try:
            await self._serve(host, port, ssl, ready, stop)
        finally:
            self.close()

    async def _serve(self, host, port, ssl, ready, stop) -> None:
        async with serve(self.handler, host, port, max_size=P.MAX_MESSAGE, compression=None, ssl=ssl,
                         ping_interval=20, ping_timeout=20) as server:
            port = server.sockets[0].getsockname()[1]
            log.info("listening on %s://%s:%d (%d games stored)", "wss" if ssl else "ws", host, port, len(self.tables))
            for t in self.tables.values():
                if any(c.kind != "human" for c in t.chairs):   # (their bots may have turns to play)
                    self.wake_bots(t.ready())
            if ready:
                ready(port)
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
            log.info("stopping")
            for task in self.bots:   # a bot's turn not yet stored is thought again after a restart
                task.cancel()
            await asyncio.gather(*self.bots, return_exceptions=True)

    def close(self) -> None:
        if self.outgoing.held is not None:
            self.flush()
        if self.pool:
            self.pool.shutdown(cancel_futures=True)
        self.store.close()
        log.info("%d moves stored in %d commits", self.store.committed, self.store.commits)
        log.info("stopped")

    async def handler(self, ws) -> None:
        address, port = ws.remote_address[:2] if ws.remote_address else ("?", 0)
        peer = f"{address}:{port}"
        conn = Connection(ws, peer, address, self.outgoing)
        writer = asyncio.ensure_future(conn.write())
        log.info("connect %s", peer)
        self.connections[address] = self.connections.get(address, 0) + 1
        try:
            if 0 < self.max_connections < self.connections[address]:
                log.info("too many connections from %s: closed", address)
                conn.close_after(P.error("too_many_connections", most=self.max_connections), 1013, "try again later")
                await writer
                return
            async for frame in ws:
                if not conn.within_rate():
                    conn.push(P.error("flood"))
                    log.info("flood from %s: closed", peer)
                    await asyncio.sleep(0)
                    # its unread frames stand before its answer to our close: don't wait for it
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(ws.close(1008, "flood"), 0.2)
                    ws.transport.abort()
                    break
                self.receive(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            self.connections[address] -= 1
            if not self.connections[address]:
                del self.connections[address]
            self.unbind(conn)
            await asyncio.sleep(0)   # the last replies leave before the writer stops
            writer.cancel()
            log.info("disconnect %s (code %s)", peer, getattr(ws, "close_code", None))

    def receive(self, conn: Connection, frame) -> None:
        """One message: its reply, or an error; never an exception out of here."""
        msg = P.decode(frame)
        rid = msg.get("id") if msg is not None else None
        try:
            if msg is None:
                raise BadMessage("bad_json")
            kind = msg.get("type")
            handler = HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise BadMessage("unknown_type", type=as_json(kind))
            if kind not in ("host", "join", "resume") and conn.code is None:
                raise BadMessage("not_joined")
            handler(self, conn, msg, rid)
        except BadMessage as e:
            conn.push({**P.error(e.code, **e.params), "id": rid})
        except Exception:   # a bug: said in the log, the connection and every other table go on
            log.exception("error handling a message from %s", conn.peer)
            conn.push({**P.error("bad_message", detail="the server failed on it"), "id": rid})

    # ----- helpers ---------------------------------------------------------------
    def table(self, conn: Connection) -> Table:
        return self.tables[conn.code].ready()

    def find(self, code: str | None) -> Table | None:
        t = self.tables.get(code)
        return t.ready() if t is not None else None

    def unbind(self, conn: Connection) -> None:
        if conn.code is not None and self.seated.get((conn.code, conn.seat)) is conn:
            del self.seated[conn.code, conn.seat]
        conn.code = conn.seat = None

    def bind(self, conn: Connection, t: Table, seat: int, rid) -> None:
        """`conn` plays `seat` from now on; a connection that played it before is told why and closed (one
        connection a seat: no move of it is judged twice, nor sent from two places)."""
        self.unbind(conn)
        old = self.seated.get((t.code, seat))
        if old is not None:
            self.unbind(old)
            old.close_after(P.error("replaced"), 1000, "the seat is played from another connection")
            log.info("game %s: seat %d taken over from %s by %s", t.code, seat, old.peer, conn.peer)
        conn.code, conn.seat = t.code, seat
        self.seated[t.code, seat] = conn
        conn.push({"type": "welcome", "id": rid, "code": t.code, "seat": seat, "token": t.chairs[seat].token,
                   "host": seat == 0, "version": P.VERSION})

    def send(self, t: Table, seat: int, msg: dict | str) -> None:
        c = self.seated.get((t.code, seat))
        if c is not None:
            c.push(msg)

    def lobby_changed(self, t: Table) -> None:
        msg = t.lobby()
        for seat in range(len(t.chairs)):
            self.send(t, seat, msg)

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(P.CODE_LETTERS) for _ in range(P.CODE_LENGTH))
            if code not in self.tables:
                return code

    def new_table(self, rules: Ruleset, conn: Connection) -> Table:
        """A new game hosted from `conn`'s address, within its limit of games not over."""
        hosted = self.hosted.setdefault(conn.address, set())
        hosted -= {code for code in hosted if self.tables[code].state == OVER}
        if 0 < self.max_games <= len(hosted):
            log.info("too many games hosted from %s: refused", conn.address)
            raise BadMessage("too_many_games", most=self.max_games)
        t = Table(self.new_code(), rules, utc_now())
        self.store.add_table(t)
        self.tables[t.code] = t
        hosted.add(t.code)
        return t

    def seat(self, t: Table, name: str, kind: str) -> int:
        if len(t.chairs) >= t.capacity:
            raise BadMessage("full")
        seat = t.sit(name, kind, secrets.token_urlsafe(18))
        self.store.add_chair(t, seat)
        return seat

    def host_only(self, conn: Connection, lobby: bool = True) -> Table:
        t = self.table(conn)
        if conn.seat != 0:
            raise BadMessage("not_host")
        if lobby and t.state != LOBBY:
            raise BadMessage("started")
        return t

    # ----- the messages ---------------------------------------------------------------
    def on_host(self, conn, msg, rid) -> None:
        check_version(msg)
        name = player_name(msg)
        try:
            rules = ruleset_from_json(msg.get("ruleset"))
        except ValueError as e:
            raise BadMessage("bad_rules", problem=str(e)) from None
        t = self.new_table(rules, conn)
        self.bind(conn, t, self.seat(t, name, "human"), rid)
        log.info("game %s hosted by %r from %s (%s)", t.code, name, conn.peer, json.dumps(rules.to_json()))
        self.lobby_changed(t)

    def on_join(self, conn, msg, rid) -> None:
        check_version(msg)
        code, name = need(msg, "code", str).strip().upper(), player_name(msg)
        t = self.find(code)
        if t is None:
            raise BadMessage("no_game", code=code[:12])
        if t.state != LOBBY:
            raise BadMessage("started")
        seat = self.seat(t, name, "human")
        self.bind(conn, t, seat, rid)
        log.info("game %s: %r joined as seat %d from %s", t.code, name, seat, conn.peer)
        self.lobby_changed(t)

    def on_resume(self, conn, msg, rid) -> None:
        check_version(msg)
        code, token = need(msg, "code", str).strip().upper(), need(msg, "token", str)
        t = self.find(code)
        if t is None:
            raise BadMessage("no_game", code=code[:12])
        seat = t.seat_of(token)
        if seat is None:
            log.info("game %s: wrong token from %s", code, conn.peer)
            raise BadMessage("bad_token")
        self.bind(conn, t, seat, rid)
        log.info("game %s: seat %d resumed from %s", t.code, seat, conn.peer)
        conn.push(t.lobby() if t.state == LOBBY else t.view_text(seat))

    def on_add_bot(self, conn, msg, rid) -> None:
        t = self.host_only(conn)
        strength = need(msg, "strength", str)
        if strength not in STRENGTHS:
            raise BadMessage("bad_message", detail=f"'strength' must be one of {', '.join(STRENGTHS)}")
        bots = sum(c.kind.startswith("bot") for c in t.chairs)
        seat = self.seat(t, f"Bot {bots + 1}", f"bot:{strength}")
        log.info("game %s: bot:%s sits at seat %d", t.code, strength, seat)
        conn.push({"type": "ok", "id": rid})
        self.lobby_changed(t)

    def on_set_rules(self, conn, msg, rid) -> None:
        t = self.host_only(conn)
        try:
            rules = ruleset_from_json(msg.get("ruleset"))
        except ValueError as e:
            raise BadMessage("bad_rules", problem=str(e)) from None
        t.rules = rules
        self.store.set_rules(t)
        log.info("game %s: rules %s", t.code, json.dumps(rules.to_json()))
        conn.push({"type": "ok", "id": rid})
        self.lobby_changed(t)

    def on_start(self, conn, msg, rid) -> None:
        t = self.host_only(conn)
        try:
            t.start(self.rng.randrange(2 ** 32))
        except ValueError as e:    # too many players for the variant
            t.state, t.games = LOBBY, []
            raise BadMessage("bad_rules", problem=str(e)) from None
        self.store.started(t)
        log.info("game %s started: %d players", t.code, len(t.chairs))
        conn.push({"type": "ok", "id": rid})
        for seat in range(len(t.chairs)):
            self.send(t, seat, t.view_text(seat))
        self.wake_bots(t)

    def on_move(self, conn, msg, rid) -> None:
        t = self.table(conn)
        if t.state == LOBBY:
            raise BadMessage("not_started")
        seq, move = need(msg, "seq", int), need(msg, "move", dict)
        seat = conn.seat
        if "player" in move and move["player"] != seat:
            raise BadMessage("wrong_seat", seat=seat, player=str(move["player"])[:12])
        mine = t.moves_of(seat)
        if seq < len(mine) and seq >= 0:   # sent again after a lost connection: it was made
            if self.outgoing.held is not None:   # (perhaps in the commit to come)
                self.staged.append((t.code, conn, rid))
            with self.about(t):
                conn.push(with_json({"type": "ack", "id": rid, "seq": seq, "moves": [mine[seq]], "again": True},
                                    view=t.view_text(seat)))
            return
        if seq != len(mine):
            raise BadMessage("bad_seq", seq=seq, expected=len(mine))
        before = [t.progress(s) for s in range(len(t.chairs))]
        try:
            verdict, added = t.act(seat, move)
        except RecordError as e:
            raise BadMessage("bad_message", detail=str(e)) from None
        if not verdict:
            conn.push({"type": "refused", "id": rid, "seq": seq, **P.verdict_json(verdict)})
            return
        self.stage(t, seat, added, conn, rid)
        with self.about(t):
            conn.push(with_json({"type": "ack", "id": rid, "seq": seq, "moves": added}, view=t.view_text(seat)))
            self.moved(t, seat, before, added)

    def on_record(self, conn, msg, rid) -> None:
        t = self.table(conn)
        if t.state != OVER:
            raise BadMessage("not_over")
        conn.push({"type": "record", "id": rid, "record": t.record()})

    def on_rematch(self, conn, msg, rid) -> None:
        t = self.table(conn)
        if t.state == LOBBY or not t.game_of(conn.seat)[0].over:   # whoever is done need not wait for the rest
            raise BadMessage("not_over")
        me = t.chairs[conn.seat]
        new = self.find(t.rematch)
        if new is None:
            new = self.new_table(t.rules, conn)
            t.rematch = new.code
            self.store.set_rematch(t)
            log.info("game %s: rematch is game %s", t.code, new.code)
            self.bind(conn, new, self.seat(new, me.name, "human"), rid)
            for c in t.chairs:
                if c.kind != "human":
                    self.seat(new, c.name, c.kind)
            for seat in range(len(t.chairs)):
                self.send(t, seat, {"type": "rematch", "code": new.code})
        else:
            if new.state != LOBBY:
                raise BadMessage("started")
            self.bind(conn, new, self.seat(new, me.name, "human"), rid)
        self.lobby_changed(new)

    # ----- after a move -----------------------------------------------------------------
    def stage(self, t: Table, seat: int, added: list[dict], conn: Connection | None = None, rid=None) -> None:
        """The moves one action made go into the commit at the end of this loop turn (flush), one for all the
        moves made meanwhile; until it, everything sent waits (Outgoing), so nothing tells of an uncommitted move."""
        self.store.add_moves(t, seat, added)
        self.staged.append((t.code, conn, rid))
        if self.outgoing.held is None:
            self.outgoing.held = []
            asyncio.get_running_loop().call_soon(self.flush)
        if log.isEnabledFor(logging.DEBUG):   # (not made into JSON for nothing: the server's time is moves')
            log.debug("game %s: seat %d %s", t.code, seat, json.dumps(added))

    @contextlib.contextmanager
    def about(self, t: Table):
        """What is pushed meanwhile tells of `t`'s new moves: dropped if their commit fails."""
        self.outgoing.about = t.code
        try:
            yield
        finally:
            self.outgoing.about = None

    def flush(self) -> None:
        """Commit the moves staged in this loop turn, then send what waited. If the commit fails, their games go
        back to what the database holds: each mover is told `storage` and every seat there gets its view again."""
        held, staged, ending = self.outgoing.held or [], self.staged, self.ending
        self.outgoing.held, self.staged, self.ending = None, [], set()
        failed = set()
        try:
            self.store.commit()
        except Exception:
            failed = {code for code, _conn, _rid in staged}
            log.exception("storing moves failed; games %s are read back from the database", ", ".join(failed))
            again = Store(self.folder)
            try:
                self.tables.update({x.code: x for x in again.load() if x.code in failed})
            finally:
                again.close()
        for conn, item, about in held:
            if about not in failed:
                conn.deliver(item)
        for code, conn, rid in staged:
            if conn is not None and code in failed:
                conn.push({**P.error("storage"), "id": rid})
        for code in failed:
            t = self.find(code)
            for seat in range(len(t.chairs)):
                self.send(t, seat, t.view_text(seat))
            self.wake_bots(t)
        for code in ending - failed:
            self.finished(self.tables[code])

    def moved(self, t: Table, mover: int, before: list[tuple], added: list[dict]) -> None:
        """Tell the others: a new view to whoever's own game moved on ("Level to Level") or ended; to whoever
        may now see a tile the mover laid (of a round before theirs) that tile; else the mover's progress."""
        g, _i = t.game_of(mover)
        note = {"type": "progress", "seat": mover, "round": g.round, "over": g.over, "due": t.due(mover)}
        for s in range(len(t.chairs)):
            if s == mover:
                continue
            upto = t.seen_before(s)
            shown = [m for m in added if m["round"] < upto]
            if t.state == OVER or t.progress(s) != before[s]:
                self.send(t, s, t.view_text(s))
            elif shown:
                self.send(t, s, {**note, "type": "tiles", "moves": shown, "score": t.score_seen(mover, upto)})
            elif before[mover] != t.progress(mover):
                self.send(t, s, note)
        if t.state == OVER:
            self.send(t, mover, t.view_text(mover))
            self.ending.add(t.code)   # its record is written once its last move is committed
        self.wake_bots(t)

    def finished(self, t: Table) -> None:
        path = self.records / f"{t.code}.json"
        tmp = path.with_suffix(".tmp")
        # compact: indented, it took Python's slow encoder 5 ms a game, a tenth of the game's moves' time
        tmp.write_text(json.dumps(t.record()), encoding="utf-8")
        os.replace(tmp, path)
        log.info("game %s over: scores %s, record %s", t.code, t.scores(), path)

    def wake_bots(self, t: Table) -> None:
        for seat, c in enumerate(t.chairs):
            key = (t.code, seat)
            if c.kind.startswith("bot:") and t.due(seat) and key not in self.thinking:
                self.thinking.add(key)
                self.bots.add(asyncio.ensure_future(self.bot_turns(t, seat)))

    async def bot_turns(self, t: Table, seat: int) -> None:
        """A bot plays while it has something to do, each turn thought out away from the loop."""
        loop = asyncio.get_running_loop()
        try:
            while t.due(seat):
                g, i = t.game_of(seat)
                work = functools.partial(think, copy.deepcopy(g), i, t.chairs[seat].kind.removeprefix("bot:"),
                                         derive_seed(t.seed, "bot", seat, g.step))
                actions = await (loop.run_in_executor(self.pool, work) if self.pool else asyncio.to_thread(work))
                if self.tables.get(t.code) is not t or not t.due(seat):
                    return
                before = [t.progress(s) for s in range(len(t.chairs))]
                added = t.act_bot(seat, actions)
                self.stage(t, seat, added)
                with self.about(t):
                    self.send(t, seat, t.view_text(seat))
                    self.moved(t, seat, before, added)
        except Exception:
            log.exception("game %s: the bot at seat %d failed", t.code, seat)
        finally:
            self.thinking.discard((t.code, seat))
            self.bots.discard(asyncio.current_task())


def check_version(msg: dict) -> None:
    v = msg.get("version")
    if v != P.VERSION or isinstance(v, bool):
        raise BadMessage("version", found=str(v)[:12], version=P.VERSION)


HANDLERS = {"host": Server.on_host, "join": Server.on_join, "resume": Server.on_resume,
            "add_bot": Server.on_add_bot, "set_rules": Server.on_set_rules, "start": Server.on_start,
            "move": Server.on_move, "record": Server.on_record, "rematch": Server.on_rematch}
