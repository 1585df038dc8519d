"""The screens around the table: menu, new game, rules, settings, play, results, tournaments, puzzles.

Each is a `widgets.Screen`; `nmbr9.scene.game_app.GameApp.goto` switches between them.
"""
