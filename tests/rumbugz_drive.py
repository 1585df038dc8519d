"""Playing a RumBugz human's turn as a player would, for the window tests: a hard bot's advice from the player's
own view (never another hand) turned into the keys and drags the screen takes. `act(screen, keys, drag)` with
`keys(name)` pressing a key and `drag(start, end)` dragging between two window points (-1..1 each way)."""
from __future__ import annotations

from collections import Counter

from nmbr9.rumbugz.bots import make_bot
from nmbr9.rumbugz.rules.bugs import PLYT
from nmbr9.rumbugz.rules.record import round_record  # noqa: F401  (the moves are those of the record)


def advice(screen):
    return advice_for(screen.game, screen.viewer)


def advice_for(game, seat: int):
    """What a hard bot would do in `seat`'s place, from that player's view."""
    return make_bot("hard", 3 + len(game.round.moves)).act(game.view(seat))


def key_of(place: int) -> str:
    return str((place + 1) % 10)


def places_of(rack: list[str], bugs: list[str]) -> list[int]:
    """Places in the rack holding these bugs (each once)."""
    free, out = list(enumerate(rack)), []
    for bug in bugs:
        i = next(i for i, (_p, b) in enumerate(free) if b == bug)
        out.append(free.pop(i)[0])
    return out


def plan(game, seat: int, rack: list[str], drags: bool = True) -> tuple[str, list[str], dict | None]:
    """The advice as (what, the keys to press, the move): "let", "draw", "lay", "discard", or "change" (no keys:
    a drag). Without `drags` a change is left for a discard of the rack's first bug; so is a lay of bugs beyond
    the keys' reach (the tenth place)."""
    move = advice_for(game, seat)
    if move is None:   # the discard left to the bidder
        return "let", ["l"], None
    if "draw" in move:
        return "draw", ["p" if move["draw"] == "discard" else "b"], move
    if "change" in move and drags:
        return "change", [], move
    bugs = ([t[0] if t.startswith(PLYT) else t for t in move["lay"]] if "lay" in move else
            [move["discard"]] if "discard" in move else [])
    places = places_of(rack, bugs) if bugs else [10]
    if any(p > 9 for p in places):
        places, move = [0], {"player": seat, "discard": rack[0]}
    return ("lay" if "lay" in move else "discard"), ["backspace", *map(key_of, places),
                                                      "enter" if "lay" in move else "x"], move


def act(screen, keys, drag) -> str:
    """One step of the human's move on the offscreen screen; what was done, in a word."""
    r = screen.game.round
    what, presses, move = plan(screen.game, screen.viewer, screen.rack)
    for key in presses:
        keys(key)
    if what == "lay" and screen.overlay == "choose":
        ways = screen_ways(screen)
        keys(str(ways.index(list(move["lay"])) + 1) if list(move["lay"]) in ways else "1")
    if what != "change":
        return what
    old, to = list(r.table[move["change"]].bugs), list(move["to"])
    table = [p for p in screen.table.placed if p.place == "table" and p.sequence == move["change"]]
    added = Counter(t[0] if t.startswith(PLYT) else t for t in to) - Counter(
        t[0] if t.startswith(PLYT) else t for t in old)
    if added:
        place = places_of(screen.rack, [next(iter(added))])[0]
        if len(to) == len(old):   # a number for a PLYT: onto it
            target = table[next(i for i, (a, b) in enumerate(zip(old, to)) if a != b)]
        else:
            target = table[-1] if to[:len(old)] == old else table[0]
        drag(screen.rack_spot(place), spot(screen, target))
    else:
        end = table[0] if to == old[1:] else table[-1]
        drag(spot(screen, end), screen.rack_spot(0))
    return "change"


def screen_ways(screen) -> list[list[str]]:
    from nmbr9.rumbugz.rack import sequences_of
    return [w for w in sequences_of(screen.picked_bugs())
            if screen.game.check({"player": screen.viewer, "lay": w})]


def spot(screen, placed) -> tuple[float, float]:
    x, y = screen._screen(placed.top)
    return x / screen.base.getAspectRatio(), y
