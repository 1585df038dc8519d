"""RumBugz's pieces for `nmbr9 assets`: a bug model and texture for each number 1..12, the PLYT, and the back
other players see of a bug in a hand.

A bug is an egg-shaped body, extruded with a bevelled top, a dark head and six legs and two feelers as thin low
bars (flat tops). One model a kind of bug, shared by every bug of that kind at the table. Its number is printed large on its
back (the texture), in one colour a number; the PLYT is white with a rainbow rim and a gold star with a "P".

Model space: one unit is about a bug's width with its legs; the body's middle is at the origin, the head towards
+Y (so a bug lying at heading 0 reads upright from the south), its underside on Z = 0.
"""
from __future__ import annotations

import colorsys
import math

import numpy as np

from .assets import BACK, PX, TURNED_ALIKE, _blur, _Egg, _resize, _seed, _underlined, png_bytes, rgb
from .paths import FONT_BOLD, MODELS

BUG_COLOURS = {1: "#e0312b", 2: "#f28c1c", 3: "#f2cf1d", 4: "#8cc63f", 5: "#1e9e4a", 6: "#19b5a5",
               7: "#2a8fd6", 8: "#3d4fc4", 9: "#8b46c9", 10: "#d94fb3", 11: "#8a5a3b", 12: "#9e1b4f"}
PLYT_COLOUR = "#f4f1ea"     # white: the wild bug, with a rainbow rim and a star
BUG_BACK_COLOUR = "#3b3a46"  # a bug in another player's hand: no number, one colour for all
BUG_KINDS = (*(str(n) for n in BUG_COLOURS), "P", "back")
BODY_A, BODY_B = 0.40, 0.52   # the body's half width and half length
BUG_THICKNESS = 0.22
BUG_BEVEL = 0.05
TEX_HALF = 0.6                # the texture covers -TEX_HALF..TEX_HALF in x and y
TEX_PX = 2 * PX               # texture pixels a side
LEG_Z = 0.07                  # legs, head and feelers: low, dark bars beside the body
OUTLINE_POINTS = 28   # smooth enough at a bug's size on screen; software GL pays for each triangle
# number box on the body's back (model units): below the darker band across the front (the pronotum)
LABEL_BOX = (-0.31, 0.31, -0.36, 0.24)   # x0, x1, y0, y1
PRONOTUM_Y = 0.3


def bug_colour(kind: str) -> str:
    return PLYT_COLOUR if kind == "P" else BUG_BACK_COLOUR if kind == "back" else BUG_COLOURS[int(kind)]


def bug_model_path(kind: str):
    return MODELS / f"bug_{kind}.egg"


def body_outline(shrink: float = 0.0) -> list[tuple[float, float]]:
    """The body's outline, counter-clockwise: an egg a little wider behind than in front, `shrink` inside it."""
    out = []
    for i in range(OUTLINE_POINTS):
        t = 2 * math.pi * i / OUTLINE_POINTS
        y = (BODY_B - shrink) * math.sin(t)
        x = (BODY_A - shrink) * math.cos(t) * (1 - 0.12 * y / BODY_B)
        out.append((x, y))
    return out


def _uv(x: float, y: float) -> tuple[float, float]:
    return (x + TEX_HALF) / (2 * TEX_HALF), (y + TEX_HALF) / (2 * TEX_HALF)


