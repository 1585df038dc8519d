"""`nmbr9 render RECORD --out FILE.png`: a picture of one player's board, offscreen."""
from __future__ import annotations

from pathlib import Path

ANGLES = {  # name -> (heading, pitch, zoom); a picture needs less room around the build than play
    "default": (0.0, 52.0, 0.85),
    "top": (0.0, 89.0, 0.85),
    "low": (-35.0, 24.0, 0.7),
    "side": (60.0, 38.0, 0.62),
}


class BoardPicture:
    """A table and camera on the process's offscreen base, to photograph boards."""

    def __init__(self, base):
        from .camera import OrbitCamera
        from .table import Table
        self.base = base
        self.table = Table(base)
        self.camera = OrbitCamera(base.camera, base.camLens, base.render)

    def shoot(self, board, angle: str = "default"):
        """Draw `board` from a named angle; returns the frame as a PNMImage."""
        from panda3d.core import PNMImage
        self.table.show(board)
        self.camera.frame(board.bounds() if board.tiles else (0, 0, 3, 3), board.top_level())
        self.camera.heading, self.camera.pitch, self.camera.zoom = ANGLES[angle]
        self.camera.apply()
        for _ in range(2):  # the first frame after a change may still be preparing textures
            self.base.graphicsEngine.renderFrame()
        image = PNMImage()
        self.base.win.getScreenshot(image)
        return image


def main(args) -> int:
    from ..rules.record import RecordError, load_record, record_game
    from .base import make_base, parse_size
    try:
        size = parse_size(args.size)
        game = record_game(load_record(args.file))
    except (ValueError, RecordError) as e:
        print(f"Can't render: {e}")
        return 2
    if args.angle not in ANGLES:
        print(f"Can't render: unknown angle {args.angle!r} (one of {', '.join(ANGLES)})")
        return 2
    if not 0 <= args.player < len(game.seats):
        print(f"Can't render: there is no player {args.player} (players are 0 to {len(game.seats) - 1})")
        return 2
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        print(f"Can't render: no folder {out.parent}")
        return 2
    base = make_base(offscreen=True, size=size, multisamples=4)  # one frame: smooth edges are cheap
    image = BoardPicture(base).shoot(game.boards[args.player], args.angle)
    from panda3d.core import Filename
    if not image.write(Filename.fromOsSpecific(str(out))):
        print(f"Can't render: could not write {out}")
        return 2
    board = game.boards[args.player]
    print(f"Wrote {out} ({size[0]}x{size[1]}): {game.seats[args.player].name}, "
          f"{len(board.tiles)} tiles, score {board.score()}")
    return 0
