"""`coup-referee import` and record files: several imports at once, bad files in one line, the
set-up form's name rules, links printed to the running server."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from serverkit import BOUND_S, ROOT, WORKED, ServerProcess, cli, one_line, write
from serverkit import command as coup_referee
from tablekit import SMALL_RECORD

from app.cli import main

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

