"""The table: a cloth, a faint grid near the build, lights, soft shadows, and any Board's tiles.

`Table.show(board)` redraws the committed tiles (flattened: they are
static); `Table.ghost()` makes the movable candidate tile with its landing
footprint. The table draws what it is given and decides nothing.
"""
from __future__ import annotations

import math

import numpy as np
from panda3d.core import (AmbientLight, DirectionalLight, Geom, GeomLines, GeomNode, GeomTriangles,
                          GeomTrifans, GeomVertexData, GeomVertexFormat, GeomVertexWriter, NodePath, SamplerState,
                          Point3, TextNode, Texture, TransformState, TransparencyAttrib, Vec3)

from direct.interval.IntervalGlobal import LerpColorScaleInterval, Sequence

from ..assets import TILE_THICKNESS, model_path
from ..paths import FONT_BOLD
from ..rules.tiles import piece_shape, shape_mask
from .base import is_software
from .camera import level_height

GRID_MARGIN = 4          # squares of grid shown around the build
GRID_ALPHA = 0.22
GRID_INK = (0.86, 0.88, 0.84)
SUN_HPR = (205, -47, 0)  # light from behind-left: shadows fall towards the viewer, walls show
SHADE_PX = 16            # shadow pixels per square
CLOTH = (0.18, 0.235, 0.225)  # the table's cloth
LEAN_PER_SQUARE = 7.0    # degrees the held tile leans per square it lags behind
LEAN_MAX = 6.0
# the footprint where the tile in hand would land, drawn stronger than the tile floating over it (what the rules
# judge), and joined to it by drop lines at its outer corners
LEGAL = (0.3, 0.9, 0.4, 0.8)
REFUSED = (0.95, 0.25, 0.2, 0.8)
AT_FAULT = (0.08, 0.02, 0.02, 0.72)   # the square a refusal names, dark on the red tile: "nothing under here"
# a refused tile is also struck through with dark stripes: the red tint alone looked like a red 9's own colour, a
# dark blue 6's "fits" like its "refused", and told nothing to a colour-blind player
STRUCK_PX, STRUCK_STRIPE, STRUCK_ALPHA = 32, 0.3, 0.5   # pixels a square, the stripes' share of it, their ink
BADGE_RADIUS = 0.35      # a tile's level, shown on its top (L): a dark disc, ringed light, with the number
BADGE_INK, BADGE_RING = (0.1, 0.1, 0.11, 1), (0.95, 0.93, 0.88, 1)
# pixels across a badge at least, however small the board shows: its numeral some 9 px high, as the HUD's small
# text is at 640x480 (a 20-tile board there left badges 8 px across, their numerals a smudge)
BADGE_LEAST_PX = 16
BADGE_CROWD = 0.8        # badges nearer than this part of their radii together would cover each other's numerals


def level_tint(level: int) -> float:
    """Higher levels brighter, so stacks read at a glance as height (a step of a tenth a level: with a step of
    0.08 over a brighter light, level 3's tops were as bright as level 2's, clipped white)."""
    return min(1.1, 0.74 + 0.09 * level)


def placement_transform(placement, level: int, lift: float = 0.0) -> TransformState:
    """Model space -> table: turn clockwise by the rotation (mirror if flipped), corner at (x, y)."""
    h, w = shape_mask(piece_shape(placement.piece)).shape
    hpr = (-placement.rotation, 0, 180 if placement.flipped else 0)
    turn = TransformState.makeHpr(hpr).getMat()
    corners = [turn.xformPoint((u, v, 0)) for u in (0, w) for v in (0, -h)]
    min_x = min(c.x for c in corners)
    max_y = max(c.y for c in corners)
    z = level_height(level) + lift + (TILE_THICKNESS if placement.flipped else 0)
    return TransformState.makePosHpr((placement.x - min_x, -placement.y - max_y, z), hpr)


# the tile models, loaded once a process and shared by every table (each game's table loaded them anew: at Start
# or Continue 0.2 s a model, 2 s for a board of ten numbers on a busy machine, before the table could show)
_tile_models: dict = {}


