"""The online seat the menu's Continue online takes again, kept in the data folder. Apart from the client, so
that the menu (and the built game's first frame) read it without loading the network library: its `ssl` needs
the computer's OpenSSL (a built game's Python asks for OpenSSL 3.3 or newer)."""
from __future__ import annotations

import json
from pathlib import Path

from ..rules.record import RecordError, read_file

SEAT_FILE = "online.json"           # in the data folder: the seat Continue rejoins


def save_seat(folder: Path, seat: dict) -> None:
    """Keep the seat (address, code, token, hosted) for Continue: the token lets whoever holds it play the seat."""
    path = Path(folder) / SEAT_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(seat), encoding="utf-8")
    tmp.replace(path)


def saved_seat(folder: Path) -> dict | None:
    try:
        seat = json.loads(read_file(Path(folder) / SEAT_FILE))   # (a pipe there is refused at once)
    except (OSError, ValueError, RecordError):
        return None
    keys = {"url": str, "code": str, "token": str, "hosted": bool}
    return seat if isinstance(seat, dict) and all(isinstance(seat.get(k), t) for k, t in keys.items()) else None


def forget_seat(folder: Path) -> None:
    (Path(folder) / SEAT_FILE).unlink(missing_ok=True)
