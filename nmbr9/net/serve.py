"""`nmbr9 serve`: a club server for many games at once, headless (docs/serving.md)."""
from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import ssl
import sys
from pathlib import Path

from ..i18n import _
from ..paths import data_dir
from ..rules.record import RecordError
from .server import Server

DEFAULT_PORT = 8779


def main(args) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)   # its handshake failures: one line of ours
    context = None
    if bool(args.cert) != bool(args.key):
        print(_("TLS needs both --cert and --key."), file=sys.stderr)
        return 2
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            context.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as e:
            print(_("Can't use the certificate: {error}").format(error=e), file=sys.stderr)
            return 2
    if not 0 <= args.port <= 65535:
        print(_("The port must be a number from 0 to 65535."), file=sys.stderr)
        return 2
    limits = {"max_connections": args.max_connections_per_address, "max_games": args.max_games_per_address}
    if any(n is not None and n < 0 for n in limits.values()):
        print(_("A limit per address must be 0 (none) or more."), file=sys.stderr)
        return 2
    folder = Path(args.data) if args.data else data_dir() / "server"
    try:
        server = Server(folder, **{k: n for k, n in limits.items() if n is not None})
    except (OSError, sqlite3.Error, RecordError) as e:   # a file where the folder should be; a damaged database
        print(_("Can't use the data folder {folder}: {error}").format(folder=folder, error=e), file=sys.stderr)
        return 2
    try:
        return asyncio.run(_serve(server, args.host, args.port, context))
    except OSError as e:   # the port taken, the address not this computer's
        print(_("Can't listen on {host} port {port}: {error}").format(host=args.host, port=args.port,
                                                                      error=e.strerror or e), file=sys.stderr)
        return 1


async def _serve(server: Server, host: str, port: int, context) -> int:
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    await server.run(host, port, context, stop=stop)
    return 0
