"""Play online (issue 39): Host or Join, the lobby, the table and the end of a game played across computers.

Host starts a server in the window's own process (nmbr9/net/online.py, HostedServer: 127.0.0.1, or the
network when asked) and shows its address and the game's code to read out; Join types them. The lobby lists
who sits at the table; the host adds bots and starts. At the table each player lays each card at their own
pace: the verdicts come from the rules at once, the server judges each tile again and deals the next card.
Nothing here waits on the network: every request is a future looked at each frame (ClientThread).
A lost connection is tried again by itself and said in a note; Continue in the menu takes the seat again.
"""
from __future__ import annotations

from panda3d.core import TextNode

from ...ai import STRENGTHS
from ...i18n import N_, _
from ...match import Match, default_name, seat_name, seat_told, stored_name
from ...net import protocol as P
from ...net.client import FATAL, ClientThread, ServerError
from ...net.serve import DEFAULT_PORT
from ...net.online import FAILED, HostedServer, Online, OnlineMatch, server_url, shown_address
from ...net.seat import forget_seat, save_seat
from ...net.table import ruleset_from_json
from ...rules import Ruleset
from ...rules.game import BREAKING_RULES, CLASSIC, LEVEL_TO_LEVEL
from ...i18n.terms import name as term
from .menu import rules_text
from .plus_setup import RulesPicker, chosen_powers, rules_rows
from ..plus_play import PlusSessionScreen, is_plus
from .results import ResultsScreen
from .session import SessionScreen
from .widgets import ACCENT, DIM, GO, INK, NARROW, SMALL, WARN, WIDE, KeyMenu, Screen

ADD_BOT = {"easy": N_("Add an easy bot"), "medium": N_("Add a medium bot"), "hard": N_("Add a hard bot")}
STAYS = 3600.0   # seconds a note about the connection stays (until the next one replaces it)
HOST_PORT = DEFAULT_PORT   # where a hosted server listens (any free port where it is taken; tests: 0)


def why_not(error: BaseException, url: str) -> str:
    """A failed request in words: the server's refusal (wrong code, full, version), or no server there."""
    if isinstance(error, ServerError):
        return P.say(error.reply, _)
    return _("No game server answers at {address} ({reason}). Check the address, and that the host's window "
             "is open.").format(address=shown_address(url), reason=str(error) or _("no answer in time"))


def played_rules(rules: Ruleset) -> str:
    """The rules the host picked, in words, for the others in the lobby: variant, modules, powers."""
    words = rules_text(rules) or term(CLASSIC)
    if rules.uses(BREAKING_RULES):
        words += ": " + (", ".join(term(p) for p in rules.powers) if rules.powers else
                         _("two powers drawn at random"))
    return words


def lost_words(match) -> str:
    if match.connection == FAILED:
        reason = P.say(match.net.failed, _) if match.net.failed else _("the server closed the connection")
        return _("Can't play on: {reason}").format(reason=reason)
    return _("The connection to the server is lost: trying again by itself. Your confirmed tiles are safe.")


class Waiting:
    """A request under way, looked at each frame: `then(result)` when it is answered, `failed(error)` if not."""

    def __init__(self, screen, future, then, failed):
        self.future, self.then, self.failed = future, then, failed
        screen.base.taskMgr.add(self._look, f"online-wait-{id(self)}")

    def _look(self, task):
        if not self.future.done():
            return task.cont
        error = self.future.exception()
        self.failed(error) if error is not None else self.then(self.future.result())
        return task.done


