"""`nmbr9 render RECORD --out FILE.png`: a picture of one player's board, offscreen."""
from __future__ import annotations

from pathlib import Path

from .camera import DEFAULT_PITCH

ANGLES = {  # name -> (heading, pitch, zoom); a picture needs less room around the build than play
    "default": (0.0, DEFAULT_PITCH, 0.85),
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

    def shoot(self, board, angle: str = "default", levels: bool = False):
        """Draw `board` from a named angle (with `levels`, each tile's level on it, as L shows it at the
        table); returns the frame as a PNMImage."""
        from panda3d.core import PNMImage
        self.table.show(board)
        if levels != self.table.levels_shown:
            self.table.toggle_levels()
        self.camera.frame_board(board)
        self.camera.heading, self.camera.pitch, self.camera.zoom = ANGLES[angle]
        self.camera.apply()
        self.table.fit_levels()   # no task runs between the frames of a picture
        for _ in range(2):  # the first frame after a change may still be preparing textures
            self.base.graphicsEngine.renderFrame()
        image = PNMImage()
        self.base.win.getScreenshot(image)
        return image


def picture_bytes(image, name: str) -> bytes | None:
    """The picture encoded as `name`'s extension says (.png, .jpg, ...), in memory, so it can be written
    atomically and a full disk is noticed (Panda3D's own writing says it wrote a file it left empty);
    None for a type Panda3D can't write."""
    from panda3d.core import StringStream
    stream = StringStream()
    return stream.getData() if image.write(stream, name) else None


def main(args) -> int:
    from ..i18n import _, ngettext
    from ..match import seat_name
    from ..cli import print_illegal
    from ..rules.record import RecordError, load_record, replay
    from .base import make_base, parse_size

    def refuse(why: str) -> int:
        print(_("Can't render: {reason}").format(reason=why))
        return 2
    try:
        size = parse_size(args.size)
        record = load_record(args.file)
    except RecordError as e:
        return refuse(e.text(_))
    except ValueError as e:
        return refuse(str(e))
    result = replay(record)
    if not result.ok:   # said and counted as replay, moves and analyse do (spec/game-record.md: exit status 1)
        print_illegal(result)
        return 1
    game = result.game
    if args.angle not in ANGLES:
        return refuse(_("unknown angle {angle!r} (one of {angles})").format(angle=args.angle,
                                                                           angles=", ".join(ANGLES)))
    if not 0 <= args.player < len(game.seats):   # (a solo game's "players are 0 to 0" read oddly)
        return refuse(_("there is no player {player} (players are 0 to {last})").format(
            player=args.player, last=len(game.seats) - 1) if len(game.seats) > 1 else
            _("there is no player {player} (the record has only player 0)").format(player=args.player))
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        return refuse(_("no folder {folder}").format(folder=out.parent))
    if out.is_dir():
        return refuse(_("{file} is a folder: give the name of a picture file").format(file=out))
    from panda3d.core import PNMFileTypeRegistry
    not_a_picture = _("{file} is not a kind of picture this game writes: name it .png or .jpg").format(file=out)
    if PNMFileTypeRegistry.getGlobalPtr().getTypeFromExtension(out.name) is None:   # before the file is touched
        return refuse(not_a_picture)
    base = make_base(offscreen=True, size=size, multisamples=4)  # one frame: smooth edges are cheap
    board = game.boards[args.player]
    x0, y0, _x1, _y1 = board.bounds()
    # drawn from the middle of the table: a record may lay its tiles 10**9 squares out, where the graphics
    # card's numbers are too coarse to draw them (the picture was the bare table)
    data = picture_bytes(BoardPicture(base).shoot(board.shifted(-x0, -y0), args.angle, args.levels), out.name)
    if data is None:
        return refuse(not_a_picture)
    from ..store import SaveError, write_atomic
    try:
        write_atomic(out, data)
    except SaveError as e:   # a full disk, a read-only folder: the previous picture is kept
        print(e.message)
        return 2
    seat = game.seats[args.player]
    print(_("Wrote {file} ({width}x{height}): {name}, {tiles}, score {score}").format(
        file=out, width=size[0], height=size[1], name=seat_name(seat.name, seat.kind), score=board.score(),
        tiles=ngettext("{n} tile", "{n} tiles", len(board.tiles)).format(n=len(board.tiles))))
    return 0
