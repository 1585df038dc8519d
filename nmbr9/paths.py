"""Where the game's files are: art in the checkout (or beside a built game's programs), the player's data in
their data folder."""
from __future__ import annotations

import os
import sys
from pathlib import Path

# a standalone build (`python setup.py bdist_apps`): its modules are inside its programs, and __file__ names the program
BUILT = bool(getattr(sys, "frozen", False))


def _built_root() -> Path:
    """A built game's files: beside its programs, or in a macOS app's Resources (where direct.dist may put them)."""
    programs = Path(sys.executable).resolve().parent
    resources = programs.parent / "Resources"
    return resources if not (programs / "models").is_dir() and (resources / "models").is_dir() else programs


ROOT = _built_root() if BUILT else Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
TEXTURES = ROOT / "textures"
# the translation catalogues: in the package, or in the build's locale/ (setup.cfg's rename_paths)
LOCALE = ROOT / "locale" if BUILT else ROOT / "nmbr9" / "i18n" / "locale"
FONT = MODELS / "fonts" / "DejaVuSans.ttf"          # carries every German, Spanish, Polish letter
FONT_BOLD = MODELS / "fonts" / "DejaVuSans-Bold.ttf"


def data_dir() -> Path:
    """The player's data folder (saves, settings, tournaments); NMBR9_DATA overrides it (tests)."""
    if os.environ.get("NMBR9_DATA"):
        path = Path(os.environ["NMBR9_DATA"])
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
        path = Path(base) / "nmbr9-3d"
    path.mkdir(parents=True, exist_ok=True)
    return path
