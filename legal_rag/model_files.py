"""The small JSON model files the project trains and ships (the provision relevance model, the section ranker):
written whole or not at all, read with errors that name the file."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from graph_schema.errors import ConfigurationError


def write_model(path: Path, doc: dict[str, Any], *, exclusive: bool = False) -> None:
    """Written whole to a temporary file of this process and renamed: a model being replaced is never half-written.
    ``exclusive``: never replace a file already there (raises ``FileExistsError``): a new version written by two runs
    at once is written by one of them.

    Raises:
        FileExistsError: ``exclusive`` and ``path`` exists.
        OSError: the file cannot be written.
    """
    write_whole(path, json.dumps(doc, indent=1, sort_keys=True) + "\n", exclusive=exclusive)


def write_whole(path: Path, text: str, *, exclusive: bool = False) -> None:
    """``text`` written to a temporary file of this process and renamed to ``path`` (its folders made): a file being
    replaced is never half-written. ``exclusive``: never replace a file already there.

    Raises:
        FileExistsError: ``exclusive`` and ``path`` exists.
        OSError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        if exclusive:
            os.link(tmp, path)  # fails when the file exists: an existing version is never replaced
        else:
            tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def read_model(path: Path, kind: str) -> Any:
    """The parsed JSON of a ``kind`` model file ("relevance model", "section ranker").

    Raises:
        ConfigurationError: the file is missing or unreadable, naming it.
    """
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"{kind} {path} does not exist") from exc
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"{kind} {path} cannot be read: {exc}") from exc


@contextmanager
def building(path: Path, kind: str) -> Iterator[None]:
    """Around building a model from its file's document: a missing key or a value of the wrong type is a malformed
    file, and a model's own refusal (``ConfigurationError``) is told with the file's name."""
    try:
        yield
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigurationError(f"{kind} {path} is malformed: {exc!r}") from exc
    except ConfigurationError as exc:
        raise ConfigurationError(f"{kind} {path}: {exc}") from exc
