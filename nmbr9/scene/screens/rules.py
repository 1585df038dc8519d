"""The rules page of each game (NMBR 9's, RumBugz's): nmbr9.i18n.rules_page's text in a scrolled frame, from the
menu (a tab for each game) or over the table (F1: `build_rules(..., game=...)`)."""
from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectScrolledFrame
from panda3d.core import MouseButton, PGItem, TextNode

from ...i18n import _
from ...i18n.rules_page import GAMES, rules_page as page
from .rules_pictures import (BUG_STEP, MARGIN, SEQUENCES, SPACE, TILES, Pictures, caption, examples,
                             sequence_caption, span)
from .widgets import ACCENT, BACKDROP, DIM, INK, PANEL, SMALL, Screen, keep_together

WIDTH = 2.7         # of the text column at most (aspect2d units); a narrower window narrows it
HEADING, BODY = 0.06, 0.045
SCROLL_STEP = 0.25
LINE_INSET = 0.035   # of a line's height: how far into its top the view's top stands (_depths)
EXAMPLE_SQUARE = 0.07   # a square of the placement examples at most; they take 40% of the column at most
EXAMPLE_BUG = 0.12      # a bug step of RumBugz's sequences at most; they take 40% of the column at most
GAME_NAMES = (("nmbr9", "NMBR 9"), ("rumbugz", "RumBugz"))   # the page's tabs: names, not translated


