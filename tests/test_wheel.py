"""The wheel: `pip install` of it into a clean venv outside the repository (as `pipx install .`
does) gives a working `coup-referee serve`, with templates, static files and compiled
translations, and without the test tools (issue 16, item 7).

`python3 tasks.py test` builds the wheel and passes its path in COUP_WHEEL; run alone, the test
builds it itself. Installing the wheel's dependencies needs the package index, as the first
`tasks.py` run does. Nothing here times anything: the bounds only keep a broken step from
hanging the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

from serverkit import free_port

ROOT = Path(__file__).resolve().parents[1]
BOUND_S = 600
LANGUAGES = ("en", "ru", "uk", "pt_BR", "ja")  # the catalogues' folders
TEST_TOOLS = ("pytest", "hypothesis", "ruff", "mypy", "playwright")


def wheel(tmp_path: Path) -> Path:
    given = os.environ.get("COUP_WHEEL")
    if given:
        return Path(given)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(tmp_path / "dist"), str(ROOT)],
                   check=True, timeout=BOUND_S)
    return next((tmp_path / "dist").glob("coup_referee-*.whl"))


def clean_env(tmp_path: Path) -> dict[str, str]:
    """No trace of the repository or the test venv; a home of its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "XDG_DATA_HOME", "COUP_WHEEL")}
    env["HOME"] = str(tmp_path / "home")
    return env


def test_the_wheel_installs_and_serves_outside_the_repository(tmp_path: Path) -> None:
    built = wheel(tmp_path)
    assert_it_holds_the_whole_app(built)
    env = clean_env(tmp_path)
    script = install_in_a_clean_venv(built, tmp_path, env)
    code = serve_and_read_pages(script, tmp_path, env)
    output = (tmp_path / "serve.log").read_text()
    assert code == 0 and "Traceback" not in output, output
    data = tmp_path / "home" / ".local" / "share" / "coup-referee"
    if sys.platform.startswith("linux"):
        assert (data / "coup.sqlite").exists()  # the database went to the user's data folder


def assert_it_holds_the_whole_app(built: Path) -> None:
    names = set(zipfile.ZipFile(built).namelist())
    for code in LANGUAGES:
        assert f"app/translations/{code}/LC_MESSAGES/messages.mo" in names, code
    assert {"app/templates/home.html", "app/static/app.css",
            "app/static/vendor/htmx.min.js"} <= names
    root = Path(__file__).resolve().parents[1]
    for folder in ("templates", "static"):  # every page and static file, in any sub-folder
        for path in (root / folder).rglob("*"):
            if path.is_file():
                assert f"app/{folder}/{path.relative_to(root / folder).as_posix()}" in names, path
    for package in ("app/engine", "app/records", "app/web"):
        for path in (root / package).glob("*.py"):
            assert f"{package}/{path.name}" in names, path



def install_in_a_clean_venv(built: Path, tmp_path: Path, env: dict[str, str]) -> str:
    """The wheel installed in a venv of its own; its ``coup-referee`` script, already asked
    for its help."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=BOUND_S)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    pip = [str(bin_dir / "python"), "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--quiet", "--constraint", str(ROOT / "constraints.txt"),
                    str(built)], check=True, cwd=tmp_path, env=env, timeout=BOUND_S)
    listed = subprocess.run([*pip, "list", "--format=freeze"], check=True, cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=BOUND_S).stdout
    installed = {line.split("==")[0].lower() for line in listed.splitlines()}
    assert "coup-referee" in installed and "flask" in installed
    assert not installed & set(TEST_TOOLS), installed & set(TEST_TOOLS)

    where = subprocess.run([str(bin_dir / "python"), "-c", "import app; print(app.__file__)"],
                           check=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=BOUND_S).stdout
    assert Path(where.strip()).is_relative_to(venv)  # the installed copy, not the repository

    script = str(bin_dir / "coup-referee")
    helped = subprocess.run([script, "serve", "--help"], cwd=tmp_path, env={**env,
                            "COLUMNS": "300"}, capture_output=True, text=True, timeout=BOUND_S)
    assert helped.returncode == 0, helped.stderr
    assert str(tmp_path / "home") in helped.stdout  # the user's data folder, not the package's
    return script


def serve_and_read_pages(script: str, tmp_path: Path, env: dict[str, str]) -> int:
    """The installed script's serve answers its pages in English and Japanese; its exit code
    once stopped."""
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen([script, "serve", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
        with urllib.request.urlopen(base + "/") as answer:
            assert answer.status == 200
            assert "<form" in answer.read().decode()
        with urllib.request.urlopen(base + "/static/app.css") as answer:
            assert answer.status == 200 and answer.read()
        english = urllib.request.urlopen(base + "/").read().decode()
        japanese = urllib.request.urlopen(urllib.request.Request(
            base + "/", headers={"Accept-Language": "ja"})).read().decode()
        assert 'lang="ja"' in japanese and japanese != english
        assert any("\u3040" <= ch <= "\u30ff" for ch in japanese)  # kana: translated text
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
        log.close()
    return code
