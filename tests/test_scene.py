"""Picking and the play screen's handlers, driven with explicit screen coordinates (offscreen)."""
from __future__ import annotations

import pytest
from panda3d.core import Point3

from nmbr9.rules import Game, Placement, Seat
from nmbr9.rules.tiles import orientation
from nmbr9.scene.camera import DEFAULT_HEADING, DEFAULT_PITCH

pytestmark = pytest.mark.render

DECK = [8, 1, 3, 2, 7, 4, 1, 6, 0, 0, 6, 5, 9, 4, 7, 5, 2, 8, 9, 3]
# the first four cards of DECK laid so that the 7 can go on level 1
BUILD = (Placement(8, 0, 0, 0), Placement(1, 0, 0, -4), Placement(3, 0, -2, -8), Placement(2, 0, -1, -12))


@pytest.fixture
def camera(scene):
    from nmbr9.scene.camera import OrbitCamera
    cam = OrbitCamera(scene.camera, scene.camLens, scene.render)
    cam.frame((-3, -3, 6, 6))
    return cam


@pytest.fixture
def play(scene):
    from nmbr9.scene.camera import OrbitCamera
    from nmbr9.scene.hud import Hud
    from nmbr9.scene.play import PlayScreen
    from nmbr9.scene.table import Table
    game = Game([Seat("Ada")], list(DECK))
    table = Table(scene)
    cam = OrbitCamera(scene.camera, scene.camLens, scene.render)
    hud = Hud(scene, on_confirm=lambda: screen.confirm())
    committed = []
    screen = PlayScreen(scene, game, 0, table, cam, hud, committed.append)
    screen.committed = committed
    screen.shown_at = 0.0   # shown long ago: a press is the player's, not a stray second one of what showed it
    return screen


def screen_of_square(cam, x, y, level, dx=0.5, dy=0.5):
    from nmbr9.scene.camera import level_height
    return cam.screen_point(Point3(x + dx, -(y + dy), level_height(level)))


@pytest.mark.parametrize("heading,pitch", [(0, 58), (0, 89), (45, 30), (200, 20), (300, 70)])
def test_picking_finds_the_square_under_the_pointer_on_each_level(camera, heading, pitch):
    camera.heading, camera.pitch = heading, pitch
    camera.apply()
    for level in (0, 1, 3):
        for x, y in ((0, 0), (2, -1), (-2, 3), (4, 4)):
            point = screen_of_square(camera, x, y, level, 0.3, 0.7)
            assert point is not None
            assert camera.square_at(*point, level) == (x, y)


def test_the_level_matters_when_the_view_is_slanted(camera):
    camera.heading, camera.pitch = 0, 25
    camera.apply()
    point = screen_of_square(camera, 1, 1, 8)
    assert camera.square_at(*point, 8) == (1, 1)
    assert camera.square_at(*point, 0) != (1, 1)


def test_camera_stays_above_the_table_and_resets(camera):
    camera.orbit(40, -200)
    assert camera.pitch >= 12 and camera.camera.getZ() > 0
    camera.orbit(0, 500)
    assert camera.pitch <= 89
    camera.zoom_by(100)
    camera.reset()
    assert (camera.heading, camera.pitch, camera.zoom) == (DEFAULT_HEADING, DEFAULT_PITCH, 1)


def test_the_tile_follows_the_pointer_snapped_to_the_grid(play):
    cam = play.camera
    o = orientation(8, 0)
    play.pointer(0, 0)
    target = screen_of_square(cam, 2, 1, 0)
    play.pointer(*target)
    # the middle of the tile is on the square under the pointer
    assert (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2) == (2, 1)
    assert play.verdict.ok and play.hud.confirm["state"] == "normal"


def test_turning_the_view_never_moves_the_tile_in_hand(play):
    """A right drag, A D W S, zoom, Home or a double click move the view: the tile held stays on its square until
    the pointer moves (it followed the square now under the still pointer: a legal 3 became "overhangs", a double
    click picked the tile up and put it down elsewhere)."""
    from direct.showbase.MessengerGlobal import messenger
    cam = play.camera
    play.bind()
    try:
        play.pointer(0, 0)
        play.pointer(*screen_of_square(cam, 2, 1, 0))
        spot = (play.x, play.y)
        still = screen_of_square(cam, 2, 1, 0)
        for view in (lambda: messenger.send("d"), lambda: messenger.send("w"), lambda: messenger.send("+"),
                     lambda: play.wheel(-3, zoom_only=True), lambda: messenger.send("home")):
            view()
            play.pointer(*still)   # the pointer stands still (the window reports it every frame)
            assert (play.x, play.y) == spot and play.held
        play.press("mouse3", *still)   # a right drag turns the view, and the pointer rests where it was let go
        dropped = (still[0] + 0.3, still[1])
        play.pointer(*dropped)
        play.release("mouse3", *dropped)
        play.pointer(*dropped)
        assert play.camera.heading != DEFAULT_HEADING and (play.x, play.y) == spot
        still = (dropped[0] + 0.01, dropped[1])
        play.pointer(*still)   # the pointer moves: the tile comes under it
        o = orientation(play.piece, 0)
        middle = (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2)
        assert play.camera.square_at(*still, play.level) == middle
        play.pointer(0.6, -0.5)
        spot = (play.x, play.y)
        play.press("mouse1", 0.6, -0.5, now=5.0)   # a double click: the view resets, the tile is held where it was
        play.release("mouse1", 0.6, -0.5)
        play.press("mouse1", 0.6, -0.5, now=5.2)
        play.release("mouse1", 0.6, -0.5)
        play.pointer(0.6, -0.5)
        assert play.camera.heading == DEFAULT_HEADING and play.held and (play.x, play.y) == spot
        play.press("mouse1", 0.6, -0.5, now=9.0)   # put down; later a double click: still down where it was
        play.release("mouse1", 0.6, -0.5)
        for now in (12.0, 12.2):
            play.press("mouse1", 0.6, -0.5, now=now)
            play.release("mouse1", 0.6, -0.5)
        assert not play.held and (play.x, play.y) == spot
    finally:
        play.unbind()


