"""The window's side of an online game: a seat played at the table, a server hosted in the window, the seat kept
for Continue. No panda3d here (the window's screens are in nmbr9/scene/screens/online.py).

`OnlineMatch` gives the table (SessionScreen, PlayScreen) what it asks of a local `Match`: the player's own
game is mirrored by a one-seat `Game` of the rules layer ("Level to Level": the seats' shared game as of the
player's round), rebuilt from the server's view, so the verdict on
every move of the tile shows at once; a confirmed tile goes to the server, which judges it again and answers;
the next card is known only from its answer. The others' boards are the server's view of them, as they stood
at the start of the player's round.
"""
from __future__ import annotations

import asyncio
import socket
import threading
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from ..match import BOTS, OVER, PLACE, Match, derive_seed
from ..rules import LEVEL_TO_LEVEL, Game, Seat
from ..rules.record import parse_move
from .client import ClientThread, ServerError, board_of
from .serve import DEFAULT_PORT
from .table import move_json, ruleset_from_json

LOST, FAILED = "lost", "failed"     # OnlineMatch.connection: trying again; can't go on (the seat refused)


def server_url(address: str) -> str:
    """What a player types ("192.168.1.5", "club.example:8779", "ws://...") as a server's address (port 8779
    unless given); ValueError if it is not one."""
    address = address.strip()
    parts = urlsplit(address if "://" in address else "ws://" + address)
    port = parts.port   # (ValueError for a port that is not a number from 0 to 65535)
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.path.strip("/") or " " in address:
        raise ValueError(address)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port or DEFAULT_PORT}"


def shown_address(url: str) -> str:
    """A server's address as read out: without ws://."""
    return url.split("://", 1)[-1]


