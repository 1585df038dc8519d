"""`nmbr9` / `nmbr9 play`: the whole game in a window, one screen at a time.

`GameApp` is the state manager: it holds the player's Store and settings
and shows one Screen (nmbr9/scene/screens/) at a time: main menu, new game,
rules, settings, play, results, tournaments, puzzles. `goto(Screen, ...)`
leaves the current screen and enters the next.

With NMBR9_TRACE=1 every change of screen and every confirmed placement is
printed as one line on stdout (the end-to-end tests read it). F12 saves a
screenshot into the data folder.
"""
from __future__ import annotations

import os
import time

from direct.showbase.DirectObject import DirectObject

from ..ai import worker
from ..i18n import _, on_language_change, set_language

FRAME_RATE = 60   # the window's frames a second, at most
STORE_LATER_EVERY = 0.5   # seconds between tries of the writes waiting for the database
# the smallest window: the screens' smallest text (widgets.SMALL) is 8.6 pixels high in it; smaller, it
# dropped to 5 (1100x330). Panda3D 1.10 has no minimum size for a window: a smaller one is grown back.
LEAST_WINDOW = (640, 480)


class GameApp(DirectObject):
    """Listens on its own (a DirectObject): `base.accept("window-event")` would replace ShowBase's
    handler, which fits the camera and aspect2d to a resized window and exits when it is closed."""

    def __init__(self, base, store, audio: bool = True):
        from .hud import load_fonts
        from .sound import Sounds
        self.base = base
        self.store = store
        store.never_wait()   # the frames never wait on the database: its refused writes wait (store_later)
        self.settings = store.settings()
        self.trace_on = os.environ.get("NMBR9_TRACE") == "1"
        if self.settings.language:
            try:
                set_language(self.settings.language)
            except ValueError:
                pass
        self.font, self.bold = load_fonts(base)
        # an audio library is loaded and found a device (else Panda3D falls back to a silent one)
        self.audio = audio and bool(base.sfxManagerList) and base.sfxManagerList[0].isValid()
        self.sounds = Sounds(base, store.folder / "sounds", self.audio and self.settings.sound)
        self.screen = None
        self.notices: list[str] = []        # messages for the next menu (e.g. a set-aside save)
        self.menu_choice = None             # the menu item last pressed (its name): highlit on coming back
        self.note = None                    # a short message over any screen (see say)
        self.levels_shown = False           # L: each tile's level on it, at every table until L again
        self.note_words = None              # what gives its text in the language of the moment
        self.window_size = None             # the window's size as last reported
        self.asked_sizes: set = set()       # sizes the game itself asked for (not the player's resizing)
        self.unsaved = None                 # a game left for the menu whose last save failed
        self.analyses: dict = {}            # (deck, boards) -> the results' finished analysis: a game seen again
        self.online = None                  # net.online.Online while a game is played online (connection, server)
        self._unsubscribe = on_language_change(self._new_language)
        self.accept("f12", self.screenshot)
        self.accept("window-event", self._window_event)
        base.taskMgr.doMethodLater(STORE_LATER_EVERY, self._store_later, "store-later")
        base.exitFunc = self._leave
        base.setBackgroundColor(0.12, 0.14, 0.15, 1)
        self.apply_settings(self.settings, window=False)

    # ----- screens ---------------------------------------------------------------
    def goto(self, screen_class, **kw):
        if self.screen is not None:
            self.screen.exit()
        self.screen = screen_class(self, **kw)
        self.screen.enter()
        self.place_note()   # clear of the new screen's buttons
        self.trace("screen", self.screen.name)
        return self.screen

    def menu(self):
        from .screens.menu import MenuScreen
        self.leave_online()   # the seat is kept for Continue (online.json)
        self.store.let_go_tournament()   # no longer played here: `nmbr9 tournament` may play it
        return self.goto(MenuScreen)

    def play(self, match, context=None, screen=None):
        """Play a game: NMBR 9's Match, or a RumBugz game (nmbr9/rumbugz/game.py); `screen`: a table of another
        kind, as an online game's."""
        from ..rumbugz.game import is_rumbugz
        from .plus_play import PlusSessionScreen, is_plus
        from .screens.rumbugz_session import RumbugzScreen
        from .screens.session import SessionScreen
        if is_rumbugz(match):
            screen, kw = RumbugzScreen, {"game": match}
        else:   # NMBR 9 ++: its panels
            screen, kw = screen or (PlusSessionScreen if is_plus(match.game.ruleset) else SessionScreen), {"match": match}
        if match is not self.unsaved:   # another game: the unsaved one is given up
            self.unsaved = None
        words = self.setting_up()
        worker.warm()   # the bots and the hints think in processes: started before they are needed
        self.goto(screen, context=context or {}, **kw)
        if self.note is not None and self.note_words is words:   # the table is there: said no longer
            self._unsay()
        return self.screen

    def play_rumbugz_tournament(self, t, unsaved=None) -> None:
        """Play RumBugz tournament `t`'s game in progress (at its round) or its next one, each round stored in
        the tournament as it ends; over, its standings. StoreError: why not (`nmbr9 tournament` plays it)."""
        from ..store.rumbugz import window_game
        from .screens.tournament import TournamentScreen
        self.store.hold_tournament(t)
        game = window_game(self.store, t, unsaved)
        if game is None:   # over meanwhile (played by the command)
            self.goto(TournamentScreen, chosen=t.id)
        else:
            self.play(game, {"tournament": t.id})

    def setting_up(self):
        """The table takes a while to come (its models loaded, its first frame drawn: 4 s on a busy machine the
        first time, the bots' processes starting beside it): the screen clicked on says so at once, its buttons
        greyed, rather than staying as it was, as if the click had not been taken. The line's words."""
        if self.screen is None or self.screen.root is None or self.base.win is None:
            return None
        from direct.gui import DirectGuiGlobals as DGG
        from direct.gui.DirectGui import DirectButton
        from direct.gui.DirectGuiBase import DirectGuiWidget
        from .screens.widgets import BUTTON_OFF, DIM
        roots = [r for r in (self.screen.root, *getattr(self.screen, "anchors", {}).values()) if r is not None]
        for b in list(DirectGuiWidget.guiDict.values()):
            if isinstance(b, DirectButton) and not b.isEmpty() and any(r.isAncestorOf(b) for r in roots):
                b["state"] = DGG.DISABLED
                b["frameColor"] = BUTTON_OFF
                b["text_fg"] = DIM
        if self.note is not None:   # a note up (F12 in the menu: "Screenshot saved") stays: the greyed buttons say it
            return None
        words = lambda: _("Setting up the table…")  # noqa: E731
        self.say(words)
        for _frame in range(2):   # drawn and shown (the second frame flips it in) before the work begins
            self.base.graphicsEngine.renderFrame()
        return words

    def quit(self) -> None:
        self.base.userExit()   # calls _leave, as closing the window does

    def _leave(self) -> None:
        self.trace("quit")
        self.leave_online()
        worker.stop()   # a bot's move in progress is not waited for
        self.base.taskMgr.remove("store-later")
        self._unsay()
        if self.screen is not None:   # e.g. stops the results' analysis process
            self.screen.exit()
            self.screen = None

    def leave_online(self) -> None:
        """Close the connection of an online game, and the server this window hosts (its games stay stored)."""
        if self.online is not None:
            online, self.online = self.online, None
            online.stop()

    # ----- settings ----------------------------------------------------------------
    def apply_settings(self, settings, window: bool = True) -> None:
        """Use and keep new settings; the window changes only when `window` (not at start: main() sized it)."""
        old, self.settings = self.settings, settings
        self.sounds.enabled = settings.sound and self.audio
        if window and (old.window_size != settings.window_size or old.fullscreen != settings.fullscreen):
            self.ask_window(settings.window_size, settings.fullscreen)
        if old.language != settings.language:
            try:
                set_language(settings.language)
            except ValueError:
                pass

    def ask_window(self, size: tuple[int, int], fullscreen: bool) -> None:
        """Have the window take this size (kept as the game's own request, not the player's resizing)."""
        from panda3d.core import WindowProperties
        props = WindowProperties()
        props.setFullscreen(fullscreen)
        props.setSize(*size)
        self.asked_sizes.add(size)
        if self.base.win is not None and hasattr(self.base.win, "requestProperties"):
            self.base.win.requestProperties(props)

    def window_in_use(self) -> tuple[int, int]:
        """The window's size now: started with --size, or shrunk to fit a smaller screen, it is not the saved
        one. In full screen, the size it goes back to."""
        if self.settings.fullscreen or self.base.win is None:
            return self.settings.window_size
        return self.base.win.getXSize(), self.base.win.getYSize()

    def save_settings(self, settings) -> str | None:
        """Apply and store; returns a sentence when the file could not be written."""
        self.apply_settings(settings)
        try:
            self.store.save_settings(settings)
        except OSError as e:
            return getattr(e, "message", str(e))
        return None

    # ----- odds and ends -------------------------------------------------------------
    def trace(self, *words) -> None:
        if self.trace_on:
            print("trace:", *words, flush=True)

    def screenshot(self) -> str | None:
        from panda3d.core import PNMImage
        from ..store import SaveError, free_path, write_atomic
        from .render import picture_bytes
        path = free_path(self.store.folder / f"screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png")
        image = PNMImage()
        if self.note is not None:   # the last screenshot's note is not part of this picture: drawn once without
            self._unsay()
            self.base.graphicsEngine.renderFrame()
        try:   # whole or not at all: a full disk is said and leaves no empty picture behind
            ok = self.base.win.getScreenshot(image)
            if ok:
                write_atomic(path, picture_bytes(image, path.name))
        except SaveError:
            ok = False
        self.trace("screenshot", path if ok else "failed")
        self.say(lambda: _("Screenshot saved: {path}").format(path=path) if ok else
                 _("The screenshot could not be saved in {folder}.").format(folder=self.store.folder))
        return str(path) if ok else None

    def say(self, words, seconds: float = 4.0) -> None:
        """A short message low on whatever screen is up, clear of its buttons; it goes by itself. `words()`
        gives it in the language of the moment (said again if the language changes meanwhile)."""
        from direct.gui.DirectGui import DirectLabel
        from .screens.widgets import INK, PANEL
        self._unsay()
        self.note_words = words
        self.note = DirectLabel(parent=self.base.aspect2d, text=words(), scale=0.04, text_fg=INK,
                                text_font=self.font, frameColor=PANEL, pad=(0.4, 0.25), text_wordwrap=40)
        self.note.setBin("gui-popup", 0)   # over every screen's widgets (a corner's come before a screen's)
        self.place_note()
        # its seconds from now, not from the start of this frame: a screenshot written in it (seconds with software
        # GL on a busy machine) had used them up, and the note went with the frame that first drew it
        from panda3d.core import ClockObject
        clock = ClockObject.getGlobalClock()
        self.base.taskMgr.doMethodLater(seconds + clock.getRealTime() - clock.getFrameTime(), self._unsay, "app-note")

    def place_note(self) -> None:
        """The note where it hides nothing the player needs: as low as it goes, beside or above every button,
        field, slider and text (the menu's key line, "Press Esc again to quit.", was under it for its seconds;
        at the table, the controls legend). A long path (a deep data folder) makes it two or three lines tall.
        Where that finds no room, over text but clear of the buttons; where even that finds none (never seen),
        at the top. Placed again whenever the widgets change under it (another screen, the hand-off)."""
        if self.note is None:
            return
        from direct.gui.DirectGui import DirectButton, DirectEntry, DirectFrame, DirectLabel, DirectSlider
        from direct.gui.DirectGuiBase import DirectGuiWidget
        from .screens.widgets import box, drawn, window_room
        aspect = self.base.aspect2d
        shown = [w for w in list(DirectGuiWidget.guiDict.values())
                 if w is not self.note and not w.isEmpty() and aspect.isAncestorOf(w) and not w.isHidden()
                 and not any(p.isHidden() for p in w.getAncestors())]
        pressable = [box(w, aspect) for w in shown if isinstance(w, (DirectButton, DirectEntry, DirectSlider))]
        texts = [drawn(w, aspect) for w in shown if type(w) is DirectLabel and isinstance(w["text"], str)
                 and w["text"].strip()]
        # the panels drawn under the widgets (the results' score panel, a card): the note lies inside one or
        # clear of it, never across its edge (on the results it straddled the panel, half on it, half on the board)
        panels = [box(w, aspect) for w in shown if type(w) is DirectFrame and w["frameColor"][3] > 0]
        self.note.setPos(0, 0, 0)
        note = box(self.note, aspect)
        room = window_room(self.base)
        clear = pressable + texts
        centred, beside = (self._room_for(note, clear, room, [0.0], panels),
                           self._room_for(note, clear, room, panels=panels))
        # centred, unless beside something is more than a line lower (between the table's legend and Confirm)
        low = beside is not None and (centred is None or beside[2] < centred[2] - 2 * self.note["scale"])
        spot = (beside if low else centred) or self._room_for(note, pressable, room, [0.0])
        self.note.setPos(*(spot or (0, 0, room[1] - 0.02 - note[3])))

    @staticmethod
    def _room_for(note, others, room, sides=None, panels=()):
        """The lowest place (x, 0, z) for a note whose box at the origin is `note` that keeps clear of the boxes
        `others` in a window of half size `room`, `x` one of `sides` (by default: centred or just beside one of
        them or of the `panels`, nearest the middle first), and lies inside or clear of each of the boxes
        `panels`. None: no room."""
        from .screens.widgets import overlap
        margin, nudge = 0.02, 1e-6   # (nudge: a box just above another is not taken for touching it)
        left, right, bottom, top = note
        half_w, half_h = room
        heights = sorted({-half_h + margin - bottom} | {o[3] + margin + nudge - bottom for o in others})
        if sides is None:
            edges = [*others, *panels]
            sides = [0.0] + sorted({o[1] + margin + nudge - left for o in edges} |
                                   {o[0] - margin - nudge - right for o in edges}, key=abs)

        def across(b, p) -> bool:   # over the panel's edge: neither inside it nor clear of it
            inside = p[0] + margin <= b[0] and b[1] <= p[1] - margin and p[2] + margin <= b[2] and b[3] <= p[3] - margin
            return overlap(b, p, margin) and not inside
        for z in heights:
            if z + top > half_h - margin:
                break
            for x in sides:
                spot = (x + left, x + right, z + bottom, z + top)
                if -half_w + margin <= x + left and x + right <= half_w - margin and not any(
                        overlap(spot, other, margin) for other in others) and not any(
                        across(spot, p) for p in panels):
                    return x, 0, z
        return None

    def _store_later(self, task):
        """Writes waiting while another program holds the database: the player told once, tried again without
        waiting; the screen showing what they hold (the results' standings, a leaderboard) filled in as they land."""
        later = self.store.later
        if later.untold:
            later.untold = False
            self.say(lambda: _("Another program is using the game's database: your results are kept, and stored "
                               "as soon as it lets go."), seconds=6)
        if self.store.store_later() and hasattr(self.screen, "stored_later"):
            self.screen.stored_later()
        if later.problem:
            problem, later.problem = later.problem, None
            self.say(lambda: problem, seconds=6)
        return task.again

    def _new_language(self, code: str) -> None:
        if self.screen is not None:
            self.screen.relabel()
        if self.note is not None:   # after the screen: clear of its buttons as they now stand
            self.note["text"] = self.note_words()
            self.place_note()

    def _unsay(self, task=None) -> None:
        self.base.taskMgr.remove("app-note")
        if self.note is not None:
            self.note.destroy()
            self.note = None

    def _window_event(self, win) -> None:
        if self.screen is not None and hasattr(self.screen, "window_changed"):
            self.screen.window_changed()
        self.place_note()   # the buttons moved with the window's shape
        if win is not None and win.hasSize() and not self.settings.fullscreen:
            size = (win.getXSize(), win.getYSize())
            if self._grown(win, size):
                return   # its next event is the size kept
            if size in self.asked_sizes:   # the game's own request (settings, --size, a smaller screen), done:
                self.asked_sizes.discard(size)   # the player resizing back to it later is the player's
                self.window_size = size
            elif self.window_size is None:
                self.window_size = size   # the size it opened with
            elif size != self.window_size:
                self.window_size = size
                # resized by the player (a drag sends many events): kept for the next start
                self.base.taskMgr.remove("keep-window-size")
                self.base.taskMgr.doMethodLater(0.5, self._keep_window_size, "keep-window-size",
                                                extraArgs=[size])

    def _grown(self, win, size) -> bool:
        """A window made smaller than LEAST_WINDOW (or the screen, if that is smaller) is grown to it."""
        from .screens.settings import display_size
        screen = display_size(self.base)
        least = [min(n, d) if d else n for n, d in zip(LEAST_WINDOW, screen)]
        grown = (max(size[0], least[0]), max(size[1], least[1]))
        if grown == size or not hasattr(win, "requestProperties"):
            return False
        from panda3d.core import WindowProperties
        props = WindowProperties()
        props.setSize(*grown)
        win.requestProperties(props)
        return True

    def _keep_window_size(self, size) -> None:
        kept = self.settings.changed(window_size=size)
        if kept.window_size != size or size == self.settings.window_size:   # a size settings refuse, or no change
            return
        self.settings = kept
        try:
            self.store.save_settings(self.settings)
        except OSError:
            pass   # the window keeps its size now; the settings screen says when settings can't be saved
        if self.screen is not None and self.screen.name == "settings":
            self.screen.relabel()


