"""Writing player files so a crash or a full disk never loses the previous copy."""
from __future__ import annotations

import os
import time
from pathlib import Path

from ..i18n import _


class SaveError(OSError):
    """A file could not be written; `message` is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text`: a temp file in the same folder, fsync, then rename.

    Until the rename the old file is untouched, so a kill or a full disk
    leaves either the old or the new content, never a mix.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    data = text.encode("utf-8")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        kept = _("Could not save {name}: {reason}. The previous copy is kept.") if path.exists() else \
            _("Could not save {name}: {reason}.")
        raise SaveError(kept.format(name=path.name, reason=e.strerror or e)) from e
    try:  # make the rename itself durable; not every file system allows this
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def set_aside(path: Path, why: str) -> Path:
    """Rename an unreadable file out of the way (never delete a player's file)."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    os.replace(path, target)
    return target