class OnlineScreen(Screen):
    """Your name; Host (this computer, or the network); Join (address and code, remembered)."""
    name = "online"
    layouts = (WIDE, NARROW)

    def __init__(self, app, resume: dict | None = None):
        super().__init__(app)
        kept = app.settings.online or {}
        seats = (app.settings.new_game or {}).get("seats", [])
        self.player = kept.get("name") or next((s["name"] for s in seats if s["kind"] == "human"), "")
        self.address_text, self.code_text = kept.get("address", ""), kept.get("code", "")
        self.message, self.message_colour = "", WARN
        self.busy = False
        self.keys = None
        self.net = self.server = None
        self.resume = resume

    def enter(self) -> None:
        super().enter()
        if self.resume is not None:   # Continue: the seat kept
            seat = self.resume
            self._connect(seat["url"], lambda: self.net.resume(seat["code"], seat["token"]), seat.get("hosted"),
                          seat.get("network", False), seat.get("port", 0))

    def build(self) -> None:
        self.backdrop()
        narrow = self.narrow
        line, top, bottom = (1.8 if narrow else 2.4), self.room[1] - 0.16, -self.room[1]
        self.label(_("Play online"), (0, top), scale=0.08, bold=True)
        self.label(_("Each player lays the same cards on their own computer, at their own pace."),
                   (0, top - 0.11), scale=0.04, fg=DIM, wrap=line / 0.04)
        field = -0.15 if narrow else -0.35
        y = top - 0.3
        self.label(_("Your name:"), (field - 0.05, y), scale=0.05, align=TextNode.ARight)
        self.name_entry = self.name_field(seat_name(self.player, "human"), self._default, (field, y), width=0.9,
                                          scale=0.05)
        y -= 0.2
        self.label(_("Host a game"), (0, y), scale=0.055, bold=True, fg=ACCENT)
        y -= 0.13
        host_here = self.button(_("Host on this computer"), self.host, (-0.5 if not narrow else 0, y),
                                width=0.95, scale=0.045, args=(False,))
        if narrow:
            y -= 0.13
        host_net = self.button(_("Host for the network"), self.host, (0.5 if not narrow else 0, y), width=0.95,
                               scale=0.045, args=(True,))
        self.label(_("On this computer only another window here can join; for the network, others type the "
                     "address and code the lobby shows."), (0, y - 0.1), scale=SMALL, fg=DIM, wrap=line / SMALL)
        y -= 0.3
        self.label(_("Join a game"), (0, y), scale=0.055, bold=True, fg=ACCENT)
        y -= 0.13
        self.label(_("Address:"), (field - 0.05, y), scale=0.05, align=TextNode.ARight)
        self.address_entry = self.entry(self.address_text, (field, y), width=0.9, scale=0.05)
        y -= 0.12
        self.label(_("Code:"), (field - 0.05, y), scale=0.05, align=TextNode.ARight)
        self.code_entry = self.entry(self.code_text, (field, y), width=0.45, scale=0.05, command=self.join)
        join = self.button(_("Join"), self.join, (field + 0.75, y + 0.015), width=0.45, scale=0.05, colour=GO)
        y -= 0.15
        if self.message:
            self.label(self.message, (0, y), scale=0.042, fg=self.message_colour, wrap=line / 0.042)
        walk = [self.name_entry, host_here, host_net, self.address_entry, self.code_entry, join,
                self.button(_("Back (Esc)"), self.back, (0, bottom + 0.12), width=0.5, scale=0.05)]
        self.keys = KeyMenu(self, walk, self.keys.index if self.keys else 1)
        self.accept("escape", self.back)

    @staticmethod
    def _default() -> str:
        """The name played under when none is typed: New game's first seat's."""
        return default_name(0, "human")

    def keep(self) -> None:
        self.player = stored_name(self.name_entry.get().strip() or self._default())
        self.address_text, self.code_text = self.address_entry.get().strip(), self.code_entry.get().strip()

    def remember(self) -> None:
        kept = {"name": self.player, "address": self.address_text, "code": self.code_text}
        if kept != self.app.settings.online:
            self.app.save_settings(self.app.settings.changed(online=kept))   # kept, if the disk allows

    def say(self, text: str, colour=WARN) -> None:
        self.message, self.message_colour = text, colour
        self.keep()
        self.relabel()

    def back(self) -> None:
        if self.busy:
            return
        self.keep()
        self.remember()
        self.app.menu()

    def host(self, network: bool) -> None:
        self.keep()
        if self.busy:
            return
        self.remember()
        self._connect(None, lambda: self.net.host(seat_name(self.player, "human")), True, network, None)

    def join(self, *_args) -> None:
        self.keep()
        if self.busy:
            return
        try:
            url = server_url(self.address_text)
        except ValueError:
            self.say(_("Type the address the host reads out, like 192.168.1.5:8779."))
            return
        if not self.code_text:
            self.say(_("Type the game's code the host reads out."))
            return
        self.remember()
        self._connect(url, lambda: self.net.join(self.code_text, seat_name(self.player, "human")), False, False, None)

    def _connect(self, url, ask, hosted: bool, network: bool, port) -> None:
        """Start the server (hosting), connect, then `ask()` for a seat; the lobby once it is given."""
        self.busy = True
        self.say(_("Connecting…"), DIM)
        if hosted:
            try:
                self.server = HostedServer(self.app.store.folder / "server", network, port or HOST_PORT)
            except OSError as e:
                self.busy = False
                self.say(_("Can't start a server on this computer: {reason}").format(reason=e.strerror or e))
                return
            url = self.server.url
        self.net = ClientThread(url)
        Waiting(self, self.net.connect(), lambda _c: Waiting(self, ask(), self._seated, self._failed),
                self._failed)
        self.url, self.hosted, self.network = url, hosted, network

    def _failed(self, error) -> None:
        self._close()
        self.busy = False
        if self.resume is not None and isinstance(error, ServerError) and error.code in FATAL:
            forget_seat(self.app.store.folder)   # that seat is gone for good: Continue online no longer offers it
        self.say(why_not(error, self.url))

    def _close(self) -> None:
        if self.net is not None:
            self.net.stop()
        if self.server is not None:
            self.server.stop()
        self.net = self.server = None

    def _seated(self, welcome: dict) -> None:
        seat = {"url": self.url, "code": welcome["code"], "token": welcome["token"], "hosted": self.hosted,
                "network": self.network, "port": self.server.port if self.server else 0}
        save_seat(self.app.store.folder, seat)
        self.app.online = Online(self.net, seat, self.server)
        self.net = self.server = None   # the app holds them now
        self.app.goto(LobbyScreen)

    def exit(self) -> None:
        self._close()   # left while connecting
        super().exit()


