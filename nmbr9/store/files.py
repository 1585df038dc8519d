"""Writing player files so a crash or a full disk never loses the previous copy."""
from __future__ import annotations

import os
import time
from pathlib import Path

from ..i18n import _
from ..rules.record import read_file


class SaveError(OSError):
    """A file could not be written; `message` is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text` (or bytes: a picture): a temp file in the same folder, fsync, then rename.

    Until the rename the old file is untouched, so a kill or a full disk
    leaves either the old or the new content, never a mix.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    data = text.encode("utf-8") if isinstance(text, str) else text
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


def sweep_leftovers(folder: Path) -> None:
    """Remove the temp files of writes cut off by a kill (`.<name>.<pid>.tmp` of a process that is gone):
    write_atomic's rename never came, and nothing else would ever remove them."""
    if os.name == "nt":   # (os.kill there ends a process: not asked)
        return
    for tmp in Path(folder).glob(".*.tmp"):
        pid = tmp.name.rsplit(".", 2)[-2]
        if pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            try:
                tmp.unlink()
            except OSError:
                pass


def folder_problem(e: OSError) -> str:
    """Why the data folder can't be made, in the player's words."""
    if isinstance(e, FileExistsError):   # the OS says "File exists": the player needs to hear why that matters
        return _("it is a file, not a folder")
    if isinstance(e, NotADirectoryError):
        return _("a folder on its path is a file")
    return e.strerror or str(e)


def set_aside(path: Path, why: str) -> Path:
    """Rename an unreadable file out of the way (never delete a player's file)."""
    target = _aside(Path(path), why)
    os.replace(path, target)
    return target


def keep_copy(path: Path, why: str, text: str) -> Path:
    """Keep `text`, the file `path` as it was read, beside it (the file itself is about to be rewritten);
    SaveError if the folder refuses."""
    target = _aside(Path(path), why)
    write_atomic(target, text)
    return target


def _aside(path: Path, why: str) -> Path:
    """A free name for `path` put aside: name.why-<time>."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    return target


def free_path(path: Path) -> Path:
    """`path`, or the first of `name-2.ext`, `name-3.ext`, ... that names no file yet (two screenshots
    in one second are two files)."""
    first = found = Path(path)
    n = 1
    while found.exists():
        n += 1
        found = first.with_name(f"{first.stem}-{n}{first.suffix}")
    return found


LOCK_NAME = "nmbr9.lock"


def hold_folder(folder: Path, wait: float = 2.0, name: str = LOCK_NAME, who: str = ""):
    """Hold the data folder for this process, so a second copy of the game can't write the same autosave
    (the last to save silently replaced the other's game). Returns (held, lock file): keep the file, as
    closing it or the process ending (even by a kill) lets go. held is False only while another copy holds
    the folder for `wait` seconds: a copy just killed or quit lets go about a second later, while its
    process is torn down, and a player starting the game again at once should not be turned away. A
    folder or file system that can't lock is not held against the player; a lock file that can't be opened
    (another user's) raises OSError: whether a copy holds it can't be told. `name`: the lock file (another
    lock than the window's, e.g. a tournament's). `who` is written in the file with this process's id, for
    the one turned away to say who has it (held_by) and for a look that takes nothing (lock_held)."""
    path = Path(folder) / name
    until = time.monotonic() + wait
    f, opened = None, 0
    while True:
        if f is None:
            try:
                f = open(path, "a+b")
            except FileNotFoundError:   # e.g. a folder not there: its saves say so themselves
                return True, None
            except OSError:
                f = _open_to_read(path)
                if f is None:   # a read-only folder (its saves say so themselves) where no copy took a lock
                    return True, None
            opened += 1
        try:
            _lock(f)
            # its holder let go and removed it (let_go) after it was opened here: a lock no one else looks at,
            # the path's new file is taken (a few times at most: a file system may tell files apart wrongly)
            if opened < 5 and not _still_there(f, path):
                f.close()
                f = None
                continue
            if who:
                f.truncate(0)   # (in append mode every write goes to the end: here the start)
                f.write(f"{who} {os.getpid()}".encode())
                f.flush()
            return True, f
        except (BlockingIOError, PermissionError):
            if time.monotonic() >= until:
                f.close()
                return False, None
            time.sleep(0.1)
        except OSError:
            return True, f


def _open_to_read(path: Path):
    """The lock file `path` that can't be opened to be written, opened to be read (another user's: locked
    all the same); None when there is none (a read-only folder). OSError when it is there but can't be opened
    at all (another user's, theirs alone): taken as free, two copies ran on one data folder."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        return None


def let_go(lock) -> None:
    """Let go of a lock hold_folder took with a `who` (a tournament's), its holder's name wiped first: lock_held
    would take a process that let go but runs on for the holder. The file is removed while still held (one a
    tournament ever played was left in the data folder): whoever opened it meanwhile sees it is gone once they
    lock it, and takes the path's new file (hold_folder). (Windows keeps it: an open file can't be removed.)"""
    try:
        lock.truncate(0)
    except OSError:
        pass
    try:
        os.unlink(lock.name)
    except OSError:
        pass
    lock.close()


def _still_there(f, path: Path) -> bool:
    """Whether the open file `f` is still the file at `path` (not removed, nor replaced since it was opened)."""
    try:
        return os.path.samestat(os.fstat(f.fileno()), os.stat(path))
    except OSError:
        return False


def held_by(folder: Path, name: str) -> str:
    """Who holds the lock `name` (the `who` it was taken with), "" if unknown."""
    try:
        return read_file(Path(folder) / name).split(" ")[0]
    except (OSError, ValueError):   # e.g. Windows: the locked byte can't be read; a pipe, not read
        return ""


def lock_held(folder: Path, name: str) -> bool:
    """Whether another process holds the lock `name` (taken with a `who`), looked at without taking it:
    taken even for an instant, a `nmbr9 tournament --resume` started in that instant was turned away. Held
    while the process named in the file runs (a killed holder names a process that is gone)."""
    try:
        words = read_file(Path(folder) / name).split()
    except FileNotFoundError:
        return False
    except OSError:   # Windows: the locked byte can't be read while it is held
        return True
    except ValueError:   # not a plain file (a pipe: read, it waited for ever) or not text: no process named
        return False
    if os.name == "nt" or len(words) != 2 or not words[1].isdigit() or int(words[1]) == os.getpid():
        return False   # (Windows: read, so not locked)
    return _running(int(words[1]))


def _running(pid: int) -> bool:
    """Whether process `pid` runs (not on Windows, where os.kill would end it)."""
    try:
        os.kill(pid, 0)   # (signal 0: only whether the process is there)
    except ProcessLookupError:
        return False
    except PermissionError:   # there, another user's
        return True
    except OSError:
        return False
    return True


def _lock(f) -> None:
    """Lock an open file for this process without waiting (BlockingIOError or PermissionError if held)."""
    try:
        import fcntl
    except ImportError:   # Windows
        import msvcrt
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
