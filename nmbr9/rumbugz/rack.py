"""What the window proposes from a player's picks, worked out from their view alone (no panda3d): the rack's
order, the sequences a pick of bugs can make (a PLYT's possible numbers), the change a bug dropped on the table
asks for. The rules judge every proposal (View.check); these only write it."""
from __future__ import annotations

from collections import Counter

from .bots import TEMPLATES
from .rules.bugs import KINDS, PLYT, STEPS, bug_points, laid_value
from .rules.moves import runs, sequence_tokens
from .rules.round import Laid

BY_NUMBER, BY_KIND = "number", "kind"


def rack_order(hand: Counter, missing, by: str = BY_NUMBER) -> list[str]:
    """The hand's bugs in rack order. By number: 1 to 12, PLYT last. By kind: for each kind the player still
    lacks, the bugs of its closest run (of four) together, those kinds in the spec's order; the rest by number."""
    left = Counter(hand)
    out: list[str] = []
    if by == BY_KIND:
        for kind in (k for k in KINDS if k in missing):
            run = max(TEMPLATES[kind], key=lambda r: (_held(left, r), -r[0]))
            group = []
            for n in run:
                if left[str(n)] > 0 and _held(Counter(group), (n,)) < run.count(n):
                    left[str(n)] -= 1
                    group.append(str(n))
            if len(group) >= 2:   # one bug alone is no kind in progress
                out += group
            else:
                left.update(group)
    return out + sorted(left.elements(), key=lambda b: (b == PLYT, bug_points(b)))


def _held(hand: Counter, run) -> int:
    used, held = Counter(), 0
    for n in run:
        used[n] += 1
        held += used[n] <= hand[str(n)]
    return held


def sequences_of(picked: list[str]) -> list[list[str]]:
    """Every sequence the picked bugs make, all of them used, written as the rules read them ("P5" for a PLYT
    standing for 5); one per way of placing the PLYT. A PLYT standing where a picked number could is not
    offered (it only wastes it)."""
    hand = Counter(picked)
    out = []
    for kind in STEPS:
        for values in runs(kind):
            if len(values) != len(picked):
                continue
            tokens = sequence_tokens(kind, values, hand)
            if tokens and Counter(_bug(t) for t in tokens) == hand and tokens not in out:
                out.append(tokens)
    return out


def plyt_numbers(tokens: list[str]) -> list[int]:
    """The numbers the PLYT of a sequence stand for, in order."""
    return [laid_value(t)[1] for t in tokens if t.startswith(PLYT)]


def _bug(token: str) -> str:
    return laid_value(token)[0]


def dropped_on(laid: Laid, index: int, bug: str) -> list[str] | None:
    """The sequence a bug from the hand asks for, dropped on bug `index` of a laid sequence: a number on a PLYT
    standing for it takes its place; otherwise it goes onto the nearer end (a PLYT as the number there). None:
    the bug can't go on that way (a PLYT beyond 12, say); the caller says so."""
    bugs, values, step = list(laid.bugs), laid.values(), STEPS[laid.kind]
    if bug != PLYT and bugs[index].startswith(PLYT) and values[index] == int(bug):
        return bugs[:index] + [bug] + bugs[index + 1:]
    if step == 0:
        return bugs + [bug if bug != PLYT else f"P{values[0]}"]
    front = index < len(bugs) / 2
    value = values[0] - step if front else values[-1] + step
    if bug == PLYT:
        if not 1 <= value <= 12:   # that end is closed: the other one
            front, value = not front, values[-1] + step if front else values[0] - step
            if not 1 <= value <= 12:
                return None
        token = f"P{value}"
    else:
        token = bug
        if int(bug) != value:   # a number fits at one end only: the end it fits, else the nearer one (refused)
            other = values[-1] + step if front else values[0] - step
            front = not front if int(bug) == other else front
    return [token] + bugs if front else bugs + [token]


def taken_off(laid: Laid, index: int) -> list[str] | None:
    """The sequence with bug `index` taken back into the hand: only an end bug can be (None otherwise)."""
    bugs = list(laid.bugs)
    if index == 0:
        return bugs[1:]
    if index == len(bugs) - 1:
        return bugs[:-1]
    return None