class LobbyScreen(RulesPicker, Screen):
    """Who sits at the table; the host adds bots, picks the rules (New game's widgets) and starts; the others
    see the rules picked. The table comes as soon as the server deals."""
    name = "lobby"
    layouts = (WIDE, NARROW)

    def __init__(self, app):
        super().__init__(app)
        self.online = app.online
        self.lobby = self.online.net.lobby
        self.message = ""
        self.keys = None
        self._take_rules()

    def _take_rules(self) -> None:
        """The rules as the server holds them (picked by the host)."""
        rules = ruleset_from_json(self.lobby["ruleset"] if self.lobby else None)
        self.variant, self.modules, self.powers = rules.variant, list(rules.modules), list(rules.powers)

    def _read(self) -> None:
        pass   # nothing typed on this page

    def rules_changed(self) -> None:
        """The host picked: the server is told (its lobby, sent to everyone, shows it; a refusal is said)."""
        rules = Ruleset(self.variant, tuple(self.modules), chosen_powers(self))
        self.relabel()
        Waiting(self, self.online.net.set_rules(rules.to_json()), lambda _r: None, self._refused)

    def enter(self) -> None:
        super().enter()
        self.base.taskMgr.add(self._task, "lobby")

    def exit(self) -> None:
        self.base.taskMgr.remove("lobby")
        super().exit()

    @property
    def host(self) -> bool:
        return self.online.net.seat == 0

    def build(self) -> None:
        self.backdrop()
        line, top, bottom = 1.8, self.room[1] - 0.16, -self.room[1]
        self.label(_("Online game"), (0, top), scale=0.08, bold=True)
        code = self.online.seat["code"]
        server = self.online.server
        address = server.address() if server is not None else shown_address(self.online.seat["url"])
        self.label(_("Code: {code}").format(code=" ".join(code)), (0, top - 0.15), scale=0.075, bold=True,
                   fg=ACCENT)
        self.label(_("Address: {address}").format(address=address), (0, top - 0.26), scale=0.05)
        if server is not None:
            text = (_("Read out the address and the code: the others choose Play online, then Join.")
                    if server.host != "127.0.0.1" else
                    _("This computer only: another window here joins with this address and code."))
            self.label(text, (0, top - 0.35), scale=SMALL, fg=DIM, wrap=line / SMALL)
        self.walk = []   # the buttons, in the order the keyboard walks them (New game's rules' too)
        y = top - 0.5
        # the players at the left, the rules at the right (a tall window: the rules under the players)
        narrow = self.narrow
        players_x, rules_left, rules_width = (0, -0.9, 1.8) if narrow else (-0.95, -0.35, 1.65)
        self.label(_("Players"), (players_x, y), scale=0.05, bold=True)
        seats = self.lobby["seats"] if self.lobby else []
        self.app.trace("lobby", f"code={code}", f"address={address}", f"seats={len(seats)}",
                       f"rules={self.variant}+{'+'.join(self.modules)}+{'+'.join(self.powers)}")
        rules_y = y
        for s in seats:
            y -= 0.075
            me = s["seat"] == self.online.net.seat
            name = seat_told(s["name"], s["kind"])
            self.label(_("{name} (you)").format(name=name) if me else name, (players_x, y), scale=0.045,
                       fg=ACCENT if me else INK)
        if narrow:
            rules_y = y - 0.12
        if self.host:
            y = min(y, rules_rows(self, rules_y, rules_left, rules_width, 3))
        else:
            y = min(y, rules_y - 0.1 if not narrow else rules_y)
            self.label(_("Rules: {rules}").format(rules=played_rules(self.ruleset())), (rules_left, rules_y),
                       scale=0.042, align=TextNode.ALeft, wrap=rules_width / 0.042)
        y -= 0.12
        if self.host:
            full = self.lobby is not None and len(seats) >= self.lobby["capacity"]
            for i, strength in enumerate(STRENGTHS):
                self.button(_(ADD_BOT[strength]), self.add_bot, ((i - 1) * 0.58, y), width=0.55, scale=0.04,
                            args=(strength,), enabled=not full)
            y -= 0.13
            self.button(_("Start the game"), self.start, (0, y), width=0.7, scale=0.05, colour=GO)
            y -= 0.1
        else:
            self.label(_("Waiting for the host to start the game…"), (0, y), scale=0.045, fg=DIM, wrap=line / 0.045)
            y -= 0.1
        self.label(_("Each player lays each card at their own pace; only the end waits for everyone."), (0, y),
                   scale=SMALL, fg=DIM, wrap=line / SMALL)
        if self.message:
            self.label(self.message, (0, y - 0.12), scale=0.042, fg=WARN, wrap=line / 0.042)
        self.button(_("Leave (Esc)"), self.leave, (0, bottom + 0.12), width=0.5, scale=0.05)
        walk = self.walk
        self.keys = KeyMenu(self, walk, self.keys.index if self.keys else len(walk) - 2 if self.host else 0)
        self.accept("escape", self.leave)

    def _task(self, task):
        for msg in self.online.net.poll():
            kind = msg.get("type")
            if msg.get("code", self.online.seat["code"]) != self.online.seat["code"]:
                continue   # the game before a rematch: its last views and lobbies
            if kind == "lobby":
                self.lobby = msg
                self._take_rules()
                self.relabel()
            elif kind == "reconnecting":
                self.app.say(lambda: _("The connection to the server is lost: trying again by itself."), STAYS)
            elif kind == "welcome":
                self.app.say(lambda: _("Connected to the server again."))
            elif kind == "view":
                play_online(self.app, msg)
                return task.done
        return task.cont

    def add_bot(self, strength: str) -> None:
        Waiting(self, self.online.net.add_bot(strength), lambda _r: None, self._refused)

    def start(self) -> None:
        Waiting(self, self.online.net.start(), lambda _r: None, self._refused)

    def _refused(self, error) -> None:
        self.message = why_not(error, self.online.seat["url"])
        self._take_rules()   # (a refused pick: the rules stay the server's)
        self.relabel()

    def ruleset(self) -> Ruleset:
        return Ruleset(self.variant, tuple(self.modules), tuple(self.powers))

    def button(self, *args, **kw):
        b = super().button(*args, **kw)
        self.walk.append(b)   # in the order the keyboard walks them
        return b

    def leave(self) -> None:
        """Out of the game: the seat is given up (the host's server stops)."""
        forget_seat(self.app.store.folder)
        self.app.menu()


