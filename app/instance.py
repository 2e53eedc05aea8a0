"""The instance folder: the database and the secret key of `serve` and `import`, one `serve` at
a time, and the address of the one that runs.

- :func:`default_folder`: the project's ``instance/`` in a source checkout (from whatever folder
  the command runs), or the user's data folder for an installed copy (``pipx install``), where
  the package's own folder may be read-only and is replaced by each upgrade.
- :class:`ServeLock`: a lock on ``serve.lock`` in the folder, held while `serve` runs, with the
  `filelock` library (``flock`` on Linux and macOS, ``msvcrt.locking`` on Windows). The system
  drops it when the process ends, however it ends, so a crash or a SIGKILL leaves no stale lock.
- ``server.json``: the running server's address, written once its socket is bound and removed at
  exit; `import` prints links to it (:func:`running_url`). A file left by a killed server is
  ignored: the lock says whether a server really runs.
- The database file in it is checked before use by :mod:`app.database_file`.

Messages are in the command line's language (:mod:`app.cli_i18n`). Nothing here imports Flask.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from app.cli_i18n import _

DATABASE = "coup.sqlite"
LOCK = "serve.lock"
ADDRESS = "server.json"
LOCK_WAIT_S = 2.0
"""How long a starting `serve` waits for the lock: `import` holds it for an instant to see
whether a server runs (:func:`running_url`); a real second server holds it for good."""


class InstanceProblem(Exception):
    """The instance folder can't be used as it is. ``str(error)`` is one line in the user's
    language, saying what is wrong and what to do."""


class AlreadyServing(InstanceProblem):
    """Another `serve` holds this folder's lock."""


def source_checkout() -> Path | None:
    """The project folder when the code runs from a source checkout, else None."""
    root = Path(__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file() and (root / "app" / "__init__.py").is_file():
        return root
    return None


def default_folder() -> Path:
    """Where the database lives when no ``--instance`` is given."""
    root = source_checkout()
    if root is not None:
        return root / "instance"
    from platformdirs import user_data_path

    return user_data_path("coup-referee", appauthor=False)


def folder_of(instance: str | os.PathLike[str] | None) -> Path:
    return Path(instance).resolve() if instance else default_folder()


def prepare(folder: Path) -> None:
    """Create the folder if needed; one line if it can't be."""
    if folder.exists() and not folder.is_dir():
        # TRANSLATORS: command line. path: a file or folder path.
        raise InstanceProblem(_(
            "%(path)s is a file, not a folder: give --instance a folder (it is made if missing)",
            path=folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
        # (English) words.
        raise InstanceProblem(_(
            "can’t create the folder %(path)s (%(reason)s): give --instance a folder you can "
            "write to", path=folder, reason=error.strerror or error)) from None


# -- one server per folder --------------------------------------------------------------------


class ServeLock:
    """Held while `serve` runs on ``folder``; :meth:`acquire` raises :class:`AlreadyServing`."""

    def __init__(self, folder: Path) -> None:
        from filelock import FileLock

        self.folder = folder
        self._lock = FileLock(str(folder / LOCK))
        # A database linked in from another folder is that folder's too: lock it there as well,
        # so two servers never share one database file.
        home = (folder / DATABASE).resolve().parent
        self._home = None if home == folder.resolve() else FileLock(str(home / LOCK))

    def acquire(self, wait: float = LOCK_WAIT_S) -> ServeLock:
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=wait)
            if self._home is not None:
                try:
                    self._home.acquire(timeout=wait)
                except BaseException:
                    self._lock.release()
                    raise
        except Timeout:
            url = read_address(self.folder)
            # TRANSLATORS: command line. url: a web address.
            where = _(" (at %(url)s)", url=url) if url else ""
            # TRANSLATORS: command line. path: a folder; where: " (at ADDRESS)" or nothing, the
            # message just above.
            raise AlreadyServing(_(
                "another coup-referee serve is already using %(path)s%(where)s: use that one, "
                "stop it first, or give this one another --instance",
                path=self.folder, where=where)) from None
        except OSError as error:
            # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
            # (English) words.
            raise InstanceProblem(_(
                "can’t lock %(path)s (%(reason)s): give --instance a folder you can write to",
                path=self.folder / LOCK, reason=error.strerror or error)) from None
        return self

    def release(self) -> None:
        forget_address(self.folder)
        if self._home is not None:
            self._home.release()
        self._lock.release()

    def __enter__(self) -> ServeLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def serving(folder: Path) -> bool:
    """Whether a `serve` holds the folder's lock now (tried for an instant, then let go)."""
    from filelock import FileLock, Timeout

    if not (folder / LOCK).exists():
        return False
    lock = FileLock(str(folder / LOCK))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    except OSError:
        return False
    lock.release()
    return False


# -- the running server's address -------------------------------------------------------------


def write_address(folder: Path, url: str | None, port: int) -> None:
    """Leave the server's address for `import` (replaced in one step: never half a file)."""
    data = {"url": url, "port": port, "pid": os.getpid()}
    handle, temporary = tempfile.mkstemp(prefix=".server.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(temporary, folder / ADDRESS)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def forget_address(folder: Path) -> None:
    try:
        (folder / ADDRESS).unlink(missing_ok=True)
    except OSError:
        pass


def read_address(folder: Path) -> str | None:
    """The URL a running server left, whether or not it still runs; None if there is none."""
    try:
        data = json.loads((folder / ADDRESS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    url, port = data.get("url"), data.get("port")
    if isinstance(url, str) and url.startswith(("http://", "https://")):
        return url
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
        return f"http://localhost:{port}/"
    return None


def running_url(folder: Path) -> str | None:
    """The address of the `serve` running on ``folder`` now, or None."""
    url = read_address(folder)
    if url is None or not serving(folder):
        return None
    return url
