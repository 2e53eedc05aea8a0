"""The layers hold by their imports, not by convention: the service that writes and the one
fold load without Flask, Flask-Babel or the screens' words (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_service_and_the_fold_load_without_flask_or_words() -> None:
    probe = ("import sys, app.web.service, app.web.state; "
             "print(sorted(m for m in ('flask', 'flask_babel', 'jinja2', 'app.web.words', "
             "'app.web.views', 'app.web.tablet') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