def build_rules(screen: Screen, parent, on_back, place: tuple[int, float] | None = None, game: str = "nmbr9",
                on_game=None) -> DirectScrolledFrame:
    """The page of `game` ("nmbr9", "rumbugz") under `parent`: title, scrolled text, Back; wheel, arrows and page
    keys scroll. `place`: the reader's place on a page laid out before (reading_place; a window resized keeps it),
    else its top. `on_game(game)`: a tab for each game beside the title (Tab turns to the other), else none (a
    game's own F1 shows its own rules)."""
    backdrop = screen.backdrop(BACKDROP, parent=parent)
    room_w, room_h = screen.room
    width = min(WIDTH, 2 * room_w - 0.4)
    top, bottom = room_h - 0.26, -room_h + 0.3   # the page's frame, between the title and Back
    screen.label(_("Rules"), (0, room_h - 0.16), scale=0.08, bold=True, parent=parent)
    if on_game is not None:
        tab_x = min(0.75, room_w - 0.3)
        for (code, name), x in zip(GAME_NAMES, (-tab_x, tab_x)):
            tab = screen.button(name, on_game, (x, room_h - 0.14), width=0.45, scale=0.05, parent=parent,
                                args=(code,))
            if code == game:
                tab["text_fg"] = ACCENT
        other = next(code for code, _name in GAME_NAMES if code != game)
        screen.accept("tab", on_game, [other])
    half = width / 2 + 0.08
    frame = DirectScrolledFrame(parent=parent, frameSize=(-half, half + 0.05, bottom, top), frameColor=PANEL,
                                canvasSize=(-half, half - 0.05, -1, 0), scrollBarWidth=0.05,
                                verticalScroll_frameColor=(0.2, 0.22, 0.24, 1),
                                verticalScroll_thumb_frameColor=(0.5, 0.55, 0.55, 1),
                                horizontalScroll_frameSize=(0, 0, 0, 0), manageScrollBars=True,
                                autoHideScrollBars=True)
    # the page's text, on a sheet of its own under the canvas (which stands where the scroll bar says): see settle
    sheet = frame.getCanvas().attachNewNode("sheet")
    y = -0.04
    lines = []   # every line of the page, top to bottom: (its paragraph, how far down that paragraph, its top, bottom)

    def paragraph(text, scale, font, colour) -> float:
        shown = _text(sheet, text, y, width, scale, font, colour)
        lines.extend((len(frame.paragraphs), row / len(shown), *line) for row, line in enumerate(shown))
        frame.paragraphs.append(text)
        return shown[0][0] - shown[-1][1] if shown else 0.0

    def picture(name: str, draw) -> float:
        """A picture (an example with its caption beside it) as one line of the page: the page stops at its top,
        never inside it. `draw(top)` draws it and gives its height."""
        height = draw(y - SPACE) + 2 * SPACE
        lines.append((len(frame.paragraphs), 0.0, y, y - height))
        frame.paragraphs.append(name)
        return height

    pictures = Pictures(screen.base.loader)

    def tile_row(top: float) -> float:
        """The ten tiles 0 to 9 as they lie on the table, across the column."""
        squares = span(TILES)
        columns, rows = (squares[i + 2] - squares[i] + 1 + 2 * MARGIN for i in (0, 1))
        square = width / columns
        pictures.table(sheet, -width / 2, top, square, TILES, squares)
        return rows * square

    def example(board, tile, verdict, squares):
        """A table with a 7 in hand on it (as the table tints it), what the table says of it beside it."""
        def draw(top: float) -> float:
            columns, rows = (squares[i + 2] - squares[i] + 1 + 2 * MARGIN for i in (0, 1))
            square = min(EXAMPLE_SQUARE, 0.4 * width / columns)
            pictures.table(sheet, -width / 2, top, square, board.tiles, squares, (tile, verdict))
            beside = columns * square + 0.04
            shown = _text(sheet, caption(verdict, tile), top, width - beside, BODY, screen.app.font, INK,
                          left=-width / 2 + beside)
            return max(rows * square, shown[0][0] - shown[-1][1])
        return draw

    def sequence(tokens):
        """RumBugz: a sequence's bugs in a row, what the rules read it as beside it."""
        def draw(top: float) -> float:
            size = min(EXAMPLE_BUG, 0.4 * width / (len(tokens) * BUG_STEP + 2 * MARGIN))
            height = pictures.sequence(sheet, -width / 2, top, size, tokens, screen.app.bold)
            beside = (len(tokens) * BUG_STEP + 2 * MARGIN) * size + 0.04
            shown = _text(sheet, sequence_caption(tokens), top - 0.3 * size, width - beside, BODY, screen.app.font,
                          INK, left=-width / 2 + beside)
            return max(height, shown[0][0] - shown[-1][1] + 0.3 * size)
        return draw

    if game == "rumbugz":
        drawn = {"Sequences": [(f"picture: {' '.join(t)}", sequence(t)) for t in SEQUENCES]}
    else:
        laid = examples()
        squares = span([p for board, tile, _verdict in laid for p in (*board.tiles, tile)])   # the same table
        drawn = {"Tiles, cards and squares": [("picture: the tiles 0 to 9", tile_row)],
                 "Placement rules": [(f"picture: example {i + 1}", example(*e, squares)) for i, e in enumerate(laid)]}
    frame.paragraphs = []
    for (key, _texts), (heading, paragraphs) in zip(GAMES[game], page(_, game)):
        y -= paragraph(heading, HEADING, screen.app.bold, ACCENT) + 0.03
        for text in paragraphs:
            y -= paragraph(text, BODY, screen.app.font, INK) + 0.025
        for name, draw in drawn.get(key, ()):
            y -= picture(name, draw) + 0.025
        y -= 0.03
    clip = frame.guiItem.getClipFrame()
    seen = clip[3] - clip[2]
    # the page ends where a line at the top of the view shows the rest whole: its last stop (the end) too has a
    # whole line at the top, the text ending above the view's bottom
    end = next((depth for depth in _depths(lines) if depth + seen >= -y), 0.0)
    frame["canvasSize"] = (-half, half - 0.05, -(end + seen), 0)
    frame.setCanvasSize()
    frame.lines = lines
    bar = frame.verticalScroll
    bar["value"] = 0 if place is None else _scrolled_to(frame, place)
    if _travel(frame):   # the bar's arrows step as the arrow keys do; settled on the nearest line, that is the next
        bar["scrollSize"] = 0.5 * SCROLL_STEP / _travel(frame)

    def scroll(amount: float) -> None:
        """Down (up) by `amount` steps at most, by whole lines: to the furthest line within that, at least the
        next one (a line taller than the step)."""
        travel, stops = _travel(frame), _stops(frame)
        now = bar["value"] * travel
        goal = now + amount * SCROLL_STEP
        if amount > 0:
            ahead = [depth for depth in stops if depth > now + 1e-4]
            land = max((depth for depth in ahead if depth <= goal + 1e-4), default=ahead[0] if ahead else now)
        else:
            behind = [depth for depth in stops if depth < now - 1e-4]
            land = min((depth for depth in behind if depth >= goal - 1e-4), default=behind[-1] if behind else now)
        bar["value"] = land / travel if travel else 0

    def settle(_event=None) -> None:
        """The scroll bar moved (dragged, its arrows or track clicked): to the nearest line's top, in the frame
        drawn next. While the mouse holds the bar it takes no value (Panda ignores it): the sheet is moved by the
        difference instead, the view at that line; released, the bar goes there."""
        travel = _travel(frame)
        at = bar.guiItem.getValue() * travel
        land = min(_stops(frame), key=lambda depth: abs(depth - at)) if travel else 0.0
        if abs(land - at) > 1e-6:
            bar["value"] = land / travel
        sheet.setZ(land - bar.guiItem.getValue() * travel)
    bar["command"] = settle
    for part in (bar, bar.thumb, bar.incButton, bar.decButton):   # where the mouse held the bar
        part.bind(DGG.B1RELEASE, settle)

    # a page key turns the view's height less a line: the last line read stays in sight, at the top (a fixed step
    # moved two thirds of the view, a third read again at each press)
    page_step = (seen - 1.5 * BODY) / SCROLL_STEP
    for key, amount in (("arrow_up", -0.5), ("arrow_down", 0.5), ("arrow_up-repeat", -0.5),
                        ("arrow_down-repeat", 0.5), ("page_up", -page_step), ("page_down", page_step)):
        screen.accept(key, scroll, [amount])
    # the widgets (the backdrop covers the window) take the wheel: the plain "wheel_down" never comes, the
    # widget's own wheel event does
    for widget in (backdrop, frame, frame.verticalScroll, frame.verticalScroll.thumb,
                   frame.verticalScroll.incButton, frame.verticalScroll.decButton):
        for wheel, amount in ((MouseButton.wheelUp(), -1), (MouseButton.wheelDown(), 1)):
            widget.bind(PGItem.getPressPrefix() + wheel.getName() + "-", lambda _event, a=amount: scroll(a))
    screen.accept("home", bar.__setitem__, ["value", 0])   # the top and the end of the page
    screen.accept("end", bar.__setitem__, ["value", 1])
    screen.button(_("Back (Esc)"), on_back, (0, -room_h + 0.08), width=0.5, scale=0.05, parent=parent)
    frame.keys = screen.label(_("Mouse wheel, arrow keys, Page Up / Page Down or Home / End scroll the page"),
                              (0, bottom - 0.06), scale=SMALL, fg=DIM, parent=parent, wrap=width / SMALL)
    screen.accept("escape", on_back)
    screen.accept("f1", on_back)
    frame.scroll = scroll
    frame.bottom = y
    return frame


