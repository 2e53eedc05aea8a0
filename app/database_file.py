"""The database file of an instance folder, checked before `serve` or `import` uses it:
:func:`check_database` gives its path or raises :class:`~app.instance.InstanceProblem` saying
in one line what is wrong and what to do; :func:`database_error` words an error met later.

Messages are in the command line's language (:mod:`app.cli_i18n`). Nothing here imports Flask.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

from sqlite_utils import Database

from app.cli_i18n import _
from app.instance import DATABASE, InstanceProblem
from app.schema import unknown_migrations

SQLITE_HEADER = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"tables", "seats", "steps"})



def check_database(folder: Path) -> Path:
    """The database path, after checking that an existing file is a database of ours.

    A missing or empty file is fine (it is made). Raises :class:`InstanceProblem` for a folder
    or another kind of file in its place, a file that can't be read, one that is not SQLite or
    is damaged, and a SQLite database of another program."""
    path = folder / DATABASE
    try:
        info = path.stat()
    except FileNotFoundError:
        _make_private(path)
        return path
    except OSError as error:
        raise _cannot_open(path, error) from None
    if stat.S_ISDIR(info.st_mode):
        # TRANSLATORS: command line. path: a file or folder path.
        raise InstanceProblem(_(
            "%(path)s is a folder, not a database: move it away, or give --instance another "
            "folder", path=path))
    if not stat.S_ISREG(info.st_mode):
        # TRANSLATORS: command line. path: a file or folder path.
        raise InstanceProblem(_(
            "%(path)s is not a file: move it away, or give --instance another folder",
            path=path))
    try:
        header = read_header(path)
    except OSError as error:
        raise _cannot_open(path, error) from None
    if not header:
        return path  # an empty file is an empty database
    if header != SQLITE_HEADER:
        # TRANSLATORS: command line. path: a file or folder path.
        raise InstanceProblem(_(
            "%(path)s is not a database (damaged, or another kind of file): rename it to keep "
            "it and start again with a new, empty one", path=path))
    try:
        tables = _tables(path)
    except sqlite3.DatabaseError as error:
        # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
        # (English) words.
        raise InstanceProblem(_(
            "%(path)s is damaged (%(reason)s): rename it to keep it and start again with a new, "
            "empty one", path=path, reason=error)) from None
    if tables and not OUR_TABLES <= tables:
        # TRANSLATORS: command line. path: a file or folder path; tables: table names.
        raise InstanceProblem(_(
            "%(path)s belongs to another program (its tables: %(tables)s): give --instance "
            "another folder, or move that file away",
            path=path, tables=", ".join(sorted(tables)[:5])))
    newer = _changes_unknown_here(path) if tables else []
    if newer:
        # TRANSLATORS: command line. path: a file or folder path; changes: names of changes
        # to the database's layout, as the program calls them (not translated).
        raise InstanceProblem(_(
            "%(path)s was written by a newer coup-referee (its changes %(changes)s are unknown "
            "to this one): run the newer release, or give --instance another folder",
            path=path, changes=", ".join(newer[:3])))
    if not (os.access(path, os.W_OK) and os.access(folder, os.W_OK)):  # and its -wal beside it
        raise _cannot_open(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    return path


def _make_private(path: Path) -> None:
    """A new database readable by this user only: it holds every hand and referee key (SQLite
    gives its -wal and -shm files the database's own permissions)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another start made it first
    except OSError as error:
        raise _cannot_open(path, error) from None


def read_header(path: Path) -> bytes:
    with path.open("rb") as file:
        return file.read(len(SQLITE_HEADER))


def _tables(path: Path) -> set[str]:
    """The tables of a database, read without changing it; raises DatabaseError if damaged."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:  # the first problem's first line: the rest is for experts
            raise sqlite3.DatabaseError(str(problems[0]).strip().splitlines()[0][:120])
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                            "AND name NOT LIKE 'sqlite_%'")
        return {str(row[0]) for row in rows}
    finally:
        conn.close()


def _changes_unknown_here(path: Path) -> list[str]:
    """The schema changes (migrations) applied to the database that this release doesn't
    have: a newer release wrote it, and this one would misread or break what it added."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return unknown_migrations(Database(conn))
    finally:
        conn.close()


def _cannot_open(path: Path, error: OSError) -> InstanceProblem:
    # TRANSLATORS: command line. path: a file or folder path; reason: the system's own (English)
    # words.
    return InstanceProblem(_(
        "can’t open %(path)s (%(reason)s): give this user the right to read and write it, or "
        "give --instance another folder", path=path, reason=error.strerror or error))


def database_error(path: Path, error: sqlite3.Error) -> str:
    """One line for an error of the database met after the checks (locked, read-only, full)."""
    if "locked" in str(error) or "busy" in str(error):
        # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
        # (English) words.
        return _("the database %(path)s stayed busy (%(reason)s): another program is writing "
                 "to it; try again in a moment", path=path, reason=error)
    # TRANSLATORS: command line. path: a file or folder path; reason: the system's own (English)
    # words.
    return _("the database %(path)s can’t be used (%(reason)s): check the disk and the "
             "file’s permissions, or give --instance another folder", path=path, reason=error)