def _ready_model(path, m: NodePath, software: bool = False) -> NodePath:
    """A model as loaded, made ready to be copied onto a table, and kept for every table."""
    for tex in m.findAllTextures():
        tex.setAnisotropicDegree(1)  # software GL: anisotropic filtering costs more than it shows
        if software:   # one mipmap level a pixel, not a blend of two: a tenth of a frame's work, the same look
            tex.setMinfilter(SamplerState.FT_linear_mipmap_nearest)
    m.clearModelNodes()  # so flattening a board merges tiles that share a texture
    m.flattenStrong()
    return _tile_models.setdefault(path, m)   # (loaded meanwhile by a table that could not wait: that one)


def art_model(loader, path) -> NodePath:
    """A generated model (a tile, a bug) as the tables draw it, loaded once a process; callers instance copies."""
    if path not in _tile_models:
        # a built game has it as NAME.egg.bam (setup.py bdist_apps), which Panda3D's loader finds by the .egg's name
        if not path.exists() and not path.with_name(path.name + ".bam").exists():
            raise FileNotFoundError(f"missing model {path}: run `nmbr9 assets`")
        _ready_model(path, loader.loadModel(path.as_posix(), noCache=True), is_software(loader.base))
    return _tile_models[path]


def tile_model(loader, piece) -> NodePath:
    """A piece's tile model as the table draws it (the rules page's pictures too)."""
    return art_model(loader, model_path(piece))


