"""The rules page, in this game's own words (spec/rules.md, every ruling included).

Each heading and paragraph is one catalogue message, so the page comes from
the .po files like every other text; `rules_page(_)` gives it in the current
language. A paragraph that is one of this game's own rulings (where the
printed rules leave a choice) is marked so players can tell it apart.
"""
from __future__ import annotations

from typing import Callable

from . import N_
from .terms import named_power_rule

RULING = N_("This game's ruling: {ruling}")


def ruling(text: str) -> tuple[str, str]:
    return ("ruling", text)


def power(code: str) -> tuple[str, str]:
    return ("power", code)  # "Bridge: The tile may span ...", named as in menus (terms.py)


SECTIONS: list[tuple[str, list]] = [
    (N_("The aim"), [
        N_("Every player builds a table of their own from the same number tiles, in the same order. "
           "The higher a tile lies, the more it scores at the end: its number times its level. "
           "The highest score wins."),
    ]),
    (N_("Tiles, cards and squares"), [
        N_("Each player has two tiles of every number from 0 to 9. The deck holds 20 cards, "
           "two of each number, shuffled face down."),
        N_("Every tile is made of squares. How many squares a tile has has nothing to do with its number: "
           "the squares only form the grid on which tiles are laid next to and on top of each other."),
    ]),
    (N_("Levels"), [
        N_("A tile that lies directly on the table is on level 0. A tile laid on tiles of level 0 is on "
           "level 1, a tile laid on tiles of level 1 is on level 2, and so on."),
    ]),
    (N_("A round"), [
        N_("The game lasts 20 rounds. Each round one card is turned, and every player takes the tile with "
           "that number and builds it into their own table. Everybody does this at the same time; players "
           "sharing one screen take turns."),
        N_("In the first round you lay the tile anywhere you like, in any orientation. From then on the "
           "placement rules apply."),
    ]),
    (N_("Placement rules"), [
        N_("1. The number is always face up; the tile may be turned to any of the four orientations."),
        N_("2. If the level already holds tiles, the new tile must touch one of them along at least one "
           "side of a square. This holds on every level; only the first tile of a level touches nothing."),
        N_("3. On level 1 and higher, every square of the tile must rest on a square of the level below: "
           "nothing may overhang and no hole may be covered. The tile must also rest on at least two "
           "different tiles, never on a single one."),
    ]),
    (N_("Good to know"), [
        N_("A tile does not have to go as high as possible: you choose the level of every tile."),
        N_("Before you confirm a tile, try it in as many positions as you like. Once confirmed, it never "
           "moves again."),
        ruling(N_("The table has no edges; you can build as far in every direction as you like.")),
    ]),
    (N_("End of the game and scoring"), [
        N_("The game ends after the round in which the last card is turned. Every tile scores its number "
           "times its level, so tiles on level 0 score nothing. Example: an 8 on level 2 scores "
           "16 points (8 × 2 = 16)."),
        N_("The player with the highest score wins; tied players share the win."),
        N_("Solo, the rules are the same and you play to beat your own record. "
           "100 points or more is an excellent score."),
    ]),
    (N_("NMBR 9 ++"), [
        N_("The expansion adds tiles, so up to six people can play (12 tiles of each number in all; every "
           "player still builds two of each). It brings three modules, New start tiles, Gap fillers and "
           "Breaking Rules, and two variants, 2 of 3 and Level to Level."),
        N_("The rules of the base game apply unless a module or variant changes them. The modules can be "
           "combined with each other and with a variant; the two variants cannot be combined with each "
           "other."),
    ]),
    (N_("Module: New start tiles"), [
        N_("Before the game every player receives one of six start tiles at random and lays it on level 0 "
           "as the start of their table, so each player sets out from a different position."),
        N_("A start tile scores 0 and counts as a tile for every rule: it is a tile of level 0, so your first "
           "tile must already touch it, and it can be one of the two tiles a tile above rests on."),
        ruling(N_("The official start tiles have not been published, so this game uses six start tiles of "
                  "its own design: each has the value 0, between 10 and 14 squares and a shape of its own.")),
    ]),
    (N_("Module: Gap fillers"), [
        N_("Every player has one gap filler of one square and one of two squares. At any time, in addition "
           "to the round's tile, you may build one or both into your table. Once confirmed, a gap filler "
           "never moves."),
        ruling(N_("Gap fillers score 0. They follow placement rules 2 and 3, but need not rest on two "
                  "different tiles (a one-square piece could not). For the tiles above them they count "
                  "as tiles.")),
    ]),
    (N_("Module: Breaking Rules"), [
        N_("Before the game two of the six special powers are drawn at random (or chosen; you may also "
           "play with any number of them). Every player has two markers."),
        N_("When a card is turned you may use a power: put one of your markers on it, then place the tile "
           "under the changed rule. You may use each power only once, but you may use both markers in "
           "one turn on two different powers. Without markers you can use no more powers."),
        N_("Every power except Relocate applies to the tile just taken:"),
        power("relocate"),
        ruling(N_("Relocate moves number tiles only: start tiles and gap fillers never move. A moved tile keeps "
                  "its side up.")),
        power("flip"),
        ruling(N_("A flipped tile still counts as a tile for the tiles resting on it.")),
        power("single_support"),
        power("bridge"),
        ruling(N_("A hole is a group of empty squares on the level below, joined along their sides, that "
                  "does not reach the outside: a hole that meets the outside only at a corner is closed.")),
        power("loner"),
        power("reserve"),
        ruling(N_("The reserved tile must be built at the latest in the turn in which you first build on a "
                  "level higher than your highest level when you set it aside. After that turn it is "
                  "lost.")),
        N_("A lost reserved tile goes back to the supply: in Level to Level with 4 players, into your own."),
        N_("No power applies to your reserved tile when you build it in a later turn: building it is not "
           "taking it."),
        ruling(N_("Reserve can't be used on the game's last turn: there is no later turn to build the tile in "
                  "(in Level to Level, the last turn is the round that lays out the deck's last cards).")),
        ruling(N_("Your highest level is that of any of your pieces, gap fillers included, and any piece you "
                  "build higher counts, the reserved tile too. In Level to Level the reserved tile keeps its "
                  "marker's level limit.")),
        ruling(N_("A marker is spent only when you confirm: the tile placed (Relocate: moved; Reserve: set "
                  "aside). Choosing a power and changing your mind before that costs nothing.")),
    ]),
    (N_("Variant: 2 of 3"), [
        N_("For 1 to 4 players. The deck has 30 cards (the 20 of the base game and one more set from 0 "
           "to 9), and the game lasts 10 rounds."),
        N_("Each round three cards are laid face down and turned one at a time. After each card every "
           "player either builds that tile or rejects it with their marker. Decide first, then place: you "
           "may not try where the tile fits before deciding."),
        N_("Each round you build exactly two of the three tiles. If you reject the first, you must build "
           "the second and the third; if you build the first and reject the second, you must build the "
           "third; if you build the first two, you must reject the third."),
        N_("With Breaking Rules every player has three markers."),
        ruling(N_("These are the reject marker and the two markers for powers; a reserved tile counts as "
                  "built.")),
    ]),
    (N_("Variant: Level to Level"), [
        N_("For 1 to 4 players. All 40 cards are shuffled. Five level markers, 0 to 4, lie in a row; at "
           "the start only marker 0 is active."),
        N_("In rounds 1 and 2 one card is laid under marker 0 and everybody builds that tile. From round "
           "3 on, as soon as any player has two tiles on a level, one more marker becomes active the next "
           "round."),
        ruling(N_("The markers become active in the order 1, 2, 3, 4, at most one per round.")),
        ruling(N_("Marker k + 1 becomes active when a player has two number tiles on level k, k being the "
                  "highest active marker; start tiles and gap fillers do not count.")),
        N_("Each round one card is drawn for every active marker and laid under it. Every player chooses "
           "one of the shown tiles and builds it; once chosen, it must be built. A tile from under marker "
           "k may only be built on levels 0 to k. Nobody builds on level 5."),
        N_("The game ends after the round in which the deck runs out or can no longer fill every active "
           "marker."),
        ruling(N_("In that last round the cards left are laid under the markers from 0 upwards; a marker "
                  "left without a card offers nothing. Every card is played.")),
        N_("With 4 players every player has their own supply of three tiles of each number and can only "
           "choose what is left in it. A player who has none of the shown tiles, or cannot place any of "
           "them, skips the round."),
    ]),
    (N_("Puzzles"), [
        N_("A puzzle is a game with a fixed order of cards in which the first tile already lies in the "
           "middle of your table. Pick one of two random puzzles, the daily puzzle (the same for everyone "
           "that day) or a friend's code. Everyone who plays a puzzle goes on its leaderboard, and while "
           "you play you can look at earlier players' boards as they stood in the same round."),
    ]),
    (N_("Playing on screen"), [
        N_("\u201cStill to come\u201d on the left shows which tiles can still come; in the base game every number "
           "comes exactly twice."),
        N_("Move the tile, turn it and confirm it. The game accepts a tile only when every rule holds; "
           "otherwise it tells you why not."),
        N_("With the mouse the tile follows the pointer, a right click or the wheel turns it, and a click on "
           "Confirm or on your score lays it. With the keyboard the arrow keys move it, Q and E turn it and Enter lays it. A drag "
           "with the right mouse button turns and tilts the table; a double click sets the view back. At the "
           "table, H shows every key."),
        N_("You can look at your opponents' tables at any time. You see each one as it stood at the same "
           "point of the game as yours, even if that player is already further on."),
        N_("After a game you can ask for a rematch."),
    ]),
]


