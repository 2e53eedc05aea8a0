"""The command line speaks its user's language, chosen from the environment (LANGUAGE, LC_ALL,
LC_MESSAGES, LANG) the way command-line programs do; what scripts read stays fixed.

Each test sets the environment with monkeypatch and runs ``app.cli.main`` in this process.
"""

from __future__ import annotations

import pytest
from serverkit import CYRILLIC, JAPANESE, LOCALES, RECORDS, WORKED, write
from tablekit import SMALL_RECORD as GOOD

from app.cli import main
from app.cli_i18n import language
from app.records import RecordError, load

UNAFFORDABLE = RECORDS / "33-unaffordable-declarations.json"


# -- how the language is chosen -------------------------------------------------------------


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": ""}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "ru"}, "ru"),
    ({"LANG": "uk_UA@euro"}, "uk"),
    ({"LANG": "pt_BR"}, "pt-BR"),
    ({"LANG": "pt_PT.UTF-8"}, "pt-BR"),
    ({"LANG": "ja_JP.eucJP"}, "ja"),
    ({"LANG": "de_DE.UTF-8"}, "en"),  # a language we have no catalogue for
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "uk_UA.UTF-8", "LC_ALL": "pt_BR.UTF-8"}, "pt-BR"),
    ({"LANG": "ja_JP.UTF-8", "LC_ALL": ""}, "ja"),  # an empty variable counts as unset
    ({"LANG": "ru_RU.UTF-8", "LANGUAGE": "uk"}, "uk"),  # LANGUAGE comes first
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "de:pt_BR:ru"}, "pt-BR"),  # a list of preferences
    ({"LANG": "ru_RU.UTF-8", "LANGUAGE": "en"}, "en"),
    ({"LANG": "ru_RU.UTF-8", "LANGUAGE": "de"}, "en"),  # as gettext: no fallback to LANG
    ({"LANG": "C.UTF-8", "LANGUAGE": "ja"}, "ja"),
    ({"LC_ALL": "C", "LANGUAGE": "ru"}, "en"),  # as GNU gettext: C ignores LANGUAGE
    ({"LANGUAGE": "uk"}, "uk"),  # no locale at all (Windows): LANGUAGE still counts
])
def test_the_language_comes_from_the_environment(environ: dict[str, str], expected: str):
    assert language(environ) == expected


# -- check: PASS/FAIL/INVALID stay, the explanation is translated ---------------------------


def test_check_in_russian_explains_an_invalid_file_in_russian(tmp_path, speak, capsys):
    speak("ru_RU.UTF-8")
    path = write(tmp_path / "r.json", dict(GOOD, steps=[{"by": "Dan", "do": "income"}]))
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out == f"INVALID {path}: шаг 1: неизвестный игрок «Dan»\n"


def test_check_in_russian_translates_a_refused_step_with_the_engines_reason(tmp_path, speak,
                                                                           capsys):
    speak("ru_RU.UTF-8")
    path = write(tmp_path / "r.json", dict(GOOD, steps=[{"by": "Bob", "do": "income"}]))
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out == (
        f'FAIL {path}: шаг 1 {{"by": "Bob", "do": "income"}} отклонён: '
        "Сейчас ходит Ann, а не Bob.\n")


