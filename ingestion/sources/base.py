"""What every source yields, and the line-numbered readers they share."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph_schema.model import Act, Amendment, Case, Chapter, Replacement, Section
from ingestion.report import Reject


@dataclass(frozen=True, slots=True)
class ChapterAssignment:
    """Enrichment: section ``(act, number)`` belongs to ``chapter``."""

    act: str
    section: str
    chapter: Chapter


@dataclass(frozen=True, slots=True)
class TextFill:
    """Enrichment: text for a section the primary source holds without text."""

    act: str
    section: str
    text: str
    source: str


@dataclass
class Parsed:
    """Everything one or more source files contributed, before it is checked against the graph.

    ``existence_only`` sections come from the all-Acts index: they prove a section exists but
    carry no text, so they never overwrite a section that has text.
    """

    acts: list[Act] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    existence_only: list[Section] = field(default_factory=list)
    chapters: list[ChapterAssignment] = field(default_factory=list)
    fills: list[TextFill] = field(default_factory=list)
    amendments: list[Amendment] = field(default_factory=list)
    replacements: list[Replacement] = field(default_factory=list)
    act_repeals: list[tuple[str, str, str, str]] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)

    def extend(self, other: Parsed) -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))


def read_jsonl(path: Path, rejects: list[Reject]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)``; malformed lines become rejects, blank lines are skipped."""
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                rejects.append(Reject(path.name, n, f"not UTF-8 text (byte {exc.start + 1})"))
                continue
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                rejects.append(Reject(path.name, n, f"malformed JSON: {exc.msg} at column {exc.colno}"))
                continue
            if not isinstance(obj, dict):
                rejects.append(Reject(path.name, n, f"expected a JSON object, got {type(obj).__name__}"))
                continue
            yield n, obj


def read_json_array(path: Path) -> list[Any]:
    """Read a JSON array file; entry ``i`` is reported as "line" ``i + 1``."""
    from graph_schema.errors import IngestError

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise IngestError(f"{path.name}: not UTF-8 text (byte {exc.start + 1})") from exc
    except json.JSONDecodeError as exc:
        raise IngestError(f"{path.name}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    if not isinstance(data, list):
        raise IngestError(f"{path.name}: expected a JSON array of records")
    return data


def text_or_none(value: Any) -> str | None:
    if value is None:
        return None
    s = str(value).strip()
    return s or None
