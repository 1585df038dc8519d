"""New game (and new tournament): 1 to 6 seats, each a name and human or bot, an optional seed. A new game or
tournament is NMBR 9's or RumBugz's (the tabs at the top): RumBugz takes 2 to 6 seats and a number of rounds (a
game) instead of NMBR 9's rules."""
from __future__ import annotations

from panda3d.core import TextNode

from ...ai import STRENGTHS
from ...i18n import _
from ...i18n.terms import name as term
from ...match import default_name, stored_name, strength_name
from ...rules import Ruleset, Seat
from ...rules.game import VARIANT_MAX_PLAYERS
from ...rules.text import as_json
from .plus_setup import RulesPicker, chosen_powers, rules_rows
from ...rumbugz.game import DEFAULT_ROUNDS, check_rounds
from ...rumbugz.play import GameRules
from .widgets import BUTTON, DIM, GO, NARROW, SMALL, WARN, WIDE, KeyMenu, Screen

MAX_SEATS = 6
ROW_TOP = 0.6                # the first seat's height in a window of 16:9 or 4:3
ROW_STEP = 0.095
START_POS = (0.95, -0.85)    # the e2e test clicks Start here (a 16:9 or 4:3 window)


def kind_names() -> dict[str, str]:
    names = {"human": _("Human")}
    for s in STRENGTHS:
        names[f"bot:{s}"] = _("Bot, {strength}").format(strength=strength_name(f"bot:{s}"))
    return names


