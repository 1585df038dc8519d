"""RumBugz's rules: pure Python, like nmbr9/rules (a test keeps panda3d, the scene and the network out)."""
from .bugs import KINDS, PLYT, bug_points, default_set, read_sequence, set_of_bugs
from .round import CODES, Laid, Round, View, who_starts
from .moves import legal_moves
from .record import RecordError, load_record, parse_record, replay, round_record

__all__ = ["KINDS", "PLYT", "bug_points", "default_set", "read_sequence", "set_of_bugs", "CODES", "Laid", "Round",
           "View", "who_starts", "legal_moves", "RecordError", "load_record", "parse_record", "replay",
           "round_record"]
