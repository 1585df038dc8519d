"""The NumBugz: numbers 1 to 12 and the wild PLYT, the set, and the four kinds of sequence."""
from __future__ import annotations

from collections import Counter

from ...rules.board import N_, Verdict, refuse
from ...rules.text import as_json

PLYT = "P"
NUMBERS = range(1, 13)
# kind -> how much each bug is more than the one before (spec: single, double, triple, match)
STEPS = {"single": 1, "double": 2, "triple": 3, "match": 0}
KINDS = tuple(STEPS)
KIND_OF_STEP = {step: kind for kind, step in STEPS.items()}
KIND_NAMES = {"single": N_("single"), "double": N_("double"), "triple": N_("triple"), "match": N_("match")}
PLYT_POINTS = 13            # a PLYT left in a hand (spec ruling: one more than any number)
MIN_LENGTH = 4
HAND_BUGS = tuple(str(n) for n in NUMBERS) + (PLYT,)


def set_of_bugs(copies: int, plyt: int) -> list[str]:
    """Every bug of a set, as hand bugs: `copies` of each number 1..12 and `plyt` PLYT."""
    return [str(n) for n in NUMBERS for _ in range(copies)] + [PLYT] * plyt


def default_set(players: int) -> dict:
    """Spec ruling: one set (4 of each, 4 PLYT) for 2 or 3 players, two for 4 to 6."""
    return {"copies": 4, "plyt": 4} if players <= 3 else {"copies": 8, "plyt": 8}


def bug_points(bug: str) -> int:
    """What a bug left in a hand counts for the round's winner."""
    return PLYT_POINTS if bug == PLYT else int(bug)


def laid_value(token) -> tuple[str, int] | None:
    """A bug as written in a sequence ("7", "P7") -> (its bug in a hand, the number it stands for); None if it is
    no bug ("P" with no number, "13", "x")."""
    if not isinstance(token, str):
        return None
    bug, digits = (PLYT, token[1:]) if token.startswith(PLYT) else (token, token)
    if not digits.isdigit() or digits != str(int(digits)) or int(digits) not in NUMBERS:
        return None
    return bug, int(digits)


def kind_of(values: list[int]) -> str | None:
    """The kind of a run of numbers, or None: at least 4, each the same step (0 to 3) more than the one before."""
    if len(values) < MIN_LENGTH:
        return None
    step = values[1] - values[0]
    if step not in KIND_OF_STEP or any(b - a != step for a, b in zip(values, values[1:])):
        return None
    return KIND_OF_STEP[step]


def read_sequence(tokens) -> tuple[str | None, list[int], Verdict]:
    """(kind, values, verdict) of a sequence as written ("3", "P4", ...); the verdict says what is wrong."""
    values = []
    for token in tokens:
        read = laid_value(token)
        if read is None:
            if isinstance(token, str) and token.startswith(PLYT):
                return None, [], refuse("bad_sequence", N_("A PLYT must stand for a number from 1 to 12 ({bug})."),
                                        bug=token)
            return None, [], refuse("bad_sequence", N_("{bug} is not a bug: bugs are 1 to 12 and PLYT."),
                                    bug=as_json(token))
        values.append(read[1])
    if len(values) < MIN_LENGTH:
        return None, values, refuse("bad_sequence", N_("A sequence needs at least 4 bugs, not {count}."),
                                    count=len(values))
    kind = kind_of(values)
    if kind is None:
        return None, values, refuse("bad_sequence", N_(
            "Not a sequence: the bugs must go up by 1, 2 or 3 each, or all be the same number."))
    return kind, values, Verdict(None)


def hand_bugs(tokens) -> Counter:
    """The bugs a sequence is made of, as they lie in a hand ("P7" is a PLYT)."""
    return Counter(laid_value(t)[0] for t in tokens)
