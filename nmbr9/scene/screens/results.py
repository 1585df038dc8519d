"""The end of a game: every board scored top level first with a running total, then the results.

Ties share the win. Beside the scores, the analysis looks for the best
layout it can find for this deck (in its own process, with progress), and
its layout can be stepped through tile by tile on the table. A tournament
game shows the standings and offers the next game; a puzzle stores its
results and shows the puzzle's leaderboard; Rematch plays the same seats
again (a puzzle: the same puzzle again).
"""
from __future__ import annotations

from direct.gui.DirectGui import DirectFrame
from panda3d.core import LVector2, TextNode

from ...ai.analyse import WIDEST
from ...i18n import N_, _, ngettext, pgettext
from ...match import Match, local_date, seat_name, seat_told
from ...rules.game import CLASSIC
from .widgets import ACCENT, DIM, GO, INK, NARROW, PANEL, SMALL, WIDE, Screen, keep_together, measure

LEVEL_SECONDS = 0.7      # one level of every board is scored per step (at animation speed 1)
ANALYSIS_WIDTH = WIDEST   # the search's work (ai/analyse.py), the same on any machine
LEFT = -1.72             # the score panel's left edge (laid out from here; it stands at the window's left edge)
PAD = 0.05               # the panel's margin around its words
WIDEST = 1.66            # the panel's words wrap at this width (the board keeps room beside them)
NAME = 0.5               # a player's name button
ANALYSIS_TEXT = 0.038    # the analysis' words
LOWEST = -0.8            # the panel's words end above this (the buttons at its foot, in a wide window)


def not_searched() -> str:
    """What the results say where the best layout is not searched: a variant's game (2 of 3, Level to Level)
    is not a deck laid one card a round."""
    return _("No best layout for this deck: the search plays only the base game, one card a round.")


# The best found against the winner's score (alone: the player's): more, matched, beaten; by (modules, alone).
# With modules the search still plays the base game (start tiles, fillers and powers are not the deck's) and is
# mostly beaten: "80 points (you beat it)" against 86, unexplained, read as a poor search, so it says so.
FOUND = {
    (False, False): (N_("Best found for this deck: {score} points ({diff} more than the winner)"),
                     N_("Best found for this deck: {score} points (the winner matched it)"),
                     N_("Best found for this deck: {score} points (the winner beat it)")),
    (False, True): (N_("Best found for this deck: {score} points ({diff} more than you)"),
                    N_("Best found for this deck: {score} points (you matched it)"),
                    N_("Best found for this deck: {score} points (you beat it)")),
    (True, False): (N_("Best found for this deck in the base game: {score} points ({diff} more than the winner)"),
                    N_("Best found for this deck in the base game: {score} points (the winner matched it)"),
                    N_("Best found for this deck in the base game: {score} points (the winner beat it)")),
    (True, True): (N_("Best found for this deck in the base game: {score} points ({diff} more than you)"),
                   N_("Best found for this deck in the base game: {score} points (you matched it)"),
                   N_("Best found for this deck in the base game: {score} points (you beat it)")),
}


def tournament_lines(t, reviewed: int | None = None) -> list[str]:
    """A tournament's standing under a game's results (NMBR 9's or RumBugz's): its games played (or which game
    is `reviewed`), who won it once it is over, each seat's place, points and wins."""
    if reviewed:   # an earlier game looked at again: which one it is
        played = _("game {number} of {games}").format(number=reviewed, games=t.games)
    else:
        played = ngettext("game {played} of {games} played", "game {played} of {games} played",
                          t.games).format(played=t.played, games=t.games)
    lines = [_("{name}: {played}, {best}").format(name=t.name, played=played, best=t.best_told())]
    standings = t.standings()
    if t.over:   # its last game: who won the tournament (those first equal share it)
        first = [seat_name(s.name, s.kind) for s in standings if s.place == 1]
        lines.append(_("This tournament is over: {name} wins it.").format(name=first[0]) if len(first) == 1
                     else _("This tournament is over: {names} share the win.").format(names=", ".join(first)))
    # none before a game is stored (its end waiting for the database, or a full disk): they said "None."
    for s in (s for s in standings if s.place is not None):
        wins = ngettext("{n} win", "{n} wins", s.wins).format(n=s.wins)
        points = ngettext("{n} point", "{n} points", s.best).format(n=s.best)
        lines.append(_("{place}. {name}: {points}, {wins}").format(
            place=s.place, name=seat_told(s.name, s.kind), points=points, wins=wins))
    return lines