def network_address() -> str:
    """This computer's address on its network (what another computer types); 127.0.0.1 where it has none.
    A UDP socket 'connected' sends nothing: it only picks the way out."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class HostedServer:
    """`nmbr9 serve` inside the window's process, on a thread of its own (Play online -> Host): the host's
    games are stored in `folder`, so Continue starts it again where they were. On 127.0.0.1 unless the
    player asks for the network (0.0.0.0); on port 8779, or any free one where that is taken. OSError if it
    can't listen."""

    def __init__(self, folder: Path, network: bool = False, port: int = DEFAULT_PORT):
        self.host = "0.0.0.0" if network else "127.0.0.1"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="nmbr9-server", daemon=True)
        self.thread.start()
        self.port = self._task = self._stop = None
        for tried in (port, 0):
            try:
                self.port = asyncio.run_coroutine_threadsafe(self._start(folder, tried), self.loop).result(30)
                return
            except OSError:
                if tried == 0:
                    self.stop()
                    raise

    async def _start(self, folder: Path, port: int) -> int:
        from .server import Server
        ready, self._stop = self.loop.create_future(), self.loop.create_future()
        task = asyncio.ensure_future(Server(folder).run(self.host, port, ready=ready.set_result, stop=self._stop))
        await asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()   # raises why it could not listen
        self._task = task
        return ready.result()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def address(self) -> str:
        """What the others type to join: this computer's network address, or 127.0.0.1 (this computer only)."""
        return f"{network_address() if self.host == '0.0.0.0' else '127.0.0.1'}:{self.port}"

    def stop(self) -> None:
        async def end():
            if self._task is not None:
                self._stop.set_result(None)
                await asyncio.gather(self._task, return_exceptions=True)
        try:
            asyncio.run_coroutine_threadsafe(end(), self.loop).result(10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


class Online:
    """What the window holds while it plays online: the connection, the server it hosts (or None), and the
    seat's record for Continue."""

    def __init__(self, net: ClientThread, seat: dict, server: HostedServer | None = None):
        self.net, self.server, self.seat = net, server, seat

    def stop(self) -> None:
        """Close both; the connection's goodbye is not waited for (to a server gone quiet it takes up to 10 s)."""
        threading.Thread(target=self.net.stop, name="nmbr9-net-stop", daemon=True).start()
        if self.server is not None:
            self.server.stop()


def further(view: dict) -> tuple:
    """How far on a view of a seat is: of two, the one sent later is further on or the same."""
    return len(view["moves"]), view["round"], view["over"], view["state"] == OVER


class SeatGame:
    """The mirror as the table reads a Game, the seat played (`seat`) answering as the mirror's player `me`: 0 in
    a one-seat mirror (its moves shown under the seat's number), the seat itself in "Level to Level"'s mirror of
    everyone's shared game. NMBR 9 ++'s play screen and panels, written for a seat of a Game, read and drive it
    unchanged. Any other seat acts as nobody (the rules refuse it as not their turn)."""
    ACTIONS = ("options", "check", "play", "decide", "choose", "reserve", "check_relocate", "relocate", "end_turn",
               "power_verdict", "movable_tiles", "relocation_targets", "reserve_loss", "legal_placements",
               "board_at_round")

    def __init__(self, game: Game, seat: int, turned: int):
        self.mirror, self.seat = game, seat
        self.me = seat if game.variant == LEVEL_TO_LEVEL else 0
        self.turned = turned   # the cards the server turned for the seat: past them the mirror's deck is a guess
        self.sending = False
        self._moves = ([], [])   # (the mirror's moves, the same under the seat's number), made once per move

    @property
    def known(self) -> bool:
        """Are this step's cards among those the server turned for the seat?"""
        if self.mirror.over:
            return False
        drawn = self.mirror.drawn if self.mirror.variant == LEVEL_TO_LEVEL else self.mirror._card_index() + 1
        return drawn <= self.turned

    @property
    def card(self) -> int | None:
        """The card turned now; None while the server has not turned it (a move on its way to it)."""
        return self.mirror.card if self.known else None

    @property
    def moves(self) -> list:
        """The mirror's moves, each under the seat's number as the table counts them (a one-seat mirror plays
        them as its player 0)."""
        if self.me == self.seat:
            return self.mirror.moves
        if len(self._moves[0]) != len(self.mirror.moves):
            played = list(self.mirror.moves)
            self._moves = played, [replace(m, player=self.seat) for m in played]
        return self._moves[1]

    def __getattr__(self, name):
        if name == "mirror":   # (not set yet: a copy being made)
            raise AttributeError(name)
        value = getattr(self.mirror, name)
        if name in self.ACTIONS:
            return lambda player, *args, **kw: value(self.me if player == self.seat else -1, *args, **kw)
        return value

    def waiting(self) -> list[int]:
        """The seat while it may act: no move on its way to the server (`sending`), and the card to decide on
        or lay (or, in "Level to Level", the cards to choose from) turned by the server."""
        return [self.seat] if self.me in self.mirror.waiting() and not self.sending and self.known else []

    def decided(self) -> dict:
        return {self.seat: d for i, d in self.mirror.decided().items() if i == self.me}

    @property
    def players(self):
        return AnySeat(self.mirror.players[0]) if self.me != self.seat else self.mirror.players

    @property
    def boards(self):
        return AnySeat(self.mirror.boards[0]) if self.me != self.seat else self.mirror.boards


class AnySeat(tuple):
    """The mirror's one player's state (or board) under any seat's number: the panels look it up both by
    the seat and by Options.player (0 in the mirror)."""

    def __new__(cls, item):
        return super().__new__(cls, (item,))

    def __getitem__(self, index):
        return super().__getitem__(0) if isinstance(index, int) else super().__getitem__(index)


class OnlineMatch(Match):
    """A seat of an online game as the table plays it (see the module's note): a Match of one's own mirrored
    game, whose other seats play on the server. In "Level to Level" (whose seats share one game, round by round)
    the mirror is that whole game as of the seat's round: the others' tiles of the rounds before, which activate
    the level markers as on the server, and the seat's own. Each action of the player that the record keeps (a
    tile, a gap filler, a reject, Reserve, Relocate, the end of a turn) is sent to the server, one at a time, the
    next once it is answered."""

    def __init__(self, net: ClientThread, view: dict):
        self.net = net
        self.view = view
        self.seat = view["seat"]
        self.code = view["code"]
        self.connection = None      # LOST while the client tries again, FAILED when it gave up
        self.refusal = None         # the server's reply to a tile it refused (said at the table)
        self.rebuilt = False        # the mirror was made again: the table takes its new board
        self.changed = False        # the others moved on: their scores and rounds to show again
        self.record = None          # the game record, once everyone is done (it holds the deck)
        self._sent = None           # the move sent, its answer to come (a future)
        self._asked = None          # the record asked for
        self._held = None           # a view pushed while a move waited for its answer
        self._mirror(view)
        super().__init__(self.game, derive_seed("online", self.code), extra={"online": self.code})

    def _mirror(self, view: dict) -> None:
        rules, deck, start = ruleset_from_json(view["ruleset"]), view["seen"] + view["supply"], view.get("start_tiles")
        if rules.variant == LEVEL_TO_LEVEL:   # everyone's moves, round by round (a stable sort keeps seat order)
            game = Game(self.seats, deck, rules, start)
            moves = sorted((m for s, p in enumerate(view["players"])
                            for m in (view["moves"] if s == self.seat else p["moves"])), key=lambda m: m["round"])
        else:
            game = Game([Seat(view["players"][self.seat]["name"], "human")], deck, rules,
                        [start[self.seat]] if start else None)
            moves = [{**m, "player": 0} for m in view["moves"]]
        for i, m in enumerate(moves):
            game.apply(parse_move(i, m, game.variant))
        self.mirror, self.game = game, SeatGame(game, self.seat, len(view["seen"]))

    def _mine(self) -> list[dict]:
        """The seat's moves on the mirror, as the server's view writes them."""
        return [move_json(m, self.seat) for m in self.mirror.moves if m.player == self.game.me]

    def waiting_for(self) -> list[int]:
        """The other seats the seat's next round waits for: in "Level to Level" those that still have to act in
        the round (elsewhere nobody waits for anyone until the end)."""
        if self.mirror.variant != LEVEL_TO_LEVEL:
            return []
        return [s for s, p in enumerate(self.view["players"]) if s != self.seat and p.get("due")]

    # ----- what the table asks -------------------------------------------------------
    @property
    def seats(self) -> list[Seat]:
        return [Seat(p["name"], p["kind"]) for p in self.view["players"]]

    @property
    def humans(self) -> list[int]:
        return [self.seat]

    @property
    def card(self) -> int | None:
        return None if self._sent is not None else self.game.card

    @property
    def over(self) -> bool:
        return self.record is not None

    @property
    def done(self) -> bool:
        """The player's own game is over (the others may still play)."""
        return self.mirror.over and self._sent is None

    def supply(self) -> list[int]:
        return list(self.view["supply"]) if self._sent is not None else self.mirror.supply()

    def seen(self) -> list[int]:
        return list(self.view["seen"])

    def waiting(self) -> list[int]:
        """The seat, while it may act: no move on its way, and the card to decide on or lay turned by the server
        (the mirror's deck past the cards turned is a guess)."""
        return self.game.waiting()

    @property
    def current_human(self) -> int | None:
        return self.seat if self.waiting() else None

    @property
    def phase(self) -> str:
        return OVER if self.over else PLACE if self.waiting() else BOTS

    @property
    def boards(self):
        return [self.board(s) for s in range(len(self.view["players"]))]

    def board(self, seat: int):
        return self.mirror.boards[self.game.me] if seat == self.seat else board_of(self.view, seat)

    def board_view(self, seat: int, viewer: int | None):
        return self.board(seat)

    def check(self, player: int, p, powers=(), reserved: bool = False):
        return self.game.check(self.seat, p, powers, reserved)

    def check_relocate(self, player: int, at, p):
        return self.game.check_relocate(self.seat, at, p)

    def play(self, player: int, p, powers=(), reserved: bool = False):
        """Lay the tile on the mirror (the rules' verdict) and send it; the next card comes with the answer."""
        return self._act_online("play", p, powers, reserved)

    def decide(self, player: int, build: bool):
        return self._act_online("decide", build)

    def choose(self, player: int, marker: int):
        return self._act_online("choose", marker)

    def reserve(self, player: int):
        return self._act_online("reserve")

    def relocate(self, player: int, at, p):
        return self._act_online("relocate", at, p)

    def end_turn(self, player: int):
        return self._act_online("end_turn")

    def _act_online(self, action: str, *args):
        """An action on the mirror (its verdict at once); what the record gained goes to the server. While a
        move waits for its answer the player waits too (the mirror's next card is a guess until then)."""
        v = getattr(self.game, action)(self.seat if self._sent is None else -1, *args)
        if v:
            self._send_next()
        return v

    def _send_next(self) -> None:
        """The mirror's first move the server's view lacks, if any, sent (one at a time: `seq` counts them)."""
        have, mine = len(self.view["moves"]), self._mine()
        if self._sent is None and len(mine) > have:
            self._sent = self.net.play(mine[have])
            self.game.sending = True

    def round_of(self, seat: int) -> tuple[int, bool]:
        """Where another player is: their round and whether their game is over."""
        p = self.view["players"][seat]
        return (self.mirror.round, self.mirror.over) if seat == self.seat else (p["round"], p["over"])

    # ----- each frame -----------------------------------------------------------------
    def update(self) -> bool:
        """What arrived from the server: never waits. False: no tiles of one's own were laid here.
        A view pushed while a move waits for its answer is taken after the answer if it is further on (the
        round moved on, in "Level to Level")."""
        for msg in self.net.poll():
            kind = msg.get("type")
            if kind == "reconnecting":
                self.connection = LOST
            elif kind in ("welcome", "view", "lobby"):
                self.connection = None
            if kind == "view":
                self._new_view(msg)
            elif kind in ("progress", "tiles"):   # the client merged it into its view
                self.view, self.changed = self.net.view or self.view, True
        if self.net.failed:
            self.connection = FAILED
        sent = self._sent
        if sent is not None and sent.done():
            self._sent, self.game.sending = None, False
            try:
                reply = sent.result()
            except (ConnectionError, ServerError):
                self.connection = FAILED
                reply = None
            if reply is not None and reply["type"] == "ack":
                self._new_view(reply["view"])
            elif reply is not None:   # the server's rules refused it: the mirror goes back to what it holds
                self.refusal = reply
                self._new_view(self.view, again=True)
            held, self._held = self._held, None
            if held is not None and further(held) > further(self.view):   # (not the one a resume pushed before)
                self._new_view(held)
        if self.view["state"] == OVER and self._sent is None and self.mirror.over and self.record is None:
            if self._asked is None:
                self._asked = self.net.record()
            elif self._asked.done():
                try:
                    self.record = self._asked.result()
                except (ConnectionError, ServerError):
                    self._asked = None   # asked again
        return False

    def _new_view(self, view: dict, again: bool = False) -> None:
        self.view, self.changed = view, True
        if self._sent is not None:   # the mirror is ahead: the answer brings the view that matches it
            self._held = view
            return
        mine, theirs = self._mine(), view["moves"]
        if not again and len(mine) > len(theirs) and mine[:len(theirs)] == theirs:
            self._send_next()   # one action made two moves: the next goes
        elif again or mine != theirs or (view["round"], view["over"]) != (self.mirror.round, self.mirror.over) \
                or self.mirror.variant == LEVEL_TO_LEVEL and self.mirror.seen() != view["seen"]:
            # "Level to Level": the others' tiles of the round just ended come with the next round (a mirror that
            # moved on by itself, everyone else skipped, laid out cards of its guessed deck)
            self._mirror(view)
            self.rebuilt = True
        else:   # the cards turned for this seat, the new one among them (the rest sorted: their order is unknown)
            self.mirror.deck[:] = view["seen"] + view["supply"]
            self.game.turned = len(view["seen"])