def test_click_puts_down_and_picks_up_and_drag_moves(play):
    cam = play.camera
    play.pointer(0, 0)
    play.pointer(*screen_of_square(cam, 0, 0, 0))
    play.press("mouse1", *screen_of_square(cam, 0, 0, 0), now=10.0)
    play.release("mouse1", *screen_of_square(cam, 0, 0, 0))
    assert not play.held
    spot = (play.x, play.y)
    play.pointer(*screen_of_square(cam, 2, 2, 0))
    assert (play.x, play.y) == spot  # put down: it stays
    # press on it, drag to another square, release: it lies there
    play.press("mouse1", *screen_of_square(cam, 2, 2, 0), now=20.0)
    play.pointer(*screen_of_square(cam, -1, 2, 0))
    play.release("mouse1", *screen_of_square(cam, -1, 2, 0))
    o = orientation(play.piece, play.rotation)
    assert (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2) == (-1, 2)
    assert not play.held


def test_the_tile_in_hand_pressed_and_dragged_follows_and_lies_where_it_is_released(play):
    """The tile in hand follows the pointer: a press on it put it down at once, and the drag after the press
    left it there (a drag moved only a tile first put down)."""
    cam = play.camera
    o = orientation(play.piece, play.rotation)
    middle = lambda: (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2)
    play.pointer(0, 0)
    play.pointer(*screen_of_square(cam, 0, 0, 0))
    assert play.held and middle() == (0, 0)
    play.press("mouse1", *screen_of_square(cam, 0, 0, 0), now=10.0)
    play.pointer(*screen_of_square(cam, 1, 1, 0))
    assert middle() == (1, 1)                       # it goes along with the drag
    play.pointer(*screen_of_square(cam, 3, 2, 0))
    play.release("mouse1", *screen_of_square(cam, 3, 2, 0))
    assert middle() == (3, 2) and not play.held
    play.pointer(*screen_of_square(cam, -2, 0, 0))
    assert middle() == (3, 2)                       # dropped: it stays


def test_a_tile_dragged_past_the_window_edge_stays_in_sight(play):
    cam = play.camera
    play.pointer(0.0, 0.0)
    play.pointer(0.1, 0.1)                 # held: it follows
    here = (play.x, play.y)
    play.pointer(2.6, 0.1)                 # the pointer left the window (X11 still reports it)
    assert (play.x, play.y) == here
    play.press("mouse1", 0.1, 0.1, now=1.0)  # put down where it is
    play.release("mouse1", 0.1, 0.1)
    play.press("mouse1", 0.1, 0.1, now=3.0)  # picked up to drag it...
    play.pointer(0.5, 0.1)
    play.pointer(1.8, -1.4)
    play.release("mouse1", 1.8, -1.4)      # ...and dropped outside the window: it stays in sight
    assert not play.held
    corners = [screen_of_square(cam, x, y, play.level, dx, dy)
               for x, y in play.placement().squares() for dx in (0, 1) for dy in (0, 1)]
    assert all(c is not None and abs(c[0]) <= 1 and abs(c[1]) <= 1 for c in corners)


def test_right_click_turns_the_tile_and_right_drag_turns_the_view(play):
    cam = play.camera
    play.pointer(0.1, 0.1)
    play.press("mouse3", 0.1, 0.1)
    play.release("mouse3", 0.1, 0.1)
    assert play.rotation == 90
    heading = cam.heading
    play.press("mouse3", 0.1, 0.1)
    play.pointer(0.3, 0.1)
    play.pointer(0.5, 0.0)
    play.release("mouse3", 0.5, 0.0)
    assert play.rotation == 90 and cam.heading != heading


def test_a_right_drag_let_go_outside_the_window_stops_turning_the_view(play):
    """A player right-dragged the table to tilt it and let go below the window: back in the window, the free
    pointer went on turning and tilting the view (the button's release came with no pointer and was dropped)."""
    cam = play.camera
    play.pointer(0.1, 0.1)
    play.press("mouse3", 0.1, 0.1)
    play.pointer(0.3, -0.5)
    play.pointer(0.4, -0.98)
    assert play.base.mouseWatcherNode is None or not play.base.mouseWatcherNode.hasMouse()   # (offscreen: none)
    play._event_release("mouse3")            # let go out of the window: Panda3D knows no pointer there
    view = (cam.heading, cam.pitch)
    play.pointer(0.2, 0.3)                   # the pointer comes back, no button held
    play.pointer(-0.4, 0.6)
    assert (cam.heading, cam.pitch) == view and not play.pressed


def test_a_right_click_on_the_hud_does_not_turn_the_tile(play):
    play.pointer(0.1, 0.1)
    play.release("mouse3", 0.1, 0.1)   # pressed over a HUD button: only its release reaches the table
    assert play.rotation == 0


