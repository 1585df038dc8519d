"""One human placing the round's tile on their own board.

`PlayScreen(base, game, seat, table, camera, hud, on_commit)` turns mouse
and keyboard input into a candidate Placement, asks the rules for a verdict
on every move, shows it, and commits through `game.play` only on confirm,
after a short settling drop. Input handlers take explicit normalised screen
coordinates (-1..1), so tests drive them without a mouse; `bind()` hooks
them to Panda3D's events and the real pointer.
"""
from __future__ import annotations

import math
import time

from panda3d.core import ClockObject, Point3

from ..i18n import N_, _, ngettext
from ..rules.board import (BRIDGE_OPEN, BRIDGE_PART, OVERHANG, OVERHANG_FILLER, TAKEN, UNDER_HIGHER, Placement,
                           tile_points)
from ..rules.tiles import ROTATIONS, is_filler, orientation
from .camera import level_height

# The rules name the square at fault by its coordinates (for records and the command line);
# on the table the red tile shows where, so the window says them without (keyed by the rules' sentence).
ON_THE_TABLE = {
    TAKEN: N_("Part of the tile would lie on a tile of level {level}."),
    UNDER_HIGHER: N_("Part of the tile would lie under a tile of a higher level."),
    OVERHANG: N_("The tile overhangs or covers a hole: part of it has nothing under it on level {below}."),
    OVERHANG_FILLER: N_("The gap filler overhangs or covers a hole: part of it has nothing under it on level "
                        "{below}."),
    BRIDGE_OPEN: N_("With Bridge only a closed hole may lie under the tile: the marked square has nothing under "
                    "it and is open to the outside."),
    BRIDGE_PART: N_("With Bridge the tile must cover the whole hole under the marked square, not just part of it."),
}
# the same for a gap filler, named as such (the rules' sentences for these don't name the piece)
FILLER_ON_THE_TABLE = {
    TAKEN: N_("The gap filler would lie on a tile of level {level}."),
    UNDER_HIGHER: N_("The gap filler would lie under a tile of a higher level."),
}


def pointer_in(base):
    """The pointer in the window (-1..1 each way), or None where there is none (outside it)."""
    w = base.mouseWatcherNode
    return (w.getMouseX(), w.getMouseY()) if w is not None and w.hasMouse() else None


def over_gui(base) -> bool:
    """The pointer is over a button or a panel (a click there is not one on the table): both games' tables."""
    w = base.mouseWatcherNode
    return w is not None and w.isOverRegion()


def verdict_words(verdict, piece=None) -> str:
    """A refusal of `piece` as the table says it."""
    template = (FILLER_ON_THE_TABLE if is_filler(piece) else {}).get(verdict.template) or \
        ON_THE_TABLE.get(verdict.template)
    return _(template).format(**dict(verdict.params)) if template else verdict.text(_)


def verdict_text(verdict, placement) -> str:
    """What the table says of a tile where it lies: the level it fits on and what it adds, or why it is refused
    (the rules page's examples say the same)."""
    if not verdict.ok:
        return verdict_words(verdict, placement.piece)
    text = _("Fits on level {level}").format(level=verdict.level)
    gain = tile_points(placement.at(verdict.level))
    return text + "  " + gain_words(gain) if gain else text


def fault_square(verdict):
    """The square a refusal names (one with nothing under it, or taken), or None."""
    params = dict(verdict.params)
    return (params["x"], params["y"]) if "x" in params else None


def gain_words(points: int) -> str:
    """What a legal tile would add, after "Fits on level N"."""
    return ngettext("(+{points} point)", "(+{points} points)", points).format(points=points)


def middle_square(o) -> tuple[int, int]:
    """Where in a tile, as it lies, its middle square is (upper left of the middle): the square the pointer
    holds, and the one a turn keeps in place."""
    return (o.width - 1) // 2, (o.height - 1) // 2


HOVER_HELD = 0.12      # how high the tile floats while it follows the pointer: low, so that in perspective it
                       # seems to touch only what the verdict says it touches (at 0.38 it seemed to touch a neighbour)