class SetupScreen(RulesPicker, Screen):
    name = "setup"
    layouts = (WIDE, NARROW)

    def __init__(self, app, tournament: bool = False):
        super().__init__(app)
        self.tournament = tournament
        self.rows: list[dict] = [{"name": "", "kind": "human"}]
        self.seed_text = ""
        self.games_text, self.best_text = "3", ""
        self.practice = False
        self.variant = "classic"
        self.modules: list[str] = []
        self.powers: list[str] = []      # Breaking Rules powers chosen (none: two drawn at random)
        last = app.settings.new_game   # the last game's seats and rules: typed names are not typed again
        if last:
            self.rows = [dict(seat) for seat in last["seats"]]
            self.variant, self.modules, self.powers = last["variant"], list(last["modules"]), list(last["powers"])
            self.practice = last["practice"]
        self.message = ""
        self.rumbugz = False             # RumBugz's setup (its tab) rather than NMBR 9's
        self.rounds_text = str(DEFAULT_ROUNDS)
        self.keys = None    # the keyboard's place on the page, kept when a change rebuilds it
        from .menu import game_it_ends
        self.replaces = game_it_ends(app)   # a tournament's first game ends it too

    def button(self, *args, **kw):
        b = super().button(*args, **kw)
        self.walk.append(b)   # in the order the keyboard walks them
        return b

    def entry(self, *args, **kw):
        e = super().entry(*args, **kw)
        self.walk.append(e)
        return e

    def build(self) -> None:
        """One column of rows, top to bottom; a tall window's layout is narrower and takes more lines."""
        self.walk = []
        self.backdrop()
        narrow = self.narrow
        left = -0.9 if narrow else -1.2      # the page's left and right edges
        line, top = -2 * left, self.room[1] - 0.16
        title = _("New tournament") if self.tournament else _("New game")
        self.label(title, (0, top), scale=0.08, bold=True)
        tab_w = 0.4 if narrow else 0.5   # a tall window: clear of the title ("New tournament" is the longest)
        tab_x = -left - tab_w / 2 - 0.05
        for x, text, rumbugz in ((-tab_x, "NMBR 9", False), (tab_x, "RumBugz", True)):
            self.button(text, self.choose_game, (x, top + 0.012), width=tab_w, scale=0.045, args=(rumbugz,),
                        colour=GO if rumbugz == self.rumbugz else BUTTON)
        self.label(_("Players sit in this order; each round the humans pass the table along.") if not self.rumbugz
                   else _("RumBugz: 2 to 6 players; a hand-off screen hides each rack between two humans."),
                   (0, top - 0.11), scale=0.038, fg=DIM, wrap=line / 0.038)
        kinds = kind_names()
        self.entries = []
        # a seat: number, name, kind, Remove (x of the name's left edge and width, the kind's and Remove's centres)
        name_x, name_w, kind_x, kind_w, remove_x, remove_w = ((-0.84, 0.72, 0.22, 0.6, 0.74, 0.42) if narrow else
                                                              (-1.12, 0.85, 0.2, 0.65, 0.85, 0.42))
        y = top - (0.33 if narrow else 0.24)   # ROW_TOP in a 16:9 or 4:3 window
        for i, row in enumerate(self.rows):
            self.label(f"{i + 1}.", (name_x - 0.06, y), scale=0.05, align=TextNode.ARight)
            e = self.name_field(row["name"], lambda i=i: default_name(i, self.rows[i]["kind"]), (name_x, y),
                                width=name_w, scale=0.045)
            self.entries.append(e)
            self.button(kinds[row["kind"]], self.cycle_kind, (kind_x, y + 0.012), width=kind_w, scale=0.042, args=(i,))
            if len(self.rows) > self.least_seats():
                self.button(_("Remove"), self.remove, (remove_x, y + 0.012), width=remove_w, scale=0.04, args=(i,))
            y -= ROW_STEP
        if len(self.rows) < MAX_SEATS:
            self.button(_("Add a player"), self.add, (name_x + name_w / 2, y + 0.012), width=name_w, scale=0.042)
        y = top - 0.24 - MAX_SEATS * ROW_STEP - (0.15 if narrow else 0.05)   # below the sixth seat's place
        self.label(_("Seed (optional, same seed same deck):"), (left, y), scale=0.042, align=TextNode.ALeft,
                   wrap=line / 0.042)
        if narrow:
            y -= 0.09
        self.seed_entry = self.entry(self.seed_text, (left if narrow else 0.1, y), width=0.5, scale=0.045)
        y -= 0.11
        if self.tournament:
            self.label(_("Games:"), (left, y), scale=0.042, align=TextNode.ALeft)
            self.games_entry = self.entry(self.games_text, (left + 0.55, y), width=0.2, scale=0.045)
            at = (left, y - 0.1) if narrow else (-0.3, y)
            self.label(_("Count the best (empty: all):"), at, scale=0.042, align=TextNode.ALeft)
            self.best_entry = self.entry(self.best_text, (at[0] + 0.85, at[1]), width=0.2, scale=0.045)
            y -= 0.1 if narrow else 0
            if self.rumbugz:   # a RumBugz tournament: rounds a game too
                y -= 0.1
        if self.rumbugz:
            self.label(_("Rounds:"), (left, y), scale=0.042, align=TextNode.ALeft)
            self.rounds_entry = self.entry(self.rounds_text, (left + 0.55, y), width=0.2, scale=0.045)
        elif not self.tournament:
            solo = self._solo()
            text = (_("Practice: take back allowed (one human player)") + ": " + (_("on") if self.practice else _("off"))
                    if solo else _("Practice: off (only with one human player)"))   # not on, then dropped
            self.button(text, self.toggle_practice, (left + 0.7 if not narrow else 0, y), width=line if narrow
                        else 1.4, scale=0.042, enabled=solo)
        y -= 0.11
        if not self.rumbugz:
            y = rules_rows(self, y, left, line, 3 if narrow else 6)
        bottom = -self.room[1]
        message = self.message or self._too_many()
        if message:
            self.label(message, (0, y - 0.03), scale=0.042, fg=WARN, wrap=line / 0.042)
        buttons_y = bottom + 0.15 if not narrow else bottom + 0.17
        self.button(_("Back (Esc)"), self.back, (left + 0.3 if narrow else -0.95, buttons_y), width=0.55, scale=0.05)
        self.button(_("Start (Enter)"), self.start, (-left - 0.3 if narrow else START_POS[0], buttons_y), width=0.55,
                    scale=0.055, colour=GO)
        if self.replaces is not None:
            from .menu import ends_saved_game
            text = ends_saved_game(self.replaces)
            if narrow:   # above Back and Start, the whole line wide
                label, lines_down = self.label(text, (0, buttons_y + 0.14), scale=SMALL, fg=WARN,
                                               wrap=line / SMALL), 1
            else:        # between them
                label, lines_down = self.label(text, (0, buttons_y + 0.01), scale=SMALL, fg=WARN,
                                               wrap=1.1 / SMALL), 2
            # a long name (a ++ game for six) grows upwards: below lie the buttons or the key line
            words = label.component("text0").textNode
            label.setZ(label.getZ() + max(0, words.getNumRows() - lines_down) * SMALL * words.getLineHeight())
        self.label(_("Tab or arrow keys walk the page, Space presses"), (0, bottom + 0.04), scale=SMALL, fg=DIM,
                   wrap=line / SMALL)
        doing = self.keys.current() if self.keys else None
        self.keys = KeyMenu(self, self.walk, len(self.walk) - 1, enter=False)   # at first: on Start
        # after a change: on the button just pressed (rows may have come or gone), or the one in its place
        self.keys.find(doing) or self.keys.find(self._in_place_of(doing))
        self.accept("escape", self.back)
        self.accept("enter", self.start)

    def least_seats(self) -> int:
        return 2 if self.rumbugz else 1

    def choose_game(self, rumbugz: bool) -> None:
        self._read()
        self.rumbugz, self.message = rumbugz, ""
        while len(self.rows) < self.least_seats():   # RumBugz needs a second player: a bot, to be changed
            self.rows.append({"name": "", "kind": "bot:medium"})
        self.relabel()

    def _in_place_of(self, doing):
        """The button to highlight where the one pressed went with its change (not Start, which Space would
        press next): the sixth seat added, its kind; the last seat removed, Add a player in its place."""
        command = doing[0] if doing else None
        if command == self.add:
            return self.cycle_kind, (len(self.rows) - 1,)
        if command == self.remove:
            return self.add, ()
        return None

    # ----- editing -----------------------------------------------------------------
    def keep(self) -> None:
        self._read()

    def _read(self) -> None:
        """Keep what was typed before the widgets are rebuilt."""
        for i, (row, e) in enumerate(zip(self.rows, self.entries)):
            typed = e.get().strip()
            row["name"] = "" if typed == default_name(i, row["kind"]) else typed   # defaults follow the seat
        self.seed_text = self.seed_entry.get().strip()
        if self.tournament:
            self.games_text, self.best_text = self.games_entry.get().strip(), self.best_entry.get().strip()
        if self.rumbugz:
            self.rounds_text = self.rounds_entry.get().strip()

    def cycle_kind(self, i: int) -> None:
        self._read()   # before the kind changes: a default name follows the new kind
        kinds = list(kind_names())
        self.rows[i]["kind"] = kinds[(kinds.index(self.rows[i]["kind"]) + 1) % len(kinds)]
        self.relabel()

    def add(self) -> None:
        self._read()
        if len(self.rows) < MAX_SEATS:
            self.rows.append({"name": "", "kind": "bot:medium" if len(self.rows) else "human"})
        self.relabel()

    def remove(self, i: int) -> None:
        self._read()
        if len(self.rows) > self.least_seats():
            self.rows.pop(i)
        self.relabel()

    def toggle_practice(self) -> None:
        self._read()
        self.practice = not self.practice
        self.relabel()

    def rules_changed(self) -> None:
        self.relabel()

    def _solo(self) -> bool:
        """One human at the table (bots or not): practice, taking back, is for them alone (Match.can_take_back)."""
        return sum(1 for r in self.rows if r["kind"] == "human") == 1

    def _too_many(self) -> str:
        """Why the seats don't suit the variant, or "": said while it holds, not only after Start."""
        top = VARIANT_MAX_PLAYERS[self.variant]
        if len(self.rows) <= top or self.rumbugz:
            return ""
        return _("{variant} is for 1 to {count} players.").format(variant=term(self.variant), count=top)

    def ruleset(self) -> Ruleset:
        return Ruleset(self.variant, tuple(self.modules), chosen_powers(self))

    def back(self) -> None:
        from .tournament import TournamentScreen
        if self.tournament:
            self.app.goto(TournamentScreen)
        else:
            self.app.menu()

    # ----- starting ------------------------------------------------------------------
    def seats(self) -> list[Seat]:
        return [Seat(stored_name(r["name"] or default_name(i, r["kind"])), r["kind"])
                for i, r in enumerate(self.rows)]

    def _number(self, text: str, what: str) -> int | None:
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(_("{what} must be a whole number, not {text}.").format(what=what, text=as_json(text))) from None

    def start(self) -> None:
        self._read()
        try:
            seed = self._number(self.seed_text, _("The seed"))
            if self.tournament:
                games = self._number(self.games_text, _("The number of games"))
                games = 1 if games is None else games   # 0 or less: the tournament says why not
                best = self._number(self.best_text, _("The number of best games"))
            if self.rumbugz:
                rounds = self._number(self.rounds_text, _("The number of rounds"))
                rounds = check_rounds(DEFAULT_ROUNDS if rounds is None else rounds)
        except ValueError as e:
            self.message = str(e)
            self.relabel()
            return
        seats = self.seats()
        if self._too_many():   # said on the page already
            return
        self.app.save_settings(self.app.settings.changed(new_game={   # kept, if the disk allows
            "seats": [dict(row) for row in self.rows], "variant": self.variant, "modules": list(self.modules),
            "powers": list(self.powers), "practice": self.practice}))
        if self.rumbugz and not self.tournament:
            self.start_rumbugz(seats, seed, rounds)
            return
        if self.tournament:
            from .tournament import play_tournament
            try:
                t = self.app.store.new_tournament(seats, games, best, seed, ruleset=GameRules(rounds) if self.rumbugz
                                                  else self.ruleset())
            except ValueError as e:
                self.message = str(e)
            except Exception as e:   # StoreError: the database can't be used
                self.message = getattr(e, "message", str(e))
            else:
                self.message = play_tournament(self.app, t.id) or ""
            if self.message:
                self.relabel()
            return
        try:
            match = self.app.store.new_match(seats, seed=seed, practice=self.practice and self._solo(),
                                             ruleset=self.ruleset())
        except ValueError as e:   # a seed out of range
            self.message = str(e)
            self.relabel()
            return
        self.app.play(match)

    def start_rumbugz(self, seats: list[Seat], seed: int | None, rounds: int | None) -> None:
        try:
            game = self.app.store.new_rumbugz([{"name": seat.name, "kind": seat.kind} for seat in seats], seed, rounds)
        except ValueError as e:   # a seed or a number of rounds out of range
            self.message = str(e)
            self.relabel()
            return
        self.app.play(game)
