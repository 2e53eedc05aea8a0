"""The ``coup-referee`` command.

Nothing heavy is imported at module level: ``serve`` must monkey-patch gevent before Flask,
werkzeug or threading are imported, and ``check``/``explain`` should start fast.
A user's mistake (bad argument, missing file, port taken) prints one line and exits 2; a
traceback means a bug.

Messages are in the user's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; see
:mod:`app.cli_i18n`); argparse's own phrases inside a usage error ("invalid choice", "the
following arguments are required") stay as Python words them. What scripts read stays fixed:
``PASS``/``FAIL``/``INVALID`` of ``check``, ``table:``/``seat NAME:`` of ``import``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from app.cli_i18n import _

PROG = "coup-referee"
USER_ERROR = 2


class _Formatter(argparse.HelpFormatter):
    """Help with a translated "usage:"."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line instead of the whole usage text, and
    words its help in the user's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        add_help = kwargs.pop("add_help", True)
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        # TRANSLATORS: `message` is argparse's own (English) description of the mistake.
        line = _("%(message)s (see %(command)s)", message=message, command=f"{self.prog} --help")
        print(f"{self.prog}: {line}", file=sys.stderr)
        raise SystemExit(USER_ERROR)


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return USER_ERROR


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description=_("Referee for Coup played with a real deck: a tablet shows the table, "
                      "each phone holds its player's hand."),
    )
    from app import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help=_("show the version number and exit"))
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )

    serve = commands.add_parser("serve", help=_("run the referee on this laptop's network"))
    serve.add_argument("--host", default="0.0.0.0",
                       help=_("address to listen on (default: all)"))
    serve.add_argument("--port", type=int, default=5000,
                       help=_("port (default: %(port)s)", port=5000))
    serve.add_argument(
        "--instance", metavar="PATH", help=_("folder for the database (default: ./instance)")
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help=_("the address phones open, when it can't be found (e.g. %(example)s)",
               example="http://192.168.1.20:5000/"),
    )
    serve.set_defaults(handler=_serve)

    check = commands.add_parser(
        "check", help=_("replay game records and check their expectations"))
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=_check)

    explain = commands.add_parser(
        "explain", help=_("replay a game record and explain each ruling"))
    explain.add_argument("file", metavar="FILE")
    explain.set_defaults(handler=_explain)

    import_ = commands.add_parser("import", help=_("load a game record as a table to play on"))
    import_.add_argument("file", metavar="FILE")
    import_.add_argument("--instance", metavar="PATH", help=_("folder of the database"))
    import_.add_argument(
        "--public-url", metavar="URL",
        help=_("the address phones open (default: this laptop's)"),
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
    # The arguments first: a mistake is answered without touching the process.
    if not 0 <= args.port <= 65535:
        return _fail(_("--port must be between 0 and 65535, not %(port)s", port=args.port))
    if args.public_url and not args.public_url.startswith(("http://", "https://")):
        return _fail(_("--public-url must start with http://, not %(url)s",
                       url=repr(args.public_url)))

    # Then, before anything imports threading, socket or ssl through Flask.
    from gevent import monkey

    monkey.patch_all()

    from app.server import CannotListen, print_banner, public_url, serve
    from app.web import create_app

    url: str | None = args.public_url
    app = create_app(args.instance, {"PUBLIC_URL": url})

    def ready(port: int) -> None:
        shown = url or public_url(args.host, port)
        app.config["PUBLIC_URL"] = shown
        print_banner(shown, port)
        print(_("Press Ctrl+C to stop."), flush=True)

    try:
        serve(app, args.host, args.port, ready)
    except CannotListen as error:
        return _fail(_("%(error)s (try another --port)", error=error.message()))
    except KeyboardInterrupt:  # Windows; elsewhere Ctrl+C makes serve() return
        pass
    print(_("Stopped."), flush=True)
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