class Table:
    def __init__(self, base, parent=None):
        self.base = base
        self.root = (parent or base.render).attachNewNode("table")
        # the cloth is the window's clear colour: a textured or shaded table costs software GL
        # more than all the tiles together
        base.setBackgroundColor(*CLOTH, 1)
        self.grid = self.root.attachNewNode("grid")
        self.shade = self.root.attachNewNode("shade")
        self.tiles = self.root.attachNewNode("tiles")
        self.board = None
        self._laid = None        # the tiles drawn (show)
        self.levels = self.root.attachNewNode("levels")
        self.levels_shown = False
        self.badges: list = []   # (badge, the point on its tile's top it stands on, its level)
        self._fitting = None     # the task that stands the badges, while there are any
        self._lights()
        self.show(None)

    # ----- art --------------------------------------------------------------
    def model(self, piece) -> NodePath:
        """The tile model (loaded once a process: tile_model); callers instance copies of it."""
        return tile_model(self.base.loader, piece)

    def _lights(self) -> None:
        amb = AmbientLight("ambient")
        amb.setColor((0.36, 0.36, 0.4, 1))
        self.ambient = self.root.attachNewNode(amb)
        sun = DirectionalLight("sun")
        sun.setColor((0.66, 0.63, 0.58, 1))
        self.sun = self.root.attachNewNode(sun)
        self.sun.setHpr(*SUN_HPR)
        fill = DirectionalLight("fill")
        fill.setColor((0.16, 0.17, 0.21, 1))
        self.fill = self.root.attachNewNode(fill)
        self.fill.setHpr(15, -30, 0)
        for light in (self.ambient, self.sun, self.fill):
            self.root.setLight(light)

    # ----- drawing a board --------------------------------------------------
    def show(self, board) -> None:
        """Draw every tile of `board` (None: an empty table), the grid and the shadows."""
        self.board = board
        laid = tuple(board.tiles) if board else ()
        if laid == self._laid:   # drawn already: Continue showed the table, then the player's turn showed it again,
            return               # the soft shadows worked out twice (seconds for a 12-tile board on a busy machine)
        self._laid = laid
        self.tiles.removeNode()
        self.tiles = self.root.attachNewNode("tiles")
        levels = {}
        for p in (board.tiles if board else []):
            if p.level not in levels:
                # the top level drawn first, down to the table: software GL then skips the parts of lower tiles
                # that higher ones cover (about a fifteenth of a frame's work); before the tile in hand, and
                # before anything see-through, as opaque things are
                levels[p.level] = self.tiles.attachNewNode(f"level-{p.level}")
                levels[p.level].setBin("background", -p.level)
            node = self.model(p.piece).copyTo(levels[p.level])
            node.setTransform(placement_transform(p, p.level))
            t = level_tint(p.level)
            node.setColorScale(t, t, t, 1)
        self.tiles.flattenStrong()  # static: one batch per texture and level
        self._level_badges()
        bounds = board.bounds() if board and board.tiles else (0, 0, 3, 3)
        self._grid(bounds)
        self._shades(self._shadows(board) if board and board.tiles else [])

    def toggle_levels(self) -> None:
        """Show each tile's level on its top, or stop showing it."""
        self.levels_shown = not self.levels_shown
        self._level_badges()

    def _badge_square(self, p):
        """The square of a tile its level is shown on: of those no higher tile covers, the nearest its middle
        (None: all covered)."""
        squares = p.squares()
        seen = [s for s in squares if self.board.height_at(*s) == p.level + 1]
        if not seen:
            return None
        mx, my = (sum(c) / len(squares) for c in zip(*squares))
        return min(seen, key=lambda s: (s[0] - mx) ** 2 + (s[1] - my) ** 2)

    def remove(self) -> None:
        """Take the table away, its tiles, badges and their task."""
        self._stop_fitting()
        self.root.removeNode()

    def _stop_fitting(self) -> None:
        if self._fitting is not None:
            self._fitting.remove()
            self._fitting = None

    def _level_badges(self) -> None:
        self.levels.removeNode()
        self.levels = self.root.attachNewNode("levels")
        self.badges = []
        self._stop_fitting()
        if not self.levels_shown or self.board is None:
            return
        font = self.base.loader.loadFont(FONT_BOLD.as_posix())
        for p in self.board.tiles:
            square = self._badge_square(p)
            if square is None:
                continue
            badge = _badge(str(p.level), font)
            badge.reparentTo(self.levels)
            self.badges.append((badge, Point3(square[0] + 0.5, -square[1] - 0.5, level_height(p.level + 1)), p.level))
        self.levels.setLightOff(1)
        self.fit_levels()
        if self.badges:   # after the screens' tasks have moved the camera, before the frame is drawn (igLoop: 50)
            self._fitting = self.base.taskMgr.add(self._fit_task, "level-badges", sort=49)

    def _fit_task(self, task):
        self.fit_levels()
        return task.cont

    def fit_levels(self) -> None:
        """Stand each level badge on its tile's top facing the camera, at least BADGE_LEAST_PX across on the
        screen; where badges so grown would cover each other, the higher tile's shows (a stack's top, which a
        player looking down at it sees first), the lower's hides until the view gives them room."""
        if not self.badges:
            return
        cam, lens, win = self.base.cam, self.base.camLens, self.base.win
        height = win.getYSize() if win is not None else 0
        if height <= 0:
            return
        eye_turn = cam.getQuat(self.root)
        per_unit = height / (2 * math.tan(math.radians(lens.getFov()[1] / 2)))   # pixels a unit at depth 1
        placed = []
        for badge, spot, level in self.badges:
            depth = cam.getRelativePoint(self.root, spot).y
            if depth <= lens.getNear():
                badge.hide()
                continue
            grow = max(1.0, BADGE_LEAST_PX / (2 * BADGE_RADIUS * per_unit / depth))
            # a little above the top and drawn nearer the camera, so that its lower half stands clear of that top
            # down to a low view (grown, it stands as much higher and nearer)
            middle = spot + Vec3(0, 0, grow * BADGE_RADIUS / 2)
            toward_eye = cam.getPos(self.root) - middle
            toward_eye.normalize()
            badge.setPosQuatScale(self.root, middle + toward_eye * grow * BADGE_RADIUS, eye_turn, grow)
            on_screen = cam.getRelativePoint(self.root, middle)
            placed.append((-level, on_screen.y, badge, on_screen.x / on_screen.y * per_unit,
                           on_screen.z / on_screen.y * per_unit, grow * BADGE_RADIUS * per_unit / on_screen.y))
        shown = []
        for _, _, badge, x, y, radius in sorted(placed, key=lambda b: b[:2]):
            if any(math.hypot(x - sx, y - sy) < BADGE_CROWD * (radius + sr) for sx, sy, sr in shown):
                badge.hide()
            else:
                badge.show()
                shown.append((x, y, radius))

    def shadow_run(self) -> tuple[float, float]:
        """How far (columns, rows) a shadow falls per unit of height."""
        sun = self.sun.getQuat().getForward()
        k = 1 / max(1e-6, -sun.z)
        return sun.x * k, -sun.y * k

    def _shadows(self, board):
        """(surface, x0, y0, alpha) for the table (-1) and each level's top: where higher tiles shade it.

        Soft shadows along the light plus a contact shade at every edge, baked
        per board (no per-frame cost, no shaders). alpha has SHADE_PX pixels
        per square; (x0, y0) is the square at its top-left corner.
        """
        pad = 2
        filled = np.pad(board.ids >= 0, ((0, 1), (pad, pad), (pad, pad)))
        ox, oy = board.origin[0] - pad, board.origin[1] - pad
        levels = board.levels
        up = np.ones((SHADE_PX, SHADE_PX))
        run_x, run_y = self.shadow_run()
        out = []
        for surface in range(-1, levels - 1):
            exposed = ~filled[0] if surface < 0 else filled[surface] & ~filled[surface + 1]
            if not exposed.any():
                continue
            alpha = np.zeros((exposed.shape[0] * SHADE_PX, exposed.shape[1] * SHADE_PX))
            for caster in range(surface + 1, levels):
                occ = np.kron(filled[caster], up)
                height = caster - surface
                dx, dy = (int(round(r * TILE_THICKNESS * height * SHADE_PX)) for r in (run_x, run_y))
                cast = _soft(np.roll(np.roll(occ, dy, 0), dx, 1), 2 + 2 * height) * 0.5
                contact = _soft(occ, 3) * 0.5   # the foot of every step darkened: where levels meet shows
                alpha = 1 - (1 - alpha) * (1 - np.maximum(cast, contact))
            alpha *= np.kron(exposed, up)
            out.append((surface, ox, oy, alpha))
        return out

    def _grid(self, bounds) -> None:
        """Faint lines between the squares, fading out a few squares away from the build."""
        bx0, by0, bx1, by1 = bounds
        m = GRID_MARGIN
        vdata = GeomVertexData("grid", GeomVertexFormat.getV3c4(), Geom.UHStatic)
        pos, col = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
        lines = GeomLines(Geom.UHStatic)

        def alpha(x, y):  # x, y in squares (rows down)
            d = math.hypot(max(0, bx0 - x, x - (bx1 + 1)), max(0, by0 - y, y - (by1 + 1)))
            return GRID_ALPHA * max(0.0, 1 - d / m) ** 1.5
        n = 0
        segments = [((x, y), (x, y + 1)) for x in range(bx0 - m, bx1 + 2 + m) for y in range(by0 - m, by1 + 1 + m)]
        segments += [((x, y), (x + 1, y)) for y in range(by0 - m, by1 + 2 + m) for x in range(bx0 - m, bx1 + 1 + m)]
        runs = []
        for (xa, ya), (xb, yb) in segments:
            aa, ab = alpha(xa, ya), alpha(xb, yb)
            if max(aa, ab) < 0.02:  # too faint to see: leave it out
                continue
            if runs and runs[-1][1] == (xa, ya) and runs[-1][3] == aa == ab and runs[-1][2] == aa:
                # a square's edge going on as the one before, as faint: one line (software GL pays per line)
                runs[-1][1] = (xb, yb)
            else:
                runs.append([(xa, ya), (xb, yb), aa, ab])
        for (xa, ya), (xb, yb), aa, ab in runs:
            for x, y, a in ((xa, ya, aa), (xb, yb, ab)):
                pos.addData3(x, -y, 0.0)
                # blended with the cloth here, so the lines draw opaque (cheaper than blending)
                col.addData4(*(c + (g - c) * a for c, g in zip(CLOTH, GRID_INK)), 1)
            lines.addVertices(n, n + 1)
            n += 2
        geom = Geom(vdata)
        geom.addPrimitive(lines)
        node = GeomNode("grid")
        node.addGeom(geom)
        self.grid.removeNode()
        self.grid = self.root.attachNewNode(node)
        self.grid.setLightOff(1)
        self.grid.setDepthWrite(False)
        self.grid.setRenderModeThickness(1.4)
        self.grid.setBin("fixed", 0)

    def _shades(self, shades) -> None:
        """Shadow decals on the table and the tops of tiles, each cropped to where it is not clear."""
        self.shade.removeNode()
        self.shade = self.root.attachNewNode("shade")
        for surface, ox, oy, alpha in shades:
            rows, cols = np.nonzero(alpha > 0.01)
            if not len(rows):
                continue
            r0, r1 = rows.min() // SHADE_PX, rows.max() // SHADE_PX + 1
            c0, c1 = cols.min() // SHADE_PX, cols.max() // SHADE_PX + 1
            a = alpha[r0 * SHADE_PX:r1 * SHADE_PX, c0 * SHADE_PX:c1 * SHADE_PX]
            x0, y0, x1, y1 = ox + c0, oy + r0, ox + c1, oy + r1
            tex = _shade_texture("shade", a)
            # only the quarter squares with some shade, a run of them along a row one rectangle: blending the whole
            # area costs software GL dearly (whole squares blended twice the pixels: the shade at a tile's foot
            # reaches a third of a square out)
            q = SHADE_PX // 4
            blocks = a.reshape((r1 - r0) * 4, q, (c1 - c0) * 4, q).max(axis=(1, 3)) > 0.01
            rects = []
            for r, row in enumerate(blocks):
                edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(int), [0]))))
                rects += [(x0 + c / 4, -(y0 + (r + 1) / 4), x0 + e / 4, -(y0 + r / 4))
                          for c, e in zip(edges[::2], edges[1::2])]
            _decal(self.shade, "shade", x0, y0, x1, y1, level_height(surface + 1) + 0.004, tex, rects)
        self.shade.setTransparency(TransparencyAttrib.M_alpha)
        self.shade.setDepthWrite(False)
        self.shade.setLightOff(1)
        self.shade.setBin("fixed", 1)

    # ----- the candidate ------------------------------------------------------
    def ghost(self, piece) -> "Ghost":
        return Ghost(self, piece)


