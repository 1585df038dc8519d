#!/usr/bin/env python3
"""Start NMBR 9 3D from a checkout: python3 run_game.py [options]. The start of a built game's programs too."""
import os
import sys

if getattr(sys, "frozen", False):   # a built game (setup.py bdist_apps): its modules are in the program
    from nmbr9.built import run_helper
    if run_helper(sys.argv[1:]):    # a helper process Python started with the program (nmbr9/built.py)
        sys.exit(0)
else:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nmbr9.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
