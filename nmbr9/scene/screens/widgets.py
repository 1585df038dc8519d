"""What every screen around the table is made of: a Screen base class, buttons, labels, a keyboard menu.

Screens hang their widgets off `self.root` (under aspect2d) and accept
events as their own DirectObject, so leaving a screen (`exit`) removes both
at once and screens never steal each other's key bindings.
"""
from __future__ import annotations

import re
import string

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton, DirectEntry, DirectFrame, DirectLabel, DirectSlider
from direct.showbase.DirectObject import DirectObject
from direct.showbase.MessengerGlobal import messenger
from panda3d.core import Point3, TextNode

from .text_field import TextField
from ..hud import ACCENT, DIM, INK, WARN, build_anew, even_wrap, measure, take_off  # noqa: F401  (the screens take their colours from here)
from ...rules.text import shown

BACKDROP = (0.1, 0.12, 0.13, 0.94)
PANEL = (0.16, 0.18, 0.2, 0.92)
BUTTON = (0.24, 0.3, 0.34, 1)
BUTTON_HOT = (0.36, 0.5, 0.42, 1)
BUTTON_OFF = (0.2, 0.21, 0.22, 0.9)
SLIDER = (0.25, 0.28, 0.3, 1)
FIELD_LIT = (0.14, 0.24, 0.2, 1)   # a text field the keyboard walked to
GO = (0.2, 0.55, 0.3, 1)

SMALL = 0.036          # the smallest text of a screen (aspect2d units): 10.8 px in a window 600 px high
SHRINK = 0.7           # how far a button's text may shrink to fit it before it is cut short with "…"
WIDE = (1.3, 1.0)      # the half-width and half-height a screen's layout needs (4:3 holds it at full size)
NARROW = (0.95, 1.45)  # the room of a layout for tall windows (600x900 holds it at full size)
ANY = (0.95, 1.0)      # the room of a one-column layout: any window holds it at full size


# a phrase in brackets this short (brackets included) fits a line of every wrapped text
SHORT_PHRASE = re.compile(r"\([^()\n]{1,30}\)")
# keys named by their letters in a row, "A D W S" (single capitals in a row are never words of these languages)
KEY_RUN = re.compile(r"\b[A-Z](?: [A-Z]\b)+")


def keep_together(text: str) -> str:
    """`text` with its short phrases in brackets, and its runs of keys ("A D W S"), joined by no-break spaces: a
    wrapped line never breaks inside "(level 0)" or "(79 more than you)", nor leaves "S." alone on a line, in any
    language (where the translation puts them)."""
    return KEY_RUN.sub(_joined, SHORT_PHRASE.sub(_joined, text))


def _joined(phrase) -> str:
    return phrase.group().replace(" ", "\u00a0")


def hot(colour) -> tuple:
    """A button's colour lit (the keyboard's highlight, the pointer pressing): BUTTON_HOT for a plain one, a
    brighter shade of its own for a coloured one (a green Start lit was a duller grey-green than unlit)."""
    if tuple(colour) == BUTTON:
        return BUTTON_HOT
    return tuple(min(1.0, c * 1.3 + 0.05) for c in colour[:3]) + (colour[3],)


def window_room(base) -> tuple[float, float]:
    """Half the window's width and height in aspect2d units: the shorter side always spans 2."""
    aspect = base.getAspectRatio()
    return max(aspect, 1.0), max(1.0, 1.0 / aspect)


