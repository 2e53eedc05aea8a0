"""The command line answers users in one line and never with a traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("serve", "check", "explain", "import"):
        assert command in out


def test_serve_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    assert "--public-url" in capsys.readouterr().out


def test_unknown_command_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dance"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "invalid choice: 'dance'" in captured.err
    assert "--help" in captured.err


def test_missing_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required" in capsys.readouterr().err


def test_bad_port_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "many"]) == 2
    assert "--port" in capsys.readouterr().err


def test_console_script_help_runs_in_a_fresh_process() -> None:
    """The installed entry point: `coup-referee --help`."""
    script = Path(sys.executable).with_name(
        "coup-referee.exe" if sys.platform == "win32" else "coup-referee"
    )
    command = [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]
    done = subprocess.run(
        [*command, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert "usage: coup-referee" in done.stdout
    assert "Traceback" not in done.stderr


def test_serve_on_a_taken_port_is_a_user_error(tmp_path: Path) -> None:
    """Runs in a subprocess because serve monkey-patches gevent."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--instance",
                str(tmp_path / "night"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert not (tmp_path / "night").exists()  # a refused serve leaves no folder behind


# -- helpers for the tests below ----------------------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import sqlite3  # noqa: E402

from serverkit import ServerProcess  # noqa: E402
from serverkit import command as coup_referee  # noqa: E402
from tablekit import SMALL_RECORD  # noqa: E402

RECORDS = ROOT / "tests" / "records"
WORKED = RECORDS / "01-worked-example.json"
BOUND_S = 60  # a subprocess that takes longer than this is broken; no test times anything


def cli(*args: str, cwd: Path = ROOT, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """`coup-referee ARGS` in a fresh process (serve monkey-patches gevent)."""
    return subprocess.run([*coup_referee(), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=BOUND_S, stdin=subprocess.DEVNULL, **kwargs)  # type: ignore


def one_line(text: str) -> str:
    assert "Traceback" not in text, text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


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


# -- issue 11, item 11: several imports at once -------------------------------------------------


def test_several_imports_at_once_succeed_or_say_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "instance"
    runs = [subprocess.Popen([*coup_referee(), "import", str(WORKED), "--instance", str(folder),
                              "--public-url", "http://10.0.0.7:5000/"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
            for _ in range(8)]
    results = [(run.wait(timeout=BOUND_S), *run.communicate()) for run in runs]
    for status, out, err in results:
        if status == 0:
            assert out.startswith("table: http://10.0.0.7:5000/t/") and err == "", err
        else:
            assert out == "" and one_line(err).startswith("coup-referee: the database ")
    made = sum(1 for status, _, _ in results if status == 0)
    with sqlite3.connect(folder / "coup.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM tables").fetchone()[0] == made
    conn.close()


# -- issue 11, item 12: record files --------------------------------------------------------------


def _record_with_player(name: str) -> str:
    data = dict(SMALL_RECORD, players=["Ann", "Bob", "NAME"],
                hands={"Ann": ["duke", "captain"], "Bob": None, "NAME": None})
    return json.dumps(data).replace('"NAME"', json.dumps(name, ensure_ascii=True))


@pytest.mark.parametrize(("content", "words"), [
    (json.dumps(dict(SMALL_RECORD, coins={"Ann": 1})).replace('"Ann": 1}', '"Ann": '
                                                               + "9" * 5000 + "}"),
     "a number of 5000 digits"),
    (_record_with_player("\ud800"), "the escape \\ud800 is half of a character"),
    (" " * 1_000_001, "too big for a game record"),
], ids=["5000-digits", "lone-surrogate", "too-big"])
@pytest.mark.parametrize("command_", ["check", "import"])
def test_a_bad_record_file_is_one_line(tmp_path: Path, capsys, content: str, words: str,
                                       command_: str) -> None:
    path = write(tmp_path / "r.json", content)
    extra = ["--instance", str(tmp_path / "i")] if command_ == "import" else []
    assert main([command_, str(path), *extra]) != 0
    out = capsys.readouterr()
    line = one_line(out.out + out.err)
    assert str(path) in line and words in line, line


@pytest.mark.parametrize("command_", ["check", "import"])
def test_a_fifo_or_device_is_refused_not_read(tmp_path: Path, command_: str) -> None:
    """Run in a process with a bound: reading a FIFO or /dev/zero would never end."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    extra = ["--instance", str(tmp_path / "i")] if command_ == "import" else []
    for path in (str(fifo), os.devnull.replace("null", "zero")):
        done = cli(command_, path, *extra)
        assert done.returncode != 0
        line = one_line(done.stdout + done.stderr)
        assert path in line and "not a record file" in line, line


def test_import_applies_the_set_up_forms_name_rules(tmp_path: Path, capsys) -> None:
    folder = str(tmp_path / "instance")
    long = write(tmp_path / "long.json", _record_with_player("x" * 30_000))
    assert main(["import", str(long), "--instance", folder]) == 2
    line = one_line(capsys.readouterr().err)
    assert "longer than 24 characters" in line and len(line) < 200 + len(str(long))
    same = write(tmp_path / "same.json", _record_with_player("ANN"))
    assert main(["import", str(same), "--instance", folder]) == 2
    assert "Ann and ANN are the same name" in one_line(capsys.readouterr().err)
    fits = write(tmp_path / "fits.json", _record_with_player("x" * 24))
    assert main(["import", str(fits), "--instance", folder,
                 "--public-url", "http://10.0.0.7:5000/"]) == 0


def test_the_name_rule_is_the_set_up_forms() -> None:
    from app.engine import MAX_NAME, RuleError, check_names

    def name_problem(names: list[str]) -> RuleError | None:
        try:
            check_names(names)
        except RuleError as problem:
            return problem
        return None

    assert MAX_NAME == 24  # the set-up form and the import share the engine's rule
    assert name_problem(["Ann", "Bob"]) is None
    assert name_problem([" Ann ", "x" * 24]) is None
    assert name_problem(["Ann", "x" * 25]) is not None
    assert name_problem(["Ann", "aNN"]) is not None
    assert name_problem(["Ann", "  "]) is not None


# -- issue 16, item 2: import prints links to the running server ---------------------------------


def test_import_prints_links_to_the_running_server(tmp_path: Path, capsys) -> None:
    server = ServerProcess(tmp_path / "instance").start()
    try:
        assert main(["import", str(WORKED), "--instance", str(server.instance)]) == 0
        out, err = capsys.readouterr()
        lines = out.splitlines()
        assert err == ""  # a server runs: no hint
        assert lines[0].startswith(f"table: {server.url}/t/")
        assert all(line.split(": ", 1)[1].startswith(server.url + "/") for line in lines)
        seat = lines[1].split(": ", 1)[1]
        with __import__("urllib.request").request.urlopen(seat) as answer:
            assert answer.status == 200  # a link that works
    finally:
        server.stop()
    assert not (server.instance / "server.json").exists()  # removed on exit
    assert main(["import", str(WORKED), "--instance", str(server.instance)]) == 0
    out, err = capsys.readouterr()
    assert f":{server.port}/" not in out
    assert err.count("\n") == 1 and "no referee is running" in err  # says why, in one line


def test_import_ignores_the_address_of_a_killed_server(tmp_path: Path, capsys) -> None:
    server = ServerProcess(tmp_path / "instance").start()
    server.kill()  # no clean-up: its server.json stays behind
    assert (server.instance / "server.json").exists()
    assert main(["import", str(WORKED), "--instance", str(server.instance)]) == 0
    assert f":{server.port}/" not in capsys.readouterr().out


# -- issue 16, item 3: a closed pipe ------------------------------------------------------------


SMALL = ROOT / "tests" / "tablekit.py"  # any file: check says INVALID in one short line


@pytest.mark.parametrize("args", [["check", *map(str, sorted(RECORDS.glob("*.json")))],
                                  ["check", str(SMALL)],
                                  ["explain", str(WORKED)],
                                  ["explain", str(RECORDS / "25-two-player-start.json")]],
                         ids=["check", "check-one-line", "explain", "explain-short"])
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """`check ... | head -1`: the reader has gone before we write (closed at once here, so the
    first write or the last flush meets the closed pipe, whatever the pipe's buffer holds)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([*coup_referee(), *args], cwd=ROOT, stdout=writer,
                              stderr=subprocess.PIPE, text=True, timeout=BOUND_S)
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == 141  # as a shell reports a tool ended by SIGPIPE


# -- issue 16, item 4: check's totals ------------------------------------------------------------


def test_check_prints_totals_after_several_files(tmp_path: Path, capsys) -> None:
    bad = write(tmp_path / "bad.json", "{")
    failing = write(tmp_path / "failing.json", dict(SMALL_RECORD, expect={"treasury": 1}))
    assert main(["check", str(WORKED), str(RECORDS / "14-exchange-plain.json"), str(failing),
                 str(bad)]) == 1
    out = capsys.readouterr()
    assert [line.split()[0] for line in out.out.splitlines()] == [
        "PASS", "PASS", "FAIL", "INVALID"]  # stdout stays one line per file, for scripts
    assert out.err == "2 passed, 1 failed, 1 invalid\n"
    assert main(["check", str(WORKED), str(WORKED)]) == 0
    assert capsys.readouterr().err == "2 passed, 0 failed\n"
    assert main(["check", str(WORKED)]) == 0  # one file: its line says it all
    assert capsys.readouterr().err == ""


# -- issue 16, item 5: help -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["check", "explain", "import", "serve"])
def test_every_command_has_a_description_and_its_file_help(name: str, capsys) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]
    assert len(description) > 60, out
    if name != "serve":
        assert re.search(r"^\s+FILE\s+\S", out, re.M), out  # FILE, then its help


@pytest.mark.parametrize("name", ["serve", "import"])
def test_instance_help_states_the_real_default_from_any_folder(name: str, tmp_path: Path) -> None:
    done = cli(name, "--help", cwd=tmp_path, env={**os.environ, "COLUMNS": "300"})
    assert done.returncode == 0
    line = next(line for line in done.stdout.splitlines()
                if line.lstrip().startswith("--instance"))
    assert f"(default: {ROOT / 'instance'})" in line
    assert "./instance" not in done.stdout


def test_tasks_help_prints_the_usage() -> None:
    for option in ("--help", "-h"):
        done = subprocess.run([sys.executable, str(ROOT / "tasks.py"), option],
                              capture_output=True, text=True, timeout=BOUND_S)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.startswith("usage: python3 tasks.py {serve|test|")
        assert "python3 tasks.py test  [pytest options...]" in done.stdout


# -- issue 16, item 1: tasks.py waits for the package manager -----------------------------------


def _tasks_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("coup_tasks", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


@pytest.fixture
def held_lock(tmp_path: Path):
    """A lock file held with fcntl as apt and dpkg hold theirs, by a process that lets go when
    told; yields (path, process)."""
    if not Path("/proc/self/fd").exists():
        pytest.skip("apt and /proc are Linux's")
    lock = tmp_path / "lock-frontend"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), "apt-get-like"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    try:
        yield lock, holder
    finally:
        holder.kill()
        holder.wait(timeout=BOUND_S)
        for pipe in (holder.stdin, holder.stdout):
            if pipe is not None:
                pipe.close()


def test_tasks_waits_for_the_package_manager_and_says_who_holds_it(held_lock, monkeypatch):
    import threading

    tasks = _tasks_module()
    lock, holder = held_lock
    said: list[str] = []
    waiting = threading.Event()

    def say(message: str) -> None:
        said.append(message)
        if message.startswith("waiting"):
            waiting.set()

    monkeypatch.setattr(tasks, "say", say)
    holders = tasks.package_lock_holders((str(lock),))
    assert holders is not None and len(holders) == 1, holders
    assert holders[0].startswith(f"pid {holder.pid} {sys.executable} -c"), holders
    result: list[str | None] = []
    waiter = threading.Thread(target=lambda: result.append(tasks.wait_for_package_manager(
        timeout=BOUND_S, poll=0.05, locks=(str(lock),))))
    waiter.start()
    assert waiting.wait(BOUND_S)
    assert f"pid {holder.pid} " in said[0]  # says what holds the lock
    assert holder.stdin is not None
    holder.stdin.close()  # the other apt-get finishes
    waiter.join(BOUND_S)
    assert result == [None]  # free: go on
    assert tasks.package_lock_holders((str(lock),)) is None


def test_tasks_gives_up_on_a_package_manager_that_stays_busy(held_lock, monkeypatch):
    tasks = _tasks_module()
    lock, holder = held_lock
    monkeypatch.setattr(tasks, "say", lambda message: None)
    reason = tasks.wait_for_package_manager(timeout=0.2, poll=0.05, locks=(str(lock),))
    assert reason is not None and reason.startswith("the package manager stayed busy")
    assert f"pid {holder.pid} " in reason


def test_tasks_blames_the_busy_package_manager_not_a_missing_chromium(monkeypatch):
    tasks = _tasks_module()
    monkeypatch.setenv("COUP_CHROMIUM", "/usr/bin/chromium")
    monkeypatch.delenv("COUP_BROWSER_SKIP", raising=False)
    monkeypatch.setenv("CI", "")
    monkeypatch.setattr(tasks, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("COUP_CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(tasks.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(tasks.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(tasks, "wait_for_package_manager",
                        lambda: "the package manager stayed busy for 5 min (pid 7 apt-get)")
    monkeypatch.setattr(tasks, "apt_install_chromium", lambda apt: pytest.fail("ran apt-get"))
    monkeypatch.setattr(tasks, "say", lambda message: None)
    tasks.ensure_chromium()
    reason = os.environ["COUP_BROWSER_SKIP"]
    assert reason.startswith("chromium could not be installed: the package manager stayed busy")


# -- a new user's first start: pip's and setuptools' chatter stays in a log -----------------------


def test_tasks_keeps_pip_output_in_a_log_and_shows_it_only_on_failure(tmp_path, capfd):
    tasks = _tasks_module()
    noisy = [sys.executable, "-c", "import sys; print('BuildBackendWarning: editable'); "
             "print('warned', file=sys.stderr)"]
    assert tasks.run_logged(noisy, tmp_path / "ok.log") == 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert "BuildBackendWarning" in (tmp_path / "ok.log").read_text()
    failing = [sys.executable, "-c", "import sys; print('ERROR: no matching distribution'); "
               "sys.exit(1)"]
    assert tasks.run_logged(failing, tmp_path / "bad.log") == 1
    out, err = capfd.readouterr()
    assert "ERROR: no matching distribution" in err