class ResultsScreen(Screen):
    name = "results"
    layouts = (WIDE, NARROW)   # the panel beside the board; in a tall window above it

    def __init__(self, app, match: Match, context: dict):
        super().__init__(app)
        self.match = match
        self.context = context
        self.results = match.results()
        # level 0 scores nothing: the count starts at the top and stops at level 1
        self.levels = sorted({lv for r in self.results for lv in r.by_level if lv > 0}, reverse=True)
        speed = app.settings.animation_speed
        self.step_time = LEVEL_SECONDS / speed if speed else 0.0
        self.clock = 0.0
        self.shown_step = -1
        self.showing = self.results[0].seat     # whose board is on the table
        self.analysis = {"progress": None, "placements": None, "error": None}
        self.walk = None                        # the tile shown when stepping through the best layout
        self.turned_at = None                   # the pointer while a right drag turns the board
        self.legend_shown = False               # the board's controls (H), folded at first as at the table
        self.shown_text = ""                    # whose board the line under it names (or the layout's step)
        self.bests: dict[int, object] = {}      # seat -> that human's best before this game (None: first)
        self.verdict_joint = "  \u00b7  "        # between a board's place and its best (see build)
        self.saved_note = self._store_results()

    # ----- the database ---------------------------------------------------------------
    def _store_results(self) -> str | None:
        """A puzzle's results go to the puzzle's leaderboard (bots once per puzzle and strength); other
        games' human scores count for personal bests (not practice, where tiles can be taken back). Kept once
        (the last tile kept them already); while another program holds the database, kept by the store's
        saver for later (the app says so once), the panel filled in when they land (stored_later)."""
        code = self.context.get("puzzle")
        if self.context.get("review") or (self.match.practice and not code):
            return None
        from ...store import SaveError
        from ...store.records import best_before, not_stored
        m, store = self.match, self.app.store
        try:
            for r in self.results if not code else ():   # read first: shown even when the database can't be
                if r.kind == "human":                     # written (a read-only disk)
                    self.bests[r.seat] = best_before(store.db, r.name, m.game.ruleset.to_json(), m.created)
            store.scores.save(m)
        except SaveError as e:
            return e.message
        except Exception as e:   # StoreError, sqlite3.Error: the game is over either way
            return not_stored(e, store.folder, puzzle=bool(code))
        return None

    def stored_later(self) -> None:
        """Writes that waited for the database landed: the standings or the leaderboard with this game."""
        self.relabel()

    def _best_text(self, r) -> str:
        """Beside a human's place: how this game stands against their best under these rules."""
        if r.seat not in self.bests:
            # a practice game is kept out of the bests (tiles can be taken back): said, so that the line
            # is not simply missing
            practice = self.match.practice and r.kind == "human" and not self.context.get("puzzle")
            return _("practice game: not counted for personal bests") if practice else ""
        best = self.bests[r.seat]
        if best is None:
            return _("your first game under these rules")
        if r.score > best.score:
            return _("new personal best! (before: {score})").format(score=best.score)
        return _("your best: {score} ({date})").format(score=best.score, date=local_date(best.played))

    # ----- building ----------------------------------------------------------------------
    def enter(self) -> None:
        from ..camera import FRAME_X, OrbitCamera
        from ..table import Table
        self.table = Table(self.base)
        self.table.levels_shown = self.app.levels_shown   # L holds from one game and screen to the next
        # the boards are finished: no room kept around them for a next tile, nor over them for a line of text
        # (none is there): with it a board was drawn small, in a tall window far under the panel
        self.camera = OrbitCamera(self.base.camera, self.base.camLens, self.base.render, around=0.5,
                                  reach=(FRAME_X, FRAME_X, FRAME_X))
        lens = self.base.camLens
        self.film_offset = LVector2(lens.getFilmOffset())   # a copy: the getter returns the lens's own vector
        self.show_board(self.showing)
        from ..analysis_job import AnalysisJob
        # the search plans one card a round of the base game's 20; the variants deal otherwise.
        # The players' own layouts go along (base game only: a module's pieces are not the deck's),
        # so the best found is never less than the winner's; in a puzzle the leaderboard's best too
        game = self.match.game
        own = [board.tiles for board in game.boards] + self._leaderboard_best() if not game.ruleset.modules else []
        # the same deck and boards searched before in this run (a tournament's game reviewed, its results
        # left and seen again): that best layout at once, not a search from 0% to maybe another one
        self.analysis_key = (tuple(game.deck), tuple(map(tuple, own)))
        self.job = None if game.ruleset.variant != CLASSIC else \
            self.app.analyses.get(self.analysis_key) or AnalysisJob(game.deck, ANALYSIS_WIDTH, own)
        super().enter()
        self.base.taskMgr.add(self._task, "results")
        self.app.trace("results", *(f"{r.name}={r.score}" for r in self.results))

    def build(self) -> None:
        # the score panel at the window's left edge (laid out from LEFT), only as wide as its words need, the
        # board in the room to its right; in a tall window the panel stands at the top, the board under it
        room_w, room_h = self.room
        action, self.next_command = self._next()
        menu_text = _("Menu (Esc)")
        next_text = _("{action} (Enter)").format(action=action) if action else ""
        extra = self._extra_text()
        self.verdict_joint = "  \u00b7  "   # a board's result on one line (crowded: its parts one over the other)
        width = self._panel_width(menu_text, next_text, extra)
        holder = self.root.attachNewNode("score panel")
        self.panel = holder.attachNewNode("scores")
        frame = DirectFrame(parent=holder, frameColor=PANEL)
        self.label(_("Game over"), (LEFT, 0.85), scale=0.08, bold=True, align=TextNode.ALeft, parent=holder)
        # the lines under the boards: the analysis (as many as its longest sentence takes), its button, the
        # standings or leaderboard
        line = self.app.font.getLineHeight()
        font, bold = self.app.font, self.app.bold   # (wrapped as label() wraps them: short phrases kept together)

        def under_boards(width: float) -> tuple[int, int, float]:   # rows of the analysis, the standings; height
            analysis_rows = max(measure(font, keep_together(t), ANALYSIS_TEXT, wrap=width)[1]
                                for t in self._analysis_sentences())
            extra_rows = measure(font, keep_together(extra), SMALL, wrap=width)[1] if extra else 0
            return analysis_rows, extra_rows, 0.02 + (analysis_rows - 1) * ANALYSIS_TEXT * line + 0.2 + \
                extra_rows * SMALL * line
        analysis_rows, extra_rows, under = under_boards(width)
        # a board's name and total, its levels, its result: 3 lines, closer together when the panel is full (in
        # a tall window always: the board has the room under the panel). Where 3 lines don't fit (six players,
        # five with long names and personal bests in a tournament's last game: the standings ran under the
        # buttons), the result goes between the name and the total: on one line, or its place over the
        # player's best, the panel made as wide as that takes.
        share = (0.68 - LOWEST - under) / len(self.results)   # a board's room in a wide window
        two_lines = not self.narrow and share < 0.2
        if two_lines:
            totals = max(measure(bold, str(r.score), 0.06)[0] for r in self.results)
            beside_name = NAME + 0.05 + 0.05 + totals     # the panel's width but the result's room
            if any(measure(font, self._verdict_text(r), SMALL)[0] > width - beside_name for r in self.results):
                self.verdict_joint = "\n"
                width = min(WIDEST, max(width, beside_name + max(measure(font, text, SMALL)[0]
                                                                  for r in self.results
                                                                  for text in self._verdict_parts(r))))
                analysis_rows, extra_rows, under = under_boards(width)
                share = (0.68 - LOWEST - under) / len(self.results)
        right = LEFT + width
        beside = right - max(measure(bold, str(r.score), 0.06)[0] for r in self.results) - 0.05
        pitch = 0.2 if self.narrow else max(0.15, min(0.2, share)) if two_lines else max(0.2, min(0.23, share))
        self.lines = []
        for i, r in enumerate(self.results):
            y = 0.68 - i * pitch
            # (a name of 20 letters: no smaller than SMALL)
            name = self.button(self.match.names[r.seat], self.show_board, (LEFT + NAME / 2, y + 0.01), width=NAME,
                               scale=0.042, args=(r.seat,), parent=holder)
            name.setPythonTag("seat", r.seat)
            total = self.label("", (right, y), scale=0.06, align=TextNode.ARight, bold=True, parent=holder)
            detail = self.label("", (LEFT, y - 0.075), scale=SMALL, align=TextNode.ALeft, wrap=width / SMALL,
                                parent=holder)
            high = y + (0.028 if "\n" in self._verdict_text(r) else 0)   # (two lines: centred on the name)
            verdict = (self.label("", (beside, high), scale=SMALL, align=TextNode.ARight, fg=ACCENT,
                                  wrap=(beside - LEFT - NAME - 0.05) / SMALL, parent=holder)
                       if two_lines else
                       self.label("", (LEFT, y - 0.125), scale=SMALL, align=TextNode.ALeft, fg=ACCENT,
                                  wrap=width / SMALL, parent=holder))
            self.lines.append((r, detail, total, verdict))
        y = 0.68 - len(self.results) * pitch - 0.02
        self.analysis_label = self.label("", (LEFT, y), scale=ANALYSIS_TEXT, align=TextNode.ALeft, fg=DIM,
                                         wrap=width / ANALYSIS_TEXT, parent=holder)
        y -= (analysis_rows - 1) * ANALYSIS_TEXT * line
        step_text = _("Step through it (\u2192)")
        step_w = self._button_width(step_text, 0.04)
        self.walk_button = self.button(step_text, self.start_walk, (right - step_w / 2, y - 0.1), width=step_w,
                                       scale=0.04, parent=holder)
        self.walk_button.hide()
        self.extra_label = self.label(extra, (LEFT, y - 0.2), scale=SMALL, align=TextNode.ALeft,
                                      wrap=width / SMALL, parent=holder)
        # the buttons at the panel's foot: the window's bottom, or (tall) just under the words
        foot = y - 0.2 - extra_rows * SMALL * line - 0.12 if self.narrow else -0.88
        frame["frameSize"] = (LEFT - PAD, right + PAD, foot - 0.1, 0.98)
        menu_w = self._button_width(menu_text, 0.05)
        self.button(menu_text, self.app.menu, (LEFT + menu_w / 2, foot), width=menu_w, scale=0.05, parent=holder)
        if next_text:
            next_w = self._button_width(next_text, 0.045)
            self.button(next_text, self.next_command, (right - next_w / 2, foot), width=next_w, scale=0.045,
                        colour=GO, parent=holder)
            self.accept("enter", self._enter)
        # the board's room: above the line under it (a board framed down to the window's foot ran into it)
        if self.narrow:   # centred at the top; the board's room: the window under it
            holder.setPos(-(LEFT + right) / 2, 0, room_h - 1.0)
            board_room = (-room_w, room_w, -room_h + 0.14, room_h - 1.0 + foot - 0.1)
        else:
            holder.setPos(-room_w + PAD - LEFT, 0, 0)
            board_room = (-room_w + width + 2 * PAD, room_w, -room_h + 0.14, room_h)   # right of the panel
        left, right, bottom, top = board_room
        # H: the board's controls, above the line under it (folded at first, as at the table): H did nothing
        # here, and nothing on the screen said that the board turns, zooms and shows its levels
        keys = "\n".join([_("Right drag, A D W S: turn and tilt the view"),
                          _("Wheel, + / -, Page Up / Down: zoom  \u00b7  L: each tile's level"),
                          _("H: hide or show this help  \u00b7  F12: screenshot")])
        wrap = (right - left - 0.1) / SMALL
        width, rows = measure(self.app.font, keep_together(keys), SMALL, wrap=wrap * SMALL)
        line = self.app.font.getLineHeight() * SMALL
        lowest = -room_h + 0.1 + 0.075               # its last line, above the line under the board
        self.legend = self.label(keys, ((left + right - width) / 2, lowest + (rows - 1) * line), scale=SMALL,
                                 align=TextNode.ALeft, wrap=wrap, pad=(0.5, 0.4))   # (left-aligned, as at the table)
        self.legend["frameColor"] = PANEL
        # the board's room with them shown (at most its lower half taken: a tall panel leaves little above them)
        self.board_room = (left, right, min(lowest + rows * line + 0.04, (bottom + top) / 2), top)
        self.board_room_folded = board_room
        self.walk_label = self.label("", ((left + right) / 2, -room_h + 0.1), scale=0.04, fg=INK,
                                     wrap=(right - left - 0.1) / 0.04)
        self._show_legend()
        if self.walk is not None:   # built again (another window shape, a language) while stepping through
            self._show_walk()
        else:
            self._say_shown(_("{name}'s board").format(name=self.match.names[self.showing]))
        self.accept("escape", self.app.menu)
        self.accept("arrow_right", self.walk_step, [1])
        self.accept("arrow_left", self.walk_step, [-1])
        self.accept("arrow_right-repeat", self.walk_step, [1])
        self.accept("arrow_left-repeat", self.walk_step, [-1])
        self.accept("home", self.walk_to, [1])      # the first tile
        self.accept("end", self.walk_to, [None])    # the whole layout
        self.accept("tab", self.next_board, [1])    # what a click on a name shows, as Tab at the table
        self.accept("shift-tab", self.next_board, [-1])
        # the board is looked at as at the table: A D W S turn and tilt it, the wheel and + / - zoom, L its levels
        from ..play import accept_view_keys
        accept_view_keys(self, self.camera, self.app.settings.camera_sensitivity)
        self.accept("l", self.table.toggle_levels)
        self.accept("h", self.toggle_legend)
        # and a right drag turns and tilts it, as at the table (with the mouse it could only be zoomed)
        self.accept("mouse3", self._start_turning)
        self.accept("mouse3-up", self._stop_turning)
        self.letters_with_shift()
        self.shown_step = -1
        self._draw_scores()

    def _button_width(self, text: str, scale: float) -> float:
        return measure(self.app.font, text, scale)[0] + 0.15

    def _panel_width(self, menu_text: str, next_text: str, extra: str) -> float:
        """The panel's words' width: its heading, a name and its total, the longest a board's levels get and
        its result, the buttons side by side, the standings' (or leaderboard's) lines (a long translation wraps
        at WIDEST)."""
        font, bold = self.app.font, self.app.bold
        need = [measure(bold, _("Game over"), 0.08)[0],
                NAME + 0.1 + max(measure(bold, str(r.score), 0.06)[0] for r in self.results),
                self._button_width(menu_text, 0.05) + 0.1 + (self._button_width(next_text, 0.045) if next_text else 0),
                self._button_width(_("Step through it (\u2192)"), 0.04),
                *(measure(font, line, SMALL)[0] for line in extra.splitlines())]
        for r in self.results:
            need += [measure(font, text, SMALL)[0] for text in (
                self._detail_text(r, [], False), self._detail_text(r, self.levels, True), self._verdict_text(r))]
        return min(WIDEST, max(need))

    def _enter(self) -> None:
        """Enter presses the green button once the scores are counted: not a second Enter that
        confirmed the last tile."""
        if self.shown_step >= len(self.levels):
            self.next_command()

    def _next(self):
        """The green button: next tournament game, the same puzzle again, or a rematch."""
        if self.context.get("review"):
            return _("Back to the tournament"), self.back_to_tournament
        if self.context.get("tournament"):
            t = self._tournament()
            if t is not None and not t.over:
                return _("Next game"), self.next_tournament_game
            return None, None
        if self.context.get("puzzle"):
            return _("Play it again"), self.puzzle_again
        return _("Rematch"), self.rematch

    def _tournament(self):
        try:
            return self.app.store.tournament(self.context["tournament"])
        except Exception:
            return None

    def _extra_text(self) -> str:
        # the last tile's save, the results' (the same words once: both keep the scores, and the last tile's
        # save may hold the results' words after the autosave's own)
        problems = [p for p in (self.match.save_error, self.saved_note) if p]
        if len(problems) == 2 and problems[1] in problems[0]:
            problems.pop()
        if problems:
            return "\n".join(problems)
        if self.context.get("tournament"):
            t = self._tournament()
            if t is None:
                return ""
            number = (self.match.tournament or {}).get("game")
            return "\n".join(tournament_lines(t, number if self.context.get("review") else None))
        if self.context.get("puzzle"):
            from ...store import puzzle_results
            code = self.context["puzzle"]
            try:
                board = puzzle_results(self.app.store.db, code)
            except Exception:
                return ""
            lines = [_("Leaderboard of puzzle {code}").format(code=code)]
            for n, r in enumerate(board):    # bots are named as bots ("Hard bot")
                ours = r.kind == "human" and (r.record or {}).get("created") == self.match.created
                if n < 8 or ours:   # the top 8, and this game's humans wherever they are
                    mark = "\u25b6 " if ours else ""
                    lines.append(f"{mark}{n + 1}. {seat_name(r.player, r.kind)}: {r.score}  "
                                 f"({local_date(r.played)})")
            return "\n".join(lines)
        return ""

    # ----- the scoring animation ------------------------------------------------------------
    def _task(self, task):
        self.camera.follow_window()
        self._turn()
        self.clock += min(self.base.clock.getDt(), 0.1)
        step = len(self.levels) if not self.step_time else min(len(self.levels), int(self.clock / self.step_time))
        if step != self.shown_step:
            self.shown_step = step
            self._draw_scores()
        self._draw_analysis()
        return task.cont

    def _start_turning(self) -> None:
        from ..play import pointer_in
        self.turned_at = pointer_in(self.base)

    def _stop_turning(self) -> None:
        self.turned_at = None   # (let go outside the window too: that release has no pointer)

    def _turn(self) -> None:
        """While the right button is held, the board turns with the pointer."""
        from ..play import ORBIT_SPEED, pointer_in
        here = pointer_in(self.base)
        if self.turned_at is not None and here is not None:
            self.camera.turn_by_drag(self.turned_at, here, ORBIT_SPEED * self.app.settings.camera_sensitivity)
            self.turned_at = here

    def _draw_scores(self) -> None:
        """Levels scored so far (top first) and the running total of each board."""
        counted = self.levels[:max(0, self.shown_step)]
        done = self.shown_step >= len(self.levels)
        for r, detail, total, verdict in self.lines:
            detail["text"] = self._detail_text(r, counted, done)
            total["text"] = str(sum(r.by_level.get(lv, 0) for lv in counted))
            if done:
                verdict["text"] = self._verdict_text(r)

    def _detail_text(self, r, counted, done: bool) -> str:
        parts = [_("level {level}: {points}").format(level=lv, points=r.by_level.get(lv, 0)) for lv in counted]
        if parts:
            return "  \u00b7  ".join(parts)
        # all tables flat: no level to count, and the count is over at once
        return _("no tile above level 0") if done else _("scoring from the top level down\u2026")

    def _verdict_text(self, r) -> str:
        """A board's result, its parts on one line (or, crowded beside the name, one over the other)."""
        return self.verdict_joint.join(self._verdict_parts(r))

    def _verdict_parts(self, r) -> list[str]:
        """A board's place (alone, none: the record is what is played against) and the player's best."""
        winners = sum(1 for x in self.results if x.winner)
        if len(self.results) == 1:
            text = ""
        elif r.winner:
            text = _("Wins (shared)") if winners > 1 else pgettext("result", "Wins")
        else:
            text = _("Place {place}").format(place=r.place)
        return [keep_together(t) for t in (text, self._best_text(r)) if t]

    # ----- the analysis -----------------------------------------------------------------------
    def best_board(self, tiles: int | None = None):
        from ...rules import Board
        board = Board()
        for p in self.analysis["placements"][:tiles]:
            board.place(p)
        return board

    def _draw_analysis(self) -> None:
        job, a = self.job, self.analysis
        if job is None:
            text = not_searched()
            if self.analysis_label["text"] != text:
                self.analysis_label["text"] = text
            return
        job.poll()
        a.update(progress=job.progress, error=job.error)
        if a["placements"] is None and job.placements is not None:
            self.app.analyses[self.analysis_key] = job
            a["placements"] = self._laid_as_the_puzzle(job.placements)
            if self.walk is None:   # one more board for Tab
                self._say_shown(_("{name}'s board").format(name=self.match.names[self.showing]))
        if a["error"]:
            text = _("The analysis failed: {reason}").format(reason=a["error"])
        elif a["placements"] is None and a["progress"] is None:   # the search's process still loading
            text = _("Best found for this deck: starting\u2026")
        elif a["placements"] is None:
            text = _("Best found for this deck: searching\u2026 {percent}%").format(percent=int(a["progress"] * 100))
        else:
            text = self._found_text(self.best_board().score())
            self.walk_button.show()
        if self.analysis_label["text"] != text:
            self.analysis_label["text"] = text
            if a["placements"] is not None:
                self.app.trace("analysis", f"best={self.best_board().score()}")

    def _found_text(self, best: int) -> str:
        """The best layout found against the winner's score; the winner's own game where the search found none
        better (that game came back as the best: "you matched it" over one's own board, step by step, read as
        another layout scoring the same)."""
        own = self._own_game()
        if own is not None:
            return self._own_text(seat_name(own.name, own.kind), best)
        top = self.results[0].score
        alone = len(self.results) == 1   # played against one's record: no winner to speak of
        words = FOUND[bool(self.match.game.ruleset.modules), alone][(best <= top) + (best < top)]
        return keep_together(_(words).format(score=best, diff=best - top))

    def _analysis_sentences(self) -> list[str]:
        """What the analysis may say once done (a failure aside): to leave it the lines it needs."""
        if self.job is None:
            return [not_searched()]
        top = self.results[0].score
        return [_("Best found for this deck: starting\u2026"),
                _("Best found for this deck: searching\u2026 {percent}%").format(percent=100),
                *(self._found_text(best) for best in (top + 100, top, max(top - 100, 0))),
                *(self._own_text(seat_name(r.name, r.kind), top) for r in self.results)]

    def _own_text(self, name: str, score: int) -> str:
        words = _("Best found for this deck: {score} points, your own game (the search found none better)") \
            if len(self.results) == 1 else \
            _("Best found for this deck: {score} points, {name}'s own game (the search found none better)")
        return keep_together(words.format(score=score, name=name))

    def _own_game(self):
        """The result whose board the best layout found is (the players' games go to the search, and one comes
        back where the search found none better), or None. Laid elsewhere on the table is laid the same."""
        def shape(tiles):
            dx, dy = (tiles[0].x, tiles[0].y) if tiles else (0, 0)
            return [(p.piece, p.rotation, p.x - dx, p.y - dy, p.level) for p in tiles]
        found = shape(self.analysis["placements"] or [])
        return next((r for r in self.results if found and shape(self.match.game.boards[r.seat].tiles) == found),
                    None)

    def _leaderboard_best(self) -> list:
        """A puzzle's best stored layout (an earlier game's), as a list of one layout; none outside a puzzle: the
        best found said "88 points (the winner matched it)" over a leaderboard whose first line was 115."""
        from ...store import puzzle_results, result_game
        code = self.context.get("puzzle")
        try:
            rows = puzzle_results(self.app.store.db, code) if code else []
        except Exception:
            return []
        for r in rows:   # best first
            found = result_game(r)
            if found is not None:
                game, seat = found
                return [game.boards[seat].tiles]
        return []

    def _laid_as_the_puzzle(self, placements):
        """In a puzzle the best layout starts with the puzzle's own first tile, as every player's did
        (the context holds only a code that decodes: puzzle.is_puzzle_of)."""
        from ...puzzle import decode
        code = self.context.get("puzzle")
        return decode(code).laid_as_first(placements) if code else placements

    def start_walk(self) -> None:
        """The button: its first tile, then a tile more a click, as → does (a mouse player clicking it again
        stayed at tile 1); from the whole layout it starts again."""
        placements = self.analysis["placements"]
        if placements:
            self.walk = 1 if self.walk in (None, len(placements)) else self.walk + 1
            self._show_walk()

    def walk_step(self, step: int) -> None:
        """The arrow keys: a tile on or back; once the best layout is found they start the walk too
        (right at its first tile, left at the whole layout)."""
        placements = self.analysis["placements"]
        if not placements:
            return
        if self.walk is None:
            self.walk = 1 if step > 0 else len(placements)
        else:
            self.walk = min(len(placements), max(1, self.walk + step))
        self._show_walk()

    def walk_to(self, tile: int | None) -> None:
        """Home and End: the best layout's first tile, or all of it (None)."""
        placements = self.analysis["placements"]
        if placements:
            self.walk = tile or len(placements)
            self._show_walk()

    def next_board(self, step: int) -> None:
        """Tab, Shift+Tab: the next (previous) board the results show, the players' in their order, then the best
        layout once found (all of it): stepping through it, a keyboard player could not see their own board
        again, nor ever another player's."""
        boards = self._boards()
        at = boards.index(None if self.walk is not None else self.showing)
        seat = boards[(at + step) % len(boards)]
        if seat is None:
            self.walk_to(None)
        else:
            self.show_board(seat)

    def _boards(self) -> list[int | None]:
        """The boards Tab shows in turn: the players' (their seats), then the best layout found (None)."""
        return [r.seat for r in self.results] + ([None] if self.analysis["placements"] else [])

    def _say_shown(self, text: str) -> None:
        """Under the board: whose it is (or the step of the best layout), Tab where there is another, and H
        while the board's controls are folded."""
        self.shown_text = text
        more = len(self._boards()) > 1
        keys = ([_("Tab: another board")] if more else []) + ([] if self.legend_shown else [_("H: show the controls")])
        # a key's words kept together: a wrapped line breaks between the parts, not before "anzeigen" alone
        self.walk_label["text"] = "  \u00b7  ".join([text] + [k.replace(" ", "\u00a0") for k in keys])

    def toggle_legend(self) -> None:
        self.legend_shown = not self.legend_shown
        self._show_legend()
        self._say_shown(self.shown_text)

    def _show_legend(self) -> None:
        """The board's controls shown or folded, and the board framed above them or down to the line under it."""
        self.legend.show() if self.legend_shown else self.legend.hide()
        left, right, bottom, top = self.board_room if self.legend_shown else self.board_room_folded
        k = self.root.getScale().x   # the room in the window's normalised coordinates
        self.camera.frame_in((left * k / self.base.a2dRight, right * k / self.base.a2dRight,
                              bottom * k / self.base.a2dTop, top * k / self.base.a2dTop))

    def _show_walk(self) -> None:
        board = self.best_board(self.walk)
        self.table.show(board)
        full = self.best_board()
        self.camera.frame_board(full)
        # the arrows joined by a no-break space: in a 4:3 window the line broke between them
        self._say_shown(_("Best found: tile {n} of {count}, score {score}  (\u2190\u00a0\u2192)").format(
            n=self.walk, count=len(self.analysis["placements"]), score=board.score()))

    def show_board(self, seat: int) -> None:
        self.walk = None
        if getattr(self, "walk_label", None) is not None:
            self._say_shown(_("{name}'s board").format(name=self.match.names[seat]))
        board = self.match.board(seat)
        self.showing = seat
        self.table.show(board)
        self.camera.frame_board(board)

    # ----- what next ----------------------------------------------------------------------------
    def rematch(self) -> None:
        self.app.play(self.match.rematch())

    def back_to_tournament(self) -> None:
        from .tournament import TournamentScreen
        self.app.goto(TournamentScreen, chosen=self.context["tournament"], game=self.context.get("game"))

    def next_tournament_game(self) -> None:
        if self.match.save_error and self.match.save():   # this game's end is not stored yet: first that
            self.extra_label["text"] = _("The next game can't be started: {reason}").format(
                reason=self.match.save_error)
            return
        from .tournament import play_tournament
        why = play_tournament(self.app, self.context["tournament"])
        if why:   # said here, the results stay
            self.extra_label["text"] = _("The next game can't be started: {reason}").format(reason=why)

    def puzzle_again(self) -> None:
        from .puzzles import start_puzzle
        from ...puzzle import decode
        start_puzzle(self.app, decode(self.context["puzzle"]), [s for s in self.match.seats])

    def exit(self) -> None:
        self.app.levels_shown = self.table.levels_shown
        self.base.taskMgr.remove("results")
        if self.job:
            self.job.stop()
        self.base.camLens.setFilmOffset(self.film_offset)
        super().exit()
        self.table.remove()

