"""The Panda3D scene: the only package that imports panda3d.

table (Table: any Board on a cloth, with shadows), camera (OrbitCamera, picking),
hud (Hud), play (PlayScreen: one human placing a tile), game_app (the app),
render (`nmbr9 render`), bench (`nmbr9 bench render`), base (ShowBase setup),
glyphs (numerals rasterised for `nmbr9 assets`).
"""
