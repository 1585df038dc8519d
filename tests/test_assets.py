"""The tile art in models/ and textures/ is what `nmbr9 assets` makes from the rules' shapes."""
from __future__ import annotations

import re

import numpy as np
import pytest

from nmbr9 import assets
from nmbr9.paths import ROOT
from nmbr9.rules import tiles


@pytest.fixture(scope="module")
def generated():
    return assets.generated_files()


def test_committed_art_is_what_the_generator_makes_now(generated):
    stale = []
    for rel, data in generated.items():
        path = ROOT / rel
        if not path.exists():
            stale.append(f"{rel} is missing")
        elif rel.endswith(".png"):
            on_disk = assets.read_png(path.read_bytes())
            fresh = assets.read_png(data)
            if on_disk.shape != fresh.shape or np.abs(on_disk.astype(int) - fresh).max() > 2:
                stale.append(f"{rel} differs")
        elif path.read_bytes() != data:
            stale.append(f"{rel} differs")
    assert not stale, "art is out of date, run `nmbr9 assets`: " + "; ".join(stale)


def test_every_piece_of_the_rules_has_a_model_and_a_texture(generated):
    for piece in [*tiles.SHAPES, *tiles.EXTRA_SHAPES]:
        assert f"models/tile_{piece}.egg" in generated
        assert f"textures/tile_{piece}.png" in generated


def _top_squares(egg: str) -> set[tuple[int, int]]:
    """The grid squares under the tile's top polygons (from the egg's vertex pool)."""
    verts = {int(i): tuple(map(float, xyz.split()))
             for i, xyz in re.findall(r"<Vertex> (\d+) \{ ([-\d. ]+?) (?:<UV>|<RGBA>)", egg)}
    top = egg[egg.index("<Group> top"):egg.index("<Group> sides")]
    squares = set()
    for refs in re.findall(r"<VertexRef> \{ ([\d ]+) <Ref>", top):
        pts = [verts[int(i)] for i in refs.split()]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        squares.add((int(np.floor(cx)), int(np.floor(-cy))))
    return squares


@pytest.mark.parametrize("digit", range(10))
def test_a_number_tile_covers_exactly_its_squares_and_is_card_thick(generated, digit):
    egg = generated[f"models/tile_{digit}.egg"].decode()
    mask = tiles.shape_mask(tiles.SHAPES[digit])
    want = {(int(x), int(y)) for y, x in zip(*np.nonzero(mask))}
    assert _top_squares(egg) == want
    zs = [float(z) for z in re.findall(r"<Vertex> \d+ \{ [-\d.]+ [-\d.]+ ([-\d.]+)", egg)]
    assert min(zs) == 0 and max(zs) == pytest.approx(assets.TILE_THICKNESS)
    # the bevel: some top vertices sit lower than the flat top, at the edges
    assert any(0 < z < assets.TILE_THICKNESS - 0.01 for z in zs)


def test_the_numeral_is_printed_on_the_top_face():
    art = next(a for a in assets.piece_arts() if a.piece == 7)
    img = assets.tile_texture(art).astype(float)
    colour = np.array(assets.rgb(art.colour)) * 255
    off = np.abs(img - colour).sum(-1) > 60   # pixels far from the plain tile colour
    h, w = tiles.shape_mask(art.rows).shape
    inside = off[: h * assets.PX, : w * assets.PX]
    assert 0.1 < inside.mean() < 0.6          # a large numeral, not a flood
    assert not off[:, w * assets.PX + 8:].any()  # nothing printed beyond the tile


def test_a_6_turned_half_round_does_not_read_as_a_9():
    """On the table a 6 turned half round showed the 9's numeral (and a 9 the 6's), told apart only by the
    colour: each is underlined, so that turned round its bar stands above it."""
    def ink(digit):   # the numeral's pixels over the tile's box, numeral upright
        art = next(a for a in assets.piece_arts() if a.piece == digit)
        img = assets.tile_texture(art).astype(float)
        h, w = tiles.shape_mask(art.rows).shape
        box = img[: h * assets.PX, : w * assets.PX]
        return box.sum(-1) > (box.sum(-1).min() + box.sum(-1).max()) / 2

    def lowest_print(face):   # how tall the lowest printed run of rows is (a bar, or the numeral's foot)
        inked = list(face.mean(1) > 0.02)
        bottom = len(inked) - 1 - inked[::-1].index(True)
        top = bottom
        while top > 0 and inked[top - 1]:
            top -= 1
        return (bottom - top + 1) / assets.PX
    for upright, turned in ((ink(9), ink(6)[::-1, ::-1]), (ink(6), ink(9)[::-1, ::-1])):
        assert lowest_print(upright) < 0.4 < lowest_print(turned)   # the bar under the numeral, or none


