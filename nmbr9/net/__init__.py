"""NMBR 9 across computers (issue 39): a server, its SQLite store and a client library.

`table.py` is one online game, pure (the rules layer decides every action);
`store.py` writes every confirmed action before it is acknowledged;
`server.py` hosts many tables over websockets (no panda3d); `client.py` is
what a window or a bot drives; `bench.py` measures a real server process.
The messages are in docs/protocol.md, running a server in docs/serving.md.
"""