def play_online(app, view: dict) -> None:
    """The table of an online game (its results if it is over), from the server's view of the seat: NMBR 9 ++'s
    with its panels under ++ rules."""
    match = OnlineMatch(app.online.net, view)
    app.play(match, {"online": match.code}, OnlinePlusTableScreen if is_plus(match.game.ruleset) else
             OnlineTableScreen)


class OnlineTable:
    """What a table does for a seat played on the server (mixed into the classic and the ++ session): the
    others' scores and rounds at the right, the connection's notes, the server's refusals."""
    name = "online-play"
    said_done = False

    def _task(self, task):
        m = self.match
        shown = m.connection
        result = super()._task(task)
        if self.root is None:   # the results came
            return result
        if m.rebuilt:   # the server's board, not the one laid here: the table takes it
            m.rebuilt = False
            self.stop_player()
        if m.changed:
            m.changed, self.panel_key = False, None
        if m.refusal is not None:
            self.set_status(P.say(m.refusal, _), WARN)
            m.refusal = None
        if m.connection != shown or (m.connection and self.app.note is None):
            if m.connection:
                self.app.say(lambda: lost_words(m), STAYS)
            else:
                self.app.say(lambda: _("Connected to the server again."))
            if m.connection != shown:
                self.app.trace("online-connection", m.connection or "back")
        if m.done and not self.said_done:   # the end waits for everyone: said in the status
            self.said_done = True
            self.app.trace("online-waiting", f"round={m.round}")
        return result

    def _bots_text(self) -> str:
        m = self.match
        waiting_for = m.waiting_for() if not m.done and not m.game.sending else []
        if waiting_for:   # "Level to Level": the next round comes when everyone's turn is done
            return _("Your turn in round {round} is done: waiting for {players}.").format(
                round=m.round, players=", ".join(m.names[s] for s in waiting_for))
        if not m.done:
            return _("Sending your tile to the server…")
        playing = [_("{name}: round {round}").format(name=m.names[s], round=m.round_of(s)[0])
                   for s in range(len(m.seats)) if not m.round_of(s)[1]]
        return _("Your game is done: waiting for the others to finish ({players}).").format(
            players=", ".join(playing)) if playing else _("Everyone is done: the results are coming…")

    def score_row(self, who, name: str, score: int) -> str:
        m = self.match
        round_, over = m.round_of(who)
        if over:
            return _("{name}: {score} · done").format(name=name, score=score)
        if m.mirror.variant == LEVEL_TO_LEVEL:   # everyone plays the same round: a tick says who has built it
            return f"{name}: {score}" + ("" if m.view["players"][who].get("due") else " \u2713")
        return _("{name}: {score} · round {round}").format(name=name, score=score, round=round_)

    def look(self, who) -> None:
        """Another's board: as it stood at the start of your round; once your game is done, as it is now."""
        super().look(who)
        m = self.match
        if self.looking is not None and m.done:
            self.set_status(_("{name}'s board as it is now (score {score}). Esc, Tab or your own name: back to "
                              "your table").format(name=m.names[who], score=m.board(who).score()), ACCENT)

    def take_back(self) -> None:
        self.set_status(_("Tiles can't be taken back in an online game."), WARN)

    def to_menu(self) -> None:
        """The game goes on on the server: Continue online in the menu (lit) takes the seat again."""
        from .menu import MenuScreen
        self.app.menu_choice = MenuScreen.continue_online.__name__
        self.app.menu()

    def finish(self) -> None:
        m = self.match
        forget_seat(self.app.store.folder)
        self.app.goto(OnlineResultsScreen, match=Match.from_record(m.record), context={"online": m.code})


class OnlineTableScreen(OnlineTable, SessionScreen):
    """The NMBR 9 table, the seat played on the server."""


class OnlinePlusTableScreen(OnlineTable, PlusSessionScreen):
    """The NMBR 9 ++ table (powers, the card to build or reject, gap fillers, reserve), the seat played on the
    server."""


class OnlineResultsScreen(ResultsScreen):
    """The local results (the scores counted, the best found for the deck); Rematch sits at the next game."""

    def rematch(self) -> None:
        online = self.app.online
        if online is None:
            return
        Waiting(self, online.net.rematch(), self._at_rematch,
                lambda e: self.app.say(lambda: why_not(e, online.seat["url"])))

    def _at_rematch(self, welcome: dict) -> None:
        online = self.app.online
        if self.root is None or online is None:   # left meanwhile
            return
        online.seat = {**online.seat, "code": welcome["code"], "token": welcome["token"]}
        save_seat(self.app.store.folder, online.seat)
        self.app.goto(LobbyScreen)
