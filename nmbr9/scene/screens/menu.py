"""The main menu: Continue (when a game is saved), Continue online (when an online seat is kept), New game,
Puzzles, Tournament, Play online, Rules, Settings, Quit."""
from __future__ import annotations

from ...i18n import _
from ...i18n.terms import name as term
from ...net.seat import saved_seat
from ...puzzle import is_puzzle_of
from ...rules.game import CLASSIC
from ...rumbugz.game import is_rumbugz
from ..hud import text_rows
from .tournament import WATCH_EVERY
from .widgets import ACCENT, DIM, SMALL, WARN, KeyMenu, Screen, keep_together

TOP = 0.36         # the first button's height (aspect2d); the e2e test clicks by these
STEP = 0.125
WIDTH = 0.9


def button_y(index: int) -> float:
    return TOP - index * STEP


def rules_text(ruleset) -> str:
    """The NMBR 9 ++ variant and modules in play, named ("" for the base game)."""
    return ", ".join(([term(ruleset.variant)] if ruleset.variant != CLASSIC else []) +
                     [term(m) for m in ruleset.modules])


def saved_game_text(match) -> str:
    """What Continue resumes: the round, the NMBR 9 ++ rules in play and the players (RumBugz: its round)."""
    from ...rumbugz.game import is_rumbugz, saved_text
    from .session import round_text
    if is_rumbugz(match):
        return saved_text(match)
    rules = rules_text(match.game.ruleset)
    where = " \u00b7 ".join([round_text(match), rules] if rules else [round_text(match)])
    return _("{round}: {players}").format(round=where, players=", ".join(match.names))


def ends_saved_game(match, puzzle: bool = False) -> str:
    """The warning beside a button that would start something over the saved game `match`."""
    template = (_("Starting a puzzle ends your saved game ({game}).") if puzzle
                else _("Starting a game ends your saved game ({game})."))
    return template.format(game=saved_game_text(match))


def game_it_ends(app):
    """The saved game a new game or puzzle would replace, to name it (a tournament game lives on in
    its tournament)."""
    saved = app.store.continue_game(threaded=False).match   # only to name it: no bot thinks
    return saved if saved is not None and not saved.tournament else None