class RecordFile:
    """A Match saver for `--record FILE`: the game record after every placement."""

    def __init__(self, path):
        self.path = path

    def save(self, match) -> None:
        import json
        from ..store import write_atomic
        write_atomic(self.path, json.dumps(match.record()))


def check_record_path(path: str, seed: int | None) -> None:
    """`--record FILE` is written after every placement: a path that can never be written is said
    before the window opens (ValueError), not at the table after the first tile; without --seed
    there is no game for it to record (it was never written, without a word)."""
    from pathlib import Path
    if seed is None:
        raise ValueError(_("--record goes with --seed: it records the solo game that starts at once."))
    file = Path(path)
    if file.is_dir():
        raise ValueError(_("--record {path} is a folder: give the name of a file.").format(path=path))
    if not file.absolute().parent.is_dir():
        raise ValueError(_("--record {path}: there is no folder {folder}.").format(
            path=path, folder=file.absolute().parent))


def solo_match(store, seed: int, savers=()):
    """`nmbr9 play --seed N`: a solo game for the New game screen's first player ("Player 1", whose
    board and personal bests read as any other's; "You" made "You's board")."""
    from ..rules import Seat
    from ..match import SEAT_NAMES
    return store.new_match([Seat(SEAT_NAMES[0].format(number=1))], seed=seed, savers=list(savers))


