"""Sound effects: pick up, drop, illegal, confirm. Small WAVs generated at first use.

The sounds are synthesised (a few tones with a fast decay), so the game
ships no audio files; they are written once into the data folder's cache.
"""
from __future__ import annotations

import glob
import os
import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22050
EFFECTS = {  # name -> [(frequency Hz, start s, length s, loudness)]
    "pickup": [(660, 0.0, 0.07, 0.35), (880, 0.05, 0.08, 0.3)],
    "drop": [(300, 0.0, 0.09, 0.45), (220, 0.02, 0.1, 0.3)],
    "illegal": [(200, 0.0, 0.12, 0.35), (190, 0.13, 0.14, 0.35)],
    "confirm": [(523, 0.0, 0.1, 0.3), (659, 0.08, 0.1, 0.3), (784, 0.16, 0.18, 0.3)],
}


def samples(name: str) -> np.ndarray:
    """The effect as 16-bit mono samples."""
    notes = EFFECTS[name]
    length = max(start + dur for _f, start, dur, _a in notes) + 0.02
    out = np.zeros(int(RATE * length))
    for freq, start, dur, amp in notes:
        t = np.arange(int(RATE * dur)) / RATE
        tone = np.sin(2 * np.pi * freq * t) + 0.3 * np.sin(4 * np.pi * freq * t)
        env = np.exp(-t * 6 / dur) * np.minimum(1, t * 400)   # quick attack, no click
        i = int(RATE * start)
        out[i:i + len(t)] += amp * tone * env
    return (np.clip(out, -1, 1) * 32000).astype("<i2")


def write_wav(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples(name).tobytes())


def sound_device() -> bool:
    """Whether this machine has somewhere to play sound. On Linux without a sound card or a sound server,
    OpenAL and ALSA wrote some 40 lines of errors to the terminal at every start; elsewhere, assume one."""
    if not sys.platform.startswith("linux"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    servers = [os.path.join(runtime, "pulse", "native"), os.path.join(runtime, "pipewire-0")]
    return bool(glob.glob("/dev/snd/pcmC*p") or os.environ.get("PULSE_SERVER") or any(map(os.path.exists, servers)))


class Sounds:
    """The effects, loaded when sound is on; `play(name)` does nothing when it is off."""

    def __init__(self, base, folder: Path, enabled: bool):
        self.base = base
        self.folder = Path(folder)
        self.enabled = enabled
        self._loaded: dict = {}
        self.played: list[str] = []    # what was played (tests and the trace look at it)

    def play(self, name: str) -> None:
        self.played.append(name)
        if not self.enabled or not self.base.sfxManagerList:
            return
        if name not in self._loaded:
            path = self.folder / f"{name}.wav"
            try:
                if not path.exists():
                    write_wav(path, name)
                self._loaded[name] = self.base.loader.loadSfx(path.as_posix())
            except OSError:
                self._loaded[name] = None
        sound = self._loaded[name]
        if sound is not None:
            sound.play()
