"""Questions asked before: labelled questions as situations of the provisions that decided them.

The lay cards (``lay.py``) tell each provision's situations as their writers imagined a client would. Labelled
questions tell them as people did ask: "my cheque bounced, how long do I have to file", "wife beaten for jewellery by
in-laws". Each labelled development question is added, in its own words, to the situations of the provisions of today's
law its answer must cite, and the lay channel matches a new story against it as against any situation. This is
document expansion by past queries (the way search engines use the queries that led to a page), not a lexicon: no
entry is written for a miss, and the questions are the evaluation sets' as their blind writers wrote them.

Built by ``legal-rag eval build-asked`` from the development sets that were read (never a sealed or held-out set, nor a
question that a measuring set asks: ``Application._development_files``) and shipped as ``data/retrieval/asked.jsonl``.
A question dated before 2024-07-01, an unanswerable one and the old codes' provisions add nothing (a new-code
provision's situations already speak for the old-code sections it replaced: ``LayChannel``). Scoring a set leaves its
own questions out (``leave_out``), so that a development set's score is leave-one-set-out, not a lookup of itself.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from graph_schema.errors import IngestError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, main_section
from legal_rag.retrieval.jsonlines import json_objects
from legal_rag.retrieval.lay import LayCard

log = logging.getLogger(__name__)

__all__ = ["AskedQuestion", "answers_from_itself", "as_cards", "asked_rows", "merge_cards", "normalised", "read_asked",
           "write_asked"]

OLD_CODES = frozenset({"IPC", "CRPC", "IEA"})
"""Repealed on 2024-07-01: a question labelled with them tells a story of before, which their successors' situations
already speak for."""
SHAPE = '{"id": ..., "from": set file name, "question": ..., "cited": [[act, section], ...]}'
KEYS = frozenset({"id", "from", "question", "cited"})


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A labelled question and the provisions of today's law its answer must cite."""

    id: str
    source: str
    """The name of the set it came from ("probe15.jsonl")."""
    question: str
    cited: tuple[tuple[str, str], ...]


class Labelled(Protocol):
    """What a labelled question must tell to be asked before (``evaluation.answers.LabelledQuestion`` does)."""

    @property
    def id(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def as_of(self) -> str | None: ...
    @property
    def expect_cited(self) -> Sequence[tuple[str, str]]: ...
    @property
    def answerable(self) -> bool: ...


def normalised(question: str) -> str:
    """A question as compared across sets: lower case, whitespace collapsed."""
    return " ".join(question.lower().split())


def asked_rows(sets: Iterable[tuple[str, Sequence[Labelled]]]) -> list[AskedQuestion]:
    """The questions of ``sets`` (set name, its labelled rows) that add situations: answerable, not dated before
    2024-07-01, and citing a provision of today's law (the old codes' left out); a question asked twice is kept once,
    where it first appears."""
    out: list[AskedQuestion] = []
    seen: set[str] = set()
    for name, rows in sets:
        for q in rows:
            if not q.answerable or (q.as_of is not None and q.as_of < NEW_CRIMINAL_CODES_IN_FORCE):
                continue
            cited = tuple(dict.fromkeys((act, main_section(section)) for act, section in q.expect_cited
                                        if act.upper() not in OLD_CODES))
            key = normalised(q.question)
            if not cited or key in seen:
                continue
            seen.add(key)
            out.append(AskedQuestion(q.id, name, " ".join(q.question.split()), cited))
    return out


def write_asked(path: Path, rows: Sequence[AskedQuestion]) -> None:
    """Written whole to a temporary file and renamed: a file being replaced is never half-written.

    Raises:
        OSError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text("".join(json.dumps({"id": r.id, "from": r.source, "question": r.question,
                                           "cited": [list(c) for c in r.cited]}, ensure_ascii=False) + "\n"
                               for r in rows), encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def read_asked(path: Path, leave_out: Collection[Path] = ()) -> list[AskedQuestion]:
    """The questions in ``path`` (JSON Lines, ``SHAPE``); a missing file has none. ``leave_out``: question sets
    whose rows are left out, both those taken from a set of that name and any whose question one of them asks.

    Raises:
        IngestError: a line that is not such an object, a question asked twice, or a ``leave_out`` set that cannot
            be read, naming the file and line.
    """
    if not path.is_file():
        log.warning("no questions asked before at %s: the lay channel has only its cards", path)
        return []
    names = {p.name for p in leave_out}
    texts = {normalised(q) for p in leave_out for q in _questions_of(p)}
    out: list[AskedQuestion] = []
    seen: set[str] = set()
    for n, row in json_objects(path, SHAPE):
        where = f"{path}:{n}"
        if set(row) != KEYS:
            raise IngestError(f"{where}: expected an object with exactly {sorted(KEYS)}")
        qid, source, question, cited = row["id"], row["from"], row["question"], row["cited"]
        if not all(isinstance(v, str) and v.strip() for v in (qid, source, question)):
            raise IngestError(f'{where}: "id", "from" and "question" must be non-empty strings')
        if not (isinstance(cited, list) and cited and all(
                isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) and x.strip() for x in c)
                for c in cited)):
            raise IngestError(f'{where}: "cited" must be a non-empty list of [act, section] pairs of strings')
        key = normalised(str(question))
        if key in seen:
            raise IngestError(f"{where}: the question is asked a second time: {str(question)[:60]!r}")
        seen.add(key)
        if source in names or key in texts:
            continue
        out.append(AskedQuestion(str(qid), str(source), " ".join(str(question).split()),
                                 tuple((str(a).strip().upper(), str(s).strip()) for a, s in cited)))
    return out


def answers_from_itself(path: Path | None, leave_out: Collection[Path], questions: Path) -> bool:
    """Whether the questions asked before in ``path`` (less ``leave_out``) hold a question of the set ``questions``
    (taken from a set of its name, or asking one of its questions): asking that set would answer it from itself.

    Raises:
        IngestError: either file cannot be read.
    """
    if path is None:
        return False
    rows = read_asked(path, leave_out)
    asked = {normalised(q) for q in _questions_of(questions)}
    return any(r.source == questions.name or normalised(r.question) in asked for r in rows)


def _questions_of(path: Path) -> list[str]:
    """The "question" of each row of a question set."""
    try:
        return [str(row.get("question", "")) for _, row in json_objects(path)]
    except OSError as exc:
        raise IngestError(f"cannot read {path} to leave its questions out: {exc}") from exc


def as_cards(rows: Sequence[AskedQuestion]) -> list[LayCard]:
    """The questions as situations of the provisions they cite: one card per provision, in first-cited order."""
    by_key: dict[tuple[str, str], list[str]] = {}
    for r in rows:
        for key in r.cited:
            by_key.setdefault(key, []).append(r.question)
    return [LayCard(act, section, tuple(qs)) for (act, section), qs in by_key.items()]


def merge_cards(cards: Sequence[LayCard], more: Sequence[LayCard]) -> list[LayCard]:
    """``cards`` with ``more``'s situations added to the card of the same provision (a new card for one without);
    a situation already held is not repeated."""
    merged: dict[tuple[str, str], list[str]] = {(c.act, c.section): list(c.situations) for c in cards}
    for c in more:
        held = merged.setdefault((c.act, c.section), [])
        held.extend(s for s in c.situations if s not in held)
    return [LayCard(act, section, tuple(s)) for (act, section), s in merged.items()]