def _text(parent, text: str, y: float, width: float, scale: float, font, colour,
          left: float | None = None) -> list[tuple[float, float]]:
    """A wrapped paragraph at height y, `width` wide from `left` (the left edge of the column); returns its lines'
    tops and bottoms."""
    node = TextNode("rules-text")
    node.setText(keep_together(text))
    node.setFont(font)
    node.setWordwrap(width / scale)
    node.setTextColor(*colour)
    np = parent.attachNewNode(node)
    np.setScale(scale)
    baseline = y - scale * 0.8
    np.setPos(-width / 2 if left is None else left, 0, baseline)
    top, step = baseline + node.getTop() * scale, node.getLineHeight() * scale
    return [(top - row * step, top - (row + 1) * step) for row in range(node.getNumRows())]


def _travel(frame) -> float:
    """How far the page moves from its top to its end (the scroll bar's 0 to 1)."""
    clip = frame.guiItem.getClipFrame()
    return max(0.0, -frame["canvasSize"][2] - (clip[3] - clip[2]))


def _depths(lines) -> list[float]:
    """How far down the page the view's top stands to show each line first and whole: the first line at the page's
    very top; a line right under another of its paragraph a hair into its own top, under the ink of the line above
    (its descenders reach a little past their line) and above its own (accented capitals)."""
    return [0.0 if i == 0 else -line[2] + (LINE_INSET * (line[2] - line[3]) if line[1] else 0.0)
            for i, line in enumerate(lines)]


def _stops(frame) -> list[float]:
    """Where the page may stop (how far down the view's top is): with a line's top there, up to the end."""
    travel = _travel(frame)
    return [depth for depth in _depths(frame.lines) if depth <= travel + 1e-4]


def reading_place(frame) -> tuple[int, float]:
    """The reader's place: the line at the top of the view (the first shown at least half), as its paragraph and
    how far down that paragraph it is, which the page laid out again at another width (wrapped anew) still has."""
    view_top = -frame.verticalScroll["value"] * _travel(frame)
    line = next((line for line in frame.lines if (line[2] + line[3]) / 2 <= view_top), frame.lines[-1])
    return line[0], line[1]


def _scrolled_to(frame, place: tuple[int, float]) -> float:
    """The scroll bar's value that shows the line at `place` whole at the very top of the view (a line cut there
    read as a heading gone), the line above it out of sight; a place too near the end for that shows the last
    line that can stand there."""
    paragraph, down = place
    travel = _travel(frame)
    rows = [line for line in frame.lines if line[0] == paragraph]
    wanted = next((line for line in reversed(rows) if line[1] <= down + 1e-6), rows[0]) if rows else frame.lines[0]
    depth = max(depth for line, depth in zip(frame.lines, _depths(frame.lines))
                if line[2] >= wanted[2] and depth <= travel + 1e-4)
    return depth / travel if travel else 0.0


def open_rules(app, game: str = "nmbr9") -> None:
    """The rules page of `game` ("nmbr9", "rumbugz"), its tabs offering the other; Back returns to the menu.
    (Over a game's table, F1 lays the page over it instead: build_rules(..., game=...).)"""
    app.goto(RulesScreen, game=game)


class RulesScreen(Screen):
    name = "rules"
    place = None   # the reader's place (reading_place), kept while the page is laid out again for a resized window

    def __init__(self, app, game: str = "nmbr9"):
        super().__init__(app)
        self.game = game

    def keep(self) -> None:
        self.place = reading_place(self.frame)

    def build(self) -> None:
        self.frame = build_rules(self, self.root, self.app.menu, self.place, self.game, self.choose)

    def choose(self, game: str) -> None:
        """A tab: the other game's rules, from their top."""
        if game != self.game:
            self.game, self.place = game, None
            self.relabel()

