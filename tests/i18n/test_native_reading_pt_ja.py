"""What a native reader of Brazilian Portuguese and Japanese found wrong, as checks on every
message (the checks shared with the other languages are in test_native_reading.py):

- the tablet's decision lines (a block's claim, the question a challenge or block window asks)
  are about as long as the English, so the buttons under them stay on a tablet's screen: the
  word-for-word «declara influência sobre o personagem Capitão para bloquear a ação de Roubar»
  was twice the English and pushed the last challenge button off a 1280x800 screen;
- Japanese keeps to full-width punctuation between Japanese words (「：」, not ": ");
- a quotation takes the language's own marks (“…” in Portuguese, 「」 in Japanese), never a
  straight " or ';
- a Japanese log line narrates in the plain form (…を失う。), not です/ます or the past.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from catalogkit import english_of, messages

from app.catalogs import strings
from app.i18n import Voice

NATIVE_EDITION = {"pt-BR": "bga_pt", "ja": "ja"}
BLOCKS = [("steal", "captain"), ("steal", "ambassador"), ("assassinate", "contessa"),
          ("foreign_aid", "duke")]
CLAIMS = ["duke", "captain", "assassin", "ambassador", "contessa"]
PLAYER = "Leonardo"


def width(text: str) -> int:
    """How wide a line is drawn: a full-width (Japanese) character takes two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def decision_lines(voice: Voice) -> list[str]:
    """The tablet's block claim and its windows' questions, with the box's own names."""
    lines = []
    for action, card in BLOCKS:
        lines.append(voice.format("%(name)s claims the %(card)s to block the %(action)s.",
                                  name=PLAYER, card=voice.card(card), action=voice.action(action)))
        lines.append(voice.format("Does anyone block the %(action)s?",
                                  action=voice.action(action)))
    for card in CLAIMS:
        lines.append(voice.format("Does anyone challenge %(name)s’s %(card)s?",
                                  name=PLAYER, card=voice.card(card)))
    return lines


@pytest.mark.parametrize("language", sorted(NATIVE_EDITION))
def test_the_tablet_s_decision_lines_are_about_as_long_as_the_english(language):
    english = decision_lines(Voice("en", "official"))
    native = decision_lines(Voice(language, NATIVE_EDITION[language]))
    too_long = [(said, width(said) / width(source))
                for said, source in zip(native, english, strict=True)
                if width(said) > 1.25 * width(source)]
    assert not too_long, too_long


JAPANESE = r"[\u3040-\u30ff\u4e00-\u9fff]"


def test_japanese_punctuation_is_full_width_between_japanese_words():
    # 「次のいずれかです: …」 mixed a Latin colon into a Japanese sentence. What a sentence
    # quotes in 「」 is another's words (the command line's own output, 「seat 名前: URL」).
    half_width = re.compile(rf"{JAPANESE}[:;,!?]|[:;,!?]\s*{JAPANESE}")
    found = [text for message in messages("ja") for text in strings(message)
             if half_width.search(re.sub(r"「[^」]*」", "「」", text))]
    assert not found, found


@pytest.mark.parametrize("language", sorted(NATIVE_EDITION))
def test_a_quotation_takes_the_language_s_own_marks(language):
    # «Mostra "table: URL"», 「「format」は "…"」 kept a straight quote from a keyboard.
    found = [text for message in messages(language) for text in strings(message)
             if re.search(r"['\"]", text)]
    assert not found, found


def test_a_japanese_log_line_narrates_in_the_plain_form():
    # 「…が{challenge}した。」 told one log line in the past, and a ruling read aloud at the
    # table is plain and present (docs/TRANSLATING.md: Register).
    polite_or_past = re.compile(r"(ます|です|ました|でした|した|った|だった)[。」）]")
    found = [(english_of(message), text) for message in messages("ja")
             if " ".join(message.auto_comments).startswith("log")
             for text in strings(message) if polite_or_past.search(text)]
    assert not found, found