class MenuScreen(Screen):
    name = "menu"
    keys = None
    asked = False   # Esc pressed once: a second one quits

    def enter(self) -> None:
        # what went wrong, least pressing first: the menu shows the last two (the most pressing)
        notes = list(self.app.notices)
        if self.app.store.settings_message:   # said once
            notes.append(self.app.store.settings_message)
            self.app.store.settings_message = None
        self.resume = self.saved_game(notes)
        try:
            self.app.store.db
        except Exception as e:   # StoreError: the menu still works without tournaments and puzzles
            notes.append(getattr(e, "message", str(e)))
        if self.app.store.db_message:
            notes.append(self.app.store.db_message)
            self.app.store.db_message = None
        if self.app.unsaved is not None:   # newer than any saved copy: what matters most
            self.resume = self.app.unsaved
            notes.append(self.resume.save_error + "\n" + _("Continue brings the game back until you quit NMBR 9 3D."))
        self.app.notices = [n for i, n in enumerate(notes) if n and n not in notes[:i]][-2:]
        super().enter()
        if self.resume is not None:
            m = self.resume
            at = (m.round_number, len(m.round.moves)) if is_rumbugz(m) else (m.round, len(m.game.moves))
            self.app.trace("continue-offered", f"round={at[0]}", f"moves={at[1]}")
        self.seen = None
        self.base.taskMgr.doMethodLater(WATCH_EVERY, self._watch, "menu-watch")

    def exit(self) -> None:
        self.base.taskMgr.remove("menu-watch")
        super().exit()

    def saved_game(self, notes: list[str], **match_kw):
        """What Continue resumes: the saved game, or the next game of the tournament whose game just ended;
        what went wrong goes into `notes`."""
        found = self.app.store.continue_game(**match_kw)
        notes.append(found.message)
        if found.match is None and found.tournament is not None:   # its game just ended: Continue plays the next
            try:
                return found.tournament.next_match(look=True, threaded=False)   # (only to name it)
            except Exception as e:   # StoreError: a game that can't be resumed
                notes.append(getattr(e, "message", str(e)))
        return found.match

    def _watch(self, task):
        """The Continue line again while `nmbr9 tournament` plays its tournament on (its round, its next game;
        none once it is over), and once it lets go; otherwise only a look at the tournament's lock."""
        m = self.resume
        if m is None or not m.tournament or m is self.app.unsaved:
            return task.again
        store = self.app.store
        try:
            held = store.held_elsewhere(m.tournament["id"])
            seen = (held, store.progress()) if held or self.seen else None
            if seen is not None and self.seen is not None and seen != self.seen:
                # only to name it: a tournament game is taken from the database again when continued
                self.resume = self.saved_game([], threaded=False)
                if self.resume is None:   # over: no Continue
                    self.relabel()
                else:   # only the line: a click, a highlight or an Esc under way is kept
                    self.show_saved()
        except Exception:   # StoreError, sqlite3.Error: the line stays as it was
            return task.again
        self.seen = seen if held else None
        return task.again

    def show_saved(self) -> None:
        """The line above Continue says what it resumes; a second line goes above, not onto Continue."""
        self.saved["text"] = keep_together(saved_game_text(self.resume))
        text = self.saved.component("text0").textNode
        self.saved.setZ(button_y(0) + 0.1 + max(text_rows(self.saved) - 1, 0) * text.getLineHeight() * SMALL)

    def items(self) -> list[tuple[str, object]]:
        out = []
        if self.resume is not None:
            out.append((_("Continue"), self.continue_game))
        if saved_seat(self.app.store.folder) is not None:   # an online game left: its seat taken again
            out.append((_("Continue online"), self.continue_online))
        out += [(_("New game"), self.new_game), (_("Puzzles"), self.puzzles), (_("Tournament"), self.tournament),
                (_("Play online"), self.play_online), (_("Rules"), self.rules), (_("Settings"), self.settings),
                (_("Quit"), self.app.quit)]
        return out

    def build(self) -> None:
        self.backdrop()
        line = 1.8   # the width of the menu's sentences (aspect2d units): they wrap in a narrow window
        self.label("NMBR 9 3D", (0, 0.72), scale=0.15, bold=True, fg=ACCENT)
        self.label(_("Build up, score high: the tile game in three dimensions"), (0, 0.6), scale=0.045, fg=DIM,
                   wrap=line / 0.045)
        items = self.items()
        buttons = [self.button(text, self.choose, (0, button_y(i)), width=WIDTH, scale=0.055, args=(command,))
                   for i, (text, command) in enumerate(items)]
        if self.resume is not None:   # what Continue resumes, just above it
            self.saved = self.label("", (0, 0), scale=SMALL, fg=DIM, wrap=line / SMALL)
            self.show_saved()
        if self.app.notices:   # room for 5 lines above the keys; more in smaller letters
            text, k = "\n".join(self.app.notices), 0.042
            notice = self.label(text, (0, -0.6), scale=k, fg=WARN, wrap=line / k)
            rows = notice.component("text0").textNode.getNumRows()
            if rows > 5:
                notice.destroy()
                k = max(SMALL, k * 5 / rows)
                self.label(text, (0, -0.6), scale=k, fg=WARN, wrap=line / k)
        self.key_line = self.label("", (0, -0.93), scale=SMALL, wrap=line / SMALL)
        self.show_keys()
        # on the item the player left the menu by (back from Settings: on Settings), Continue come or gone;
        # built again (another language, window): where the highlight was
        doing = self.keys.current() if self.keys else None
        chosen = [i for i, (_text, command) in enumerate(items) if command.__name__ == self.app.menu_choice]
        self.keys = KeyMenu(self, buttons, chosen[0] if chosen else 0, moved=self.moved)
        self.keys.find(doing)
        self.accept("escape", self.escape)

    def show_keys(self) -> None:
        """The key line at the bottom: the keys, or, Esc pressed (the menu built again meanwhile: another
        language, window), the question."""
        if self.asked:
            keys, colour = _("Press Esc again to quit."), ACCENT
        elif self.app.unsaved is None:
            keys, colour = _("Arrow keys and Enter, or the mouse \u00b7 Esc: quit"), DIM
        else:   # a game that could not be saved is lost on quitting: Esc only walks to Quit
            keys, colour = _("Arrow keys and Enter, or the mouse \u00b7 Esc, Enter: quit"), DIM
        self.key_line["text"] = keep_together(keys)
        self.key_line["text_fg"] = colour

    def moved(self, index: int) -> None:
        """The highlight walked off Quit after Esc: the question is withdrawn (Esc, pressed again later to walk
        to Quit, quit at once)."""
        if self.asked and index != len(self.keys.buttons) - 1:
            self.asked = False
            self.show_keys()

    def choose(self, command) -> None:
        self.app.menu_choice = command.__name__
        command()

    def escape(self) -> None:
        """Esc walks to Quit and asks for a second Esc (players quit by accident; Enter on Quit quits too).
        With a game that could not be saved, which quitting would lose, it only walks to Quit: Enter quits."""
        if self.asked:
            self.app.quit()
            return
        self.keys.focus(len(self.keys.buttons) - 1)   # Quit is the last button
        if self.app.unsaved is None:
            self.asked = True
            self.show_keys()

    # ----- the choices ----------------------------------------------------------------
    def continue_game(self) -> None:
        self.app.notices = []
        context = {}
        if not is_rumbugz(self.resume) and is_puzzle_of(self.resume.extra.get("puzzle"), self.resume):
            context = {"puzzle": self.resume.extra["puzzle"]}
        elif self.resume.tournament:   # its latest copy (a command may have played on), the tournament held
            from .tournament import play_tournament
            unsaved = self.resume if self.resume is self.app.unsaved else None
            why = play_tournament(self.app, self.resume.tournament["id"], unsaved)
            if why:
                self.app.notices = [why]
                self.relabel()
            return
        self.app.play(self.resume, context)

    def new_game(self) -> None:
        from .setup import SetupScreen
        self.app.notices = []
        self.app.goto(SetupScreen)

    def play_online(self, resume: dict | None = None) -> None:
        try:
            from .online import OnlineScreen
        except ImportError as e:   # the network library's ssl wants a newer OpenSSL than this computer's
            reason = str(e)
            self.app.say(lambda: _("Play online can't start on this computer: {reason}").format(reason=reason), 12)
            return
        self.app.notices = []
        self.app.goto(OnlineScreen, resume=resume)

    def continue_online(self) -> None:
        self.play_online(resume=saved_seat(self.app.store.folder))

    def puzzles(self) -> None:
        from .puzzles import PuzzleScreen
        self.app.notices = []
        self.app.goto(PuzzleScreen)

    def tournament(self) -> None:
        from .tournament import TournamentScreen
        self.app.notices = []
        self.app.goto(TournamentScreen)

    def rules(self) -> None:
        from .rules import RulesScreen
        self.app.goto(RulesScreen)

    def settings(self) -> None:
        from .settings import SettingsScreen
        self.app.goto(SettingsScreen)
