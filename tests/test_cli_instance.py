"""`coup-referee serve` and its instance folder: one serve per folder; a bad database, folder
or secret key is one line, and an empty key is never used."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from serverkit import WORKED, ServerProcess, cli, one_line

from app.cli import main

# -- issue 11, item 9: one serve per instance folder --------------------------------------------


def test_a_second_serve_on_the_same_instance_folder_refuses_in_one_line(tmp_path: Path) -> None:
    first = ServerProcess(tmp_path / "instance").start()
    try:
        done = cli("serve", "--host", "127.0.0.1", "--port", "0",
                   "--instance", str(first.instance))
        assert done.returncode == 2
        line = one_line(done.stderr)
        assert "already using" in line and str(first.instance) in line and first.url in line
        with __import__("urllib.request").request.urlopen(first.url + "/healthz") as answer:
            assert answer.status == 200  # the first one goes on
    finally:
        first.stop()


def test_the_instance_lock_goes_with_a_killed_server(tmp_path: Path) -> None:
    """The system drops the lock with the process: no stale lock after a crash or SIGKILL."""
    server = ServerProcess(tmp_path / "instance").start()
    server.kill()
    server.start()  # would raise if the lock were still held
    server.stop()


# -- issue 11, item 10: a bad database or secret key: one line each, never an empty key ---------


def _database_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "instance"
    (folder / "coup.sqlite").mkdir(parents=True)
    return folder


def _foreign_database(tmp_path: Path) -> Path:
    folder = tmp_path / "instance"
    folder.mkdir()
    with sqlite3.connect(folder / "coup.sqlite") as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    conn.close()
    return folder


def _not_a_database(tmp_path: Path) -> Path:
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "coup.sqlite").write_bytes(os.urandom(8192))
    return folder


def _damaged_database(tmp_path: Path) -> Path:
    folder = tmp_path / "instance"
    folder.mkdir()
    with sqlite3.connect(folder / "coup.sqlite") as conn:
        conn.execute("CREATE TABLE tables (id TEXT)")
        conn.execute("CREATE TABLE t2 (x TEXT)")
        conn.executemany("INSERT INTO t2 VALUES (?)", [("x" * 500,)] * 100)
    conn.close()
    with (folder / "coup.sqlite").open("r+b") as file:
        file.seek(4096)
        file.write(b"\x0d\xff" * 4000)  # the pages after the first: garbage
    return folder


def _secret(content: bytes | None) -> Callable[[Path], Path]:
    def make(tmp_path: Path) -> Path:
        folder = tmp_path / "instance"
        folder.mkdir()
        if content is None:
            (folder / "secret_key").mkdir()
        else:
            (folder / "secret_key").write_bytes(content)
        return folder

    return make


@pytest.mark.parametrize(("make", "words"), [
    (_database_folder, "is a folder, not a database"),
    (_foreign_database, "belongs to another program"),
    (_not_a_database, "is not a database"),
    (_damaged_database, "is damaged"),
    (_secret(b"short"), "is not a secret key"),
    (_secret(b"\xff\xfe" * 40), "is not a secret key"),
    (_secret(None), "is a folder, not the secret key"),
], ids=["database-folder", "foreign", "not-sqlite", "damaged", "short-key", "binary-key",
        "key-folder"])
def test_serve_refuses_a_bad_instance_in_one_line(tmp_path: Path, make, words: str) -> None:
    folder = make(tmp_path)
    done = cli("serve", "--host", "127.0.0.1", "--port", "0", "--instance", str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_line(done.stderr)
    assert line.startswith("coup-referee: ") and words in line, line
    assert "Coup referee is running" not in done.stdout


def test_an_instance_path_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    done = cli("import", str(WORKED), "--instance", str(tmp_path / "file"))
    assert done.returncode == 2
    assert "is a file, not a folder" in one_line(done.stderr)


def test_an_unreadable_database_is_one_line(tmp_path: Path, monkeypatch) -> None:
    from app import database_file, instance

    folder = tmp_path / "instance"
    folder.mkdir()
    database = folder / "coup.sqlite"
    database.write_bytes(b"SQLite format 3\x00")
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        database.chmod(0)
    else:  # root reads any file: make the read fail as it does for anyone else
        def refuse(path: Path) -> bytes:
            raise PermissionError(13, "Permission denied", str(path))

        monkeypatch.setattr(database_file, "read_header", refuse)
    with pytest.raises(instance.InstanceProblem) as caught:
        database_file.check_database(folder)
    assert str(caught.value).startswith(f"can’t open {database} (Permission denied)")
    assert main(["import", str(WORKED), "--instance", str(folder)]) == 2


def test_an_empty_secret_key_is_never_used(tmp_path: Path) -> None:
    """An empty key (a first start that failed while writing it, before keys were written in
    one step) is replaced by a new one."""
    from app.web.factory import create_app

    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "secret_key").write_text("  \n")
    app = create_app(str(folder), {"TESTING": True})
    key = (folder / "secret_key").read_text()
    assert len(key) == 64 and app.config["SECRET_KEY"] == key
    assert create_app(str(folder), {"TESTING": True}).config["SECRET_KEY"] == key  # kept



def test_a_database_from_a_newer_release_is_refused_in_one_line(tmp_path: Path) -> None:
    """A newer release's schema change this one doesn't know: serve and import refuse the file
    (this release could misread or break what it added) and leave it as it was."""
    from app.schema import init_db

    folder = tmp_path / "instance"
    folder.mkdir()
    database = folder / "coup.sqlite"
    init_db(database)
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                     "VALUES ('coup-referee', 'a_later_change', '2027-01-01T00:00:00')")
    conn.close()
    before = database.read_bytes()
    for command in (("serve", "--host", "127.0.0.1", "--port", "0"), ("import", str(WORKED))):
        done = cli(*command, "--instance", str(folder))
        assert done.returncode == 2, done.stdout + done.stderr
        line = one_line(done.stderr)
        assert "was written by a newer coup-referee" in line and "a_later_change" in line, line
    assert database.read_bytes() == before
