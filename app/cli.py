"""The ``coup-referee`` command.

Nothing heavy is imported at module level: ``serve`` must monkey-patch gevent before Flask,
werkzeug or threading are imported, and ``check``/``explain`` should start fast.
A user's mistake (bad argument, missing file, port taken) prints one line and exits 2; a
traceback means a bug.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

PROG = "coup-referee"
USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line instead of the whole usage text."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(USER_ERROR)


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return USER_ERROR


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Referee for Coup played with a real deck: a tablet shows the table, "
        "each phone holds its player's hand.",
    )
    from app import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )

    serve = commands.add_parser("serve", help="run the referee on this laptop's network")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=5000, help="port (default: 5000)")
    serve.add_argument(
        "--instance", metavar="PATH", help="folder for the database (default: ./instance)"
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the address phones open, when it can't be found (e.g. http://192.168.1.20:5000/)",
    )
    serve.set_defaults(handler=_serve)

    check = commands.add_parser("check", help="replay game records and check their expectations")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=_check)

    explain = commands.add_parser("explain", help="replay a game record and explain each ruling")
    explain.add_argument("file", metavar="FILE")
    explain.set_defaults(handler=_explain)

    import_ = commands.add_parser("import", help="load a game record as a table to play on")
    import_.add_argument("file", metavar="FILE")
    import_.add_argument("--instance", metavar="PATH", help="folder of the database")
    import_.add_argument(
        "--public-url", metavar="URL", help="the address phones open (default: this laptop's)"
    )
    import_.set_defaults(handler=_import)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else USER_ERROR
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        return _fail(f"{error.strerror}: {error.filename}")
    except KeyboardInterrupt:
        return 130


def _serve(args: argparse.Namespace) -> int:
    # First, before anything imports threading, socket or ssl through Flask.
    from gevent import monkey

    monkey.patch_all()

    from app.server import CannotListen, print_banner, public_url, serve
    from app.web import create_app

    if not 0 <= args.port <= 65535:
        return _fail(f"--port must be between 0 and 65535, not {args.port}")
    if args.public_url and not args.public_url.startswith(("http://", "https://")):
        return _fail(f"--public-url must start with http://, not {args.public_url!r}")

    url: str | None = args.public_url
    app = create_app(args.instance, {"PUBLIC_URL": url})

    def ready(port: int) -> None:
        shown = url or public_url(args.host, port)
        app.config["PUBLIC_URL"] = shown
        print_banner(shown, port)
        print("Press Ctrl+C to stop.", flush=True)

    try:
        serve(app, args.host, args.port, ready)
    except CannotListen as error:
        return _fail(f"{error} (try another --port)")
    except KeyboardInterrupt:  # Windows; elsewhere Ctrl+C makes serve() return
        pass
    print("Stopped.", flush=True)
    return 0


def _check(args: argparse.Namespace) -> int:
    from app.records import check_command

    return check_command(list(args.files))


def _explain(args: argparse.Namespace) -> int:
    from app.records import explain_command

    return explain_command(args.file)


def _import(args: argparse.Namespace) -> int:
    from app.web.importer import import_command

    return import_command(args.file, args.instance, args.public_url)


if __name__ == "__main__":
    sys.exit(main())