def _bar(egg: _Egg, a, b, width: float, z: float, colour) -> None:
    """A thin low bar from a to b (a leg or a feeler): its top only (its sides, 0.07 high, hardly show and cost a
    hundred bugs' frames a fifth of their triangles)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    ox, oy = -dy / n * width / 2, dx / n * width / 2
    quad = [(ax + ox, ay + oy), (bx + ox, by + oy), (bx - ox, by - oy), (ax - ox, ay - oy)]
    egg.polygon("top", [(x, y, z) for x, y in quad], (0, 0, 1), [colour] * 4)


def bug_egg(kind: str) -> str:
    """The egg text of one kind of bug."""
    name = f"bug_{kind}"
    egg = _Egg(name)
    colour = rgb(bug_colour(kind))
    T, b = BUG_THICKNESS, BUG_BEVEL
    white, dark = (1.0, 1.0, 1.0, 1.0), (*BACK, 1.0)
    limbs = (*(c * 0.3 for c in colour), 1.0) if kind != "P" else (0.22, 0.2, 0.24, 1.0)
    # legs, head and feelers first: the body, drawn over them, hides where they join
    for side in (-1, 1):
        for y, reach in ((0.24, 0.2), (0.0, 0.0), (-0.26, -0.2)):
            _bar(egg, (side * 0.3, y), (side * 0.6, y + reach), 0.07, LEG_Z, limbs)
        _bar(egg, (side * 0.05, 0.6), (side * 0.2, 0.84), 0.04, LEG_Z, limbs)
    head = [(0.17 * math.cos(t), 0.56 + 0.13 * math.sin(t)) for t in
            (2 * math.pi * i / 16 for i in range(16))]
    egg.polygon("top", [(x, y, LEG_Z * 1.6) for x, y in head], (0, 0, 1), [limbs] * 16)
    outer, inner = body_outline(), body_outline(b)
    low, high = (*(c * 0.62 for c in colour), 1.0), (*colour, 1.0)
    n = len(outer)
    for i in range(n):
        (x0, y0), (x1, y1) = outer[i], outer[(i + 1) % n]
        (u0, v0), (u1, v1) = inner[i], inner[(i + 1) % n]
        egg.polygon("sides", [(x0, y0, 0), (x1, y1, 0), (x1, y1, T - b), (x0, y0, T - b)], (x0 + x1, y0 + y1, 0),
                    [low, low, high, high])
        bevel = [(x0, y0, T - b), (x1, y1, T - b), (u1, v1, T), (u0, v0, T)]
        egg.polygon("top", bevel, (x0 + x1, y0 + y1, 2 * b), [white] * 4, [_uv(x, y) for x, y, _ in bevel], "numeral")
    egg.polygon("top", [(x, y, T) for x, y in inner], (0, 0, 1), [white] * n, [_uv(x, y) for x, y in inner], "numeral")
    egg.polygon("back", [(x, y, 0) for x, y in outer], (0, 0, -1), [dark] * n)
    return egg.text(f"../textures/{name}.png", "nmbr9/bug_assets.py")


def _grid():
    """Model x and y of every texture pixel (rows from the top of the picture: +Y first)."""
    ys, xs = np.mgrid[0:TEX_PX, 0:TEX_PX]
    return (xs + 0.5) / TEX_PX * 2 * TEX_HALF - TEX_HALF, TEX_HALF - (ys + 0.5) / TEX_PX * 2 * TEX_HALF


def _to_px(x: float, y: float) -> tuple[int, int]:
    """Texture (row, column) of a model point."""
    return int((TEX_HALF - y) / (2 * TEX_HALF) * TEX_PX), int((x + TEX_HALF) / (2 * TEX_HALF) * TEX_PX)


def label_ink(label: str) -> np.ndarray:
    """Coverage (TEX_PX square, 0..1) of a bug's number as printed on its back: as large as the label box
    allows, centred in it; the 6 and the 9 underlined, as on the tiles."""
    from .scene.glyphs import glyph_coverage
    glyph = glyph_coverage(label, FONT_BOLD, 4 * PX)
    if label in TURNED_ALIKE:
        glyph = _underlined(glyph)
    x0, x1, y0, y1 = LABEL_BOX
    top, left = _to_px(x0, y1)
    bottom, right = _to_px(x1, y0)
    box_h, box_w = bottom - top, right - left
    k = min(box_h / glyph.shape[0], box_w / glyph.shape[1])
    rows, cols = int(glyph.shape[0] * k), int(glyph.shape[1] * k)
    ink = np.zeros((TEX_PX, TEX_PX))
    r, c = top + (box_h - rows) // 2, left + (box_w - cols) // 2
    ink[r:r + rows, c:c + cols] = _resize(glyph, rows, cols)
    return ink


def _print(img: np.ndarray, ink: np.ndarray, colour: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """Ink laid on the picture as the tiles' numerals are: a soft shadow, a darker rim, then a pale fill."""
    shadow = _blur(np.roll(np.roll(ink, 4, 0), 3, 1), 3) * 0.5
    img = img * (1 - shadow[..., None]) + (colour * 0.25)[None, None, :] * shadow[..., None]
    rim = np.clip(_blur(ink, 2) * 2.5, 0, 1) * 0.6
    img = img * (1 - rim[..., None]) + (colour * 0.55)[None, None, :] * rim[..., None]
    return img * (1 - ink[..., None]) + fill[None, None, :] * ink[..., None]