def save_first_frame(app, path: str) -> int:
    """`nmbr9 play --first-frame FILE`: the first frame, drawn offscreen, written to FILE, and the game left (a
    build's check of all it needs to show a screen; `nmbr9 bench build` times it). The exit status."""
    from pathlib import Path
    from panda3d.core import PNMImage
    from ..store import SaveError, write_atomic
    from .render import picture_bytes
    for _frame in range(2):   # the screen's first tasks fill it in (at the table: the card, the HUD), textures ready
        app.base.taskMgr.step()
    image = PNMImage()
    app.base.win.getScreenshot(image)
    try:
        write_atomic(Path(path), picture_bytes(image, path))
    except SaveError as e:   # a full disk: said, no empty picture left
        print(e.message)
        return 2
    finally:
        app._leave()
        app.store.close()
    print(_("Wrote {file} ({width}x{height}): the game's first frame.").format(
        file=path, width=image.getXSize(), height=image.getYSize()), flush=True)
    return 0


def cant_start(text: str) -> int:
    """Why the game does not start: on its output, and (started from a desktop icon: no terminal to read
    it in) in a small window too. The exit status."""
    from .screens import cant_start as window
    print(text, flush=True)
    if window.wanted():
        window.show(text)
    return 2


def main(args) -> int:
    from ..store import Store, StoreError, folder_problem
    from .base import make_base, parse_size
    from .sound import sound_device
    try:
        store = Store()
        settings = store.settings()
    except OSError as e:
        where = e.filename or os.environ.get("NMBR9_DATA") or "~/.local/share/nmbr9-3d"
        return cant_start(_("Can't start: the data folder {path} can't be used ({reason})").format(
            path=where, reason=folder_problem(e)))
    if settings.language:   # said in the game's language, as the window would
        try:
            set_language(settings.language)
        except ValueError:
            pass
    try:
        held = store.hold()
    except OSError as e:   # taken as free, two copies ran on one data folder
        return cant_start(_("Can't start: the data folder's lock file {path} can't be opened ({reason}), so "
                            "another copy of NMBR 9 3D, another user's, may be using the folder. Use a data folder "
                            "of your own, or have the file's owner remove it.").format(
            path=e.filename or store.folder, reason=e.strerror or e))
    if not held:   # two windows on one autosave: the last to save would silently replace the other's game
        return cant_start(_("Can't start: another copy of NMBR 9 3D is using the data folder {path}. Play on in "
                            "its window, or quit it first.").format(path=store.folder))
    size = settings.window_size
    first_frame = getattr(args, "first_frame", None)
    try:   # before any window opens
        if getattr(args, "size", None):
            size = parse_size(args.size)
        if getattr(args, "seed", None) is not None:
            from ..match import check_seed
            check_seed(args.seed)
        if getattr(args, "record", None):
            check_record_path(args.record, getattr(args, "seed", None))
        if first_frame:
            from pathlib import Path
            from .render import picture_problem
            problem = picture_problem(Path(first_frame))
            if problem:
                raise ValueError(problem)
    except ValueError as e:
        store.close()   # (the folder is not held while the message is up)
        return cant_start(_("Can't start: {reason}").format(reason=e))
    if getattr(args, "seed", None) is not None:   # the solo game would replace the saved one: never unasked
        from ..rumbugz.game import is_rumbugz
        from .screens.menu import saved_game_text
        found = store.continue_game(threaded=False)   # only to name it: no bot thinks
        if found.message:
            print(found.message)
        saved = found.match   # a tournament's game lives on in it; one with no tile laid loses nothing
        if saved is not None and not saved.tournament and (is_rumbugz(saved) or saved.game.moves):
            store.close()
            return cant_start(_("Can't start: it would end your saved game ({game}). Continue it from the menu, "
                                "or start this deck there: New game, seed {seed}.").format(
                                    game=saved_game_text(saved), seed=args.seed))
    audio = os.environ.get("NMBR9_NO_AUDIO") != "1"   # tests run silent
    if audio and not sound_device():   # one line, not the audio libraries' screenful of errors
        print(_("No sound device found: playing without sound."), flush=True)
        audio = False
    base = make_base(offscreen=bool(first_frame), size=size, audio=audio, frame_rate=FRAME_RATE)
    from panda3d.core import WindowProperties
    from .screens.settings import display_size, fitting_sizes
    display = display_size(base)
    if settings.fullscreen and not first_frame:
        props = WindowProperties()
        props.setFullscreen(True)
        base.win.requestProperties(props)
    elif not getattr(args, "size", None) and display[0] and (size[0] > display[0] or size[1] > display[1]):
        props = WindowProperties()   # kept from a bigger screen: the biggest size this one holds
        size = fitting_sizes(display)[-1]
        props.setSize(*size)
        base.win.requestProperties(props)
    app = GameApp(base, store, audio=audio)
    app.asked_sizes.add(tuple(size))
    if getattr(args, "seed", None) is not None:   # `nmbr9 play --seed N`: straight into a solo game
        savers = [RecordFile(args.record)] if getattr(args, "record", None) else []
        app.play(solo_match(store, args.seed, savers))
    else:
        app.menu()
    if first_frame:
        return save_first_frame(app, first_frame)
    try:
        base.run()
    except StoreError as e:
        print(e.message)
        return 2
    finally:
        store.close()
    return 0
