"""The signing key of a local run: random per install (a key in the source would sign every
install's links alike), kept in var/ so it survives restarts, readable by its owner only.
"""

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def local_secret_key(*, path: Path) -> str:
    """The key kept in `path`, created (mode 0600) when there is none."""
    if not path.exists():
        _create(path=path)
    key = path.read_text(encoding="utf-8").strip()
    if not key:
        raise ImproperlyConfigured(f"{path} is empty: delete it to have a new key made, or set SECRET_KEY.")
    return key


def _create(*, path: Path) -> None:
    # The web server, the workers and the scheduler start at once: each writes a whole file
    # aside and links it into place, so the first link wins and nobody reads half a key.
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(secrets.token_urlsafe(50) + "\n")
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
