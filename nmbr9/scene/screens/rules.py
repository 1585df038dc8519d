"""The rules page: nmbr9.i18n.rules_page() in a scrolled frame, from the menu or over the table (F1)."""
from __future__ import annotations

from direct.gui.DirectGui import DirectScrolledFrame
from panda3d.core import MouseButton, PGItem, TextNode

from ...i18n import _
# (nmbr9.i18n.rules_page() is shadowed by the submodule of that name once it is imported)
from ...i18n.rules_page import rules_page as page
from .widgets import ACCENT, BACKDROP, DIM, INK, PANEL, SMALL, Screen, keep_together

WIDTH = 2.7         # of the text column at most (aspect2d units); a narrower window narrows it
HEADING, BODY = 0.06, 0.045
SCROLL_STEP = 0.25


def build_rules(screen: Screen, parent, on_back, at: float = 0.0) -> DirectScrolledFrame:
    """The page under `parent`: title, scrolled text, Back; wheel, arrows and page keys scroll. `at`: where
    the page is scrolled to (0 its top, 1 its end; a window resized keeps the reader's place)."""
    backdrop = screen.backdrop(BACKDROP, parent=parent)
    room_w, room_h = screen.room
    width = min(WIDTH, 2 * room_w - 0.4)
    top, bottom = room_h - 0.26, -room_h + 0.3   # the page's frame, between the title and Back
    screen.label(_("Rules"), (0, room_h - 0.16), scale=0.08, bold=True, parent=parent)
    half = width / 2 + 0.08
    frame = DirectScrolledFrame(parent=parent, frameSize=(-half, half + 0.05, bottom, top), frameColor=PANEL,
                                canvasSize=(-half, half - 0.05, -1, 0), scrollBarWidth=0.05,
                                verticalScroll_frameColor=(0.2, 0.22, 0.24, 1),
                                verticalScroll_thumb_frameColor=(0.5, 0.55, 0.55, 1),
                                horizontalScroll_frameSize=(0, 0, 0, 0), manageScrollBars=True,
                                autoHideScrollBars=True)
    canvas = frame.getCanvas()
    y = -0.04
    for heading, paragraphs in page(_):
        y -= _text(canvas, heading, y, width, HEADING, screen.app.bold, ACCENT) + 0.03
        for paragraph in paragraphs:
            y -= _text(canvas, paragraph, y, width, BODY, screen.app.font, INK) + 0.025
        y -= 0.03
    seen = top - bottom - 0.01
    frame["canvasSize"] = (-half, half - 0.05, min(y, -seen), 0)
    frame.setCanvasSize()
    bar = frame.verticalScroll
    bar["value"] = at

    def scroll(amount: float) -> None:
        span = max(0.01, -y - seen)
        bar["value"] = min(1, max(0, bar["value"] + amount * SCROLL_STEP / span))

    for key, amount in (("arrow_up", -0.5), ("arrow_down", 0.5), ("arrow_up-repeat", -0.5),
                        ("arrow_down-repeat", 0.5), ("page_up", -4), ("page_down", 4)):
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
    screen.label(_("Mouse wheel, arrow keys or Page Up / Page Down scroll the page"), (0, bottom - 0.06),
                 scale=SMALL, fg=DIM, parent=parent, wrap=width / SMALL)
    screen.accept("escape", on_back)
    screen.accept("f1", on_back)
    frame.scroll = scroll
    frame.bottom = y
    return frame


def _text(parent, text: str, y: float, width: float, scale: float, font, colour) -> float:
    """A wrapped paragraph at height y (left edge of the column); returns its height."""
    node = TextNode("rules-text")
    node.setText(keep_together(text))
    node.setFont(font)
    node.setWordwrap(width / scale)
    node.setTextColor(*colour)
    np = parent.attachNewNode(node)
    np.setScale(scale)
    np.setPos(-width / 2, 0, y - scale * 0.8)
    return node.getHeight() * scale


class RulesScreen(Screen):
    name = "rules"
    at = 0.0   # where the page was scrolled to, kept while it is laid out again for a resized window

    def keep(self) -> None:
        self.at = self.frame.verticalScroll["value"]

    def build(self) -> None:
        self.frame = build_rules(self, self.root, self.app.menu, self.at)