def test_a_new_shape_gets_art_from_the_same_code(monkeypatch):
    monkeypatch.setitem(tiles.EXTRA_SHAPES, "T3", ("###", ".#."))
    art = next(a for a in assets.piece_arts() if a.piece == "T3")
    files = assets.art_files(art)
    egg = files["models/tile_T3.egg"].decode()
    assert _top_squares(egg) == {(0, 0), (1, 0), (2, 0), (1, 1)}
    assert assets.read_png(files["textures/tile_T3.png"]).shape[:2] == (4 * assets.PX, 4 * assets.PX)


def test_the_command_writes_into_a_checkout_and_then_has_nothing_to_do(tmp_path, generated):
    written = assets.write_assets(tmp_path, generated)
    assert "models/tile_8.egg" in written and "textures/tile_8.png" in written
    assert assets.write_assets(tmp_path, generated) == []
    assert (tmp_path / "models/tile_8.egg").read_bytes() == generated["models/tile_8.egg"]


def test_a_full_disk_leaves_every_model_whole(tmp_path, monkeypatch):
    """A model rewritten in place was cut short by a full disk or a kill: the game could no longer load it."""
    import errno
    import os
    model = tmp_path / "models/tile_8.egg"
    model.parent.mkdir()
    model.write_bytes(b"<the model as it was>")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr("nmbr9.store.files.os.write", full)
    with pytest.raises(OSError, match="No space left on device"):
        assets.write_assets(tmp_path, {"models/tile_8.egg": b"<a new model>" * 1000})
    assert model.read_bytes() == b"<the model as it was>"
    assert os.listdir(model.parent) == ["tile_8.egg"]


def test_every_bug_has_a_model_and_a_texture_and_a_bevelled_body(generated):
    from nmbr9 import bug_assets
    for kind in bug_assets.BUG_KINDS:
        egg = generated[f"models/bug_{kind}.egg"].decode()
        assert f"textures/bug_{kind}.png" in generated
        zs = [float(z) for z in re.findall(r"<Vertex> \d+ \{ [-\d.]+ [-\d.]+ ([-\d.]+)", egg)]
        assert min(zs) == 0 and max(zs) == pytest.approx(bug_assets.BUG_THICKNESS)
        assert any(abs(z - (bug_assets.BUG_THICKNESS - bug_assets.BUG_BEVEL)) < 1e-4 for z in zs)   # the bevel
        assert egg.count("<Polygon>") < 400   # one model a kind, shared: small enough for 100 bugs on software GL


def test_a_bugs_number_is_printed_large_on_its_back_and_a_hidden_bug_shows_none():
    from nmbr9 import bug_assets
    for n, colour in bug_assets.BUG_COLOURS.items():
        img = bug_assets.bug_texture(str(n)).astype(float)
        inked = np.abs(img - np.array(assets.rgb(colour)) * 255).sum(-1) > 150   # far from the bug's colour
        x0, x1, y0, y1 = bug_assets.LABEL_BOX
        top, left = bug_assets._to_px(x0, y1)
        bottom, right = bug_assets._to_px(x1, y0)
        assert 0.12 < inked[top:bottom, left:right].mean() < 0.7, n    # a large number, not a flood
        assert inked[top:bottom, left:right].sum() > 0.9 * inked.sum(), n   # and nowhere else
    back = bug_assets.bug_texture("back").astype(float)
    assert np.abs(back - np.array(assets.rgb(bug_assets.BUG_BACK_COLOUR)) * 255).sum(-1).max() < 60


def test_the_plyt_wears_every_colour_round_its_rim():
    from nmbr9 import bug_assets
    img = bug_assets.bug_texture("P").astype(float) / 255
    x, y = bug_assets._grid()
    r = np.hypot(x / bug_assets.BODY_A, y / bug_assets.BODY_B)
    rim = img[(r > 0.85) & (r < 0.95)]
    hues = {int(np.argmax(p)) * 2 + int(np.argmin(p) == (np.argmax(p) + 1) % 3) for p in rim}
    assert len(hues) == 6   # each of red, green and blue the strongest, with either other the weakest