BAD = {
    "bad-json.json": "{ not json",
    "one-player.json": {**GOOD, "players": ["Ann"]},
    "bad-key.json": {**GOOD, "colour": "red"},
    "unknown-step.json": {**GOOD, "steps": [{"by": "Ann", "do": "dance"}]},
    "untracked.json": {**GOOD, "expect": {"players": {"Cy": {"hand": []}}}},
}
FAILING = {
    "difference.json": {**GOOD, "expect": {"treasury": 1}},
    "refused.json": {**GOOD, "steps": [{"by": "Ann", "do": "income", "target": "Bob"}]},
    "accepted.json": {**GOOD, "steps": [{"by": "Ann", "do": "income", "rejected": True}]},
}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_check_keeps_pass_fail_and_invalid_in_every_language(lang, tmp_path, speak, capsys):
    files = {name: write(tmp_path / name, data) for name, data in {**BAD, **FAILING}.items()}
    speak("C.UTF-8")
    assert main(["check", str(WORKED), *map(str, files.values())]) == 1
    english = capsys.readouterr().out.splitlines()
    speak(LOCALES[lang])
    assert main(["check", str(WORKED), *map(str, files.values())]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(english) == 1 + len(files)
    assert lines[0] == english[0] == f"PASS {WORKED}"
    for line, before, (name, path) in zip(lines[1:], english[1:], files.items(), strict=True):
        word = "INVALID" if name in BAD else "FAIL"
        assert line.startswith(f"{word} {path}: ") and before.startswith(f"{word} {path}: ")
        if lang == "en":
            assert line == before
        else:  # the explanation after the file's name is translated, not left in English
            assert line != before, line


def test_every_kind_of_invalid_record_is_translated(tmp_path, speak, capsys):
    """Each RecordError is a template with values: Japanese output has Japanese words."""
    cases = [
        {"steps": [{"by": "Ann", "do": "income", "colour": "red"}]},
        {"steps": [{"expect": {"players": {"Ann": {"qq": 1}}}}]},
        {"steps": [{"do": "income", "by": "Ann", "rejected": 1}]},
        {"steps": [{"do": "income"}]},
        {"steps": 3},
        {"format": "coup-record/2"},
        {"hands": {"Ann": ["duke", "duke"], "Bob": ["duke", "duke"], "Cy": None}},  # engine's
    ]
    speak("ja_JP.UTF-8")
    for i, change in enumerate(cases):
        path = write(tmp_path / f"{i}.json", {**GOOD, **change})
        with pytest.raises(RecordError) as caught:
            load(path)
        assert main(["check", str(path)]) == 1
        line = capsys.readouterr().out.strip()
        assert line.startswith(f"INVALID {path}: ") and "\n" not in line
        explanation = line.removeprefix(f"INVALID {path}: ")
        assert JAPANESE.search(explanation) and explanation != str(caught.value), line


# -- explain ----------------------------------------------------------------------------------


def test_explain_in_japanese_gives_japanese_rulings_with_the_official_card_names(speak, capsys):
    speak("ja_JP.UTF-8")
    assert main(["explain", str(WORKED)]) == 0
    out = capsys.readouterr().out
    assert "SashaがKolyaの「Duke」にダウトする。" in out
    assert "Kolyaは「Duke」を見せる。Sashaは影響力を1つ失う。" in out
    assert "テーブル: pass" in out  # a step nobody takes
    assert "Sasha challenges" not in out
    assert "  Natasha：金貨1枚、裏向き2枚、表向き：なし" in out
    assert "  Kolya：金貨0枚、脱落、表向き：Contessa, Assassin" in out
    assert "国庫：" in out


def test_explain_in_japanese_gives_the_reason_a_step_was_refused(speak, capsys):
    speak("ja_JP.UTF-8")
    assert main(["explain", str(UNAFFORDABLE)]) == 0
    assert ("却下：Aは「Assassinate」を宣言できません。金貨3枚が必要ですが、"
            "Aの金貨は2枚です（E-15）。" in capsys.readouterr().out)


def test_explain_in_russian_counts_with_russian_plurals(speak, capsys):
    speak("ru_RU.UTF-8")
    assert main(["explain", str(UNAFFORDABLE)]) == 0
    out = capsys.readouterr().out
    assert "  A: 7 монет, 2 закрытые карты, открыты: нет" in out
    assert "  B: 4 монеты, 2 закрытые карты, открыты: нет" in out


@pytest.mark.parametrize("lang", ["", "C", "C.UTF-8", "POSIX", "de_DE.UTF-8", "en_US.UTF-8",
                                  "xx_YY"])
def test_unknown_or_empty_lang_means_english(lang, speak, capsys):
    speak(lang)
    assert main(["explain", str(WORKED)]) == 0
    out = capsys.readouterr().out
    assert "Sasha challenges Kolya’s Duke." in out
    assert "  Natasha: 1 coin, 2 face down, face up: none" in out
    assert not CYRILLIC.search(out) and not JAPANESE.search(out)


def test_explain_and_import_word_a_bad_file_alike_with_the_reason_translated(tmp_path, speak,
                                                                           capsys):
    speak("uk_UA.UTF-8")
    path = write(tmp_path / "r.json", "{ not json")
    assert main(["explain", str(path)]) == 2
    explained = capsys.readouterr().err
    assert explained.startswith(f"coup-referee: {path}: не JSON (рядок 1, стовпець 3: ")
    assert main(["import", str(path), "--instance", str(tmp_path / "i")]) == 2
    assert capsys.readouterr().err == explained


