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
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from app import commands as run
from app.cli_i18n import _
from app.commands import DEFAULT_PORT, PROG, USER_ERROR, fail
from app.engine.table import printable

CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool whose reader went away


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
        kwargs["add_help"] = False  # our own -h, worded in the user's language
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        # TRANSLATORS: command line. message: argparse's own (English) description of the
        # mistake; command: the command's help, e.g. "coup-referee check --help".
        line = _("%(message)s (see %(command)s)", message=message, command=f"{self.prog} --help")
        print(f"{self.prog}: {line}", file=sys.stderr)
        raise SystemExit(USER_ERROR)


def _percent_safe(text: object) -> str:
    """A value inside an argparse help string, which argparse fills with ``%``."""
    return str(text).replace("%", "%%")


def build_parser() -> argparse.ArgumentParser:
    from app import __version__
    from app.instance import default_folder

    parser = _Parser(
        prog=PROG,
        description=_("Referee for Coup played with a real deck: a tablet shows the table, "
                      "each phone holds its player’s hand."),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help=_("show the version number and exit"))
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    folder = _percent_safe(default_folder())
    _add_serve(commands, folder)
    _add_check(commands)
    _add_explain(commands)
    _add_import(commands, folder)
    return parser


Commands = Any  # argparse's _SubParsersAction, which has no public name


def _add_serve(commands: Commands, folder: str) -> None:
    serve = commands.add_parser(
        "serve", help=_("run the referee on this laptop’s network"),
        description=_("Run the referee on this laptop until Ctrl+C. It prints the address "
                      "(and a QR code of it) that the tablet and the phones on the same Wi-Fi "
                      "open. One serve at a time per instance folder."))
    serve.add_argument("--host", default="0.0.0.0",
                       help=_("address to listen on (default: all)"))
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       # TRANSLATORS: command line. port: a port number.
                       help=_("port (default: %(port)s)", port=DEFAULT_PORT))
    serve.add_argument(
        "--instance", metavar="PATH",
        # TRANSLATORS: command line. path: a file or folder path.
        help=_("folder for the database and its secret key, made if missing "
               "(default: %(path)s)", path=folder))
    serve.add_argument(
        "--public-url",
        metavar="URL",
        # TRANSLATORS: command line. example: an example address or file.
        help=_("the address phones open, when it can’t be found (e.g. %(example)s)",
               example="http://192.168.1.20:5000/"),
    )
    serve.set_defaults(handler=run.serve)


def _add_check(commands: Commands) -> None:
    check = commands.add_parser(
        "check", help=_("replay game records and check their expectations"),
        description=_("Replay each game record and check its expectations. One line per "
                      "file, starting with PASS, FAIL or INVALID (the same words in every "
                      "language, for scripts), then the totals when there are several files. "
                      "Exits 1 unless every file passes."))
    check.add_argument("files", nargs="+", metavar="FILE",
                       # TRANSLATORS: command line. example: an example address or file.
                       help=_("a game record (coup-record/1 JSON), e.g. %(example)s",
                              example="tests/records/01-worked-example.json"))
    check.set_defaults(handler=run.check)


def _add_explain(commands: Commands) -> None:
    explain = commands.add_parser(
        "explain", help=_("replay a game record and explain each ruling"),
        description=_("Replay a game record step by step: each step, each ruling with the "
                      "rule behind it (E-n), a refused step with the reason, then each "
                      "player’s coins and cards."))
    explain.add_argument("file", metavar="FILE",
                         help=_("a game record (coup-record/1 JSON)"))
    explain.set_defaults(handler=run.explain)


def _add_import(commands: Commands, folder: str) -> None:
    import_ = commands.add_parser(
        "import", help=_("load a game record as a table to play on"),
        description=_("Load a game record into the database that serve uses, as a new table "
                      "that goes on from where the record stops. Prints “table: URL” for "
                      "the tablet and “seat NAME: URL” for each phone."))
    import_.add_argument("file", metavar="FILE",
                         help=_("a game record (coup-record/1 JSON), e.g. one downloaded "
                                "from the tablet"))
    import_.add_argument("--instance", metavar="PATH",
                         # TRANSLATORS: command line. path: a file or folder path.
                         help=_("the folder of serve’s database (default: %(path)s)",
                                path=folder))
    import_.add_argument(
        "--public-url", metavar="URL",
        # TRANSLATORS: command line. port: a port number.
        help=_("the address in the links (default: that of the serve running on the same "
               "folder, else this laptop’s on port %(port)s)", port=DEFAULT_PORT),
    )
    import_.set_defaults(handler=run.import_)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed
        return exit_.code if isinstance(exit_.code, int) else USER_ERROR
    handler: Callable[[argparse.Namespace], int] = args.handler
    if args.command == "serve":  # its banner's QR code is drawn with the terminal's colours
        return _run(handler, args)
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Shown(sys.stdout), Shown(sys.stderr)  # a record is shown, not obeyed
    try:
        return _run(handler, args)
    finally:
        sys.stdout, sys.stderr = streams


def _run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    from app.instance import InstanceProblem

    try:
        status = handler(args)
        sys.stdout.flush()  # here, not at exit: a closed pipe is then caught below
        return status
    except BrokenPipeError:
        return _closed_pipe()
    except InstanceProblem as problem:
        return fail(str(problem))
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        return fail(f"{error.strerror}: {error.filename}")
    except KeyboardInterrupt:
        return 130


class Shown(io.TextIOBase):
    """A text stream that writes control and invisible characters (a terminal's escape codes,
    a name's right-to-left override) as visible escapes, so that a record file can't move the
    cursor, change the window's title or print a line of its own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text, keep="\n"))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(self.stream.encoding)


def _closed_pipe() -> int:
    """The reader of our output went away (``check ... | head -1``): stop quietly, as Unix
    tools do. Python would otherwise report the error again when it flushes stdout at exit,
    so stdout is pointed at the null device first. The status is the shell's for a program
    ended by SIGPIPE."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return CLOSED_PIPE


if __name__ == "__main__":
    sys.exit(main())
