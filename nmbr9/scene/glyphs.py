"""Rasterise a numeral with the bundled font (Panda3D's FreeType), as a numpy coverage map."""
from __future__ import annotations

import numpy as np


def glyph_coverage(text: str, font_path, pixel_size: int) -> np.ndarray:
    """Coverage (0..1, rows top to bottom) of `text`, cropped to its ink."""
    from panda3d.core import Filename, PNMImage, PNMTextMaker, Texture
    maker = PNMTextMaker(Filename.fromOsSpecific(str(font_path)), 0)
    maker.setPixelSize(pixel_size)
    maker.setFg((1, 1, 1, 1))
    size = pixel_size * (len(text) + 1)
    image = PNMImage(size, size, 1)
    image.fill(0)
    maker.generateInto(text, image, pixel_size // 4, pixel_size)
    tex = Texture()
    tex.load(image)
    a = np.frombuffer(bytes(tex.getRamImageAs("G")), np.uint8).reshape(size, size)[::-1] / 255.0
    rows, cols = np.nonzero(a.any(1))[0], np.nonzero(a.any(0))[0]
    return np.ascontiguousarray(a[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])
