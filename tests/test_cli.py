"""The command line answers users in one line and never with a traceback."""

from __future__ import annotations

import subprocess
import sys
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
                str(tmp_path),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
