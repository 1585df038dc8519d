"""What a player may do next, from their view alone, each as a record move (spec/rumbugz.md)."""
from __future__ import annotations

from .bugs import MIN_LENGTH, bug_points, NUMBERS, PLYT, STEPS
from .round import BIDDER, DRAW, PLAY, REPLACE, View


def sequence_tokens(kind: str, values: list[int], hand) -> list[str] | None:
    """The run `values` written with the hand's bugs: each number it holds, a PLYT where it lacks one (None if
    the PLYT run short). A PLYT standing where the number is held is legal too, never listed: it only wastes it."""
    have, tokens = dict(hand), []
    for v in values:
        if have.get(str(v), 0) > 0:
            have[str(v)] -= 1
            tokens.append(str(v))
        elif have.get(PLYT, 0) > 0:
            have[PLYT] -= 1
            tokens.append(f"P{v}")
        else:
            return None
    return sorted(tokens, key=lambda t: t.startswith(PLYT)) if STEPS[kind] == 0 else tokens


def runs(kind: str):
    """Every run of a kind within 1..12, shortest first: lists of values."""
    step = STEPS[kind]
    longest = 16 if step == 0 else 12 // step   # a match: 8 of a number and 8 PLYT in the largest set
    for length in range(MIN_LENGTH, longest + 1):
        for start in NUMBERS:
            values = [start + step * i for i in range(length)]
            if values[-1] <= 12:
                yield values


def lays(view: View) -> list[dict]:
    """Every sequence the hand can lay now (of a kind the player still lacks, or any kind in the final phase)."""
    me, hand = view.me, view.hand(view.me)
    size = sum(hand.values())
    out = []
    for kind in STEPS:
        for values in runs(kind):
            if len(values) > size:
                break
            tokens = sequence_tokens(kind, values, hand)
            if tokens:
                move = {"player": me, "lay": tokens}
                if view.check(move):
                    out.append(move)
    return out


def changes(view: View) -> list[dict]:
    """One bug added at an end (anywhere in a match), one taken off an end, or a PLYT given back for its
    number: every change is made of these, one after another."""
    me, hand = view.me, view.hand(view.me)
    out = []
    for index, laid in enumerate(view.table):
        step, bugs, values = STEPS[laid.kind], list(laid.bugs), laid.values()
        tried = []
        for value, at_end in ((values[0] - step, False), (values[-1] + step, True)):
            if 1 <= value <= 12:
                for bug in (str(value), f"P{value}"):
                    if hand[bug[0] if bug[0] == PLYT else bug]:
                        tried.append(bugs + [bug] if at_end or step == 0 else [bug] + bugs)
                        break
        if len(bugs) > MIN_LENGTH:
            tried += [bugs[1:], bugs[:-1]]
        for i, (bug, value) in enumerate(zip(bugs, values)):
            if bug.startswith(PLYT) and hand[str(value)]:
                tried.append(bugs[:i] + [str(value)] + bugs[i + 1:])
        for to in tried:
            move = {"player": me, "change": index, "to": to}
            if move not in out and view.check(move):
                out.append(move)
    return out


def legal_moves(view: View) -> list[dict]:
    """The moves the view's player may make next; [] when it is not theirs to move."""
    me = view.me
    if view.over:
        return []
    if view.step == PLAY:
        if me != view.turn:
            return []
        discards = [{"player": me, "discard": bug} for bug in sorted(view.hand(me), key=bug_points)]
        return lays(view) + changes(view) + discards
    out = []
    if view.step == DRAW:
        out += [m for m in ({"player": me, "draw": "discard"}, {"player": me, "bid": True}) if view.check(m)]
    if view.step in (DRAW, REPLACE, BIDDER) and view.can_draw_bag():
        move = {"player": me, "draw": "bag"}
        # an empty bag is refilled from the pile first (a reshuffle the round makes, not a player)
        if view.check(move) or (view.bag_size == 0 and _after_reshuffle(view, move)):
            out.append(move)
    return out


def _after_reshuffle(view: View, move: dict) -> bool:
    saved = view.bag_size
    view.bag_size = len(view.pile) - 1
    try:
        return bool(view.check(move))
    finally:
        view.bag_size = saved

