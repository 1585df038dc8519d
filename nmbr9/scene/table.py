"""The table: a felt surface, a faint grid near the build, lights, and any Board's tiles.

`Table.show(board)` redraws the committed tiles (flattened: they are
static); `Table.ghost()` makes the movable candidate tile with its landing
footprint. The table draws what it is given and decides nothing.
"""
from __future__ import annotations

import math

from panda3d.core import (AmbientLight, DirectionalLight, Geom, GeomNode, GeomTriangles,
                          GeomVertexData, GeomVertexFormat, GeomVertexWriter, NodePath, SamplerState,
                          TransformState, TransparencyAttrib, LVector3)

from ..assets import TILE_THICKNESS, model_path
from ..paths import TEXTURES
from ..rules.tiles import piece_shape, shape_mask
from .camera import level_height

GRID_MARGIN = 4          # squares of grid shown around the build
GRID_ALPHA = 0.2
LEGAL = (0.3, 0.9, 0.4, 0.55)
REFUSED = (0.95, 0.25, 0.2, 0.55)


def level_tint(level: int) -> float:
    """Higher levels a little brighter, so stacks read at a glance."""
    return min(1.18, 0.9 + 0.09 * level)


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


class Table:
    def __init__(self, base, parent=None, shadows: bool = True):
        self.base = base
        self.root = (parent or base.render).attachNewNode("table")
        self._models: dict = {}
        self.surface = self._surface()
        self.grid = self.root.attachNewNode("grid")
        self.tiles = self.root.attachNewNode("tiles")
        self.board = None
        self.shader = base.win.getGsg() is not None and base.win.getGsg().getSupportsBasicShaders()
        self._lights(False)
        self.show(None)

    # ----- art --------------------------------------------------------------
    def model(self, piece) -> NodePath:
        """The tile model (loaded once); callers instance copies of it."""
        if piece not in self._models:
            path = model_path(piece)
            if not path.exists():
                raise FileNotFoundError(f"missing tile model {path}: run `nmbr9 assets`")
            m = self.base.loader.loadModel(path.as_posix(), noCache=True)
            self._models[piece] = m
        return self._models[piece]

    def _texture(self, name: str, repeat: bool):
        tex = self.base.loader.loadTexture((TEXTURES / name).as_posix())
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        tex.setMagfilter(SamplerState.FT_linear)
        tex.setAnisotropicDegree(4)
        mode = SamplerState.WM_repeat if repeat else SamplerState.WM_clamp
        tex.setWrapU(mode)
        tex.setWrapV(mode)
        return tex

    def _surface(self) -> NodePath:
        size, per = 160, 5.0  # the cloth texture spans 5 squares
        np_ = self.root.attachNewNode(_quads("felt", [(-size, -size, size, size)], 0.0,
                                             lambda x, y: (1, 1, 1, 1), uv_scale=1 / per))
        np_.setTexture(self._texture("table.png", True))
        return np_

    def _lights(self, shadows: bool) -> None:
        render = self.root
        amb = AmbientLight("ambient")
        amb.setColor((0.46, 0.46, 0.5, 1))
        self.ambient = render.attachNewNode(amb)
        sun = DirectionalLight("sun")
        sun.setColor((0.78, 0.75, 0.68, 1))
        self.sun = render.attachNewNode(sun)
        self.sun.setHpr(35, -58, 0)
        fill = DirectionalLight("fill")
        fill.setColor((0.16, 0.18, 0.24, 1))
        self.fill = render.attachNewNode(fill)
        self.fill.setHpr(-150, -30, 0)
        for light in (self.ambient, self.sun, self.fill):
            render.setLight(light)
        self.shadows = shadows
        if shadows:
            sun.setShadowCaster(True, 2048, 2048)
            sun.getLens().setNearFar(1, 80)

    # ----- drawing a board --------------------------------------------------
    def show(self, board) -> None:
        """Draw every tile of `board` (None: an empty table) and the grid around it."""
        self.board = board
        self.tiles.removeNode()
        self.tiles = self.root.attachNewNode("tiles")
        for p in (board.tiles if board else []):
            node = self.model(p.piece).copyTo(self.tiles)
            node.setTransform(placement_transform(p, p.level))
            t = level_tint(p.level)
            node.setColorScale(t, t, t, 1)
        self.tiles.flattenStrong()  # static: one batch per texture
        bounds = board.bounds() if board and board.tiles else (0, 0, 3, 3)
        self._grid(bounds)
        self._aim_sun(bounds)

    def _grid(self, bounds) -> None:
        x0, y0, x1, y1 = bounds
        m = GRID_MARGIN
        cx, cy = (x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2
        rx, ry = (x1 + 1 - x0) / 2, (y1 + 1 - y0) / 2

        def alpha(x, y):
            # fade out with the distance beyond the build's rectangle
            d = math.hypot(max(0.0, abs(x - cx) - rx), max(0.0, abs(-y - cy) - ry))
            return (1, 1, 1, GRID_ALPHA * max(0.0, 1 - d / m) ** 1.5)
        self.grid.removeNode()
        cells = [(x, -y - 1, x + 1, -y) for x in range(x0 - m, x1 + m + 1) for y in range(y0 - m, y1 + m + 1)]
        self.grid = self.root.attachNewNode(_quads("grid", cells, 0.003, alpha, uv_scale=1.0))
        self.grid.setTexture(self._texture("grid.png", True))
        self.grid.setTransparency(TransparencyAttrib.M_alpha)
        self.grid.setDepthWrite(False)
        self.grid.setLightOff(1)
        self.grid.setBin("fixed", 0)

    def _aim_sun(self, bounds) -> None:
        if not self.shadows:
            return
        x0, y0, x1, y1 = bounds
        centre = LVector3((x0 + x1 + 1) / 2, -(y0 + y1 + 1) / 2, 0)
        size = max(x1 - x0, y1 - y0) + 14
        self.sun.setPos(centre - self.sun.getQuat().getForward() * 40)
        self.sun.node().getLens().setFilmSize(size, size)

    # ----- the candidate ------------------------------------------------------
    def ghost(self, piece) -> "Ghost":
        return Ghost(self, piece)


class Ghost:
    """The round's tile in the player's hand, and its footprint where it would land."""

    def __init__(self, table: Table, piece):
        self.table = table
        self.piece = piece
        self.node = table.model(piece).copyTo(table.root)
        self.node.setName(f"ghost_{piece}")
        self.footprint = None

    def show(self, placement, level: int, lift: float, ok: bool) -> None:
        self.node.setTransform(placement_transform(placement, level, lift))
        self.node.setColorScale((0.82, 1.12, 0.85, 1) if ok else (1.2, 0.7, 0.68, 1))
        if self.footprint is not None:
            self.footprint.removeNode()
        colour = LEGAL if ok else REFUSED
        inset = 0.06
        cells = [(sx + inset, -sy - 1 + inset, sx + 1 - inset, -sy - inset) for sx, sy in placement.squares()]
        self.footprint = self.table.root.attachNewNode(
            _quads("footprint", cells, level_height(level) + 0.006, lambda x, y: colour))
        self.footprint.setTransparency(TransparencyAttrib.M_alpha)
        self.footprint.setLightOff(1)
        self.footprint.setDepthWrite(False)
        self.footprint.setShaderOff(1)

    def set_lift(self, placement, level: int, lift: float) -> None:
        self.node.setTransform(placement_transform(placement, level, lift))

    def destroy(self) -> None:
        self.node.removeNode()
        if self.footprint is not None:
            self.footprint.removeNode()


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
