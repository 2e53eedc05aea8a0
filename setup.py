"""The one build step pyproject.toml can't say: compile the gettext catalogues into the wheel.

The ``.po`` files are the source and the only ones in git; a source checkout compiles its
``.mo`` files when the app starts (app/i18n.py). An installed copy may be read-only, so the
wheel ships them compiled: after ``build_py`` has copied the package into the build folder,
Babel compiles each ``.po`` there into its ``.mo`` beside it (fuzzy entries left out, as
``msgfmt`` does). Babel is a build requirement (pyproject.toml ``[build-system]``).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        translations = Path(self.build_lib) / "app" / "translations"
        for po in sorted(translations.glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogs})
