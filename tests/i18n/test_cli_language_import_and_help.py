"""The command line in its user's language (see test_cli_language.py): import's lines, usage,
help, the start-up banner, and the messages of issues 11 and 16."""

from __future__ import annotations

import io
import re

import pytest
from serverkit import JAPANESE, LOCALES, WORKED, write
from tablekit import SMALL_RECORD as GOOD

from app import server
from app.cli import main

# -- import: `table:` and `seat NAME:` stay, errors are translated ----------------------------


@pytest.mark.parametrize("lang", list(LOCALES))
def test_import_prints_table_and_seat_lines_the_same_in_every_language(lang, tmp_path, speak,
                                                                        capsys):
    speak(LOCALES[lang])
    assert main(["import", str(WORKED), "--instance", str(tmp_path),
                 "--public-url", "http://10.0.0.7:5000/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"table: http://10\.0\.0\.7:5000/t/\S+\?key=\S+", lines[0])
    assert [line.split(": ")[0] for line in lines[1:]] == [
        "seat Natasha", "seat Sasha", "seat Kolya"]


def test_import_errors_are_translated(tmp_path, speak, capsys):
    speak("pt_BR.UTF-8")
    path = write(tmp_path / "r.json", dict(GOOD, steps=[{"by": "Bob", "do": "income"}]))
    assert main(["import", str(path), "--instance", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f'coup-referee: {path}: o passo 1 {{"by": "Bob", "do": "income"}} '
                            "foi recusado: É a vez de Ann, não de Bob.\n")


# -- usage, help and the start-up banner --------------------------------------------------------


def test_usage_errors_and_help_are_translated(speak, capsys):
    speak("ru_RU.UTF-8")
    assert main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == "coup-referee: --port должен быть от 0 до 65535, а не 70000\n"
    assert main(["dance"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(" (см. coup-referee --help)\n")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("использование: coup-referee")
    assert "воспроизвести запись игры и объяснить каждое решение" in out


def test_the_banner_is_translated(speak):
    speak("uk_UA.UTF-8")
    out = io.StringIO()
    server.print_banner(None, 5000, out=out)
    text = out.getvalue()
    assert text.startswith("Суддю гри Coup запущено. На цьому ноутбуці: http://127.0.0.1:5000/")
    assert "--public-url http://ADDRESS:PORT/" in text
    out = io.StringIO()
    server.print_banner("http://192.168.1.20:5000/", 5000, out=out)
    assert "На планшеті й телефонах (у тій самій мережі Wi-Fi): http://192.168.1.20:5000/" in (
        out.getvalue())


def test_a_port_that_cannot_be_used_is_said_in_the_users_language(speak):
    speak("ja_JP.UTF-8")
    error = server.CannotListen("127.0.0.1:5000", "Address already in use")
    assert str(error) == "cannot listen on 127.0.0.1:5000: Address already in use"
    assert error.message() == "127.0.0.1:5000 で待ち受けできません：Address already in use"


# -- the messages of issues 11 and 16 --------------------------------------------------------


def test_check_totals_are_translated_and_the_prefixes_stay(tmp_path, speak, capsys):
    bad = write(tmp_path / "bad.json", "{")
    speak("ru_RU.UTF-8")
    assert main(["check", str(WORKED), str(WORKED), str(bad)]) == 1
    out = capsys.readouterr()
    assert [line.split()[0] for line in out.out.splitlines()] == ["PASS", "PASS", "INVALID"]
    assert out.err == "2 прошли, 0 не прошли, 1 недопустим\n"
    speak("ja_JP.UTF-8")
    assert main(["check", str(WORKED), str(bad)]) == 1
    assert capsys.readouterr().err == "合格 1、不合格 0、無効 1\n"


def test_instance_and_name_problems_are_translated(tmp_path, speak, capsys):
    speak("uk_UA.UTF-8")
    (tmp_path / "file").write_text("x")
    assert main(["import", str(WORKED), "--instance", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == (
        f"coup-referee: {tmp_path / 'file'} — це файл, а не тека: вкажіть у --instance теку "
        "(якщо її немає, її буде створено)\n")
    same = write(tmp_path / "r.json", dict(
        GOOD, players=["Ann", "Bob", "ANN"],
        hands={"Ann": ["duke", "captain"], "Bob": None, "ANN": None}))
    speak("pt_BR.UTF-8")
    assert main(["import", str(same), "--instance", str(tmp_path / "i")]) == 2
    assert capsys.readouterr().err == (
        f"coup-referee: {same}: Ann e ANN são o mesmo nome; acrescente uma inicial para "
        "diferenciá-los\n")


def test_the_help_of_every_command_is_translated(speak, capsys):
    speak("ja_JP.UTF-8")
    for name in ("serve", "check", "explain", "import"):
        assert main([name, "--help"]) == 0
        description = capsys.readouterr().out.split("\n\n")[1]
        assert JAPANESE.search(description), description
