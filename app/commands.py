"""What each ``coup-referee`` command does (the parser and the streams are in :mod:`app.cli`).

Heavy imports stay inside the commands: ``serve`` must monkey-patch gevent before Flask,
werkzeug or threading are imported, and ``check``/``explain`` should start fast.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from app.cli_i18n import _

PROG = "coup-referee"
USER_ERROR = 2
DEFAULT_PORT = 5000


def fail(message: str) -> int:
    """A user's mistake: one line on stderr, exit status 2."""
    print(f"{PROG}: {message}", file=sys.stderr)
    return USER_ERROR


def _url_option(url: str | None) -> str | None:
    """A mistake in --public-url, in one line; None if it is fine."""
    if url and not url.startswith(("http://", "https://")):
        # TRANSLATORS: command line. url: a web address.
        return _("--public-url must start with http://, not %(url)s", url=repr(url))
    return None


def _serve_mistake(args: argparse.Namespace) -> str | None:
    """A mistake in serve's arguments, in one line; None if they are fine."""
    if not 0 <= args.port <= 65535:
        # TRANSLATORS: command line. port: a port number.
        return _("--port must be between 0 and 65535, not %(port)s", port=args.port)
    return _url_option(args.public_url)


def serve(args: argparse.Namespace) -> int:
    # The arguments first: a mistake is answered without touching the process.
    mistake = _serve_mistake(args)
    if mistake:
        return fail(mistake)

    # Then, before anything imports threading, socket or ssl through Flask.
    from gevent import monkey

    monkey.patch_all()

    import sqlite3

    from app import database_file, instance
    from app.server import CannotListen, collect_less, print_banner, public_url

    folder = instance.folder_of(args.instance)
    made_now = not folder.exists()
    instance.prepare(folder)
    lock = instance.ServeLock(folder).acquire()  # a second serve stops here, in one line
    listening = False
    try:
        database = database_file.check_database(folder)
        import gevent

        from app.web.factory import create_app
        from app.web.warm import warm_up
        from app.wsgi import serve as serve_app

        url: str | None = args.public_url
        try:
            app = create_app(str(folder), {"PUBLIC_URL": url})
        except sqlite3.Error as error:
            return fail(database_file.database_error(database, error))

        def ready(port: int) -> None:
            nonlocal listening
            listening = True
            shown = url or public_url(args.host, port)
            app.config["PUBLIC_URL"] = shown
            instance.write_address(folder, shown, port)
            print_banner(shown, port, host=args.host)
            print(_("Press Ctrl+C to stop."), flush=True)
            gevent.spawn(warm_up, app, gevent.sleep, collect_less)  # app/web/warm.py

        try:
            serve_app(app, args.host, args.port, ready)
        except CannotListen as error:
            # TRANSLATORS: command line. error: the system's own (English) words.
            return fail(_("%(error)s (try another --port)", error=error.message()))
        except KeyboardInterrupt:  # Windows; elsewhere Ctrl+C makes serve() return
            pass
    finally:
        lock.release()  # and the address file with it
        if made_now and not listening:  # a refused serve leaves no folder behind
            shutil.rmtree(folder, ignore_errors=True)
    print(_("Stopped."), flush=True)
    return 0


def check(args: argparse.Namespace) -> int:
    """One line per file for scripts (PASS, FAIL or INVALID first, in every language); the
    totals, for a person, go to stderr, so stdout stays one line per file."""
    from app.cli_i18n import message, ngettext
    from app.records import RecordError, load, replay

    passed = failed = invalid = 0
    for path in args.files:
        try:
            outcome = replay(load(path))
        except RecordError as e:
            print(f"INVALID {path}: {message(e)}", flush=True)
            invalid += 1
            continue
        if outcome.failure:
            print(f"FAIL {path}: {message(outcome.failure)}", flush=True)
            failed += 1
        else:
            print(f"PASS {path}", flush=True)
            passed += 1
    if len(args.files) > 1:
        # TRANSLATORS: command line: the totals of `check`, joined with ", ". num: a number.
        totals = [ngettext("%(num)s passed", "%(num)s passed", passed),
                  # TRANSLATORS: command line. num: a number.
                  ngettext("%(num)s failed", "%(num)s failed", failed)]
        if invalid:
            # TRANSLATORS: command line. num: a number.
            totals.append(ngettext("%(num)s invalid", "%(num)s invalid", invalid))
        # TRANSLATORS: joins the totals of `check`: "34 passed, 2 failed".
        print(_(", ").join(totals), file=sys.stderr, flush=True)
    return 1 if failed or invalid else 0


def explain(args: argparse.Namespace) -> int:
    from app.explain import explain_command

    return explain_command(args.file)


def import_(args: argparse.Namespace) -> int:
    """`coup-referee import FILE`: prints `table: URL`, then `seat NAME: URL` per seat.

    Those lines are for scripts as much as people: their words stay English in every language.
    Anything wrong is one line: the file (exit 2), the names, the instance folder, or the
    database (exit 1 when it is busy or can't be written)."""
    import sqlite3

    from app import database_file, instance
    from app.cli_i18n import message
    from app.engine import RuleError, check_names
    from app.records import RecordError, load

    mistake = _url_option(args.public_url)
    if mistake:
        return fail(mistake)
    try:
        record = load(args.file)
    except RecordError as e:
        return fail(f"{args.file}: {message(e)}")
    try:
        check_names(record.setup["players"])
    except RuleError as problem:
        return fail(f"{args.file}: {message(problem)}")
    folder = instance.folder_of(args.instance)
    instance.prepare(folder)
    database = database_file.check_database(folder)

    from app.store import Store, init_db
    from app.web.service import import_record

    try:
        init_db(database)
        with Store.open(database) as store:
            try:
                table = import_record(store, record)
            except RecordError as e:
                return fail(f"{args.file}: {message(e)}")
            seats = store.seats(table.id)
    except sqlite3.Error as error:
        print(f"{PROG}: {database_file.database_error(database, error)}", file=sys.stderr)
        return 1
    base = (args.public_url or instance.running_url(folder) or "").rstrip("/")
    if not base:
        base = _default_url().rstrip("/")
        # TRANSLATORS: command line, a hint after `import` when no server runs. port: a port
        # number.
        print(f"{PROG}: " + _("no referee is running on this instance folder: the links say "
                              "port %(port)s; start `coup-referee serve` first, or give "
                              "--public-url", port=DEFAULT_PORT), file=sys.stderr)
    print(f"table: {base}/t/{table.id}?key={table.referee_token}")
    for seat in seats:  # an untracked seat's link shows the public game, with no hand
        print(f"seat {seat.name}: {base}/s/{seat.token}")
    return 0


def _default_url() -> str:
    """Where a server would be with the default options: this laptop's LAN address."""
    from app.server import public_url

    return public_url("0.0.0.0", DEFAULT_PORT) or f"http://localhost:{DEFAULT_PORT}/"
