"""The orbit camera over the table, and picking: screen point -> square on a level.

Screen points are Panda3D's normalised window coordinates (-1..1 in x and
y, y up), passed in explicitly so offscreen tests can drive everything.
World space: one unit per square, X = column, Y = -row, Z up.
"""
from __future__ import annotations

import math

import numpy as np
from panda3d.core import LPoint3, LVector3, Point2, Point3

from ..assets import TILE_THICKNESS

DEFAULT_HEADING = 0.0     # camera south of the build, rows running towards it
DEFAULT_PITCH = 40.0      # degrees above the table: low enough that a stack's sides show its height
MIN_PITCH, MAX_PITCH = 22.0, 89.0   # lower than 22 degrees the build was a sliver a third as tall as by default
MIN_ZOOM, MAX_ZOOM = 0.35, 3.0
ROOM = 2.5                # squares around the build kept in view, for the next tile
FRAME_X, FRAME_TOP, FRAME_BOTTOM = 0.95, 0.78, 0.9  # of the room framed in: margins, the top for a line of text
WHOLE_SCREEN = (-1.0, 1.0, -1.0, 1.0)


def level_height(level: float) -> float:
    """Z of the surface a tile on `level` rests on."""
    return level * TILE_THICKNESS


class OrbitCamera:
    """Heading and pitch around a target point; the distance frames the build, times a zoom."""

    def __init__(self, camera_np, lens, render, around: float = ROOM, reach=(FRAME_X, FRAME_TOP, FRAME_BOTTOM)):
        """`around`: the squares kept in view around the build (ROOM: for the next tile); `reach`: how far towards
        its room's sides, top and bottom the build is drawn (at the table the top keeps a line of text clear)."""
        self.camera, self.lens, self.render = camera_np, lens, render
        self.around, self.reach = around, reach
        self.heading, self.pitch, self.zoom = DEFAULT_HEADING, DEFAULT_PITCH, 1.0
        self.target = LPoint3(0, 0, 0)
        self.pan = LVector3(0, 0, 0)   # how far the player moved the view across the table from the framing
        self.fit = 9.0     # distance that shows the whole build (without zoom)
        self.corners = []  # the corners of the area to keep in view
        self._corner_array = np.zeros((0, 3))
        self.centre = LPoint3(0, 0, 0)   # the framed area's middle
        self.rooms = [WHOLE_SCREEN]   # parts of the screen (left, right, bottom, top) the build may be framed in
        self.room = WHOLE_SCREEN      # the one it is framed in
        self.middle = (0.0, 0.0)      # the view's middle on the screen: the room's, or on its way there (a glide)
        self.goal, self.goal_fit, self.gliding = LPoint3(0, 0, 0), self.fit, False
        self.lens.setFov(50)
        self.lens.setNear(0.2)
        self.lens.setFar(400)
        self.aspect = lens.getAspectRatio()
        self.apply()

    # ----- moves ----------------------------------------------------------
    def orbit(self, d_heading: float, d_pitch: float) -> None:
        self.heading = (self.heading + d_heading) % 360
        self.pitch = min(MAX_PITCH, max(MIN_PITCH, self.pitch + d_pitch))
        self.apply()

    def turn_by_drag(self, start, end, speed: float) -> None:
        """A right drag from one screen point to the next: across turns the view, up and down tilts it
        (`speed`: degrees per screen width)."""
        self.orbit(-(end[0] - start[0]) * speed, -(end[1] - start[1]) * speed * 0.6)

    def zoom_by(self, factor: float) -> None:
        self.zoom = min(MAX_ZOOM, max(MIN_ZOOM, self.zoom * factor))
        self.apply()

    def pan_screen(self, start, end) -> None:
        """Move the view across the table as a hand moving the cloth from one screen point to the other: what was
        under `start` (at the build's middle height) comes under `end`. The view's middle stays over the framed area."""
        a, b = (self.point_on_level(*point, self.target.z / level_height(1)) for point in (start, end))
        if a is None or b is None:
            return
        self.pan += a - b
        self.pan.z = 0
        self.apply()

    def pan_by(self, right: float, up: float) -> None:
        """The keys: move the view right (up the screen) by this part of the half width it shows at its middle."""
        h = math.radians(self.heading)
        step = self.fit * self.zoom * math.tan(math.radians(self.lens.getFov()[0] / 2))
        self.pan += LVector3(right * math.cos(h) + up * math.sin(h), up * math.cos(h) - right * math.sin(h), 0) * step
        self.apply()

    def zoom_out_to_show(self, points) -> None:
        """Zoomed in, zoom out as far as needed (at most to the framing) for these world points to show;
        moved across the table away from them, the view comes back to the framing first."""
        self._shift()
        if not self._shows_all(self.goal_fit * self.zoom, points, self.goal + self.pan):
            self.pan = LVector3(0, 0, 0)
        while self.zoom < 1 and not self._shows_all(self.goal_fit * self.zoom, points):
            self.zoom = min(1.0, self.zoom / 0.88)
        self.apply()

    def reset(self) -> None:
        self.heading, self.pitch, self.zoom = DEFAULT_HEADING, DEFAULT_PITCH, 1.0
        self.pan = LVector3(0, 0, 0)
        self.apply()

    def frame(self, bounds, top_level: int = 0, glide: bool = False, squares=None) -> None:
        """Aim at a board's squares (min x, min y, max x, max y; or the `squares` themselves, (x, y) each) so all
        of them show, with room around them (for the middle of the next tile); `glide` moves there smoothly
        (see step)."""
        x0, y0, x1, y1 = bounds
        top = level_height(top_level + 1)
        self.centre = LPoint3((x0 + x1 + 1) / 2, -(y0 + y1 + 1) / 2, top / 2)
        corners = {(x + dx, -(y + dy)) for x, y in (squares or [(x0, y0), (x1, y1)]) for dx in (0, 1) for dy in (0, 1)}
        if not squares:
            corners |= {(x0, -y1 - 1), (x1 + 1, -y0)}
        # the build's own corners too: with no room around it (the results' board), the outline's eight furthest
        # corners alone left others out of the picture, turned between them
        outline = corners | set(_rounded(corners, self.around))
        self.corners = [LPoint3(x, y, z) for x, y in sorted(outline) for z in (0, top)]
        self._corner_array = np.array([tuple(c) for c in self.corners])
        self.gliding = glide
        self._choose_room()
        self.apply()

    def frame_board(self, board, glide: bool = False) -> None:
        """Frame a board's tiles (an empty table: its middle)."""
        if not board.tiles:
            self.frame((-1, -1, 2, 3), 0, glide)
            return
        self.frame(board.bounds(), board.top_level(), glide, [s for t in board.tiles for s in t.squares()])

    def frame_in(self, *rooms, glide: bool = False) -> None:
        """Frame builds in a part of the screen (normalised coordinates: left, right, bottom, top), e.g. beside
        or under a panel: the view's middle moves to the middle of that part, and the build fits in it.
        Of several parts, each framing of a build takes the one that shows it biggest; the player's turns
        and tilts keep it (the view would jump). `glide`: a new part is reached smoothly (see step), as when
        a question beside the build goes away."""
        self.rooms = list(rooms)
        was = self.room
        self._choose_room()
        self.gliding = self.gliding or glide and self.room != was
        self.apply()

    def _choose_room(self) -> None:
        if len(self.rooms) > 1 and self.corners:
            fits = []
            for room in self.rooms:
                self.room = room
                self._shift()
                fits.append(self._framing()[1])
            self.room = self.rooms[fits.index(min(fits))]
        elif self.room not in self.rooms:
            self.room = self.rooms[0]
        self._shift()

    def _room_middle(self) -> tuple[float, float]:
        left, right, bottom, top = self.room
        return (left + right) / 2, (bottom + top) / 2

    def _shift(self, middle=None) -> None:
        """Put the view's middle at `middle` on the screen (the room's, unless given)."""
        # + moves the view down (left); the film's size follows the window's shape: kept up with it
        x, y = self._room_middle() if middle is None else middle
        film = self.lens.getFilmSize()
        self.lens.setFilmOffset(-x / 2 * film[0], -y / 2 * film[1])

    def follow_window(self) -> None:
        """The window changed shape (and the lens with it): frame the build again for the new shape."""
        aspect = self.lens.getAspectRatio()
        if aspect != self.aspect:
            self.aspect = aspect
            self._shift()
            self.apply()

    def step(self, dt: float) -> None:
        """Advance a glide towards the framing asked for."""
        if not self.gliding:
            return
        k = min(1.0, dt * 5)
        self.target += (self.goal - self.target) * k
        self.fit += (self.goal_fit - self.fit) * k
        goal_middle = self._room_middle()
        self.middle = tuple(m + (g - m) * k for m, g in zip(self.middle, goal_middle))
        if (self.goal - self.target).length() < 0.01 and abs(self.goal_fit - self.fit) < 0.01 and \
                max(abs(m - g) for m, g in zip(self.middle, goal_middle)) < 0.002:
            self.target, self.fit, self.middle, self.gliding = LPoint3(self.goal), self.goal_fit, goal_middle, False
        self._shift(self.middle)
        self._place(self.fit * self.zoom)

    def _place(self, distance: float, target=None) -> None:
        target = self.target + self.pan if target is None else target
        h, p = math.radians(self.heading), math.radians(self.pitch)
        offset = LVector3(-math.sin(h) * math.cos(p), -math.cos(h) * math.cos(p), math.sin(p)) * distance
        self.camera.setPos(target + offset)
        self.camera.lookAt(target)

    def _shows_all(self, distance: float, points=None, target=None) -> bool:
        """Whether the framed area (or these world points) shows in the room, from this distance (looking at the
        framing's middle, or at `target`)."""
        self._place(distance, self.goal if target is None else target)
        left, right, bottom, top = self.room
        mx, my, hw, hh = (left + right) / 2, (bottom + top) / 2, (right - left) / 2, (top - bottom) / 2
        sides, up, down = self.reach
        for corner in self.corners if points is None else points:
            q = self.camera.getRelativePoint(self.render, corner)
            out = Point2()
            if not self.lens.project(q, out) or abs(out.x - mx) > sides * hw or not -down <= (out.y - my) / hh <= up:
                return False
        return True

    def apply(self) -> None:
        """Place the camera: the nearest distance that shows the framed area, times the zoom."""
        if self.corners:
            self._shift()   # fitted in the room aimed at, whatever the view shows on the way there
            self.goal, self.goal_fit = self._framing()
            # moved across the table no further than the framed area's edge: some of the build stays in sight
            xs, ys = [c.x - self.centre.x for c in self.corners], [c.y - self.centre.y for c in self.corners]
            self.pan = LVector3(min(max(xs), max(min(xs), self.pan.x)), min(max(ys), max(min(ys), self.pan.y)), 0)
            if not self.gliding:
                self.target, self.fit = LPoint3(self.goal), self.goal_fit
        if not self.gliding:
            self.middle = self._room_middle()
        self._shift(self.middle)
        self._place(self.fit * self.zoom)

    def _framing(self) -> tuple:
        """Where to look and from how far, at this heading and pitch, for the framed area to fill its room, its
        middle in the room's middle: the nearest distance that shows every corner, worked out (not searched:
        the view turns every frame) in the camera's axes; the point looked at moved until the area's edges on
        the screen stand as far from the room's sides. (Looking at the area's middle, turned half way between
        two sides of the table, the build showed off its room's middle at 60% of its size.)"""
        h, p = math.radians(self.heading), math.radians(self.pitch)
        forward = np.array([math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), -math.sin(p)])
        right = np.array([math.cos(h), -math.sin(h), 0.0])
        up = np.cross(right, forward)
        left_, right_, bottom, top = self.room
        half_w, half_h = (right_ - left_) / 2, (top - bottom) / 2
        sides, high, low = self.reach
        fov = self.lens.getFov()
        tan_w, tan_h = (math.tan(math.radians(f / 2)) for f in fov)
        look = np.array(tuple(self.centre))
        for turn in range(6):
            v = self._corner_array - look
            ahead, across, upward = v @ forward, v @ right, v @ up
            # on the screen a point lies across / ((ahead + d) tan) from the room's middle: each edge of the
            # room gives the least d for it
            need = np.maximum(np.abs(across) / (sides * half_w * tan_w),
                              np.where(upward > 0, upward / (high * half_h * tan_h), -upward / (low * half_h * tan_h)))
            distance = float(min(600.0, max(1.0, np.max(need - ahead))))
            depth = np.maximum(ahead + distance, 1e-6)
            x, y = across / (depth * tan_w), upward / (depth * tan_h * half_h)
            off_x, off_y = (x.max() + x.min()) / 2, (y.max() + y.min()) / 2 - (high - low) / 2
            if abs(off_x) < 1e-3 and abs(off_y) < 1e-3 or turn == 5:
                break   # (the distance is the one for the point looked at now)
            look = look + right * off_x * distance * tan_w + up * off_y * distance * tan_h * half_h
        # the same view, looking at a point at the area's middle height (where zoom and a middle drag hold on)
        along = (self.centre.z - look[2]) / forward[2]
        return LPoint3(*(look + forward * along)), distance + along

    # ----- picking --------------------------------------------------------
    def ray(self, mx: float, my: float):
        """World origin and direction of the line through a screen point."""
        near, far = Point3(), Point3()
        self.lens.extrude(Point2(mx, my), near, far)
        a = self.render.getRelativePoint(self.camera, near)
        b = self.render.getRelativePoint(self.camera, far)
        return a, b - a

    def point_on_level(self, mx: float, my: float, level: float):
        """Where the screen point's line meets the plane at a level's height, or None."""
        origin, direction = self.ray(mx, my)
        z = level_height(level)
        if abs(direction.z) < 1e-9:
            return None
        t = (z - origin.z) / direction.z
        if t <= 0:
            return None
        return origin + direction * t

    def square_at(self, mx: float, my: float, level: float):
        """The grid square (x, y) under a screen point on that level's plane, or None."""
        p = self.point_on_level(mx, my, level)
        if p is None:
            return None
        return math.floor(p.x), math.floor(-p.y)

    def screen_point(self, world_point):
        """Normalised screen coordinates of a world point, or None when behind the camera."""
        p = self.camera.getRelativePoint(self.render, world_point)
        out = Point2()
        if not self.lens.project(p, out):
            return None
        return out.x, out.y


def _rounded(points, room: float) -> list:
    """An outline around these (x, y) points, `room` away from them and as round as an octagon: turned any way
    the view takes in as much (a square room around the build, seen across its corner, showed it a third
    smaller)."""
    ways = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]
    furthest = [max(points, key=lambda q: q[0] * wx + q[1] * wy) for wx, wy in ways]
    return sorted({(round(x + room * wx, 6), round(y + room * wy, 6)) for x, y in furthest for wx, wy in ways})
