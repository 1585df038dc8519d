"""`nmbr9 render RECORD --out FILE.png`: a picture of one player's board (NMBR 9), or of the RumBugz table as one
player sees it, offscreen."""
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
        self.table.show(board)
        if levels != self.table.levels_shown:
            self.table.toggle_levels()
        self.camera.frame_board(board)
        self.camera.heading, self.camera.pitch, self.camera.zoom = ANGLES[angle]
        self.camera.apply()
        self.table.fit_levels()   # no task runs between the frames of a picture (the badges face the camera)
        return photograph(self.base, self.camera, angle)


def picture_bytes(image, name: str) -> bytes | None:
    """The picture encoded as `name`'s extension says (.png, .jpg, ...), in memory, so it can be written
    atomically and a full disk is noticed (Panda3D's own writing says it wrote a file it left empty);
    None for a type Panda3D can't write."""
    from panda3d.core import StringStream
    stream = StringStream()
    return stream.getData() if image.write(stream, name) else None


def picture_problem(out: Path) -> str | None:
    """Why a picture can't be written to `out` (no such folder, a folder, a kind of file Panda3D can't write),
    said before anything is drawn; None when it can."""
    from panda3d.core import PNMFileTypeRegistry
    from ..i18n import _
    if out.parent and not out.parent.exists():
        return _("no folder {folder}").format(folder=out.parent)
    if out.is_dir():
        return _("{file} is a folder: give the name of a picture file").format(file=out)
    if PNMFileTypeRegistry.getGlobalPtr().getTypeFromExtension(out.name) is None:
        return not_a_picture(out)
    return None


def not_a_picture(out: Path) -> str:
    from ..i18n import _
    return _("{file} is not a kind of picture this game writes: name it .png or .jpg").format(file=out)


def photograph(base, camera, angle: str, zoom: float | None = None):
    """The frame from a named angle (its zoom, unless given), the camera already framing what is drawn; a
    PNMImage."""
    from panda3d.core import PNMImage
    camera.heading, camera.pitch, camera.zoom = ANGLES[angle]
    camera.zoom = camera.zoom if zoom is None else zoom
    camera.apply()
    for _ in range(2):  # the first frame after a change may still be preparing textures
        base.graphicsEngine.renderFrame()
    image = PNMImage()
    base.win.getScreenshot(image)
    return image


def main(args) -> int:
    """Check the request and the record (NMBR 9's or RumBugz's, by its format), draw it offscreen, write it."""
    from ..i18n import _
    from ..rules.record import RecordError, read_json
    from ..rules.text import as_json
    from ..rumbugz.rules.record import FORMAT as RUMBUGZ
    from .base import make_base, parse_size

    def refuse(why: str) -> int:
        print(_("Can't render: {reason}").format(reason=why))
        return 2
    try:
        size = parse_size(args.size)
        data = read_json(args.file)
        # NMBR 9's records keep their checks and messages; a RumBugz record is told by its format
        subject = (_rumbugz_subject if isinstance(data, dict) and data.get("format") == RUMBUGZ else
                   _board_subject)(data, args, refuse)
    except RecordError as e:
        return refuse(e.text(_))
    except ValueError as e:
        return refuse(str(e))
    if isinstance(subject, int):   # refused, or a move breaks a rule (said as replay says it)
        return subject
    shoot, said = subject
    if args.angle not in ANGLES:
        return refuse(_("unknown angle {angle} (one of {angles})").format(angle=as_json(args.angle),
                                                                           angles=", ".join(ANGLES)))
    out = Path(args.out)
    problem = picture_problem(out)   # before the file is touched
    if problem:
        return refuse(problem)
    base = make_base(offscreen=True, size=size, multisamples=4)  # one frame: smooth edges are cheap
    data = picture_bytes(shoot(base), out.name)
    if data is None:
        return refuse(not_a_picture(out))
    from ..store import SaveError, write_atomic
    try:
        write_atomic(out, data)
    except SaveError as e:   # a full disk, a read-only folder: the previous picture is kept
        print(e.message)
        return 2
    print(said(out, size))
    return 0