HOVER_DOWN = 0.05      # set down but not yet confirmed
DRAG_START = 0.012     # pointer travel (screen units) that makes a press a drag
ORBIT_SPEED = 110.0    # degrees per screen width
GRAVITY = 30.0         # squares per second squared, for the settling drop
DOUBLE_CLICK = 0.35    # seconds
SLIDE_RATE = 20.0      # how fast the drawn tile catches up with its square (per second)
PAN_STEP = 0.25        # Shift+arrow: the view moves this part of the half width it shows across the table
HANDOFF_PAUSE = 0.8    # seconds the hand-off takes no press, and a table just shown (a hand-off, a Continue) no
                       # Enter for a tile as dealt: the Enter pressed again is not the next player's


def view_keys(camera, sensitivity: float = 1.0) -> dict:
    """The keys that turn, tilt and zoom the view: the same at the table and on the results' board. The camera
    sensitivity setting scales a press's turn and tilt, as it does a right drag's; a zoom step stays the same
    (a step zooms by a fixed part, pressed or a wheel's notch: scaled, 0.2 took 80 presses across the range)."""
    turn, tilt = 10 * sensitivity, 6 * sensitivity
    return {
        "a": lambda: camera.orbit(-turn, 0), "d": lambda: camera.orbit(turn, 0),
        "w": lambda: camera.orbit(0, tilt), "s": lambda: camera.orbit(0, -tilt),
        "=": lambda: camera.zoom_by(0.88), "+": lambda: camera.zoom_by(0.88),
        # "+" typed with Shift (US and UK keyboards) arrives with the modifier in its name
        "shift-=": lambda: camera.zoom_by(0.88), "shift-+": lambda: camera.zoom_by(0.88),
        "-": lambda: camera.zoom_by(1 / 0.88), "page_up": lambda: camera.zoom_by(0.88),
        "page_down": lambda: camera.zoom_by(1 / 0.88),
    }



def accept_view_keys(screen, camera, sensitivity: float, kept=()) -> None:
    """A results screen looks at its table as the table does: the view keys (held down too) and the wheel (with
    Shift too) taken by `screen`, but the keys it `kept` for its own use."""
    for key, fn in view_keys(camera, sensitivity).items():
        if key not in kept:
            screen.accept(key, fn)
            screen.accept(key + "-repeat", fn)
    for wheel, factor in (("wheel_up", 0.88), ("wheel_down", 1 / 0.88)):
        screen.accept(wheel, camera.zoom_by, [factor])
        screen.accept("shift-" + wheel, camera.zoom_by, [factor])

