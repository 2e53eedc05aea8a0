"""The instance's secret key (it signs the referee's and the devices' cookies): made on first
start, never empty, never half written, and refused with one line when it can't be one."""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

from app.cli_i18n import _
from app.instance import InstanceProblem

SECRET = "secret_key"
MIN_SECRET = 32


def secret_key(folder: Path) -> str:
    """The instance's secret key, made on first use.

    A new key is written to a temporary file and linked into place, so no start ever leaves
    half a key, and two starts at once agree on one key. An empty file (left by an older
    version whose first start failed) is replaced: nothing was ever signed with it. A key
    that can't be read or is not one (binary, too short) stops the start with one line."""
    path = folder / SECRET
    for _attempt in range(3):
        try:
            raw = _read_small_file(path)
        except FileNotFoundError:
            _make_secret(path, replace=False)
            continue
        except IsADirectoryError:
            # TRANSLATORS: command line. path: a file or folder path.
            raise InstanceProblem(_(
                "%(path)s is a folder, not the secret key: remove it (a new key is made at the "
                "next start)", path=path)) from None
        except NotASecretFile:
            # TRANSLATORS: command line. path: a file or folder path; n: a number.
            raise InstanceProblem(_(
                "%(path)s is not a secret key (it must be a small file of %(n)s or more letters "
                "and digits): delete it, and a new key is made at the next start",
                path=path, n=MIN_SECRET)) from None
        except OSError as error:
            # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
            # (English) words.
            raise InstanceProblem(_(
                "can’t read %(path)s (%(reason)s): give this user the right to read it, or "
                "delete it (a new key is made at the next start)",
                path=path, reason=error.strerror or error)) from None
        try:
            key = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            key = None
        if key == "":
            _make_secret(path, replace=True)
            continue
        if key is None or len(key) < MIN_SECRET or not key.isprintable() or " " in key:
            # TRANSLATORS: command line. path: a file or folder path; n: a number.
            raise InstanceProblem(_(
                "%(path)s is not a secret key (it must be %(n)s or more letters and digits): "
                "delete it, and a new key is made at the next start; open forms then need a "
                "reload", path=path, n=MIN_SECRET))
        return key
    # TRANSLATORS: command line. path: a file or folder path.
    raise InstanceProblem(_("can’t write %(path)s: give --instance a folder you can write to",
                            path=path))


MAX_SECRET_BYTES = 4096


class NotASecretFile(OSError):
    """A pipe, a device, or a file far too big to be a secret key."""


def _read_small_file(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_SECRET_BYTES: never a pipe or a device,
    which would wait or run forever (a link to /dev/zero, a FIFO)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise NotASecretFile(path)
        raw = file.read(MAX_SECRET_BYTES + 1)
    if len(raw) > MAX_SECRET_BYTES:
        raise NotASecretFile(path)
    return raw


def _make_secret(path: Path, replace: bool) -> None:
    handle, temporary = tempfile.mkstemp(prefix=".secret_key.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as out:  # mkstemp: this user only
            out.write(secrets.token_hex(32))
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # another start made one first: use it
            except OSError:  # a file system without hard links
                if not path.exists():
                    os.replace(temporary, path)
    except OSError as error:
        # TRANSLATORS: command line. path: a file or folder path; reason: the system's own
        # (English) words.
        raise InstanceProblem(_(
            "can’t write %(path)s (%(reason)s): give --instance a folder you can write to",
            path=path, reason=error.strerror or error)) from None
    finally:
        Path(temporary).unlink(missing_ok=True)