class Ghost:
    """The round's tile in the player's hand, its shadow, and its footprint where it would land."""

    def __init__(self, table: Table, piece):
        self.table = table
        self.piece = piece
        # node (placed like a tile) -> pivot (the tile's middle, where it leans) -> the model
        self.node = table.root.attachNewNode(f"ghost_{piece}")
        h, w = shape_mask(piece_shape(piece)).shape
        self.pivot = self.node.attachNewNode("lean")
        self.pivot.setPos(w / 2, -h / 2, TILE_THICKNESS / 2)
        table.model(piece).copyTo(self.pivot).setPos(-w / 2, h / 2, -TILE_THICKNESS / 2)
        self.footprint = None
        self.drop = None
        self.shadow = None
        self.fault = None
        self.struck = None
        self.shadow_textures: dict = {}
        self.shown = None
        self.form = None          # the form its marks are shown for (see show)
        self.forms: dict = {}     # form -> its marks (footprint, drop lines, shadow, the square at fault, stripes)
        self.pulsing = None

    def show(self, placement, level: int, lift: float, ok: bool, slide=(0.0, 0.0), fault=None) -> None:
        """`fault`: the square (x, y) a refusal names, marked on the tile's top (the footprint under a
        floating tile is hidden from above)."""
        if self.shown != (placement, level, ok, fault):
            self.shown = (placement, level, ok, fault)
            self.node.setColorScale((0.85, 1.1, 0.87, 1) if ok else (1.3, 0.65, 0.6, 1))
            at_fault = None if fault is None else (fault[0] - placement.x, fault[1] - placement.y)
            form = (placement.rotation, placement.flipped, ok, at_fault)
            if form != self.form:   # made once for each form; moving to a square moves them
                self.form = form
                for node in (self.footprint, self.drop, self.shadow, self.fault, self.struck):
                    if node is not None:
                        node.stash()
                if form not in self.forms:
                    self.forms[form] = self._footprint(placement.orientation(), ok, at_fault)
                self.footprint, self.drop, self.shadow, self.fault, self.struck = self.forms[form]
                for node in self.forms[form]:
                    if node is not None:
                        node.unstash()
        self.set_lift(placement, level, lift, slide)

    def _footprint(self, o, ok: bool, fault) -> tuple:
        """The marks of a tile lying as `o` does, its top-left square at the origin: the footprint, the drop
        lines, the tile's shadow, and on a refused tile's top the square at `fault` and the stripes."""
        squares = list(o.cells)
        at = struck = None
        if not ok:   # stripes on its top, but for the square at fault: that stays dark and plain
            struck = self.table.root.attachNewNode(_quads(
                "struck", [(sx, -sy - 1, sx + 1, -sy) for sx, sy in squares if (sx, sy) != fault],
                0.0, lambda x, y: (1, 1, 1, 1)))
            struck.setTexture(_struck_texture())
            struck.setTransparency(TransparencyAttrib.M_alpha)
            struck.setLightOff(1)
            struck.setDepthTest(False)   # over the leaning tile's top, as the square at fault
            struck.setDepthWrite(False)
            struck.setBin("fixed", 4)
        if fault is not None:
            inset = 0.12
            fx, fy = fault
            at = self.table.root.attachNewNode(_quads(
                "fault", [(fx + inset, -fy - 1 + inset, fx + 1 - inset, -fy - inset)], 0.0, lambda x, y: AT_FAULT))
            at.setTransparency(TransparencyAttrib.M_alpha)
            at.setLightOff(1)
            at.setDepthTest(False)   # over the leaning tile's top, whatever its tilt
            at.setDepthWrite(False)
            at.setBin("fixed", 5)
        colour = LEGAL if ok else REFUSED
        inset = 0.04
        cells = [(sx + inset, -sy - 1 + inset, sx + 1 - inset, -sy - inset) for sx, sy in squares]
        footprint = self.table.root.attachNewNode(_quads("footprint", cells, 0.0, lambda x, y: colour))
        footprint.setTransparency(TransparencyAttrib.M_alpha)
        footprint.setLightOff(1)
        footprint.setDepthWrite(False)
        footprint.setBin("fixed", 2)
        drop = self.table.root.attachNewNode(_drop_lines(squares, (*colour[:3], 1)))
        drop.setLightOff(1)
        drop.setRenderModeThickness(2)
        # a soft shadow of the tile in the hand, moved along the light as it rises
        pad = 1
        key = (o.rotation, o.flipped)
        if key not in self.shadow_textures:  # made once per way the tile lies
            occ = np.kron(np.pad(o.mask, pad).astype(float), np.ones((SHADE_PX, SHADE_PX)))
            alpha = _soft(occ, 5) * 0.5
            self.shadow_textures[key] = _shade_texture("hand-shadow", alpha)
        tex = self.shadow_textures[key]
        shadow = _decal(self.table.root, "hand-shadow", -pad, -pad, o.width + pad, o.height + pad, 0.0, tex)
        shadow.setTransparency(TransparencyAttrib.M_alpha)
        shadow.setLightOff(1)
        shadow.setDepthWrite(False)
        shadow.setBin("fixed", 3)
        return footprint, drop, shadow, at, struck

    def set_lift(self, placement, level: int, lift: float, slide=(0.0, 0.0)) -> None:
        """Draw the tile `lift` above its level, `slide` squares (x, y) away from its square
        (it glides to a new square while the footprint already shows it)."""
        self.node.setTransform(placement_transform(placement, level, lift))
        sx, sy = slide
        if sx or sy:
            self.node.setPos(self.node.getPos() + (sx, -sy, 0))
        # lean a little into the way it moves, like a tile carried between two fingers
        lean = lambda d: max(-LEAN_MAX, min(LEAN_MAX, d * LEAN_PER_SQUARE))
        self.pivot.setHpr(self.node, 0, lean(sy), lean(-sx))
        x, y, z = placement.x, -placement.y, level_height(level)
        if self.footprint is not None:
            self.footprint.setPos(x, y, z + 0.006)
        if self.drop is not None:   # from the footprint up to the tile's underside
            self.drop.setPos(x, y, z)
            self.drop.setSz(max(lift, 1e-3))
        for top in (self.fault, self.struck):   # on the tile's top, wherever it floats or glides
            if top is not None:
                top.setPos(x + sx, y - sy, z + lift + TILE_THICKNESS + 0.01)
        if self.shadow is not None:
            run_x, run_y = self.table.shadow_run()
            height = lift + TILE_THICKNESS
            self.shadow.setPos(x + sx + run_x * height, y - sy - run_y * height, z + 0.008)

    def tint(self, colour) -> None:
        """A steady tint, see-through by its alpha (a hint's ghost with animations off)."""
        self.node.setTransparency(TransparencyAttrib.M_alpha)
        self.node.setColorScale(*colour)

    def pulse(self, dim, bright, seconds: float = 1.0) -> None:
        """Breathe between two tints, `seconds` a breath: a hint's ghost, told apart from a laid tile of its
        colour (a 6 is blue as the hint is)."""
        self.node.setTransparency(TransparencyAttrib.M_alpha)
        half = seconds / 2
        self.pulsing = Sequence(LerpColorScaleInterval(self.node, half, bright, dim, blendType="easeInOut"),
                                LerpColorScaleInterval(self.node, half, dim, bright, blendType="easeInOut"))
        self.pulsing.loop()

    def destroy(self) -> None:
        if self.pulsing is not None:
            self.pulsing.pause()
        for node in (self.node, *(mark for marks in self.forms.values() for mark in marks)):
            if node is not None:
                node.removeNode()