def box(widget, space, frame=None) -> tuple[float, float, float, float]:
    """A widget's frame (or `frame`), left, right, bottom, top, in the coordinates of `space` (aspect2d, say)."""
    left, right, bottom, top = widget.guiItem.getFrame() if frame is None else frame
    a, b = (space.getRelativePoint(widget, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    return min(a.x, b.x), max(a.x, b.x), min(a.z, b.z), max(a.z, b.z)


def drawn(label, space) -> tuple[float, float, float, float]:
    """What a label shows, its panel and its text, left, right, bottom, top, in the coordinates of `space`: its
    frame alone is out of date when its text is changed without resetFrameSize (the table's "H: show the
    controls" kept the frame of its first, empty text)."""
    node = label.component("text0").textNode   # (placed in the label by its own transform)
    left, right, bottom, top = node.getFrameActual()
    mat = node.getTransform()
    a, b = (mat.xformPoint(Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
    boxes = [box(label, space), box(label, space, (a.x, b.x, a.z, b.z))]
    return (min(b[0] for b in boxes), max(b[1] for b in boxes), min(b[2] for b in boxes), max(b[3] for b in boxes))


def overlap(a, b, margin: float = 0.0) -> bool:
    """Whether two boxes (left, right, bottom, top) overlap, or come closer than `margin`."""
    return a[0] < b[1] + margin and b[0] - margin < a[1] and a[2] < b[3] + margin and b[2] - margin < a[3]


def layout_for(room: tuple[float, float], layouts) -> tuple[int, float]:
    """Which of a screen's layouts (the room each needs) suits a window's room, and the scale that fits
    it in: full size when it fits, else shrunk to fit (never bigger, never text made smaller to fit a
    layout the window could hold at full size)."""
    w, h = room
    scales = [min(1.0, w / need_w, h / need_h) for need_w, need_h in layouts]
    best = max(range(len(layouts)), key=lambda i: (scales[i], -i))   # a tie: the first (widest) one
    return best, scales[best]


class Screen(DirectObject):
    """One screen of the game: built by `build()`, rebuilt on a change of language."""

    name = "screen"
    layouts = (ANY,)      # the room each of the screen's layouts needs; build() reads self.narrow, self.room

    def __init__(self, app):
        super().__init__()
        self.app = app
        self.base = app.base
        self.root = None
        self.room = WIDE      # the half-width and half-height to lay out in (root units)
        self.narrow = False   # the tall windows' layout (the second of `layouts`)

    @property
    def fonts(self):
        return self.app.font, self.app.bold

    def enter(self) -> None:
        self.root = self.base.aspect2d.attachNewNode(f"screen_{self.name}")
        self.window_changed()
        self.build()

    def letters_with_shift(self) -> None:
        """Shift with a letter does what the letter does: the key help writes the keys in capitals, and Panda3D
        names the event "shift-l", not "l". Only for screens with no text field (typing a capital is typing)."""
        for letter in string.ascii_lowercase:
            self.accept("shift-" + letter, messenger.send, [letter])

    def window_changed(self) -> None:
        """Lay the screen out in the window's room: the layout that fits it at the largest scale; a new
        shape of window builds the screen again (keeping what was typed)."""
        if self.root is None:
            return
        w, h = window_room(self.base)
        which, k = layout_for((w, h), self.layouts)
        room = (round(w / k, 3), round(h / k, 3))
        self.root.setScale(k)
        if (room, which == 1) != (self.room, self.narrow):
            self.room, self.narrow = room, which == 1
            if self.root.getNumChildren():
                self.reflow()

    def reflow(self) -> None:
        """The window changed shape: build the widgets again for it (keeping what was typed)."""
        self.keep()
        self.relabel()

    def keep(self) -> None:
        """Keep what was typed before the widgets are built again."""

    def build(self) -> None:
        """Make the widgets (called again after a change of language)."""

    def relabel(self) -> None:
        if self.root is None:
            return
        self.ignoreAll()
        build_anew([self.root], self.build)

    def exit(self) -> None:
        self.ignoreAll()
        if self.root is not None:
            take_off(self.root)
            self.root = None

    # ----- widget makers ------------------------------------------------------
    def backdrop(self, colour=BACKDROP, parent=None):
        """A frame over the whole window (it also keeps clicks off the table below)."""
        return DirectFrame(parent=parent or self.root, frameColor=colour, frameSize=(-10, 10, -10, 10),
                           state=DGG.NORMAL)

    def label(self, text, pos, scale=0.05, align=TextNode.ACenter, parent=None, bold=False, fg=INK,
              wrap=None, **kw):
        if wrap and isinstance(text, str):
            text = keep_together(text)
        return DirectLabel(parent=parent or self.root, text=text, pos=(pos[0], 0, pos[1]), scale=scale,
                           text_align=align, text_fg=fg, text_font=self.app.bold if bold else self.app.font,
                           frameColor=(0, 0, 0, 0), text_wordwrap=wrap, text_shadow=(0, 0, 0, 0.5), **kw)

    def button(self, text, command, pos, width=0.6, scale=0.05, parent=None, colour=BUTTON, args=(),
               enabled=True, align=TextNode.ACenter, height=1.5, **kw):
        """A flat button `width` wide (aspect2d units), text centred; disabled ones are greyed out."""
        w = width / scale
        left = -w / 2 if align == TextNode.ACenter else -0.4
        b = DirectButton(parent=parent or self.root, text=text, command=command, extraArgs=list(args),
                         pos=(pos[0], 0, pos[1]), scale=scale, text_font=self.app.font, text_align=align,
                         text_fg=INK if enabled else DIM, relief=DGG.FLAT,
                         frameColor=(colour, hot(colour), hot(colour), BUTTON_OFF) if enabled else BUTTON_OFF,
                         frameSize=(left, left + w, -0.45 * height, 0.55 * height + 0.3),
                         state=DGG.NORMAL if enabled else DGG.DISABLED, pressEffect=1, **kw)
        if isinstance(text, str):
            self._fit(b, text, w - 0.8)
        return b

    def _fit(self, button, text: str, room: float, around=lambda cut: cut) -> None:
        """A long name or translation: smaller text (down to SHRINK), then cut short with "…",
        rather than text past the button. `around`: the words shown around `text`, kept whole when it is cut
        (a bot's strength after its name: "Wwwwww… (easy)", not "Wwwwwwww (ea…")."""
        need = measure(self.app.font, around(text))[0]
        if need <= room:
            return
        shrink = max(room / need, SHRINK)
        button["text_scale"] = shrink
        if need * shrink > room + 1e-6:
            shown = text
            while len(shown) > 1 and measure(self.app.font, around(shown + "…"))[0] * shrink > room:
                shown = shown[:-1].rstrip()
            button["text"] = around(shown + "…")

    def entry(self, text, pos, width=0.6, scale=0.05, parent=None, command=None, **kw):
        """A text field (text_field.py: it edits as on the desktop)."""
        return TextField(parent=parent or self.root, initialText=text, pos=(pos[0], 0, pos[1]), scale=scale,
                         width=width / scale, numLines=1, entryFont=self.app.font, text_fg=INK,
                         frameColor=(0.05, 0.06, 0.07, 1), relief=DGG.FLAT, focus=0, command=command, **kw)

    def name_field(self, name: str, default, pos, **kw):
        """A player's name field showing the name the game will use when none is typed (`default()`, as
        "Player 1"): a click (or the keys) in it empties it for typing; left empty, it shows the default again. A
        name kept from a file is shown cut short (shown) as everywhere else."""
        e = self.entry(shown(name) or default(), pos, **kw)

        def clear() -> None:
            if e.get().strip() == default():
                e.enterText("")

        def restore() -> None:
            if not e.get().strip():
                e.enterText(default())
        e["focusInCommand"], e["focusOutCommand"] = clear, restore
        return e


STILL_UNKNOWN = "unknown"   # where a pointer that the window has not reported yet is


def has_typing(widget) -> bool:
    """A text field taking the typing: walked to (its `focus` option) or clicked, which gives the focus
    to Panda3D's PGEntry alone, the option left at 0."""
    return isinstance(widget, DirectEntry) and widget.guiItem.getFocus()


class KeyMenu:
    """A column of buttons (sliders, text fields) the keyboard can walk: up/down or Tab move the
    highlight, Enter (unless the screen keeps it) or Space presses a button, left/right move a slider;
    a highlighted text field takes the typing."""

    def __init__(self, screen: Screen, buttons: list, index: int = 0, enter: bool = True, moved=None):
        self.screen = screen
        self.moved = moved   # told the index the highlight moved to (by the keys or the pointer)
        self.buttons = [b for b in buttons if isinstance(b, DirectEntry) or b["state"] != DGG.DISABLED]
        self.colours = [None if isinstance(b, DirectSlider) else b["frameColor"] for b in self.buttons]
        self.index = min(index, max(len(self.buttons) - 1, 0))
        for key, step in (("arrow_up", -1), ("arrow_down", 1), ("arrow_up-repeat", -1),
                          ("arrow_down-repeat", 1), ("tab", 1), ("shift-tab", -1)):
            screen.accept(key, self.move, [step])
        for key, step in (("arrow_left", -1), ("arrow_right", 1), ("arrow_left-repeat", -1),
                          ("arrow_right-repeat", 1)):
            screen.accept(key, self.slide, [step])
        if enter:
            screen.accept("enter", self.press)
        screen.accept("space", self.press)
        # the pointer moves the focus (one button lit at a time), but only once it moves: a screen built
        # under a still pointer keeps the keyboard's highlight (a field takes the typing only when
        # clicked or walked to)
        self.still = self._pointer()
        for i, b in enumerate(self.buttons):
            if not isinstance(b, DirectEntry):
                b.bind(DGG.ENTER, self.pointed, [i])
            else:   # a field clicked takes the typing: the highlight goes with it (it stayed lit on a button)
                b.bind(DGG.B1PRESS, lambda _event, i=i: self.focus(i))
        self.show()
        if self.buttons and isinstance(self.buttons[self.index], DirectEntry):   # built again on a field:
            self.buttons[self.index]["focus"] = 1                                 # it keeps the typing

    def typing(self) -> int | None:
        """The index of the text field taking the typing (walked to or clicked), if any."""
        return next((i for i, b in enumerate(self.buttons) if has_typing(b)), None)

    def _pointer(self):
        """Where the pointer is in the window, in its pixels (STILL_UNKNOWN: not known, outside it or no window).
        Pixels, not the window's -1..1: a window resized under a still pointer moved the buttons under it, and
        its -1..1 changed though it had not moved (the highlight jumped to the button now under it)."""
        win = self.screen.base.win
        if win is not None and hasattr(win, "getPointer"):   # (an offscreen buffer has no pointer)
            pointer = win.getPointer(0)
            return (pointer.getX(), pointer.getY()) if pointer.getInWindow() else STILL_UNKNOWN
        return STILL_UNKNOWN

    def pointed(self, index: int, event) -> None:
        """The pointer entered a button: it takes the highlight, unless the pointer has not moved since
        the menu was built (the button appeared under it)."""
        where = self._pointer()
        if self.still is STILL_UNKNOWN:   # not in the window when built: a window opened under the
            self.still = where            # pointer tells where it is only now, with no move
        if self.still is not None and where == self.still:
            return
        self.still = None   # it moved: from now on every button it enters is lit
        self.focus(index)

    def focus(self, index: int) -> None:
        self.index = index
        self.show()
        if self.moved:
            self.moved(index)

    @staticmethod
    def _doing(b):
        """What a button does (command and arguments); None for a field or a slider."""
        return None if isinstance(b, (DirectEntry, DirectSlider)) else (b["command"], tuple(b["extraArgs"]))

    def current(self):
        """What the highlighted button does, to find it again after a rebuild."""
        return self._doing(self.buttons[self.index]) if self.buttons else None

    def find(self, doing) -> bool:
        """Highlight the button that does `doing` (see current), if there is one (False: there is none)."""
        for i, b in enumerate(self.buttons):
            if doing is not None and self._doing(b) == doing:
                self.focus(i)
                return True
        return False

    def move(self, step: int) -> None:
        if self.buttons:
            at = self.typing()
            self.index = ((self.index if at is None else at) + step) % len(self.buttons)
            for i, b in enumerate(self.buttons):   # the keyboard's field takes the typing
                if isinstance(b, DirectEntry) and has_typing(b) != (i == self.index):
                    b["focus"] = int(i == self.index)
            self.show()
            if self.moved:
                self.moved(self.index)

    def show(self) -> None:
        for i, (b, colour) in enumerate(zip(self.buttons, self.colours)):
            lit = i == self.index
            if isinstance(b, DirectSlider):
                b["frameColor"] = BUTTON_HOT if lit else SLIDER
            elif isinstance(b, DirectEntry):
                b["frameColor"] = FIELD_LIT if lit else colour
            else:
                plain = colour[0] if isinstance(colour[0], tuple) else colour
                # the pointer lights a button through the highlight (pointed), never by rollover alone:
                # a button under a pointer that has not moved would be lit beside the keyboard's
                now = hot(plain) if lit else plain
                b["frameColor"] = (now, hot(plain), now, BUTTON_OFF)
                b.setColorScale(1, 1, 1, 1)

    def press(self) -> None:
        """Press the highlighted button (a field or a slider is not pressed: a field's Enter is its own)."""
        if self.buttons and self.typing() is None and not isinstance(self.buttons[self.index],
                                                                     (DirectSlider, DirectEntry)):
            b = self.buttons[self.index]
            b["command"](*b["extraArgs"])

    def slide(self, step: int) -> None:
        """Left/right: the highlighted slider a step (its page size) down or up."""
        b = self.buttons[self.index] if self.buttons else None
        if isinstance(b, DirectSlider):
            low, high = b["range"]
            b["value"] = min(high, max(low, b["value"] + step * b["pageSize"]))
            b.commandFunc()
