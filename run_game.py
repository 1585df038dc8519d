#!/usr/bin/env python3
"""Start NMBR 9 3D from a checkout: python3 run_game.py [options]."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nmbr9.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
