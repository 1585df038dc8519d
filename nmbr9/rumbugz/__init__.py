"""RumBugz, the second game: a rummy game with NumBugz (spec/rumbugz.md).

`rules/` is the pure rules layer (no panda3d, no scene, no network); `bots.py`, `play.py`, `bench.py` and `cli.py`
sit above it, as nmbr9/ai and nmbr9/cli sit above nmbr9/rules.
"""