# RumBugz (spec/rumbugz.md, from the printed Spanish rules): the rulings are the project's where the print is
# silent (README, "RumBugz")
RUMBUGZ_SECTIONS: list[tuple[str, list]] = [
    (N_("The aim"), [
        N_("RumBugz is a rummy game with NumBugz: bugs numbered 1 to 12 and wild bugs called PLYT. Lay one "
           "sequence of each of the four kinds, then empty your hand onto the table. The first player to go out "
           "wins the round and scores the bugs left in the other hands."),
    ]),
    (N_("The bugs"), [
        N_("A set has four bugs of each number from 1 to 12 and four PLYT: 52 bugs."),
        ruling(N_("The printed rules do not say how many bugs there are. Two or three players use one set; four "
                  "to six players use two (eight of each number, eight PLYT), or the bag runs dry long before "
                  "anyone can lay four sequences.")),
        N_("A PLYT in a laid sequence stands for one number from 1 to 12, chosen by its player when it is laid "
           "or moved. It keeps that number until it is taken back into a hand."),
    ]),
    (N_("Sequences"), [
        N_("A sequence has at least four bugs, laid in order, of one of four kinds:"),
        N_("Single: each bug one more than the one before (2 3 4 5)."),
        N_("Double: each bug two more than the one before (2 4 6 8)."),
        N_("Triple: each bug three more than the one before (3 6 9 12)."),
        N_("Match: all the same number (8 8 8 8)."),
        ruling(N_("Sequences run upward and never wrap round: 12 is not followed by 1. A sequence of four PLYT "
                  "is whatever its player declares.")),
        N_("The four required sequences are one of each kind. Every player must lay all four, in any order."),
    ]),
    (N_("A turn"), [
        N_("Who starts: every player draws a bug, and the highest starts; then play goes clockwise. Each player "
           "is dealt six bugs, hidden from the others."),
        ruling(N_("A PLYT or a tie draws again among the tied; the drawn bugs go back and the bag is shuffled.")),
        N_("Draw: the first player's first turn draws from the bag. Later turns draw one bug from the bag or "
           "take the top bug of the discard pile."),
        N_("Lay: if you can, you may lay one sequence of a kind you do not have yet. Then you discard one bug "
           "and draw four replacement bugs from the bag. After your fourth required sequence you draw no "
           "replacements."),
        ruling(N_("One required sequence a turn, and you never have to lay one.")),
        N_("Change sequences: once you have laid a sequence, you may change any sequence on the table, yours or "
           "another player's, as long as it stays a sequence of the same kind with at least four bugs. Add bugs "
           "from your hand at either end (in a match, anywhere), take bugs off an end, or give a bug for a PLYT "
           "that stands for its number. Bugs taken off, a PLYT too, go to your hand and may be used at once."),
        ruling(N_("A change may not split a sequence in two. Lays and changes come in any order between the "
                  "draw and the discard.")),
        N_("Discard: every turn ends by discarding one bug on the pile, also when you laid nothing."),
        ruling(N_("So a lay or a change may not leave you without a bug to discard, unless it makes you go "
                  "out.")),
    ]),
    (N_("Going out"), [
        N_("Once you have all four required sequences you try to empty your hand: every turn you may lay any "
           "number of further sequences of any kind (at least four bugs each) and add to or change sequences."),
        N_("The first player with all four required sequences and no bug in hand wins the round."),
        ruling(N_("You go out by discarding your last bug, or by laying or adding it (then there is no "
                  "discard).")),
    ]),
    (N_("Bidding (3 or more players)"), [
        N_("After a turn ends with a discard, any player other than the next one and the one who discarded may "
           "bid for that bug before the next player draws. If the next player does not take it, the first "
           "bidder after the next player in seat order takes it and one bug from the bag. Then the next player "
           "takes their turn, drawing from the bag."),
    ]),
    (N_("When the bag runs out"), [
        ruling(N_("When a bug must be drawn from an empty bag, the discard pile except its top bug is shuffled "
                  "into the bag. Replacement draws that still can't be made are skipped. A player who must "
                  "start a turn and can neither draw from the bag nor take the discard ends the round: no "
                  "winner, no points.")),
        ruling(N_("A round in which no one has gone out after 600 turns ends there too: no winner, no points.")),
    ]),
    (N_("Scoring and the game"), [
        N_("The winner of a round scores the numbers of all the bugs left in the other players' hands."),
        ruling(N_("A PLYT in a hand counts 13, one more than any number (another NumBugz game, 25z, counts it "
                  "so too).")),
        ruling(N_("A game has three rounds unless another number is chosen at its start. The highest total "
                  "wins; a tie shares the win.")),
    ]),
]
GAMES = {"nmbr9": SECTIONS, "rumbugz": RUMBUGZ_SECTIONS}   # the rules page of each game


def rules_page(translate: Callable[[str], str], game: str = "nmbr9") -> list[tuple[str, list[str]]]:
    """[(heading, [paragraph, ...]), ...] of `game` ("nmbr9" or "rumbugz") in the language of `translate`."""
    page = []
    for heading, paragraphs in GAMES[game]:
        texts = []
        for p in paragraphs:
            if isinstance(p, str):
                texts.append(translate(p))
            elif p[0] == "ruling":
                texts.append(translate(RULING).format(ruling=translate(p[1])))
            else:
                texts.append(named_power_rule(p[1], translate))
        page.append((translate(heading), texts))
    return page
