"""Where the game's files are: art in the checkout, the player's data in their data folder."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
TEXTURES = ROOT / "textures"
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