_STRUCK = []


def _struck_texture() -> Texture:
    """One square of a refused tile's stripes (made once): black, diagonal, repeated square by square."""
    if not _STRUCK:
        i = np.arange(STRUCK_PX)
        band = (i[:, None] + i[None, :]) % (STRUCK_PX // 2) < STRUCK_STRIPE * STRUCK_PX / 2
        rgba = np.zeros((STRUCK_PX, STRUCK_PX, 4))
        rgba[..., 3] = band * STRUCK_ALPHA
        tex = Texture("struck")
        tex.setup2dTexture(STRUCK_PX, STRUCK_PX, Texture.T_unsigned_byte, Texture.F_rgba)
        tex.setRamImage((rgba * 255 + 0.5).astype(np.uint8).tobytes())
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        tex.setMagfilter(SamplerState.FT_linear)
        _STRUCK.append(tex)
    return _STRUCK[0]


def _shade_texture(name: str, alpha: np.ndarray):
    """A black, mipmapped texture with this alpha (rows top to bottom), padded to powers of two
    (the software renderer needs them); returns it and the part of it the alpha fills."""
    rows, cols = alpha.shape
    size_r, size_c = (1 << max(0, (n - 1).bit_length()) for n in (rows, cols))
    rgba = np.zeros((size_r, size_c, 4))
    rgba[size_r - rows:, :cols, 3] = alpha[::-1]  # Panda3D stores rows bottom-up
    tex = Texture(name)
    tex.setup2dTexture(size_c, size_r, Texture.T_unsigned_byte, Texture.F_rgba)
    tex.setRamImage((np.clip(rgba, 0, 1) * 255 + 0.5).astype(np.uint8).tobytes())
    tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
    tex.setMagfilter(SamplerState.FT_linear)
    tex.setWrapU(SamplerState.WM_clamp)
    tex.setWrapV(SamplerState.WM_clamp)
    return tex, (cols / size_c, rows / size_r)


def _decal(parent, name: str, x0, y0, x1, y1, z: float, texture, rects=None) -> NodePath:
    """A shade texture (from _shade_texture) stretched over squares x0..x1, y0..y1 (rows
    downward) at height z; drawn whole, or only on `rects` (world rectangles inside it)."""
    tex, (fu, fv) = texture
    rects = rects if rects is not None else [(x0, -y1, x1, -y0)]
    node = parent.attachNewNode(_quads(name, rects, z, lambda x, y: (1, 1, 1, 1)))
    node.setTexture(tex)
    # world x0..x1 -> u 0..fu; world y -y1..-y0 -> v 1-fv..1 (the filled top-left of the image)
    node.setTexScale(_tex_stage(), fu / (x1 - x0), fv / (y1 - y0))
    node.setTexOffset(_tex_stage(), -x0 * fu / (x1 - x0), y1 * fv / (y1 - y0) + 1 - fv)
    return node


def _tex_stage():
    from panda3d.core import TextureStage
    return TextureStage.getDefault()


def _soft(a: np.ndarray, r: int) -> np.ndarray:
    """Box blur of radius r, twice (close to a gaussian); zero beyond the edges."""
    for _ in range(2):
        for axis in (0, 1):
            c = np.cumsum(np.pad(a, [(r + 1, r) if k == axis else (0, 0) for k in (0, 1)]), axis=axis)
            n = a.shape[axis]
            a = (c.take(range(2 * r + 1, 2 * r + 1 + n), axis) - c.take(range(0, n), axis)) / (2 * r + 1)
    return a


def _badge(text: str, font) -> NodePath:
    """A round badge in the XZ plane (facing -Y, as text does) with `text` in its middle."""
    node = NodePath("badge")
    for radius, colour, nearer in ((BADGE_RADIUS, BADGE_RING, 0.0), (BADGE_RADIUS * 0.86, BADGE_INK, 0.01)):
        vdata = GeomVertexData("badge", GeomVertexFormat.getV3c4(), Geom.UHStatic)
        pos, col = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
        fan = GeomTrifans(Geom.UHStatic)
        steps = 24
        for i in range(steps):
            a = 2 * math.pi * i / steps   # anticlockwise seen from -Y: its front
            pos.addData3(radius * math.cos(a), -nearer, radius * math.sin(a))
            col.addData4(*colour)
            fan.addVertex(i)
        fan.closePrimitive()
        geom = Geom(vdata)
        geom.addPrimitive(fan)
        disc = GeomNode("badge-disc")
        disc.addGeom(geom)
        node.attachNewNode(disc)
    label = TextNode("badge-level")
    label.setFont(font)
    label.setText(text)
    label.setAlign(TextNode.ACenter)
    label.setTextColor(*BADGE_RING)
    size = BADGE_RADIUS * 1.6   # the numeral as big as the disc holds: it is what is read
    number = node.attachNewNode(label.generate())
    number.setScale(size)
    number.setPos(0, -0.02, -size * 0.36)
    return node


def _drop_lines(squares, colour) -> GeomNode:
    """Upright lines, one unit high, at the outer corners of these squares (x, y; rows down)."""
    taken = set(squares)
    corners = {(x + dx, y + dy) for x, y in taken for dx in (0, 1) for dy in (0, 1)}
    outer = [(cx, cy) for cx, cy in corners
             if sum((cx - dx, cy - dy) in taken for dx in (0, 1) for dy in (0, 1)) == 1]
    vdata = GeomVertexData("drop", GeomVertexFormat.getV3c4(), Geom.UHStatic)
    pos, col = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
    lines = GeomLines(Geom.UHStatic)
    for i, (cx, cy) in enumerate(sorted(outer)):
        for z in (0.0, 1.0):
            pos.addData3(cx, -cy, z)
            col.addData4(*colour)
        lines.addVertices(2 * i, 2 * i + 1)
    geom = Geom(vdata)
    geom.addPrimitive(lines)
    node = GeomNode("drop")
    node.addGeom(geom)
    return node


def _quads(name: str, rects, z: float, colour_at, uv_scale: float = 1.0) -> GeomNode:
    """A GeomNode of flat, upward-facing rectangles (x0, y0, x1, y1) at height z."""
    vdata = GeomVertexData(name, GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    vdata.setNumRows(4 * len(rects))
    pos, nrm, col, tex = (GeomVertexWriter(vdata, c) for c in ("vertex", "normal", "color", "texcoord"))
    tris = GeomTriangles(Geom.UHStatic)
    for i, (x0, y0, x1, y1) in enumerate(rects):
        for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
            pos.addData3(x, y, z)
            nrm.addData3(0, 0, 1)
            col.addData4(*colour_at(x, y))
            tex.addData2(x * uv_scale, y * uv_scale)
        tris.addVertices(4 * i, 4 * i + 1, 4 * i + 2)
        tris.addVertices(4 * i, 4 * i + 2, 4 * i + 3)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode(name)
    node.addGeom(geom)
    return node