def test_turning_the_tile_keeps_it_in_place(play):
    """Turned round with the keys it comes back to its spot, and turned with the wheel while held its middle
    stays under the pointer (each turn walked it a square up and left: four turns, two squares each way)."""
    o = lambda: orientation(play.piece, play.rotation)
    play.move(0, 0)
    start = (play.x, play.y)
    for _ in range(4):
        play.rotate(1)
    assert (play.x, play.y, play.rotation) == (*start, 0)
    for _ in range(4):
        play.rotate(-1)
    assert (play.x, play.y, play.rotation) == (*start, 0)
    play.pointer(0.1, 0.1)
    play.press("mouse1", 0.1, 0.1, now=1.0)     # picked up: it follows the pointer
    play.pointer(0.12, 0.1)
    for _ in range(5):
        play.wheel(1)
        middle = (play.x + (o().width - 1) // 2, play.y + (o().height - 1) // 2)
        assert play.camera.square_at(0.12, 0.1, play.level) == middle


def test_wheel_turns_a_held_tile_and_zooms_otherwise(play):
    play.wheel(1)
    assert play.rotation == 90
    play.wheel(-1)
    play.wheel(-1)
    assert play.rotation == 270
    zoom = play.camera.zoom
    play.move(1, 0)  # keyboard: the tile is put down
    play.wheel(1)
    assert play.rotation == 270 and play.camera.zoom < zoom


def test_plus_typed_with_shift_zooms_in(play):
    from direct.showbase.MessengerGlobal import messenger
    play.bind()
    try:
        for name in ("shift-=", "shift-+", "="):   # '+' on a US keyboard is Shift and '='
            zoom = play.camera.zoom
            messenger.send(name)
            assert play.camera.zoom < zoom, name
    finally:
        play.unbind()


def test_double_click_resets_the_view(play):
    play.camera.orbit(50, -20)
    play.press("mouse1", 0.2, 0.2, now=5.0)
    play.release("mouse1", 0.2, 0.2)
    play.press("mouse1", 0.2, 0.2, now=5.2)
    assert (play.camera.heading, play.camera.pitch) == (DEFAULT_HEADING, DEFAULT_PITCH)


def test_refused_spot_shows_the_reason_and_confirm_does_nothing(play):
    play.x, play.y = 0, 0
    play.update()
    assert play.confirm()
    play.finish_animation()
    assert len(play.game.moves) == 1 and play.committed
    # round 2: the 1, far from the 8, is refused with the rules' sentence
    play.x, play.y, play.rotation = 10, 10, 0
    play.update()
    assert play.verdict.code == "not_adjacent"
    assert play.hud.verdict["text"] == play.verdict.text(lambda s: s)
    assert play.hud.confirm["state"] == "disabled"
    assert not play.confirm()
    play.finish_animation()
    assert len(play.game.moves) == 1


def test_a_refused_tile_shows_the_square_with_nothing_under_it(play, scene):
    """Floating over its footprint, the red tile hid where it overhangs: the square the rules name is dark on it."""
    from panda3d.core import PNMImage
    from nmbr9.assets import TILE_THICKNESS
    from nmbr9.scene.camera import level_height
    for p in BUILD:
        assert play.game.play(0, p)
    play.table.show(play.board)
    play.frame_camera()
    play.start_turn()
    play.rotation, play.x, play.y = 0, 0, -6     # the 7 half on the 3, its top row's middle over nothing
    play.update()
    play.finish_animation()
    assert play.verdict.code == "not_supported" and dict(play.verdict.params)["x"] == 1
    scene.graphicsEngine.renderFrame()
    image = PNMImage()
    assert scene.win.getScreenshot(image)

    def brightness(x, y):   # the middle of a square of the tile in hand, on its top
        point = play.camera.screen_point(Point3(x + 0.5, -(y + 0.5), play.z + TILE_THICKNESS))
        col, row = int((point[0] + 1) / 2 * image.getXSize()), int((1 - point[1]) / 2 * image.getYSize())
        return max(image.getXel(col, row))
    assert play.z > level_height(play.level)
    assert brightness(1, -6) < 0.3 < brightness(0, -6) and brightness(1, -5) > 0.3


def test_an_overhang_is_told_without_square_coordinates(play):
    """The rules name the square at fault as (x, y), which the table never shows."""
    play.x, play.y = 0, 0
    play.update()
    assert play.confirm()
    play.finish_animation()
    for play.x in range(-3, 4):   # the next tile half on the first one, half over the table
        play.update()
        if play.verdict.code == "not_supported":
            break
    assert play.verdict.code == "not_supported" and "(" in play.verdict.text(lambda s: s)
    assert play.hud.verdict["text"] == ("The tile overhangs or covers a hole: part of it has nothing under it "
                                        "on level 0.")


def test_keyboard_alone_places_tiles_with_a_settling_drop(play):
    from nmbr9.scene.camera import level_height
    play.x, play.y = 0, 0
    play.update()
    play.confirm()
    play.finish_animation()
    # the 1 starts somewhere legal; arrows and Q/E move it, Enter confirms
    assert play.piece == 1 and play.verdict.ok
    start = (play.x, play.y)
    play.move(1, 0)
    play.move(-1, 0)
    play.rotate(1)
    play.rotate(-1)
    assert (play.x, play.y, play.rotation) == (*start, 0)
    assert play.confirm()
    heights = [play.z]
    for _ in range(60):
        play.step(1 / 60)
        if not play.settling:
            break
        heights.append(play.z)
    # it falls, faster and faster, from where it hovered to the table, then is committed
    falls = [a - b for a, b in zip(heights, heights[1:])]
    assert len(falls) > 3 and all(f > 0 for f in falls) and falls == sorted(falls)
    assert heights[-1] > level_height(0)
    assert [m.placement for m in play.game.moves][-1] == Placement(1, 0, *start, 0)
    assert play.game.round == 3 and play.piece == 3



def test_the_keyboard_never_walks_the_tile_out_of_sight(play):
    play.x, play.y = 0, 0
    play.update()
    play.confirm()
    play.finish_animation()
    for _ in range(15):          # far to the right of the build: refused, but still on screen
        play.move(1, 0)
    for _ in range(60):
        play.step(1 / 60)        # the camera glides to its new framing
    assert not play.verdict.ok
    corners = [screen_of_square(play.camera, x, y, 0, dx, dy)
               for x, y in play.placement().squares() for dx in (0, 1) for dy in (0, 1)]
    assert all(c is not None and -1 <= c[0] <= 1 and -1 <= c[1] <= 1 for c in corners)

@pytest.mark.parametrize("heading", [0, 60, 100, 180, 270, 330])
def test_the_arrow_keys_move_the_tile_the_way_they_point_on_the_screen(play, heading):
    """With the table turned (half way round: the board's left is the screen's right), left is still left."""
    from direct.showbase.MessengerGlobal import messenger
    play.camera.orbit(heading, 0)

    def middle():   # where the tile in hand shows on the screen
        return screen_of_square(play.camera, play.x, play.y, play.level, orientation(8, 0).width / 2,
                                orientation(8, 0).height / 2)
    play.bind()
    try:
        for key, way in (("arrow_left", (-1, 0)), ("arrow_right", (1, 0)), ("arrow_up", (0, 1)),
                         ("arrow_down", (0, -1))):
            before = middle()
            messenger.send(key)
            after = middle()
            moved = (after[0] - before[0], after[1] - before[1])
            along = moved[0] * way[0] + moved[1] * way[1]
            assert along > abs(moved[0] * way[1] - moved[1] * way[0]), (key, moved)   # more along than across
    finally:
        play.unbind()


def test_zoomed_in_the_keyboard_never_walks_the_tile_out_of_sight(play):
    """Zoomed in, the build is bigger than the window: walking the tile to its edge zoomed out as far as
    needed to show it (it walked off the window, and only zooming out by hand found it again)."""
    for p in BUILD:
        assert play.game.play(0, p)
    play.table.show(play.board)
    play.frame_camera()
    play.start_turn()
    for way in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        for _ in range(12):
            play.camera.zoom_by(0.5)      # as far in as it goes
            play.move_on_screen(*way)
            play.finish_animation()
            corners = [screen_of_square(play.camera, x, y, play.level, dx, dy)
                       for x, y in play.placement().squares() for dx in (0, 1) for dy in (0, 1)]
            assert all(c is not None and -1 <= c[0] <= 1 and -1 <= c[1] <= 1 for c in corners), (way, play.x, play.y)
    assert play.camera.zoom <= 1


def test_the_tile_drops_smoothly_when_it_moves_onto_a_higher_level(play):
    from nmbr9.scene.camera import level_height
    from nmbr9.scene.play import HOVER_HELD
    game = play.game
    for p in BUILD:
        assert game.play(0, p)
    play.table.show(play.board)
    play.start_turn()
    play.finish_animation()
    up = next(p for p in play.board.legal_placements(play.piece) if p.level == 1)
    z0 = play.z
    play.rotation, play.x, play.y = up.rotation, up.x, up.y
    play.update()
    assert play.level == 1 and play.verdict.ok
    play.step(1 / 60)
    assert z0 < play.z < level_height(1) + HOVER_HELD  # on its way up, not there at once
    play.finish_animation()
    assert play.z == pytest.approx(level_height(1) + HOVER_HELD, abs=1e-2)


@pytest.mark.parametrize("pitch", [15, 30, DEFAULT_PITCH])
def test_the_tile_in_hand_goes_onto_the_stack_seen_under_the_pointer(play, pitch):
    """Pointed at the top of a stack three levels high, the tile goes onto that top, however low the view and
    wherever it was held before. Tilted low, it went to the table squares the pointer's line meets behind the
    stack (four squares behind at the lowest tilt), on level 0, half hidden by the stack."""
    game = play.game
    while play.board.top_level() < 2:   # a keen builder: as high as it goes, near the middle
        best = max(play.board.legal_placements(game.card), key=lambda p: (p.level, -abs(p.x) - abs(p.y)))
        assert game.play(0, best)
    play.table.show(play.board)
    play.start_turn()
    play.frame_camera()
    play.camera.heading, play.camera.pitch = DEFAULT_HEADING, pitch
    play.camera.apply()
    top = next(t for t in play.board.tiles if t.level == 2)
    o = orientation(play.piece, play.rotation)
    x0, y0, x1, y1 = play.board.bounds()
    for square in top.squares():   # the top of the stack: nothing is higher, so it shows
        on_top = screen_of_square(play.camera, *square, 3)
        for before in (screen_of_square(play.camera, x1 + 1, y0, 0), screen_of_square(play.camera, *square, 0)):
            play.pointer(*before)   # held over the bare table first, or over that square's foot
            play.pointer(*on_top)
            assert (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2) == square, (square, before)
            assert play.level == 3


def test_hud_shows_round_card_supply_and_score_by_level(play):
    hud = play.hud
    assert hud.round["text"] == "Round 1 of 20"
    assert hud.card["text"] == "8"
    assert hud.supply_text == " ".join(map(str, sorted(DECK[1:])))
    game = play.game
    for p in BUILD:
        assert game.play(0, p)
    game.play(0, next(p for p in play.board.legal_placements(7) if p.level == 1))
    play.start_turn()
    assert hud.round["text"] == "Round 6 of 20" and hud.card["text"] == "4"
    assert "Score 7" in hud.score["text"] and "Level 1: 7 \u00d7 1 = 7" in hud.score["text"]
    assert hud.supply_text == " ".join(map(str, sorted(DECK[6:])))


def _target(play, rng):
    """A legal placement for this round's card, preferring height (as a keen player would)."""
    options = play.board.legal_placements(play.piece)
    top = max(p.level for p in options)
    return rng.choice([p for p in options if p.level == top])


def test_a_whole_game_with_the_mouse_alone(play):
    import random
    from nmbr9.scene.camera import level_height
    rng = random.Random(4)
    cam = play.camera
    while not play.game.over:
        want = _target(play, rng)
        while play.rotation != want.rotation:  # right clicks turn the tile
            play.press("mouse3", 0.0, 0.0)
            play.release("mouse3", 0.0, 0.0)
        o = orientation(want.piece, want.rotation)
        anchor = (want.x + (o.width - 1) // 2, want.y + (o.height - 1) // 2)
        point = cam.screen_point(Point3(anchor[0] + 0.5, -(anchor[1] + 0.5), level_height(want.level)))
        assert point is not None and max(abs(point[0]), abs(point[1])) <= 1, f"{want} out of view, build {play.board.bounds()}, round {play.game.round}"
        play.pointer(point[0] + 0.01, point[1])
        play.pointer(*point)
        assert (play.x, play.y, play.level) == (want.x, want.y, want.level)
        play.press("mouse1", *point, now=len(play.game.moves) * 10.0)  # put it down
        play.release("mouse1", *point)
        # confirm by clicking the score display or the Confirm button
        button = play.hud.score if len(play.game.moves) % 2 else play.hud.confirm
        button["command"]()
        play.finish_animation()
        assert play.board.tiles[-1] == want
        play.held = True  # the next tile follows the pointer again
    assert len(play.board.tiles) == 20 and play.hud.round["text"] == "Round 20 of 20"


def test_a_whole_game_with_the_keyboard_alone(play):
    import random
    rng = random.Random(9)
    while not play.game.over:
        want = _target(play, rng)
        while play.rotation != want.rotation:
            play.rotate(1)                      # E
        while play.x != want.x:
            play.move(1 if want.x > play.x else -1, 0)   # arrows
        while play.y != want.y:
            play.move(0, 1 if want.y > play.y else -1)
        assert play.confirm()                   # Enter
        play.finish_animation()
        assert play.board.tiles[-1] == want
    assert play.board.score() == sum(p.piece * p.level for p in play.board.tiles) > 0


@pytest.mark.parametrize("size", [(1280, 720), (640, 360), (420, 760), (2560, 1440)])
def test_hud_text_stays_legible_when_the_window_is_resized(play, scene, size):
    hud = play.hud
    hud.collapse_legend()                  # the one-line hint is the smallest text
    k = hud.fit_window(size)
    low, high = hud.hint.component("text0").getTightBounds(scene.aspect2d)
    # aspect2d spans the shorter side of the window: 2 units are that many pixels
    letters_px = (high.z - low.z) * min(size) / 2
    assert letters_px >= 10                # 'H' to the descender of 'y', at least 10 pixels
    if min(size) >= 720:
        assert k == 1.0                    # big windows keep the designed size
    # every corner carries the same scale, so the corners keep their layout
    assert {round(n.getScale()[0], 6) for n in hud.anchors.values()} == {round(k, 6)}


def test_the_tile_glides_to_a_new_square_while_the_footprint_is_already_there(play):
    from nmbr9.scene.table import placement_transform
    play.finish_animation()
    start_x = play.ghost.node.getX()
    play.move(3, 0)                          # three squares to the right
    drawn = play.ghost.node.getX()
    assert drawn == pytest.approx(start_x)   # not jumped
    play.step(1 / 60)
    moved = play.ghost.node.getX()
    assert start_x < moved < start_x + 3     # on its way
    play.finish_animation()
    final = placement_transform(play.placement(), play.level, 0).getPos().x
    assert play.ghost.node.getX() == pytest.approx(final)
    # the footprint shows the new squares at once
    low, high = play.ghost.footprint.getTightBounds()
    assert low.x == pytest.approx(min(s[0] for s in play.placement().squares()) + 0.04, abs=1e-3)


def test_the_cards_still_to_come_show_their_numbers(play, scene):
    """Each chip is its number's colour with the number in white on it (it once lost its numbers)."""
    from panda3d.core import PNMImage
    scene.graphicsEngine.renderFrame()
    scene.graphicsEngine.renderFrame()
    shot = PNMImage()
    scene.win.getScreenshot(shot)
    lo, hi = play.hud.supply.getTightBounds(scene.aspect2d)
    w, h, aspect = shot.getXSize(), shot.getYSize(), scene.getAspectRatio()
    px = lambda x, z: (int((x / aspect + 1) / 2 * w), int((1 - z) / 2 * h))
    (x0, y0), (x1, y1) = px(lo.x, hi.z), px(hi.x, lo.z)
    white = sum(1 for x in range(x0, x1) for y in range(y0, y1)
                if min(shot.getRed(x, y), shot.getGreen(x, y), shot.getBlue(x, y)) > 0.9)
    assert x1 - x0 > 50 and white > 40, (x0, x1, y0, y1, white)


def test_a_one_point_tile_says_point_in_the_singular(play):
    """A 1 laid on level 1 said "(+1 points)"."""
    game = play.game
    for p in BUILD:
        assert game.play(0, p)
    for _card in (7, 4):   # the next two cards anywhere, up to the second 1
        assert game.play(0, play.board.legal_placements(game.card)[0])
    assert game.card == 1
    play.table.show(play.board)
    play.start_turn()
    up = next(p for p in play.board.legal_placements(1) if p.level == 1)
    play.rotation, play.x, play.y = up.rotation, up.x, up.y
    play.update()
    assert play.level == 1 and play.verdict.ok
    assert play.hud.verdict["text"] == "Fits on level 1  (+1 point)"


def _built(play):
    """The play screen with BUILD laid, the 7 in hand."""
    for p in BUILD:
        assert play.game.play(0, p)
    play.table.show(play.board)
    play.frame_camera()
    play.start_turn()
    play.finish_animation()


def _shot(scene):
    """A picture of the table alone (the HUD left out)."""
    from panda3d.core import PNMImage
    scene.aspect2d.hide()
    scene.graphicsEngine.renderFrame()
    scene.aspect2d.show()
    image = PNMImage()
    assert scene.win.getScreenshot(image)
    return image


def _badge_inks(play, image) -> list:
    """The lightness of each tile's level badge's middle in `image` (None: no badge on any square of it that
    shows)."""
    from helpers import level_badge
    seen = [[level_badge(image, play.camera, play.table, s, p.level) for s in p.squares()
             if play.board.height_at(*s) == p.level + 1] for p in play.board.tiles]
    return [next((ink for ink in on if ink is not None), None) for on in seen]


def test_l_shows_each_tiles_level_on_it_a_tile_laid_gets_its_own_and_l_again_hides_them(play, scene):
    from direct.showbase.MessengerGlobal import messenger
    _built(play)
    play.camera.orbit(0, 90)   # from above, where the levels were hard to tell apart

    def badges():
        play.finish_animation()
        play.table.fit_levels()   # what its task does before each frame: the camera may have glided since
        return _badge_inks(play, _shot(scene))
    play.bind()
    try:
        assert badges() == [None] * 4
        messenger.send("l")
        assert None not in badges()
        up = next(p for p in play.board.legal_placements(7) if p.level == 1)
        play.rotation, play.x, play.y = up.rotation, up.x, up.y
        play.update()
        messenger.send("enter")
        play.finish_animation()
        laid = badges()
        assert len(laid) == 5 and None not in laid and laid[4] > 0.6   # the 7 says 1 (light in its middle)
        messenger.send("l")
        assert badges() == [None] * 5
    finally:
        play.unbind()


def test_level_badges_follow_the_view_by_a_task_that_runs_only_while_they_are_shown(play, scene):
    """L's level badges are stood facing the camera before each frame by a task of the table's. That task ran
    every frame for every table, badges shown or not. Now it runs only while badges are shown: L shows them
    and they follow a turned view (readable, not left as drawn for the view before), L again hides them and no
    such task is left, nor after the table is taken away."""
    from direct.showbase.MessengerGlobal import messenger
    _built(play)

    def tasks():
        return scene.taskMgr.getTasksNamed("level-badges")

    def badges():   # as the next frame shows them (the tasks run, no fit_levels called here)
        play.finish_animation()
        scene.taskMgr.step()
        return _badge_inks(play, _shot(scene))
    play.bind()
    try:
        assert not tasks(), "a badge task runs with no badges shown"
        messenger.send("l")
        assert None not in badges() and len(tasks()) == 1
        for heading, pitch in ((0, 90), (120, -40), (-75, 20)):
            play.camera.orbit(heading, pitch)
            assert None not in badges(), (heading, pitch)
        messenger.send("l")
        assert badges() == [None] * 4 and not tasks(), "badges hidden, their task still runs"
        messenger.send("l")
        assert None not in badges() and len(tasks()) == 1
    finally:
        play.unbind()
    play.table.remove()
    assert not tasks(), "the table is gone, its badge task stays"


def _tiles_middle(image) -> tuple[float, float]:
    """Where the tiles are in a picture: the middle of its bright pixels (the cloth is dark), in screen units."""
    import numpy as np
    w, h = image.getXSize(), image.getYSize()
    pixels = np.array([[max(image.getXel(c, r)) for c in range(0, w, 4)] for r in range(0, h, 4)])
    rows, cols = np.nonzero(pixels > 0.45)
    return cols.mean() * 4 / w * 2 - 1, 1 - rows.mean() * 4 / h * 2


def test_middle_drag_moves_the_view_across_the_table_and_a_double_click_brings_it_back(play, scene):
    """The view turned and zoomed about the build's middle only: the table's edge could not be looked at closely.
    A middle drag moves the cloth with the pointer; the tile in hand stays under it."""
    _built(play)
    cam = play.camera
    cam.zoom_by(0.6)
    play.press("mouse1", 0.6, 0.6, now=1.0)   # the tile put down out of the way: the picture is the build's
    play.release("mouse1", 0.6, 0.6)
    play.finish_animation()
    heading, pitch, zoom = cam.heading, cam.pitch, cam.zoom
    before, grabbed = _tiles_middle(_shot(scene)), cam.point_on_level(-0.3, -0.1, 0.5)
    play.pointer(-0.3, -0.1)
    play.press("mouse2", -0.3, -0.1)
    for x, y in ((-0.2, -0.05), (-0.1, 0.0), (0.0, 0.05)):
        play.pointer(x, y)
    play.release("mouse2", 0.0, 0.05)
    after = _tiles_middle(_shot(scene))
    assert (cam.heading, cam.pitch, cam.zoom) == (heading, pitch, zoom)   # moved, not turned
    assert (cam.point_on_level(0.0, 0.05, 0.5) - grabbed).length() < 0.05  # the cloth went with the pointer
    assert after[0] - before[0] > 0.2 and after[1] > before[1]   # (the tall build reaches out of the window)
    play.press("mouse1", 0.2, 0.1, now=5.0)   # picked up: it comes under the pointer, and stays there
    play.release("mouse1", 0.2, 0.1)
    play.press("mouse2", 0.2, 0.1)
    play.pointer(0.0, 0.1)
    play.pointer(-0.1, 0.15)
    middle = lambda: (play.x + (orientation(7, 0).width - 1) // 2, play.y + (orientation(7, 0).height - 1) // 2)
    assert play.held and cam.square_at(-0.1, 0.15, play.level) == middle()
    play.release("mouse2", -0.1, 0.15)
    play.press("mouse1", -0.1, 0.15, now=7.0)  # a double click: put down, then the view comes back
    play.release("mouse1", -0.1, 0.15)
    play.press("mouse1", -0.1, 0.15, now=7.2)
    play.release("mouse1", -0.1, 0.15)
    play.finish_animation()
    assert cam.pan.length() == 0 and cam.zoom == 1


def test_shift_and_the_arrows_move_the_view_and_the_tile_in_hand_stays_on_its_square(play):
    from direct.showbase.MessengerGlobal import messenger
    _built(play)
    cam = play.camera
    o = orientation(7, 0)
    middle = lambda: (play.x + (o.width - 1) // 2, play.y + (o.height - 1) // 2)
    play.bind()
    try:
        play.pointer(0.2, -0.1)
        play.pointer(0.25, -0.1)      # held: under the pointer
        start = middle()
        for key, way in (("shift-arrow_right", (1, 0)), ("shift-arrow_up", (0, 1)), ("shift-arrow_left", (-1, 0)),
                         ("shift-arrow_down", (0, -1))):
            before = screen_of_square(cam, 0, 0, 0)
            messenger.send(key)
            after = screen_of_square(cam, 0, 0, 0)
            moved = (after[0] - before[0], after[1] - before[1])   # the view goes that way: the build the other
            assert -(moved[0] * way[0] + moved[1] * way[1]) > 0.1 + abs(moved[0] * way[1] - moved[1] * way[0]), key
            play.pointer(0.25, -0.1)  # a still pointer: the tile stays on its square until the pointer moves
            assert middle() == start
        assert cam.heading == DEFAULT_HEADING
        for _ in range(40):           # as far as it goes: some of the build stays in sight
            messenger.send("shift-arrow_left")
        shown = [screen_of_square(cam, x, y, 0) for p in BUILD for x, y in p.squares()]
        assert any(abs(s[0]) < 1 and abs(s[1]) < 1 for s in shown)
        messenger.send("home")
        assert cam.pan.length() == 0
    finally:
        play.unbind()


def test_moved_across_the_table_the_keyboard_never_walks_the_tile_out_of_sight(play):
    """Zoomed in and moved away from the tile, walking it a square on brings the view back to it."""
    _built(play)
    play.camera.zoom_by(0.5)
    for _ in range(20):
        play.camera.pan_by(0, 0.25)       # up to the build's far end: the tile, beside its middle, below the window
    corners = lambda: [screen_of_square(play.camera, x, y, play.level, dx, dy)
                       for x, y in play.placement().squares() for dx in (0, 1) for dy in (0, 1)]
    assert None in corners()   # out of the window
    play.move_on_screen(0, 1)
    play.finish_animation()
    assert all(c is not None and -1 <= c[0] <= 1 and -1 <= c[1] <= 1 for c in corners())



def test_level_badges_stay_big_enough_to_read_on_a_whole_board_in_the_smallest_window():
    """L's badges shrank with the board: on 18 to 20 tiles in a 640x480 window, at the table, on another player's
    board and on the results' (the best layout), they were 7 to 10 px across, their numerals a smudge. Each badge
    shown is at least 15 px across and high on the screen, reads as its level (a 0 dark in its middle, higher levels'
    strokes light there), covers no other's middle, and most tiles keep theirs."""
    import math
    from pathlib import Path
    from helpers import script_output
    found = script_output([Path(__file__).resolve().parent / "level_badges_driver.py", "640x480"])
    assert set(found) == {"table", "other", "best"}
    for view, seen in found.items():
        badges = seen["badges"]
        assert len(badges) >= 2 * seen["tiles"] / 3, f"{view}: {len(badges)} badges on {seen['tiles']} tiles"
        for b in badges:
            assert min(b["across"], b["high"]) >= 15, f"{view}: a badge of level {b['level']} {b['across']} px across"
            assert b["middle"] < 0.4 if b["level"] == 0 else b["middle"] > 0.45, f"{view}: {b}"
        middles = [b["at"] for b in badges]
        assert min(math.dist(p, q) for i, p in enumerate(middles) for q in middles[:i]) >= 12, view


def test_small_letters_show_no_faint_marks_beside_them(scene):
    """Small text is drawn from its font page's smaller mipmaps, which blended each glyph with the glyphs beside it
    on the page: thin bars showed right of "k" (the Polish "kafelek"), "2" and "81", under "m" and "y", at every
    window size. A letter drawn small looks the same whatever glyphs share its page: drawn again with the rest of
    its page blanked, no pixel of it differs."""
    import numpy as np
    from panda3d.core import NodePath, TextNode
    from nmbr9.scene.hud import load_fonts

    def picture():
        scene.graphicsEngine.renderFrame()
        shot = scene.win.getScreenshot()
        return np.frombuffer(bytes(shot.getRamImageAs("G")), np.uint8).astype(int)

    letters = NodePath("letters")   # drawn alone: other texts would change with the page blanked too
    letters.reparentTo(scene.render2d)
    letters.setScale(1 / scene.getAspectRatio(), 1, 1)   # units as aspect2d's
    scene.aspect2d.hide()
    background = scene.getBackgroundColor()
    scene.setBackgroundColor(0, 0, 0, 1)
    marks = {}
    try:
        for kind, font in zip(("regular", "bold"), load_fonts(scene)):
            page_full = TextNode("every letter")   # neighbours on the page, as a game's many texts give it
            page_full.setFont(font)
            page_full.setText("".join(map(chr, range(33, 127))) + "ąćęłńóśźżĄĆĘŁŃÓŚŹŻäöüßÄÖÜñÑ¿¡")
            page_full.generate()
            for letter in "k281my":
                text = TextNode(letter)
                text.setFont(font)
                text.setText(letter)
                for i, px in enumerate((8, 11, 16, 24)):   # pixels to the em (the HUD keeps its smallest at 11)
                    drawn = letters.attachNewNode(text.generate())
                    drawn.setScale(px / (scene.win.getYSize() / 2))
                    drawn.setPos(-1 + 0.4 * i, 0, 0)
                seen = picture()
                glyph = font.getGlyph(ord(letter))
                page = glyph.getPage()
                w, h = page.getXSize(), page.getYSize()
                left, right = int(glyph.getUvLeft() * w), int(np.ceil(glyph.getUvRight() * w))
                bottom, top = int(glyph.getUvBottom() * h), int(np.ceil(glyph.getUvTop() * h))
                full = bytes(page.getRamImage())
                texels = np.frombuffer(full, np.uint8).reshape(h, w, -1)   # rows from the bottom
                alone = np.zeros_like(texels)
                alone[max(bottom, 0):top, max(left, 0):right] = texels[max(bottom, 0):top, max(left, 0):right]
                page.setRamImage(alone.tobytes())
                try:
                    marks[kind, letter] = int(np.abs(picture() - seen).max())
                finally:
                    page.setRamImage(full)
                letters.getChildren().detach()
    finally:
        letters.removeNode()
        scene.aspect2d.show()
        scene.setBackgroundColor(background)
    assert max(marks.values()) <= 2, {k: v for k, v in marks.items() if v > 2}   # of 255: none a player could see


def test_legal_and_refused_tiles_in_hand_differ_in_grey_too_on_every_colour(play, scene):
    """A red 9 tinted red for "refused here" looked as it did tinted for "fits": the tint alone told them apart on
    some colours (the 9, the dark blue 6) and for no colour-blind player. In grey the two must differ too: the
    refused tile is struck through."""
    import numpy as np
    from nmbr9.rules.tiles import FILLERS, START_TILES
    play.ghost.destroy()
    play.ghost = None
    play.camera.frame((-2, -2, 6, 6))

    def grey():   # the picture's lightness, each pixel
        scene.graphicsEngine.renderFrame()
        rgb = np.frombuffer(scene.win.getScreenshot().getRamImageAs("RGB"), np.uint8).astype(float)
        return rgb.reshape(scene.win.getYSize(), scene.win.getXSize(), 3) @ (0.3, 0.59, 0.11)
    empty = grey()
    for piece in [*range(10), *sorted(FILLERS), sorted(START_TILES)[0]]:
        ghost = play.table.ghost(piece)
        ghost.show(Placement(piece, 0, 0, 0), 0, 0.3, True)
        fits = grey()
        ghost.show(Placement(piece, 0, 0, 0), 0, 0.3, False)
        refused = grey()
        ghost.destroy()
        tile = np.abs(fits - empty) > 8   # where the tile in hand is drawn
        a, b = fits[tile] - fits[tile].mean(), refused[tile] - refused[tile].mean()
        alike = (a @ b) / np.sqrt((a @ a) * (b @ b))   # 1: the same picture in grey but for its brightness
        assert alike < 0.95, (piece, alike)   # tinted only: 0.98 to 0.997


def test_the_controls_legend_says_the_wheel_turns_a_held_tile_and_zooms_otherwise(play):
    """The legend said "Wheel or right click: turn the tile", but with the tile put down the wheel zooms."""
    play.hud.show_legend()
    parts = [part for line in play.hud.legend["text"].split("\n") for part in line.split("  \u00b7  ")]
    wheel = [part for part in parts if "Wheel" in part]   # the plain wheel's (Shift+wheel's says "wheel")
    assert wheel and all("turn" in part and "zoom" in part for part in wheel), wheel
    play.wheel(1)
    assert play.rotation == 90   # held: it turns
    zoom = play.camera.zoom
    play.move(1, 0)   # put down
    play.wheel(1)
    assert play.rotation == 90 and play.camera.zoom < zoom


def _bench_board_framed(scene):
    """The bench's 19-tile board framed by an orbit camera: the camera and the corners of every tile's top."""
    from nmbr9.bench import seeded_board
    from nmbr9.scene.camera import OrbitCamera, level_height
    board = seeded_board(19, 0).boards[0]
    cam = OrbitCamera(scene.camera, scene.camLens, scene.render)
    cam.frame_board(board)
    return cam, [Point3(x + dx, -(y + dy), level_height(t.level + 1)) for t in board.tiles for x, y in t.squares()
                 for dx in (0, 1) for dy in (0, 1)]


def test_the_orbit_keeps_the_build_in_the_middle_and_as_big_at_every_angle(scene):
    """Turned and tilted any way (A D W S, a right drag), the build stays in the middle of the view and shows about
    as big as from the default view (turned half way between two sides it showed at 60% of its size, off the
    middle; tilted low, small)."""
    cam, tops = _bench_board_framed(scene)

    def shown():
        xs, ys = zip(*(cam.screen_point(p) for p in tops))
        size = max((max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2)
        return size, ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
    default, _middle = shown()
    for pitch in (DEFAULT_PITCH, 30, 12):
        for heading in range(0, 360, 30):
            cam.heading, cam.pitch = heading, pitch
            cam.apply()
            size, (mx, my) = shown()
            assert size >= 0.85 * default, (heading, pitch, size, default)
            assert abs(mx) < 0.12 and abs(my) < 0.15, (heading, pitch, mx, my)


def test_drop_lines_join_the_floating_tile_to_where_it_lands_in_the_verdicts_colour(play):
    """The tile in hand floats low over its footprint, and lines at its outer corners drop from it to where it
    would land, green where it fits, red where it is refused: what the eye reads agrees with the verdict (floating
    higher with no lines, in perspective it seemed to touch a neighbour it did not)."""
    from panda3d.core import PNMImage
    from nmbr9.scene.camera import level_height
    from nmbr9.scene.play import HOVER_HELD
    assert HOVER_HELD <= 0.15

    def line_colours():
        play.finish_animation()
        for _ in range(2):
            play.base.graphicsEngine.renderFrame()
        image = PNMImage()
        play.base.win.getScreenshot(image)
        found = set()
        taken = set(play.placement().squares())
        for cx, cy in {(x + dx, y + dy) for x, y in taken for dx in (0, 1) for dy in (0, 1)}:
            if sum((cx - dx, cy - dy) in taken for dx in (0, 1) for dy in (0, 1)) != 1:
                continue   # not an outer corner
            seen = play.camera.screen_point(Point3(cx, -cy, level_height(play.level) + HOVER_HELD / 2))
            if seen is None:
                continue   # out of the window
            col, row = int((seen[0] + 1) / 2 * image.getXSize()), int((1 - seen[1]) / 2 * image.getYSize())
            for c in range(col - 1, col + 2):
                for r in range(row - 1, row + 2):
                    red, green, blue = image.getXel(c, r)
                    if green > red + 0.3 and green > blue + 0.2:
                        found.add("green")
                    if red > green + 0.3 and red > blue + 0.3:
                        found.add("red")
        return found
    play.pointer(0, 0)
    play.pointer(*screen_of_square(play.camera, 0, 0, 0))
    assert play.verdict.ok and line_colours() == {"green"}
    play.game.play(0, play.placement())   # laid; the next tile held far from it is refused
    play.table.show(play.board)
    play.start_turn()
    play.pointer(*screen_of_square(play.camera, 6, 0, 0))
    assert not play.verdict.ok and line_colours() == {"red"}


def test_the_hud_layer_draws_without_clearing_the_depth_buffer_again(scene):
    """The HUD and the screens draw over the table with no depth test, so clearing the depth buffer for them is a
    second pass over every pixel for nothing (about a sixth of the table's frame on software GL)."""
    from panda3d.core import DepthTestAttrib
    layer = scene.cam2d.node().getDisplayRegion(0)
    assert not layer.getClearDepthActive()
    depth = scene.render2d.getState().getAttrib(DepthTestAttrib)
    assert depth is not None and depth.getMode() == DepthTestAttrib.M_none   # nothing drawn there reads it


def test_the_grid_draws_a_run_of_equally_faint_square_edges_as_one_line(scene):
    """Software GL pays for each line it draws: the grid's edges inside the build and along its fading rings
    (as faint all along) are drawn as long lines, not a line per square's edge (1549 lines on the bench's board)."""
    from nmbr9.bench import seeded_board
    from nmbr9.scene.table import GRID_MARGIN, Table
    board = seeded_board(19, 0).boards[0]
    table = Table(scene)
    table.show(board)
    primitive = table.grid.node().getGeom(0).getPrimitive(0)
    edges = primitive.getNumPrimitives()
    x0, y0, x1, y1 = board.bounds()
    w, h = x1 - x0 + 1 + 2 * GRID_MARGIN, y1 - y0 + 1 + 2 * GRID_MARGIN
    spanned = (w + 1) * h + (h + 1) * w   # square edges in the grid's span
    assert edges < spanned / 3, (edges, spanned)
    table.remove()


def test_tilted_lowest_the_build_shows_at_least_half_as_tall_as_from_the_default_view(scene):
    """S held down: at the lowest tilt the build still fills its room, across as from the default view and at least
    half as tall (at 12 degrees it was a sliver, a third as tall as from the default view, seen from most sides)."""
    cam, tops = _bench_board_framed(scene)

    def size():
        xs, ys = zip(*(cam.screen_point(p) for p in tops))
        assert max(xs) <= 1 and min(xs) >= -1 and max(ys) <= 1 and min(ys) >= -1   # all in the window
        return max(xs) - min(xs), max(ys) - min(ys)
    for heading in range(0, 360, 45):
        cam.heading, cam.pitch = heading, DEFAULT_PITCH
        cam.apply()
        width, height = size()
        for _ in range(60):   # S held: a step of tilt at each repeat, down to the lowest
            cam.orbit(0, -2)
        low_width, low_height = size()
        assert low_width >= 0.95 * width and low_height >= 0.5 * height, (heading, low_width, width, low_height, height)