class PlayScreen:
    sensitivity = 1.0           # the game's settings scale these (camera sensitivity: a right drag's and the
    speed = 1.0                 # keys' turns and tilts; animation speed, 0: no animation)

    def __init__(self, base, game, seat: int, table, camera, hud, on_commit=None):
        self.base, self.game, self.seat = base, game, seat
        self.table, self.camera, self.hud = table, camera, hud
        self.on_commit = on_commit
        self.ghost = None
        self.rotation, self.x, self.y, self.level = 0, 0, 0, 0
        self.verdict = None
        self.held = True            # the tile follows the pointer
        self.settling = False
        self.z = 0.0                # the tile's drawn height above the table
        self.fall_speed = 0.0
        self.last_pointer = None
        self.pressed: dict[str, tuple] = {}   # button -> (x, y) where it went down
        self.dragged: set[str] = set()
        self.last_click = (0.0, None, None, None)   # when and where the last click was, the tile (held, x, y) before it and after
        self.drawn_square, self.slide = (0, 0), (0.0, 0.0)  # where the tile was drawn, and its lag
        self.dealt = None           # (rotation, x, y) the tile in hand was dealt at
        self.shown_at = None        # when the table was first drawn for this player (a step after its first frame)
        self.made_in = ClockObject.getGlobalClock().getFrameCount()
        self.events = []
        self.board = game.boards[seat]
        table.show(self.board)
        self.frame_camera()
        hud.show_legend()
        self.start_turn()

    # ----- state --------------------------------------------------------------
    @property
    def piece(self):
        return self.game.card

    def placement(self) -> Placement:
        return Placement(self.piece, self.rotation, self.x, self.y)

    def start_turn(self) -> None:
        """A new candidate for this round's card, next to the build."""
        if self.ghost is not None:
            self.ghost.destroy()
            self.ghost = None
        if self.piece is None:
            return
        self.ghost = self.table.ghost(self.piece)
        self.rotation, self.held, self.settling = 0, True, False
        self.x, self.y = self._start_square()
        self.drawn_square, self.slide = (self.x, self.y), (0.0, 0.0)
        self.dealt = (self.rotation, self.x, self.y)
        self.level = self.board.resting_level(self.piece, self.rotation, self.x, self.y)
        self.z = level_height(self.level) + HOVER_HELD + 0.6
        self.update()

    def _start_square(self) -> tuple[int, int]:
        """Just right of the build, at a spot the rules accept if there is one nearby."""
        if not self.board.tiles:
            return 0, 0
        x0, y0, x1, y1 = self.board.bounds()
        return self._spot_near((x1 + 1, (y0 + y1) // 2 - 1))

    def _spot_near(self, want: tuple[int, int], clear_of=frozenset()) -> tuple[int, int]:
        """The spot nearest `want` where the tile, as turned now, lies on the board's legal squares and on none of
        `clear_of`; `want` itself if there is none."""
        options = [p for p in self.surface().legal_placements(self.piece, self.flipped)
                   if p.rotation == self.rotation and not clear_of.intersection(p.squares())]
        if not options:
            return want
        best = min(options, key=lambda p: (p.x - want[0]) ** 2 + (p.y - want[1]) ** 2)
        return best.x, best.y

    def step_aside(self, hint: Placement) -> None:
        """The tile in hand, lying over a hint's ghost or beside it (held, it floats: from the side it would hide
        the ghost's edge), is put down a square clear of it, to its right or at the nearest legal spot: the ghost
        shows (the first tile: both at the table's middle). The player picks the tile up again, or takes the hint,
        and confirms as ever."""
        taken = frozenset(hint.squares())
        around = frozenset((x + dx, y + dy) for x, y in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        if not around.intersection(self.placement().squares()):
            return
        self.x, self.y = self._spot_near((max(x for x, _ in taken) + 2, min(y for _, y in taken)), around)
        self.held = False
        self.update()

    def update(self) -> None:
        """Ask the rules about the candidate and show the answer."""
        if self.piece is None or self.ghost is None:
            return
        p = self.placement()
        self.level = self.board.resting_level(self.piece, self.rotation, self.x, self.y)
        self.verdict = self.game.check(self.seat, p)
        ok = self.verdict.ok
        # the tile glides from where it was drawn to its new square (see step)
        (dx, dy), self.drawn_square = self.drawn_square, (self.x, self.y)
        self.slide = (self.slide[0] + dx - self.x, self.slide[1] + dy - self.y)
        self.ghost.show(p, self.level, self.z - level_height(self.level), ok, self.slide, fault_square(self.verdict))
        gain = tile_points(p.at(self.verdict.level)) if ok else None
        self.hud.show_verdict(ok, verdict_text(self.verdict, p))
        self.hud.show_round(self.game.round, self.game.rounds, self.game.card, self.game.supply())
        self.hud.show_score(self.board.score_by_level(), self.board.score(), gain, in_hand=True)

    # ----- commands -------------------------------------------------------------
    def rotate(self, steps: int = 1) -> None:
        """Turn the tile a quarter clockwise per step (negative: anticlockwise), about its middle."""
        if not self._can_move():
            return
        old_x, old_y = middle_square(orientation(self.piece, self.rotation, self.flipped))
        self.rotation = ROTATIONS[(ROTATIONS.index(self.rotation) + steps) % 4]
        new_x, new_y = middle_square(orientation(self.piece, self.rotation, self.flipped))
        # the middle square stays where it was (under the pointer): turned round, the tile comes back to its spot
        self.x += old_x - new_x
        self.y += old_y - new_y
        self.update()

    def move(self, dx: int, dy: int) -> None:
        """Move one square (x right, y down); keyboard moves put the tile down where it is."""
        if not self._can_move():
            return
        self.x += dx
        self.y += dy
        self.held = False
        self.update()
        self.keep_in_view()

    def move_on_screen(self, right: int, up: int) -> None:
        """An arrow key: one square the way it points on the screen, however the table is turned (turned half
        way round, the board's left is the screen's right)."""
        cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[round(self.camera.heading / 90) % 4]
        self.move(right * cos + up * sin, right * sin - up * cos)

    def keep_in_view(self, *shown: Placement) -> None:
        """A tile walked off the framed build with the keys (or a hint's ghost beside it, and the tile in hand):
        frame the build and them together, so the player never loses sight of them."""
        shown = shown or (self.placement(),)
        xs, ys = zip(*(square for p in shown for square in p.squares()))
        b = self.board
        x0, y0, x1, y1 = b.bounds() if b.tiles else (-1, -1, 2, 3)
        near = 2  # squares the framing keeps around the build (camera.ROOM) before it must widen
        if min(xs) < x0 - near or min(ys) < y0 - near or max(xs) > x1 + near or max(ys) > y1 + near:
            self.camera.frame((min(x0, *xs), min(y0, *ys), max(x1, *xs), max(y1, *ys)),
                              b.top_level() if b.tiles else 0, glide=True)
        # zoomed in, the build is bigger than the window: the tile may walk out of it
        z = level_height(max(self.level if p.level is None else p.level for p in shown))
        self.camera.zoom_out_to_show([Point3(x + dx, -(y + dy), z) for x, y in zip(xs, ys) for dx in (0, 1)
                                      for dy in (0, 1)])

    def enter_key(self) -> None:
        """Enter or Space confirms; not, a moment after the table is shown, a tile still held as dealt: a stray
        second press of the Enter that showed the table."""
        if self._just_dealt():
            return
        self.confirm()

    def _just_dealt(self) -> bool:
        """A moment after the table is shown, the tile still held as dealt: a press now is a stray second one of
        what showed the table (Enter, or a click on Continue taken while the table was made, which put the tile
        down where it was dealt, and it seemed stuck there)."""
        return (self.shown_at is None or time.monotonic() - self.shown_at < HANDOFF_PAUSE) and \
            self.ghost is not None and self.held and (self.rotation, self.x, self.y) == self.dealt

    def confirm(self) -> bool:
        """Start the settling drop if the rules accept the candidate; False if not."""
        if not self._can_move() or self.verdict is None or not self.verdict.ok:
            return False
        self.settling = True
        self.fall_speed = 0.0
        return True

    def _commit(self) -> None:
        p = self.placement()
        v = self.game.play(self.seat, p)
        self.settling = False
        if not v:  # the game changed under us; show why and let the player go on
            self.update()
            return
        self.ghost.destroy()
        self.ghost = None
        self.hud.collapse_legend()   # the player has laid a tile: the controls' help folds (it covers the table)
        self.table.show(self.board)
        self.frame_camera(glide=True)
        if self.on_commit:
            self.on_commit(self.board.tiles[-1])
        if self.seat in self.game.waiting():
            self.start_turn()
        else:
            self.redraw_hud()

    def redraw_hud(self) -> None:
        """The HUD as play stands (again after a change of language): the tile in hand judged, or the tile
        laid no longer judged, nor to confirm (as under ++)."""
        if self.piece is not None and self.ghost is not None:
            self.update()
            return
        self.hud.show_round(min(self.game.round, self.game.rounds), self.game.rounds, self.game.card,
                            self.game.supply())
        self.hud.show_score(self.board.score_by_level(), self.board.score(), None)
        self.hud.show_verdict(False, "")

    def _can_move(self) -> bool:
        return self.ghost is not None and not self.settling and self.piece is not None

    def frame_camera(self, glide: bool = False) -> None:
        self.camera.frame_board(self.board, glide)

    # ----- pointer (normalised screen coordinates) ------------------------------
    flipped = False  # NMBR 9 ++ lays a tile black side up with the Flip power

    def surface(self):
        """The board the held tile lands on."""
        return self.board

    def follow(self, mx: float, my: float) -> None:
        """Put the candidate's middle on the square under the pointer, resting where it lands.
        A pointer past the window's edge (reported while a button is held, or when the window
        shrank under it) leaves the tile where it was last seen."""
        if abs(mx) > 1 or abs(my) > 1:
            return
        middle = middle_square(orientation(self.piece, self.rotation, self.flipped))
        surface = self.surface()
        # the square the player sees under the pointer: the first stack its line meets, looked for from the top
        # level down (looked for from the tile's own level, a low view put the tile on the table squares
        # behind a stack the pointer was on, and where depended on where the tile had been)
        for level in range(surface.top_level() + 1, -1, -1):
            point = self.camera.point_on_level(mx, my, level)
            if point is None:
                continue
            square = math.floor(point.x), math.floor(-point.y)
            if surface.height_at(*square) >= level:
                break
        else:
            return
        x, y = square[0] - middle[0], square[1] - middle[1]
        if (x, y) != (self.x, self.y):
            self.x, self.y = x, y
            self.update()

    def pointer(self, mx: float, my: float) -> None:
        """The pointer moved to (mx, my)."""
        last, self.last_pointer = self.last_pointer, (mx, my)
        for button, (px, py) in self.pressed.items():
            if abs(mx - px) + abs(my - py) > DRAG_START:
                self.dragged.add(button)
        if last is not None and "mouse3" in self.dragged:
            self.camera.turn_by_drag(last, (mx, my), ORBIT_SPEED * self.sensitivity)
            return
        if last is not None and "mouse2" in self.dragged:
            self.camera.pan_screen(last, (mx, my))   # the tile in hand goes along, below
        # held, or dragged by the press that put it down: it goes along as the pointer moves; the view turned or
        # zoomed under a still pointer leaves it on its square (following, a legal tile became "overhangs")
        if last is not None and (self.held or "mouse1" in self.dragged) and self._can_move() and (mx, my) != last:
            self.follow(mx, my)

    def press(self, button: str, mx: float, my: float, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.pressed[button] = (mx, my)
        self.dragged.discard(button)
        if button != "mouse1":
            return
        when, where, before, after = self.last_click
        if where and now - when < DOUBLE_CLICK and abs(mx - where[0]) + abs(my - where[1]) < 0.03:
            # a double click resets the view only: the tile is as it was before its first click (that click picked
            # it up and the second put it down elsewhere), unless something else moved it since
            self.camera.reset()
            self.last_click = (0.0, None, None, None)
            if self._can_move() and after == (self.held, self.x, self.y) != before:
                self.held, self.x, self.y = before
                self.update()
            return
        before = (self.held, self.x, self.y)
        self.last_click = (now, (mx, my), before, before)
        if not self._can_move() or self._just_dealt():   # a second click on the Start that showed the table
            return
        if self.held:
            self.held = False  # put it down here
        else:
            self.held = True   # pick it up: it follows from here
            self.follow(mx, my)
        self.last_click = (now, (mx, my), before, (self.held, self.x, self.y))
        self.update()

    def release(self, button: str, mx: float, my: float) -> None:
        if self.pressed.pop(button, None) is None:
            return   # pressed on the HUD (a button, the scores): not a click on the table
        dragged = button in self.dragged
        self.dragged.discard(button)
        if button == "mouse3" and not dragged:
            self.rotate(1)  # a right click turns the tile
        elif button == "mouse1" and dragged and self._can_move():
            self.follow(mx, my)
            self.held = False  # drag and drop
            self.update()

    def wheel(self, steps: int, zoom_only: bool = False) -> None:
        """Wheel: turns the tile while it is held, else zooms; `zoom_only` for shift+wheel."""
        if self.held and not zoom_only and self._can_move():
            self.rotate(steps)
        else:
            self.camera.zoom_by(0.88 ** steps)

    # ----- time -----------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Animate: ease to the hover height, or fall onto the level and commit; glide the view."""
        # from a frame after the one the table was made in: drawing that first frame may take seconds, and a
        # second click on Continue made meanwhile comes after it (counted from the first step, it came too late
        # to be let go by and put the tile down where it was dealt)
        if self.shown_at is None and ClockObject.getGlobalClock().getFrameCount() > self.made_in:
            self.shown_at = time.monotonic()
        self.camera.step(dt)
        if self.ghost is None:
            return
        rest = level_height(self.level)
        if self.settling:
            self.fall_speed += GRAVITY * dt
            self.z = max(rest, self.z - self.fall_speed * dt)
            if self.z <= rest:
                self.ghost.set_lift(self.placement(), self.level, 0.0)
                self._commit()
                return
        else:
            target = rest + (HOVER_HELD if self.held else HOVER_DOWN)
            self.z += (target - self.z) * min(1.0, dt * 14)
        keep = max(0.0, 1 - dt * SLIDE_RATE)
        self.slide = (self.slide[0] * keep, self.slide[1] * keep)
        if abs(self.slide[0]) + abs(self.slide[1]) < 0.01:
            self.slide = (0.0, 0.0)
        self.ghost.set_lift(self.placement(), self.level, self.z - rest, self.slide)

    def finish_animation(self) -> None:
        """Run the animation to its end at once (tests, and a confirm before the game moves on)."""
        for _ in range(400):
            resting = self.ghost is None or not self.settling and self.slide == (0.0, 0.0) and abs(
                self.z - level_height(self.level) - (HOVER_HELD if self.held else HOVER_DOWN)) < 1e-3
            if resting and not self.camera.gliding:
                return
            self.step(1 / 60)

    # ----- Panda3D events -------------------------------------------------------------
    view_only = False   # bound for looking at another board: the view turns and zooms, the tile is put away

    def bind(self, view_only: bool = False) -> None:
        """Hook the handlers to the real keyboard and pointer; `view_only`: only the view's."""
        b = self.base
        self.view_only = view_only
        keys = {} if view_only else {
            "arrow_left": lambda: self.move_on_screen(-1, 0), "arrow_right": lambda: self.move_on_screen(1, 0),
            "arrow_up": lambda: self.move_on_screen(0, 1), "arrow_down": lambda: self.move_on_screen(0, -1),
            "q": lambda: self.rotate(-1), "e": lambda: self.rotate(1),
            "enter": self.enter_key, "space": self.enter_key, "h": self.hud.toggle_legend,
        }
        keys.update(view_keys(self.camera, self.sensitivity))
        keys.update({
            "home": self.camera.reset,
            "shift-arrow_left": lambda: self.camera.pan_by(-PAN_STEP, 0),
            "shift-arrow_right": lambda: self.camera.pan_by(PAN_STEP, 0),
            "shift-arrow_up": lambda: self.camera.pan_by(0, PAN_STEP),
            "shift-arrow_down": lambda: self.camera.pan_by(0, -PAN_STEP),
            "l": self.table.toggle_levels,
        })
        for key, fn in keys.items():
            b.accept(key, fn)
            if key not in ("enter", "space", "home", "h", "l"):
                b.accept(key + "-repeat", fn)
        for button in ("mouse1", "mouse2", "mouse3"):
            b.accept(button, self._event_press, [button])
            b.accept(button + "-up", self._event_release, [button])
        b.accept("wheel_up", self.wheel, [1])
        b.accept("wheel_down", self.wheel, [-1])
        b.accept("shift-wheel_up", self.wheel, [1, True])
        b.accept("shift-wheel_down", self.wheel, [-1, True])
        b.taskMgr.add(self._task, "play-screen")
        self.events = [k + r for k in keys for r in ("", "-repeat")] + [
            b + r for b in ("mouse1", "mouse2", "mouse3") for r in ("", "-up")] + [
            "wheel_up", "wheel_down", "shift-wheel_up", "shift-wheel_down"]

    def unbind(self) -> None:
        for name in self.events:
            self.base.ignore(name)
        self.base.taskMgr.remove("play-screen")

    def _over_gui(self) -> bool:
        return over_gui(self.base)

    def _on_a_button(self, mx: float, my: float) -> bool:
        """Whether a button stands under the pointer, greyed ones too: a greyed button takes no clicks (it is
        no region of the pointer's then), yet a click on it is no click on the table (greyed Confirm put the
        refused tile down under it)."""
        r2d = self.base.render2d
        for item in self.base.aspect2d.findAllMatches("**/+PGButton"):
            if item.isHidden():
                continue
            left, right, bottom, top = item.node().getFrame()
            a, b = (r2d.getRelativePoint(item, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
            if min(a.x, b.x) <= mx <= max(a.x, b.x) and min(a.z, b.z) <= my <= max(a.z, b.z):
                return True
        return False

    def _event_press(self, button):
        m = pointer_in(self.base)
        if m and not self._over_gui() and not self._on_a_button(*m):
            self.press(button, *m)

    def _event_release(self, button):
        # a button let go past the window's edge comes with no pointer: it goes up all the same, where the pointer
        # was last seen (a right drag let go out there went on turning the view under the free pointer)
        m = pointer_in(self.base) or self.last_pointer
        if m:
            self.release(button, *m)

    def _task(self, task):
        m = pointer_in(self.base)
        if m and not (self._over_gui() and not self.pressed):
            self.pointer(*m)
        self.step(min(self.base.clock.getDt(), 0.05) * self.speed if self.speed else 1.0)
        return task.cont
