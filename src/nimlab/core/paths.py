"""Output paths checked before any work is done.

Every command and function that writes a file (tables, trees, heatmaps) checks its path
with :func:`output_path` first, so that a typo in a folder name is refused at once instead
of after a long computation, and a missing folder is never created behind the user's back.
"""

from __future__ import annotations

import os
from pathlib import Path

from nimlab.core.errors import OutputPathError

__all__ = ["output_path", "write_text"]


#: Special files an output may go to (discarded, or the terminal).
_DEVICES = ("/dev/null", "/dev/stdout", "/dev/stderr")


def output_path(path: str | os.PathLike[str], what: str = "output") -> Path:
    """*path* as a :class:`~pathlib.Path` that a file can be written to, or a clear error.

    The path must not be empty or a directory, and its folder must exist (it is not
    created) and be writable.

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> output_path(os.path.join(d, "t.csv")).name
    't.csv'
    >>> output_path(d)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.OutputPathError: cannot write the output to ...: it is a directory; give a file name
    >>> output_path(os.path.join(d, "no", "t.csv"))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.OutputPathError: cannot write the output to .../no/t.csv: the folder .../no does not exist (nimlab does not create folders)
    """
    text = os.fspath(path)
    if not isinstance(text, str) or not text.strip():
        raise OutputPathError(f"the {what} file name is empty")
    where = f"cannot write the {what} to {text}"
    try:
        p = Path(text).expanduser()
    except RuntimeError:  # ~nosuchuser
        raise OutputPathError(f"{where}: no such user's home folder") from None
    if p.is_dir():
        raise OutputPathError(f"{where}: it is a directory; give a file name")
    if text.endswith(("/", os.sep)):
        raise OutputPathError(f"{where}: the path ends with / (a folder), give a file name")
    if p.exists() and not p.is_file() and (str(p) not in _DEVICES or what == "checkpoint"):
        raise OutputPathError(f"{where}: it is not a regular file (a device or a pipe)")
    parent = p.parent
    if not parent.exists():
        raise OutputPathError(
            f"{where}: the folder {parent} does not exist (nimlab does not create folders)"
        )
    if not parent.is_dir():
        raise OutputPathError(f"{where}: {parent} is not a folder")
    target = p if p.exists() else parent
    if not os.access(target, os.W_OK):
        raise OutputPathError(f"{where}: permission denied")
    return p


def write_text(path: str | os.PathLike[str], text: str, what: str = "output") -> Path:
    """Write *text* to a checked :func:`output_path`; an OS failure is an OutputPathError."""
    p = output_path(path, what)
    try:
        p.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OutputPathError(f"cannot write the {what} to {path}: {exc.strerror}") from None
    return p