def ink_colour(colour: np.ndarray) -> np.ndarray:
    """The number's ink: near white, or dark on the light bugs (yellow, lime), where white would not read."""
    light = float(colour @ (0.2126, 0.7152, 0.0722)) > 0.65
    return colour * 0.22 if light else 0.9 + 0.1 * colour


def _star(x, y, cx: float, cy: float, r: float) -> np.ndarray:
    """Coverage of a five-pointed star (points up), softened by a pixel."""
    a = np.arctan2(x - cx, y - cy)
    d = np.hypot(x - cx, y - cy)
    sector = 2 * np.pi / 5
    t = np.abs((a % sector) - sector / 2) / (sector / 2)   # 0 between two points, 1 at a point
    edge = r * (0.42 + 0.58 * t ** 1.6)
    return np.clip((edge - d) * TEX_PX / (2 * TEX_HALF) + 0.5, 0, 1)


def bug_texture(kind: str) -> np.ndarray:
    """RGB (uint8) of a bug's back."""
    x, y = _grid()
    rng = np.random.default_rng(_seed(f"bug_{kind}"))
    colour = np.array(rgb(bug_colour(kind)))
    grain = _blur(rng.normal(0, 1, (TEX_PX, TEX_PX)), 1) * 0.018
    img = np.clip(colour[None, None, :] * (1 + grain[..., None]), 0, 1)
    # the darker band across the front of the body, with a soft curved edge
    front = np.clip((y - PRONOTUM_Y - 0.08 * (x / BODY_A) ** 2) * 40, 0, 1)
    img = img * (1 - 0.28 * front[..., None])
    if kind == "P":
        # a rainbow rim round the body and a gold star with a dark "P": no number bug looks like it
        r = np.hypot(x / BODY_A, y / BODY_B)
        hue = (np.arctan2(y, x) / (2 * np.pi)) % 1
        rainbow = np.array(np.vectorize(colorsys.hsv_to_rgb)(hue, 0.85, 0.95)).transpose(1, 2, 0)
        band = np.clip((r - 0.76) * 30, 0, 1)[..., None]
        img = img * (1 - band) + rainbow * band
        gold = np.array(rgb("#f0b323"))
        star = _star(x, y, 0.0, -0.05, 0.3)[..., None]
        img = img * (1 - star) + gold * star
        img = _print(img, _p_ink(), gold, np.array(rgb("#3a2a10")))
    elif kind != "back":
        img = _print(img, label_ink(kind), colour, ink_colour(colour))
    return (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)


def _p_ink() -> np.ndarray:
    """The PLYT's "P", smaller than a number: it sits inside the star."""
    from .scene.glyphs import glyph_coverage
    glyph = glyph_coverage("P", FONT_BOLD, 4 * PX)
    rows = int(0.26 / (2 * TEX_HALF) * TEX_PX)
    cols = int(glyph.shape[1] * rows / glyph.shape[0])
    ink = np.zeros((TEX_PX, TEX_PX))
    r, c = _to_px(0.0, -0.05)
    ink[r - rows // 2:r - rows // 2 + rows, c - cols // 2:c - cols // 2 + cols] = _resize(glyph, rows, cols)
    return ink


def bug_files() -> dict[str, bytes]:
    """Every bug's model and texture, by path relative to the checkout."""
    out = {}
    for kind in BUG_KINDS:
        out[f"models/bug_{kind}.egg"] = bug_egg(kind).encode()
        out[f"textures/bug_{kind}.png"] = png_bytes(bug_texture(kind))
    return out
