"""Every test starts in English, whatever the shell running pytest speaks.

The command line picks its language from LANGUAGE, LC_ALL, LC_MESSAGES and LANG (app/cli_i18n.py),
and many tests read its English words. LANGUAGE=en comes first unless the locale is exactly C or
POSIX, which are English anyway; it leaves the locale, and so the encoding, as it was. It is set
in os.environ, so servers and commands started by a test inherit it. Tests of other languages
set these variables themselves (tests/i18n/test_cli_language.py).
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
