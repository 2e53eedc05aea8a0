"""The work behind ``python3 tasks.py``: standard library only, importable before any venv.

``shell`` runs commands and speaks for tasks.py; ``venvs`` builds the two virtual
environments, the wheel and constraints.txt; ``packages`` brings the system packages the
browser tests need (chromium and a Japanese font, with apt-get when we are root).
"""
