"""What every source yields, and the line-numbered readers they share."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from graph_schema.model import Act, Amendment, Case, Chapter, Replacement, Section
from ingestion.report import Problem, Reject


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
    for n, _, obj in read_jsonl_lines(path, rejects):
        yield n, obj


def read_jsonl_lines(path: Path, rejects: list[Reject]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Yield ``(line number, line text, object)``: the text lets a reader place a field's problem
    on the line (:func:`field_columns`). A malformed line becomes a reject at the column where
    JSON parsing failed; a UTF-8 byte-order mark before the first line (Windows editors write
    one) is not part of the data."""
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, start=1):
            if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                rejects.append(Reject.of(path.name, n, [Problem(f"not UTF-8 text (byte {exc.start + 1})")]))
                continue
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                rejects.append(Reject.of(path.name, n, [Problem(f"malformed JSON: {exc.msg} at column {exc.colno}",
                                                                column=exc.colno)]))
                continue
            if not isinstance(obj, dict):
                rejects.append(Reject.of(path.name, n, [Problem(f"expected a JSON object, got {type(obj).__name__}",
                                                                column=len(line) - len(line.lstrip()) + 1)]))
                continue
            yield n, line, obj


_WS = re.compile(r"[ \t\n\r]*")


def field_columns(line: str) -> dict[str, int]:
    """The 1-based column where each top-level key of the JSON object on ``line`` starts (its
    opening quote; the last one for a repeated key, whose value ``json.loads`` keeps)."""
    decoder = json.JSONDecoder()
    out: dict[str, int] = {}
    i = _WS.match(line, 0).end()  # type: ignore[union-attr]
    if line[i : i + 1] != "{":
        return out
    i = _WS.match(line, i + 1).end()  # type: ignore[union-attr]
    try:
        while line[i : i + 1] == '"':
            key, end = scanstring(line, i + 1)
            out[key] = i + 1
            j = _WS.match(line, end).end()  # type: ignore[union-attr]
            if line[j : j + 1] != ":":
                break
            _, j = decoder.raw_decode(line, _WS.match(line, j + 1).end())  # type: ignore[union-attr]
            j = _WS.match(line, j).end()  # type: ignore[union-attr]
            if line[j : j + 1] != ",":
                break
            i = _WS.match(line, j + 1).end()  # type: ignore[union-attr]
    except ValueError:  # not reached for a line json.loads accepted; a locator never fails a load
        pass
    return out


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
