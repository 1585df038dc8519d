"""A text field that edits as on the desktop: every field of the screens (names, seeds, codes) is one.

Panda3D's PGEntry (behind DirectEntry) types, erases one letter and moves its cursor one step; it has no
selection, so Ctrl+A then Backspace erased one letter ("Ana" then "Ben" became "AnBen"). This adds, while
the field takes the typing: Ctrl+A; Shift with the arrows, Home and End to select; Home and End; typing,
Backspace or Delete over a selection; Ctrl+C, Ctrl+X and Ctrl+V (the desktop's clipboard through xclip or
xsel where one is installed, else one kept by the game, so copying between its own fields still works).

PGEntry acts on a key before any Python hears of it (and an inactive one loses the typing), so over a
selection its own edit is undone: the text as it was when selected is kept, and the key's edit is made on
it. The arrows, Home and End are always moved here (PGEntry's own cursor keys are off).
"""
from __future__ import annotations

import shutil
import subprocess

from direct.gui.DirectGui import DirectEntry
from direct.showbase import ShowBaseGlobal
from panda3d.core import CardMaker, TransparencyAttrib

SELECTED = (0.3, 0.5, 0.9, 0.45)   # the selection's highlight, over the letters (they show through)
# the desktop clipboard's tools, tried in this order: (name, copy's arguments, paste's arguments)
CLIPBOARD_TOOLS = (("xclip", ["-selection", "clipboard", "-in"], ["-selection", "clipboard", "-out"]),
                   ("xsel", ["--clipboard", "--input"], ["--clipboard", "--output"]))


