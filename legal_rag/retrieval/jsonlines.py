"""The curated JSON Lines files of retrieval (terms of art, the Hinglish glossary, retrieval evaluation sets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeGuard

from graph_schema.errors import IngestError


def json_objects(path: Path, shape: str = "") -> list[tuple[int, dict[str, object]]]:
    """Each non-blank line of ``path`` as (line number, object).

    Raises:
        IngestError: a line that is not JSON or not an object, named by file and line (``shape``: what a line
            should look like, added to the message).
    """
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise IngestError(f"{path}:{n}: malformed JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise IngestError(f"{path}:{n}: expected a JSON object{' ' + shape if shape else ''}")
        out.append((n, obj))
    return out


def strings(value: object) -> TypeGuard[list[str]]:
    """A non-empty list of non-blank strings (a field such as "terms" or "words")."""
    return isinstance(value, list) and bool(value) and all(isinstance(t, str) and t.strip() for t in value)
