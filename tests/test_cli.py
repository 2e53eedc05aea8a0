"""The command line answers users in one line and never with a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from serverkit import BOUND_S, RECORDS, ROOT, WORKED, cli, write
from serverkit import command as coup_referee
from tablekit import SMALL_RECORD

from app.cli import main


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