class Clipboard:
    """The desktop's clipboard where a tool for it is installed, and always the game's own copy."""
    kept = ""

    @classmethod
    def copy(cls, text: str) -> None:
        cls.kept = text
        for name, copy_args, _paste in CLIPBOARD_TOOLS:
            if shutil.which(name):
                try:   # (xclip stays behind to hold the text: its output must not be waited for)
                    subprocess.run([name, *copy_args], input=text, text=True, timeout=1,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    return
                except (OSError, subprocess.SubprocessError):
                    continue

    @classmethod
    def paste(cls) -> str:
        for name, _copy, paste_args in CLIPBOARD_TOOLS:
            if shutil.which(name):
                try:
                    done = subprocess.run([name, *paste_args], capture_output=True, text=True, timeout=1)
                except (OSError, subprocess.SubprocessError):
                    continue
                if done.returncode == 0:
                    return done.stdout
        return cls.kept


class TextField(DirectEntry):
    """A DirectEntry with a selection (see the module's text). `anchor` is where the selection began, the
    cursor its other end; None: nothing selected. `selected_in` is the text the selection is in."""

    def __init__(self, parent=None, **kw):
        self.defineoptions(kw, ())
        DirectEntry.__init__(self, parent)
        self.initialiseoptions(TextField)
        self.guiItem.setCursorKeysActive(False)
        self.anchor: int | None = None
        self.selected_in = ""
        self.span = (0, 0)
        self.highlight = None
        steps = {"arrow_left": lambda at: at - 1, "arrow_right": lambda at: at + 1,
                 "home": lambda at: 0, "end": lambda at: len(self.get())}
        for key, where in steps.items():
            for shift in ("", "shift-"):
                for repeat in ("", "-repeat"):
                    self.accept(shift + key + repeat, self._move, [where, bool(shift), key])
        for key, do in (("control-a", self.select_all), ("control-c", self.copy), ("control-x", self.cut),
                        ("control-v", self.paste), ("backspace", self._erase), ("delete", self._erase),
                        ("backspace-repeat", self._erase), ("delete-repeat", self._erase),
                        ("keystroke", self._typed)):
            self.accept(key, do)
        self.accept("mouse1", self.deselect)   # a click ends a selection, as on the desktop
        throwers = getattr(ShowBaseGlobal.base, "buttonThrowers", None)
        if throwers:   # the letters typed, as "keystroke" events (an offscreen buffer has no keyboard)
            throwers[0].node().setKeystrokeEvent("keystroke")

    def focusOutCommandFunc(self) -> None:
        self.deselect()
        DirectEntry.focusOutCommandFunc(self)

    # ----- what is selected ---------------------------------------------------------------------------------
    @property
    def cursor(self) -> int:
        return min(self.guiItem.getCursorPosition(), len(self.get()))

    def selection(self) -> tuple[int, int]:
        """The selected letters' span (start, end), as selected; equal ends: nothing selected."""
        return (self.cursor, self.cursor) if self.anchor is None else self.span

    def selected(self) -> str:
        start, end = self.selection()
        return self.selected_in[start:end]

    def typing(self) -> bool:
        return not self.isEmpty() and self.guiItem.getFocus()

    def select_all(self) -> None:
        if self.typing():
            self._select(0, len(self.get()))

    def deselect(self, *_event) -> None:
        self._select(None, self.cursor)

    def _select(self, anchor: int | None, cursor: int) -> None:
        """The cursor at `cursor`, the selection from `anchor` to it."""
        self.anchor = None if anchor == cursor else anchor
        self.selected_in = self.get()
        self.span = (cursor, cursor) if anchor is None else (min(anchor, cursor), max(anchor, cursor))
        self.guiItem.setCursorPosition(cursor)
        if self.highlight is not None:
            self.highlight.removeNode()
            self.highlight = None
        if self.anchor is not None:
            start, end = self.selection()
            width = self.onscreenText.textNode.calcWidth
            text = self.get()
            card = CardMaker("selection")
            card.setFrame(width(text[:start]), width(text[:end]), -0.25, 0.85)
            card.setColor(*SELECTED)
            self.highlight = self.attachNewNode(card.generate())
            self.highlight.setTransparency(TransparencyAttrib.MAlpha)

    # ----- the keys -------------------------------------------------------------------------------------------
    def _move(self, where, extend: bool, key: str) -> None:
        """An arrow, Home or End: the cursor moves (with Shift, the selection with it); an arrow without Shift
        over a selection goes to that end of it, as on the desktop."""
        if not self.typing():
            return
        start, end = self.selection()
        if not extend and self.anchor is not None and key in ("arrow_left", "arrow_right"):
            self._select(None, start if key == "arrow_left" else end)
            return
        at = max(0, min(len(self.get()), where(self.cursor)))
        self._select((self.cursor if self.anchor is None else self.anchor) if extend else None, at)

    def _erase(self) -> None:
        """Backspace or Delete over a selection erases it (without one, PGEntry's erasing a letter stands)."""
        if self.typing() and self.anchor is not None:
            self._replace("")

    def _typed(self, letter: str) -> None:
        """A letter typed over a selection takes its place (without one, PGEntry's typing it stands)."""
        if self.typing() and self.anchor is not None and letter.isprintable():
            self._replace(letter)

    def copy(self) -> None:
        if self.typing() and self.anchor is not None:
            Clipboard.copy(self.selected())

    def cut(self) -> None:
        if self.typing() and self.anchor is not None:
            Clipboard.copy(self.selected())
            self._replace("")

    def paste(self) -> None:
        if self.typing():
            self._replace(" ".join(Clipboard.paste().split()))   # one line: a field holds no line breaks

    def _replace(self, words: str) -> None:
        """The selection (or nothing, at the cursor) replaced by as much of `words` as the field holds; over a
        selection, in the text as it was selected (what PGEntry did with the key meanwhile is undone)."""
        start, end = self.selection()
        text, room = (self.get() if self.anchor is None else self.selected_in), self.guiItem.getMaxWidth()
        width = self.onscreenText.textNode.calcWidth
        while words and room > 0 and width(text[:start] + words + text[end:]) > room:
            words = words[:-1]
        self.set(text[:start] + words + text[end:])
        self._select(None, start + len(words))
