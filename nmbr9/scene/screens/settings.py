"""Settings: window size, full screen, camera sensitivity, animation speed, sound, language.

Every change is used at once (the language too, without a restart) and kept
in the data folder's settings.json.
"""
from __future__ import annotations

from direct.gui.DirectGui import DirectSlider
from panda3d.core import TextNode

from ...i18n import _, available_languages, decimal, language_name
from .widgets import DIM, SLIDER, SMALL, WARN, KeyMenu, Screen, even_wrap

SIZES = [(800, 600), (1024, 576), (1024, 768), (1280, 720), (1600, 900), (1920, 1080)]   # 4:3 and 16:9, smallest first
ROW_TOP = 0.5
ROW_STEP = 0.14
X, W = 0.35, 0.6     # where the settings' buttons and sliders stand, and how wide (their names end left of them)
LINE = 1.8           # the width of the page's sentences


def display_size(base) -> tuple[int, int]:
    """The screen's size in pixels, (0, 0) where the system does not say."""
    pipe = base.pipe
    return (pipe.getDisplayWidth(), pipe.getDisplayHeight()) if pipe is not None else (0, 0)


def fitting_sizes(display: tuple[int, int], now: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    """The window sizes offered, smallest first: those the screen holds (a bigger window would hide Confirm),
    and the window's own (one the player dragged it to), so that the next size follows it."""
    w, h = display
    fitting = [s for s in SIZES if not w or s[0] <= w and s[1] <= h] or SIZES[:1]
    return sorted(set(fitting) | ({tuple(now)} if now else set()))


class SettingsScreen(Screen):
    name = "settings"

    def __init__(self, app):
        super().__init__(app)
        self.message = ""
        self.keys = None    # the keyboard's place on the page, kept when a change rebuilds it
        self.shown_size = None

    def build(self) -> None:
        s = self.app.settings
        self.backdrop()
        self.label(_("Settings"), (0, 0.78), scale=0.09, bold=True)
        on_off = {True: _("on"), False: _("off")}
        rows = [
            (_("Window size"), lambda y: self.size_button(y)),
            (_("Full screen"), lambda y: self.button(on_off[s.fullscreen], self.toggle, (X, y), width=W,
                                                     scale=0.045, args=("fullscreen",))),
            (_("Camera sensitivity"), lambda y: self.slider("camera_sensitivity", (0.2, 3.0), y)),
            (_("Animation speed"), lambda y: self.slider("animation_speed", (0.0, 3.0), y)),
            (_("Sound"), lambda y: self.button(on_off[s.sound], self.toggle, (X, y), width=W, scale=0.045,
                                               args=("sound",))),
            (_("Language"), lambda y: self.button(self.language_text(), self.next_language, (X, y), width=W,
                                                  scale=0.045)),
        ]
        widgets = []
        for i, (text, make) in enumerate(rows):
            y = ROW_TOP - i * ROW_STEP
            self.label(text, (X - W / 2 - 0.1, y), scale=0.05, align=TextNode.ARight)
            widgets.append(make(y))
        # what the sensitivity moves: it read as the mouse's alone (and was, until it scaled A D W S too)
        notes = [_("Camera sensitivity: how far a right drag and A D W S turn and tilt the table."),
                 _("Animation speed 0 turns animations off.")]
        if not self.app.audio:
            notes.append(_("No sound device was found: sound stays silent."))
        # one label: a sentence that wraps (in German) pushes the next down, as the menu's notices do
        # (lines as even as they come: "S." of "A D W S." stood alone under a long Spanish line)
        even_wrap(self.label("\n".join(notes), (0, -0.4), scale=SMALL, fg=DIM, wrap=LINE / SMALL), LINE / SMALL)
        if self.message:
            self.label(self.message, (0, -0.66), scale=0.04, fg=WARN, wrap=LINE / 0.04)
        widgets.append(self.button(_("Back (Esc)"), self.app.menu, (0, -0.82), width=0.5, scale=0.05))
        keys = _("Tab or Up/Down walk the settings, Left/Right move a slider, Enter or Space presses")
        # each "keys: what they do" of a translation kept whole: its lines break between them ("links/rechts: /
        # Regler verschieben" broke in German)
        items = keys.split("  \u00b7  ")
        if len(items) > 1:
            keys = "  \u00b7  ".join(item.replace(" ", "\u00a0") for item in items)
        even_wrap(self.label(keys, (0, -0.93), scale=SMALL, fg=DIM, wrap=LINE / SMALL), LINE / SMALL)
        self.keys = KeyMenu(self, widgets, self.keys.index if self.keys else 0)
        self.accept("escape", self.app.menu)

    def size_button(self, y: float):
        """The size the window has now (not always the saved one: see next_size). In full screen, the size it
        goes back to, said so: "1280 × 720" alone read as the size of a full screen that was 1920 × 1080."""
        self.shown_size = self.app.window_in_use()
        width, height = self.shown_size
        text = (_("{width} \u00d7 {height} in a window") if self.app.settings.fullscreen else
                "{width} \u00d7 {height}").format(width=width, height=height)
        return self.button(text, self.next_size, (X, y), width=W, scale=0.045)

    def window_changed(self) -> None:
        super().window_changed()
        if self.root is not None and self.root.getNumChildren() and self.shown_size != self.app.window_in_use():
            self.relabel()   # the size asked for has come, or the player resized the window

    def slider(self, field: str, span: tuple[float, float], y: float):
        value = getattr(self.app.settings, field)
        shown = self.label(decimal(value) + "\u00d7", (X + W / 2 + 0.06, y - 0.01), scale=0.045, align=TextNode.ALeft)
        slider = DirectSlider(parent=self.root, range=span, value=value, pageSize=0.1, pos=(X, 0, y + 0.012),
                              scale=(W / 2, 1, 0.35), frameColor=SLIDER,
                              thumb_frameColor=(0.8, 0.75, 0.6, 1))

        def moved():
            v = round(slider["value"], 1)
            shown["text"] = decimal(v) + "\u00d7"
            if v != getattr(self.app.settings, field):
                self.change(**{field: v}, rebuild=False)
        slider["command"] = moved
        return slider

    def language_text(self) -> str:
        code = self.app.settings.language
        return language_name(code) if code else _("System ({language})").format(
            language=language_name(_system_language()))

    # ----- changes ------------------------------------------------------------------
    def change(self, rebuild: bool = True, **values) -> None:
        problem = self.app.save_settings(self.app.settings.changed(**values))
        self.message = problem or ""
        if rebuild:
            self.relabel()

    def next_size(self) -> None:
        """The next size after the window's own, used now and kept for the next start. Only a size chosen
        here (or by resizing the window) is saved: --size, or a saved size shrunk to fit a smaller screen,
        opens one window so, and changing another setting keeps the saved size as it was."""
        size = self.app.window_in_use()
        sizes = fitting_sizes(display_size(self.base), size)
        i = sizes.index(size)
        chosen = sizes[(i + 1) % len(sizes)]
        if chosen == self.app.settings.window_size and not self.app.settings.fullscreen:
            self.app.ask_window(chosen, False)   # the saved size again: no change of settings resizes the window
        self.change(window_size=chosen)

    def toggle(self, field: str) -> None:
        self.change(**{field: not getattr(self.app.settings, field)})

    def next_language(self) -> None:
        options = [None] + available_languages()
        code = self.app.settings.language
        new = options[(options.index(code) + 1) % len(options)] if code in options else None
        self.change(language=new)   # the language listener rebuilds every text


def _system_language() -> str:
    from ...i18n import system_language
    return system_language()