def _moves_upto(record, args, refuse):
    """The record's moves up to --move (all without it), or a refusal's exit status."""
    from ..i18n import _
    upto = getattr(args, "move", None)
    if upto is None:
        return record.moves
    if not 0 <= upto <= len(record.moves):
        return refuse(_("there is no move {move} (the record has {count} moves: 0 to {count})").format(
            move=upto, count=len(record.moves)))
    return record.moves[:upto]


def _no_player(player: int, players: int) -> str:
    """A --player the record (either game's) does not have; of a solo game, "players are 0 to 0" read oddly."""
    from ..i18n import _
    if players == 1:
        return _("there is no player {player} (the record has only player 0)").format(player=player)
    return _("there is no player {player} (players are 0 to {last})").format(player=player, last=players - 1)


def _board_subject(data, args, refuse):
    """An NMBR 9 record: (draw the player's board, the sentence saying what was written), or an exit status."""
    from dataclasses import replace

    from ..cli import print_illegal
    from ..i18n import _, ngettext
    from ..match import seat_name
    from ..rules.record import parse_record, replay
    record = parse_record(data)
    moves = _moves_upto(record, args, refuse)
    if isinstance(moves, int):
        return moves
    result = replay(replace(record, moves=moves))
    if not result.ok:   # said and counted as replay, moves and analyse do (spec/game-record.md: exit status 1)
        print_illegal(result)
        return 1
    game = result.game
    if not 0 <= args.player < len(game.seats):
        return refuse(_no_player(args.player, len(game.seats)))
    board = game.boards[args.player]
    x0, y0, _x1, _y1 = board.bounds()
    seat = game.seats[args.player]

    def said(out, size) -> str:
        return _("Wrote {file} ({width}x{height}): {name}, {tiles}, score {score}").format(
            file=out, width=size[0], height=size[1], name=seat_name(seat.name, seat.kind), score=board.score(),
            tiles=ngettext("{n} tile", "{n} tiles", len(board.tiles)).format(n=len(board.tiles)))
    # drawn from the middle of the table: a record may lay its tiles 10**9 squares out, where the graphics
    # card's numbers are too coarse to draw them (the picture was the bare table)
    return (lambda base: BoardPicture(base).shoot(board.shifted(-x0, -y0), args.angle, args.levels)), said


def _rumbugz_subject(data, args, refuse):
    """A RumBugz record: (draw the table as the player sees it at --move, the sentence saying what was written),
    or an exit status. The other hands stay hidden, as at the table."""
    from dataclasses import replace

    from ..i18n import _, ngettext
    from ..match import seat_name
    from ..rumbugz.cli import print_illegal
    from ..rumbugz.rules.record import parse_record, replay
    record = parse_record(data)
    moves = _moves_upto(record, args, refuse)
    if isinstance(moves, int):
        return moves
    result = replay(replace(record, moves=moves))
    if not result.ok:
        print_illegal(result)
        return 1
    if not 0 <= args.player < len(record.players):
        return refuse(_no_player(args.player, len(record.players)))
    view = result.game.view(args.player)
    names = [seat_name(p["name"], p["kind"]) for p in record.players]

    def said(out, size) -> str:
        hand = view.hand_sizes[args.player]
        return _("Wrote {file} ({width}x{height}): {name}'s view after {moves}: {hand} in hand, {laid} on the "
                 "table").format(
            file=out, width=size[0], height=size[1], name=names[args.player],
            moves=ngettext("{n} move", "{n} moves", len(moves)).format(n=len(moves)),
            hand=ngettext("{n} bug", "{n} bugs", hand).format(n=hand),
            laid=ngettext("{n} sequence", "{n} sequences", len(view.table)).format(n=len(view.table)))

    def shoot(base):
        from .rumbugz_table import BugPicture
        return BugPicture(base).shoot(view, names, args.angle)
    return shoot, said
